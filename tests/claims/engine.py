"""Small questions to the engine for the claims: what a move does in a position file."""

from __future__ import annotations

from nefertiti_core.engine.scoring import totals
from nefertiti_core.files.exercises import scenario_path
from nefertiti_core.files.history import History
from nefertiti_core.files.scenario import load
from nefertiti_core.teaching.status import stall_status


def position(name: str, *steps: str, play_moves: bool = False):
    """The state of position file ``name`` after ``steps`` (the file's own moves only when asked)."""
    loaded = load(scenario_path(name))
    if play_moves:
        loaded.play_moves()
    history = History(loaded.state)
    for step in steps:  # options, and the teacher's steps: "roll 3 2", "draw harp"
        history.play(step)
    return history.state


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
    """Whether ``market`` is open after ``steps`` (a market whose bids are being settled has
    closed, though its servants still stand: the engine's status says so)."""
    return stall_status(position(name, *steps), market).is_open
