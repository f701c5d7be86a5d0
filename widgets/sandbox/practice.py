"""The Practice view: one exercise at a time, generated from the bots' games, chosen for the rules
the learner got wrong or has not met (:mod:`nefertiti_core.files.practice`).

The card is the tutorials' :class:`~widgets.game.exercise.ExerciseCard` (its board never shows closing
hints: the generator's on-screen filter counts on it; and it answers first: the board plays no
move until the question is answered, then plays the move asked about, so that nobody reads the
answer off the board before giving it); beside it the players' table of
:func:`nefertiti_core.files.practice.table_lines` (gifts counted, never valued). The rule IDs an exercise
tests are shown once it has been answered, as links (title on hover, text on click): shown before,
they would give the answer away ("R6.1" on "who decides next?" says that the market closes).

In a notebook ``widgets.Practice()`` keeps its spaced-repetition state next to the learner record
(``$NEFERTITI_HOME/practice.json``) and records the answers in it; in the served Sandbox each page
practises on its own, in memory.

The level shown is the kind's calibrated one (:mod:`nefertiti_core.files.calibration`: every
learner's first answer, here and in the classroom, moves it), with how many answers it stands on,
or the question's own level while there are too few; the scheduler prefers exercises the learner
should get right 70-85 % of the time. The kinds' ratings are the process's
(``$NEFERTITI_HOME/calibration.json``, written off the event loop); a served page's own rating
lives in memory like the rest of its practice.
"""

from __future__ import annotations

import panel as pn
import param

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files import calibration as C
from nefertiti_core.files import practice as P
from nefertiti_core.teaching.coverage import Coverage
from widgets.game.common import HTML, esc
from widgets.game.exercise import ExerciseCard
from widgets.game.rules_view import link_rule_ids
from widgets.theme import ACCENT, CHIP, FONT_STACK, TEXT_HINT, TEXT_NONE, TEXT_NOTE

#: The games the first exercises come from (more are played when they run low).
FIRST_SEEDS = (0,)


def shared_supply(seeds=FIRST_SEEDS) -> list[P.Generated]:
    """The generated exercises every Practice view of this process starts from (one cache for
    the whole process, shared with the classroom's polls: ``nefertiti_core.files.practice.shared``)."""
    return P.shared(seeds)


_REASONS = {0: "practice.reason.wrong", 1: "practice.reason.new", 2: "practice.reason.due"}


