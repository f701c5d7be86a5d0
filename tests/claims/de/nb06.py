"""Claims of tutorials/de/06-markets-and-special-squares.ipynb: the English notebook's checks
(``claims.nb06``), each quoted with the German phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

from claims import Claim, nb06, translated
from claims import _in_words as W
from claims._firstgame import option_texts
from claims.engine import position
from nefertiti_core.engine import rules as R

BONUSES = "markets-bonuses"


def _one_stall_in_use() -> bool:
    """Every placement offered on a market names one stall, the one showing."""
    state = position(BONUSES)
    for m, name in enumerate(R.MARKETS):
        sides = {o.split("#")[0] for o in option_texts(BONUSES) if o.startswith(f"place {name}.")}
        if state.tile != m and sides != {f"place {name}.{R.SIDES[state.side[m]]}"}:
            return False
    return True


CLAIMS = translated(
    nb06,
    {
        "it buys only one card (R6.2)": "kauft es nur eine Karte",
        "takes **exactly one card**": "**genau eine\nKarte**",
        "on a single-card square: one card only": "Einzelkarten-Symbol: nur eine Karte",
        "each buy at most one card": "kaufen jeweils höchstens eine\nKarte",
        "The board has four markets": "Der Spielplan hat vier Märkte",
        "Each has **two stalls**": "Jeder hat **zwei\nPreistabellen**",
        "Each market has two stalls": "Jeder Markt hat zwei Preistabellen",
        "Three marks change what a square does": "Drei Symbole ändern, was ein Feld bewirkt",
        "Here are all eight stalls": "alle acht Preistabellen",
        "its reserve holds 3 Deben; the other reserves hold 1\neach": "der Vorrat des Marktes enthält 3 Deben;\ndie anderen Vorräte enthalten je 1",
        "the Deben 2": "die 2 mit Münzsymbol",
        "the 4 on Gizeh's left stall, another Deben square on an empty stall,\nwhose reserve "
        "holds only 1 Deben": "der 4 auf der linken\nPreistabelle von Gizeh, einem weiteren Feld mit Münzsymbol auf "
        "einer leeren Preistabelle, nur\ndass dort im Vorrat bloß 1 Deben liegt",
        "takes **either two lower cards or the upper card": "entweder zwei untere Karten",
        "all three lower cards": (
            "alle drei unteren Karten, oder die obere Karte mit ihrem Siegel und dazu eine untere",
            "alle drei unteren Karten, oder die obere\n  Karte mit Siegel und dazu eine untere",
        ),
        "the first 2 of Abou Simbel's right stall, Blue's on the 6": "auf der ersten 2 der rechten Preistabelle von Abu Simbel, der von Blau\nauf der 6",
        "close the market with the 12, an extra-card square": "mit der 12 schließen, einem Feld mit Extrakarten-Symbol",
        "place on the 12": "Setze auf die 12",
        "Louqsor's squares 1 to 4 on the left\nstall and 2 to 5 on the right": "Die Felder 1 bis 4\nder linken Preistabelle von Luxor und 2 bis 5 der rechten",
        "on Louqsor's 1, Blue's on the 3. Green places on the 2": "auf der 1 von Luxor, der von Blau auf der 3. Grün setzt auf die 2",
        "Blue's 3 is the highest bid": "Die 3 von Blau ist das höchste Gebot",
        "the bids add up to 7, and Red's servant on the 7 makes exactly 14": "ergeben die Gebote zusammen 7, und der Diener von Rot\nauf der 7 macht genau 14",
        "The 7 carries no mark": "Die 7 trägt kein Symbol",
    },
    extra=[
        Claim("immer nur eine davon ist in Gebrauch", _one_stall_in_use),
        Claim("nimmt sofort einen Deben aus dem Vorrat", W.arrival_and_deben_square),
        Claim("nimmt einen Deben aus dem Vorrat dieses", W.arrival_and_deben_square),
        Claim("nimmt ebenfalls einen Deben", W.arrival_and_deben_square),
        Claim("nehmen je einen Deben", W.arrival_and_deben_square),
    ],
)
