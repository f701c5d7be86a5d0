"""How close each market is to closing, and what an option would do before it is chosen.

:func:`stall_status` reads one market: open or closed (with the Market Closed tile, or for good
after the Akhenaton card), the closing rule of its visible stall (R3.1-R3.8), the empty squares
that would close it if a given seat placed there now, for Louqsor the exact probability that the
roll after each placement (R3.7, R3.8) or a re-roll now (R4.2) closes it, and a structured "how
far" description (message keys and parameters, no sentences).

:func:`preview` applies one option to a copy of the game (never to the game itself) and reports
what it would change for the decider: Deben, cards, seals, prestige, whether a market closes and
who decides next. Dice are never rolled for a preview: the closing probability is computed from the
occupancy, and each branch is followed on its own copy with a fixed roll (R4.4). When the next
player's only legal option is then a placement on Louqsor, the engine would take it at once and roll
again: the preview stops before that roll and gives its probability from the roll's chance node
(:class:`FollowUpRoll`, :func:`.chance.chance_node`), never one outcome of it.

:func:`describe_status` and :func:`describe_preview` put both into words, in every language of the
message catalogs (``messages/<lang>/status.json`` and ``previews.json``). Standard library only.
Rule IDs refer to the rules reference,
:mod:`nefertiti_core.teaching.rules_reference` (``nefertiti rules``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING

from ..engine import options as O
from ..engine import rules as R
from ..engine.chance import ROLL, chance_node, closing_probability, roll_at, roll_outcomes
from ..engine.deck import unseen
from ..engine.state import OPEN as _MARKET_OPEN
from .explain import describe_option
from .words import (  # noqa: F401 (the message types are status's public names too)
    Cards,
    Chances,
    Market,
    Message,
    Numbers,
    Probability,
    Seats,
    Side,
    Squares,
    StallName,
    Text,
    Words,
    format_probability,
    render,
)

if TYPE_CHECKING:
    from ..engine.state import GameState

# What a market is doing (StallStatus.condition).
OPEN = "open"
CLOSED = "closed"  # closed, waiting to reopen (normally: it holds the Market Closed tile)
DEAD = "permanently_closed"  # the Akhenaton card was drawn while refilling it (R6.8)
RESOLVING = "resolving"  # it has just closed; its bids are being settled (R6)

DIE_FACES = R.DIE_FACES

# Akhet-Aton right (R3.4): names of the lines, in the order of rules.STALLS' groups.
_LINE_KEYS = (
    "status.line.top_row",
    "status.line.middle_row",
    "status.line.bottom_row",
    "status.line.left_column",
    "status.line.middle_column",
    "status.line.right_column",
    "status.line.diagonal_down",
    "status.line.diagonal_up",
)


# --- the status of one market ------------------------------------------------------------------


@dataclass(frozen=True)
class StallStatus:
    """Where one market stands (see :func:`stall_status`).

    ``would_close``: the empty squares where a servant of ``seat`` placed now certainly closes the
    stall (shape, sum and colour stalls: exact; Louqsor: only squares whose roll closes whatever
    the dice show). ``closing_chances``: every empty square of an open stall with the probability
    that placing there closes it: 0 or 1 for the deterministic stalls, the exact probability of the
    roll for Louqsor (R3.7, R3.8). ``louqsor_next_roll_probability``: for an open Louqsor stall,
    the probability that a roll now, with the servants as they stand (a re-roll, R4.2), closes it.
    ``placements_needed``: the fewest further servants that can close a shape, sum or colour stall
    (None for Louqsor, where the dice decide, and for closed markets).
    """

    market: int
    market_name: str
    side: int
    stall: str  # the visible stall, "gizeh.left"; for a closed market the one it reopens on
    condition: str  # OPEN, CLOSED, DEAD or RESOLVING
    has_tile: bool  # it holds the Market Closed tile (R6.6)
    akhenaton_drawn: bool
    rule: str  # the closing-condition kind of rules.py ("connected4", ...)
    rule_id: str  # "R3.1" ... "R3.8"
    seat: int  # the seat would_close was computed for
    occupied: tuple[int, ...]
    empty: tuple[int, ...]
    owners: tuple[int, ...]  # per square: seat or -1
    would_close: tuple[int, ...]
    closing_chances: tuple[tuple[int, Fraction], ...]
    louqsor_next_roll_probability: Fraction | None
    dice: int  # dice rolled after a placement: 2 (R3.7), 1 (R3.8), 0 (no dice)
    dice_holder: int  # Louqsor's dice holder (R4.1), or -1
    placements_needed: int | None
    progress: tuple[Message, ...]  # the "how far" sentences, as keys + parameters

    @property
    def is_open(self) -> bool:
        return self.condition == OPEN

    @property
    def stall_id(self) -> int:
        return self.market * 2 + self.side

    def chance(self, square: int) -> Fraction:
        """The probability that placing on ``square`` now closes the stall (0 if not empty)."""
        return dict(self.closing_chances).get(square, Fraction(0))


def _market_index(market) -> int:
    if isinstance(market, int) and 0 <= market < len(R.MARKETS):
        return market
    if market in R.MARKETS:
        return R.MARKETS.index(market)
    raise ValueError(f"unknown market {market!r}: one of {', '.join(R.MARKETS)} or 0..3")


def _bits(mask: int, size: int) -> tuple[int, ...]:
    return tuple(i for i in range(size) if mask >> i & 1)


def louqsor_probability(stall_id: int, mask: int, forced: tuple[int, ...] = ()) -> Fraction:
    """Exact probability that the Louqsor roll closes the stall with occupancy ``mask``.

    Left stall (R3.7): two dice, each must show an occupied value. Right stall (R3.8): one die, at
    most the longest run of consecutive occupied values. ``forced``: dice already fixed with
    ``force_roll`` (R4.4), used first; the others are enumerated. The roll's chance node
    (:func:`.chance.roll_outcomes`) is what is counted, as the odds and the OpenSpiel game do.
    """
    return closing_probability(stall_id, mask, tuple(forced))


def louqsor_outcomes(stall_id: int, mask: int, forced: tuple[int, ...] = ()):
    """Every equally likely roll (the free dice) with whether it closes the stall (R3.7, R3.8):
    the outcomes of the roll's chance node (:func:`.chance.roll_outcomes`)."""
    return [(o.value, o.closes) for o in roll_outcomes(stall_id, mask, tuple(forced))]


