"""Opponents: a bot chooses one legal option for whoever must decide.

    >>> from nefertiti_core.play.bots import make_bot
    >>> bot = make_bot("random", seed=1)
    >>> option = bot.choose(game)        # an id from game.legal_options()

Every bot kind is made by name through ``make_bot`` (the Sandbox's seat menu, the tournament and
the odds all use it). A bot never changes the state it is given; it may copy it to look ahead.
"""

from __future__ import annotations

import functools
import gc
import math
import operator
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress
from typing import Protocol

from ..engine import options as O
from ..engine import rules as R
from ..engine.chance import MAY_ROLL, roll_at
from ..engine.deck import reshuffled
from ..engine.errors import NefertitiError
from ..engine.scoring import totals, winners
from ..engine.state import OPEN, P_OVER, P_PLACE, P_SHAME, P_TAKE, P_TURN, GameState, fast_copy
from ..teaching.status import louqsor_outcomes, louqsor_probability


class Bot(Protocol):
    """What every bot kind offers."""

    kind: str

    def choose(self, state: GameState) -> int:
        """One legal option id for ``state.decider``; ``state`` is left unchanged."""
        ...


def legal_or_raise(state: GameState) -> tuple[int, ...]:
    """The legal options a bot chooses among; a clear error once the game is over."""
    legal = state.legal_options()
    if not legal:
        raise NefertitiError("the game is over: there is nothing to choose")
    return legal


class RandomBot:
    """Uniformly random among the legal options: par for every other bot."""

    kind = "random"

    def __init__(self, seed: int | None = 0):
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> int:
        legal = legal_or_raise(state)
        return legal[self.rng.randrange(len(legal))]


# --- The greedy bot ------------------------------------------------------------------------------
# A one-step look-ahead: every legal option is applied to a copy of the game and the position that
# follows is scored from the decider's point of view (``evaluate``). Its own follow-up decisions
# (the cards to take after its placement closes a market, a character's choices) are looked at
# too, a couple of steps deep. Louqsor's dice are never read off the game's random source: an
# option that rolls is scored by expectation over the two outcomes, closing or not (R3.7, R3.8,
# R4.2), and the look-ahead runs on a copy whose deck is reshuffled (the order is hidden, R12) and
# whose random source is the bot's own.

_VALUES = tuple(tuple(sq.value for sq in st.squares) for st in R.STALLS)
_SYMBOLS = tuple(tuple(sq.symbol for sq in st.squares) for st in R.STALLS)
_ORDER = R.RESOLUTION_ORDER
_MARKET_IDS = tuple(range(len(R.MARKETS)))
# Per stall, per occupancy mask: the occupied squares in resolution order (R6.1).
_QUEUE = tuple(
    tuple(tuple(i for i in _ORDER[st.id] if mask >> i & 1) for mask in range(1 << len(st.squares)))
    for st in R.STALLS
)
assert R.MARKET_CARDS == 4  # market_gains reads a market's cards as four slots
# Market values, gift values and markets placed in (each a dict of a few placements' values) the
# greedy bots of a thread keep between decisions (``thread_memory``), for each of the latest
# _SETTINGS_KEPT evaluator settings: about 0.6, 1.7 and 2.3 kB an entry, so at most about 8 MB a
# setting and 16 MB a thread; one mcts search of 1,000 simulations fills about 900, 1,500 and 700.
_MEMORY_LIMITS = (2_500, 2_500, 1_000)
_SETTINGS_KEPT = 2
_WEIGHT_TYPE = tuple(zip(R.KIND_WEIGHT, R.KIND_TYPE, strict=True))  # per card kind
# How likely a market is to close with its present bids, by the servants still needed (R3).
_CLOSING_WEIGHT = (1.0, 0.7, 0.45, 0.3, 0.25)
_LOUQSOR_CHANCE: dict[tuple[int, int], float] = {}
# A shape or sum stall's closing weight per occupancy mask (empty for the other stalls).
_SHAPE_WEIGHT = tuple(
    tuple(
        _CLOSING_WEIGHT[min(R.servants_needed(st.id, mask), len(_CLOSING_WEIGHT) - 1)]
        for mask in range(1 << len(st.squares))
    )
    if R.CLOSED_BY[st.id] == R.BY_SQUARES
    else ()
    for st in R.STALLS
)


def _louqsor_chance(stall_id: int, mask: int) -> float:
    key = (stall_id, mask)
    chance = _LOUQSOR_CHANCE.get(key)
    if chance is None:
        chance = float(louqsor_probability(stall_id, mask))
        _LOUQSOR_CHANCE[key] = chance
    return chance


@dataclass(frozen=True)
class Weights:
    """The greedy evaluation's knobs (points are R9 prestige points)."""

    deben_early: float = 1.0  # a Deben at the start buys gifts: about a point (R6.2)
    deben_end: float = 0.5  # at the end it is worth half a point (R9.1)
    seal: float = 3.0  # an unused seal (R9.1)
    seal_character: float = 1.5  # ... plus a character it may still recruit (R5.1)
    opponent_max: float = 0.5  # the opponents' measure: this share of the best one ...
    opponent_mean: float = 0.5  # ... and this share of their mean
    win_bonus: float = 50.0  # a finished game that the decider wins (R9.2)


@functools.cache
def _others(n: int) -> tuple:
    """Per seat, a function that takes the other seats' items of a list as a tuple, in seat
    order (for ``Evaluator.relative``, without slicing and joining the list each time; 3 or 4
    players, so always two items or more)."""
    return tuple(operator.itemgetter(*(q for q in range(n) if q != seat)) for seat in range(n))


