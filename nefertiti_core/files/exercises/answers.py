"""A learner's answer to an exercise, read, and the verdict on it (:class:`Feedback`).

An answer that does not answer the question (a word for a number, a probability over 1) raises
:class:`InvalidAnswer` inside :meth:`.base.Exercise.check`, which turns it into a feedback saying
what is expected; a wrong answer is no error. Standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer.

    ``answer``: the learner's answer as shown back; ``right_answer``: the engine's (empty when the
    answer was not valid, so that the learner can try again); ``explanation``: the verdict and why,
    in a sentence or two naming each rule by ID and title and the fact of this position that decides
    it (a wrong answer gets the reasoning first, then the right answer); ``valid``: False when the answer was not an answer to this question
    at all (wrong type, out of range), ``explanation`` then says what is expected.
    """

    correct: bool
    answer: str
    right_answer: str
    explanation: str
    valid: bool = True
    #: ``explanation`` in two parts, for a card that shows the verdict first and apart:
    #: ``headline`` is the verdict sentence ("Right: 28.", "Not quite: ..."; for an answer that
    #: was not valid, what is expected), ``reason`` the rest (why, with the rules).
    headline: str = ""
    reason: str = ""
    #: How the position plays out after the answer, step by step (the engine's narration, the
    #: options there were): for a learner who wants more than the reason, shown folded under
    #: ``details_label``; never needed to understand the verdict.
    details: str = ""
    details_label: str = ""


class InvalidAnswer(Exception):
    """An answer that does not answer the question (caught inside :meth:`Exercise.check`)."""

    def __init__(self, key: str, **params):
        super().__init__(key)
        self.key, self.params = key, params


YES_WORDS = ("yes", "y", "true", "ja", "是", "是的", "会", "能", "可以")
NO_WORDS = ("no", "n", "false", "nein", "否", "不", "不会", "不能", "不可以")


def shown_answer(answer) -> str:
    text = repr(answer) if not isinstance(answer, str) else answer.strip() or repr(answer)
    return text if len(text) <= 40 else text[:37] + "..."


def read_integer(answer) -> int:
    if isinstance(answer, bool) or answer is None:
        raise InvalidAnswer("exercise.invalid.integer")
    if isinstance(answer, int):
        return answer
    if isinstance(answer, float):
        if answer.is_integer():
            return int(answer)
        raise InvalidAnswer("exercise.invalid.integer")
    if isinstance(answer, Fraction) and answer.denominator == 1:
        return int(answer)
    if isinstance(answer, str):
        text = answer.strip().replace("\u2212", "-").replace(" ", "")
        if re.fullmatch(r"[+-]?\d{1,4}", text):
            return int(text)
    raise InvalidAnswer("exercise.invalid.integer")


def in_range(value: int, low: int, high: int) -> int:
    if not low <= value <= high:
        raise InvalidAnswer("exercise.invalid.range", low=low, high=high)
    return value


def read_probability(answer) -> tuple[Fraction, bool]:
    """(value, exact): a fraction is compared exactly, a percentage or decimal within 0.5 points."""
    if isinstance(answer, bool) or answer is None:
        raise InvalidAnswer("exercise.invalid.probability")
    if isinstance(answer, Fraction):
        value, exact = answer, True
    elif isinstance(answer, int):
        value, exact = Fraction(answer), True
    elif isinstance(answer, float):
        if answer != answer or answer in (float("inf"), float("-inf")):
            raise InvalidAnswer("exercise.invalid.probability")
        value, exact = Fraction(answer), False
    elif isinstance(answer, str):
        text = answer.strip().replace(" ", "").replace(",", ".").replace("\uff05", "%")
        match = re.fullmatch(r"(\d{1,4})/(\d{1,4})", text)
        if match:
            if int(match.group(2)) == 0:
                raise InvalidAnswer("exercise.invalid.probability")
            value, exact = Fraction(int(match.group(1)), int(match.group(2))), True
        elif re.fullmatch(r"\d{1,3}(\.\d+)?%", text):
            value, exact = Fraction(text[:-1]) / 100, False
        elif re.fullmatch(r"\d(\.\d+)?", text):
            value = Fraction(text)
            exact = value in (0, 1)
        else:
            raise InvalidAnswer("exercise.invalid.probability")
    else:
        raise InvalidAnswer("exercise.invalid.probability")
    if not 0 <= value <= 1:
        raise InvalidAnswer("exercise.invalid.probability_range")
    return value, exact
