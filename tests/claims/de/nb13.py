"""Claims of tutorials/de/13-play-a-whole-game.ipynb: the English notebook's checks
(``claims.nb13``), each quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import nb13, translated

CLAIMS = translated(
    nb13,
    {
        "Four computer players play a whole basic game": "Vier Computerspieler",
        "the other three colours by greedy bots": "die anderen drei Farben",
        "in game 7 with a\nrandom layout": "in Partie 7 mit\neinem zufälligen Layout",
        "These four are set in the game in progress": "Diese vier",
        "turn 25": "Zug 25",
        "3 or 4 players": "3 oder 4 Spieler",
    },
)
