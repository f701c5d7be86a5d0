"""Hints: the options of the pending decision, ranked, each with its reasons in the rules' terms.

    >>> from nefertiti_core.play.hints import hints
    >>> for h in hints(game, lang="de"):
    ...     print(h.rank, h.text, round(h.value, 1), h.reasons)

A hint's ``value`` is an estimate in **prestige points ahead of the opponents** (the decider's
estimated final score minus an even mix of the best opponent's and the opponents' average, R9.1):
higher is better, and only differences between the options of one decision mean anything. It
starts from the greedy bot's look-ahead score (``bots.Evaluator``: gifts at their value for the
current holders, R8; Deben and seals, R9.1; the bids on the board weighted by how close their
market is to closing, R3, R6) and, for the best few options, is mixed half and half with short
playouts: the option, then greedy players until the decider's next turn, the dice and the deck
drawn at random from what the players know (the deck order is hidden, R12).

Everything is reproducible from ``seed``; ``time_budget`` (seconds) caps the work: playouts that
would pass it are not started (then the ranking rests on fewer playouts, and may differ from a run
on a faster machine). The reasons are sentences from ``messages/<lang>/hints.json``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from fractions import Fraction

from ..engine import options as O
from ..engine import rules as R
from ..engine.errors import ArgumentError, check_magnitudes, require_state
from ..engine.i18n import DEFAULT_LANGUAGE
from ..engine.limits import echo
from ..engine.state import P_OVER, P_TAKE, GameState
from ..teaching.explain import describe_option
from ..teaching.status import format_probability, louqsor_probability
from ..teaching.words import Words
from .bots import Evaluator, GreedyBot, best_take, fast_copy, public_copy

_DICE = R.DICE_RULES
_VALUES = tuple(tuple(sq.value for sq in st.squares) for st in R.STALLS)


@dataclass(frozen=True)
class Hint:
    """One option of the pending decision, judged (see the module docstring).

    ``value``: estimated prestige points ahead of the opponents (higher is better); ``heuristic``:
    the greedy look-ahead's part of it; ``playouts``: how many short playouts were mixed in.
    """

    option: int
    text: str
    value: float
    rank: int
    reasons: tuple[str, ...]
    heuristic: float = 0.0
    playouts: int = 0
    notation: str = ""


# ---------------------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------------------
def _playout(state: GameState, option: int, me: int, rng: random.Random, deadline: float):
    """One short playout: the option (a random roll if it rolls), then greedy players until
    ``me``'s next turn begins (or the game ends); the position's score for ``me``, or None if the
    deadline came first."""
    copy = public_copy(state, rng)  # its dice come from ``rng``, not from the game's source
    copy.apply_unchecked(option)
    bots = [GreedyBot(seed=rng.getrandbits(32), depth=1) for _ in range(state.n)]
    start_turn = state.turn_no
    steps = 0
    while copy.phase != P_OVER and steps < 40:
        if copy.turn_player == me and copy.turn_no > start_turn and copy.decider == me:
            break
        if time.perf_counter() > deadline:
            return None
        copy.apply_unchecked(bots[copy.decider].choose(copy))
        steps += 1
    return Evaluator(copy)(copy, me)


def option_values(
    state: GameState, time_budget: float = 1.0, seed: int = 0, rounds: int = 4, top: int = 3
) -> dict[int, tuple[float, float, int]]:
    """Per legal option: (value, heuristic, playouts) (see the module docstring)."""
    start = time.perf_counter()
    deadline = start + time_budget
    legal = state.legal_options()
    bot = GreedyBot(seed=seed)
    heuristic = bot.option_values(state, legal)
    if len(legal) == 1:
        return {legal[0]: (heuristic[legal[0]], heuristic[legal[0]], 0)}
    me = state.decider
    ranked = sorted(legal, key=lambda o: (-heuristic[o], o))[:top]
    results: dict[int, list[float]] = {o: [] for o in ranked}
    rng = random.Random(f"hints-{seed}")
    done = False
    last = 0.0  # how long the last round took
    for _ in range(rounds):
        seeds = {o: rng.getrandbits(64) for o in ranked}
        began = time.perf_counter()
        if began + last > deadline:
            break
        batch = {}
        for o in ranked:
            value = _playout(state, o, me, random.Random(seeds[o]), deadline)
            if value is None:
                done = True
                break
            batch[o] = value
        if done:
            break
        for o, value in batch.items():  # only whole rounds count: every option as often
            results[o].append(value)
        last = time.perf_counter() - began
    count = len(results[ranked[0]])
    out = {o: (heuristic[o], heuristic[o], 0) for o in legal}
    if count:
        means = {o: sum(v) / count for o, v in results.items()}
        bias = sum(means[o] - heuristic[o] for o in ranked) / len(ranked)
        for o in legal:
            h = heuristic[o]
            value = (h + means[o]) / 2 if o in means else h + bias / 2
            out[o] = (value, h, count if o in means else 0)
    return out


# ---------------------------------------------------------------------------------------------
# Reasons
# ---------------------------------------------------------------------------------------------
def _highest(owners, stall_id: int) -> tuple[int, int]:
    """(seat, bid) of the highest bidder among ``owners`` (R6.1, R3.9); (-1, 0) if none."""
    for i in R.RESOLUTION_ORDER[stall_id]:
        if owners[i] >= 0:
            return owners[i], _VALUES[stall_id][i]
    return -1, 0


def _closes_now(state: GameState, m: int, owners, mask: int) -> Fraction:
    """Probability that the stall closes with this occupancy (Louqsor: the roll that follows)."""
    stall = m * 2 + state.side[m]
    closes = R.stall_closes(stall, mask, owners)
    if closes is None:  # Louqsor: the roll decides (R3.7, R3.8)
        return louqsor_probability(stall, mask, tuple(state.forced_rolls))
    return Fraction(int(closes))


def _one_from_closing(state: GameState, m: int, owners, mask: int, seat: int) -> bool:
    """Whether one more servant of ``seat`` could close the stall (R3.1-R3.6; never one of
    Louqsor's, where the dice decide)."""
    stall = m * 2 + state.side[m]
    empty = [i for i in range(len(owners)) if owners[i] < 0]
    return any(R.placement_closes(stall, mask, owners, i, seat) for i in empty)


class _Reasons:
    def __init__(self, state: GameState, lang: str):
        self.state = state
        self.w = Words(lang, state.colours)
        self.lang = lang
        self.me = state.decider
        self.ev = Evaluator(state)
        self.counts = Evaluator.counts(state)
        self.holders = [sum(1 for c in self.counts if c[t]) for t in range(len(R.GIFT_TYPES))]

    def s(self, key: str, **params) -> str:
        return self.w.s("hint." + key, **params)

    # -- cards -----------------------------------------------------------------------------
    def card(self, kind: int, seat: int | None = None) -> str:
        """What one more card of ``kind`` is worth to ``seat`` now, and to whom it matters (R8)."""
        state, w = self.state, self.w
        seat = self.me if seat is None else seat
        t = R.KIND_TYPE[kind]
        h = self.holders[t]
        mine = self.counts[seat][t]
        worth = round(Evaluator.card_worth(state, self.holders, self.counts, seat, kind))
        if mine:
            return self.s(
                "card.held",
                card=w.card(kind),
                points=worth,
                n=mine,
                gift=w.gift(t, mine),
                holders=w.holders(h),
            )
        if not h:
            return self.s("card.first", card=w.card(kind), points=worth, gift=w.gift(t))
        old, new = state.values[t][h - 1], state.values[t][min(h, 3)]
        if old > new:
            return self.s(
                "card.new_lowers",
                card=w.card(kind),
                points=worth,
                gift=w.gift(t),
                old=old,
                new=new,
                holders=w.holders(h + 1),
            )
        return self.s("card.new", card=w.card(kind), points=worth, holders=w.holders(h + 1))

    def cards_at(self, m: int, slots) -> list[str]:
        out = [self.card(self.state.cards[m][s]) for s in slots if self.state.cards[m][s] >= 0]
        if R.UPPER in slots and self.state.seal_on_upper[m] and self.state.cards[m][0] >= 0:
            out.append(self.s("seal"))
        return out

    # -- markets ---------------------------------------------------------------------------
    def closing(self, m: int, owners, rule_id: str, deben: int) -> list[str]:
        """Reasons for an option that closes market ``m`` with these bids."""
        state, w, me = self.state, self.w, self.me
        stall = m * 2 + state.side[m]
        top, bid = _highest(owners, stall)
        market = w.market(m)
        out = []
        if top == me:
            if deben >= bid:
                out.append(self.s("close.win", market=market, bid=bid, deben=deben, rule=rule_id))
                worth = [
                    -1.0
                    if c < 0
                    else Evaluator.card_worth(state, self.holders, self.counts, me, c)
                    + (self.ev.seal if s == 0 and state.seal_on_upper[m] else 0.0)
                    for s, c in enumerate(state.cards[m])
                ]
                first = next(i for i in R.RESOLUTION_ORDER[stall] if owners[i] >= 0)
                slots = best_take(worth, R.STALLS[stall].squares[first].symbol)
                if slots:
                    names = w.join(w.card(state.cards[m][s]) for s in slots)
                    out.append(self.s("close.then_take", cards=names))
                    out += [r for r in dict.fromkeys(self.cards_at(m, slots)) if r not in out]
            else:
                out.append(self.s("close.shame", market=market, bid=bid, deben=deben, rule=rule_id))
        elif top >= 0:
            out.append(
                self.s("close.other", market=market, player=w.player(top), bid=bid, rule=rule_id)
            )
            mine = [_VALUES[stall][i] for i in range(len(owners)) if owners[i] == me]
            if mine:
                out.append(self.s("close.then_bid", bid=max(mine)))
        return out

    def place(self, option: int) -> list[str]:
        state, w, me = self.state, self.w, self.me
        stall_id = O.SQUARE_STALL[option]
        stall = R.STALLS[stall_id]
        m = stall.market
        i = O.SQUARE_INDEX[option]
        bid = stall.squares[i].value
        owners = list(state.owners[m])
        owners[i] = me
        mask = state.mask[m] | 1 << i
        market = w.market(m)
        out = []
        due = (state.mask[m] == 0) + (stall.squares[i].symbol == R.DEBEN)
        paid = min(due, state.reserve[m])
        if paid:
            out.append(self.s("bonus", amount=paid, market=market))
        deben = state.deben[me] + paid
        chance = _closes_now(state, m, owners, mask)
        top, top_bid = _highest(owners, stall_id)
        if chance == 1:
            return out + self.closing(m, owners, stall.rule_id, deben)
        if chance > 0:
            dice = R.DICE_OF_RULE[stall.rule]
            probability = format_probability(chance, R.roll_count(dice), self.lang)
            out.append(self.s("roll", market=market, probability=probability, rule=stall.rule_id))
            if top >= 0:
                out += self.closing(m, owners, stall.rule_id, deben)[:1]
        elif stall.rule in _DICE:
            out.append(self.s("roll.never", market=market, rule=stall.rule_id))
        if chance < 1:
            if top == me:
                out.append(self.s("top_bid", market=market, bid=bid))
                if deben < bid:
                    out.append(self.s("cannot_afford", bid=bid, deben=deben))
            elif top >= 0:
                out.append(
                    self.s("under_bid", market=market, player=w.player(top), top=top_bid, bid=bid)
                )
            nxt = (state.turn_player + 1) % state.n
            if state.placements_left > 1:
                nxt = me  # the High Priest's second placement comes first (R10.4)
            if _one_from_closing(state, m, owners, mask, nxt):
                key = "threat.you" if top == me else "threat.other"
                out.append(
                    self.s(
                        key,
                        market=market,
                        next=w.player(nxt),
                        player=w.player(top),
                        rule=stall.rule_id,
                    )
                )
        return out

    # -- other decisions -------------------------------------------------------------------
    def reasons(self, option: int, follow: int | None) -> list[str]:
        state, w, me = self.state, self.w, self.me
        kind, arg = O.OPTION_KIND[option], O.OPTION_ARG[option]
        if kind == O.PLACE:
            return self.place(option)
        if kind == O.CLOSE:
            owners = state.owners[arg]
            return [self.s("close.no_servant", market=w.market(arg))] + self.closing(
                arg, owners, "R5.4", state.deben[me]
            )
        if kind == O.TAKE:
            m = state.res_market
            return self.cards_at(m, O.take_slots(option))
        if kind == O.BUY:
            m = state.res_market
            return [
                self.s("buy", bid=state.current_bid(), market=w.market(m)),
                *self.cards_at(m, (arg,)),
            ]
        if kind == O.HALF:
            m = state.res_market
            amount = R.half_reserve(state.reserve[m])
            return [self.s("half", amount=amount, reserve=state.reserve[m])]
        if kind == O.PASS:
            return [self.s("pass")]
        if kind == O.DISCARD:
            worth = round(Evaluator.card_worth(state, self.holders, self.counts, me, arg))
            return [self.s("discard", card=w.card(arg), points=worth)]
        if kind == O.RECRUIT:
            card = state.piles[arg][0]
            out = [self.s("seal_spent", character=w.character(R.CHARACTER_CARDS[card]))]
            if arg == R.VIZIER:
                types = sum(1 for c in self.counts[me] if c)
                out.append(self.s("vizier", points=R.VIZIER_POINTS_PER_TYPE * types, types=types))
            elif arg == R.HIGH_PRIEST:
                out.append(self.s("high_priest"))
            elif follow is not None:
                after = fast_copy(state, random.Random(0))
                after.apply_unchecked(option)
                if after.decider == me and follow in after.legal_options():
                    out.append(self.s("then", option=describe_option(after, follow, self.lang)))
            return out
        if kind == O.SCRIBE:
            bonus = R.SCRIBE_BONUS.get(state.character, 0)
            count = state.type_count(me, arg)
            value = state.gift_value(arg)
            return [
                self.s(
                    "scribe",
                    points=(value + bonus) * count,
                    count=w.count(arg, count),
                    value=value,
                    bonus=bonus,
                )
            ]
        if kind == O.ROYAL:
            value = state.gift_value(arg)
            mine = others = 0
            for q in range(state.n):
                g = state.gifts[q]
                if not state.type_count(q, arg):
                    continue
                weight = 1 if arg != R.SENET or g[R.K_SENET] else 2
                if q == me:
                    mine = value * weight
                else:
                    others += value * weight
            return [self.s("royal", gift=w.gift(arg), mine=mine, others=others)]
        if kind == O.TREASURER_MARKET:
            return [self.s("treasurer.market", market=w.market(arg), reserve=state.reserve[arg])]
        if kind == O.TREASURER_AMOUNT:
            return [self.s("treasurer.amount", amount=arg)]
        if kind == O.EXCHANGE_TAKE:
            seat, card = arg
            return [self.s("exchange.take", player=w.player(seat)), self.card(card)]
        if kind == O.EXCHANGE_GIVE:
            seat, taken = state.exchange_take
            pay = max(0, state.max_values[taken] - state.max_values[arg])
            worth = round(Evaluator.card_worth(state, self.holders, self.counts, me, arg))
            out = [self.s("exchange.give", card=w.card(arg), points=worth)]
            if pay:
                out.append(self.s("exchange.pay", pay=pay, player=w.player(seat)))
            return out
        if kind == O.EXCHANGE_DONE:
            return [self.s("exchange.done")]
        if kind == O.CHIEF_TAKE:
            return [
                self.s("chief", market=w.market(state.tile)),
                *self.cards_at(state.tile, (arg,)),
            ]
        if kind in (O.REROLL, O.KEEP):
            stall_id = R.LOUQSOR * 2 + state.side[R.LOUQSOR]
            owners = state.owners[R.LOUQSOR]
            market = w.market(R.LOUQSOR)
            if kind == O.KEEP:
                return [self.s("keep", market=market)]
            chance = louqsor_probability(stall_id, state.mask[R.LOUQSOR], tuple(state.forced_rolls))
            dice = R.dice_rolled(stall_id)
            out = [
                self.s(
                    "reroll",
                    market=market,
                    probability=format_probability(chance, R.roll_count(dice), self.lang),
                    rule=R.STALLS[stall_id].rule_id,
                )
            ]
            if chance:
                out += self.closing(R.LOUQSOR, owners, R.STALLS[stall_id].rule_id, state.deben[me])[
                    :1
                ]
            return out
        return []


def _best_follow_up(state: GameState, option: int, seed: int) -> int | None:
    """The greedy bot's choice after a recruit, when the recruiter decides again (R5.1, R10)."""
    after = public_copy(state, random.Random(seed))
    after.apply_unchecked(option)
    if after.phase == P_OVER or after.decider != state.decider or after.phase == P_TAKE:
        return None
    if O.OPTION_KIND[after.legal_options()[0]] in (O.PLACE, O.CLOSE):
        return None  # Vizier, High Priest: the placement is the next turn step, not the character
    return GreedyBot(seed=seed, depth=1).choose(after)


# ---------------------------------------------------------------------------------------------
# The entry point
# ---------------------------------------------------------------------------------------------
def hints(
    state: GameState, lang: str = DEFAULT_LANGUAGE, time_budget: float = 1.0, seed: int = 0
) -> list[Hint]:
    """The pending decision's legal options as hints, best first (see the module docstring).

    ``state`` is left unchanged; an empty list once the game is over.
    """
    check_magnitudes(require_state(state))
    if isinstance(time_budget, bool) or not isinstance(time_budget, (int, float)):
        raise ArgumentError(f"time_budget is a number of seconds, not {echo(time_budget)}")
    if not 0.001 <= time_budget <= 86_400:
        raise ArgumentError(f"time_budget is from 0.001 to 86400 seconds, not {time_budget!r}")
    start = time.perf_counter()
    legal = state.legal_options()
    if not legal:
        return []
    # The playouts get 70% of the budget; the texts (and a recruit's follow-up) the rest.
    values = option_values(state, 0.7 * time_budget - (time.perf_counter() - start), seed)
    order = sorted(legal, key=lambda o: (-values[o][0], -values[o][1], o))
    words = _Reasons(state, lang)
    out = []
    for rank, option in enumerate(order, 1):
        follow = None
        if O.OPTION_KIND[option] == O.RECRUIT and time.perf_counter() - start < time_budget * 0.85:
            follow = _best_follow_up(state, option, seed)
        value, heuristic, playouts = values[option]
        out.append(
            Hint(
                option=option,
                text=describe_option(state, option, lang),
                value=value,
                rank=rank,
                reasons=tuple(words.reasons(option, follow)),
                heuristic=heuristic,
                playouts=playouts,
                notation=state.option_text(option),
            )
        )
    return out
