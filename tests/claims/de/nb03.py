"""The numbers of tutorials/de/03-gift-cards.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
from claims._firstgame import is_square
from claims.engine import is_open

CLAIMS = [
    Claim(
        "die 7 auf Abu Simbel",
        lambda: (
            is_square("gift-values-change", "abou_simbel", 5, 7)
            and not is_open("gift-values-change", "abou_simbel", "place abou_simbel.left#5")
        ),
    ),
]
