"""Staging a position by hand: for tests, tutorials and scenario files.

These functions set pieces directly, without playing the rules (no bonuses, no closing checks),
and keep the state's own bookkeeping consistent (occupancy, servants in hand, the deck). Gifts
and market cards come from the deck and go back to it, so the R12 card count still holds;
Deben, seals and prestige are set as asked, which may break a conservation rule on purpose
(:func:`nefertiti_core.violations` then says which). Finish with :func:`start_turn` (or
:func:`GameState.refresh`) so that the pending decision and its options are recomputed.
"""

from __future__ import annotations

from ..engine import rules as R
from ..engine.errors import SetupError
from ..engine.state import CLOSED, OPEN, P_TURN, GameState, with_item


def _market(name_or_index) -> int:
    if isinstance(name_or_index, int):
        return name_or_index
    if name_or_index not in R.MARKETS:
        raise SetupError(f"unknown market {name_or_index!r}: one of {', '.join(R.MARKETS)}")
    return R.MARKETS.index(name_or_index)


def _kind(name_or_index) -> int:
    if isinstance(name_or_index, int):
        return name_or_index
    if name_or_index not in R.CARD_KINDS:
        raise SetupError(f"unknown card {name_or_index!r}: one of {', '.join(R.CARD_KINDS)}")
    return R.CARD_KINDS.index(name_or_index)


def _from_deck(state: GameState, kind: int) -> None:
    try:
        # from the top end, so that the Akhenaton card's place near the bottom is kept
        index = len(state.deck) - 1 - state.deck[::-1].index(kind)
    except ValueError:
        raise SetupError(f"no {R.CARD_KINDS[kind]} card is left in the deck") from None
    del state.deck[index]


def _to_deck(state: GameState, kind: int) -> None:
    state.deck.append(kind)  # on top; shuffle with :func:`shuffle_deck` if order matters


def clear_stall(state: GameState, market) -> None:
    """Send every servant on a market's visible stall home."""
    m = _market(market)
    for i, owner in enumerate(state.owners[m]):
        if owner >= 0:
            state.hand[owner] += 1
            state.owners[m][i] = -1
    state.mask[m] = 0


def set_stall(state: GameState, market, side: str, status: str = "open") -> None:
    """Show a market's ``side`` stall (empty), open or closed. Moves no tile: see :func:`set_tile`."""
    m = _market(market)
    if side not in R.SIDES:
        raise SetupError(f"side must be left or right, not {side!r}")
    clear_stall(state, m)
    state.side = with_item(state.side, m, R.SIDES.index(side))
    state.owners[m] = [-1] * len(R.STALLS[m * 2 + state.side[m]].squares)
    state.status = with_item(state.status, m, OPEN if status == "open" else CLOSED)


def set_tile(state: GameState, market) -> None:
    """Put the Market Closed tile on a market (closing it) (R6.6)."""
    m = _market(market)
    clear_stall(state, m)
    state.status = with_item(state.status, m, CLOSED)
    state.tile = m


def put_servant(state: GameState, seat: int, market, index: int) -> None:
    """A servant of ``seat`` on square ``index`` (0-based, R3) of the market's visible stall."""
    m = _market(market)
    stall = R.STALLS[m * 2 + state.side[m]]
    if not 0 <= index < len(stall.squares):
        raise SetupError(f"{stall.name} has squares 0..{len(stall.squares) - 1}, not {index}")
    if state.owners[m][index] >= 0:
        raise SetupError(f"{stall.name}#{index} already holds a servant")
    if state.hand[seat] <= 0:
        raise SetupError(f"{state.colours[seat]} has no servant left to put on the board")
    state.owners[m][index] = seat
    state.mask[m] |= 1 << index
    state.hand[seat] -= 1


def set_cards(state: GameState, market, upper=None, lower=(), seal: bool = True) -> None:
    """Lay ``upper`` (a card or None) and up to three ``lower`` cards on a market, from the deck.

    The cards that lay there go back on top of the deck; a seal comes from or goes to the supply.
    """
    m = _market(market)
    for slot, kind in enumerate(state.cards[m]):
        if kind >= 0:
            _to_deck(state, kind)
            state.cards[m][slot] = -1
    if state.seal_on_upper[m]:
        state.seal_on_upper[m] = False
        state.seal_supply += 1
    lower = list(lower)
    if len(lower) > 3:
        raise SetupError("a market has three lower cards at most")
    for slot, kind in enumerate([upper] + lower + [None] * (3 - len(lower))):
        if kind is not None:
            k = _kind(kind)
            _from_deck(state, k)
            state.cards[m][slot] = k
    if seal and state.cards[m][0] >= 0:
        if state.seal_supply <= 0:
            raise SetupError("no seal is left in the supply")
        state.seal_on_upper[m] = True
        state.seal_supply -= 1


def give_gifts(state: GameState, seat: int, *kinds) -> None:
    """Gifts into a player's collection, taken from the deck."""
    for kind in kinds:
        k = _kind(kind)
        _from_deck(state, k)
        state.gifts[seat][k] += 1


def set_seals(state: GameState, seat: int, seals: int) -> None:
    """A player's seals, from or to the supply."""
    change = seals - state.seals[seat]
    if change > state.seal_supply:
        raise SetupError(f"only {state.seal_supply} seals are left in the supply")
    state.seal_supply -= change
    state.seals[seat] = seals


def set_deben(state: GameState, seat: int, deben: int) -> None:
    """A player's Deben, exactly (may break R12's total on purpose)."""
    state.deben[seat] = deben


def set_reserve(state: GameState, market, deben: int) -> None:
    """A market reserve's Deben, exactly (may break R12's total on purpose)."""
    state.reserve[_market(market)] = deben


def remove_characters(state: GameState, *piles: str) -> None:
    """Set character piles aside (empty them), as if out of the game."""
    for name in piles:
        i = R.PILES.index(name)
        state.characters_set_aside += len(state.piles[i])
        state.piles = with_item(state.piles, i, [])


def set_holder(state: GameState, seat: int, rolled_on_turn: int | None = None) -> None:
    """Make ``seat`` Louqsor's dice holder, having rolled on an earlier turn (R4.1)."""
    state.holder = seat
    state.holder_turn = state.turn_no - 1 if rolled_on_turn is None else rolled_on_turn


def start_turn(state: GameState, seat: int) -> None:
    """Make it the start of ``seat``'s turn and recompute the pending decision."""
    state.turn_player = seat
    state.placements_left = 1
    state.recruited = False
    state.phase = P_TURN
    state.decider = seat
    state.refresh()