def plus(est: list[float], weight: float, gains: list[float]) -> list[float]:
    """``[e + weight * g for e, g in zip(est, gains)]`` for 3 or 4 seats, written out: the same
    values, a third of the time of the comprehension (a function call of its own in Python
    3.11), and the look-ahead adds a market's weighted gains to each position it scores."""
    if len(est) == 4:
        e0, e1, e2, e3 = est
        g0, g1, g2, g3 = gains
        return [e0 + weight * g0, e1 + weight * g1, e2 + weight * g2, e3 + weight * g3]
    e0, e1, e2 = est
    g0, g1, g2 = gains
    return [e0 + weight * g0, e1 + weight * g1, e2 + weight * g2]


def game_progress(state: GameState) -> float:
    """How much of the game is left, from 1 (start) to 0 (the Akhenaton card is out, R6.8)."""
    if state.akhenaton_drawn:
        return 0.0
    start = R.TOTAL_GIFTS[state.n] + 1 - 12  # the deck after the first three markets are filled
    return max(0.0, min(1.0, len(state.deck) / start))


class Evaluator:
    """Scores positions for one seat: an estimate of each player's final score (R9.1) plus what
    the bids already on the board promise (R6), as "mine minus the opponents'"."""

    def __init__(self, state: GameState, weights: Weights = Weights(), memory: dict | None = None):
        self.w = weights
        self._omax, self._omean = weights.opponent_max, weights.opponent_mean
        self._others = _others(state.n)
        left = game_progress(state)
        self.deben = weights.deben_end + (weights.deben_early - weights.deben_end) * left
        characters = any(state.piles)
        self.seal = weights.seal + (weights.seal_character * left if characters else 0.0)
        # What stays true from one decision to the next (a bot's ``memory``): for the latest
        # evaluator settings (the worth of Deben and seals moves as the deck shrinks, and an
        # mcts search's positions go back and forth between two or so), market values by their
        # exact inputs, gift values by the gifts held and the placements' market values
        # (``placings``), within _MEMORY_LIMITS.
        setting = (weights, self.deben, self.seal, state.values, state.n)
        if memory is None:
            memory = {}
        kept = memory.pop(setting, None)
        if kept is not None:  # within _MEMORY_LIMITS (written out: once per decision)
            markets, gift_cache, placings = kept
            limit_markets, limit_gifts, limit_placings = _MEMORY_LIMITS
            if (
                len(markets) > limit_markets
                or len(gift_cache) > limit_gifts
                or len(placings) > limit_placings
            ):
                kept = None
        if kept is None:
            kept = ({}, {}, {})
        memory[setting] = kept  # the latest last
        if len(memory) > _SETTINGS_KEPT:
            del memory[next(iter(memory))]
        self._markets, self._gift_cache, self._placings = kept
        self._first_gifts = None  # (gifts, ``gifts_held`` entry) of the first position asked about

    # -- pieces -----------------------------------------------------------------------------
    @staticmethod
    def counts(state: GameState) -> list[tuple[int, ...]]:
        """Per seat, gifts held per type, a double senet counting 2 (R9.1)."""
        return [(g[0] + 2 * g[1], g[2], g[3], g[4], g[5], g[6], g[7]) for g in state.gifts]

    @staticmethod
    def card_worth(state: GameState, holders, counts, seat: int, kind: int) -> float:
        """Points one more card of ``kind`` adds to ``seat``'s score with the holders of now (R8)."""
        t = R.KIND_TYPE[kind]
        h = holders[t]
        if counts[seat][t]:
            return R.KIND_WEIGHT[kind] * state.values[t][h - 1]
        return R.KIND_WEIGHT[kind] * state.values[t][min(h, 3)]

    @staticmethod
    def worth_table(state: GameState, holders, counts) -> list[list[float]]:
        """Per seat, per card kind: ``card_worth`` (the same values, looked up in the loops)."""
        values = state.values
        held_value = [row[h - 1] for row, h in zip(values, holders, strict=True)]
        new_value = [row[min(h, 3)] for row, h in zip(values, holders, strict=True)]
        return [
            [w * (held_value[t] if held[t] else new_value[t]) for w, t in _WEIGHT_TYPE]
            for held in counts[: state.n]
        ]

    def market_gains(self, state: GameState, m: int, holders, counts, table=None) -> list[float]:
        """Per seat, what the bids in market ``m`` bring if it closed now (R6.2-R6.4), in points.
        ``table``: ``worth_table`` of these holders and counts (made here if not given)."""
        if table is None:
            table = self.worth_table(state, holders, counts)
        n = state.n
        gains = [0.0] * n
        stall = m * 2 + state.side[m]
        owners = state.owners[m]
        values = _VALUES[stall]
        cards = list(state.cards[m])
        seal = state.seal_on_upper[m]
        reserve = state.reserve[m]
        deben = list(state.deben)
        dv = self.deben
        if m == state.res_market:
            queue = state.res_queue[state.res_pos :]
            first = state.res_pos == 0
            paid = state.phase == P_TAKE  # the highest bidder has already paid (R6.2)
            if state.phase == P_SHAME:
                queue = queue[1:]
                first = False
        else:
            queue = _QUEUE[stall][state.mask[m]]
            first = True
            paid = False
        half_reserve = R.half_reserve
        seal_worth = self.seal
        for i in queue:
            q = owners[i]
            bid = values[i]
            row = table[q]
            c0, c1, c2, c3 = cards
            if not first:
                # The first of the best cards left (R6.4), the comparisons ``max`` and
                # ``index`` make on the list of worths written out (-1.0: no card there).
                top = -1.0
                if c0 >= 0:
                    top = row[c0] + seal_worth if seal else row[c0]
                best = 0
                if c1 >= 0 and (w := row[c1]) > top:
                    top, best = w, 1
                if c2 >= 0 and (w := row[c2]) > top:
                    top, best = w, 2
                if c3 >= 0 and (w := row[c3]) > top:
                    top, best = w, 3
                buy = top - bid * dv if deben[q] >= bid and cards[best] >= 0 else -1e9
                half = half_reserve(reserve)  # R6.4
                if buy > half * dv:
                    deben[q] -= bid
                    reserve += bid
                    gains[q] += buy
                    cards[best] = -1
                    if best == R.UPPER:
                        seal = False
                else:
                    reserve -= half
                    deben[q] += half
                    gains[q] += half * dv
                continue
            if c0 >= 0:
                w0 = row[c0] + seal_worth if seal else row[c0]
            else:
                w0 = -1.0
            worth = [
                w0,
                row[c1] if c1 >= 0 else -1.0,
                row[c2] if c2 >= 0 else -1.0,
                row[c3] if c3 >= 0 else -1.0,
            ]
            # The highest bidder (R6.2; R6.3 if they cannot pay):
            first = False
            if not paid:
                if deben[q] < bid:  # R6.3: pay nothing, discard a gift (the least worth)
                    lost = min(compress(row, state.gifts[q]), default=None)
                    gains[q] -= 0.0 if lost is None else lost
                    continue
                deben[q] -= bid
                reserve += bid
                gains[q] -= bid * dv
            for s in best_take(worth, _SYMBOLS[stall][i]):
                gains[q] += worth[s]
                cards[s] = -1
                if s == R.UPPER:
                    seal = False
        return gains

    def closing_weight(self, state: GameState, m: int) -> float:
        """How sure it is that market ``m`` closes with the bids it holds now."""
        if m == state.res_market:
            return 1.0
        stall = m * 2 + state.side[m]
        mask = state.mask[m]
        shape = _SHAPE_WEIGHT[stall]
        if shape:
            return shape[mask]
        needed = R.servants_needed(stall, mask, state.owners[m])  # R3.2: by the colours on it
        if needed is None:  # Louqsor: the dice decide (R3.7, R3.8)
            return min(1.0, 0.3 + _louqsor_chance(stall, mask))
        return _CLOSING_WEIGHT[min(max(1, needed), len(_CLOSING_WEIGHT) - 1)]

    def seat_part(self, state: GameState, gifts: list) -> list[float]:
        """Each player's prestige, Deben, seals and gifts at today's values (R8, R9.1);
        ``gifts``: a ``gifts_held`` entry."""
        dv, sv = self.deben, self.seal
        prestige, deben, seals = state.prestige, state.deben, state.seals
        points = gifts[5]
        if state.n == 4:  # written out (see ``plus``)
            return [
                prestige[0] + deben[0] * dv + seals[0] * sv + points[0],
                prestige[1] + deben[1] * dv + seals[1] * sv + points[1],
                prestige[2] + deben[2] * dv + seals[2] * sv + points[2],
                prestige[3] + deben[3] * dv + seals[3] * sv + points[3],
            ]
        return [prestige[q] + deben[q] * dv + seals[q] * sv + points[q] for q in range(state.n)]

    def market(
        self, state: GameState, m: int, gifts: tuple, deben: tuple
    ) -> tuple[float, list[float]]:
        """(closing weight, gains per seat) of a market not being resolved, kept by its exact
        inputs (``gifts[4]`` numbers the gifts held): the look-ahead changes one market at a
        time, and from one decision to the next most markets stay as they were."""
        key = _market_key(state, m, deben, gifts)
        hit = self._markets.get(key)
        if hit is None:
            hit = self._markets[key] = (
                self.closing_weight(state, m),
                self.market_gains(state, m, gifts[1], gifts[0], self.gifts_table(gifts, state)),
            )
        return hit

    def gifts_held(self, state: GameState) -> tuple:
        """[counts, holders, value per gift, worth table (None until ``gifts_table`` makes it),
        number, each seat's gifts in points] of the gifts held, kept per gifts held (most positions of a look-ahead hold the
        same gifts); the number tells the gifts apart in the market values' keys."""
        gifts = state.gifts
        first = self._first_gifts
        if first is not None and gifts == first[0]:  # the searched position's gifts: most
            return first[1]  # positions of a look-ahead hold them (no key made and hashed)
        held = tuple(map(tuple, gifts))
        hit = self._gift_cache.get(held)
        if hit is None:
            counts = tuple([(g[0] + 2 * g[1], g[2], g[3], g[4], g[5], g[6], g[7]) for g in held])
            holders = [len(column) - column.count(0) for column in zip(*counts, strict=True)]
            per_gift = [
                row[h - 1] if h else 0 for row, h in zip(state.values, holders, strict=True)
            ]
            number = len(self._gift_cache)
            mul = operator.mul
            points = [sum(map(mul, c, per_gift)) for c in counts[: state.n]]
            hit = self._gift_cache[held] = [counts, holders, per_gift, None, number, points]
        if first is None:
            self._first_gifts = (list(map(list, held)), hit)
        return hit

    def gifts_table(self, gifts: list, state: GameState) -> list[list[float]]:
        """``worth_table`` of ``gifts`` (a ``gifts_held`` entry), made once when first needed."""
        table = gifts[3]
        if table is None:
            table = gifts[3] = self.worth_table(state, gifts[1], gifts[0])
        return table

    def estimates(self, state: GameState, near: list | None = None) -> list[float]:
        """Each player's estimated final score: prestige, gifts at today's values (R8), Deben
        and seals at what they are worth now (R9.1), and the bids on the board (R6).
        ``near``: ``bids`` of a position this one was reached from: a market whose own state
        (bids, cards, seal, reserve) is as it was there keeps its value from there (the gifts
        and Deben changed since are not carried into its bids)."""
        gifts = self.gifts_held(state)
        est = self.seat_part(state, gifts)
        mask = state.mask
        res_market = state.res_market
        deben = None  # every player's Deben as a tuple, made when a market's key needs it
        for m in _MARKET_IDS:
            if m == res_market:
                gains = self.market_gains(
                    state, m, gifts[1], gifts[0], self.gifts_table(gifts, state)
                )
                weight = 1.0
            elif mask[m]:
                was = near[m] if near is not None else None
                # The market's own state compared item by item (the cheap ones first), as
                # ``_own`` holds it; the lists compared in place, not copied.
                if (
                    was is not None
                    and (own := was[0])[4] == state.reserve[m]
                    and own[1] == state.owners[m]
                    and own[2] == state.cards[m]
                    and own[3] == state.seal_on_upper[m]
                    and own[0] == state.side[m]
                ):
                    weight, gains = was[1]
                else:
                    if deben is None:
                        deben = tuple(state.deben)
                    weight, gains = self.market(state, m, gifts, deben)
            else:
                continue
            est = plus(est, weight, gains)
        return est

    def bids(self, state: GameState) -> list:
        """Per market not being resolved and holding bids: (its own state, (closing weight,
        gains per seat)), for ``estimates(near=...)`` of the positions that follow."""
        gifts = self.gifts_held(state)
        deben = tuple(state.deben)
        return [
            (_own(state, m), self.market(state, m, gifts, deben))
            if state.mask[m] and m != state.res_market
            else None
            for m in range(len(R.MARKETS))
        ]

    def placings(self, state: GameState, m: int, gifts: list) -> dict:
        """Per placement option in market ``m`` of the decider's (a placing decision):
        (``closing_weight``, ``market_gains``) of the market just after it, filled in by the
        search as it scores placements and kept by the market's exact inputs: the opponents'
        decisions an mcts search asks about differ mostly in one market, so the same market
        is placed in again and again."""
        key = (_market_key(state, m, tuple(state.deben), gifts), state.decider)
        hit = self._placings.get(key)
        if hit is None:
            hit = self._placings[key] = {}
        return hit

    # -- incremental: a placement changes one market (and perhaps the placer's Deben) ----------
    def context(self, state: GameState) -> tuple:
        """What every placement from ``state`` (a placing decision, no market being resolved)
        shares: the gift values (a placement moves no card) and each market's contribution."""
        gifts = self.gifts_held(state)
        seat = self.seat_part(state, gifts)
        deben = tuple(state.deben)
        markets = [
            self.market(state, m, gifts, deben) if state.mask[m] else None
            for m in range(len(R.MARKETS))
        ]
        return gifts, seat, markets

    def placed(
        self, context: tuple, state: GameState, market: int, seat: int, paid: int, closes=False
    ):
        """``estimates`` of ``state`` just after ``seat`` placed a servant in ``market`` and was
        paid ``paid`` Deben (R5.3), ``context`` being the position's before the placement: only
        the market placed in is evaluated again, and the other markets only if Deben changed.
        The same sums in the same order as ``estimates``, so the same floating-point values.
        ``closes``: the placement closes the market (R3): its settlement is certain (weight 1),
        estimated by ``market_gains``' rule instead of being searched step by step (R6)."""
        gifts, seat_part, markets = context
        est = seat_part[:]
        if paid:
            est[seat] = (
                state.prestige[seat]
                + state.deben[seat] * self.deben
                + state.seals[seat] * self.seal
                + gifts[5][seat]
            )
        mask = state.mask
        deben = tuple(state.deben) if paid else ()
        for m in range(len(R.MARKETS)):
            if m == market:
                weight, gains = self.market(state, m, gifts, deben or tuple(state.deben))
                if closes:
                    weight = 1.0
            elif not mask[m]:
                continue
            elif paid:
                weight, gains = self.market(state, m, gifts, deben)
            else:
                weight, gains = markets[m]
            est = plus(est, weight, gains)
        return est

    def sums(self, context: tuple) -> list[list[float]]:
        """Per market m: each seat's ``estimates`` without market m's bids (``context``'s
        values summed once, for the look-ahead's placements scored in place: the other markets
        keep their values, the market placed in is evaluated again)."""
        _, seat_part, markets = context
        total = seat_part[:]
        for hit in markets:
            if hit is not None:
                weight, gains = hit
                total = plus(total, weight, gains)
        # ``e - w * g`` is ``e + (-w) * g`` to the last bit (IEEE 754 negation is exact).
        return [total[:] if hit is None else plus(total, -hit[0], hit[1]) for hit in markets]

    def relative(self, est: list[float], seat: int) -> float:
        """``seat``'s estimate minus the opponents' measure (``Weights.opponent_max`` of the best
        one and ``opponent_mean`` of their mean). ``max`` and ``sum`` written out for two or
        three opponents: the same comparisons and additions (``sum`` adds from 0.0, left to
        right) at half the cost, and this runs for every option a greedy bot scores."""
        others = self._others[seat](est)
        if len(others) == 3:
            a, b, c = others
            top = a
            if b > top:
                top = b
            if c > top:
                top = c
            return est[seat] - self._omax * top - self._omean * (0.0 + a + b + c) / 3
        a, b = others
        top = b if b > a else a
        return est[seat] - self._omax * top - self._omean * (0.0 + a + b) / 2

    def __call__(self, state: GameState, seat: int, near: list | None = None) -> float:
        if state.phase == P_OVER:
            scores = totals(state)
            value = self.relative([float(s) for s in scores], seat)
            won = winners(state)
            return value + (self.w.win_bonus / len(won) if seat in won else 0.0)
        return self.relative(self.estimates(state, near), seat)


