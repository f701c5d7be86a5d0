"""Class questions and the class record, with no view in them (the views are in
:mod:`widgets.classroom.poll_view`; the room wires both).

The teacher pushes one exercise to the learners (:meth:`Polls.push`: a lesson's exercise or a
generated one, named by a short ref such as ``"lesson:welcome/who-plays-next"`` that the store
and the teacher's menu keep); each learner answers, and may change the answer until the teacher
reveals it (:meth:`Polls.reveal`); the reveal records every answer, right or wrong, in the
:class:`ClassRecord`, which also holds the rules each learner saw at work at the table
(:meth:`Polls.saw`); then the teacher closes it (:meth:`Polls.close`): no page shows it any
more, the history and the record keep it. The right answer and every verdict are the engine's
(:meth:`~nefertiti_core.files.exercises.Exercise.check`): nothing here decides a rule.

A room makes every change through itself (``polls.writer``: under its lock, written to the store,
shared with the other server processes), and everything is plain data (``as_dict`` /
``from_dict``). Bad input (an unknown learner, a choice that is not offered, an answer after the
reveal, an oversized string) raises :class:`PollError` and changes nothing; ``error.text(lang)``
says why in the learner's language.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from nefertiti_core.engine.i18n import DEFAULT_LANGUAGE, LANGUAGES, tr
from nefertiti_core.engine.limits import MAX_NAME_CHARS, echo
from nefertiti_core.engine.squares import square_name
from nefertiti_core.files import calibration
from nefertiti_core.files import exercises as E
from nefertiti_core.files import practice as P
from nefertiti_core.files.exercises import ClickClosingSquare, Exercise, ExerciseError, Feedback
from nefertiti_core.teaching.coverage import rule_key, rules_in
from nefertiti_core.teaching.status import stall_status
from widgets.classroom import poll_controls as controls

__all__ = [
    "CARD_CHANGES",
    "MAX_ANSWER_CHARS",
    "MAX_ID_CHARS",
    "MAX_LEARNERS",
    "ClassAnswer",
    "ClassRecord",
    "LearnerRow",
    "Poll",
    "PollError",
    "Polls",
    "Reveal",
    "Tally",
    "exercise_ref",
    "find_exercise",
    "lesson_exercises",
    "practice_exercises",
]

log = logging.getLogger("widgets.classroom")

MAX_ID_CHARS = 64  # a learner id (the room makes them: a few dozen characters at most)
MAX_ANSWER_CHARS = 40  # an answer: a choice's key, a number or a probability ("4/36", "11%")
MAX_LEARNERS = 500  # in one poll or one record
MAX_REF_CHARS = 120
MAX_HISTORY = 50  # polls a room keeps (older ones are in the class record)
PRACTICE_SEEDS = (0,)

#: The changes of a room's polls (``what``, :meth:`Polls.changed`) after which a page shows or
#: hides the question's card: a question asked, or closed.
CARD_CHANGES = frozenset({"push", "close"})

_REF = re.compile(r"(lesson|practice):([a-z0-9_/\-]{1,110})")


class PollError(ValueError):
    """Bad input to a poll, refused with nothing changed: ``str(error)`` in English,
    :meth:`text` in another language. A parameter given as a function of the language (the
    ``reason``, the choices in words) is worded in the language asked for."""

    def __init__(self, key: str, reason: Callable[[str], str] | None = None, **params):
        self.key, self.params, self._reason = key, params, reason
        super().__init__(self.text(DEFAULT_LANGUAGE))

    def text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
        params = {name: v(lang) if callable(v) else v for name, v in self.params.items()}
        if self._reason is not None:
            params["reason"] = self._reason(lang)
        return tr(lang, self.key, **params)


# ------------------------------------------------------------------------------------ checks
def _has_control(text: str) -> bool:
    return any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in text)


def _learner_id(value) -> str:
    """A learner id as the room gives it: a short printable string (or an int)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**12:
        value = str(value)
    if not isinstance(value, str) or not value or len(value) > MAX_ID_CHARS or _has_control(value):
        raise PollError("poll.refused.learner_id", learner=echo(value), limit=MAX_ID_CHARS)
    return value


def _name(value, learner_id: str) -> str:
    if value is None:
        return learner_id
    if not isinstance(value, str):
        raise PollError("poll.refused.name", name=echo(value), limit=MAX_NAME_CHARS)
    text = " ".join(value.split())
    if not text or len(text) > MAX_NAME_CHARS or _has_control(text):
        raise PollError("poll.refused.name", name=echo(value), limit=MAX_NAME_CHARS)
    return text


