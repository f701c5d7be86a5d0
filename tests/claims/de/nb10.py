"""Claims of tutorials/de/10-closing-louqsor.ipynb: the English notebook's checks (R3.7, R3.8,
R4), each quoted with the German phrase that states the same number, and the number of dice each
stall rolls, which the German prose writes as words."""

from __future__ import annotations

from claims import Claim
from claims._firstgame import option_texts
from claims._stalls import place
from claims.engine import position
from claims.nb10 import CLAIMS as ENGLISH
from claims.nb10 import DICE, RUN, _five_six_neighbours, _k_squared, _reroll_two_three

_EN = {claim.text: claim.check for claim in ENGLISH}


def _dice_rolled(name: str, square: str) -> int:
    """How many dice the engine rolls when a servant goes on ``square`` of Louqsor."""
    return len(position(name, place(name, "louqsor", square)).last_roll)


def _two_dice() -> bool:
    return _dice_rolled(DICE, "the 3") == 2


def _one_die() -> bool:
    return _dice_rolled(RUN, "the 5") == 1


def _single_card() -> bool:
    """On a single-card square the highest bidder's every choice is one card (R6.2)."""
    options = option_texts("single-card", "place louqsor.left#1")
    return bool(options) and all(o.startswith("take ") and "+" not in o for o in options)


CLAIMS = [
    Claim("**zwei Würfel**", _two_dice),
    Claim("**ein Würfel**", _one_die),
    Claim("die 5 und die 6 gelten als Nachbarn", _five_six_neighbours),
    Claim("kauft nur eine Karte", _single_card),
    Claim("Linke Preistabelle: zwei Würfel", _two_dice),
    Claim(
        "Rot hat die 2 besetzt, Blau die 7, und Grün ist am Zug",
        _EN["Red holds the 2, Blue the 7, and Green is to play"],
    ),
    Claim("Kein Würfel zeigt je eine 7", _EN["No die ever shows a 7"]),
    Claim("Grün setzt auf die 3", _EN["Green places on the 3"]),
    Claim("wie viele der 36\nsind das", _EN["how many of the 36 are they"]),
    Claim("klicke auf die 3", _EN["click the 3"]),
    Claim("Rechte Preistabelle: ein Würfel", _one_die),
    Claim(
        "Grün hat die 3 besetzt, Rot die 4, Blau die 8; Schwarz ist am Zug",
        _EN["Green holds the 3, Red the 4, Blue the 8; Black is to play"],
    ),
    Claim("der Würfel so festgelegt, dass er 4 zeigt", _EN["the die is fixed to show 4"]),
    Claim("Schwarz setzt auf die 5", _EN["Black places on the 5"]),
    Claim(
        "auf die 3 von Luxor gesetzt und eine 5 und eine 3 gewürfelt",
        _EN["placed on Louqsor's 3 and rolled a 5 and a 3"],
    ),
    Claim("die Lektion legt die Würfel auf 2 und 3 fest", _reroll_two_three),
    Claim("zwei Würfel nach jedem Einsetzen", _two_dice),
    Claim(
        "Sind k der Zahlen 1 bis 6 besetzt, schließen k×k der 36 Würfe; die 7\n  darf besetzt sein",
        _k_squared,
    ),
    Claim("ein Würfel nach jedem Einsetzen", _one_die),
]
