"""Claims of tutorials/de/14-what-if-explorer.ipynb: the English notebook's checks
(``claims.nb14``), each quoted with the German phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from claims import Claim, nb14, translated
from claims.engine import position
from claims.nb14 import EIGHT, SEVEN, SUMS, _abou_total, _standard_error_points
from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.deck import BOTTOM, reshuffled


def _code() -> str:
    """The code cells of the notebook (the same in every language)."""
    path = Path(__file__).parents[3] / "tutorials" / "14-what-if-explorer.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def _two_moves() -> bool:
    """Both of Red's moves are legal in the same position, and they lead to different sums."""
    state = position(SUMS)
    assert state.parse(SEVEN) is not None and state.parse(EIGHT) is not None
    return _abou_total(SEVEN) != _abou_total(EIGHT)


def _bottom_five() -> bool:
    """A reshuffle puts the Akhenaton card at each of the five bottom places, never higher."""
    deck = new_game(4, seed=1).deck
    places = {reshuffled(deck, random.Random(i)).index(R.AKHENATON) for i in range(200)}
    return BOTTOM == 5 and places == set(range(5))


CLAIMS = translated(
    nb14,
    {
        "where the bids add up to 7": "wo die Gebote zusammen 7 ergeben",
        "Red's 7 would make\nexactly 14 and close the market": "Rots 7\nwürde genau 14 ergeben und den Markt schließen",
        "the 8 would make 15, which closes nothing": "die 8 ergäbe 15, was nichts schließt",
        "closes the market with her 7": "schließt den Markt mit ihrer 7",
        "where Red plays\nthe 8 instead": "in dem Rot\nstattdessen die 8 spielt",
        "place on the 3 with": (
            "auf die 3 der\nlinken Preistabelle",
            "setze auf die 3",
        ),
        "the values 2, 3 and 7 are occupied": "die Werte 2, 3 und 7 besetzt",
        "4/36": "4/36",
        "fixed at 3 and 2 before Green places, which closes the\nstall": "auf 3 und 2 festgelegt, bevor Grün einsetzt, was die\nPreistabelle schließt",
        "at 5 and 6, which does not": "auf 5 und 6, was sie nicht schließt",
        "differ by the 2 that Red owed her": "um die 2, die Rot ihr schuldete",
        "with 400 rolls one standard\nerror is about 1.6 percentage points": "Bei 400 Würfen beträgt ein Standardfehler etwa 1,6 Prozentpunkte",
        "with 95% intervals": "mit 95-%-Intervallen",
    },
    extra=[
        Claim("Zwei Züge aus derselben Stellung", _two_moves),
        Claim("seinen drei Zweigen", lambda: _code().count("lab.session.new_branch(") == 2),
        Claim("Zwei Zweige: Auf", lambda: _code().count("dice.session.new_branch(") == 1),
        Claim("unter den untersten fünf", _bottom_five),
        Claim(
            "Unterschied von zwei oder drei Punkten ist also gewöhnliches Glück",
            lambda: 3 <= 2 * _standard_error_points(400),
        ),
    ],
)
