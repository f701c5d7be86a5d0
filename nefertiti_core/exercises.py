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

:data:`EXERCISES` holds the tutor's exercises by id, built from a small table; :func:`exercises_for`
gives those of one tutorial topic (:data:`TOPICS`). Every text comes from the message catalogs
(``messages/<lang>/exercises.json``). Standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from . import options as O
from . import rules as R
from .errors import NefertitiError
from .explain import narrate, score_lines
from .explain_illegal import why_illegal
from .i18n import DEFAULT_LANGUAGE, LANGUAGES, tr
from .scenario import load
from .scoring import score_breakdown
from .status import (
    describe_status,
    format_probability,
    louqsor_outcomes,
    louqsor_probability,
    stall_status,
    unseen_deck,  # the deck as the players know it (R12): a copy must not reveal the real order
)
from .variants import describe_variant, with_rules

if TYPE_CHECKING:
    from .state import GameState

__all__ = [
    "EXERCISES",
    "TOPICS",
    "ClickClosingSquare",
    "ClosingChance",
    "Exercise",
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
    "exercises_for",
    "scenario_path",
]

SCENARIOS = "scenarios"
_DICE_RULES = (R.TWO_DICE, R.ONE_DIE_RUN)
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
    folder = Path(str(resources.files(__package__).joinpath(SCENARIOS)))
    return folder / f"{name}.yaml"


def _rolling(state: GameState, option: int) -> tuple[int, int] | None:
    """(stall id, occupancy at the roll) when ``option`` makes someone roll Louqsor's dice."""
    kind = O.OPTION_KIND[option]
    if kind == O.PLACE:
        stall_id = O.SQUARE_STALL[option]
        if R.STALLS[stall_id].rule in _DICE_RULES:
            return stall_id, state.mask[R.LOUQSOR] | 1 << O.SQUARE_INDEX[option]
    elif kind == O.REROLL:
        return R.LOUQSOR * 2 + state.side[R.LOUQSOR], state.mask[R.LOUQSOR]
    return None


def _play(state: GameState, option: int) -> GameState:
    """``option`` applied to a copy of ``state`` that records its own events.

    The copy sees the deck as the players do (R12). A Louqsor roll must be decided: fixed in the
    position (R4.4), or certain either way (then a roll with that outcome is fixed on the copy, so
    the game's own dice are never revealed); otherwise the question has no single answer.
    """
    copy = state.copy()
    copy.log = []
    copy.deck = unseen_deck(state.deck)
    rolling = _rolling(state, option)
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
class _Words:
    """Catalog look-ups for one language and one game's colours."""

    def __init__(self, lang: str, state: GameState):
        self.lang = lang
        self.colours = state.colours

    def __call__(self, key: str, **params) -> str:
        return tr(self.lang, key, **params)

    def s(self, key: str, **params) -> str:
        text = tr(self.lang, key, **params)
        return text[:1].upper() + text[1:]

    def join(self, items, conj: str = "and") -> str:
        items = [str(i) for i in items]
        if not items:
            return tr(self.lang, "status.list.nothing")
        if len(items) == 1:
            return items[0]
        head = tr(self.lang, "status.list.sep").join(items[:-1])
        return tr(self.lang, f"status.list.{conj}", head=head, last=items[-1])

    def sentences(self, parts) -> str:
        return tr(self.lang, "status.sentence_sep").join(p for p in parts if p)

    def player(self, seat: int) -> str:
        if 0 <= seat < len(self.colours):
            return tr(self.lang, f"colour.{self.colours[seat]}")
        return tr(self.lang, "status.nobody")

    def market(self, m: int) -> str:
        return tr(self.lang, f"market.{R.MARKETS[m]}")

    def stall(self, stall_id: int) -> str:
        market, side = divmod(stall_id, 2)
        return tr(
            self.lang, "stall.name", market=self.market(market), side=self(f"side.{R.SIDES[side]}")
        )

    def square(self, stall_id: int, index: int) -> str:
        value = R.STALLS[stall_id].squares[index].value
        return tr(self.lang, "status.square", index=index, value=value)

    def card(self, kind: int) -> str:
        return tr(
            self.lang, f"card.{R.CARD_KINDS[kind]}" if kind < R.NUM_KINDS else "card.akhenaton"
        )

    def gift(self, gift_type: int) -> str:
        return tr(self.lang, f"gift.{R.GIFT_TYPES[gift_type]}")

    def slot(self, slot: int) -> str:
        return tr(self.lang, f"slot.{R.SLOTS[slot]}")

    def holders(self, count: int) -> str:
        return (
            tr(self.lang, "holders.one") if count == 1 else tr(self.lang, "holders.many", n=count)
        )

    def option(self, state: GameState, option: int) -> str:
        """An option in words that give nothing away (no bonus, no points, no "closes")."""
        kind, arg = O.OPTION_KIND[option], O.OPTION_ARG[option]
        if kind == O.PLACE:
            stall_id, index = O.SQUARE_STALL[option], O.SQUARE_INDEX[option]
            value = R.STALLS[stall_id].squares[index].value
            return self("exercise.opt.place", stall=self.stall(stall_id), square=index, value=value)
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
    return format_probability(value, 6**dice, lang)


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
    ):
        self.scenario = scenario
        self.before = tuple(before)
        self.variants = tuple(variants) if variants is not None else None
        self.note = note  # a closing remark: the message "exercise.note.<note>"
        self.id = id or f"{self.kind}:{scenario}"
        self.topic = topic
        self._staged: GameState | None = None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"

    # --- the position
    def _base(self) -> GameState:
        if self._staged is None:
            try:
                scenario = load(scenario_path(self.scenario))
            except NefertitiError as error:
                raise ExerciseError(f"exercise {self.id}: {error}") from None
            state = scenario.state
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
        parts = [self._question(w, state)]
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
        return _rolling(self._base(), self._option(self.option_text))

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
            count=int(chance * 36),
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
        return w.join((w.square(stall_id, i) for i in truth), "or")

    def _explain(self, parsed, truth, state: GameState, w: _Words) -> list[str]:
        stall_id = self._stall_id(state)
        status = stall_status(state, self.market, state.decider)
        # the closing squares are named by the verdict already
        parts = [describe_status(status, state.colours, w.lang)]
        if state.owners[self.market][parsed] >= 0:
            parts.append(w.s("exercise.click.taken", square=w.square(stall_id, parsed)))
        elif R.STALLS[stall_id].rule not in _DICE_RULES:
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
        return 2 if self._stall_id(state) == _LOUQSOR_LEFT else 1

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


