"""The numbers of tutorials/zh/01-a-turn.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
from claims._firstgame import deben_gain, empty_stall, is_square, reserve
from claims.nb01 import _four_servants, _one_servant_a_turn


def _a_deben_each() -> bool:
    """First on an empty stall: 1 Deben; on its D square: 1 more (R5.3; the reserve holds 2)."""
    assert reserve("a-turn", "akhet_aton") >= 2 and empty_stall("a-turn", "akhet_aton")
    assert is_square("a-turn", "akhet_aton", 3, 3)  # no mark
    assert deben_gain("a-turn", "red", "place akhet_aton.left#3") == 1
    assert deben_gain("a-turn", "red", "place akhet_aton.left#4") == 2
    return True


CLAIMS = [
    Claim("**放置一个仆人**", _one_servant_a_turn),
    Claim(
        "就从该市场的储备拿1 Deben；放在 **D** 方块（银币方块）上再拿1 Deben",
        _a_deben_each,
    ),
    Claim(
        "Akhet-Aton 的储备有2 Deben，它的大厅是空的",
        lambda: reserve("a-turn", "akhet_aton") == 2 and empty_stall("a-turn", "akhet_aton"),
    ),
    Claim(
        "红方放在标着 D 的4上",
        lambda: (
            is_square("a-turn", "akhet_aton", 4, 4, "D")
            and deben_gain("a-turn", "red", "place akhet_aton.left#4") == 2
        ),
    ),
    Claim(
        "Gizeh 标着 D 的4，那里的储备只有1 Deben",
        lambda: (
            is_square("a-turn", "gizeh", 3, 4, "D")
            and reserve("a-turn", "gizeh") == 1
            and deben_gain("a-turn", "red", "place gizeh.left#3") == 1
        ),
    ),
    Claim("每名玩家有4个仆人", _four_servants),
]
