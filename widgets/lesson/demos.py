"""Demonstrations for the lessons: what a move does, shown on a board of its own.

A lesson's own board is the learner's: it starts where the text says and only the learner changes
it. A demonstration is a second board staged from the same position file, with the steps played
on it and told in the engine's words, and it stays folded until the learner asks for it, so that
the learner predicts first ("predict, then try"). A cell that builds one can run twice,
or out of order: nothing is played until the button is pressed, and a refused step is shown as a
sentence, never raised.

    from widgets.lesson.demos import demo, watch_game
    demo("abou-simbel-left-sums", "place abou_simbel.left#5", market="abou_simbel")
    watch_game(seed=3)              # four greedy bots play a basic game; step through it
"""

from __future__ import annotations

import html

import panel as pn
import param

from nefertiti_core import new_game
from nefertiti_core.engine.i18n import LANGUAGES, tr
from nefertiti_core.engine.scoring import totals
from nefertiti_core.teaching.explain import narrate, winner_line
from nefertiti_core.teaching.status import describe_status, stall_status
from widgets.game.board import Board
from widgets.game.board_text import BoardText
from widgets.game.common import HTML, colour_name
from widgets.game.log import Log
from widgets.game.session import GameSession
from widgets.game.timeline import Timeline
from widgets.lesson.language import lesson_language
from widgets.lesson.notebook import Lesson, lines_html

__all__ = ["Demo", "GameReplay", "demo", "watch_game"]


class Demo(pn.viewable.Viewer):
    """A folded demonstration: a button, and on press the position after ``steps`` on a board of
    its own, with the engine's account of each step (and, for ``market``, where that market
    stands now). The board is a full lesson board: Undo shows the position before, and "Back to
    the start" goes back to where the file starts."""

    lang = param.Selector(default="en", objects=list(LANGUAGES))
    shown = param.Boolean(default=False, doc="Whether the demonstration is unfolded")

    def __init__(
        self,
        scenario: str,
        *steps: str,
        market: str | None = None,
        variants=None,
        label: str | None = None,
        lang: str | None = None,
        width: int = 620,
        **params,
    ):
        lang = lesson_language(lang)  # not given: the notebook's language (use_language)
        super().__init__(lang=lang, **params)
        self.scenario, self.steps, self.market = scenario, steps, market
        self._variants, self._label, self._width = variants, label, width
        self.lesson: Lesson | None = None  # built on the first press
        self.refused = ""  # why a step was refused (a broken demonstration), else empty
        self._button = pn.widgets.Button(button_type="light", css_classes=["lesson-demo-show"])
        self._button.on_click(self._on_press)
        self._account = HTML(sizing_mode="stretch_width", css_classes=["lesson-demo-account"])
        #: The demonstration's account, shown once unfolded.
        self.body = pn.Column(self._account, sizing_mode="stretch_width", visible=False)
        self._layout = pn.Column(self._button, self.body, sizing_mode="stretch_width")
        self.param.watch(self._on_lang, "lang")
        self._on_lang()

    def __panel__(self):
        return self._layout

    def show(self) -> None:
        """Unfold (what the button does); builds the board the first time."""
        if self.lesson is None:
            self._build()
        self.shown = True
        self.body.visible = True
        self._on_lang()

    def hide(self) -> None:
        self.shown = False
        self.body.visible = False
        self._on_lang()

    def _on_press(self, _event) -> None:
        self.hide() if self.shown else self.show()

    def _build(self) -> None:
        lesson = Lesson(
            self.scenario,
            lang=self.lang,
            variants=self._variants,
            width=self._width,
            note="open",
            hints=True,
        )
        self.refused = lesson.play(*self.steps).refused
        self.lesson = lesson
        self.body.append(lesson)

    def account(self) -> list[str]:
        """The engine's sentences about the steps played (and the market's state after)."""
        if self.lesson is None:
            return []
        state = self.lesson.session.state
        lines = narrate(state, self.lang)
        if self.refused:
            lines.append(tr(self.lang, "lesson.demo.refused", why=self.refused))
        if self.market is not None:
            status = describe_status(stall_status(state, self.market), state.colours, self.lang)
            lines.append(tr(self.lang, "lesson.demo.now", status=status))
        return lines

    def _on_lang(self, *_) -> None:
        lang = self.lang
        label = self._label or tr(lang, "lesson.demo.show")
        self._button.name = tr(lang, "lesson.demo.hide") if self.shown else f"▸ {label}"
        if self.lesson is not None:
            self.lesson.lang = lang
            self._account.object = (
                f"<b>{html.escape(tr(lang, 'lesson.demo.account'))}</b>"
                + lines_html(self.account(), lang)
            )


def demo(scenario: str, *steps: str, **options) -> Demo:
    """A folded demonstration of ``steps`` from the position file ``scenario`` (see :class:`Demo`)."""
    return Demo(scenario, *steps, **options)


class GameReplay(pn.viewable.Viewer):
    """A whole game the bots have played, to step through: a player (▶), the board, the log and
    the timeline; under them, how the game ended, scored by the engine (R9)."""

    def __init__(
        self,
        seed: int = 3,
        players: int = 4,
        characters: bool = False,
        bots: str = "greedy",
        lang: str | None = None,
        width: int = 620,
    ):
        super().__init__()
        lang = lesson_language(lang)  # not given: the notebook's language (use_language)
        game = new_game(players, seed=seed, characters=characters, record_events=True)
        self.session = GameSession(game, seats=[bots] * players, lang=lang)  # plays it out
        final = self.session.state
        self.final_totals = dict(zip(final.colours, totals(final), strict=True))
        self.steps = self.session.history.length()
        self.turns = final.turn_no
        ending = tr(lang, "lesson.replay.end", turns=self.turns, steps=self.steps)
        scores = tr(lang, "status.list.sep").join(
            f"{colour_name(lang, c)} {points}" for c, points in self.final_totals.items()
        )
        sentences = ending + tr(lang, "status.sentence_sep") + winner_line(final, lang)
        self.summary = tr(lang, "bracket.after", text=sentences, note=scores)
        self.session.jump(0)
        self.player = pn.widgets.Player(
            name=tr(lang, "lesson.replay.step"),
            start=0,
            end=self.steps,
            interval=400,
            show_loop_controls=False,
            width=min(width, 560),
        )
        self.player.param.watch(lambda event: self.session.jump(event.new), "value")
        #: The board in words, each step stepped to announced: a replay's board is watched, not
        #: played, so it has the text view and no keyboard grid (board_text.py).
        self.board_text = BoardText(self.session)
        self._layout = pn.Column(
            self.player,
            pn.FlexBox(
                Board(self.session, width=width),
                Log(self.session, height=500),
                flex_wrap="wrap",
                sizing_mode="stretch_width",
            ),
            Timeline(self.session),
            self.board_text,
            pn.pane.Markdown(self.summary, css_classes=["lesson-replay-summary"]),
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout


def watch_game(seed: int = 3, **options) -> GameReplay:
    """Four bots play a whole game when the cell runs; the learner steps through it."""
    return GameReplay(seed=seed, **options)