def _market_key(state: GameState, m: int, deben: tuple, gifts: list) -> tuple:
    """Every input of market ``m``'s settlement estimate (``market_gains``, R6) and closing weight
    besides the evaluator's setting, for a market not being resolved: its stall, bids, cards, seal
    and reserve, the players' Deben (``deben``, a tuple) and the gifts held (``gifts[4]``, their
    number in the evaluator's memory)."""
    return (
        m,
        state.side[m],
        tuple(state.owners[m]),
        tuple(state.cards[m]),
        state.seal_on_upper[m],
        state.reserve[m],
        deben,
        gifts[4],
    )


def _own(state: GameState, m: int) -> tuple:
    """Market ``m``'s own state: its side, bids, cards, seal and reserve (copies)."""
    return (
        state.side[m],
        list(state.owners[m]),
        list(state.cards[m]),
        state.seal_on_upper[m],
        state.reserve[m],
    )


def best_take(worth: list[float], symbol: str) -> tuple[int, ...]:
    """The highest bidder's best card set by the winning square's symbol (R6.2)."""
    if symbol == R.SINGLE:
        top = max(worth)
        return (worth.index(top),) if top > -1.0 else ()
    upper_worth, wa, wb, wc = worth
    if upper_worth > -1.0 and wa > -1.0 and wb > -1.0 and wc > -1.0:
        # A full market (the usual case): the three lower cards ordered best first, equal
        # worths by slot (the stable sort below, written out as an insertion of three).
        a, b, c = 1, 2, 3
        if wb > wa:
            a, b, wa, wb = b, a, wb, wa
        if wc > wb:
            b, c, wb, wc = c, b, wc, wb
            if wb > wa:
                a, b, wa, wb = b, a, wb, wa
        if symbol == R.EXTRA:
            return (0, a) if upper_worth + wa > wa + wb + wc else (a, b, c)
        return (0,) if upper_worth > wa + wb else (a, b)
    lower = [s for s in (1, 2, 3) if worth[s] > -1.0]
    if len(lower) > 1:
        lower.sort(key=worth.__getitem__, reverse=True)  # stable: equal worths by slot
    upper_worth = worth[0]
    if upper_worth > -1.0:  # the upper card
        if not lower:
            return (0,)
        # The sums written out in the order ``sum`` adds them (the same floating-point values).
        top = worth[lower[0]]
        if symbol == R.EXTRA:
            first = tuple(lower)
            if upper_worth + top > (top + worth[lower[1]] if len(lower) > 1 else top) + (
                worth[lower[2]] if len(lower) > 2 else 0.0
            ):
                return (0, lower[0])
            return first
        first = tuple(lower[:2])
        return (0,) if upper_worth > (top + worth[lower[1]] if len(lower) > 1 else top) else first
    if not lower:
        return ()
    return tuple(lower) if symbol == R.EXTRA else tuple(lower[:2])


