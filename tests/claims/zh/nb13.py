"""Claims of tutorials/zh/13-play-a-whole-game.ipynb, checked against the engine; the checks are
the English notebook's (tests/claims/nb13.py)."""

from __future__ import annotations

import json
from pathlib import Path

from claims import Claim
from claims.engine import position
from claims.nb13 import _player_counts


def _notebook_plays(fragment: str) -> bool:
    """The prose names the game its Sandbox cell sets up."""
    path = Path(__file__).parents[3] / "tutorials" / "zh" / "13-play-a-whole-game.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return any(fragment in "".join(c["source"]) for c in cells if c["cell_type"] == "code")


CLAIMS = [
    Claim("第 25 回合", lambda: position("mid-game").turn_no == 25),
    Claim("3 或 4 名玩家", lambda: _player_counts() == {3, 4}),
    Claim("第 7 局，随机布置", lambda: _notebook_plays('seed=7, layout="random"')),
]
