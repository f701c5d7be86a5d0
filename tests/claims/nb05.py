"""Claims of tutorials/05-contents-and-setup.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
from claims.engine import position, seat
from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.scoring import totals

SEEDS = range(6)


def _seal_worth() -> int:
    state = position("first-game")
    green = seat(state, "green")
    without = totals(state)[green]
    state.seals[green] = 1
    return totals(state)[green] - without


def _purses(players: int) -> set[tuple[int, ...]]:
    """The starting purses, from the first player round the table, in games the engine sets up."""
    out = set()
    for seed in SEEDS:
        game = new_game(players, seed=seed)
        out.add(tuple(game.deben[(game.turn_player + k) % players] for k in range(players)))
    return out


def _plus_two_scribes(players: int) -> int:
    return new_game(players, seed=1).piles[R.SCRIBE].count(R.C_SCRIBE2)


def _purses_are(three, four) -> bool:
    return _purses(3) == {three} and _purses(4) == {four}


CLAIMS = [
    Claim("3 points", lambda: _seal_worth() == 3),
    Claim("Scribe +2 fewer", lambda: _plus_two_scribes(4) - _plus_two_scribes(3) == 1),
    Claim(
        "the purses are\n  9, 10, 10 instead of 8, 9, 9, 10",
        lambda: _purses_are((9, 10, 10), (8, 9, 9, 10)),
    ),
    Claim(
        "starting purses\n  8, 9, 9, 10, or 9, 10, 10 with three players",
        lambda: _purses_are((9, 10, 10), (8, 9, 9, 10)),
    ),
]
