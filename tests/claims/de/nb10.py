"""Claims of tutorials/de/10-closing-louqsor.ipynb: the English notebook's checks
(``claims.nb10``), each quoted with the German phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

from claims import Claim, nb10, translated
from claims._firstgame import option_texts
from claims._stalls import place
from claims.engine import position
from claims.nb10 import DICE, RUN


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


CLAIMS = translated(
    nb10,
    {
        "the 5 and the 6 count as neighbours": "die 5 und die 6 gelten als Nachbarn",
        "Red holds the 2, Blue the 7, and Green is to play": "Rot hat die 2 besetzt, Blau die 7, und Grün ist am Zug",
        "No die ever shows a 7": "Kein Würfel zeigt je eine 7",
        "click the 3": (
            "Grün setzt auf die 3",
            "klicke auf die 3",
        ),
        "how many of the 36 are they": "wie viele der 36\nsind das",
        "Green holds the 3, Red the 4, Blue the 8; Black is to play": "Grün hat die 3 besetzt, Rot die 4, Blau die 8; Schwarz ist am Zug",
        "the die is fixed to show 4": "der Würfel so festgelegt, dass er 4 zeigt",
        "Black places on the 5": "Schwarz setzt auf die 5",
        "placed on Louqsor's 3 and rolled a 5 and a 3": "auf die 3 von Luxor gesetzt und eine 5 und eine 3 gewürfelt",
        "the lesson fixes the dice at 2 and 3": "die Lektion legt die Würfel auf 2 und 3 fest",
        "With k of the numbers 1 to 6 taken, k×k rolls of 36 close it; the 7 may be taken": "Sind k der Zahlen 1 bis 6 besetzt, schließen k×k der 36 Würfe; die 7\n  darf besetzt sein",
    },
    extra=[
        Claim("**zwei Würfel**", _two_dice),
        Claim("**ein Würfel**", _one_die),
        Claim("kauft nur eine Karte", _single_card),
        Claim("Linke Preistabelle: zwei Würfel", _two_dice),
        Claim("Rechte Preistabelle: ein Würfel", _one_die),
        Claim("zwei Würfel nach jedem Einsetzen", _two_dice),
        Claim("ein Würfel nach jedem Einsetzen", _one_die),
    ],
)
