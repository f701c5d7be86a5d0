"""An exercise card for the tutorials: the question, a live board of its position, an answer,
and feedback that explains the right answer. The engine checks the answer
(:mod:`nefertiti_core.files.exercises`); this card only shows it.

Two ways to answer: "click the square that..." exercises take a click on the board; the others
take a choice, a number or a probability, then "Check". After answering, the learner can play on
the board to see the answer happen ("predict, then reveal"; with ``answer_first``, as in the
Practice view, the board refuses moves until then and plays the asked move itself); every step they play counts towards
their rule coverage (:mod:`nefertiti_core.teaching.coverage`).
"""

from __future__ import annotations

import panel as pn
import param

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.exercises import Exercise, Feedback
from nefertiti_core.teaching.board_words import chosen_square_words
from nefertiti_core.teaching.coverage import Coverage, answer_rules
from widgets.game.accessible import name_for_readers
from widgets.game.board import Board
from widgets.game.common import HTML, after_page_message, colour_name, esc, md_escape
from widgets.game.live_verdict import LiveVerdict, verdict_words
from widgets.game.rules_view import link_rule_ids
from widgets.game.session import GameSession
from widgets.theme import EXPLANATION, FONT_STACK, VERDICT_COLOURS

VERDICT_MARK = {"right": "\u2714", "wrong": "\u2717", "invalid": "?"}


def feedback_html(feedback: Feedback) -> str:
    """The verdict first, in its colour, then the reason, then how it plays out, folded (escaped:
    the texts are plain)."""
    kind = "invalid" if not feedback.valid else "right" if feedback.correct else "wrong"
    ink, paper, edge = VERDICT_COLOURS[kind]
    headline = feedback.headline or feedback.explanation
    reason = feedback.reason if feedback.headline else ""
    parts = [
        f'<div class="verdict verdict-{kind}" style="font-family:{esc(FONT_STACK)};'
        f"color:{ink};background:{paper};border-left:5px solid {edge};padding:8px 12px;"
        f'border-radius:4px;line-height:1.45">'
        f'<div style="font-weight:700;font-size:1.05em">{VERDICT_MARK[kind]} {esc(headline)}</div>'
    ]
    if reason:
        parts.append(f'<div style="color:{EXPLANATION};margin-top:4px">{esc(reason)}</div>')
    if feedback.details:  # how it plays out: there for the curious, folded for everyone else
        parts.append(
            f'<details class="verdict-details" style="color:{EXPLANATION};margin-top:4px">'
            f"<summary>{esc(feedback.details_label)}</summary>{esc(feedback.details)}</details>"
        )
    parts.append("</div>")
    return "".join(parts)


def collections_text(state, lang: str) -> str:
    """What each player holds, as counts only ("Green: 2 harps, 1 chair · Red: nothing yet"):
    the board does not show collections, and their values would give some answers away."""
    parts = []
    for seat, colour in enumerate(state.colours):
        gifts = []
        for t, name in enumerate(R.GIFT_TYPES):
            count = state.type_count(seat, t)
            if count:
                gift = tr(lang, f"card.{name}") if count == 1 else tr(lang, f"gift.{name}")
                gifts.append(tr(lang, "count.gift", n=count, gift=gift))
        held = tr(lang, "status.list.sep").join(gifts) or tr(lang, "exercise.card.holds_nothing")
        parts.append(tr(lang, "exercise.card.held", colour=colour_name(lang, colour), held=held))
    label = tr(lang, "exercise.card.collections")
    return tr(lang, "exercise.card.collections_line", label=label, players=" · ".join(parts))


#: The narrowest the question's column gets beside the board; narrower, it goes above it.
QUESTION_MIN_PX = 300
#: The narrowest the board's column gets beside the question (a phone's board is narrower: there
#: the two are one column, and the board takes the whole width).
BOARD_MIN_PX = 480