class collector_paused:  # noqa: N801 (used as ``with collector_paused():``)
    """Python's automatic garbage collection paused while a search runs, then as it was.

    A look-ahead makes many short-lived lists (a copy of the game is some forty of them) and no
    reference cycles (``tests/test_bots.py`` checks that a search leaves nothing to collect), so
    reference counting frees everything it makes, and the collections its allocations would
    start only scan the search's tree and the bot's memory for nothing: 4-11% of an mcts
    search's CPU time in the runs measured (3% of its instructions). Only the automatic collections are paused, and only when they were on: a
    process that manages its own (the served app, ``widgets/server/gc_pacing.py``) or has turned them
    off keeps its setting; an explicit ``gc.collect()`` runs as ever."""

    __slots__ = ("paused",)

    def __enter__(self):
        self.paused = gc.isenabled()
        if self.paused:
            gc.disable()

    def __exit__(self, *exc):
        if self.paused:
            gc.enable()


class SeededLater:
    """``random.Random(seed)``, seeded when first used: seeding costs 20 µs, and a look-ahead
    forces its dice (``chance_outcomes``), so its copies rarely roll with their own source."""

    __slots__ = ("_seed", "seeded")

    def __init__(self, seed: int):
        self._seed = seed
        self.seeded: random.Random | None = None  # the real source, once a die was drawn

    def _real(self) -> random.Random:
        if self.seeded is None:
            self.seeded = random.Random(self._seed)
        return self.seeded

    def random(self) -> float:
        return self._real().random()

    def __getattr__(self, name: str):
        return getattr(self._real(), name)


