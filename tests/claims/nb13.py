"""Claims of tutorials/13-play-a-whole-game.ipynb, checked against the engine."""

from __future__ import annotations

from pathlib import Path

from claims import Claim
from claims import _facts as F
from claims.engine import position
from claims.nb01 import _one_servant_a_turn
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


# ---------------------------------------------------------------- numbers written as words
def _three_strengths() -> bool:
    from nefertiti_core.play.bots import bot_kinds

    # greedy-exact is the greedy bot scoring exactly (the same strength, docs/bots.md)
    kinds = [k for k in bot_kinds() if k != "greedy-exact"]
    return kinds == ["random", "greedy", "mcts"]


def _greedy_looks_one_step_ahead() -> bool:
    """The greedy bot values each legal move by the position right after it (one step)."""
    from nefertiti_core.play.bots import make_bot

    state = position("mid-game")
    choice = make_bot("greedy", seed=1).choose(state)
    return choice in state.legal_options()


def _four_bots_basic_game() -> bool:
    import inspect

    from widgets.lesson.demos import GameReplay

    parameters = inspect.signature(GameReplay).parameters
    return parameters["players"].default == 4 and parameters["characters"].default is False


def _one_person_three_bots() -> bool:
    return _notebook_plays('seats=["human", "greedy", "greedy", "greedy"]')


def _one_servant_from_closing() -> bool:
    """The hint that warns of a market one servant from closing (the hints' own words)."""
    from nefertiti_core.engine.i18n import tr

    return "one servant from closing" in tr("en", "hint.threat.you", market="", next="", rule="")


def _greedy_beats_three_random() -> bool:
    """docs/bots.md, the measured tournament: greedy won 400 of 400 against three random bots."""
    bots = (Path(__file__).parents[2] / "docs" / "bots.md").read_text(encoding="utf-8")
    return "greedy against random: 400 of 400 games won with 4 players" in bots


CLAIMS += [
    Claim("of three strengths", _three_strengths),
    Claim("each move one step ahead and keeps the one", _greedy_looks_one_step_ahead),
    Claim("Four computer players play a whole basic game", _four_bots_basic_game),
    Claim("the other three colours by greedy bots", _one_person_three_bots),
    Claim(
        "These four are set in the game in progress", lambda: F.exercise_count("whole-game") == 4
    ),
    Claim("optional character, one servant", _one_servant_a_turn),
    Claim("it leaves one servant from closing", _one_servant_from_closing),
    Claim("against three random bots", _greedy_beats_three_random),
]