def stall_status(state: GameState, market, seat: int | None = None) -> StallStatus:
    """The status of ``market`` (name or index); ``would_close`` for ``seat`` (default: the player
    whose turn it is, who is the one placing servants)."""
    m = _market_index(market)
    if seat is None:
        seat = state.turn_player
    side = state.side[m]
    stall_id = m * 2 + side
    stall = R.STALLS[stall_id]
    size = len(stall.squares)
    owners = list(state.owners[m])
    mask = state.mask[m]
    occupied = _bits(mask, size)
    empty = tuple(i for i in range(size) if not mask >> i & 1)
    has_tile = state.tile == m
    akhenaton = state.akhenaton_drawn
    dice = R.dice_rolled(stall_id)

    if state.dead_market == m:
        condition = DEAD
    elif state.res_market == m:
        condition = RESOLVING
    elif state.status[m] == _MARKET_OPEN:
        condition = OPEN
    else:
        condition = CLOSED

    base = dict(
        market=m,
        market_name=R.MARKETS[m],
        side=side,
        stall=stall.name,
        condition=condition,
        has_tile=has_tile,
        akhenaton_drawn=akhenaton,
        rule=stall.rule,
        rule_id=stall.rule_id,
        seat=seat,
        occupied=occupied,
        empty=empty,
        owners=tuple(owners),
        dice=dice,
        dice_holder=state.holder if m == R.LOUQSOR else -1,
    )
    if condition != OPEN:
        return StallStatus(
            **base,
            would_close=(),
            closing_chances=(),
            louqsor_next_roll_probability=None,
            placements_needed=None,
            progress=(_closed_message(m, side, condition, has_tile, akhenaton),),
        )

    chances: list[tuple[int, Fraction]] = []
    next_roll = None
    needed = None
    if dice:
        next_roll = louqsor_probability(stall_id, mask)
        for i in empty:
            chances.append((i, louqsor_probability(stall_id, mask | 1 << i)))
    else:
        chances = [
            (i, Fraction(int(R.placement_closes(stall_id, mask, owners, i, seat)))) for i in empty
        ]
        needed = R.servants_needed(stall_id, mask, owners)
    would_close = tuple(i for i, p in chances if p == 1)
    progress = _progress(state, stall, mask, owners, seat, would_close, needed, next_roll)
    return StallStatus(
        **base,
        would_close=would_close,
        closing_chances=tuple(chances),
        louqsor_next_roll_probability=next_roll,
        placements_needed=needed,
        progress=progress,
    )


