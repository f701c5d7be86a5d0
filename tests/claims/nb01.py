"""The numbers of tutorials/01-a-turn.ipynb, checked against the engine."""

from __future__ import annotations

from nefertiti_core.engine import rules as R

from . import Claim
from ._firstgame import deben_gain, decider, empty_stall, is_square, reserve
from .engine import position


def _one_servant_a_turn() -> bool:
    """One placement ends Red's turn: Blue, on Red's left, decides next (R5.2, R5.5)."""
    assert decider("a-turn") == "red"
    assert decider("a-turn", "place gizeh.left#0") == "blue"
    return True


def _four_servants() -> bool:
    assert R.SERVANTS_PER_PLAYER == 4
    state = position("no-servant-left")
    black = state.colours.index("black")
    on_board = sum(owners.count(black) for owners in map(state.square_owners, range(4)))
    assert on_board == 4, on_board
    return True


CLAIMS = [
    Claim("**place one servant**", _one_servant_a_turn),
    Claim(
        "Akhet-Aton's reserve holds 2 Deben and its stall is empty",
        lambda: reserve("a-turn", "akhet_aton") == 2 and empty_stall("a-turn", "akhet_aton"),
    ),
    Claim(
        "its 4 marked D?",
        lambda: (
            is_square("a-turn", "akhet_aton", 4, 4, "D")
            and deben_gain("a-turn", "red", "place akhet_aton.left#4") == 2
        ),
    ),
    Claim(
        "Gizeh's 4 marked D, where the reserve holds 1",
        lambda: (
            is_square("a-turn", "gizeh", 3, 4, "D")
            and reserve("a-turn", "gizeh") == 1
            and deben_gain("a-turn", "red", "place gizeh.left#3") == 1
        ),
    ),
    Claim("Each player has 4 servants", _four_servants),
]