def public_copy(state: GameState, rng: random.Random) -> GameState:
    """A copy to look ahead on that knows only what the players know: the deck reshuffled (the
    Akhenaton card kept among the bottom five, R2.2) and dice from ``rng``, not the game's.
    Play on it with the engine; like ``fast_copy`` it shares the lists the engine only replaces
    (``own_lists`` on it before changing it by hand)."""
    copy = fast_copy(state, SeededLater(rng.getrandbits(64)))
    copy.deck = reshuffled(state.deck, rng)
    return copy


def chance_outcomes(state: GameState, option: int) -> list[tuple[float, tuple[int, ...]]]:
    """(probability, dice to force) for an option that rolls Louqsor's dice, one entry for a roll
    that closes and one for a roll that does not (R3.7, R3.8, R4.2); ``[(1.0, ())]`` otherwise."""
    return [(p, roll) for p, roll, _ in chances(state, option)]


NO_ROLL = ((1.0, (), None),)
_BEAM = 1  # options of a decision inside the look-ahead searched to the end (the rest: one step)


def chances(state: GameState, option: int) -> tuple[tuple[float, tuple[int, ...], bool | None]]:
    """``chance_outcomes`` with each outcome's closing (True/False; None: no roll)."""
    if not MAY_ROLL[option]:  # most options: no call of ``roll_at``
        return NO_ROLL
    stall, mask = roll_at(state, option)
    key = (stall, mask, tuple(state.forced_rolls))
    out = _CHANCES.get(key)
    if out is None:
        outcomes = louqsor_outcomes(stall, mask, key[2])
        closing = [free for free, closes in outcomes if closes]
        staying = [free for free, closes in outcomes if not closes]
        p = len(closing) / len(outcomes)
        out = []
        if closing:
            out.append((p, closing[0], True))
        if staying:
            out.append((1.0 - p, staying[0], False))
        out = tuple(out)
        if len(_CHANCES) < 10_000:
            _CHANCES[key] = out
    return out


