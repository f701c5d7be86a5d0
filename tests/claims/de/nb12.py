"""Claims of tutorials/de/12-common-misreadings.ipynb: the English notebook's checks (R3, R6,
R13), each quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import Claim
from claims.nb12 import CLAIMS as ENGLISH
from claims.nb12 import _high_bids, _nothing_touches

_EN = {claim.text: claim.check for claim in ENGLISH}

CLAIMS = [
    Claim(
        "Rots Diener auf der 7 schließt die linke Preistabelle von Abu Simbel",
        _EN["Red's servant on the 7 closes Abou Simbel's left stall"],
    ),
    Claim("Gebote von 4, 6 und 7, zusammen\nschon 17", _high_bids),
    Claim("keine 4 besetzten Felder einander berühren", _nothing_touches),
    Claim("Grün setzt ihren Diener auf die 5", _EN["Green puts her servant on the 5"]),
    Claim(
        "Setze Grüns Diener stattdessen auf die 1",
        _EN["put Green's servant on the 1 instead"],
    ),
]
