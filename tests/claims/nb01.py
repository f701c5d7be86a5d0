"""The numbers of tutorials/01-a-turn.ipynb, checked against the engine."""

from __future__ import annotations

from nefertiti_core.engine import rules as R

from . import Claim
from ._firstgame import deben_gain, empty_stall, is_square, market, reserve
from .engine import position


def _blue_stands_on_abou_simbel() -> bool:
    state = position("a-turn")
    owners = state.square_owners(market("abou_simbel"))
    assert state.colours.index("blue") in owners, owners
    return True


def _abou_simbel_deben_square_pays_nothing() -> bool:
    is_square("a-turn", "abou_simbel", 2, 2, "D")
    assert reserve("a-turn", "abou_simbel") == 0
    assert deben_gain("a-turn", "red", "place abou_simbel.left#2") == 0
    return _blue_stands_on_abou_simbel()


def _four_servants() -> bool:
    assert R.SERVANTS_PER_PLAYER == 4
    state = position("no-servant-left")
    black = state.colours.index("black")
    on_board = sum(owners.count(black) for owners in map(state.square_owners, range(4)))
    assert on_board == 4, on_board
    return True


CLAIMS = [
    Claim(
        "Akhet-Aton's reserve holds 2 Deben and nobody stands on its stall",
        lambda: reserve("a-turn", "akhet_aton") == 2 and empty_stall("a-turn", "akhet_aton"),
    ),
    Claim(
        "its 4 with the Deben mark?",
        lambda: (
            is_square("a-turn", "akhet_aton", 4, 4, "D")
            and deben_gain("a-turn", "red", "place akhet_aton.left#4") == 2
        ),
    ),
    Claim(
        "the 4 with the Deben mark\non Gizeh pay, where the reserve holds 1?",
        lambda: (
            is_square("a-turn", "gizeh", 3, 4, "D")
            and reserve("a-turn", "gizeh") == 1
            and deben_gain("a-turn", "red", "place gizeh.left#3") == 1
        ),
    ),
    Claim(
        "the 2 with the Deben\nmark on Abou Simbel, where Blue already stands and the reserve is empty",
        _abou_simbel_deben_square_pays_nothing,
    ),
    Claim("Each player has 4 servants", _four_servants),
]