def _answer_text(value) -> str:
    """An answer as text: a string or a whole number, short and printable."""
    if isinstance(value, bool) or value is None:
        raise PollError("poll.refused.not_text", answer=echo(value))
    if isinstance(value, int):
        if abs(value) >= 10**6:
            raise PollError("poll.refused.too_long", answer=echo(value), limit=MAX_ANSWER_CHARS)
        return str(value)
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if not isinstance(value, str):
        raise PollError("poll.refused.not_text", answer=echo(value))
    if len(value) > MAX_ANSWER_CHARS:
        raise PollError("poll.refused.too_long", answer=echo(value), limit=MAX_ANSWER_CHARS)
    if _has_control(value):
        raise PollError("poll.refused.not_text", answer=echo(value))
    text = value.strip()
    if not text:
        raise PollError("poll.refused.empty")
    return text


def _language(lang) -> str:
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


# ------------------------------------------------------------------------------------ exercises
def lesson_exercises() -> list[tuple[str, Exercise]]:
    """(topic, exercise) for every exercise of the lessons, topic by topic in the lessons' order
    (``scenarios/lessons/lessons.yaml``), each topic's exercises in their order."""
    return [(topic, ex) for topic in E.TOPICS for ex in E.exercises_for(topic)]


def practice_exercises(seeds: Iterable[int] = PRACTICE_SEEDS) -> list[P.Generated]:
    """Exercises generated from the bots' games of ``seeds`` (deterministic; generated once per
    process and seed), in the generator's order."""
    out: list[P.Generated] = []
    for seed in seeds:
        out.extend(P.shared([int(seed)]))
    return out


def exercise_ref(exercise: Exercise) -> str | None:
    """A short string naming a lessons' or practice exercise (None for any other)."""
    if exercise.topic == "practice" and P.is_generated_key(exercise.id):
        return f"practice:{exercise.id}"
    if exercise.topic and E.EXERCISES.get(exercise.id) is exercise:
        return f"lesson:{exercise.id}"
    return None


def find_exercise(ref: str) -> Exercise:
    """The exercise an :func:`exercise_ref` names; :class:`PollError` for anything else."""
    if not isinstance(ref, str) or len(ref) > MAX_REF_CHARS or not _REF.fullmatch(ref):
        raise PollError("poll.refused.ref", ref=echo(ref))
    kind, name = ref.split(":", 1)
    if kind == "lesson":
        exercise = E.EXERCISES.get(name)
        if exercise is None:
            raise PollError("poll.refused.ref", ref=echo(ref))
        return exercise
    generated = P.generated_by_key(name)  # a seed over practice.MAX_SEED plays no game
    if generated is None:
        raise PollError("poll.refused.ref", ref=echo(ref))
    return generated.exercise


def _as_exercise(exercise) -> Exercise:
    if isinstance(exercise, P.Generated):
        return exercise.exercise
    if isinstance(exercise, str):
        return find_exercise(exercise)
    if not isinstance(exercise, Exercise):
        raise PollError("poll.refused.exercise", exercise=echo(exercise))
    return exercise


# ------------------------------------------------------------------------------------ a poll
@dataclass(frozen=True)
class _Answer:
    key: str  # what is counted (a choice's key, or the engine's reading of a free answer)
    given: str  # what the learner sent (checked again by the engine at the reveal)