class Practice(pn.viewable.Viewer):
    """Practice exercises one after the other, "Next exercise" asking the scheduler."""

    lang = param.Selector(default="en", objects=["en", "de", "zh"])

    def __init__(
        self,
        lang: str | None = None,
        *,
        coverage: Coverage | None = None,
        scheduler: P.Scheduler | None = None,
        persist: bool | None = None,
        session=None,
        board_width: int = 700,
        **params,
    ):
        if lang is None:  # not given: the page's, or in a notebook the notebook's language
            from widgets.lesson.language import lesson_language

            lang = session.lang if session is not None else lesson_language()
        super().__init__(lang=lang, **params)
        if coverage is None and session is None:  # a notebook: the learner's own record
            from widgets.lesson.notebook import learner_coverage

            coverage = learner_coverage()
        if persist is None:
            persist = session is None
        self.coverage = coverage
        self.scheduler = scheduler or P.Scheduler(
            shared_supply(),
            coverage,
            persist=persist,
            seeds=FIRST_SEEDS,
            background=session is not None,  # a served page never waits for a game to be played
            calibration=C.shared(),
        )
        self.board_width = board_width
        self.card: ExerciseCard | None = None
        self.current: P.Generated | None = None
        self._reason = ""
        self._title = HTML("", sizing_mode="stretch_width")
        self._info = HTML("", sizing_mode="stretch_width", css_classes=["practice-info"])
        #: The position in words (what each player holds, who decides now).
        self.table = HTML("", sizing_mode="stretch_width", css_classes=["practice-table"])
        #: The rules the current position practises.
        self.rules = HTML("", sizing_mode="stretch_width", css_classes=["practice-rules"])
        #: Goes on to the next position.
        self.next_button = pn.widgets.Button(
            color="primary", width=200, css_classes=["practice-next"]
        )
        self.next_button.on_click(lambda _event: self.next())
        self._holder = pn.Column(sizing_mode="stretch_width")
        self._layout = pn.Column(
            self._title,
            self._info,
            self._holder,
            self.table,
            self.rules,
            self.next_button,
            sizing_mode="stretch_width",
            css_classes=["practice-view"],
        )
        self.param.watch(self._on_lang, "lang")
        if session is not None:  # the Sandbox: follow the page's language
            self.lang = session.lang
            session.param.watch(lambda event: setattr(self, "lang", event.new), "lang")
        self.next()

    def __panel__(self):
        return self._layout

    # ------------------------------------------------------------------ the exercises
    def next(self) -> P.Generated:
        """Show the exercise the scheduler chooses now."""
        generated = self.scheduler.next()
        rank = self.scheduler.rank(generated)[0] if generated.rule_ids else 3
        self._reason = _REASONS.get(rank, "practice.reason.later")
        self.current = generated
        self.card = ExerciseCard(
            generated.exercise,
            lang=self.lang,
            coverage=self.coverage,
            board_width=self.board_width,
            answer_first=True,  # the board must not answer the question: it plays the move after
        )
        self._counted = 0  # the card's answers already given to the scheduler
        self.card.param.watch(self._on_answer, "feedback")
        self._holder.objects = [self.card]
        self._render()
        return generated

    def _on_answer(self, _event) -> None:
        # the card sets its feedback after counting the answer (and again, unchanged in meaning,
        # when the language changes): only a new answer moves the rules between the boxes
        card = self.card
        feedback = card.feedback if card is not None else None
        if feedback is None or not feedback.valid or self.current is None:
            return
        if card.attempts <= self._counted:
            return
        self._counted = card.attempts
        self.scheduler.answered(self.current, feedback.correct)
        self._render()

    # ------------------------------------------------------------------ showing
    def _on_lang(self, _event) -> None:
        if self.card is not None:
            self.card.lang = self.lang
        self._render()

    def _render(self) -> None:
        lang, g = self.lang, self.current
        self._title.object = (
            f"<h3 style='margin:4px 0;font-family:{esc(FONT_STACK)}'>"
            f"{esc(tr(lang, 'practice.title'))}</h3>"
            f"<div style='color:{TEXT_NOTE};font-family:{esc(FONT_STACK)}'>"
            f"{esc(tr(lang, 'practice.intro'))}</div>"
        )
        self.next_button.name = tr(lang, "practice.next")
        if g is None:
            return
        level, answers, calibrated = self.scheduler.calibration.level(g)
        dots = "\u25cf" * level + "\u25cb" * (5 - level)
        if calibrated:
            source = tr(lang, "calibration.level.answers", level=level, answers=answers)
        else:
            source = tr(
                lang,
                "calibration.level.formula",
                level=level,
                answers=answers,
                needed=C.MIN_ANSWERS,
            )
        self._info.object = (
            f"<div style='font-family:{esc(FONT_STACK)};line-height:1.5'>"
            f"<span class='practice-theme' style='background:{CHIP};border-radius:8px;"
            f"padding:1px 8px;font-weight:600'>{esc(tr(lang, f'practice.theme.{g.theme}'))}"
            f"</span> <span class='practice-difficulty' title='{esc(tr(lang, 'practice.difficulty', level=level))}'"
            f" style='color:{ACCENT};margin-left:8px'>{dots} "
            f"{esc(tr(lang, 'practice.difficulty', level=level))}</span>"
            f"<div style='color:{TEXT_HINT};font-size:0.9em'>{esc(tr(lang, self._reason))} "
            f"{esc(tr(lang, 'practice.source', seed=g.seed, ply=g.ply))}</div>"
            f"<div class='practice-level' style='color:{TEXT_HINT};font-size:0.9em'>"
            f"{esc(source)}</div></div>"
        )
        answered = self.card is not None and self.card.attempts > 0
        if answered:
            rules = tr(lang, "status.list.sep").join(g.rule_ids)
            text = esc(tr(lang, "practice.answered", rules=rules))
            self.rules.object = link_rule_ids(
                f"<div class='practice-rule-ids' style='font-family:{esc(FONT_STACK)}'>{text}</div>",
                lang,
            )
        else:
            self.rules.object = (
                f"<div style='color:{TEXT_NONE};font-family:{esc(FONT_STACK)}'>"
                f"{esc(tr(lang, 'practice.rules_after'))}</div>"
            )
        state = g.exercise.state()
        items = "".join(f"<li>{esc(line)}</li>" for line in P.table_lines(state, lang))
        self.table.object = (
            f"<div style='font-family:{esc(FONT_STACK)}'><b>"
            f"{esc(tr(lang, 'practice.table.title'))}</b>"
            f"<ul style='margin:2px 0;padding-left:18px'>{items}</ul></div>"
        )