def all_statuses(state: GameState, seat: int | None = None) -> tuple[StallStatus, ...]:
    """:func:`stall_status` of the four markets, Gizeh first."""
    return tuple(stall_status(state, m, seat) for m in range(len(R.MARKETS)))


def _closed_message(m: int, side: int, condition: str, has_tile: bool, akhenaton: bool) -> Message:
    if condition == DEAD:
        return Message.of("status.dead", market=Market(m))
    if condition == RESOLVING:
        return Message.of("status.resolving", market=Market(m))
    if has_tile:
        key = "status.closed_tile_final" if akhenaton else "status.closed_tile"
        return Message.of(key, market=Market(m), side=Side(side))
    key = "status.closed_final" if akhenaton else "status.closed"
    return Message.of(key, market=Market(m))


def _progress(state, stall, mask, owners, seat, would_close, needed, next_roll):
    """The "how far" sentences of an open stall (keys + parameters)."""
    sid = stall.id
    rule = stall.rule
    out: list[Message] = []
    if R.CLOSED_BY[sid] == R.BY_SQUARES and R.stall_closes(sid, mask):
        out.append(Message.of("status.progress.already"))  # only in staged positions (R3.10)
    elif rule == R.CONNECTED4:  # R3.1
        if not mask:
            out.append(Message.of("status.progress.connected.empty"))
        else:
            sizes = R.connected_component_sizes(stall, mask)
            out.append(Message.of("status.progress.connected", size=max(sizes)))
    elif R.CLOSED_BY[sid] == R.BY_COLOURS:  # R3.2
        on = R.seats_on(owners)
        present = tuple(sorted(set(on)))
        if not on:
            out.append(Message.of("status.progress.colours.empty"))
        else:
            out.append(Message.of("status.progress.colours", count=len(on), colours=Seats(present)))
            missing = tuple(p for p in range(state.n) if p not in present)
            if len(on) == 3:
                out.append(Message.of("status.hint.colours.any"))
            elif len(present) == 2:
                out.append(
                    Message.of(
                        "status.hint.colours.new_colour",
                        new=Seats(missing, "or"),
                        present=Seats(present, "or"),
                    )
                )
            else:
                out.append(Message.of("status.hint.colours.far"))
    elif rule == R.ALL_LEVELS:  # R3.3
        lacking = [
            n for n, level in enumerate(stall.groups, 1) if not any(mask >> i & 1 for i in level)
        ]
        if len(lacking) == 1:
            level = stall.groups[lacking[0] - 1]
            out.append(
                Message.of(
                    "status.progress.levels.one",
                    level=lacking[0],
                    squares=Squares(sid, tuple(level), "or"),
                )
            )
        else:
            out.append(Message.of("status.progress.levels", levels=Numbers(tuple(lacking))))
    elif rule == R.LINE3:  # R3.4
        threats = []
        for n, line in enumerate(stall.groups):
            taken = [i for i in line if mask >> i & 1]
            if len(taken) == 2:
                (gap,) = (i for i in line if not mask >> i & 1)
                threats.append((n, gap))
        if not threats:
            out.append(Message.of("status.progress.line.none"))
        for n, gap in threats:
            out.append(
                Message.of(
                    "status.progress.line.threat",
                    line=Text(_LINE_KEYS[n]),
                    square=Squares(sid, (gap,)),
                )
            )
    elif rule in (R.SUM_11_14_17, R.SUM_17):  # R3.5, R3.6
        out.extend(_sum_messages(stall, mask))
    elif rule == R.TWO_DICE:  # R3.7
        values = tuple(sq.value for sq in stall.squares if mask >> sq.index & 1)
        if not values:
            out.append(Message.of("status.progress.two_dice.empty"))
        else:
            out.append(
                Message.of(
                    "status.progress.two_dice",
                    values=Numbers(values),
                    probability=Probability(next_roll, R.roll_count(2)),
                )
            )
    elif rule == R.ONE_DIE_RUN:  # R3.8
        run = R.RUN_TABLE[sid][mask]
        if not run:
            out.append(Message.of("status.progress.one_die.empty"))
        else:
            out.append(
                Message.of(
                    "status.progress.one_die",
                    run=run,
                    values=Numbers(R.longest_run_values(R.occupied_values(stall, mask))),
                    probability=Probability(next_roll, R.roll_count(1)),
                )
            )

    if rule in R.DICE_RULES:
        dice = R.DICE_OF_RULE[rule]
        free = tuple(i for i in range(len(stall.squares)) if not mask >> i & 1)
        chances = tuple((i, louqsor_probability(sid, mask | 1 << i)) for i in free)
        out.append(
            Message.of("status.louqsor.chances", chances=Chances(sid, chances, R.roll_count(dice)))
        )
        if state.holder >= 0:
            out.append(Message.of("status.louqsor.holder", player=Seats((state.holder,))))
        return tuple(out)

    # Shape, sum and colour stalls: who closes it now, or how many servants are still needed.
    player = Seats((seat,))
    free = [i for i in range(len(stall.squares)) if not mask >> i & 1]
    if would_close and len(would_close) == len(free):
        out.append(Message.of("status.would_close.all", player=player))
    elif would_close:
        out.append(
            Message.of(
                "status.would_close.some", player=player, squares=Squares(sid, would_close, "or")
            )
        )
    else:
        out.append(Message.of("status.would_close.none", player=player))
        if needed is not None and needed > 1:
            out.append(Message.of("status.needed", count=needed))
    return tuple(out)


