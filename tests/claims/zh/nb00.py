"""Claims of tutorials/zh/00-welcome.ipynb: the English notebook's checks (``claims.nb00``), each
quoted with the Chinese phrase that states the same number."""

from __future__ import annotations

from claims import nb00, translated

CLAIMS = translated(
    nb00,
    {
        "gift cards in four markets": "你的仆人在4个市场上竞拍礼物牌",
        "Akhet-Aton's 10 is an X square": "Akhet-Aton 的10号方块是 X 方块",
        "A gold craft held by a single player is worth 14": "只有一名玩家拥有的黄金工艺品值14分",
    },
)
