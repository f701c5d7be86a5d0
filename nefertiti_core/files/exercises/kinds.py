"""The ten kinds of exercise (the list is in :mod:`nefertiti_core.files.exercises`), and
:data:`KINDS`: each by the name a position file's ``exercises:`` block gives it.

Standard library only.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import TYPE_CHECKING

from ...engine import options as O
from ...engine import rules as R
from ...engine.chance import roll_at
from ...engine.errors import NefertitiError
from ...engine.explain_illegal import why_illegal
from ...engine.scoring import score_breakdown
from ...engine.squares import square_names
from ...teaching import rules_reference
from ...teaching.explain import describe_event, narrate, score_lines
from ...teaching.status import (
    describe_status,
    format_probability,
    louqsor_probability,
    stall_status,
)
from ..exercise_block import KIND_FIELDS
from .answers import InvalidAnswer, read_probability
from .base import (
    ChoiceExercise,
    Exercise,
    ExerciseError,
    ExerciseWords,
    IntegerExercise,
    OptionExercise,
    play_on_copy,
)
from .reasons import cite, stall_reason

if TYPE_CHECKING:
    from ...engine.state import GameState


_LOUQSOR_LEFT = R.LOUQSOR * 2 + R.LEFT


def _probability_text(value: Fraction, dice: int, lang: str) -> str:
    return format_probability(value, R.roll_count(dice), lang)


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


#: The events that score prestige, and those that move Deben in or out of a purse: the deciding
#: facts of a points or a Deben question (the rest of the narration goes to the details).
POINT_EVENTS = ("vizier", "royal_servant", "scribe")
DEBEN_EVENTS = ("place", "pay", "half", "buy", "exchange", "treasurer", "cannot_pay")


def _bonus(w: ExerciseWords, d: dict) -> str | None:
    """The placement bonus of a ``place`` event alone (R5.3), or None if none was due."""
    due, paid = d["bonus_due"], d["bonus_paid"]
    if not due:
        return None
    reasons = [w("ev.place.reason_first")] if d["first_here"] else []
    if d["deben_square"]:
        reasons.append(w("ev.place.reason_deben"))
    key = (
        "ev.place.bonus"
        if paid == due
        else "ev.place.bonus_none"
        if not paid
        else "ev.place.bonus_short"
    )
    return w.s(
        key,
        player=w.player(d["seat"]),
        market=w.market(d["market"]),
        reasons=w.join(reasons),
        paid=paid,
        due=due,
        ref=cite(w, "R5.3"),
    )


def _deciding_events(copy: GameState, w: ExerciseWords, names, seat=None) -> list[str]:
    """The narration of ``copy``'s events named in ``names`` (of ``seat``'s, if given), up to
    the next turn."""
    out = []
    for name, data in copy.log:
        if name == "turn":
            break
        if name in names and (seat is None or data.get("seat", seat) == seat):
            if name == "place":
                text = _bonus(w, data)
            else:
                text = describe_event(name, data, copy.colours, w.lang)
            if text:
                out.append(text)
    return out


def _event_rules(copy: GameState, names, seat=None) -> tuple[str, ...]:
    """The rules of ``copy``'s events named in ``names``, each once, in order."""
    rules: list[str] = []
    for name, data in copy.log:
        if name == "turn":
            break
        rule = data.get("rule")
        if name == "place" and not data["bonus_due"]:
            continue
        wanted = name in names and (seat is None or data.get("seat", seat) == seat)
        if wanted and rule and rule not in rules and rules_reference.lookup(rule) is not None:
            rules.append(rule)
    return tuple(rules)