_CHANCES: dict[tuple, tuple[tuple[float, tuple[int, ...], bool]]] = {}
_DEBEN_SQUARE = tuple(tuple(sq.symbol == R.DEBEN for sq in st.squares) for st in R.STALLS)
# Per option id: a placement on a stall whose placements roll no dice (``roll_at`` is None).
_PLACE_NO_ROLL = tuple(
    O.OPTION_KIND[o] == O.PLACE and not MAY_ROLL[o] for o in range(O.NUM_OPTIONS)
)
# Per stall, per occupancy mask after a placement: whether the placement closes the stall, where
# the squares decide; never where the dice decide (their outcomes are drawn apart, R3.7, R3.8);
# None for Gizeh's right stall, where the colours on it decide (R3.2).
_CLOSING = tuple(
    None
    if R.CLOSED_BY[st.id] == R.BY_COLOURS
    else tuple(bool(R.stall_closes(st.id, mask)) for mask in range(1 << len(st.squares)))
    for st in R.STALLS
)


def _place_at(option: int) -> tuple | None:
    """A placement's (stall, market, square, closing per occupancy mask after it, whether the
    square pays a Deben); closing: the stall's ``_CLOSING``."""
    if O.OPTION_KIND[option] != O.PLACE:
        return None
    stall = O.SQUARE_STALL[option]
    i = O.SQUARE_INDEX[option]
    return stall, stall >> 1, i, _CLOSING[stall], _DEBEN_SQUARE[stall][i]


_PLACE_AT = tuple(_place_at(o) for o in range(O.NUM_OPTIONS))
_EMPTY_COUNT = tuple(
    tuple(len(st.squares) - bin(mask).count("1") for mask in range(1 << len(st.squares)))
    for st in R.STALLS
)


_THREAD = threading.local()


def thread_memory() -> dict:
    """The evaluator's memory (``Evaluator(memory=...)``) shared by the greedy bots deciding on
    this thread: the seats of a game (the tournament's, the odds' playouts, a Sandbox's bot
    seats) evaluate the same markets one after the other, and the values are kept by their exact
    inputs, so sharing them changes no value (``tests/test_greedy_incremental.py``). One per
    thread, so never written by two threads at once; bounded as a bot's was (_MEMORY_LIMITS)."""
    memory = getattr(_THREAD, "memory", None)
    if memory is None:
        memory = _THREAD.memory = {}
    return memory


class GreedyBot:
    """Rule-based: scores each legal option one step ahead (see ``Evaluator``): the gifts' value
    for their holders now (R8), Deben and seals (R9.1), prestige already scored, and the bids on
    the board weighted by how close their market is to closing (R3, R6). Ties are broken by the
    seeded random source, so a seed gives the same choices."""

    kind = "greedy"

    def __init__(
        self,
        seed: int | None = 0,
        depth: int = 2,
        weights: Weights | None = None,
        exact: bool = False,
    ):
        self.rng = random.Random(seed)
        self.depth = depth
        self.exact = exact  # True: search every settlement step of a closing (the old, slow way)
        self.weights = weights or Weights()
        # The evaluator's values kept between decisions: None, this thread's (``thread_memory``),
        # shared with the other greedy bots deciding on it; a dict, this bot's own.
        self.memory: dict | None = None

    def option_values(self, state: GameState, legal=None) -> dict[int, float]:
        """Each legal option's score (``Evaluator`` units: points ahead of the opponents)."""
        with collector_paused():
            return self._option_values(state, legal)

    def _option_values(self, state: GameState, legal) -> dict[int, float]:
        legal = state.legal_options() if legal is None else legal
        memory = self.memory
        evaluate = Evaluator(state, self.weights, thread_memory() if memory is None else memory)
        me = state.decider
        search = Search(evaluate, me, self.depth, self.exact)
        if self.exact:
            base = public_copy(state, self.rng)
        else:
            # ``public_copy`` with the deck reshuffled only before a first copy is played on
            # (a placement scored in place draws no card), and the searched position's market
            # values (``near``) taken then too: only the copies' evaluations read them.
            base = fast_copy(state, SeededLater(self.rng.getrandbits(64)))
            search.unshuffled = (base, self.rng)
        places = [o for o in legal if O.OPTION_KIND[o] in (O.PLACE, O.CLOSE)]
        values = search.placements(base, places, self.depth)
        if len(places) < len(legal):
            if places and state.phase == P_TURN:
                # A character is followed by the placement still to make (R5.1, R5.2): count it
                # as the best placement's gain over standing still.
                search.place_gain = max(values.values()) - evaluate(base, me)
            for o in legal:
                if o not in values:
                    values[o] = search.option(base, o, self.depth + 1)
        return values

    def choose(self, state: GameState) -> int:
        legal = legal_or_raise(state)
        if len(legal) == 1:
            return legal[0]
        values = self.option_values(state, legal)
        best = max(values.values())
        tied = [o for o in legal if values[o] >= best - 1e-9]
        return tied[self.rng.randrange(len(tied))] if len(tied) > 1 else tied[0]


