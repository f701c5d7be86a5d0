"""The numbers of tutorials/de/00-welcome.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
from claims._firstgame import is_square
from claims.nb00 import _gold_alone
from nefertiti_core.engine import rules as R

CLAIMS = [
    Claim("in vier Märkten auf Geschenkkarten", lambda: len(R.MARKETS) == 4),
    Claim(
        "Die 10 von Akhet-Aton ist ein X-Feld",
        lambda: is_square("first-game", "akhet_aton", 9, 10, "X"),
    ),
    Claim("Eine Goldschmiedearbeit, die nur ein Spieler besitzt, ist\n14 wert", _gold_alone),
]