def _sum_messages(stall: R.Stall, mask: int) -> list[Message]:
    """R3.5 / R3.6: the sum of the bids, what a single bid would make of it, how far it is."""
    total = sum(R.occupied_values(stall, mask))
    free_values = sorted({sq.value for sq in stall.squares if not mask >> sq.index & 1})
    out = []
    if stall.rule == R.SUM_11_14_17:
        out.append(Message.of("status.progress.sum_left", total=total))
        for target in R.SUM_EXACT[stall.rule]:
            if target - total in free_values:
                out.append(Message.of("status.sum.exact", value=target - total, target=target))
    else:
        missing = R.SUM_AT_LEAST - total
        out.append(Message.of("status.progress.sum_right", total=total, missing=missing))
    reach = [v for v in free_values if total + v >= R.SUM_AT_LEAST]
    if len(reach) > 1:
        out.append(Message.of("status.sum.reach_more", value=reach[0]))
    elif reach:
        out.append(Message.of("status.sum.reach_one", value=reach[0], total=total + reach[0]))
    if len(out) == 1 and stall.rule == R.SUM_11_14_17:
        target = next(t for t in R.sum_targets(stall.rule) if t > total)
        out.append(Message.of("status.sum.gap", target=target, gap=target - total))
    return out


# --- rendering: nefertiti_core.teaching.words ----------------------------------------------------------


def _sentences(lang: str, parts: list[str]) -> str:
    return Words(lang).sentences(parts)


def describe_status(status: StallStatus, colours, lang: str = "en") -> str:
    """The status of one market in words (``colours``: the game's colours, seat by seat)."""
    parts = []
    if status.is_open:
        parts.append(
            render(
                Message.of(
                    "status.open",
                    stall=StallName(status.stall_id),
                    rule=Text(f"status.rule.{status.rule}"),
                    rule_id=status.rule_id,
                ),
                colours,
                lang,
            )
        )
    parts.extend(render(msg, colours, lang) for msg in status.progress)
    return _sentences(lang, parts)


