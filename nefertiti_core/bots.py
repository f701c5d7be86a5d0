"""Opponents: a bot chooses one legal option for whoever must decide.

    >>> from nefertiti_core.bots import make_bot
    >>> bot = make_bot("random", seed=1)
    >>> option = bot.choose(game)        # an id from game.legal_options()

Every bot kind is made by name through ``make_bot`` (the Sandbox's seat menu, the tournament and
the odds all use it). A bot never changes the state it is given; it may copy it to look ahead.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from . import options as O
from . import rules as R
from .deck import reshuffled
from .errors import NefertitiError
from .scoring import totals, winners
from .state import P_OVER, P_PLACE, P_SHAME, P_TAKE, P_TURN, GameState, fast_copy
from .status import louqsor_outcomes, louqsor_probability


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

_SHAPE = {R.CONNECTED4, R.ALL_LEVELS, R.LINE3, R.SUM_11_14_17, R.SUM_17}
_DICE = {R.TWO_DICE, R.ONE_DIE_RUN}


def _needed_table(stall_id: int) -> tuple[int, ...]:
    """Per occupancy mask: the fewest further servants that close a shape or sum stall (99: none)."""
    closes = R.CLOSES_TABLE[stall_id]
    size = len(R.STALLS[stall_id].squares)
    needed = [99] * (1 << size)
    for mask in range((1 << size) - 1, -1, -1):
        if closes[mask]:
            needed[mask] = 0
            continue
        best = 99
        for i in range(size):
            if not mask >> i & 1:
                best = min(best, needed[mask | 1 << i] + 1)
        needed[mask] = best
    return tuple(needed)


_NEEDED = tuple(_needed_table(st.id) if st.rule in _SHAPE else () for st in R.STALLS)
_VALUES = tuple(tuple(sq.value for sq in st.squares) for st in R.STALLS)
_SYMBOLS = tuple(tuple(sq.symbol for sq in st.squares) for st in R.STALLS)
_ORDER = R.RESOLUTION_ORDER
# How likely a market is to close with its present bids, by the servants still needed (R3).
_CLOSING_WEIGHT = (1.0, 0.7, 0.45, 0.3, 0.25)
_LOUQSOR_CHANCE: dict[tuple[int, int], float] = {}


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


def game_progress(state: GameState) -> float:
    """How much of the game is left, from 1 (start) to 0 (the Akhenaton card is out, R6.8)."""
    if state.akhenaton_drawn:
        return 0.0
    start = R.TOTAL_GIFTS[state.n] + 1 - 12  # the deck after the first three markets are filled
    return max(0.0, min(1.0, len(state.deck) / start))


class Evaluator:
    """Scores positions for one seat: an estimate of each player's final score (R9.1) plus what
    the bids already on the board promise (R6), as "mine minus the opponents'"."""

    def __init__(self, state: GameState, weights: Weights = Weights()):
        self.w = weights
        left = game_progress(state)
        self.deben = weights.deben_end + (weights.deben_early - weights.deben_end) * left
        characters = any(state.piles)
        self.seal = weights.seal + (weights.seal_character * left if characters else 0.0)
        self._cache: dict[tuple, tuple[float, list[float]]] = {}

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

    def market_gains(self, state: GameState, m: int, holders, counts) -> list[float]:
        """Per seat, what the bids in market ``m`` bring if it closed now (R6.2-R6.4), in points."""
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
        worth_of = self.card_worth
        if m == state.res_market:
            queue = state.res_queue[state.res_pos :]
            first = state.res_pos == 0
            paid = state.phase == P_TAKE  # the highest bidder has already paid (R6.2)
            if state.phase == P_SHAME:
                queue = queue[1:]
                first = False
        else:
            queue = [i for i in _ORDER[stall] if owners[i] >= 0]
            first = True
            paid = False
        for pos, i in enumerate(queue):
            q = owners[i]
            bid = values[i]
            worth = [-1.0 if c < 0 else worth_of(state, holders, counts, q, c) for c in cards]
            if seal and cards[0] >= 0:
                worth[0] += self.seal
            if first and pos == 0:
                if not paid:
                    if deben[q] < bid:  # R6.3: pay nothing, discard a gift
                        g = state.gifts[q]
                        lost = [
                            worth_of(state, holders, counts, q, k)
                            for k in range(R.NUM_KINDS)
                            if g[k]
                        ]
                        gains[q] -= min(lost) if lost else 0.0
                        continue
                    deben[q] -= bid
                    reserve += bid
                    gains[q] -= bid * dv
                for s in _best_take(worth, _SYMBOLS[stall][i]):
                    gains[q] += worth[s]
                    cards[s] = -1
                    if s == R.UPPER:
                        seal = False
                continue
            best = max(range(R.MARKET_CARDS), key=worth.__getitem__)
            buy = worth[best] - bid * dv if deben[q] >= bid and cards[best] >= 0 else -1e9
            half = (reserve + 1) // 2
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
        return gains

    def closing_weight(self, state: GameState, m: int) -> float:
        """How sure it is that market ``m`` closes with the bids it holds now."""
        if m == state.res_market:
            return 1.0
        stall = m * 2 + state.side[m]
        rule = R.STALLS[stall].rule
        mask = state.mask[m]
        if rule in _DICE:
            return min(1.0, 0.3 + _louqsor_chance(stall, mask))
        if rule == R.COLOURS3_OR_4:  # R3.2
            on = [o for o in state.owners[m] if o >= 0]
            needed = max(1, min(4 - len(on), 3 - len(set(on))))
        else:
            needed = _NEEDED[stall][mask]
        return _CLOSING_WEIGHT[min(needed, len(_CLOSING_WEIGHT) - 1)]

    def estimates(self, state: GameState) -> list[float]:
        """Each player's estimated final score: prestige, gifts at today's values (R8), Deben
        and seals at what they are worth now (R9.1), and the bids on the board (R6)."""
        counts = self.counts(state)
        holders = [sum(map(bool, column)) for column in zip(*counts, strict=True)]
        per_gift = [row[h - 1] if h else 0 for row, h in zip(state.values, holders, strict=True)]
        dv, sv = self.deben, self.seal
        mul = operator.mul
        est = [
            state.prestige[q]
            + state.deben[q] * dv
            + state.seals[q] * sv
            + sum(map(mul, counts[q], per_gift))
            for q in range(state.n)
        ]
        mask = state.mask
        cache = self._cache
        for m in range(len(R.MARKETS)):
            if m == state.res_market:
                gains = self.market_gains(state, m, holders, counts)
                weight = 1.0
            elif mask[m]:
                # The look-ahead changes one market at a time: the others come from the cache.
                key = (
                    m,
                    state.side[m],
                    tuple(state.owners[m]),
                    tuple(state.cards[m]),
                    state.seal_on_upper[m],
                    state.reserve[m],
                    tuple(state.deben),
                    tuple(counts),
                )
                hit = cache.get(key)
                if hit is None:
                    hit = cache[key] = (
                        self.closing_weight(state, m),
                        self.market_gains(state, m, holders, counts),
                    )
                weight, gains = hit
            else:
                continue
            for q, gain in enumerate(gains):
                est[q] += weight * gain
        return est

    def relative(self, est: list[float], seat: int) -> float:
        others = [e for q, e in enumerate(est) if q != seat]
        w = self.w
        return (
            est[seat] - w.opponent_max * max(others) - w.opponent_mean * sum(others) / len(others)
        )

    def __call__(self, state: GameState, seat: int) -> float:
        if state.phase == P_OVER:
            scores = totals(state)
            value = self.relative([float(s) for s in scores], seat)
            won = winners(state)
            return value + (self.w.win_bonus / len(won) if seat in won else 0.0)
        return self.relative(self.estimates(state), seat)


def _best_take(worth: list[float], symbol: str) -> tuple[int, ...]:
    """The highest bidder's best card set by the winning square's symbol (R6.2)."""
    lower = sorted((s for s in (1, 2, 3) if worth[s] > -1.0), key=lambda s: -worth[s])
    upper = worth[0] > -1.0
    if symbol == R.SINGLE:
        present = [s for s in range(R.MARKET_CARDS) if worth[s] > -1.0]
        return (max(present, key=worth.__getitem__),) if present else ()
    if symbol == R.EXTRA:
        sets = [tuple(lower)] if lower else []
        if upper:
            sets.append((0, *lower[:1]))
    else:
        sets = [tuple(lower[:2])] if lower else []
        if upper:
            sets.append((0,))
    if not sets:
        return ()
    return max(sets, key=lambda slots: sum(worth[s] for s in slots))


def public_copy(state: GameState, rng: random.Random) -> GameState:
    """A copy to look ahead on that knows only what the players know: the deck reshuffled (the
    Akhenaton card kept among the bottom five, R2.2) and dice from ``rng``, not the game's."""
    copy = fast_copy(state, random.Random(rng.getrandbits(64)))
    copy.deck = reshuffled(state.deck, rng)
    return copy


