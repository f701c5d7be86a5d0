"""The numbers of tutorials/00-welcome.ipynb, checked against the engine."""

from __future__ import annotations

from . import Claim
from ._firstgame import deben_gain, empty_stall, is_square, reserve


def _one_for_first() -> bool:
    assert reserve("a-turn", "akhet_aton") >= 2 and empty_stall("a-turn", "akhet_aton")
    is_square("a-turn", "akhet_aton", 0, 0)  # the 0 at the top: no Deben mark
    gain = deben_gain("a-turn", "red", "place akhet_aton.left#0")
    assert gain == 1, gain
    return True


def _one_for_the_deben_square() -> bool:
    is_square("a-turn", "akhet_aton", 4, 4, "D")
    first_only = deben_gain("a-turn", "red", "place akhet_aton.left#0")
    both = deben_gain("a-turn", "red", "place akhet_aton.left#4")
    assert both - first_only == 1, (both, first_only)
    return True


CLAIMS = [
    Claim("A servant earns 1 Deben for being the first on an empty stall", _one_for_first),
    Claim("and 1 Deben for standing on a Deben square", _one_for_the_deben_square),
    Claim(
        "and Gizeh's reserve holds 1\nDeben",
        lambda: reserve("first-game", "gizeh") == 1,
    ),
    Claim(
        "Gizeh's 4 with the Deben mark, which is both",
        lambda: is_square("first-game", "gizeh", 3, 4, "D") and empty_stall("first-game", "gizeh"),
    ),
]