# --- previews -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Preview:
    """What one option would do, computed on a copy of the game (see :func:`preview`).

    Changes are "after minus before", up to the next decision that is a real choice (the engine
    takes forced single options at once, so a closing placement may already include the highest
    bidder's payment). ``closes``: True or False when certain, None when a Louqsor roll decides;
    ``closing_probability`` is given for every option that rolls the dice (R3.7, R3.8, R4.2).
    ``then_closes``: markets closed afterwards by forced moves (R5.4 with a single market to
    close), before the next real decision. ``then_rolls``: a forced placement on Louqsor that
    rolls again before that decision (:class:`FollowUpRoll`); the changes are those up to it.
    ``next_decider``: the seat deciding next, -1 once the
    game is over, None when it depends on the roll; then ``if_closes`` and ``if_not`` are the previews of the two outcomes (each computed with
    a fixed roll on its own copy, R4.4), and the changes above are those of the roll that does not
    close.
    """

    option: int
    text: str
    decider: int
    deben: int  # the decider's net change
    deben_changes: tuple[int, ...]  # per seat
    reserve_changes: tuple[int, ...]  # per market
    cards_gained: tuple[int, ...]  # card kinds the decider gains
    cards_lost: tuple[int, ...]  # card kinds the decider gives up
    seals: int  # the decider's net change in Royal Seals
    prestige: int  # prestige the decider scores
    prestige_changes: tuple[int, ...]  # per seat
    bonus_due: int  # placement bonus due (R5.3)
    bonus_paid: int  # ... and paid, as far as the reserve had money
    closes: bool | None
    closing_market: int  # the market that closes (or may close on the roll), or -1
    closing_probability: Fraction | None
    dice: int  # dice rolled by this option: 0, 1 or 2
    then_closes: tuple[int, ...]  # markets closed afterwards by forced moves of the next players
    next_decider: int | None
    game_over: bool
    if_closes: Preview | None = None
    if_not: Preview | None = None
    then_rolls: FollowUpRoll | None = None


@dataclass(frozen=True)
class FollowUpRoll:
    """A roll that follows an option before the next real decision: the next player's only legal
    option is a placement on Louqsor, which the engine takes at once (a forced single option) and
    which rolls the dice again (R3.7, R3.8). A preview stops before it (its dice are the game's
    future, R4.4) and gives the roll's chance node's probability that it closes Louqsor.
    """

    seat: int  # who must place and roll
    stall_id: int
    square: int  # the square's index on the stall
    dice: int  # 2 (R3.7) or 1 (R3.8)
    probability: Fraction  # chance.chance_node(...).closing_probability


def _preview_copy(state: GameState, roll: tuple[int, ...]) -> GameState:
    copy = state.copy()
    copy.log = []  # the copy's own event log; the game's log is untouched
    copy.deck = unseen(state.deck)  # a refill on the copy must not reveal the real order
    if roll:
        copy.force_roll(*roll)
    return copy


def _apply_up_to_roll(
    state: GameState, option: int, roll: tuple[int, ...]
) -> tuple[GameState, FollowUpRoll | None]:
    """Apply ``option`` on a copy and take the forced single options after it one by one, as the
    engine does, but stop before one that would roll dice nobody fixed (R4.4): a preview must
    not roll the game's dice. Returns the copy and that roll (None when there is none)."""
    copy = _preview_copy(state, roll)
    copy.auto_forced = False  # the forced options are taken here, one at a time
    copy.apply(option)
    follow = None
    while not copy.is_over:
        legal = copy.legal_options()
        if len(legal) != 1:
            break
        only = legal[0]
        if roll_at(copy, only) is not None:
            node = chance_node(copy, only)
            if node is not None and node.kind == ROLL:
                follow = FollowUpRoll(
                    seat=copy.decider,
                    stall_id=node.stall_id,
                    square=O.SQUARE_INDEX[only],
                    dice=node.dice,
                    probability=node.closing_probability,
                )
                break
        copy.apply_unchecked(only)
    copy.auto_forced = state.auto_forced
    return copy, follow