def chance_outcomes(state: GameState, option: int) -> list[tuple[float, tuple[int, ...]]]:
    """(probability, dice to force) for an option that rolls Louqsor's dice, one entry for a roll
    that closes and one for a roll that does not (R3.7, R3.8, R4.2); ``[(1.0, ())]`` otherwise."""
    kind = O.OPTION_KIND[option]
    if kind == O.PLACE:
        stall = O.SQUARE_STALL[option]
        if R.STALLS[stall].rule not in _DICE:
            return [(1.0, ())]
        mask = state.mask[R.LOUQSOR] | 1 << O.SQUARE_INDEX[option]
    elif kind == O.REROLL:
        stall = R.LOUQSOR * 2 + state.side[R.LOUQSOR]
        mask = state.mask[R.LOUQSOR]
    else:
        return [(1.0, ())]
    key = (stall, mask, tuple(state.forced_rolls))
    out = _CHANCES.get(key)
    if out is None:
        outcomes = louqsor_outcomes(stall, mask, key[2])
        closing = [free for free, closes in outcomes if closes]
        staying = [free for free, closes in outcomes if not closes]
        p = len(closing) / len(outcomes)
        out = []
        if closing:
            out.append((p, closing[0]))
        if staying:
            out.append((1.0 - p, staying[0]))
        if len(_CHANCES) < 10_000:
            _CHANCES[key] = out
    return out


