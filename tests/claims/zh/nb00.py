"""The numbers of tutorials/zh/00-welcome.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
from claims._firstgame import is_square
from claims.nb00 import _gold_alone
from nefertiti_core.engine import rules as R

CLAIMS = [
    Claim("你的仆人在4个市场上竞拍礼物牌", lambda: len(R.MARKETS) == 4),
    Claim(
        "Akhet-Aton 的10号方块是 X 方块",
        lambda: is_square("first-game", "akhet_aton", 9, 10, "X"),
    ),
    Claim("只有一名玩家拥有的黄金工艺品值14分", _gold_alone),
]
