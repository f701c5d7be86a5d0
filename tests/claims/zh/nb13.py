"""Claims of tutorials/zh/13-play-a-whole-game.ipynb: the English notebook's checks
(``claims.nb13``), each quoted with the Chinese phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

from claims import Claim, nb13, translated
from nefertiti_core.engine.i18n import catalog


def _load_label() -> bool:
    """The Sandbox's load button says what the prose quotes."""
    return catalog("zh")["panel.file.load"].startswith("载入一个场景或对局记录")


CLAIMS = translated(
    nb13,
    {
        "turn 25": "第 25 回合",
        "3 or 4 players": "3 或 4 名玩家",
        "in game 7 with a\nrandom layout": "第 7 局，随机布置",
        "Four computer players play a whole basic game": "电脑玩家坐满 4 个座位",
        "of three strengths": "机器人有三种强度",
        "the other three colours by greedy bots": "其他三种颜色交给贪心机器人",
        "against three random bots": "贪心机器人对三个随机机器人几乎每局都赢",
        "optional character, one servant": "可选的角色，一个仆人",
    },
    extra=[
        Claim("*载入一个场景或对局记录*", _load_label),
    ],
)
