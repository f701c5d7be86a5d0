"""Exercises that check themselves on the live engine.

Each exercise is staged from a position file of ``scenarios/`` (by name, ``"abou-simbel-left-sums"``),
optionally after a few moves played from it (``before``) and under rule variants (``variants``),
and asks one question. The right answer is never written down: :meth:`Exercise.check` asks the
engine at check time, by playing the option on a copy of the position (as :mod:`.status` previews
do) or by reading :func:`.status.stall_status`. The feedback says why, in the words of the
explanation layer (:mod:`.explain`, :mod:`.status`) and with the rule IDs of
the rules reference (:mod:`.rules_reference`).

- :class:`WillItClose` - does this placement close its market? (yes/no; for Louqsor: always,
  sometimes or never, from the exact probability of the roll, R3.7, R3.8)
- :class:`ClickClosingSquare` - a square (from a board click) where a servant closes the market now
- :class:`HowManyPoints` - prestige a seat scores by an option (Vizier, Scribe, Royal Servant)
- :class:`HowMuchDeben` - the decider's net Deben change, up to the next decision (R5.3, R6.2-R6.4,
  R10.3, R10.8)
- :class:`WhoDecidesNext` - the colour that decides after an option (or nobody: the game is over)
- :class:`GiftValue` - what each gift of a type is worth now (R8)
- :class:`ClosingChance` - the probability that a Louqsor placement closes it (``"4/36"``, ``"11%"``)
- :class:`IsLegal` - may the decider choose this option now? (the misreadings of R13)
- :class:`GameEnds` - is the game over after this option? (R7.1, R13)
- :class:`FinalScore` - a seat's score if the game ended now (R9.1)

The exercises are data a teacher can write: each position file may carry an ``exercises:`` block
(its questions, by ``kind`` from :data:`KINDS`, with an optional ``question``, ``answer``,
``explanation`` and ``rules``; docs/scenario-format.md). :func:`read_block` checks the block as
data when the file loads; :func:`exercises_in` makes the exercises of any file and has the engine
check each one (:func:`check_entry`: a written ``answer`` must be the engine's).
:data:`EXERCISES` holds the tutor's exercises by id, read from the shipped files on first use;
``scenarios/lessons/lessons.yaml`` gives the topics' order (:data:`TOPICS`) and each topic's
exercises in order (:func:`exercises_for`). Every text but a teacher's comes from the message
catalogs (``messages/<lang>/exercises.json``). Standard library only.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from ..engine import options as O
from ..engine import rules as R
from ..engine.chance import roll_at
from ..engine.deck import unseen as unseen_deck  # the deck as the players know it (R12)
from ..engine.errors import NefertitiError
from ..engine.explain_illegal import why_illegal
from ..engine.i18n import DEFAULT_LANGUAGE, LANGUAGES
from ..engine.limits import FileLimitError, echo, read_text
from ..engine.scoring import score_breakdown
from ..engine.squares import square_names
from ..engine.variants import describe_variant, with_rules
from ..teaching.explain import narrate, score_lines
from ..teaching.status import (
    describe_status,
    format_probability,
    louqsor_outcomes,
    louqsor_probability,
    stall_status,
)
from ..teaching.words import Words
from .exercise_block import ARGUMENTS, KIND_FIELDS, TOPIC_PATTERN, ExerciseEntry, read_block
from .reader import Reader, ScenarioError
from .scenario import Scenario, load
from .yaml_subset import Document, YamlError, loads

if TYPE_CHECKING:
    from ..engine.state import GameState

__all__ = [
    "EXERCISES",  # noqa: F822 (read from the files on first use: __getattr__)
    "KINDS",
    "LESSONS_FILE",
    "TOPICS",  # noqa: F822 (read from the files on first use: __getattr__)
    "ClickClosingSquare",
    "ClosingChance",
    "Exercise",
    "ExerciseEntry",
    "ExerciseError",
    "Feedback",
    "FinalScore",
    "GameEnds",
    "GiftValue",
    "HowManyPoints",
    "HowMuchDeben",
    "IsLegal",
    "WhoDecidesNext",
    "WillItClose",
    "build_exercise",
    "build_lessons",
    "check_entry",
    "exercises_for",
    "exercises_in",
    "read_block",
    "read_lessons",
    "scenario_path",
    "scenarios_folder",
]

SCENARIOS = "scenarios"
_LOUQSOR_LEFT = R.LOUQSOR * 2 + R.LEFT


class ExerciseError(NefertitiError):
    """An exercise that cannot be staged or asked (a wrong scenario name, an option that is not
    legal in its position, a question the dice would decide). A wrong *answer* never raises."""


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer.

    ``answer``: the learner's answer as shown back; ``right_answer``: the engine's (empty when the
    answer was not valid, so that the learner can try again); ``explanation``: why the right answer
    is right, naming the rules; ``valid``: False when the answer was not an answer to this question
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


class _Invalid(Exception):
    """An answer that does not answer the question (caught inside :meth:`Exercise.check`)."""

    def __init__(self, key: str, **params):
        super().__init__(key)
        self.key, self.params = key, params


# ------------------------------------------------------------------------------------ positions
def scenario_path(name: str | Path) -> Path:
    """The file of a shipped scenario (``"abou-simbel-left-sums"``), or ``name`` if it is a path."""
    path = Path(name)
    if path.suffix == ".yaml" or len(path.parts) > 1:
        return path
    folder = Path(str(resources.files("nefertiti_core").joinpath(SCENARIOS)))
    return folder / f"{name}.yaml"


def _play(state: GameState, option: int) -> GameState:
    """``option`` applied to a copy of ``state`` that records its own events.

    The copy sees the deck as the players do (R12). A Louqsor roll must be decided: fixed in the
    position (R4.4), or certain either way (then a roll with that outcome is fixed on the copy, so
    the game's own dice are never revealed); otherwise the question has no single answer.
    """
    copy = state.copy()
    copy.log = []
    copy.deck = unseen_deck(state.deck)
    rolling = roll_at(state, option)
    if rolling is not None:
        stall_id, mask = rolling
        outcomes = louqsor_outcomes(stall_id, mask, tuple(state.forced_rolls))
        results = {closes for _, closes in outcomes}
        if len(results) > 1:
            raise ExerciseError(
                f"{state.option_text(option)!r}: the dice decide what happens; fix the roll in the "
                "scenario (forced: rolls) or ask for the chance instead (R4.4)"
            )
        free, _ = outcomes[0]
        if free:
            copy.force_roll(*free)
    copy.apply(option)
    return copy


# ------------------------------------------------------------------------------------ wording
class _Words(Words):
    """The wording layer (:class:`.words.Words`) for one exercise's position, with the phrases
    only exercises use: an option that gives nothing away, what the decider must do now."""

    def __init__(self, lang: str, state: GameState):
        super().__init__(lang, state.colours, say_nothing=True)

    def option(self, state: GameState, option: int) -> str:
        """An option in words that give nothing away (no bonus, no points, no "closes")."""
        kind, arg = O.OPTION_KIND[option], O.OPTION_ARG[option]
        if kind == O.PLACE:
            stall_id, index = O.SQUARE_STALL[option], O.SQUARE_INDEX[option]
            return self(
                "exercise.opt.place",
                stall=self.stall(stall_id),
                square=self.square(stall_id, index),
            )
        if kind == O.CLOSE:
            return self("exercise.opt.close", market=self.market(arg))
        if kind == O.RECRUIT:
            card = state.piles[arg][0] if state.piles[arg] else None
            name = R.CHARACTER_CARDS[card] if card is not None else R.PILES[arg]
            key = f"character.{name}" if card is not None else f"pile.{name}"
            return self("exercise.opt.recruit", character=self(key))
        if kind == O.TAKE:
            return self(
                "exercise.opt.take", cards=self.join(self.slot(s) for s in O.take_slots(option))
            )
        if kind == O.DISCARD:
            return self("exercise.opt.discard", card=self.card(arg))
        if kind == O.BUY:
            return self("exercise.opt.buy", slot=self.slot(arg))
        if kind == O.EXCHANGE_TAKE:
            seat, card = arg
            return self("exercise.opt.exchange", partner=self.player(seat), card=self.card(card))
        if kind == O.EXCHANGE_GIVE:
            return self("exercise.opt.give", card=self.card(arg))
        if kind == O.CHIEF_TAKE:
            return self("exercise.opt.chief", slot=self.slot(arg))
        if kind in (O.ROYAL, O.SCRIBE):
            return self(f"exercise.opt.{kind}", gift=self.gift(arg))
        if kind == O.TREASURER_MARKET:
            return self("exercise.opt.treasurer_market", market=self.market(arg))
        if kind == O.TREASURER_AMOUNT:
            return self("exercise.opt.treasurer_amount", amount=arg)
        return self(f"exercise.opt.{kind.replace(' ', '_')}")  # half, pass, exchange done, ...

    def phase(self, state: GameState) -> str:
        """What the deciding player must do now, with its rules (or that the game is over)."""
        if state.is_over:
            return self.s("exercise.phase.over")
        return self.s(f"exercise.phase.{state.phase}", player=self.player(state.decider))


def _probability_text(value: Fraction, dice: int, lang: str) -> str:
    return format_probability(value, R.roll_count(dice), lang)


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


# ------------------------------------------------------------------------------------ answers
_YES = ("yes", "y", "true", "ja", "是", "是的", "会", "能", "可以")
_NO = ("no", "n", "false", "nein", "否", "不", "不会", "不能", "不可以")


def _shown(answer) -> str:
    text = repr(answer) if not isinstance(answer, str) else answer.strip() or repr(answer)
    return text if len(text) <= 40 else text[:37] + "..."


def _integer(answer) -> int:
    if isinstance(answer, bool) or answer is None:
        raise _Invalid("exercise.invalid.integer")
    if isinstance(answer, int):
        return answer
    if isinstance(answer, float):
        if answer.is_integer():
            return int(answer)
        raise _Invalid("exercise.invalid.integer")
    if isinstance(answer, Fraction) and answer.denominator == 1:
        return int(answer)
    if isinstance(answer, str):
        text = answer.strip().replace("\u2212", "-").replace(" ", "")
        if re.fullmatch(r"[+-]?\d{1,4}", text):
            return int(text)
    raise _Invalid("exercise.invalid.integer")


def _in_range(value: int, low: int, high: int) -> int:
    if not low <= value <= high:
        raise _Invalid("exercise.invalid.range", low=low, high=high)
    return value


def _probability(answer) -> tuple[Fraction, bool]:
    """(value, exact): a fraction is compared exactly, a percentage or decimal within 0.5 points."""
    if isinstance(answer, bool) or answer is None:
        raise _Invalid("exercise.invalid.probability")
    if isinstance(answer, Fraction):
        value, exact = answer, True
    elif isinstance(answer, int):
        value, exact = Fraction(answer), True
    elif isinstance(answer, float):
        if answer != answer or answer in (float("inf"), float("-inf")):
            raise _Invalid("exercise.invalid.probability")
        value, exact = Fraction(answer), False
    elif isinstance(answer, str):
        text = answer.strip().replace(" ", "").replace(",", ".").replace("\uff05", "%")
        match = re.fullmatch(r"(\d{1,4})/(\d{1,4})", text)
        if match:
            if int(match.group(2)) == 0:
                raise _Invalid("exercise.invalid.probability")
            value, exact = Fraction(int(match.group(1)), int(match.group(2))), True
        elif re.fullmatch(r"\d{1,3}(\.\d+)?%", text):
            value, exact = Fraction(text[:-1]) / 100, False
        elif re.fullmatch(r"\d(\.\d+)?", text):
            value = Fraction(text)
            exact = value in (0, 1)
        else:
            raise _Invalid("exercise.invalid.probability")
    else:
        raise _Invalid("exercise.invalid.probability")
    if not 0 <= value <= 1:
        raise _Invalid("exercise.invalid.probability_range")
    return value, exact


# ------------------------------------------------------------------------------------ exercises
class Exercise:
    """One question on one staged position (see the module docstring).

    ``scenario``: a shipped scenario's name or a path; ``before``: moves played from it first (the
    position the question is asked in); ``variants``: rule variants to play it under (what-if,
    R13); ``note``: a remark added to every feedback (the message ``exercise.note.<note>``);
    ``id`` and ``topic``: set by the registry.
    """

    kind: ClassVar[str] = ""
    #: The kind of answer the notebook collects: "choice", "square", "integer" or "probability".
    answer_kind: ClassVar[str] = "choice"
    #: Whether the question plays the option (then fixed rolls and draws are part of the prompt).
    plays_option: ClassVar[bool] = True

    def __init__(
        self,
        scenario: str,
        *,
        before=(),
        variants=None,
        note: str | None = None,
        id: str = "",
        topic: str = "",
        question=None,
        explanation=None,
        rules=(),
    ):
        self.scenario = scenario
        self.before = tuple(before)
        self.variants = tuple(variants) if variants is not None else None
        self.note = note  # a closing remark: the message "exercise.note.<note>"
        self.id = id or f"{self.kind}:{scenario}"
        self.topic = topic
        #: A teacher's own question and note, by language (a file's ``question:`` and
        #: ``explanation:``); a language left out shows the English.
        self.questions = _by_language(question)
        self.explanations = _by_language(explanation)
        #: The rule IDs the exercise tests, when its file says (``rules:``; coverage reads them).
        self.rules = tuple(rules)
        self._start: GameState | None = None  # a position given in place of a file's
        self._staged: GameState | None = None

    @classmethod
    def on_position(cls, state: GameState, *args, scenario: str = "", **kw) -> Exercise:
        """An exercise asked on ``state`` instead of a scenario file's position (a copy is kept).

        ``scenario`` is only a label then; ``before`` and ``variants`` apply to the copy as they
        would to a file's position, and :meth:`state` and every check read it in the same way.
        """
        exercise = cls(scenario or "<position>", *args, **kw)
        start = state.copy()
        start.log = []
        exercise._start = start
        return exercise

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"

    # --- the position
    def _base(self) -> GameState:
        if self._staged is None:
            if self._start is not None:
                state = self._start.copy() if self.before else self._start
            else:
                try:
                    state = load(scenario_path(self.scenario)).state
                except NefertitiError as error:
                    raise ExerciseError(f"exercise {self.id}: {error}") from None
            if self.variants is not None:
                state = with_rules(state, variants=self.variants)
            state.log = []
            for move in self.before:
                try:
                    state.apply(move)
                except NefertitiError as error:
                    raise ExerciseError(f"exercise {self.id}: move {move!r}: {error}") from None
            state.log = []  # the board records from here: the learner's own steps
            self._staged = state
        return self._staged

    def state(self) -> GameState:
        """A fresh copy of the staged position, for the live board (play on it freely)."""
        return self._base().copy()

    def _option(self, text: str) -> int:
        state = self._base()
        try:
            option = state.parse(text)
        except NefertitiError as error:
            raise ExerciseError(f"exercise {self.id}: {error}") from None
        if not state.is_legal(option):
            raise ExerciseError(
                f"exercise {self.id}: {text!r} is not legal in the staged position; the options "
                f"are {', '.join(state.option_text(o) for o in state.legal_options())}"
            )
        return option

    # --- the question
    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        lang = _language(lang)
        state = self._base()
        w = _Words(lang, state)
        own = self.questions.get(lang) or self.questions.get(DEFAULT_LANGUAGE)
        parts = [own.strip() if own else self._question(w, state)]
        if self.plays_option and state.forced_rolls:
            parts.append(w("exercise.prompt.fixed_roll", dice=w.join(state.forced_rolls)))
        if self.plays_option and state.forced_draws:
            cards = w.join(w.card(k) for k in state.forced_draws)
            parts.append(w("exercise.prompt.fixed_draw", cards=cards))
        if self.variants:
            notes = " ".join(describe_variant(v, lang) for v in self.variants)
            parts.insert(0, w("exercise.prompt.variant", variant=notes))
        return w.sentences(parts)

    def choices(self, lang: str = DEFAULT_LANGUAGE) -> list[tuple[str, str]]:
        """The answers to pick from, as (value, label); empty for a free answer."""
        return []

    def right_answer(self):
        """The engine's answer now (a choice value, a square list, an int or a Fraction)."""
        return self._truth(self._base())

    def check(self, answer, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        """Judge ``answer``; never raises for a wrong or malformed answer."""
        lang = _language(lang)
        state = self._base()
        w = _Words(lang, state)
        try:
            if answer is None or (isinstance(answer, str) and not answer.strip()):
                raise _Invalid("exercise.invalid.nothing")
            parsed = self._parse(answer, state, w)
        except _Invalid as bad:
            params = {"answer": _shown(answer), **bad.params}
            text = w(bad.key, **params)
            return Feedback(False, _shown(answer), "", text, valid=False, headline=text)
        truth = self._truth(state)
        correct = self._matches(parsed, truth)
        shown, right = self._show(parsed, state, w), self._show_truth(truth, state, w)
        if correct:
            verdict = w.s("exercise.verdict.right", right=shown)
        else:
            verdict = w.s("exercise.verdict.wrong", answer=shown, right=right)
        parts = self._explain(parsed, truth, state, w)
        if self.note:
            parts.append(w.s(f"exercise.note.{self.note}"))
        own = self.explanations.get(lang) or self.explanations.get(DEFAULT_LANGUAGE)
        if own:
            parts.append(own.strip())  # the teacher's note, after the engine's reason
        reason = w.sentences(parts)
        return Feedback(
            correct,
            shown,
            right,
            w.sentences([verdict, reason]),
            headline=verdict,
            reason=reason,
        )

    # --- to be filled in by each kind
    def _question(self, w: _Words, state: GameState) -> str:
        raise NotImplementedError

    def _truth(self, state: GameState):
        raise NotImplementedError

    def _parse(self, answer, state: GameState, w: _Words):
        raise NotImplementedError

    def _matches(self, parsed, truth) -> bool:
        return parsed == truth

    def _show(self, value, state: GameState, w: _Words) -> str:
        return str(value)

    def _show_truth(self, truth, state: GameState, w: _Words) -> str:
        return self._show(truth, state, w)

    def _explain(self, parsed, truth, state: GameState, w: _Words) -> list[str]:
        raise NotImplementedError


def _language(lang) -> str:
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


def _by_language(text) -> dict[str, str]:
    """A text for every language (``{"en": ..., "de": ...}``), or one text taken as English."""
    if not text:
        return {}
    if isinstance(text, str):
        return {DEFAULT_LANGUAGE: text}
    return {lang: value for lang, value in dict(text).items() if lang in LANGUAGES and value}


class _ChoiceExercise(Exercise):
    """An exercise answered by picking one of a few values (labels in any language accepted)."""

    answer_kind = "choice"

    def _values(self, state: GameState) -> tuple[str, ...]:
        return ("yes", "no")

    def _label(self, value: str, state: GameState, w: _Words) -> str:
        return w(f"exercise.choice.{value}")

    def choices(self, lang: str = DEFAULT_LANGUAGE) -> list[tuple[str, str]]:
        state = self._base()
        w = _Words(_language(lang), state)
        return [(v, self._label(v, state, w)) for v in self._values(state)]

    def _parse(self, answer, state: GameState, w: _Words) -> str:
        values = self._values(state)
        if isinstance(answer, bool) and "yes" in values:
            return "yes" if answer else "no"
        if isinstance(answer, str):
            text = answer.strip().casefold()
            for value in values:
                labels = {value}
                for lang in LANGUAGES:
                    labels.add(self._label(value, state, _Words(lang, state)).casefold())
                if text in labels:
                    return value
            if "yes" in values and text in _YES:
                return "yes"
            if "yes" in values and text in _NO:
                return "no"
        choices = w.join((self._label(v, state, w) for v in values), "or")
        raise _Invalid("exercise.invalid.choice", choices=choices)

    def _show(self, value, state: GameState, w: _Words) -> str:
        return self._label(value, state, w)


# --- will it close? -----------------------------------------------------------------------------
class WillItClose(_ChoiceExercise):
    """Will this option close its market? Yes/no from the events of the option played on a copy;
    for a Louqsor placement (or re-roll) always/sometimes/never from the exact chance of the roll
    (R3.7, R3.8; a roll fixed in the position for a demonstration does not count)."""

    kind = "will_it_close"

    def __init__(self, scenario: str, option: str, **kw):
        super().__init__(scenario, **kw)
        self.option_text = option

    @property
    def plays_option(self) -> bool:  # a roll fixed for the board is not part of a dice question
        return not self._dice()

    def _dice(self) -> tuple[int, int] | None:
        return roll_at(self._base(), self._option(self.option_text))

    def _market(self, option: int) -> int:
        kind = O.OPTION_KIND[option]
        if kind == O.PLACE:
            return O.SQUARE_STALL[option] >> 1
        if kind == O.CLOSE:
            return O.OPTION_ARG[option]
        if kind == O.REROLL:
            return R.LOUQSOR
        raise ExerciseError(f"exercise {self.id}: {self.option_text!r} places no servant")

    @staticmethod
    def _causes(option: int) -> tuple[str, ...]:
        """The ``market_closes`` causes that are this option's own closing."""
        return ("no_servant",) if O.OPTION_KIND[option] == O.CLOSE else ("placement", "reroll")

    def _values(self, state: GameState) -> tuple[str, ...]:
        return ("always", "sometimes", "never") if self._dice() else ("yes", "no")

    def _question(self, w: _Words, state: GameState) -> str:
        option = self._option(self.option_text)
        market = self._market(option)
        rolling = self._dice()
        if rolling is None:
            return w.s(
                "exercise.prompt.will_it_close",
                player=w.player(state.decider),
                option=w.option(state, option),
                market=w.market(market),
            )
        if O.OPTION_KIND[option] == O.REROLL:
            return w.s("exercise.prompt.will_it_close_reroll", player=w.player(state.decider))
        return w.s(
            "exercise.prompt.will_it_close_dice",
            player=w.player(state.decider),
            square=w.square(O.SQUARE_STALL[option], O.SQUARE_INDEX[option]),
            stall=w.stall(O.SQUARE_STALL[option]),
        )

    def _chance(self, state: GameState) -> Fraction:
        stall_id, mask = self._dice()
        return louqsor_probability(stall_id, mask)

    def _truth(self, state: GameState) -> str:
        option = self._option(self.option_text)
        if self._dice():
            chance = self._chance(state)
            return "always" if chance == 1 else "never" if chance == 0 else "sometimes"
        market = self._market(option)
        copy = _play(state, option)
        causes = self._causes(option)
        for name, data in copy.log:
            if name == "turn":
                break  # a closing after the next turn began is another player's (R5.4)
            if name == "market_closes" and data["market"] == market and data["cause"] in causes:
                return "yes"
        return "no"

    def _explain(self, parsed, truth, state: GameState, w: _Words) -> list[str]:
        option = self._option(self.option_text)
        market = self._market(option)
        status = stall_status(state, market, state.decider)
        if self._dice():
            reroll = O.OPTION_KIND[option] == O.REROLL
            parts = [_dice_sentence(w, *self._dice(), reroll=reroll)]
            if state.forced_rolls:
                parts.append(w.s("exercise.dice.fixed", dice=w.join(state.forced_rolls)))
            return parts + [describe_status(status, state.colours, w.lang)]
        copy = _play(state, option)
        parts = [describe_status(status, state.colours, w.lang)]
        parts += narrate(copy, w.lang)
        causes = self._causes(option)
        own = next_turn = False
        for name, data in copy.log:
            next_turn = next_turn or name == "turn"
            if name != "market_closes":
                continue
            if not (own or next_turn) and data["market"] == market and data["cause"] in causes:
                own = True  # this option's own closing
            else:  # a closing by a later forced step (R5.4), not by this option
                parts.append(w.s("exercise.close.later", market=w.market(data["market"])))
        return parts


def _dice_sentence(w: _Words, stall_id: int, mask: int, reroll: bool = False) -> str:
    """Why a roll closes Louqsor with this occupancy, with its exact chance (R3.7, R3.8): after
    one more servant, or (``reroll``) with the servants as they stand (R4.2)."""
    stall = R.STALLS[stall_id]
    values = sorted(sq.value for sq in stall.squares if mask >> sq.index & 1)
    chance = louqsor_probability(stall_id, mask)
    now = "_reroll" if reroll else ""
    if stall_id == _LOUQSOR_LEFT:
        return w.s(
            f"exercise.dice.two{now}",
            stall=w.stall(stall_id),
            values=w.join(values),
            count=int(chance * R.roll_count(2)),
            probability=_probability_text(chance, 2, w.lang),
        )
    return w.s(
        f"exercise.dice.one{now}",
        stall=w.stall(stall_id),
        run=R.RUN_TABLE[stall_id][mask],
        values=w.join(values),
        probability=_probability_text(chance, 1, w.lang),
    )


# --- click a closing square ---------------------------------------------------------------------
class ClickClosingSquare(Exercise):
    """Click a square of ``market``'s visible stall where a servant of the deciding player closes
    it now: right iff the square is in ``stall_status(...).would_close`` (R3)."""

    kind = "click_closing"
    answer_kind = "square"
    plays_option = False

    def __init__(self, scenario: str, market: str, **kw):
        super().__init__(scenario, **kw)
        if market not in R.MARKETS:
            raise ExerciseError(f"unknown market {market!r}: one of {', '.join(R.MARKETS)}")
        self.market = R.MARKETS.index(market)

    def _stall_id(self, state: GameState) -> int:
        return self.market * 2 + state.side[self.market]

    def _question(self, w: _Words, state: GameState) -> str:
        return w.s(
            "exercise.prompt.click_closing",
            player=w.player(state.decider),
            stall=w.stall(self._stall_id(state)),
            market=w.market(self.market),
        )

    def _truth(self, state: GameState) -> tuple[int, ...]:
        status = stall_status(state, self.market, state.decider)
        if not status.is_open or not status.would_close:
            raise ExerciseError(
                f"exercise {self.id}: no square closes {R.MARKETS[self.market]} now"
            )
        return status.would_close

    def _parse(self, answer, state: GameState, w: _Words) -> int:
        """A square's index: ``5``, ``"#5"``, ``"abou_simbel.left#5"``, or ``(market, index)`` (a
        click on the board). A square of another market is not an answer: the learner is told
        which market they clicked and which one the question is about."""
        stall_id = self._stall_id(state)
        size = len(R.STALLS[stall_id].squares)
        index = None
        if isinstance(answer, int) and not isinstance(answer, bool):
            index = answer
        elif isinstance(answer, tuple) and len(answer) == 2:
            market, index = answer
            if market != self.market and market in range(len(R.MARKETS)):
                raise _Invalid(
                    "exercise.invalid.other_market",
                    clicked=w.market(market),
                    stall=w.stall(stall_id),
                )
            if isinstance(index, bool) or not isinstance(index, int):
                index = None
        elif isinstance(answer, str):
            text = answer.strip().lower()
            match = re.fullmatch(r"(?:([a-z_]+)\.([a-z]+)#|#)?(-?\d{1,3})", text)
            if match and match.group(1) in R.MARKETS and match.group(1) != R.MARKETS[self.market]:
                raise _Invalid(
                    "exercise.invalid.other_market",
                    clicked=w.market(R.MARKETS.index(match.group(1))),
                    stall=w.stall(stall_id),
                )
            named = None if match is None or match.group(1) is None else match.group(0)
            if match and (named is None or named.split("#")[0] == R.STALLS[stall_id].name):
                index = int(match.group(3))
        if index is None or not 0 <= index < size:
            raise _Invalid("exercise.invalid.square", stall=w.stall(stall_id), last=size - 1)
        return index

    def _matches(self, parsed, truth) -> bool:
        return parsed in truth

    def _show(self, value, state: GameState, w: _Words) -> str:
        return w.square(self._stall_id(state), value)

    def _show_truth(self, truth, state: GameState, w: _Words) -> str:
        stall_id = self._stall_id(state)
        return square_names(stall_id, truth, w.lang, "or")

    def _explain(self, parsed, truth, state: GameState, w: _Words) -> list[str]:
        stall_id = self._stall_id(state)
        status = stall_status(state, self.market, state.decider)
        # the closing squares are named by the verdict already
        parts = [describe_status(status, state.colours, w.lang)]
        if state.owners[self.market][parsed] >= 0:
            parts.append(w.s("exercise.click.taken", square=w.square(stall_id, parsed)))
        elif R.STALLS[stall_id].rule not in R.DICE_RULES:
            option = O.place_id(self.market, state.side[self.market], parsed)
            if state.is_legal(option):
                parts += narrate(_play(state, option), w.lang)
        return parts


# --- numbers: points, Deben, gift values, scores -------------------------------------------------
class _IntegerExercise(Exercise):
    answer_kind = "integer"
    low, high = 0, 200

    def _parse(self, answer, state: GameState, w: _Words) -> int:
        return _in_range(_integer(answer), self.low, self.high)


def _seat(state: GameState, seat) -> int:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.n:
        return seat
    if seat in state.colours:
        return state.colours.index(seat)
    raise ExerciseError(f"{seat!r} is not a seat of this game: one of {', '.join(state.colours)}")


class _OptionExercise(Exercise):
    """An exercise about one option of the staged position, played on a copy."""

    def __init__(self, scenario: str, option: str, **kw):
        super().__init__(scenario, **kw)
        self.option_text = option

    def _outcome(self, state: GameState) -> GameState:
        return _play(state, self._option(self.option_text))

    def _narration(self, state: GameState, w: _Words) -> list[str]:
        return narrate(self._outcome(state), w.lang)


class HowManyPoints(_OptionExercise, _IntegerExercise):
    """Prestige points ``seat`` (default: the decider) scores by the option (R10.2, R10.6, R10.7)."""

    kind = "how_many_points"

    def __init__(self, scenario: str, option: str, seat=None, **kw):
        super().__init__(scenario, option, **kw)
        self.seat = seat

    def _who(self, state: GameState) -> int:
        return state.decider if self.seat is None else _seat(state, self.seat)

    def _question(self, w: _Words, state: GameState) -> str:
        option = w.option(state, self._option(self.option_text))
        who = self._who(state)
        if who == state.decider:
            return w.s("exercise.prompt.points_self", player=w.player(who), option=option)
        return w.s(
            "exercise.prompt.points_other",
            player=w.player(state.decider),
            seat=w.player(who),
            option=option,
        )

    def _truth(self, state: GameState) -> int:
        who = self._who(state)
        return self._outcome(state).prestige[who] - state.prestige[who]

    def _explain(self, parsed, truth, state: GameState, w: _Words) -> list[str]:
        who = self._who(state)
        after = self._outcome(state).prestige[who]
        summary = w.s(
            "exercise.points.summary", player=w.player(who), before=state.prestige[who], after=after
        )
        return self._narration(state, w) + [summary]


class HowMuchDeben(_OptionExercise, _IntegerExercise):
    """The decider's net Deben change by the option, up to the next real decision (placement
    bonuses R5.3, paying a bid R6.2, half the reserve R6.4, Merchant R10.3, Treasurer R10.8)."""

    kind = "how_much_deben"
    low, high = -R.TOTAL_DEBEN[4], R.TOTAL_DEBEN[4]

    def _question(self, w: _Words, state: GameState) -> str:
        return w.s(
            "exercise.prompt.deben",
            player=w.player(state.decider),
            option=w.option(state, self._option(self.option_text)),
        )

    def _truth(self, state: GameState) -> int:
        p = state.decider
        return self._outcome(state).deben[p] - state.deben[p]

    def _show(self, value, state: GameState, w: _Words) -> str:
        return _signed(value)

    def _explain(self, parsed, truth, state: GameState, w: _Words) -> list[str]:
        p = state.decider
        after = self._outcome(state).deben[p]
        summary = w.s(
            "exercise.deben.summary", player=w.player(p), before=state.deben[p], after=after
        )
        return self._narration(state, w) + [summary]


class GiftValue(_IntegerExercise):
    """What each of ``seat``'s gifts of ``gift_type`` is worth now, by the number of holders (R8)."""

    kind = "gift_value"
    plays_option = False

    def __init__(self, scenario: str, seat, gift_type: str, **kw):
        super().__init__(scenario, **kw)
        if gift_type not in R.GIFT_TYPES:
            raise ExerciseError(
                f"unknown gift type {gift_type!r}: one of {', '.join(R.GIFT_TYPES)}"
            )
        self.seat = seat
        self.gift_type = R.GIFT_TYPES.index(gift_type)

    @property
    def high(self) -> int:  # the largest value of the position's table (R8, maybe edited)
        return max(max(row) for row in self._base().values)

    def _question(self, w: _Words, state: GameState) -> str:
        seat = _seat(state, self.seat)
        return w.s("exercise.prompt.gift_value", player=w.player(seat), gift=w.gift(self.gift_type))

    def _truth(self, state: GameState) -> int:
        seat = _seat(state, self.seat)
        if not state.type_count(seat, self.gift_type):
            raise ExerciseError(
                f"exercise {self.id}: {state.colours[seat]} holds no {R.GIFT_TYPES[self.gift_type]}"
            )
        return state.gift_value(self.gift_type)

    def _explain(self, parsed, truth, state: GameState, w: _Words) -> list[str]:
        t = self.gift_type
        holders = state.holders(t)
        who = [s for s in range(state.n) if state.type_count(s, t)]
        parts = [
            w.s(
                "exercise.gift.holders",
                players=w.join(w.player(s) for s in who),
                gift=w.gift(t),
                holders=w.holders(holders),
                value=truth,
                row=" / ".join(str(v) for v in state.values[t]),
            )
        ]
        name = R.GIFT_TYPES[t]
        if holders in R.ESTIMATED_VALUES[name] and truth == R.GIFT_VALUES[t][holders - 1]:
            parts.append(
                w.s("note.estimate", value=truth, gift=w.gift(t), holders=w.holders(holders))
            )
        if t == R.SENET and state.gifts[_seat(state, self.seat)][R.K_DOUBLE_SENET]:
            parts.append(w.s("exercise.gift.double"))
        return parts


class FinalScore(_IntegerExercise):
    """``seat``'s score if the game ended now (the final score once it has ended) (R9.1)."""

    kind = "final_score"
    plays_option = False
    high = 500

    def __init__(self, scenario: str, seat, **kw):
        super().__init__(scenario, **kw)
        self.seat = seat

    def _question(self, w: _Words, state: GameState) -> str:
        key = "exercise.prompt.final_score_over" if state.is_over else "exercise.prompt.final_score"
        return w.s(key, player=w.player(_seat(state, self.seat)))

    def _truth(self, state: GameState) -> int:
        return score_breakdown(state, _seat(state, self.seat)).total

    def _explain(self, parsed, truth, state: GameState, w: _Words) -> list[str]:
        lines = score_lines(state, _seat(state, self.seat), w.lang)
        return [w.s("exercise.final.rule"), w("status.list.semicolon").join(lines)]


# --- who decides next -----------------------------------------------------------------------------
class WhoDecidesNext(_OptionExercise, _ChoiceExercise):
    """The colour that makes the next decision after the option (or nobody: the game is over)."""

    kind = "who_decides"
    NOBODY = "nobody"

    def _values(self, state: GameState) -> tuple[str, ...]:
        return tuple(state.colours) + (self.NOBODY,)

    def _label(self, value: str, state: GameState, w: _Words) -> str:
        if value == self.NOBODY:
            return w("exercise.choice.nobody")
        return w(f"colour.{value}")

    def _parse(self, answer, state: GameState, w: _Words) -> str:
        if isinstance(answer, int) and not isinstance(answer, bool):
            if 0 <= answer < state.n:
                return state.colours[answer]  # a seat number (a click on a player's panel)
        return super()._parse(answer, state, w)

    def _question(self, w: _Words, state: GameState) -> str:
        return w.s(
            "exercise.prompt.who_decides",
            player=w.player(state.decider),
            option=w.option(state, self._option(self.option_text)),
        )

    def _truth(self, state: GameState) -> str:
        copy = self._outcome(state)
        return self.NOBODY if copy.is_over else copy.colours[copy.decider]

    def _explain(self, parsed, truth, state: GameState, w: _Words) -> list[str]:
        copy = self._outcome(state)
        return self._narration(state, w) + [w.phase(copy)]


# --- is it allowed? -------------------------------------------------------------------------------
class IsLegal(_ChoiceExercise):
    """May the decider choose this option now? (R5, R6.2-R6.4: the misreadings of R13.)"""

    kind = "is_legal"
    plays_option = False

    def __init__(self, scenario: str, option: str, **kw):
        super().__init__(scenario, **kw)
        self.option_text = option

    def _parsed_option(self, state: GameState) -> int:
        try:
            return state.parse(self.option_text)
        except NefertitiError as error:
            raise ExerciseError(f"exercise {self.id}: {error}") from None

    def _question(self, w: _Words, state: GameState) -> str:
        option = self._parsed_option(state)
        return w.s(
            "exercise.prompt.is_legal",
            player=w.player(state.decider),
            option=w.option(state, option),
        )

    def _truth(self, state: GameState) -> str:
        return "yes" if state.is_legal(self._parsed_option(state)) else "no"

    def _explain(self, parsed, truth, state: GameState, w: _Words) -> list[str]:
        option = self._parsed_option(state)
        player = w.player(state.decider)
        parts = [w.phase(state)]
        if truth == "yes":
            parts.append(w.s("exercise.legal.yes", player=player))
            parts += narrate(_play(state, option), w.lang)
            return parts
        parts.append(w.s("exercise.legal.no", player=player))
        reason = self._reason(state, option, w)
        if reason:
            parts += reason
        else:
            _, rule = why_illegal(state, option)
            if rule:
                parts.append(w.s("exercise.legal.rule", rule=rule))
        legal = state.legal_options()
        shown = [w.option(state, o) for o in legal[: self.SHOWN]]
        if len(legal) > self.SHOWN:
            parts.append(
                w.s(
                    "exercise.legal.options_many",
                    player=player,
                    count=len(legal),
                    options=w.join(shown),
                )
            )
        else:
            parts.append(w.s("exercise.legal.options", player=player, options=w.join(shown, "or")))
        return parts

    SHOWN = 4  # options listed in the feedback; more are counted

    @staticmethod
    def _reason(state: GameState, option: int, w: _Words) -> list[str]:
        """Why the option is refused, in the learner's language, for the common cases."""
        kind, arg = O.OPTION_KIND[option], O.OPTION_ARG[option]
        p = state.decider
        if kind == O.PLACE and state.phase in ("turn", "place"):
            stall_id = O.SQUARE_STALL[option]
            m, index = stall_id >> 1, O.SQUARE_INDEX[option]
            status = describe_status(stall_status(state, m, p), state.colours, w.lang)
            if not state.hand[p]:
                return [w.s("exercise.legal.no_servant", player=w.player(p))]
            if m not in state.open_markets():
                return [w.s("exercise.legal.closed_market", market=w.market(m)), status]
            if state.side[m] != stall_id & 1:
                return [w.s("exercise.legal.covered", stall=w.stall(stall_id)), status]
            if state.owners[m][index] >= 0:
                return [w.s("exercise.click.taken", square=w.square(stall_id, index))]
        if kind == O.RECRUIT and state.phase in ("turn", "place"):
            if state.phase == "place" or state.recruited:
                return [w.s("exercise.legal.recruit_first")]
            if not state.seals[p]:
                return [w.s("exercise.legal.no_seal", player=w.player(p))]
            if state.piles[arg]:
                character = w(f"character.{R.CHARACTER_CARDS[state.piles[arg][0]]}")
                return [w.s("exercise.legal.not_now", character=character)]
        return []


# --- does the game end? ---------------------------------------------------------------------------
class GameEnds(_OptionExercise, _ChoiceExercise):
    """Is the game over after the option? (R7.1; the German report's misreading, R13.)"""

    kind = "game_ends"

    def _question(self, w: _Words, state: GameState) -> str:
        return w.s(
            "exercise.prompt.game_ends",
            player=w.player(state.decider),
            option=w.option(state, self._option(self.option_text)),
        )

    def _truth(self, state: GameState) -> str:
        return "yes" if self._outcome(state).is_over else "no"

    def _explain(self, parsed, truth, state: GameState, w: _Words) -> list[str]:
        copy = self._outcome(state)
        parts = self._narration(state, w)
        still_open = [w.market(m) for m in copy.open_markets()]
        if copy.is_over and still_open:
            parts.append(w.s("exercise.ends.variant", markets=w.join(still_open)))
        elif copy.is_over:
            parts.append(w.s("exercise.ends.yes"))
        elif copy.akhenaton_drawn:
            parts.append(w.s("exercise.ends.open", markets=w.join(still_open)))
        else:
            parts.append(w.s("exercise.ends.not_yet"))
        return parts


# --- Louqsor's chance ------------------------------------------------------------------------------
class ClosingChance(Exercise):
    """The exact probability that the roll after a placement on ``square`` of Louqsor's visible
    stall closes it (R3.7, R3.8). Answers: a fraction (``"4/36"``, ``"1/9"``: compared exactly) or a
    percentage or decimal (``"11%"``, ``0.11``: within half a percentage point)."""

    kind = "closing_chance"
    answer_kind = "probability"
    plays_option = False

    def __init__(self, scenario: str, square: int, **kw):
        super().__init__(scenario, **kw)
        self.square = square

    def _stall_id(self, state: GameState) -> int:
        return R.LOUQSOR * 2 + state.side[R.LOUQSOR]

    def _dice(self, state: GameState) -> int:
        return R.dice_rolled(self._stall_id(state))

    def _question(self, w: _Words, state: GameState) -> str:
        stall_id = self._stall_id(state)
        return w.s(
            "exercise.prompt.chance",
            player=w.player(state.decider),
            square=w.square(stall_id, self.square),
            stall=w.stall(stall_id),
            market=w.market(R.LOUQSOR),
        )

    def _truth(self, state: GameState) -> Fraction:
        status = stall_status(state, R.LOUQSOR, state.decider)
        if not status.is_open or self.square not in status.empty:
            raise ExerciseError(f"exercise {self.id}: square {self.square} of Louqsor is not free")
        return status.chance(self.square)

    def _parse(self, answer, state: GameState, w: _Words) -> tuple[Fraction, bool, str]:
        value, exact = _probability(answer)
        return value, exact, answer.strip() if isinstance(answer, str) else ""

    def _matches(self, parsed, truth) -> bool:
        value, exact, _ = parsed
        if exact:
            return value == truth
        return abs(value - truth) * 100 <= Fraction(1, 2)

    def _show(self, value, state: GameState, w: _Words) -> str:
        if isinstance(value, tuple):  # the learner's answer: as written, or as a probability
            value, _, text = value
            if text:
                return text
        return _probability_text(value, self._dice(state), w.lang)

    def _explain(self, parsed, truth, state: GameState, w: _Words) -> list[str]:
        stall_id = self._stall_id(state)
        parts = [_dice_sentence(w, stall_id, state.mask[R.LOUQSOR] | 1 << self.square)]
        if state.forced_rolls:
            parts.append(w.s("exercise.dice.fixed", dice=w.join(state.forced_rolls)))
        status = stall_status(state, R.LOUQSOR, state.decider)
        return parts + [describe_status(status, state.colours, w.lang)]


# ------------------------------------------------------------------------------------ the files
#: The kinds of question a position file's ``exercises:`` block may ask: the name it is written
#: with -> (the class, its required fields, its optional fields; the fields are
#: :data:`.exercise_block.KIND_FIELDS`, which the file is checked against when it loads).
KINDS: dict[str, tuple[type[Exercise], tuple[str, ...], tuple[str, ...]]] = {
    name: (cls, *KIND_FIELDS[name])
    for name, cls in (
        ("will-it-close", WillItClose),
        ("click-closing-square", ClickClosingSquare),
        ("how-many-points", HowManyPoints),
        ("how-much-deben", HowMuchDeben),
        ("who-decides-next", WhoDecidesNext),
        ("gift-value", GiftValue),
        ("closing-chance", ClosingChance),
        ("is-legal", IsLegal),
        ("game-ends", GameEnds),
        ("final-score", FinalScore),
    )
}


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
            raise entry.error(("variants",), str(error)) from None
    for j, move in enumerate(entry.before):
        try:
            state.apply(move)
        except NefertitiError as error:
            raise entry.error(("before", j), f"{move!r}: {error}") from None
    if "option" in entry.arguments:
        text = entry.arguments["option"]
        try:
            option = state.parse(text)
        except NefertitiError as error:
            raise entry.error(("option",), str(error)) from None
        if entry.kind != "is-legal" and not state.is_legal(option):
            legal = [state.option_text(o) for o in state.legal_options()]
            shown = ", ".join(legal[:6]) + (f" and {len(legal) - 6} more" if len(legal) > 6 else "")
            player = state.colours[state.decider] if state.decider >= 0 else "nobody"
            raise entry.error(
                ("option",),
                f"{text!r} is not legal in this position{' (after before:)' if entry.before else ''}"
                f"; {player} may choose {shown}",
            )
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


def _check_answer(entry: ExerciseEntry, exercise: Exercise, truth) -> None:
    answer = entry.answer
    if isinstance(answer, list):  # every closing square
        if not isinstance(exercise, ClickClosingSquare):
            raise entry.error(
                ("answer",), "a list is an answer to a click-closing-square exercise only"
            )
        verdicts = [exercise.check(a) for a in answer]
        bad = next((v for v in verdicts if not v.valid), None)
        if bad is not None:
            raise entry.error(("answer",), f"not an answer to this question: {bad.headline}")
        if sorted(set(answer)) != sorted(truth):
            raise entry.error(
                ("answer",),
                f"the engine says {verdicts[0].right_answer}, the file says "
                + ", ".join(v.answer for v in verdicts),
            )
        return
    verdict = exercise.check(answer)
    if not verdict.valid:
        raise entry.error(("answer",), f"not an answer to this question: {verdict.headline}")
    if not verdict.correct:
        raise entry.error(
            ("answer",), f"the engine says {verdict.right_answer}, the file says {verdict.answer}"
        )


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


# ------------------------------------------------------------------------------------ the lessons
#: The file (under ``scenarios/``) that lists the tutorial's topics in the order of the notebooks,
#: each with its exercises' ids in the order they are asked.
LESSONS_FILE = "lessons/lessons.yaml"


def scenarios_folder() -> Path:
    """The folder of the shipped position files."""
    return Path(str(resources.files("nefertiti_core").joinpath(SCENARIOS)))


def read_lessons(path: str | Path) -> tuple[dict[str, tuple[str, ...]], Document]:
    """The lessons file: {topic: exercise ids in order}, and its document (for line numbers)."""
    path = Path(path)
    try:
        doc = loads(read_text(path))
    except FileLimitError as error:
        raise ScenarioError(path.name, (), str(error)) from None
    except YamlError as error:
        raise ScenarioError(path.name, (), str(error).split(": ", 1)[-1], error.line) from None
    rd = Reader(path.name, doc)
    data = rd.mapping(doc.data, (), ("lessons", "topics"))
    if data.get("lessons") != 1:
        rd.fail(("lessons",), "the first field must be 'lessons: 1', the version of this file")
    topics = data.get("topics")
    if not isinstance(topics, dict) or not topics:
        rd.fail(("topics",), "expected the topics, each a list of its exercises' ids")
    order: dict[str, tuple[str, ...]] = {}
    listed: dict[str, tuple] = {}
    for topic, ids in topics.items():
        if not isinstance(topic, str) or not TOPIC_PATTERN.fullmatch(topic):
            rd.fail(
                ("topics", topic), f"a topic is lower-case words joined by '-', not {echo(topic)}"
            )
        items = rd.sequence(ids, ("topics", topic))
        for j, ident in enumerate(items):
            where = ("topics", topic, j)
            if not isinstance(ident, str) or not ident.startswith(f"{topic}/"):
                rd.fail(where, f"an exercise of {topic} has an id '{topic}/...', not {echo(ident)}")
            if ident in listed:
                rd.fail(
                    where, f"{ident!r} is listed twice (also topics.{topic}.{listed[ident][-1]})"
                )
            listed[ident] = where
        order[topic] = tuple(items)
    return order, doc


def build_lessons(
    folder: str | Path | None = None, lessons: str | Path | None = None
) -> tuple[tuple[str, ...], dict[str, Exercise]]:
    """(topics, exercises by id) of a folder of position files and its lessons file (default: the
    shipped ones). Every exercise of the files must be listed exactly once and every listed id
    must exist: otherwise :class:`.scenario.ScenarioError` names the file, line and field."""
    folder = Path(folder) if folder is not None else scenarios_folder()
    lessons_path = Path(lessons) if lessons is not None else folder / LESSONS_FILE
    order, doc = read_lessons(lessons_path)
    found: dict[str, tuple[Path, Scenario, ExerciseEntry]] = {}
    for path in sorted(folder.glob("*.yaml")):
        scenario = load(path)
        for entry in scenario.exercises:
            if entry.id in found:
                raise entry.error(
                    ("id",), f"the id {entry.id!r} is taken already, in {found[entry.id][0].name}"
                )
            found[entry.id] = (path, scenario, entry)
    exercises: dict[str, Exercise] = {}
    for topic, ids in order.items():
        for j, ident in enumerate(ids):
            if ident not in found:
                raise ScenarioError(
                    lessons_path.name,
                    ("topics", topic, j),
                    f"no position file in {folder.name}/ has an exercise {ident!r}",
                    doc.line_of(("topics", topic, j)),
                )
            path, scenario, entry = found[ident]
            exercises[ident] = build_exercise(
                entry, scenario.state, scenario=path.stem, topic=topic
            )
    for ident, (_, _, entry) in found.items():
        if ident not in exercises:
            raise entry.error(
                ("id",), f"exercise {ident!r} is in no lesson: list it in {lessons_path.name}"
            )
    return tuple(order), exercises


_LESSONS: tuple[tuple[str, ...], dict[str, Exercise]] | None = None
_LESSONS_LOCK = threading.Lock()


def _lessons() -> tuple[tuple[str, ...], dict[str, Exercise]]:
    global _LESSONS
    with _LESSONS_LOCK:
        if _LESSONS is None:
            _LESSONS = build_lessons()
        return _LESSONS


def __getattr__(name: str):
    # TOPICS (the tutorial topics, in the order of the notebooks) and EXERCISES (every exercise
    # of the tutor by id, "topic/name", in the order of the topics) are read from the shipped
    # files on first use.
    if name == "TOPICS":
        return _lessons()[0]
    if name == "EXERCISES":
        return _lessons()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def exercises_for(topic: str) -> list[Exercise]:
    """The exercises of one tutorial topic (one of :data:`TOPICS`), in order."""
    topics, exercises = _lessons()
    if topic not in topics:
        raise KeyError(f"unknown topic {topic!r}: one of {', '.join(topics)}")
    return [ex for ex in exercises.values() if ex.topic == topic]
