"""Claims of tutorials/de/13-play-a-whole-game.ipynb: the English notebook's checks, each quoted
with the German phrase that states the same number, and the counts the German prose writes as
words (the computer players of the watched game, the greedy seats, the exercises)."""

from __future__ import annotations

import inspect

from claims import Claim
from claims.nb13 import CLAIMS as ENGLISH
from claims.nb13 import _notebook_plays, _player_counts
from nefertiti_core.files.exercises.lessons import exercises_for

_EN = {claim.text: claim.check for claim in ENGLISH}


def _four_computer_players() -> bool:
    """``watch_game(seed=3)`` leaves the number of players to the replay, which seats four bots."""
    from widgets.lesson.demos import GameReplay

    assert _notebook_plays("watch_game(seed=3)")
    return inspect.signature(GameReplay).parameters["players"].default == 4


CLAIMS = [
    Claim("Vier Computerspieler", _four_computer_players),
    Claim(
        "die anderen drei Farben",
        lambda: _notebook_plays('seats=["human", "greedy", "greedy", "greedy"]'),
    ),
    Claim("in Partie 7 mit\neinem zufälligen Layout", _EN["in game 7 with a\nrandom layout"]),
    Claim("Diese vier", lambda: len(exercises_for("whole-game")) == 4),
    Claim("Zug 25", _EN["turn 25"]),
    Claim("3 oder 4 Spieler", lambda: _player_counts() == {3, 4}),
]
