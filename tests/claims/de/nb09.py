"""Claims of tutorials/de/09-closing-abou-simbel.ipynb: the English notebook's checks (R3.5,
R3.6), each quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import Claim
from claims.nb09 import CLAIMS as ENGLISH
from claims.nb09 import _fourteen_not_fifteen, _left_rule, _names, _right_rule, _twelve_extra

_EN = {claim.text: claim.check for claim in ENGLISH}

CLAIMS = [
    Claim("genau 11, genau 14 oder bei 17 und mehr", _left_rule),
    Claim("12, 13, 15 oder 16 bleibt sie offen", _left_rule),
    Claim(
        "Sie schließt bei 17 oder mehr. Ihre 12 ist ein Feld mit\n  Extrakarten-Symbol",
        lambda: _right_rule() and _twelve_extra(),
    ),
    Claim("die 2 mit Münzsymbol und\ndie 2 ohne Symbol, die erste 1 und die zweite 1", _names),
    Claim("14 schließt, 15 nicht", _fourteen_not_fifteen),
    Claim(
        "Grün hat die 2 ohne Symbol besetzt und Blau die 5, die Gebote ergeben also zusammen 7",
        _EN["Green holds the plain 2 and Blue the 5, so the bids add up to 7"],
    ),
    Claim("auf die 8 und lies, was\npassiert", _EN["click the 8 and read what happens"]),
    Claim("und klicke auf die 7", _EN["and click the 7"]),
    Claim("Auch 11 schließt, ebenso alles ab 17", _left_rule),
    Claim(
        "Grün hat die 2 ohne Symbol besetzt und Blau die 8, zusammen also 10",
        _EN["Green holds the plain 2 and Blue the 8, so 10 is on the stall"],
    ),
    Claim("Rot setzt einen Diener auf die erste 1", _EN["Red puts a servant on the first 1"]),
    Claim(
        "nimmt Rot stattdessen die 7: Die Summe springt über 14\nhinweg auf 17",
        _EN["Red takes the 7 instead: the sum jumps past 14 to 17"],
    ),
    Claim("Rechte Preistabelle: 17 oder mehr", _right_rule),
    Claim(
        "Rot hat die erste 2 besetzt und Blau die 6: zusammen 8",
        _EN["Red holds the first 2 and Blue the 6: 8 in all"],
    ),
    Claim("Grün setzt ihren Diener auf die 7", _EN["Green puts her servant on the 7"]),
    Claim("nur die 12 mit einem Schritt die 17", _EN["only the 12 reaches 17 in one step"]),
    Claim("Sie hat 8 Deben", _EN["she has 8 Deben"]),
    Claim("Setze Grüns Diener auf die\n12", _EN["put Green's servant on the 12"]),
    Claim(
        "schließt bei 17 oder mehr (R3.6); die 12 dort trägt das\n  Extrakarten-Symbol",
        lambda: _right_rule() and _twelve_extra(),
    ),
]
