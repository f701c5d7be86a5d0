"""Claims of tutorials/zh/10-closing-louqsor.ipynb, checked against the engine (R3.7, R3.8, R4);
the checks are the English notebook's (tests/claims/nb10.py)."""

from __future__ import annotations

import json
from pathlib import Path

from claims import Claim
from claims._stalls import holds, place, stall, to_play
from claims.engine import position
from claims.nb10 import (
    DICE,
    LEFT,
    REROLL,
    RIGHT,
    RUN,
    _five_six_neighbours,
    _k_squared,
    _reroll_two_three,
    _thirty_six,
)
from nefertiti_core.engine.chance import dice_of
from nefertiti_core.teaching.status import DIE_FACES


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


CLAIMS = [
    Claim("两颗骰子", lambda: dice_of(LEFT.id) == 2),
    Claim("一颗骰子", lambda: dice_of(RIGHT.id) == 1),
    Claim("5 和 6 虽然不在同一行，也算相邻", _five_six_neighbours),
    Claim(
        "红方占着 2，蓝方占着 7，轮到绿方",
        lambda: (
            holds(DICE, "louqsor", "red", "the 2")
            and holds(DICE, "louqsor", "blue", "the 7")
            and to_play(DICE, "green")
        ),
    ),
    Claim("骰子永远掷不出 7", lambda: DIE_FACES < 7),
    Claim("绿方放在 3 上", lambda: bool(place(DICE, "louqsor", "the 3"))),
    Claim("在 36 种结果中有多少种", _thirty_six),
    Claim("点击 3", lambda: bool(place(DICE, "louqsor", "the 3"))),
    Claim(
        "绿方占着 3，红方占着 4，蓝方占着 8；轮到黑方",
        lambda: (
            holds(RUN, "louqsor", "green", "the 3")
            and holds(RUN, "louqsor", "red", "the 4")
            and holds(RUN, "louqsor", "blue", "the 8")
            and to_play(RUN, "black")
            and stall(RUN, "louqsor") == RIGHT
        ),
    ),
    Claim(
        "骰子固定掷出 4",
        lambda: position(RUN, place(RUN, "louqsor", "the 5")).last_roll == (4,),
    ),
    Claim("黑方放在 5 上", lambda: bool(place(RUN, "louqsor", "the 5"))),
    Claim(
        "在 Louqsor 的 3 上放了仆人，掷出 5 和 3",
        lambda: (
            holds(REROLL, "louqsor", "green", "the 3")
            and position(REROLL).last_roll == (5, 3)
            and position(REROLL).holder == position(REROLL).colours.index("green")
        ),
    ),
    Claim("课程把骰子固定为 2 和 3", _reroll_here),
    Claim("1 到 6 中有 k 个数值被占时，36 种结果中有 k×k 种让它关闭；7 可以被占", _k_squared),
    Claim("但骰子掷不出 7", lambda: DIE_FACES < 7),
    Claim("在那里出价最高者只能买下一张牌", _single_card),
]
