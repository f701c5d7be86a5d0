"""The numbers of tutorials/de/01-a-turn.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
from claims._firstgame import deben_gain, empty_stall, is_square, reserve
from claims.nb01 import _four_servants, _one_servant_a_turn

CLAIMS = [
    Claim("**setzt du genau einen Diener ein**", _one_servant_a_turn),
    Claim(
        "Im Vorrat von Akhet-Aton liegen 2 Deben, und seine Preistabelle ist leer",
        lambda: reserve("a-turn", "akhet_aton") == 2 and empty_stall("a-turn", "akhet_aton"),
    ),
    Claim(
        "für die 4 mit dem D?",
        lambda: (
            is_square("a-turn", "akhet_aton", 4, 4, "D")
            and deben_gain("a-turn", "red", "place akhet_aton.left#4") == 2
        ),
    ),
    Claim(
        "die 4 mit dem\nD bei Gizeh, wo im Vorrat nur 1 Deben liegt",
        lambda: (
            is_square("a-turn", "gizeh", 3, 4, "D")
            and reserve("a-turn", "gizeh") == 1
            and deben_gain("a-turn", "red", "place gizeh.left#3") == 1
        ),
    ),
    Claim("Jeder Spieler hat 4 Diener", _four_servants),
]
