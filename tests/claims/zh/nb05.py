"""Claims of tutorials/zh/05-contents-and-setup.ipynb: the English notebook's checks
(``claims.nb05``), each quoted with the Chinese phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

from claims import Claim, nb05, translated
from claims.nb05 import SEEDS
from nefertiti_core import new_game
from nefertiti_core.engine import rules as R


def _a_seal_on_each_upper_card() -> bool:
    """A fresh game: one seal on the upper card of each of the 3 open markets, the other 9 beside
    the board (R2.4)."""
    return all(
        [new_game(n, seed=s).seal_on_upper[m] for m in range(4)] == [True, True, True, False]
        and new_game(n, seed=s).seal_supply == R.SEALS - 3
        for n in (3, 4)
        for s in SEEDS
    )


CLAIMS = translated(
    nb05,
    {
        "a four-player and a three-player game": (
            "4 人游戏",
            "3 人游戏",
            "4 人局和 3 人局",
        ),
        "With three players instead of four": "3 人而不是 4 人",
        "seven gift types": "7 种礼物",
        "counts as two senets": "双 senet 算作两张 senet",
        "face up in seven piles": "分成 7 叠",
        "3 points": "值 3 分",
        "four per player (R1.2)": "每名玩家 4 个",
        "among the bottom five cards": "最下面 5 张",
        "one of the last five cards": "最后 5 张",
        "four cards are taken off": "先取出 4 张牌，和法老牌一起洗匀，然后把这 5 张放到最下面",
        "card among the bottom five, deals four cards to each open market": "发 4 张牌",
        "puts one Deben on every reserve": "储备上放 1 Deben",
        "All eight senet cards stay in the box": "8 张 senet 牌全部留在盒子里",
        "Scribe +2 fewer": "少一张书记员 +2",
        "the purses are\n  9, 10, 10 instead of 8, 9, 9, 10": "起始的钱是 9、10、10，而不是 8、9、9、10",
        "starting purses\n  8, 9, 9, 10, or 9, 10, 10 with three players": "起始的钱为 8、9、9、10，3 人游戏时为 9、10、10",
        "start with one or two Deben more": "多 1 到 2 Deben",
        "Each market has two stalls": "每个市场有两个大厅",
        "The three open markets": "3 个开放的市场",
    },
    extra=[
        Claim("上排的牌上放一个印章", _a_seal_on_each_upper_card),
    ],
)
