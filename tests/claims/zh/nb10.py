"""Claims of tutorials/zh/10-closing-louqsor.ipynb: the English notebook's checks
(``claims.nb10``), each quoted with the Chinese phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

import json
from pathlib import Path

from claims import Claim, nb10, translated
from claims._stalls import holds
from claims.engine import position
from claims.nb10 import (
    LEFT,
    REROLL,
    RIGHT,
    _reroll_two_three,
)
from nefertiti_core.engine.chance import dice_of


def _reroll_here() -> bool:
    """The Chinese notebook's demonstration plays the same steps as the English one, which
    ``_reroll_two_three`` checks."""
    path = Path(__file__).parents[3] / "tutorials" / "zh" / "10-closing-louqsor.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    steps = '"place akhet_aton.left#0", "roll 2 3", "reroll"'
    assert any(steps in "".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return _reroll_two_three()


def _single_card() -> bool:
    """The highest bid on a single-card square buys one card, upper or lower (R6.2): every
    option Blue has there takes one card."""
    state = position("single-card", "place louqsor.left#1")
    options = [state.option_text(o) for o in state.legal_options()]
    assert state.colours[state.decider] == "blue" and options, options
    return all(o.startswith("take ") and "+" not in o for o in options)


CLAIMS = translated(
    nb10,
    {
        "the 5 and the 6 count as neighbours": "5 和 6 虽然不在同一行，也算相邻",
        "Red holds the 2, Blue the 7, and Green is to play": "红方占着 2，蓝方占着 7，轮到绿方",
        "No die ever shows a 7": (
            "骰子永远掷不出 7",
            "但骰子掷不出 7",
        ),
        "click the 3": (
            "绿方放在 3 上",
            "点击 3",
        ),
        "how many of the 36 are they": "在 36 种结果中有多少种",
        "Green holds the 3, Red the 4, Blue the 8; Black is to play": "绿方占着 3，红方占着 4，蓝方占着 8；轮到黑方",
        "the die is fixed to show 4": "骰子固定掷出 4",
        "Black places on the 5": "黑方放在 5 上",
        "With k of the numbers 1 to 6 taken, k×k rolls of 36 close it; the 7 may be taken": "1 到 6 中有 k 个数值被占时，36 种结果中有 k×k 种让它关闭；7 可以被占",
    },
    extra=[
        Claim("两个骰子", lambda: dice_of(LEFT.id) == 2),
        Claim("一个骰子", lambda: dice_of(RIGHT.id) == 1),
        Claim(
            "在 Louqsor 的 3 上放了仆人，掷出 5 和 3",
            lambda: (
                holds(REROLL, "louqsor", "green", "the 3")
                and position(REROLL).last_roll == (5, 3)
                and position(REROLL).holder == position(REROLL).colours.index("green")
            ),
        ),
        Claim("课程把骰子固定为 2 和 3", _reroll_here),
        Claim("在那里出价最高者只能买下一张牌", _single_card),
    ],
)