# --- will it close? -----------------------------------------------------------------------------
class WillItClose(ChoiceExercise):
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

    def _question(self, w: ExerciseWords, state: GameState) -> str:
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
        copy = play_on_copy(state, option)
        causes = self._causes(option)
        for name, data in copy.log:
            if name == "turn":
                break  # a closing after the next turn began is another player's (R5.4)
            if name == "market_closes" and data["market"] == market and data["cause"] in causes:
                return "yes"
        return "no"

    def _explain(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        option = self._option(self.option_text)
        if self._dice():
            reroll = O.OPTION_KIND[option] == O.REROLL
            return [_dice_sentence(w, *self._dice(), reroll=reroll)]
        if O.OPTION_KIND[option] == O.CLOSE:  # no servant left: the player closes it (R5.4)
            return [
                w.s(
                    "exercise.key.close_by_choice",
                    player=w.player(state.decider),
                    market=w.market(self._market(option)),
                    cite=cite(w, "R5.4"),
                )
            ]
        status = stall_status(state, self._market(option), state.decider)
        return stall_reason(w, status, state.colours) + self._later(state, option, w)

    def _later(self, state: GameState, option: int, w: ExerciseWords) -> list[str]:
        """A closing that follows, but by a later forced step (R5.4), not by this option."""
        market, causes = self._market(option), self._causes(option)
        parts, own, next_turn = [], False, False
        for name, data in play_on_copy(state, option).log:
            next_turn = next_turn or name == "turn"
            if name != "market_closes":
                continue
            if not (own or next_turn) and data["market"] == market and data["cause"] in causes:
                own = True  # this option's own closing
            else:
                parts.append(
                    w.s(
                        "exercise.close.later",
                        market=w.market(data["market"]),
                        cite=cite(w, "R5.4"),
                    )
                )
        return parts

    def _details(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        option = self._option(self.option_text)
        if self._dice():
            status = stall_status(state, self._market(option), state.decider)
            parts = []
            if state.forced_rolls:
                parts.append(w.s("exercise.dice.fixed", dice=w.join(state.forced_rolls)))
            return parts + [describe_status(status, state.colours, w.lang)]
        return narrate(play_on_copy(state, option), w.lang)


def _dice_sentence(w: ExerciseWords, stall_id: int, mask: int, reroll: bool = False) -> str:
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
            cite=cite(w, "R3.7", *(("R4.2",) if reroll else ())),
        )
    return w.s(
        f"exercise.dice.one{now}",
        stall=w.stall(stall_id),
        run=R.RUN_TABLE[stall_id][mask],
        values=w.join(values),
        probability=_probability_text(chance, 1, w.lang),
        cite=cite(w, "R3.8", *(("R4.2",) if reroll else ())),
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

    def _question(self, w: ExerciseWords, state: GameState) -> str:
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

    def _parse(self, answer, state: GameState, w: ExerciseWords) -> int:
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
                raise InvalidAnswer(
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
                raise InvalidAnswer(
                    "exercise.invalid.other_market",
                    clicked=w.market(R.MARKETS.index(match.group(1))),
                    stall=w.stall(stall_id),
                )
            named = None if match is None or match.group(1) is None else match.group(0)
            if match and (named is None or named.split("#")[0] == R.STALLS[stall_id].name):
                index = int(match.group(3))
        if index is None or not 0 <= index < size:
            raise InvalidAnswer("exercise.invalid.square", stall=w.stall(stall_id), last=size - 1)
        return index

    def _matches(self, parsed, truth) -> bool:
        return parsed in truth

    def _show(self, value, state: GameState, w: ExerciseWords) -> str:
        return w.square(self._stall_id(state), value)

    def _show_truth(self, truth, state: GameState, w: ExerciseWords) -> str:
        stall_id = self._stall_id(state)
        return square_names(stall_id, truth, w.lang, "or")

    def _explain(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        stall_id = self._stall_id(state)
        status = stall_status(state, self.market, state.decider)
        # the closing squares are the answer: named by the verdict, or after the reasoning
        parts = stall_reason(w, status, state.colours, squares=False)
        stall = R.STALLS[stall_id]
        owners = state.owners[self.market]
        if owners[parsed] < 0 and stall.rule in R.SUM_EXACT:
            # Abou Simbel (R3.5, R3.6): the fact that decides this square is the sum it makes
            # (in place of the stall's progress line, which says the rule again)
            now = sum(sq.value for sq in stall.squares if owners[sq.index] >= 0)
            parts[1:] = [
                w.s(
                    "exercise.click.sum_after",
                    now=now,
                    square=w.square(stall_id, parsed),
                    total=now + stall.squares[parsed].value,
                )
            ]
        if owners[parsed] >= 0:
            parts.append(
                w.s(
                    "exercise.click.taken",
                    square=w.square(stall_id, parsed),
                    cite=cite(w, "R5.2"),
                )
            )
        return parts

    def _details(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        stall_id = self._stall_id(state)
        status = stall_status(state, self.market, state.decider)
        parts = [describe_status(status, state.colours, w.lang)]
        if state.owners[self.market][parsed] < 0 and R.STALLS[stall_id].rule not in R.DICE_RULES:
            option = O.place_id(self.market, state.side[self.market], parsed)
            if state.is_legal(option):
                parts += narrate(play_on_copy(state, option), w.lang)
        return parts


# --- numbers: points, Deben, gift values, scores -------------------------------------------------
def _seat(state: GameState, seat) -> int:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.n:
        return seat
    if seat in state.colours:
        return state.colours.index(seat)
    raise ExerciseError(f"{seat!r} is not a seat of this game: one of {', '.join(state.colours)}")


class HowManyPoints(OptionExercise, IntegerExercise):
    """Prestige points ``seat`` (default: the decider) scores by the option (R10.2, R10.6, R10.7)."""

    kind = "how_many_points"

    def __init__(self, scenario: str, option: str, seat=None, **kw):
        super().__init__(scenario, option, **kw)
        self.seat = seat

    def _who(self, state: GameState) -> int:
        return state.decider if self.seat is None else _seat(state, self.seat)

    def _question(self, w: ExerciseWords, state: GameState) -> str:
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

    def _explain(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        who = self._who(state)
        copy = self._outcome(state)
        return _deciding_events(copy, w, POINT_EVENTS) + [
            w.s(
                "exercise.points.summary",
                player=w.player(who),
                before=state.prestige[who],
                after=copy.prestige[who],
                cite=cite(w, *_event_rules(copy, POINT_EVENTS)),
            )
        ]

    def _details(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        return self._narration(state, w)


class HowMuchDeben(OptionExercise, IntegerExercise):
    """The decider's net Deben change by the option, up to the next real decision (placement
    bonuses R5.3, paying a bid R6.2, half the reserve R6.4, Merchant R10.3, Treasurer R10.8)."""

    kind = "how_much_deben"
    low, high = -R.TOTAL_DEBEN[4], R.TOTAL_DEBEN[4]

    def _question(self, w: ExerciseWords, state: GameState) -> str:
        return w.s(
            "exercise.prompt.deben",
            player=w.player(state.decider),
            option=w.option(state, self._option(self.option_text)),
        )

    def _truth(self, state: GameState) -> int:
        p = state.decider
        return self._outcome(state).deben[p] - state.deben[p]

    def _show(self, value, state: GameState, w: ExerciseWords) -> str:
        return _signed(value)

    def _explain(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        p = state.decider
        copy = self._outcome(state)
        events = _deciding_events(copy, w, DEBEN_EVENTS, seat=p)
        rules = _event_rules(copy, DEBEN_EVENTS, seat=p)
        if not events:  # no bonus, no payment: nothing on this square pays (R5.3)
            return [w.s("exercise.deben.nothing", player=w.player(p), cite=cite(w, "R5.3"))]
        if rules == ("R5.3",):  # a placement bonus alone: its sentence says the change
            return events
        return events + [
            w.s(
                "exercise.deben.summary",
                player=w.player(p),
                before=state.deben[p],
                after=copy.deben[p],
                cite=cite(w, *rules),
            )
        ]

    def _details(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        return self._narration(state, w)


class GiftValue(IntegerExercise):
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

    def _question(self, w: ExerciseWords, state: GameState) -> str:
        seat = _seat(state, self.seat)
        return w.s("exercise.prompt.gift_value", player=w.player(seat), gift=w.gift(self.gift_type))

    def _truth(self, state: GameState) -> int:
        seat = _seat(state, self.seat)
        if not state.type_count(seat, self.gift_type):
            raise ExerciseError(
                f"exercise {self.id}: {state.colours[seat]} holds no {R.GIFT_TYPES[self.gift_type]}"
            )
        return state.gift_value(self.gift_type)

    def _explain(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
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
                cite=cite(w, "R8"),
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


class FinalScore(IntegerExercise):
    """``seat``'s score if the game ended now (the final score once it has ended) (R9.1)."""

    kind = "final_score"
    plays_option = False
    high = 500

    def __init__(self, scenario: str, seat, **kw):
        super().__init__(scenario, **kw)
        self.seat = seat

    def _question(self, w: ExerciseWords, state: GameState) -> str:
        key = "exercise.prompt.final_score_over" if state.is_over else "exercise.prompt.final_score"
        return w.s(key, player=w.player(_seat(state, self.seat)))

    def _truth(self, state: GameState) -> int:
        return score_breakdown(state, _seat(state, self.seat)).total

    def _explain(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        lines = score_lines(state, _seat(state, self.seat), w.lang)
        return [
            w.s("exercise.final.rule", cite=cite(w, "R9.1")),
            w.s("exercise.final.lines", lines=w("status.list.semicolon").join(lines)),
        ]


# --- who decides next -----------------------------------------------------------------------------
class WhoDecidesNext(OptionExercise, ChoiceExercise):
    """The colour that makes the next decision after the option (or nobody: the game is over)."""

    kind = "who_decides"
    NOBODY = "nobody"

    def _values(self, state: GameState) -> tuple[str, ...]:
        return tuple(state.colours) + (self.NOBODY,)

    def _label(self, value: str, state: GameState, w: ExerciseWords) -> str:
        if value == self.NOBODY:
            return w("exercise.choice.nobody")
        return w(f"colour.{value}")

    def _parse(self, answer, state: GameState, w: ExerciseWords) -> str:
        if isinstance(answer, int) and not isinstance(answer, bool):
            if 0 <= answer < state.n:
                return state.colours[answer]  # a seat number (a click on a player's panel)
        return super()._parse(answer, state, w)

    def _question(self, w: ExerciseWords, state: GameState) -> str:
        # a step with a single legal option is played by the engine (state.py): said for every
        # question, so that it tells nothing about this one, and the feedback names each such step
        question = w.s(
            "exercise.prompt.who_decides",
            player=w.player(state.decider),
            option=w.option(state, self._option(self.option_text)),
        )
        return w.sentences([question, w("exercise.prompt.forced_note")])

    def _truth(self, state: GameState) -> str:
        copy = self._outcome(state)
        return self.NOBODY if copy.is_over else copy.colours[copy.decider]

    def _explain(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        copy = self._outcome(state)
        forced = [forced_step(w, state, data) for name, data in copy.log if name == "forced"]
        priest = (
            not copy.is_over
            and state.placements_left > 1
            and copy.phase == "place"
            and copy.decider == state.decider
        )
        closed = [data["market"] for name, data in copy.log if name == "market_closes"]
        if priest:  # the High Priest's second placement (R10.4)
            last = w.s(
                "exercise.who.high_priest", player=w.player(copy.decider), cite=cite(w, "R10.4")
            )
        elif closed and copy.phase == "turn" and not copy.is_over:  # settled: the turn passes
            last = w.s(
                "exercise.who.after_closing",
                market=w.market(closed[-1]),
                previous=w.player(state.decider),
                player=w.player(copy.decider),
                cite=cite(w, "R5.5"),
            )
        elif copy.phase == "turn" and O.OPTION_KIND[self._option(self.option_text)] == O.PLACE:
            option = self._option(self.option_text)  # a placement that closes nothing
            last = w.s(
                "exercise.who.no_closing",
                previous=w.player(state.decider),
                market=w.market(O.SQUARE_STALL[option] >> 1),
                player=w.player(copy.decider),
                cite=cite(w, "R5.5"),
            )
        else:
            last = w.phase(copy)
        return forced + [last]

    def _details(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        return self._narration(state, w)


def forced_step(w: ExerciseWords, state: GameState, data: dict) -> str:
    """The sentence that says a ``forced`` event's step was played by the engine: "Blue's next
    step is forced: the only legal option is to take the upper card, ...". ``state``: the
    position the question is asked in (for the option's words)."""
    try:
        option = w.option(state, state.parse(data["option"]))
    except (NefertitiError, IndexError, KeyError):  # an option these words cannot name
        option = data["option"]
    return w.s("exercise.who.forced", player=w.player(data["seat"]), option=option)


# --- is it allowed? -------------------------------------------------------------------------------
class IsLegal(ChoiceExercise):
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

    def _question(self, w: ExerciseWords, state: GameState) -> str:
        option = self._parsed_option(state)
        return w.s(
            "exercise.prompt.is_legal",
            player=w.player(state.decider),
            option=w.option(state, option),
        )

    def _truth(self, state: GameState) -> str:
        return "yes" if state.is_legal(self._parsed_option(state)) else "no"

    def _explain(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        option = self._parsed_option(state)
        if truth == "yes":
            return [self._allowed(state, option, w)]
        reason = self._reason(state, option, w)
        if reason:
            return reason
        _, rule = why_illegal(state, option)
        if rule and rules_reference.lookup(rule) is not None:
            return [w.phase(state), w.s("exercise.legal.rule", cite=cite(w, rule))]
        return [w.phase(state)]

    def _details(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        option = self._parsed_option(state)
        player = w.player(state.decider)
        if truth == "yes":
            return [w.s("exercise.legal.yes", player=player)] + narrate(
                play_on_copy(state, option), w.lang
            )
        parts = [w.s("exercise.legal.no", player=player)]
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
    def _allowed(state: GameState, option: int, w: ExerciseWords) -> str:
        """Why the option is allowed: the fact that opens it, with its rule."""
        kind, arg = O.OPTION_KIND[option], O.OPTION_ARG[option]
        p = w.player(state.decider)
        if kind == O.PLACE and state.phase in ("turn", "place"):
            stall_id = O.SQUARE_STALL[option]
            return w.s(
                "exercise.legal.yes_place",
                player=p,
                square=w.square(stall_id, O.SQUARE_INDEX[option]),
                stall=w.stall(stall_id),
                cite=cite(w, "R5.2"),
            )
        if kind == O.RECRUIT:
            card = state.piles[arg][0]
            character = w(f"character.{R.CHARACTER_CARDS[card]}")
            return w.s(
                "exercise.legal.yes_recruit", player=p, character=character, cite=cite(w, "R5.1")
            )
        if kind == O.CLOSE:
            return w.s(
                "exercise.legal.yes_close", player=p, market=w.market(arg), cite=cite(w, "R5.4")
            )
        return w.phase(state)

    @staticmethod
    def _reason(state: GameState, option: int, w: ExerciseWords) -> list[str]:
        """Why the option is refused, in the learner's language, for the common cases."""
        kind, arg = O.OPTION_KIND[option], O.OPTION_ARG[option]
        p = state.decider
        if kind == O.PLACE and state.phase in ("turn", "place"):
            stall_id = O.SQUARE_STALL[option]
            m, index = stall_id >> 1, O.SQUARE_INDEX[option]
            status = describe_status(stall_status(state, m, p), state.colours, w.lang)
            if not state.hand[p]:
                return [w.s("exercise.legal.no_servant", player=w.player(p), cite=cite(w, "R5.4"))]
            if m not in state.open_markets():
                return [
                    w.s("exercise.legal.closed_market", market=w.market(m), cite=cite(w, "R5.2")),
                    status,
                ]
            if state.side[m] != stall_id & 1:
                return [
                    w.s("exercise.legal.covered", stall=w.stall(stall_id), cite=cite(w, "R5.2")),
                    status,
                ]
            if state.owners[m][index] >= 0:
                return [
                    w.s(
                        "exercise.click.taken",
                        square=w.square(stall_id, index),
                        cite=cite(w, "R5.2"),
                    )
                ]
        if kind == O.CLOSE and state.phase in ("turn", "place") and not state.hand[p]:
            # R5.4: only a market where one of the player's servants stands
            return [
                w.s(
                    "exercise.legal.close_own",
                    player=w.player(p),
                    market=w.market(arg),
                    cite=cite(w, "R5.4"),
                )
            ]
        if kind == O.RECRUIT and state.phase in ("turn", "place"):
            character = w(f"pile.{R.PILES[arg]}")
            if state.piles[arg]:
                character = w(f"character.{R.CHARACTER_CARDS[state.piles[arg][0]]}")
            if state.phase == "place" or state.recruited:
                return [
                    w.s(
                        "exercise.legal.recruit_first",
                        player=w.player(p),
                        character=character,
                        cite=cite(w, "R5.1"),
                    )
                ]
            if not state.seals[p]:
                return [
                    w.s(
                        "exercise.legal.no_seal",
                        player=w.player(p),
                        character=character,
                        cite=cite(w, "R5.1"),
                    )
                ]
            if state.piles[arg]:
                return [w.s("exercise.legal.not_now", character=character, cite=cite(w, "R10.1"))]
        return []


# --- does the game end? ---------------------------------------------------------------------------
class GameEnds(OptionExercise, ChoiceExercise):
    """Is the game over after the option? (R7.1; the German report's misreading, R13.)"""

    kind = "game_ends"

    def _question(self, w: ExerciseWords, state: GameState) -> str:
        return w.s(
            "exercise.prompt.game_ends",
            player=w.player(state.decider),
            option=w.option(state, self._option(self.option_text)),
        )

    def _truth(self, state: GameState) -> str:
        return "yes" if self._outcome(state).is_over else "no"

    def _explain(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        copy = self._outcome(state)
        still_open = [w.market(m) for m in copy.open_markets()]
        end = cite(w, "R7.1")
        if copy.is_over and still_open:
            return [w.s("exercise.ends.variant", markets=w.join(still_open), cite=end)]
        if copy.is_over:
            return [w.s("exercise.ends.yes", cite=end)]
        if copy.akhenaton_drawn:
            return [
                w.s(
                    "exercise.ends.open",
                    markets=w.join(still_open),
                    count=len(still_open),
                    cite=end,
                )
            ]
        return [w.s("exercise.ends.not_yet", cite=end)]

    def _details(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        return self._narration(state, w)


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

    def _question(self, w: ExerciseWords, state: GameState) -> str:
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

    def asked_option(self) -> str | None:
        """The placement whose roll the question is about."""
        state = self._base()
        option = O.place_id(R.LOUQSOR, state.side[R.LOUQSOR], self.square)
        return state.option_text(option) if state.is_legal(option) else None

    def _parse(self, answer, state: GameState, w: ExerciseWords) -> tuple[Fraction, bool, str]:
        value, exact = read_probability(answer)
        return value, exact, answer.strip() if isinstance(answer, str) else ""

    def _matches(self, parsed, truth) -> bool:
        value, exact, _ = parsed
        if exact:
            return value == truth
        return abs(value - truth) * 100 <= Fraction(1, 2)

    def _show(self, value, state: GameState, w: ExerciseWords) -> str:
        if isinstance(value, tuple):  # the learner's answer: as written, or as a probability
            value, _, text = value
            if text:
                return text
        return _probability_text(value, self._dice(state), w.lang)

    def _explain(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        stall_id = self._stall_id(state)
        return [_dice_sentence(w, stall_id, state.mask[R.LOUQSOR] | 1 << self.square)]

    def _details(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        parts = []
        if state.forced_rolls:
            parts.append(w.s("exercise.dice.fixed", dice=w.join(state.forced_rolls)))
        status = stall_status(state, R.LOUQSOR, state.decider)
        return parts + [describe_status(status, state.colours, w.lang)]


# ------------------------------------------------------------------------------------ by name
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
