"""The exercises of a position file: made from its ``exercises:`` block
(:func:`build_exercise`) and checked on the engine (:func:`check_entry`, :func:`exercises_in`).

The block is read as data when the file loads (:mod:`..exercise_block`); here the engine asks
each question and a written ``answer`` must be its own. Standard library only.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ...engine.errors import NefertitiError
from ...engine.i18n import LANGUAGES, tr
from ...engine.said import Said, Worded, refused
from ...engine.variants import with_rules
from ..exercise_block import ARGUMENTS, ExerciseEntry
from ..scenario import load
from .base import Exercise, ExerciseError
from .kinds import KINDS, ClickClosingSquare

if TYPE_CHECKING:
    from ...engine.state import GameState


def build_exercise(
    entry: ExerciseEntry, start: GameState, scenario: str = "", topic: str | None = None
) -> Exercise:
    """The exercise of a file's ``entry``, asked on ``start`` (the file's position; a copy is
    kept)."""
    cls = KINDS[entry.kind][0]
    return cls.on_position(
        start,
        scenario=scenario or entry.source,
        id=entry.id,
        topic=entry.topic if topic is None else topic,
        before=entry.before,
        variants=entry.variants,
        note=entry.note,
        question=entry.questions,
        explanation=entry.explanations,
        rules=entry.rules,
        **entry.arguments,
    )


def check_entry(entry: ExerciseEntry, exercise: Exercise, start: GameState) -> None:
    """Ask the engine whether ``exercise`` (built from ``entry``) can be asked on the file's
    position ``start``: the variants apply, the ``before`` moves are legal, the option is legal
    (for is-legal: written in the notation), the question has one answer (no dice deciding), and
    the file's ``answer``, if any, is the engine's. Raises :class:`.scenario.ScenarioError` naming
    the file, the line and the field; the engine is the source of truth."""
    state = start.copy()
    if entry.variants is not None:
        try:
            state = with_rules(state, variants=entry.variants)
        except NefertitiError as error:
            raise entry.error(("variants",), refused(state, error)) from None
    for j, move in enumerate(entry.before):
        try:
            state.apply(move)
        except NefertitiError as error:
            why = refused(state, error)
            said = Said("file.ex.check.before", move=repr(move), why=why)
            raise entry.error(("before", j), said) from None
    if "option" in entry.arguments:
        text = entry.arguments["option"]
        try:
            option = state.parse(text)
        except NefertitiError as error:
            raise entry.error(("option",), refused(state, error)) from None
        if entry.kind != "is-legal" and not state.is_legal(option):
            raise entry.error(("option",), _not_legal(entry, state, text))
    try:
        truth = exercise.right_answer()
        for lang in LANGUAGES:
            exercise.prompt(lang)
            exercise.choices(lang)
    except ExerciseError as error:
        main = next(
            f
            for f in ("option", "square", "market", "gift", "seat", "kind")
            if f in (*(_FIELD_OF[a] for a in entry.arguments), "kind")
        )
        message = str(error).removeprefix(f"exercise {exercise.id}: ")
        raise entry.error((main,), message) from None
    if entry.has_answer:
        _check_answer(entry, exercise, truth)


_FIELD_OF = {argument: name for name, argument in ARGUMENTS.items()}


def _not_legal(entry: ExerciseEntry, state: GameState, text: str) -> Said:
    """Why the entry's option cannot be asked: not legal here; who decides and what they may
    choose (the first six options in the notation, as the file writes them)."""
    legal = [state.option_text(o) for o in state.legal_options()]
    shown = ", ".join(legal[:6])
    if len(legal) > 6:
        shown = Said("file.ex.check.more", shown=shown, count=len(legal) - 6)
    if state.decider >= 0:
        colour = state.colours[state.decider]
        player = Worded({lang: tr(lang, f"colour.{colour}") for lang in LANGUAGES} | {"en": colour})
    else:
        player = Said("file.ex.check.nobody")
    key = "file.ex.check.not_legal_after" if entry.before else "file.ex.check.not_legal"
    return Said(key, option=repr(text), player=player, options=shown)


def _in_words(exercise: Exercise, answer, part: str) -> Worded:
    """The engine's verdict on ``answer`` (its ``part``: headline, right_answer) in each
    language."""
    return Worded({lang: getattr(exercise.check(answer, lang), part) for lang in LANGUAGES})


def _check_answer(entry: ExerciseEntry, exercise: Exercise, truth) -> None:
    answer = entry.answer
    if isinstance(answer, list):  # every closing square
        if not isinstance(exercise, ClickClosingSquare):
            raise entry.error(("answer",), Said("file.ex.check.list_answer"))
        verdicts = [exercise.check(a) for a in answer]
        bad = next((a for a, v in zip(answer, verdicts, strict=True) if not v.valid), None)
        if bad is not None:
            why = _in_words(exercise, bad, "headline")
            raise entry.error(("answer",), Said("file.ex.check.not_an_answer", why=why))
        if sorted(set(answer)) != sorted(truth):
            right = _in_words(exercise, answer[0], "right_answer")
            written = ", ".join(v.answer for v in verdicts)
            said = Said("file.ex.check.engine_says", right=right, answer=written)
            raise entry.error(("answer",), said)
        return
    verdict = exercise.check(answer)
    if not verdict.valid:
        why = _in_words(exercise, answer, "headline")
        raise entry.error(("answer",), Said("file.ex.check.not_an_answer", why=why))
    if not verdict.correct:
        right = _in_words(exercise, answer, "right_answer")
        said = Said("file.ex.check.engine_says", right=right, answer=verdict.answer)
        raise entry.error(("answer",), said)


def exercises_in(path: str | Path, *, check: bool = True) -> list[Exercise]:
    """The exercises of any position file (a teacher's own): its ``exercises:`` block, in order.

    With ``check`` (the default) the engine checks each one (:func:`check_entry`): an exercise
    that cannot be asked, or a written ``answer`` the engine disagrees with, raises
    :class:`.scenario.ScenarioError` naming the file, the line and the field.
    """
    path = Path(path)
    scenario = load(path)
    out = []
    for entry in scenario.exercises:
        exercise = build_exercise(entry, scenario.state, scenario=str(path))
        if check:
            check_entry(entry, exercise, scenario.state)
        out.append(exercise)
    return out