def card_layout(question: pn.Column, board: pn.Column, board_width: int) -> pn.FlexBox:
    """An exercise card's two columns: the question (prompt, answer, verdict) on the left and the
    board on the right, the board growing up to ``board_width`` and the question taking the rest
    of the width (a wide notebook left empty strips beside a fixed board); where both do not fit
    side by side (a phone, a narrow column), the question above the board, which then scales to
    the whole width."""
    question.param.update(
        sizing_mode="stretch_width",
        css_classes=["exercise-question"],
        styles={"flex": f"1 1 {QUESTION_MIN_PX}px", "min-width": "0"},
    )
    board.param.update(
        sizing_mode="stretch_width",
        css_classes=["exercise-board"],
        max_width=board_width,
        styles={"flex": f"2 1 {min(board_width, BOARD_MIN_PX)}px", "min-width": "0"},
    )
    return pn.FlexBox(
        question,
        board,
        flex_wrap="wrap",
        align_items="flex-start",
        sizing_mode="stretch_width",
        css_classes=["exercise-card"],
    )


class AnswerFirstSession(GameSession):
    """A card's game that plays none of the learner's moves until the question is answered
    (:attr:`opened`): clicked before, the move is refused in words (``refused`` counts them), so
    that nobody reads the answer off the board; the card then plays the asked move itself."""

    refused = param.Integer(default=0, doc="Moves the learner tried before answering")

    def __init__(self, state, **params):
        super().__init__(state, **params)
        self.opened = False

    def play(self, option, by_learner: bool = False) -> bool:
        if by_learner and not self.opened:
            self.error = tr(self.lang, "practice.board.not_yet")
            self.refused += 1
            return False
        return super().play(option, by_learner=by_learner)


