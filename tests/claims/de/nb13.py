"""Claims of tutorials/de/13-play-a-whole-game.ipynb: the English notebook's checks
(``claims.nb13``), each quoted with the German phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

import inspect

from claims import Claim, nb13, translated
from claims.nb13 import _notebook_plays
from nefertiti_core.files.exercises.lessons import exercises_for


def _four_computer_players() -> bool:
    """``watch_game(seed=3)`` leaves the number of players to the replay, which seats four bots."""
    from widgets.lesson.demos import GameReplay

    assert _notebook_plays("watch_game(seed=3)")
    return inspect.signature(GameReplay).parameters["players"].default == 4


CLAIMS = translated(
    nb13,
    {
        "the other three colours by greedy bots": "die anderen drei Farben",
        "in game 7 with a\nrandom layout": "in Partie 7 mit\neinem zufälligen Layout",
        "turn 25": "Zug 25",
        "3 or 4 players": "3 oder 4 Spieler",
    },
    extra=[
        Claim("Vier Computerspieler", _four_computer_players),
        Claim("Diese vier", lambda: len(exercises_for("whole-game")) == 4),
    ],
)
