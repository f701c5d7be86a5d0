"""Claims of tutorials/de/05-contents-and-setup.ipynb: the English notebook's checks
(``claims.nb05``), each quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import nb05, translated

CLAIMS = translated(
    nb05,
    {
        "seven gift types": "sieben Geschenkarten",
        "gift cards of seven types": "Geschenkkarten in sieben Arten",
        "counts as two senets": "ein Doppel-Senet zählt als zwei Senets",
        "face up in seven piles": "offen in sieben Stapeln",
        "3 points": "am Ende 3 Punkte",
        "four per player (R1.2)": "vier pro Spieler",
        "Setting up for four and for three players": "Aufbau für vier und für drei Spieler",
        "With three players instead of four": "mit drei statt vier Spielern",
        "among the bottom five cards": "unter den untersten fünf Karten",
        (
            "card among the bottom five, deals four cards to each open market",
            "puts one Deben on every reserve",
        ): "vier Karten, mit einem Siegel auf der oberen, legt einen Deben auf jeden Vorrat",
        "What changes with three players": "Was sich mit drei Spielern ändert",
        "All eight senet cards stay in the box": "Alle acht Senet-Karten bleiben in der Schachtel",
        "Scribe +2 fewer": (
            "Ein Schreiber +2 weniger",
            "mit drei Spielern ein\n  Schreiber +2 weniger",
        ),
        "the purses are\n  9, 10, 10 instead of 8, 9, 9, 10": "die Spieler\n  9, 10, 10 statt 8, 9, 9, 10 Deben",
        "start with one or two Deben more": "mit ein oder zwei Deben mehr",
        "Each market has two stalls": "Jeder Markt hat zwei Preistabellen",
        "four cards are taken off": "werden vier Karten abgenommen und mit der Echnaton-Karte gemischt, und\ndiese fünf "
        "kommen ganz nach unten",
        "one of the last five cards": "eine der letzten fünf\nKarten, aber niemand weiß, welche",
        "among the last five?": "weiter oben unter den letzten fünf",
        "with three players the senets": "mit drei Spielern\n  bleiben die Senets in der Schachtel",
        "One Deben on each reserve": "Ein Deben auf jedem Vorrat",
        "starting purses\n  8, 9, 9, 10, or 9, 10, 10 with three players": "Start-Deben\n  8, 9, 9, 10, oder 9, 10, 10 mit drei Spielern",
        "The three open markets": "Die\n  drei offenen Märkte werden aufgefüllt",
    },
)