class Reveal:
    """What a poll's reveal shows: the engine's right answer, its reason, each learner's verdict."""

    def __init__(self, poll: Poll):
        self.poll = poll
        ex = poll.exercise
        truth = ex.right_answer()
        self._truth_answer = truth[0] if isinstance(truth, (list, tuple)) else truth
        if poll.free:
            truth_key = ex.check(self._truth_answer, DEFAULT_LANGUAGE).answer
            right = {truth_key}
            right |= {a.key for a in poll.answers.values() if self._check(a, "en").correct}
        elif isinstance(truth, (list, tuple)):
            right = {str(v) for v in truth}
        else:
            right = {str(truth)}
        self.right_keys: frozenset[str] = frozenset(right)
        #: learner id -> answered right (only those who answered)
        self.correct: dict[str, bool] = {
            learner: self._check(a, DEFAULT_LANGUAGE).correct for learner, a in poll.answers.items()
        }

    def _check(self, answer: _Answer, lang: str) -> Feedback:
        given = int(answer.given) if self.poll.square else answer.given
        return self.poll.exercise.check(given, _language(lang))

    def _right(self, lang: str) -> Feedback:
        return self.poll.exercise.check(self._truth_answer, _language(lang))

    def right_answer(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The engine's right answer in words (every right square for a square question)."""
        return self._right(lang).right_answer

    def headline(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return self._right(lang).headline

    def explanation(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The engine's own reason for the right answer (with its rule IDs)."""
        feedback = self._right(lang)
        return feedback.reason or feedback.explanation

    def verdict(self, learner_id, lang: str = DEFAULT_LANGUAGE) -> Feedback | None:
        """The engine's verdict on one learner's answer (None if they did not answer)."""
        answer = self.poll.answers.get(str(learner_id))
        return None if answer is None else self._check(answer, lang)


@dataclass(frozen=True)
class Tally:
    """What a class view (the teacher's page, the projector) may show of a question now.

    Until the reveal, only who has answered and who not (how many, and for the teacher their
    names): never what anyone answered, nor how many gave each answer, while answers can still
    change (a projected running count would steer the class). At the reveal, the count of each
    answer and the right ones."""

    number: int
    revealed: bool
    answered: tuple[str, ...]  # learner ids, in the order of their first answer
    waiting: tuple[str, ...]  # learner ids asked who have not answered (after the reveal: never)
    counts: Mapping[str, int]  # answers per key (Poll.counts()); empty until the reveal
    right: frozenset[str]  # the right keys; empty until the reveal
    #: Asked anonymously: ``answered`` and ``waiting`` then name nobody (one ``""`` per learner:
    #: how many, never who).
    anonymous: bool = False

    @property
    def total(self) -> int:
        """How many learners were asked (and are still in the room)."""
        return len(self.answered) + len(self.waiting)


@dataclass(frozen=True)
class ClassAnswer:
    """One learner's cell of the class view for the current question: ``kind`` is
    ``"not_asked"`` (joined after it was asked), ``"waiting"`` or ``"answered"`` (before the
    reveal: whether, never what), ``"no_answer"`` (revealed, never answered), ``"right"`` or
    ``"wrong"`` (revealed: ``key`` is their answer); ``"anonymous"`` for everyone, always, in a
    question asked anonymously."""

    kind: str
    key: str | None = None


class Poll:
    """One exercise pushed to a set of learners (see the module docstring)."""

    def __init__(
        self,
        exercise,
        learner_ids: Iterable | Mapping,
        *,
        number: int = 1,
        anonymous: bool = False,
        deadline: float | None = None,
    ):
        #: Asked anonymously (:mod:`.poll_controls`): no view names anyone with an answer.
        self.anonymous = anonymous is True
        #: Locked by the teacher: no answer taken or changed (:meth:`answers_locked`).
        self.locked = False
        #: When the answers lock by themselves (seconds since the epoch), None for no limit.
        self.deadline = deadline
        self.exercise = _as_exercise(exercise)
        self.ref = exercise_ref(self.exercise)
        self.number = number
        self.square = isinstance(self.exercise, ClickClosingSquare)
        self.free = self.exercise.answer_kind in ("integer", "probability")
        self.names: dict[str, str] = {}
        ids = learner_ids.items() if isinstance(learner_ids, Mapping) else learner_ids
        learners: list[str] = []
        for item in ids:
            learner, name = item if isinstance(learner_ids, Mapping) else (item, None)
            learner = _learner_id(learner)
            if learner not in learners:
                learners.append(learner)
            if name is not None:
                self.names[learner] = _name(name, learner)
            if len(learners) > MAX_LEARNERS:
                raise PollError("poll.refused.too_many", limit=MAX_LEARNERS)
        self.learners: list[str] = learners
        self.answers: dict[str, _Answer] = {}  # in the order of each learner's first answer
        self._reveal: Reveal | None = None
        #: Closed by the teacher (:meth:`Polls.close`): no longer the room's current question,
        #: shown on no page; kept in the history (and, if revealed, in the class record).
        self.closed = False
        self._lock = threading.RLock()
        try:
            self._keys = self._choice_keys()
            self.exercise.prompt(DEFAULT_LANGUAGE)
        except ExerciseError as error:  # an exercise that cannot be asked: say so, push nothing
            message = str(error)
            raise PollError("poll.refused.cannot_ask", reason=lambda _l: message) from None

    def __repr__(self) -> str:
        state = "revealed" if self.revealed else f"{len(self.answers)}/{len(self.learners)}"
        state += " closed" if self.closed else ""
        return f"<Poll {self.number} {self.exercise.id} {state}>"

    # --- the question
    def _square_stall(self) -> int:
        state = self.exercise.state()
        market = self.exercise.market
        return market * 2 + state.side[market]

    def _choice_keys(self) -> tuple[str, ...]:
        if self.free:
            return ()
        if self.square:
            state = self.exercise.state()
            status = stall_status(state, self.exercise.market, state.decider)
            return tuple(str(i) for i in status.empty)
        return tuple(value for value, _ in self.exercise.choices(DEFAULT_LANGUAGE))

    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The question in ``lang`` (the exercise's own, as the lessons ask it)."""
        return self.exercise.prompt(_language(lang))

    def choices(self, lang: str = DEFAULT_LANGUAGE) -> list[tuple[str, str]]:
        """``[(key, label)]`` to pick from; empty for a free answer (a number, a probability)."""
        return [(key, self.label(key, lang)) for key in self._keys]

    def label(self, key: str, lang: str = DEFAULT_LANGUAGE) -> str:
        """A key in words: a choice's label, a square's name, or a free answer as written."""
        lang = _language(lang)
        if self.square and key in self._keys:
            return str(square_name(self._square_stall(), int(key), lang))
        if not self.free and key in self._keys:
            return dict(self.exercise.choices(lang)).get(key, key)
        return key

    def _choices_in_words(self, lang: str) -> str:
        """The choices as the page shows them in ``lang`` (labels, not keys or notation), for a
        refusal of an answer that is none of them."""
        return tr(lang, "status.list.sep").join(self.label(key, lang) for key in self._keys)

    @property
    def revealed(self) -> bool:
        return self._reveal is not None

    @property
    def result(self) -> Reveal | None:
        return self._reveal

    def answers_locked(self, at: float | None = None) -> bool:
        """No answer is taken now: locked by the teacher, or its deadline has passed."""
        if self.locked:
            return True
        deadline = self.deadline
        return deadline is not None and (controls.now() if at is None else at) >= deadline

    # --- the learners
    def include(self, learner_id, name: str | None = None) -> bool:
        """Add a learner (one who joined after the push); True if new. Refused after the reveal."""
        learner = _learner_id(learner_id)
        with self._lock:
            if self.revealed:
                raise PollError("poll.refused.revealed")
            if name is not None:
                self.names[learner] = _name(name, learner)
            if learner in self.learners:
                return False
            if len(self.learners) >= MAX_LEARNERS:
                raise PollError("poll.refused.too_many", limit=MAX_LEARNERS)
            self.learners.append(learner)
            return True

    def remove(self, learner_id) -> bool:
        """Take a learner (and their answer) out of the poll; True if they were in it."""
        learner = _learner_id(learner_id)
        with self._lock:
            if learner not in self.learners:
                return False
            self.learners.remove(learner)
            self.answers.pop(learner, None)
            return True

    # --- answers
    def answer(self, learner_id, choice) -> str:
        """Record ``learner_id``'s answer (replacing theirs, until the reveal); the key counted.

        Raises :class:`PollError` (nothing changed) for an unknown learner, an answer after the
        reveal, a choice that is not one of the choices, an oversized or hostile string, or a
        free answer the engine cannot read as an answer (its own reason is quoted)."""
        learner = _learner_id(learner_id)
        text = _answer_text(choice)
        with self._lock:
            if self.closed:
                raise PollError("poll.refused.closed")
            if self.revealed:
                raise PollError("poll.refused.revealed")
            if self.answers_locked():
                raise PollError("poll.refused.locked")
            if learner not in self.learners:
                raise PollError("poll.refused.unknown_learner", learner=echo(learner))
            if self.free:
                feedback = self.exercise.check(text, DEFAULT_LANGUAGE)
                if not feedback.valid:
                    exercise = self.exercise
                    raise PollError(
                        "poll.refused.invalid",
                        reason=lambda lang: exercise.check(text, lang).headline,
                    )
                key = feedback.answer
            else:
                if text not in self._keys:
                    raise PollError(
                        "poll.refused.not_a_choice",
                        answer=echo(text),
                        choices=self._choices_in_words,
                    )
                key = text
            self.answers[learner] = _Answer(key, text)
            return key

    def answer_of(self, learner_id) -> str | None:
        """The key a learner's answer is counted under (None: no answer yet)."""
        answer = self.answers.get(str(learner_id))
        return None if answer is None else answer.key

    def given(self, learner_id) -> str | None:
        """A learner's answer as they sent it."""
        answer = self.answers.get(str(learner_id))
        return None if answer is None else answer.given

    def counts(self) -> dict[str, int]:
        """Answers per key: every choice in order (0 included), then free answers in the order
        they first came. The counts add up to ``len(answered())``."""
        with self._lock:
            out = dict.fromkeys(self._keys, 0)
            for answer in self.answers.values():
                out[answer.key] = out.get(answer.key, 0) + 1
            return out

    def answered(self) -> tuple[str, ...]:
        """The learners who have answered, in the order of their first answer."""
        with self._lock:
            return tuple(self.answers)

    def waiting(self) -> tuple[str, ...]:
        """The learners of the poll who have not answered yet."""
        with self._lock:
            return tuple(learner for learner in self.learners if learner not in self.answers)

    def tally(self) -> Tally:
        """What a class view may show of this question now (:class:`Tally`: until the reveal,
        who has answered, never what)."""
        with self._lock:
            result = self._reveal
            answered, waiting = self.answered(), self.waiting()
            if self.anonymous:  # how many, never who
                answered, waiting = ("",) * len(answered), ("",) * len(waiting)
            return Tally(
                number=self.number,
                revealed=result is not None,
                answered=answered,
                waiting=waiting,
                counts=self.counts() if result is not None else {},
                right=result.right_keys if result is not None else frozenset(),
                anonymous=self.anonymous,
            )

    def class_answer(self, learner_id) -> ClassAnswer:
        """A learner's cell of the class view (:class:`ClassAnswer`: their answer only once it
        is revealed)."""
        learner = str(learner_id)
        with self._lock:
            if self.anonymous:
                return ClassAnswer("anonymous")
            if learner not in self.learners:
                return ClassAnswer("not_asked")
            answer, result = self.answers.get(learner), self._reveal
            if result is None:
                return ClassAnswer("waiting" if answer is None else "answered")
            if answer is None:
                return ClassAnswer("no_answer")
            return ClassAnswer("right" if result.correct.get(learner) else "wrong", answer.key)

    def reveal(self) -> Reveal:
        """Close the answers and judge them (the engine's right answer and reason); a second
        call returns the same reveal."""
        with self._lock:
            if self._reveal is None:
                self._reveal = Reveal(self)
            return self._reveal

    # --- storing
    def take_from(self, other: Poll) -> None:
        """The learners, answers and reveal of ``other`` (the same question, read back)."""
        with self._lock:
            self.learners, self.names = list(other.learners), dict(other.names)
            self.answers = dict(other.answers)
            self._reveal = Reveal(self) if other.revealed else None
            self.closed = other.closed
            self.anonymous, self.locked = other.anonymous, other.locked
            self.deadline = other.deadline

    def as_dict(self) -> dict:
        with self._lock:
            return {
                "ref": self.ref,
                "number": self.number,
                "learners": list(self.learners),
                "names": dict(self.names),
                "answers": [[k, a.key, a.given] for k, a in self.answers.items()],
                "revealed": self.revealed,
                "closed": self.closed,
                "anonymous": self.anonymous,
                "locked": self.locked,
                "deadline": self.deadline,
            }

    @classmethod
    def from_dict(cls, data) -> Poll:
        """A poll as :meth:`as_dict` stored it (every answer checked again)."""
        if not isinstance(data, Mapping) or data.get("ref") is None:
            raise PollError("poll.refused.stored")
        learners = data.get("learners") or []
        names = data.get("names") or {}
        if not isinstance(learners, list) or not isinstance(names, Mapping):
            raise PollError("poll.refused.stored")
        number = data.get("number", 1)
        poll = cls(
            find_exercise(data["ref"]),
            {learner: names.get(learner) for learner in learners},
            number=number if isinstance(number, int) and not isinstance(number, bool) else 1,
            anonymous=data.get("anonymous") is True,
        )
        for item in data.get("answers") or []:
            if not isinstance(item, list) or len(item) != 3:
                raise PollError("poll.refused.stored")
            poll.answer(item[0], item[2])
        # the lock and the deadline after the answers (answers given before them are kept)
        poll.locked = data.get("locked") is True
        poll.deadline = controls.stored_deadline(data.get("deadline"))
        if data.get("revealed"):
            poll.reveal()
        poll.closed = data.get("closed") is True
        return poll


# ------------------------------------------------------------------------------------ the record
@dataclass(frozen=True)
class LearnerRow:
    """One learner's line of the class view."""

    learner_id: str
    name: str
    rules_seen: tuple[str, ...]  # rule IDs, in RULINGS order
    right: tuple[str, ...]  # exercise ids answered right (once per poll)
    wrong: tuple[str, ...]  # exercise ids answered wrong (once per poll)


@dataclass
class _Learner:
    name: str
    rules: set[str] = field(default_factory=set)
    right: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)


class ClassRecord:
    """Per learner of a class: the rules seen at work and the exercises answered right and wrong."""

    def __init__(self):
        self._learners: dict[str, _Learner] = {}
        self._lock = threading.RLock()

    def rules_seen_count(self) -> int:
        """How many (learner, rule) pairs the record holds: grows when a learner meets a rule."""
        return sum(len(entry.rules) for entry in self._learners.values())

    def join(self, learner_id, name: str | None = None) -> str:
        """Add a learner (or rename one); returns the id."""
        learner = _learner_id(learner_id)
        shown = _name(name, learner)
        with self._lock:
            if learner in self._learners:
                if name is not None:
                    self._learners[learner].name = shown
                return learner
            if len(self._learners) >= MAX_LEARNERS:
                raise PollError("poll.refused.too_many", limit=MAX_LEARNERS)
            self._learners[learner] = _Learner(shown)
            return learner

    def __contains__(self, learner_id) -> bool:
        return str(learner_id) in self._learners

    def learners(self) -> tuple[str, ...]:
        return tuple(self._learners)

    def name(self, learner_id) -> str:
        entry = self._learners.get(str(learner_id))
        return entry.name if entry is not None else str(learner_id)

    def saw(self, learner_ids: Iterable, events: Iterable) -> set[str]:
        """The rules ``events`` name (``GameState.log`` entries; :func:`.coverage.rules_in`) are
        seen by every learner of ``learner_ids`` known to the record; returns the rule IDs."""
        rules = rules_in(events)
        if not rules:
            return rules
        with self._lock:
            for learner in learner_ids:
                entry = self._learners.get(str(learner))
                if entry is not None:
                    entry.rules |= rules
        return rules

    def answered(self, learner_id, exercise_id: str, correct: bool) -> None:
        """One answer to a revealed poll (a learner not in the record joins under their id)."""
        learner = self.join(learner_id)
        with self._lock:
            entry = self._learners[learner]
            (entry.right if correct else entry.wrong).append(str(exercise_id))

    def row(self, learner_id) -> LearnerRow:
        with self._lock:
            entry = self._learners.get(str(learner_id))
            if entry is None:
                raise PollError("poll.refused.unknown_learner", learner=echo(learner_id))
            return LearnerRow(
                str(learner_id),
                entry.name,
                tuple(sorted(entry.rules, key=rule_key)),
                tuple(entry.right),
                tuple(entry.wrong),
            )

    def rows(self) -> list[LearnerRow]:
        """Every learner, in the order they joined."""
        return [self.row(learner) for learner in self.learners()]

    def as_dict(self) -> dict:
        with self._lock:
            return {
                learner: {
                    "name": e.name,
                    "rules": sorted(e.rules, key=rule_key),
                    "right": list(e.right),
                    "wrong": list(e.wrong),
                }
                for learner, e in self._learners.items()
            }

    @classmethod
    def from_dict(cls, data) -> ClassRecord:
        record = cls()
        if not isinstance(data, Mapping):
            raise PollError("poll.refused.stored")
        for learner, entry in data.items():
            if not isinstance(entry, Mapping):
                raise PollError("poll.refused.stored")
            record.join(learner, entry.get("name"))
            stored = record._learners[str(learner)]
            rules = entry.get("rules") or []
            stored.rules = {r for r in rules if isinstance(r, str) and rule_key(r)[0] < 10**6}
            stored.right = [str(x) for x in entry.get("right") or [] if isinstance(x, str)]
            stored.wrong = [str(x) for x in entry.get("wrong") or [] if isinstance(x, str)]
        return record


# ------------------------------------------------------------------------------------ a room's polls
class Polls:
    """A room's polls: the current one, those before it, the class record, and listeners."""

    def __init__(self, record: ClassRecord | None = None):
        self.record = record if record is not None else ClassRecord()
        self.history: list[Poll] = []
        self._listeners: list = []
        self._lock = threading.RLock()
        #: The room's: ``writer(change)`` makes each change under the room's lock and keeps it
        #: in the store (``Room.write_polls``); None: the change is made here.
        self.writer: Callable[[Callable[[], tuple]], object] | None = None

    @property
    def current(self) -> Poll | None:
        """The question the pages show: the last one asked, unless the teacher closed it."""
        last = self.last
        return None if last is None or last.closed else last

    @property
    def last(self) -> Poll | None:
        """The last question asked, closed or not."""
        return self.history[-1] if self.history else None

    # --- listeners
    def on_change(self, callback: Callable[[Polls, str], None]) -> Callable[[], None]:
        """Call ``callback(polls, what)`` after every change; returns a function that stops it.
        A bound method is held weakly (a closed page's view does not stay alive for it)."""
        if hasattr(callback, "__self__") and hasattr(callback, "__func__"):
            ref = weakref.WeakMethod(callback)
        else:
            ref = lambda: callback  # noqa: E731
        with self._lock:
            self._listeners.append(ref)

        def stop() -> None:
            with self._lock:
                if ref in self._listeners:
                    self._listeners.remove(ref)

        return stop

    def changed(self, what: str) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for ref in listeners:
            callback = ref()
            if callback is None:
                with self._lock:
                    if ref in self._listeners:
                        self._listeners.remove(ref)
                continue
            try:
                callback(self, what)
            except Exception:  # one broken page never stops the others
                log.exception("a poll listener failed")

    # --- changes (each through the room's writer when there is one)
    def _apply(self, change: Callable[[], tuple]) -> object:
        """Make ``change`` (``() -> (result, what)``; ``what`` None: nothing changed) and tell
        the views; through :attr:`writer` when the room set one (the room keeps the polls: it
        makes the change under its lock, writes it to the store, and tells the views)."""
        if self.writer is not None:
            return self.writer(change)
        result, what = change()
        if what is not None:
            self.changed(what)
        return result

    def load(self, data) -> None:
        """The polls and record stored as ``data`` (:meth:`as_dict`; another process wrote
        them) instead of these, in place: the listeners stay, and so does each :class:`Poll`
        of the same question (a view keeps its board and what a learner is typing); a poll
        stored as it is here is not read again (a reveal is the engine's verdict on every
        answer: re-judging 20 questions of 30 learners takes ~0.2 s). Bad data raises, and
        nothing changed. The caller tells the listeners (:meth:`changed`)."""
        if not isinstance(data, Mapping):
            raise PollError("poll.refused.stored")
        record = ClassRecord.from_dict(data.get("record") or {})
        stored = data.get("polls") or []
        if not isinstance(stored, list):
            raise PollError("poll.refused.stored")
        with self._lock:
            mine = {(poll.number, poll.ref): poll for poll in self.history}
        history, changed = [], []
        for item in stored[-MAX_HISTORY:]:
            key = (item.get("number"), item.get("ref")) if isinstance(item, Mapping) else None
            kept = mine.get(key) if key is not None else None
            if kept is not None and kept.as_dict() == item:
                history.append(kept)
                continue
            poll = Poll.from_dict(item)
            if kept is not None:  # the same question, other answers or revealed
                changed.append((kept, poll))
                poll = kept
            history.append(poll)
        with self._lock:
            for kept, poll in changed:
                kept.take_from(poll)
            self.history, self.record = history, record

    # --- the teacher
    def push(
        self,
        exercise,
        learner_ids: Iterable | Mapping,
        *,
        anonymous: bool = False,
        seconds: int = 0,
    ) -> Poll:
        """Ask ``exercise`` (an Exercise, a practice ``Generated`` or a ref) of these learners;
        the poll before it ends (if it was not revealed, its answers are not recorded).
        ``anonymous``, ``seconds`` (a time limit, 0 for none): :mod:`.poll_controls`."""
        try:
            controls.timer_seconds(seconds)
        except ValueError:
            raise PollError("poll.refused.timer", seconds=echo(seconds)) from None
        return self._apply(
            lambda: (self._push(exercise, learner_ids, anonymous is True, seconds), "push")
        )

    def _push(
        self, exercise, learner_ids: Iterable | Mapping, anonymous: bool = False, seconds: int = 0
    ) -> Poll:
        names = learner_ids if isinstance(learner_ids, Mapping) else None
        ids = list(learner_ids)
        last = self.last  # numbered after the last question, closed or not
        poll = Poll(
            exercise,
            ids,
            number=last.number + 1 if last is not None else 1,
            anonymous=anonymous,
            deadline=controls.deadline_after(seconds),
        )
        for learner in poll.learners:
            name = names.get(learner) if names is not None else None
            if learner not in self.record or name is not None:
                self.record.join(learner, name)
        with self._lock:
            self.history.append(poll)
            del self.history[:-MAX_HISTORY]  # older polls are in the record already
        return poll

    def _poll(self) -> Poll:
        poll = self.current
        if poll is None:
            last = self.last
            raise PollError("poll.refused.closed" if last is not None else "poll.refused.no_poll")
        return poll

    def close(self) -> bool:
        """Close the current question: no page shows it any more, no answer is taken; the
        history keeps it, and the class record what its reveal recorded (a question closed
        before its reveal records nothing, as one a new question replaces). False when there
        was none open (closed already, from another page: nothing changes)."""
        return self._apply(self._close)

    def _close(self) -> tuple[bool, str | None]:
        poll = self.current
        if poll is None:
            if self.last is None:
                raise PollError("poll.refused.no_poll")
            return False, None
        with poll._lock:  # noqa: SLF001  the poll's own lock: no answer lands while it closes
            poll.closed = True
        return True, "close"

    def lock(self, locked: bool = True) -> bool:
        """Lock the current question's answers (none taken or changed) or unlock them (its time
        limit goes too: :mod:`.poll_controls`); refused once revealed. False when nothing
        changed (locked already, from another page)."""
        return self._apply(lambda: self._lock_answers(locked is True))

    def _lock_answers(self, locked: bool) -> tuple[bool, str | None]:
        poll = self._poll()
        with poll._lock:  # noqa: SLF001  the poll's own lock: no answer lands while it locks
            if poll.revealed:
                raise PollError("poll.refused.revealed")
            if locked == poll.answers_locked() and (locked or poll.deadline is None):
                return False, None
            poll.locked = locked
            if not locked:
                poll.deadline = None
        return True, "lock"

    def reveal(self) -> Reveal:
        """Reveal the current poll and record each answer in the class record (once; never for
        a question asked anonymously: :mod:`.poll_controls`). The answers to a generated
        exercise also calibrate its kind's difficulty, once the reveal is made and kept (a
        change overtaken by another process is made again: it must not count twice), and
        without a name (:meth:`nefertiti_core.files.calibration.Calibration.record_class`)."""
        made: list[bool] = []

        def change():
            result, what = self._reveal()
            made[:] = [what is not None]
            return result, what

        result = self._apply(change)
        generated = P.generated_of(result.poll.exercise) if made == [True] else None
        if generated is not None:  # a lesson's own exercise has no kind to calibrate
            calibration.shared().record_class(generated, result.correct.values())
        return result

    def _reveal(self) -> tuple[Reveal, str | None]:
        poll = self._poll()
        with poll._lock:  # noqa: SLF001  the poll's own lock, held across its reveal and the record
            first = not poll.revealed
            result = poll.reveal()
        if not first:
            return result, None
        if poll.anonymous:  # nobody's answer is counted against their name
            return result, "reveal"
        for learner, correct in result.correct.items():
            self.record.answered(learner, poll.exercise.id, correct)
        return result, "reveal"

    def include(self, learner_id, name: str | None = None) -> bool:
        """A learner who joined after the push answers the current poll too."""
        return self._apply(lambda: self.include_learner(learner_id, name))

    def include_learner(self, learner_id, name: str | None = None) -> tuple[bool, str | None]:
        known = _learner_id(learner_id) in self.record
        learner = self.record.join(learner_id, name)
        poll = self.current
        added = poll.include(learner) if poll is not None and not poll.revealed else False
        if added:
            return True, "include"
        return False, None if known else "record"  # not known: a new row in the class view

    def remove(self, learner_id) -> bool:
        """A learner removed from the room: out of the current poll (the record keeps them)."""
        return self._apply(lambda: self.remove_learner(learner_id))

    def remove_learner(self, learner_id) -> tuple[bool, str | None]:
        poll = self.current
        removed = poll.remove(learner_id) if poll is not None and not poll.revealed else False
        return removed, "remove" if removed else None

    def saw(self, learner_ids: Iterable, events: Iterable) -> set[str]:
        """``record.saw`` (the rules a game's events name, seen by these learners), then tell
        the views."""
        return self._apply(lambda: self.record_seen(learner_ids, events))

    def record_seen(self, learner_ids: Iterable, events: Iterable) -> tuple[set[str], str | None]:
        record = self.record
        before = record.rules_seen_count()
        rules = record.saw(learner_ids, events)
        after = record.rules_seen_count()
        return rules, "record" if after != before else None

    # --- the learners
    def answer(self, learner_id, choice) -> str:
        """``learner_id``'s answer to the current poll; made again on the room as it is now if
        another server process changed it first, but never on a question asked since."""
        asked: list[int] = []

        def change():
            poll = self._poll()
            if asked and poll.number != asked[0]:
                raise PollError("poll.refused.replaced")
            asked[:] = [poll.number]
            return poll.answer(learner_id, choice), "answer"

        return self._apply(change)

    def counts(self) -> dict[str, int]:
        poll = self.current
        return poll.counts() if poll is not None else {}

    def answered(self) -> tuple[str, ...]:
        poll = self.current
        return poll.answered() if poll is not None else ()

    def waiting(self) -> tuple[str, ...]:
        poll = self.current
        return poll.waiting() if poll is not None else ()

    def name(self, learner_id) -> str:
        poll = self.current
        if poll is not None and str(learner_id) in poll.names:
            return poll.names[str(learner_id)]
        return self.record.name(learner_id)

    # --- storing
    def as_dict(self) -> dict:
        with self._lock:
            polls = [p.as_dict() for p in self.history if p.ref is not None]
        return {"polls": polls, "record": self.record.as_dict()}

    @classmethod
    def from_dict(cls, data) -> Polls:
        polls = cls(ClassRecord())
        polls.load(data)  # the same checks as a re-read: bad data raises
        return polls
