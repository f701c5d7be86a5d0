"""Small questions to the engine for the claims: what a move does in a position file."""

from __future__ import annotations

from nefertiti_core import rules as R
from nefertiti_core.exercises import scenario_path
from nefertiti_core.scenario import load
from nefertiti_core.scoring import totals


def position(name: str, *steps: str, play_moves: bool = False):
    """The state of position file ``name`` after ``steps`` (the file's own moves only when asked)."""
    loaded = load(scenario_path(name))
    if play_moves:
        loaded.play_moves()
    state = loaded.state
    for step in steps:
        state.apply(state.parse(step))
    return state


def seat(state, colour: str) -> int:
    return state.colours.index(colour)


def deben(name: str, colour: str, *steps: str) -> int:
    """``colour``'s Deben after ``steps`` from position ``name``."""
    state = position(name, *steps)
    return state.deben[seat(state, colour)]


def score(name: str, colour: str, *steps: str) -> int:
    """``colour``'s score (as if the game ended now) after ``steps``."""
    state = position(name, *steps)
    return totals(state)[seat(state, colour)]


def is_open(name: str, market: str, *steps: str) -> bool:
    state = position(name, *steps)
    return R.MARKETS.index(market) in state.open_markets()
