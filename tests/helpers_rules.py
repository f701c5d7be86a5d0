"""Helpers for the rule tests (test_setup, test_stalls, test_turn, test_market_closing).

Positions are staged with ``nefertiti_core.files.staging`` and then played through ``GameState.apply``
so that the engine itself decides bonuses, closings and resolution. Rule IDs refer to
``shared/rules/RULINGS.md``.
"""

from __future__ import annotations

from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.state import P_OVER, P_PLACE, P_REROLL, P_TURN
from nefertiti_core.files import staging as S

MARKET = {name: i for i, name in enumerate(R.MARKETS)}
SIDE = {name: i for i, name in enumerate(R.SIDES)}
KIND = {name: i for i, name in enumerate(R.CARD_KINDS)}


def game(players: int = 4, seed: int = 1, first_player: int = 0, **options):
    """A new game with events recorded and a fixed first player (seat 0 unless told)."""
    options.setdefault("record_events", True)
    return new_game(players=players, seed=seed, first_player=first_player, **options)


def mark(g) -> int:
    """The current length of the event log: pass it to :func:`events` as ``since``."""
    return len(g.log)


def events(g, name: str, since: int = 0) -> list[dict]:
    """The data of every ``name`` event logged from position ``since`` on."""
    return [data for event, data in g.log[since:] if event == name]


def names(g, since: int = 0) -> list[str]:
    return [event for event, _ in g.log[since:]]


def total_deben(g) -> int:
    return sum(g.deben) + sum(g.reserve)


def rebalance(g, seat: int) -> None:
    """After set_deben/set_reserve: restore the R12 Deben total through ``seat``'s purse."""
    g.deben[seat] += R.TOTAL_DEBEN[g.n] - total_deben(g)
    assert g.deben[seat] >= 0, "rebalancing would leave a negative purse"


def stage_stall(g, market: str, side: str, servants=(), status: str = "open") -> None:
    """Show ``market``'s ``side`` stall, empty, then put ``(seat, index)`` servants on it."""
    S.set_stall(g, market, side, status)
    for seat, index in servants:
        S.put_servant(g, seat, market, index)


def open_louqsor(g, side: str, upper="harp", lower=("chair", "mirror", "statuette")) -> None:
    """Louqsor open on ``side`` with four cards (seal on the upper); the tile moves to Gizeh.

    Three markets stay open (Akhet-Aton, Abou Simbel, Louqsor) and Gizeh holds the tile, so the
    R12 market invariant still holds.
    """
    S.set_tile(g, "gizeh")
    S.set_stall(g, "louqsor", side, "open")
    S.set_cards(g, "louqsor", upper=upper, lower=list(lower), seal=True)


def place_text(market: str, side: str, index: int) -> str:
    return f"place {market}.{side}#{index}"


def place(g, market: str, side: str, index: int) -> None:
    g.apply(place_text(market, side, index))


def closes(g, seat: int, market: str, side: str, index: int, roll=()) -> bool:
    """Start ``seat``'s turn, place on ``market.side#index`` (fixing ``roll`` first, for
    Louqsor) and say whether the engine announced that the market closes."""
    S.start_turn(g, seat)
    if roll:
        g.force_roll(*roll)
    since = mark(g)
    place(g, market, side, index)
    return any(d["market"] == MARKET[market] for d in events(g, "market_closes", since))


def resolving(g) -> bool:
    return g.res_market >= 0


def resolve(g, choose=None) -> None:
    """Play out a market resolution: ``choose(g)`` picks each option (default: the first)."""
    guard = 0
    while resolving(g):
        legal = g.legal_options()
        option = choose(g) if choose else legal[0]
        g.apply(option)
        guard += 1
        assert guard < 50, "a resolution that does not end"


def between_turns(g) -> bool:
    return g.phase in (P_TURN, P_PLACE) and not resolving(g)


__all__ = [
    "KIND",
    "MARKET",
    "P_OVER",
    "P_REROLL",
    "SIDE",
    "between_turns",
    "closes",
    "events",
    "game",
    "mark",
    "names",
    "open_louqsor",
    "place",
    "place_text",
    "rebalance",
    "resolve",
    "resolving",
    "stage_stall",
    "total_deben",
]