class Search:
    """The look-ahead over the decider's own consecutive decisions (then ``Evaluator``).

    A placement that closes no market and leaves no decision to the decider, nor a single forced
    option to the next player, is scored without a copy: the servant is put on the position,
    the position scored incrementally (``Evaluator.placed``: only what the placement changed is
    evaluated again) and the servant taken back. Any other option is applied to a copy. Both
    give the same values (``tests/test_greedy_golden.py`` holds the choices made before)."""

    def __init__(self, evaluate: Evaluator, me: int, depth: int, exact: bool = False):
        self.evaluate = evaluate
        self.me = me
        self.exact = exact
        self.place_gain = 0.0
        self.unshuffled = None  # (position, random source): its deck to reshuffle first
        self.near = None  # Evaluator.bids of the position searched from (not with ``exact``)
        self.unsettled = 0  # copies reaching a decision of the decider's (see ``settled``)
        self._prepared: dict[int, list] = {}  # per position placed on: see ``_prepare``

    def placements(self, state: GameState, options: list[int], depth: int) -> dict[int, float]:
        """``option`` of each of ``options`` (a placing decision's), a placement that rolls no
        dice scored in place without the detour."""
        out = {}
        placement = self.placement
        for o in options:
            if _PLACE_NO_ROLL[o]:  # ``roll_at`` is None for a placement off the dice (R3.7)
                value = placement(state, o, depth, None)
                if value is not None:
                    out[o] = value
                    continue
            out[o] = self.option(state, o, depth)
        return out

    def option(self, state: GameState, option: int, depth: int, keep: list | None = None) -> float:
        """The option's value on ``state``, searched ``depth`` decisions deep; ``keep``: a list
        that receives each outcome's copy (None for an outcome scored in place), for
        ``_again``."""
        total = 0.0
        for p, roll, closes in chances(state, option):
            if O.OPTION_KIND[option] == O.PLACE and (closes is not True or not self.exact):
                value = self.placement(state, option, depth, closes)
                if value is not None:
                    total += p * value
                    if keep is not None:
                        keep.append(None)
                    continue
            if self.unshuffled is not None:
                hidden, rng = self.unshuffled
                self.near = self.evaluate.bids(hidden)  # the position searched from
                hidden.deck = reshuffled(hidden.deck, rng)  # the order is hidden (R12)
                self.unshuffled = None
            copy = fast_copy(state, state.rng)
            if roll:
                copy.force_roll(*roll)
            copy.apply_unchecked(option)
            if not self.settled(copy):
                self.unsettled += 1
            if keep is not None:
                keep.append(copy)
            total += p * self.value(copy, depth - 1)
        return total

    def _again(self, state: GameState, option: int, depth: int, kept: list) -> float:
        """``option(state, option, depth)`` on the copies ``kept`` by a shallower ``option``
        call: each outcome's position after the option, which ``value`` leaves unchanged. Only
        where no die was drawn from the look-ahead's random source yet (its ``SeededLater`` is
        still unseeded): then playing the option again would give the same positions."""
        for copy in kept:
            if copy is None or type(copy.rng) is not SeededLater or copy.rng.seeded is not None:
                return self.option(state, option, depth)
        total = 0.0
        for (p, _, _), copy in zip(chances(state, option), kept, strict=True):
            if not self.settled(copy):
                self.unsettled += 1
            total += p * self.value(copy, depth - 1)
        return total

    def settled(self, state: GameState) -> bool:
        """``value(state, depth)`` is the same for every depth (no decision of the decider's
        left to search there)."""
        me = self.me
        if state.phase == P_PLACE and state.decider == me and state.turn_player == me:
            return self.place_gain or not self.exact
        return (
            state.decider != me
            or state.phase == P_OVER
            or (state.phase == P_TURN and not self.exact)
        )

    def placement(self, state: GameState, option: int, depth: int, closes: bool | None):
        """The value of a placement scored on ``state`` itself and undone (``closes``: None, no
        roll; True/False: Louqsor's roll that closes or not, R3.7, R3.8). A placement that
        closes its market is scored by the settlement's direct estimate (``market_gains``: the
        highest bidder takes the cards best for them, the others buy or take half, R6) at
        weight 1, not by searching each settlement step. None where a placement that closes
        nothing goes on to decisions the search would look at (another placement of the
        decider's, a re-roll, R4.2, a forced option), left to the copy; with ``exact`` a
        closing is left to the copy too (the plain search, kept to measure the estimate against)."""
        prepared = self._prepared.get(id(state))
        if prepared is None or prepared[0] is not state:
            prepared = self._prepared[id(state)] = self._prepare(state)
        _, p, left, may_reroll, next_chooses, ev, _ = prepared
        stall, m, i, closing, deben_square = _PLACE_AT[option]
        mask = state.mask
        before = mask[m]
        after = before | 1 << i
        owners = state.owners[m]
        if closes is None:
            if closing is None:  # R3.2: Gizeh's right stall, by the colours on it
                closes = R.placement_closes(stall, before, owners, i, p)
            else:
                closes = closing[after]
            rolled = False
        else:
            rolled = not closes
        reroll = False
        exact = self.exact
        if closes:
            if exact:
                return None
        # What the engine does after the placement (R5.2: next placement, re-roll or next turn):
        elif left > 0:  # the decider places again (R10.4)
            if not self.place_gain and depth > 1 and exact:
                return None
        elif not rolled and may_reroll:  # the decider may re-roll (R4.2)
            if exact:
                return None
            reroll = True
        elif not next_chooses:
            return None
        if ev is None:
            ctx = self.evaluate.context(state)
            ev = prepared[5] = (ctx, None if exact else self.evaluate.sums(ctx))
        ctx, sums = ev
        evaluate = self.evaluate
        reserve, deben = state.reserve, state.deben
        paid = (before == 0) + deben_square  # R5.3, while the reserve has money
        if paid > reserve[m]:
            paid = reserve[m]
        hit = None  # the market placed in, just after the placement: (closing weight, gains)
        if not exact:
            # Kept for this market's inputs (``Evaluator.placings``; both rolls of a placement
            # on Louqsor place the same servant, R3.7, R3.8).
            placings = prepared[6][m]
            if placings is None:
                placings = prepared[6][m] = evaluate.placings(state, m, ctx[0])
            hit = placings.get(option)
        if hit is None:
            # The placement (R5.2, R5.3) made on the position itself, undone below (written
            # once for both searches: a helper called per placement costs 3% of a decision).
            owners[i] = p
            mask[m] = after
            reserve[m] -= paid
            deben[p] += paid
            try:
                if exact:
                    est = evaluate.placed(ctx, state, m, p, paid, closes)
                else:
                    gifts = ctx[0]
                    table = gifts[3]
                    if table is None:
                        table = evaluate.gifts_table(gifts, state)
                    shape = _SHAPE_WEIGHT[stall]  # ``closing_weight``'s table, where it has one
                    hit = placings[option] = (
                        shape[after] if shape else evaluate.closing_weight(state, m),
                        evaluate.market_gains(state, m, gifts[1], gifts[0], table),
                    )
            finally:
                owners[i] = -1
                mask[m] = before
                reserve[m] += paid
                deben[p] -= paid
        if not exact:
            # The market placed in evaluated again, the other markets keeping their values
            # from before (``sums``: the placer's paid Deben counted at their worth, not as
            # money for other bids).
            weight = 1.0 if closes else hit[0]
            gains = hit[1]
            others = sums[m]
            est = plus(others, weight, gains)
            if paid:
                est[p] = others[p] + paid * evaluate.deben + weight * gains[p]
        value = evaluate.relative(est, self.me)
        if reroll:
            return max(value, self._reroll(state, ctx, est, value))
        if left > 0 and self.place_gain:
            return value + left * self.place_gain
        return value

    def _prepare(self, state: GameState) -> list:
        """What every placement from ``state`` shares: [state, the placer, placements left
        after this one, whether the placer may re-roll at the turn's end (R4.2), whether the
        next player has a real choice (a servant and at least two empty squares, not a forced
        option), the evaluation's context and sums (made when first needed), per market the
        values of the market after each placement in it (``Evaluator.placings``, fetched when
        first needed)]."""
        p = state.decider
        may_reroll = (
            state.holder == p
            and state.holder_turn < state.turn_no
            and state.status[R.LOUQSOR] == OPEN
        )
        next_chooses = False
        if state.hand[(state.turn_player + 1) % state.n]:
            status, side, mask = state.status, state.side, state.mask
            empty = -1  # the square placed on
            for mm in range(4):
                if status[mm] == OPEN:
                    empty += _EMPTY_COUNT[mm * 2 + side[mm]][mask[mm]]
            next_chooses = empty >= 2
        return [
            state,
            p,
            state.placements_left - 1,
            may_reroll,
            next_chooses,
            None,
            [None] * len(R.MARKETS),
        ]

    def _reroll(self, state: GameState, context: tuple, est: list[float], keep: float) -> float:
        """The dice holder's re-roll after its last placement (R4.2), scored in place: a roll
        that closes Louqsor settles it (its bids at weight 1, as a closing placement's), one
        that does not leaves the position as keeping the dice does (``keep``)."""
        louqsor = context[2][R.LOUQSOR]
        if louqsor is None:
            return keep
        weight, gains = louqsor
        value = 0.0
        for p, _, closes in chances(state, O.REROLL_ID):
            if closes:
                closed = plus(est, 1.0 - weight, gains)
                value += p * self.evaluate.relative(closed, self.me)
            else:
                value += p * keep
        return value

    def value(self, state: GameState, depth: int) -> float:
        me = self.me
        if state.phase == P_PLACE and state.decider == me and state.turn_player == me:
            if self.place_gain or not self.exact:  # after a character: the placement(s) to come
                return self.evaluate(state, me, self.near) + state.placements_left * self.place_gain
        if depth <= 0 or state.phase == P_OVER or state.decider != me:
            return self.evaluate(state, me, self.near)
        if state.phase == P_TURN and not self.exact:
            # A new turn of the decider's (after a settlement it bid in): scored as it stands,
            # its placements are the next decision's to look at.
            return self.evaluate(state, me, self.near)
        legal = state.legal
        if depth >= 2 and len(legal) > _BEAM and not self.exact:
            # A character's decision inside the look-ahead (R10): every option one step deep;
            # an option whose step reached no further decision of the decider's has its value
            # to the end, of the others only the best (_BEAM) is searched to the end.
            best = -math.inf
            step = {}
            kept = {}
            for o in legal:
                before = self.unsettled
                keep = []
                value = self.option(state, o, depth - 1, keep)
                if self.unsettled == before:
                    best = max(best, value)
                else:
                    step[o] = value
                    kept[o] = keep
            for o in sorted(step, key=lambda o: -step[o])[:_BEAM]:
                best = max(best, self._again(state, o, depth, kept[o]))
            return best
        return max(self.option(state, o, depth) for o in legal)