class ExerciseCard(pn.viewable.Viewer):
    """One exercise with its own live board (a session of its own).

    ``answer_first`` (the Practice view): the board plays nothing until the question has been
    answered, then plays the move the question is about (:meth:`Exercise.asked_option`) so
    that the learner sees it happen; a note above the board says which is the case.

    The verdict is shown in ``result`` and said to a screen reader through ``verdict_live``, a
    polite live region in the card from the start (live_verdict.py).
    """

    exercise = param.ClassSelector(class_=Exercise)
    lang = param.Selector(default="en", objects=["en", "de", "zh"])
    feedback = param.ClassSelector(class_=Feedback, default=None, allow_None=True)
    attempts = param.Integer(default=0)

    def __init__(
        self,
        exercise: Exercise,
        lang: str = "en",
        coverage: Coverage | None = None,
        board_width: int = 700,
        answer_first: bool = False,
        **params,
    ):
        super().__init__(exercise=exercise, lang=lang, **params)
        self.coverage = coverage
        self.answer_first = answer_first
        # No closing hints on an exercise board: they would give the answer away.
        make = AnswerFirstSession if answer_first else GameSession
        self.session = make(exercise.state(), lang=lang, hints=False)
        #: What the board does for the question: waits for the answer, or has played the move.
        self.board_note = HTML(
            "",
            visible=answer_first,
            sizing_mode="stretch_width",
            css_classes=["exercise-board-note"],
            margin=(0, 10),
        )
        if answer_first:
            self.session.param.watch(lambda *_: self._show_board_note(), "refused")
        square_answer = exercise.answer_kind == "square"
        # The board scales to its column (at most ``board_width`` wide): the same card fits a
        # phone, a projector and a wide notebook (layout below).
        # A square's answer is given on the board: by a click, or by the keyboard grid
        # (board_keys.py: Tab to the board, the arrow keys, Enter or Space).
        self.board = Board(
            self.session,
            width=board_width,
            fit=True,
            on_square=self._answer_square if square_answer else None,
            keys=square_answer,
        )
        self._answered = None  # the last answer as given (to judge it again in another language)
        self._chosen = None  # a square's answer: (market, index) chosen on the board
        self._played = False  # whether the board played the asked move after the answer
        self._asked = exercise.asked_option() if answer_first else None
        self._prompt = pn.pane.Markdown(
            sizing_mode="stretch_width", css_classes=["exercise-prompt"]
        )
        self._collections = HTML(
            sizing_mode="stretch_width", css_classes=["exercise-collections"], margin=(0, 10)
        )
        self._answer = self._answer_widget()
        self._check = pn.widgets.Button(
            button_type="primary", min_width=120, css_classes=["exercise-check"]
        )
        self._check.on_click(self._on_check)
        # as wide as its words in every language ("Stellung zurücksetzen" was cut at a fixed width)
        self._again = pn.widgets.Button(min_width=160, css_classes=["exercise-reset"])
        self._again.on_click(self._on_reset)
        # only the text goes to the page when it changes (Panel's HTML pane sends its
        # stylesheets again, and in a notebook output shown first they belong to another
        # document: "Models must be owned by only a single document", and no feedback)
        #: Whether the answer was right, and why.
        self.result = HTML(
            visible=False, sizing_mode="stretch_width", css_classes=["exercise-feedback"]
        )
        #: The verdict's words for a screen reader: a polite live region in the page from the
        #: start (live_verdict.py), so that the verdict is announced when it arrives.
        self.verdict_live = LiveVerdict(css_classes=["exercise-verdict-live"])
        self.session.param.watch(self._on_play, "version")
        # on several lines where the column is narrow (a phone): never wider than the page
        self._controls = pn.FlexBox(
            self._answer, self._check, self._again, flex_wrap="wrap", align_items="center"
        )
        self._controls[1].visible = not square_answer
        self._layout = card_layout(
            pn.Column(
                self._prompt, self._collections, self._controls, self.result, self.verdict_live
            ),
            pn.Column(self.board_note, self.board),
            board_width,
        )
        self._render()
        self.param.watch(lambda *_: self._render(), "lang")

    def __panel__(self):
        return self._layout

    # ------------------------------------------------------------------ answering
    def _answer_widget(self):
        kind = self.exercise.answer_kind
        if kind == "choice":
            return pn.widgets.RadioButtonGroup(
                options={},
                button_type="light",
                css_classes=["exercise-answer"],
                stylesheets=[".bk-btn-group { flex-wrap: wrap; }"],  # a phone: several lines
            )
        if kind == "integer":
            # The learner types the number. Bokeh's up and down arrows are buttons without a
            # name (axe: button-name, critical) and are not needed to answer: not shown.
            return pn.widgets.IntInput(
                value=0,
                width=120,
                css_classes=["exercise-answer"],
                stylesheets=[".bk-spin-btn { display: none !important; }"],
            )
        if kind == "probability":
            # the placeholder shows the form, never a value (a value would be some question's answer)
            return pn.widgets.TextInput(width=200, css_classes=["exercise-answer"])
        # square: the answer is a click on the board (or Enter on the keyboard grid's square);
        # this line says how, then which square was chosen (a live region: read out)
        return HTML("", css_classes=["exercise-answer"])

    def answer(self, value) -> Feedback:
        """Check an answer (what the widgets pass; also callable from a notebook cell)."""
        feedback = self.exercise.check(value, self.lang)
        if feedback.valid:
            self.attempts += 1
            if self.coverage is not None:  # right / wrong per rule the exercise tests
                self.coverage.answered(answer_rules(self.exercise, feedback), feedback.correct)
        self._answered = value
        self.feedback = feedback
        self._show(feedback)
        self.verdict_live.say(verdict_words(feedback))  # said again for the same answer again
        if feedback.valid and self.answer_first and not self.session.opened:
            self.session.opened = True  # answered: the board shows the move, then plays on
            self._played = self._asked is not None and self.session.play(self._asked)
            self._show_board_note()
        return feedback

    def _answer_square(self, cell) -> None:
        # the market too: a square of another market is not an answer (the engine says so)
        self._chosen = (cell.market, cell.index)
        self._show_square_line()
        self.answer((cell.market, cell.index))

    def _show_square_line(self) -> None:
        """How to answer on the board, or which square was chosen: in a live region, so that a
        learner on the keyboard hears the square Enter chose before the verdict."""
        lang = self.lang
        if self._chosen is None:
            text = tr(lang, "exercise.card.click_board")
        else:
            square = chosen_square_words(self.session.state, *self._chosen, lang)
            text = tr(lang, "exercise.card.your_square", square=square)
        self._answer.object = (
            f'<p class="exercise-square-line" role="status" aria-live="polite" '
            f'style="margin:4px 0">{esc(text)}</p>'
        )

    @after_page_message  # the answer typed in the same message as the click
    def _on_check(self, _event) -> None:
        value = getattr(self._answer, "value", None)
        self.answer(value)

    def _on_reset(self, _event) -> None:
        self.reset()

    def reset(self) -> None:
        """A fresh copy of the position, to answer again or replay (the button's action)."""
        self.session.load_state(self.exercise.state())
        self.feedback = None
        self._answered = None
        self.result.visible = False
        self.verdict_live.show("")
        if self._chosen is not None:
            self._chosen = None
            self._show_square_line()

    def _show_board_note(self) -> None:
        if not self.answer_first:
            return
        lang = self.lang
        if self.session.opened:
            text = tr(lang, "practice.board.played") if self._played else ""
        elif self.session.refused:
            text = tr(lang, "practice.board.not_yet")
        else:  # a question about a move: the board will play it
            text = tr(lang, "practice.board.answer_first") if self._asked else ""
        state = "refused" if self.session.refused and not self.session.opened else "waiting"
        if self.session.opened:
            state = "played" if self._played else "open"
        self.board_note.object = (
            f"<div class='board-note board-note-{state}' style='font-family:{esc(FONT_STACK)};"
            f"color:{EXPLANATION};font-size:13px'>{esc(text)}</div>"
        )
        self.board_note.visible = bool(text)

    def _show_collections(self) -> None:
        text = esc(collections_text(self.session.state, self.lang))
        self._collections.object = f"<span style='font-size:13px'>{text}</span>"

    def _on_play(self, *_):
        self._show_collections()
        if self.coverage is not None:  # the learner's own clicks count as practised
            self.coverage.record(
                self.session.state, learner=self.session.learner_events, source=self.session
            )

    # ------------------------------------------------------------------ showing
    def _show(self, feedback: Feedback) -> None:
        # The engine's verdict ("Right: ...", "Not quite: ...") first, in colour; then why.
        # the rule IDs of the reason: their titles on hover, their texts on click
        self.result.object = link_rule_ids(feedback_html(feedback), self.lang)
        self.result.visible = True

    def _render(self) -> None:
        lang = self.lang
        self.session.lang = lang
        self._prompt.object = (
            f"**{tr(lang, 'exercise.card.question')}** {md_escape(self.exercise.prompt(lang))}"
        )
        self._show_collections()
        if self.exercise.answer_kind == "choice":
            self._answer.options = {label: value for value, label in self.exercise.choices(lang)}
        if self.exercise.answer_kind == "square":
            self._show_square_line()
        if self.exercise.answer_kind == "probability":
            self._answer.placeholder = tr(lang, "poll.learner.placeholder.probability")
        if self.exercise.answer_kind in (
            "integer",
            "probability",
        ):  # a field: named by its question
            name_for_readers(self._answer, self.exercise.prompt(lang))
        self._show_board_note()
        self._check.name = tr(lang, "exercise.card.check")
        self._again.name = tr(lang, "exercise.card.reset")
        if self.feedback is not None:
            self.feedback = self.exercise.check(self._answered, lang)
            self._show(self.feedback)
            self.verdict_live.show(verdict_words(self.feedback))  # in the new language