def _apply_on_copy(state: GameState, option: int, roll: tuple[int, ...] = ()) -> Preview:
    """Apply ``option`` on a copy (with ``roll`` forced) and read off the changes."""
    copy = _preview_copy(state, roll)
    rng_before = copy.rng.getstate()
    p = state.decider
    copy.apply(option)
    follow = None
    if copy.rng.getstate() != rng_before:
        # A forced placement after the option rolled again: redo it, stopping before that roll.
        copy, follow = _apply_up_to_roll(state, option, roll)
        if follow is None or copy.rng.getstate() != rng_before:  # pragma: no cover
            raise RuntimeError(f"preview of {state.option_text(option)!r} rolled a die")
    n = state.n
    gifts = [copy.gifts[p][k] - state.gifts[p][k] for k in range(R.NUM_KINDS)]
    gained = tuple(k for k in range(R.NUM_KINDS) for _ in range(max(0, gifts[k])))
    lost = tuple(k for k in range(R.NUM_KINDS) for _ in range(max(0, -gifts[k])))
    # The option's own closing happens before the next turn starts; a closing after that is a
    # forced follow-up (say, the next player has no servant left and one market to close, R5.4).
    own: list[int] = []
    later: list[int] = []
    next_turn = False
    for name, data in copy.log:
        next_turn = next_turn or name == "turn"
        if name == "market_closes":
            (later if next_turn else own).append(data["market"])
    places = [data for name, data in copy.log if name == "place" and data["seat"] == p]
    deben_changes = tuple(copy.deben[s] - state.deben[s] for s in range(n))
    prestige_changes = tuple(copy.prestige[s] - state.prestige[s] for s in range(n))
    return Preview(
        option=option,
        text=state.option_text(option),
        decider=p,
        deben=deben_changes[p],
        deben_changes=deben_changes,
        reserve_changes=tuple(copy.reserve[m] - state.reserve[m] for m in range(len(R.MARKETS))),
        cards_gained=gained,
        cards_lost=lost,
        seals=copy.seals[p] - state.seals[p],
        prestige=prestige_changes[p],
        prestige_changes=prestige_changes,
        bonus_due=sum(d["bonus_due"] for d in places[:1]),
        bonus_paid=sum(d["bonus_paid"] for d in places[:1]),
        closes=bool(own),
        closing_market=own[0] if own else -1,
        then_closes=tuple(later),
        closing_probability=None,
        dice=0,
        next_decider=None if follow else copy.decider if not copy.is_over else -1,
        game_over=copy.is_over,
        then_rolls=follow,
    )


def preview(state: GameState, option: int | str) -> Preview:
    """What ``option`` (an id or its notation) would do if the decider chose it now.

    Never changes ``state``: the option is applied to copies. An illegal option raises the engine's
    IllegalOptionError, as :meth:`GameState.apply` does. Louqsor's dice are not rolled: the closing
    probability is computed from the occupancy (and any roll already fixed with ``force_roll``);
    each outcome is then followed on its own copy with a fixed roll.
    """
    if isinstance(option, str):
        option = state.parse(option)
    rolling = roll_at(state, option) if state.is_legal(option) else None
    if rolling is None:
        return _apply_on_copy(state, option)
    stall_id, mask = rolling
    dice = R.dice_rolled(stall_id)
    forced = tuple(state.forced_rolls)
    outcomes = louqsor_outcomes(stall_id, mask, forced)
    probability = Fraction(sum(c for _, c in outcomes), len(outcomes))
    closing_roll = next((free for free, c in outcomes if c), None)
    open_roll = next((free for free, c in outcomes if not c), None)
    market = R.LOUQSOR if probability else -1
    extra = dict(closing_probability=probability, dice=dice, closing_market=market)
    if open_roll is None or closing_roll is None:  # certain: every roll closes, or none does
        roll = closing_roll if closing_roll is not None else open_roll
        result = _apply_on_copy(state, option, roll)
        return replace(result, **extra)
    if_closes = replace(_apply_on_copy(state, option, closing_roll), **extra)
    if_not = replace(_apply_on_copy(state, option, open_roll), **extra)
    if if_closes.closes is not True or if_not.closes is not False:  # pragma: no cover
        raise RuntimeError("the Louqsor outcomes of a preview do not match the engine's roll")
    return replace(
        if_not,
        closes=None,
        next_decider=None,
        game_over=False,
        if_closes=if_closes,
        if_not=if_not,
        then_rolls=None,
    )