# kind -> factory(seed, **options). Kinds whose module needs an optional package are imported
# only when asked for, so that the engine stays standard library only.
def _exact_greedy(seed: int | None = 0, **options) -> GreedyBot:
    """The greedy bot searching every settlement step of a closing: slower, kept to measure the
    greedy bot's direct estimate of a closing against."""
    bot = GreedyBot(seed=seed, exact=True, **options)
    bot.kind = "greedy-exact"
    return bot


# The bot kinds ``make_bot`` knows, each with its factory (``register`` adds one; a ``_LAZY`` kind
# registers itself when its module is first imported).
FACTORIES: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "greedy-exact": _exact_greedy,
}
_LAZY: dict[str, str] = {"mcts": "nefertiti_core.play.openspiel"}


def register(kind: str, factory: Callable[..., Bot]) -> None:
    FACTORIES[kind] = factory


def bot_kinds() -> tuple[str, ...]:
    """Every bot kind ``make_bot`` knows, in order of strength."""
    return tuple(dict.fromkeys([*FACTORIES, *_LAZY]))


def make_bot(kind: str, seed: int | None = 0, **options) -> Bot:
    """A new bot of ``kind`` (see ``bot_kinds()``), its choices reproducible from ``seed``."""
    if kind not in FACTORIES and kind in _LAZY:
        __import__(_LAZY[kind], fromlist=["_"])  # registers the kind
    try:
        factory = FACTORIES[kind]
    except KeyError:
        raise NefertitiError(f"{kind!r} is not a bot: one of {', '.join(bot_kinds())}") from None
    return factory(seed=seed, **options)