_CHANCES: dict[tuple, list[tuple[float, tuple[int, ...]]]] = {}


class GreedyBot:
    """Rule-based: scores each legal option one step ahead (see ``Evaluator``): the gifts' value
    for their holders now (R8), Deben and seals (R9.1), prestige already scored, and the bids on
    the board weighted by how close their market is to closing (R3, R6). Ties are broken by the
    seeded random source, so a seed gives the same choices."""

    kind = "greedy"

    def __init__(self, seed: int | None = 0, depth: int = 2, weights: Weights | None = None):
        self.rng = random.Random(seed)
        self.depth = depth
        self.weights = weights or Weights()

    def option_values(self, state: GameState, legal=None) -> dict[int, float]:
        """Each legal option's score (``Evaluator`` units: points ahead of the opponents)."""
        legal = state.legal_options() if legal is None else legal
        base = public_copy(state, self.rng)
        evaluate = Evaluator(state, self.weights)
        me = state.decider
        search = _Search(evaluate, me, self.depth)
        places = [o for o in legal if O.OPTION_KIND[o] in (O.PLACE, O.CLOSE)]
        values = {o: search.option(base, o, self.depth) for o in places}
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


class _Search:
    """The look-ahead over the decider's own consecutive decisions (then ``Evaluator``)."""

    def __init__(self, evaluate: Evaluator, me: int, depth: int):
        self.evaluate = evaluate
        self.me = me
        self.place_gain = 0.0

    def option(self, state: GameState, option: int, depth: int) -> float:
        total = 0.0
        for p, roll in chance_outcomes(state, option):
            copy = fast_copy(state, state.rng)
            if roll:
                copy.force_roll(*roll)
            copy.apply_unchecked(option)
            total += p * self.value(copy, depth - 1)
        return total

    def value(self, state: GameState, depth: int) -> float:
        me = self.me
        if state.phase == P_PLACE and state.decider == me and state.turn_player == me:
            if self.place_gain:  # after a character: the placement(s) to come
                return self.evaluate(state, me) + state.placements_left * self.place_gain
        if depth <= 0 or state.phase == P_OVER or state.decider != me:
            return self.evaluate(state, me)
        legal = state.legal_options()
        return max(self.option(state, o, depth) for o in legal)


# kind -> factory(seed, **options). Kinds whose module needs an optional package are imported
# only when asked for, so that the engine stays standard library only.
_FACTORIES: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": GreedyBot}
_LAZY: dict[str, str] = {"mcts": "nefertiti_core.openspiel"}


def register(kind: str, factory: Callable[..., Bot]) -> None:
    _FACTORIES[kind] = factory


def bot_kinds() -> tuple[str, ...]:
    """Every bot kind ``make_bot`` knows, in order of strength."""
    return tuple(dict.fromkeys([*_FACTORIES, *_LAZY]))


def make_bot(kind: str, seed: int | None = 0, **options) -> Bot:
    """A new bot of ``kind`` (see ``bot_kinds()``), its choices reproducible from ``seed``."""
    if kind not in _FACTORIES and kind in _LAZY:
        __import__(_LAZY[kind], fromlist=["_"])  # registers the kind
    try:
        factory = _FACTORIES[kind]
    except KeyError:
        raise NefertitiError(f"{kind!r} is not a bot: one of {', '.join(bot_kinds())}") from None
    return factory(seed=seed, **options)