# ------------------------------------------------------------------------------------ the registry
#: The tutorial topics, in the order of the notebooks.
TOPICS = (
    "welcome",
    "setup",
    "gift-cards",
    "markets",
    "closing-gizeh",
    "closing-akhet-aton",
    "closing-abou-simbel",
    "closing-louqsor",
    "a-turn",
    "closing-a-market",
    "characters",
    "final-scoring",
    "misreadings",
    "whole-game",
    "what-if",
    "teaching",
)

_ABOU_CLOSE = ("place abou_simbel.left#5",)  # Red's 7 makes 14: Abou Simbel closes (R3.5)

# (topic, name, kind, arguments): each exercise's id is "topic/name".
_TABLE = (
    ("welcome", "who-plays-next", WhoDecidesNext, ("first-game", "place akhet_aton.left#0"), {}),
    ("welcome", "gold-held-alone", GiftValue, ("end-game", "green", "gold"), {}),
    ("setup", "louqsor-starts-closed", IsLegal, ("first-game", "place louqsor.left#0"), {}),
    ("setup", "one-deben-per-reserve", HowMuchDeben, ("first-game", "place akhet_aton.left#4"), {}),
    ("gift-cards", "harps-two-holders", GiftValue, ("end-game", "blue", "harp"), {}),
    ("gift-cards", "senets-two-holders", GiftValue, ("scribe", "black", "senet"), {}),
    ("gift-cards", "chairs-three-holders", GiftValue, ("royal-servant", "green", "chair"), {}),
    (
        "markets",
        "first-servant-bonus",
        HowMuchDeben,
        ("first-game", "place abou_simbel.left#4"),
        {},
    ),
    (
        "markets",
        "deben-square",
        HowMuchDeben,
        ("abou-simbel-left-sums", "place abou_simbel.left#2"),
        {},
    ),
    (
        "markets",
        "both-bonuses",
        HowMuchDeben,
        ("markets-bonuses", "place abou_simbel.left#2"),
        {},
    ),
    (
        "markets",
        "seven-is-short",
        WillItClose,
        ("abou-simbel-right-17", "place abou_simbel.right#7"),
        {},
    ),
    ("closing-gizeh", "four-that-touch", ClickClosingSquare, ("gizeh-left-high-bids", "gizeh"), {}),
    (
        "closing-gizeh",
        "third-colour",
        WillItClose,
        ("gizeh-right-colours", "place gizeh.right#7"),
        {},
    ),
    (
        "closing-gizeh",
        "two-colours-three-servants",
        WillItClose,
        ("gizeh-right-two-colours", "place gizeh.right#1"),
        {},
    ),
    (
        "closing-akhet-aton",
        "every-level",
        ClickClosingSquare,
        ("akhet-aton-left-levels", "akhet_aton"),
        {},
    ),
    (
        "closing-akhet-aton",
        "three-in-a-line",
        ClickClosingSquare,
        ("akhet-aton-right-line", "akhet_aton"),
        {},
    ),
    (
        "closing-akhet-aton",
        "no-line",
        WillItClose,
        ("akhet-aton-right-line", "place akhet_aton.right#7"),
        {},
    ),
    (
        "closing-abou-simbel",
        "exactly-fourteen",
        ClickClosingSquare,
        ("abou-simbel-left-sums", "abou_simbel"),
        {},
    ),
    (
        "closing-abou-simbel",
        "fifteen-stays-open",
        WillItClose,
        ("abou-simbel-left-sums", "place abou_simbel.left#6"),
        {},
    ),
    (
        "closing-abou-simbel",
        "twelve-reaches-seventeen",
        WillItClose,
        ("abou-simbel-right-17", "place abou_simbel.right#8"),
        {},
    ),
    (
        "closing-abou-simbel",
        "twelve-is-not-eleven",
        WillItClose,
        ("abou-simbel-left-eleven", "place abou_simbel.left#2"),
        {},
    ),
    ("closing-louqsor", "two-dice-chance", ClosingChance, ("louqsor-left-dice", 2), {}),
    ("closing-louqsor", "run-chance", ClosingChance, ("louqsor-right-run", 3), {}),
    (
        "closing-louqsor",
        "sometimes",
        WillItClose,
        ("louqsor-left-dice", "place louqsor.left#2"),
        {},
    ),
    (
        "closing-louqsor",
        "the-holder-may-roll-again",
        WhoDecidesNext,
        ("louqsor-reroll", "place akhet_aton.left#0"),
        {},
    ),
    ("a-turn", "bonus-short", HowMuchDeben, ("first-game", "place gizeh.left#3"), {}),
    (
        "a-turn",
        "play-passes-left",
        WhoDecidesNext,
        ("abou-simbel-left-sums", "place abou_simbel.left#6"),
        {},
    ),
    ("a-turn", "no-seal-no-character", IsLegal, ("first-game", "recruit vizier"), {}),
    (
        "a-turn",
        "one-character-per-turn",
        IsLegal,
        ("a-turn", "recruit high_priest"),
        {"before": ("recruit vizier",)},
    ),
    (
        "a-turn",
        "close-a-market-of-yours",
        IsLegal,
        ("no-servant-left", "close akhet_aton"),
        {},
    ),
    (
        "closing-a-market",
        "highest-bidder-first",
        WhoDecidesNext,
        ("abou-simbel-left-sums", "place abou_simbel.left#5"),
        {},
    ),
    (
        "closing-a-market",
        "half-the-reserve",
        HowMuchDeben,
        ("abou-simbel-left-sums", "half"),
        {"before": _ABOU_CLOSE + ("take upper",)},
    ),
    (
        "closing-a-market",
        "cannot-pay",
        HowMuchDeben,
        ("cannot-pay", "place abou_simbel.left#5"),
        {},
    ),
    (
        "closing-a-market",
        "equal-bids-right-first",
        WhoDecidesNext,
        ("closing-step-by-step", "take upper"),
        {"before": ("place abou_simbel.left#4",)},
    ),
    ("characters", "vizier", HowManyPoints, ("vizier", "recruit vizier"), {}),
    (
        "characters",
        "scribe",
        HowManyPoints,
        ("scribe", "scribe senet"),
        {"before": ("recruit scribe",)},
    ),
    (
        "characters",
        "royal-servant-others-score",
        HowManyPoints,
        ("royal-servant", "royal chair"),
        {"seat": "red", "before": ("recruit royal_servant",)},
    ),
    (
        "characters",
        "merchant-pays-difference",
        HowMuchDeben,
        ("merchant", "give harp"),
        {"before": ("recruit merchant", "exchange green:statuette")},
    ),
    (
        "characters",
        "high-priest-second-servant",
        WhoDecidesNext,
        ("high-priest", "place abou_simbel.left#6"),
        {"before": ("recruit high_priest",)},
    ),
    ("final-scoring", "chairs-held-alone", GiftValue, ("end-game", "red", "chair"), {}),
    (
        "final-scoring",
        "last-market-closes",
        GameEnds,
        ("last-market", "place akhet_aton.right#8"),
        {},
    ),
    (
        "final-scoring",
        "green-final-score",
        FinalScore,
        ("last-market", "green"),
        {"before": ("place akhet_aton.right#8",)},
    ),
    (
        "misreadings",
        "no-half-for-the-highest-bidder",
        IsLegal,
        ("abou-simbel-left-sums", "half"),
        {"before": _ABOU_CLOSE, "note": "half_highest"},
    ),
    (
        "misreadings",
        "upper-card-with-its-seal",
        IsLegal,
        ("abou-simbel-left-sums", "take upper"),
        {"before": _ABOU_CLOSE, "note": "upper_seal"},
    ),
    (
        "misreadings",
        "gizeh-ignores-the-total",
        WillItClose,
        ("gizeh-left-high-bids", "place gizeh.left#0"),
        {"note": "bid_total"},
    ),
    (
        "misreadings",
        "akhenaton-does-not-end-the-game",
        GameEnds,
        ("akhenaton-appears", "place gizeh.right#3"),
        {"note": "akhenaton"},
    ),
    ("whole-game", "abou-simbel-to-17", ClickClosingSquare, ("mid-game", "abou_simbel"), {}),
    (
        "whole-game",
        "black-cannot-pay-her-own-bid",
        WhoDecidesNext,
        ("mid-game", "place akhet_aton.left#0"),
        {},
    ),
    ("whole-game", "statuettes-everywhere", GiftValue, ("mid-game", "black", "statuette"), {}),
    ("whole-game", "blue-score-now", FinalScore, ("mid-game", "blue"), {}),
    (
        "what-if",
        "deben-square-instead",
        WillItClose,
        ("abou-simbel-left-sums", "place abou_simbel.left#2"),
        {},
    ),
    (
        "what-if",
        "eight-instead",
        HowMuchDeben,
        ("abou-simbel-left-sums", "place abou_simbel.left#6"),
        {},
    ),
    (
        "what-if",
        "the-german-reading",
        GameEnds,
        ("akhenaton-appears", "place gizeh.right#3"),
        {"variants": ("akhenaton_ends_game",)},
    ),
    (
        "teaching",
        "a-fixed-die",
        WhoDecidesNext,
        ("louqsor-right-run", "place louqsor.right#3"),
        {},
    ),
    (
        "teaching",
        "fixed-dice-that-close",
        WhoDecidesNext,
        ("louqsor-left-dice", "place louqsor.left#2"),
        {},
    ),
    (
        "teaching",
        "a-fixed-card",
        WhoDecidesNext,
        ("akhenaton-appears", "place gizeh.right#3"),
        {},
    ),
)


def _build() -> dict[str, Exercise]:
    out: dict[str, Exercise] = {}
    for topic, name, kind, args, kwargs in _TABLE:
        if topic not in TOPICS:
            raise ExerciseError(f"unknown topic {topic!r} in the exercise table")
        ident = f"{topic}/{name}"
        if ident in out:
            raise ExerciseError(f"exercise {ident!r} is defined twice")
        out[ident] = kind(*args, id=ident, topic=topic, **kwargs)
    return out


#: Every exercise of the tutor, by id ("topic/name"), in the order of the topics.
EXERCISES: dict[str, Exercise] = _build()


def exercises_for(topic: str) -> list[Exercise]:
    """The exercises of one tutorial topic (one of :data:`TOPICS`), in order."""
    if topic not in TOPICS:
        raise KeyError(f"unknown topic {topic!r}: one of {', '.join(TOPICS)}")
    return [ex for ex in EXERCISES.values() if ex.topic == topic]