def _preview_sentences(p: Preview, colours, lang: str, branch: bool = False) -> list[str]:
    """The sentences of one preview; a roll that may or may not close gives one per outcome."""
    if p.closes is None and p.if_closes is not None and p.if_not is not None:
        chance = Message.of(
            "preview.chance",
            market=Market(p.closing_market),
            probability=Probability(p.closing_probability, R.roll_count(p.dice)),
        )
        texts = [render(chance, colours, lang)]
        for key, outcome in (("preview.if_closes", p.if_closes), ("preview.if_not", p.if_not)):
            details = _sentences(lang, _preview_sentences(outcome, colours, lang, True))
            texts.append(render(Message.of(key, details=details), colours, lang))
        return texts
    out: list[Message] = []
    who = Seats((p.decider,))
    if p.deben > 0:
        out.append(Message.of("preview.deben.gain", player=who, amount=p.deben))
    elif p.deben < 0:
        out.append(Message.of("preview.deben.pay", player=who, amount=-p.deben))
    elif not branch:
        out.append(Message.of("preview.deben.none", player=who))
    if p.bonus_due > p.bonus_paid:
        out.append(Message.of("preview.bonus.short", due=p.bonus_due, paid=p.bonus_paid))
    for seat, change in enumerate(p.deben_changes):
        if seat != p.decider and change:
            key = "preview.deben.other_gain" if change > 0 else "preview.deben.other_pay"
            out.append(Message.of(key, player=Seats((seat,)), amount=abs(change)))
    if p.cards_gained:
        out.append(Message.of("preview.cards.gain", player=who, cards=Cards(p.cards_gained)))
    if p.cards_lost:
        out.append(Message.of("preview.cards.lose", player=who, cards=Cards(p.cards_lost)))
    if p.seals:
        amount = abs(p.seals)
        verb = "gain" if p.seals > 0 else "spend"
        number = "one" if amount == 1 else "other"
        out.append(Message.of(f"preview.seals.{verb}.{number}", player=who, count=amount))
    for seat, points in enumerate(p.prestige_changes):
        if points:
            number = "one" if points == 1 else "other"
            out.append(
                Message.of(f"preview.prestige.{number}", player=Seats((seat,)), points=points)
            )
    if p.closes:
        if p.closing_probability is not None and not branch:
            out.append(Message.of("preview.roll.always", market=Market(p.closing_market)))
        out.append(Message.of("preview.closes", market=Market(p.closing_market)))
    elif not branch:
        if p.closing_probability is not None:
            out.append(Message.of("preview.roll.never", market=Market(R.LOUQSOR)))
        out.append(Message.of("preview.no_close"))
    for m in p.then_closes:
        out.append(Message.of("preview.then_closes", market=Market(m)))
    if p.game_over:
        out.append(Message.of("preview.game_over"))
    elif p.then_rolls is not None:
        out.append(_then_rolls_message(p.then_rolls))
    elif p.next_decider is not None:
        out.append(Message.of("preview.next", player=Seats((p.next_decider,))))
    return [render(m, colours, lang) for m in out]


def _then_rolls_message(follow: FollowUpRoll) -> Message:
    """The forced placement that rolls again (R3.7, R3.8), with its chance node's probability."""
    probability = follow.probability
    params = dict(
        player=Seats((follow.seat,)),
        stall=StallName(follow.stall_id),
        square=Squares(follow.stall_id, (follow.square,)),
        market=Market(R.LOUQSOR),
    )
    if probability == 1:
        return Message.of("preview.then_rolls.always", **params)
    if probability == 0:
        return Message.of("preview.then_rolls.never", **params)
    return Message.of(
        "preview.then_rolls",
        probability=Probability(probability, R.roll_count(follow.dice)),
        **params,
    )


def describe_preview(p: Preview, state: GameState, lang: str = "en") -> str:
    """A preview in words: ``state`` is the position the preview was made in (its players'
    colours; the option named in words, "take the upper card", as a learner reads it)."""
    colours = state.colours
    if O.OPTION_KIND[p.option] == O.PLACE:  # a sentence names the square by its bid, not p.text
        stall_id = O.SQUARE_STALL[p.option]
        message = Message.of(
            "preview.intro.place",
            player=Seats((p.decider,)),
            stall=StallName(stall_id),
            square=Squares(stall_id, (O.SQUARE_INDEX[p.option],)),
        )
    else:
        named = describe_option(state, p.option, lang, short=True)
        message = Message.of("preview.intro", player=Seats((p.decider,)), option=named)
    intro = render(message, colours, lang)
    return _sentences(lang, [intro] + _preview_sentences(p, colours, lang))
