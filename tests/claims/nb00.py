"""The numbers of tutorials/00-welcome.ipynb, checked against the engine."""

from __future__ import annotations

from nefertiti_core.engine import rules as R
from widgets.lesson.rule_summaries import gift_values

from . import Claim
from ._firstgame import is_square


def _gold_alone() -> bool:
    gold = next(row for row in gift_values(4) if row["type"] == "gold")
    assert gold["values"][0] == 14, gold
    return True


CLAIMS = [
    Claim("gift cards in four markets", lambda: len(R.MARKETS) == 4),
    Claim(
        "Akhet-Aton's 10 is an X square",
        lambda: is_square("first-game", "akhet_aton", 9, 10, "X"),
    ),
    Claim("A gold craft held by a single player is worth 14", _gold_alone),
]
