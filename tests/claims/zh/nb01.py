"""Claims of tutorials/zh/01-a-turn.ipynb: the English notebook's checks (``claims.nb01``), each
quoted with the Chinese phrase that states the same number, and the checks of its own
(``extra``)."""

from __future__ import annotations

from claims import Claim, nb01, translated
from claims._firstgame import deben_gain, empty_stall, is_square, reserve


def _a_deben_each() -> bool:
    """First on an empty stall: 1 Deben; on its D square: 1 more (R5.3; the reserve holds 2)."""
    assert reserve("a-turn", "akhet_aton") >= 2 and empty_stall("a-turn", "akhet_aton")
    assert is_square("a-turn", "akhet_aton", 3, 3)  # no mark
    assert deben_gain("a-turn", "red", "place akhet_aton.left#3") == 1
    assert deben_gain("a-turn", "red", "place akhet_aton.left#4") == 2
    return True


CLAIMS = translated(
    nb01,
    {
        "**place one servant**": "**放置一个仆人**",
        "Akhet-Aton's reserve holds 2 Deben and its stall is empty": "Akhet-Aton 的储备有2 Deben，它的大厅是空的",
        "its 4 marked D?": "红方放在标着 D 的4上",
        "Gizeh's 4 marked D, where the reserve holds 1": "Gizeh 标着 D 的4，那里的储备只有1 Deben",
        "Each player has 4 servants": "每名玩家有4个仆人",
    },
    extra=[
        Claim(
            "就从该市场的储备拿1 Deben；放在 **D** 方块（银币方块）上再拿1 Deben",
            _a_deben_each,
        ),
    ],
)
