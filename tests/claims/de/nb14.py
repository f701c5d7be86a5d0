"""Claims of tutorials/de/14-what-if-explorer.ipynb: the English notebook's checks, each quoted
with the German phrase that states the same number, and the counts the German prose writes as
words (the branches the cells make, the bottom five of the deck, a gap within two standard
errors)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from claims import Claim
from claims.engine import position
from claims.nb14 import CLAIMS as ENGLISH
from claims.nb14 import EIGHT, SEVEN, SUMS, _abou_total, _standard_error_points
from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.deck import BOTTOM, reshuffled

_EN = {claim.text: claim.check for claim in ENGLISH}


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


CLAIMS = [
    Claim("Zwei Züge aus derselben Stellung", _two_moves),
    Claim("wo die Gebote zusammen 7 ergeben", _EN["where the bids add up to 7"]),
    Claim(
        "Rots 7\nwürde genau 14 ergeben und den Markt schließen",
        _EN["Red's 7 would make\nexactly 14 and close the market"],
    ),
    Claim("die 8 ergäbe 15, was nichts schließt", _EN["the 8 would make 15, which closes nothing"]),
    Claim("schließt den Markt mit ihrer 7", _EN["closes the market with her 7"]),
    Claim("in dem Rot\nstattdessen die 8 spielt", _EN["where Red plays\nthe 8 instead"]),
    Claim("seinen drei Zweigen", lambda: _code().count("lab.session.new_branch(") == 2),
    Claim("auf die 3 der\nlinken Preistabelle", _EN["put a servant on the 3 of the\nleft stall"]),
    Claim("die Werte 2, 3 und 7 besetzt", _EN["the values 2, 3 and 7 are occupied"]),
    Claim("4/36", _EN["4/36"]),
    Claim("Zwei Zweige: Auf", lambda: _code().count("dice.session.new_branch(") == 1),
    Claim(
        "auf 3 und 2 festgelegt, bevor Grün einsetzt, was die\nPreistabelle schließt",
        _EN["fixed at 3 and 2 before Green places, which closes the\nstall"],
    ),
    Claim("auf 5 und 6, was sie nicht schließt", _EN["at 5 and 6, which does not"]),
    Claim("setze auf die 3", _EN["place on the 3 with"]),
    Claim("um die 2, die Rot ihr schuldete", _EN["differ by the 2 that Red owed her"]),
    Claim("unter den untersten fünf", _bottom_five),
    Claim(
        "Bei 400 Würfen beträgt ein Standardfehler etwa 1,6 Prozentpunkte",
        _EN["with 400 rolls one standard\nerror is about 1.6 percentage points"],
    ),
    Claim(
        "Unterschied von zwei oder drei Punkten ist also gewöhnliches Glück",
        lambda: 3 <= 2 * _standard_error_points(400),
    ),
    Claim("mit 95-%-Intervallen", _EN["with 95% intervals"]),
]
