"""Claims of tutorials/de/10-closing-louqsor.ipynb: the English notebook's checks
(``claims.nb10``), each quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import nb10, translated

CLAIMS = translated(
    nb10,
    {
        "**two dice**": "**zwei Würfel**",
        "**one die**": "**ein Würfel**",
        "the 5 and the 6 count as neighbours": "die 5 und die 6 gelten als Nachbarn",
        "buys just\none card": "kauft nur eine Karte",
        "Left stall: two dice": (
            "Linke Preistabelle: zwei Würfel",
            "zwei Würfel nach jedem Einsetzen",
        ),
        "Red holds the 2, Blue the 7, and Green is to play": "Rot hat die 2 besetzt, Blau die 7, und Grün ist am Zug",
        "No die ever shows a 7": "Kein Würfel zeigt je eine 7",
        "click the 3": (
            "Grün setzt auf die 3",
            "klicke auf die 3",
        ),
        "how many of the 36 are they": "wie viele der 36\nsind das",
        "Right stall: one die": (
            "Rechte Preistabelle: ein Würfel",
            "ein Würfel nach jedem Einsetzen",
        ),
        "Green holds the 3, Red the 4, Blue the 8; Black is to play": "Grün hat die 3 besetzt, Rot die 4, Blau die 8; Schwarz ist am Zug",
        "the die is fixed to show 4": "der Würfel so festgelegt, dass er 4 zeigt",
        "Black places on the 5": "Schwarz setzt auf die 5",
        "placed on Louqsor's 3 and rolled a 5 and a 3": "auf die 3 von Luxor gesetzt und eine 5 und eine 3 gewürfelt",
        "the lesson fixes the dice at 2 and 3": "die Lektion legt die Würfel auf 2 und 3 fest",
        "With k of the numbers 1 to 6 taken, k×k rolls of 36 close it; the 7 may be taken": "Sind k der Zahlen 1 bis 6 besetzt, schließen k×k der 36 Würfe; die 7\n  darf besetzt sein",
    },
)
