"""An exercise card for the tutorials: the question, a live board of its position, an answer,
and feedback that explains the right answer. The engine checks the answer
(:mod:`nefertiti_core.exercises`); this card only shows it.

Two ways to answer: "click the square that..." exercises take a click on the board; the others
take a choice, a number or a probability, then "Check". After answering, the learner can play on
the board to see the answer happen ("predict, then reveal"); every step they play counts towards
their rule coverage (:mod:`nefertiti_core.coverage`).
"""

from __future__ import annotations

import panel as pn
import param

from nefertiti_core.coverage import Coverage
from nefertiti_core.exercises import Exercise, Feedback
from nefertiti_core.i18n import tr

from ._common import after_page_message
from .board import Board
from .session import GameSession


class ExerciseCard(pn.viewable.Viewer):
    """One exercise with its own live board (a session of its own)."""

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
        **params,
    ):
        super().__init__(exercise=exercise, lang=lang, **params)
        self.coverage = coverage
        # No closing hints on an exercise board: they would give the answer away.
        self.session = GameSession(exercise.state(), lang=lang, hints=False)
        square_answer = exercise.answer_kind == "square"
        self.board = Board(
            self.session,
            width=board_width,
            on_square=self._answer_square if square_answer else None,
        )
        self._prompt = pn.pane.Markdown(sizing_mode="stretch_width")
        self._answer = self._answer_widget()
        self._check = pn.widgets.Button(button_type="primary", width=120)
        self._check.on_click(self._on_check)
        self._again = pn.widgets.Button(width=160)
        self._again.on_click(self._on_reset)
        self._result = pn.pane.Alert(visible=False, sizing_mode="stretch_width")
        self.session.param.watch(self._on_play, "version")
        self._controls = pn.Row(self._answer, self._check, self._again)
        self._controls[1].visible = not square_answer
        self._layout = pn.Column(
            self._prompt, self._controls, self._result, self.board, sizing_mode="stretch_width"
        )
        self._render()
        self.param.watch(lambda *_: self._render(), "lang")

    def __panel__(self):
        return self._layout

    # ------------------------------------------------------------------ answering
    def _answer_widget(self):
        kind = self.exercise.answer_kind
        if kind == "choice":
            return pn.widgets.RadioButtonGroup(options={}, button_type="light")
        if kind == "integer":
            return pn.widgets.IntInput(value=0, width=120)
        if kind == "probability":
            return pn.widgets.TextInput(placeholder="4/36", width=120)
        return pn.pane.Markdown("")  # square: the answer is a click on the board

    def answer(self, value) -> Feedback:
        """Check an answer (what the widgets pass; also callable from a notebook cell)."""
        feedback = self.exercise.check(value, self.lang)
        if feedback.valid:
            self.attempts += 1
        self.feedback = feedback
        self._show(feedback)
        return feedback

    def _answer_square(self, cell) -> None:
        self.answer(cell.index)

    @after_page_message  # the answer typed in the same message as the click
    def _on_check(self, _event) -> None:
        value = getattr(self._answer, "value", None)
        self.answer(value)

    def _on_reset(self, _event) -> None:
        """A fresh copy of the position, to answer again or replay."""
        self.session.load_state(self.exercise.state())
        self.feedback = None
        self._result.visible = False

    def _on_play(self, *_):
        if self.coverage is not None:
            self.coverage.record(self.session.state)

    # ------------------------------------------------------------------ showing
    def _show(self, feedback: Feedback) -> None:
        # The engine's explanation starts with its own verdict ("Right: ...", "Not quite: ...").
        if not feedback.valid:
            kind = "warning"
        else:
            kind = "success" if feedback.correct else "danger"
        self._result.object = feedback.explanation
        self._result.alert_type = kind
        self._result.visible = True

    def _render(self) -> None:
        lang = self.lang
        self.session.lang = lang
        self._prompt.object = (
            f"**{tr(lang, 'exercise.card.question')}** {self.exercise.prompt(lang)}"
        )
        if self.exercise.answer_kind == "choice":
            self._answer.options = {label: value for value, label in self.exercise.choices(lang)}
        if self.exercise.answer_kind == "square":
            self._answer.object = tr(lang, "exercise.card.click_board")
        self._check.name = tr(lang, "exercise.card.check")
        self._again.name = tr(lang, "exercise.card.reset")
        if self.feedback is not None:
            self.feedback = self.exercise.check(self.feedback.answer, lang)
            self._show(self.feedback)
