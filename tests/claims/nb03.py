"""The numbers of tutorials/03-gift-cards.ipynb, checked against the engine."""

from __future__ import annotations

from . import Claim
from ._firstgame import is_square
from .engine import is_open

CLAIMS = [
    Claim(
        "click the 7 on Abou Simbel",
        lambda: (
            is_square("gift-values-change", "abou_simbel", 5, 7)
            and not is_open("gift-values-change", "abou_simbel", "place abou_simbel.left#5")
        ),
    ),
]
