"""Claims of tutorials/zh/13-play-a-whole-game.ipynb: the English notebook's checks
(``claims.nb13``), each quoted with the Chinese phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

from claims import Claim, nb13, translated
from nefertiti_core.engine.i18n import catalog
from nefertiti_core.play.bots import bot_kinds


def _notebook_plays(fragment: str) -> bool:
    """The prose names the game its Sandbox cell sets up."""
    path = Path(__file__).parents[3] / "tutorials" / "zh" / "13-play-a-whole-game.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return any(fragment in "".join(c["source"]) for c in cells if c["cell_type"] == "code")


def _four_bots_watched() -> bool:
    """The whole game the notebook shows is played by 4 bots (its cell leaves the default)."""
    from widgets.lesson.demos import GameReplay

    assert _notebook_plays("watch_game(seed=3)")
    return inspect.signature(GameReplay).parameters["players"].default == 4


def _three_strengths() -> bool:
    """The bots come in three strengths, random, greedy and mcts ("greedy-exact" is the greedy
    bot searching a closing step by step, kept for measuring the greedy bot)."""
    return {kind.split("-")[0] for kind in bot_kinds()} == {"random", "greedy", "mcts"}


def _load_label() -> bool:
    """The Sandbox's load button says what the prose quotes."""
    return catalog("zh")["panel.file.load"].startswith("载入一个场景或对局记录")


def _example_tournament() -> bool:
    """The measurement quoted is the example's: the greedy bot against 3 random bots."""
    path = Path(__file__).parents[3] / "tutorials" / "zh" / "13-play-a-whole-game.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    prose = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return "--bots greedy,random,random,random " in prose


CLAIMS = translated(
    nb13,
    {
        "turn 25": "第 25 回合",
        "3 or 4 players": "3 或 4 名玩家",
        "optional character, one servant": "可选的角色，一个仆人",
    },
    extra=[
        Claim("第 7 局，随机布置", lambda: _notebook_plays('seed=7, layout="random"')),
        Claim("电脑玩家坐满 4 个座位", _four_bots_watched),
        Claim("机器人有三种强度", _three_strengths),
        Claim(
            "其他三种颜色交给贪心机器人",
            lambda: _notebook_plays('seats=["human", "greedy", "greedy", "greedy"]'),
        ),
        Claim("*载入一个场景或对局记录*", _load_label),
        Claim("贪心机器人对三个随机机器人几乎每局都赢", _example_tournament),
    ],
)
