"""Claims of tutorials/13-play-a-whole-game.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
from claims.engine import position
from nefertiti_core import new_game


def _player_counts() -> set[int]:
    """The player counts the engine sets up (R1.1): 3 and 4, and no other."""
    counts = set()
    for n in range(1, 7):
        try:
            new_game(n, seed=1)
        except Exception:  # noqa: BLE001 - any refusal means: not a legal number of players
            continue
        counts.add(n)
    return counts


CLAIMS = [
    Claim("turn 25", lambda: position("mid-game").turn_no == 25),
    Claim("3 or 4 players", lambda: _player_counts() == {3, 4}),
]


def _notebook_plays(fragment: str) -> bool:
    """The prose names the game its Sandbox cell sets up."""
    import json
    from pathlib import Path

    path = Path(__file__).parents[2] / "tutorials" / "13-play-a-whole-game.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return any(fragment in "".join(c["source"]) for c in cells if c["cell_type"] == "code")


CLAIMS.append(
    Claim("in game 7 with a\nrandom layout", lambda: _notebook_plays('seed=7, layout="random"'))
)
