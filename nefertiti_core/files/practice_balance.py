"""How fair the generated practice is: what each kind's answers are, whether a text depends on
the hidden deck, whether a forced step is stated.

A practice supply is fair when a learner cannot win by always giving the same answer to a kind
of question (:func:`answer_class` sorts the answers; :func:`balance` counts them per kind), when
no text names a card that a refill draws from the deck, whose order nobody at the table knows
(:func:`names_hidden_card` asks the same exercise with the deck imagined in other orders: a text
that changes names a hidden card), and when a "who decides next?" whose option leads through
steps with a single legal option says that the engine plays them (:func:`forced_steps`,
:func:`states_forced_steps`). ``benchmarks/practice_balance.py`` prints all of it for a supply;
the tests hold the generator to it. Standard library only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ..engine.i18n import DEFAULT_LANGUAGE
from .exercises import Exercise, ExerciseError, WhoDecidesNext
from .exercises.base import ExerciseWords, imagined_deck_order, play_on_copy
from .exercises.kinds import forced_step

__all__ = [
    "MAX_SHARE",
    "answer_class",
    "balance",
    "feedback_texts",
    "forced_steps",
    "kind_of",
    "names_hidden_card",
    "states_forced_steps",
]

#: No answer may be the right one for more than this share of a kind's questions.
MAX_SHARE = 0.6


def kind_of(g) -> str:
    """The kind of question a generated exercise is, as the balance counts it: its theme and
    its exercise kind (``"louqsor_odds/will_it_close"``): a Louqsor "will it close?" is answered
    always/never, a closing square's yes/no."""
    return f"{g.theme}/{g.kind}"


def answer_class(exercise: Exercise) -> str:
    """The right answer as a learner could guess it: a choice's value; for "who decides next?"
    the decider's relation to the one who chooses now (``self``, ``left``: the next seat,
    ``other``, ``nobody``), since the colours change from game to game; a number or a
    probability as written; the closing squares as how many there are."""
    truth = exercise.right_answer()
    if isinstance(exercise, WhoDecidesNext):
        if truth == WhoDecidesNext.NOBODY:
            return "nobody"
        state = exercise.state()
        seat = state.colours.index(truth)
        if seat == state.decider:
            return "self"
        return "left" if seat == (state.decider + 1) % state.n else "other"
    if exercise.answer_kind == "square":
        return f"{len(truth)} square(s)"
    return str(truth)


def balance(supply: Iterable) -> dict[str, Counter]:
    """Per kind (:func:`kind_of`), how often each answer class is the right one."""
    out: dict[str, Counter] = {}
    for g in supply:
        out.setdefault(kind_of(g), Counter())[answer_class(g.exercise)] += 1
    return out


def feedback_texts(exercise: Exercise, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """Every text a learner can read about ``exercise``: the question, the choices and the
    feedback on each choice (or on the right answer, for a free answer)."""
    texts = [exercise.prompt(lang)] + [label for _, label in exercise.choices(lang)]
    answers = [value for value, _ in exercise.choices(lang)]
    if not answers:
        truth = exercise.right_answer()
        if exercise.answer_kind == "square":
            answers = [truth[0]]
        elif exercise.answer_kind == "probability":
            answers = [f"{truth.numerator}/{truth.denominator}"]
        else:
            answers = [str(truth)]
    for answer in answers:
        feedback = exercise.check(answer, lang)
        texts += [feedback.explanation, feedback.details]  # the folded details are read too
    return texts


def names_hidden_card(exercise: Exercise, lang: str = DEFAULT_LANGUAGE, orders=(1, 2)) -> bool:
    """Whether a text about ``exercise`` depends on the order of the hidden deck: asked again
    with the deck imagined in each of ``orders`` (:func:`.exercises.base.imagined_deck_order`),
    a text or the right answer changes. (A card fixed in the position, R4.4, is no secret: the
    question says which it is.)"""

    def texts():
        try:
            return [repr(exercise.right_answer())] + feedback_texts(exercise, lang)
        except ExerciseError as error:  # the deck decides: the question cannot be asked
            return [f"error: {error}"]

    first = texts()
    for salt in orders:
        with imagined_deck_order(salt):
            if texts() != first:
                return True
    return False


def forced_steps(exercise: Exercise) -> list[dict]:
    """The forced steps (a single legal option, played by the engine, R5/R6) that the option a
    question is about leads through, before the next real decision: the ``forced`` events."""
    text = getattr(exercise, "option_text", None)
    if not text or not exercise.plays_option:
        return []
    state = exercise.state()
    try:
        copy = play_on_copy(state, state.parse(text))
    except (ExerciseError, ValueError):
        return []
    return [data for name, data in copy.log if name == "forced"]


def states_forced_steps(exercise: Exercise, lang: str = DEFAULT_LANGUAGE) -> bool:
    """Whether a question says each forced step its option leads through (the sentence of
    :func:`.exercises.kinds.forced_step`, in its prompt or in the feedback on the right
    answer); True when there is none."""
    steps = forced_steps(exercise)
    if not steps:
        return True
    state = exercise.state()
    w = ExerciseWords(lang, state)
    feedback = exercise.check(exercise.right_answer(), lang)
    said = " ".join((exercise.prompt(lang), feedback.explanation, feedback.details))
    return all(forced_step(w, state, data) in said for data in steps)
