"""Claims of tutorials/de/04-characters.ipynb: the English notebook's checks (``claims.nb04``),
each quoted with the German phrase that states the same number, and the checks of its own
(``extra``)."""

from __future__ import annotations

from claims import Claim, nb04, translated
from claims import _in_words as W

CLAIMS = translated(
    nb04,
    {
        "3 points": "am Ende 3 Punkte wert",
        "One\ncharacter per turn": "Höchstens eine Personenkarte pro Zug",
        "at most one per": "höchstens\n  eine pro Zug",
        "when only one player holds its type": "wenn\nnur ein Spieler ihre Art besitzt",
        (
            "The 13 character cards",
            "in seven piles",
        ): "Die 13 Personenkarten liegen offen in sieben Stapeln",
        "2 prestige for every": "2 Prestige für jede",
        "allows two\nswaps, with two different opponents": "erlaubt zwei Tauschgeschäfte mit zwei verschiedenen\nMitspielern",
        "The First Merchant swaps twice, with two": "tauscht zweimal, mit zwei verschiedenen Mitspielern",
        "two servants in one turn": "zwei Diener in einem Zug",
        "two placements in one turn": "zweimal einsetzen in einem Zug",
        "Green has three servants on the board and one in hand": "Grün hat drei Diener auf dem Spielplan und einen in der Hand",
        "the 8 of Abou Simbel's left stall": "die 8 der linken Preistabelle von Abu Simbel",
        "discards one card of it": "Alle geben eins ab",
        "Green owns five chairs; Red and Blue own one each": "Grün besitzt fünf Stühle, Rot und Blau je einen",
        "+3 on top, then +2, +2,\n+1": "liegt +3 oben, dann +2, +2,\n+1",
        "counts as two senets": "Doppel-Senet zählt als zwei Senets",
        "Blue owns a double senet and two single senets; Black owns two senets": "Blau besitzt ein Doppel-Senet und zwei einfache Senets, Schwarz besitzt zwei Senets",
        "The +3 Scribe is gone, so\na +2 lies on top": "Der\nSchreiber +3 ist schon weg, also liegt ein +2 oben",
        "from 1 to 4 Deben": "von 1 bis 4 Deben",
        "1 to 4 Deben from one reserve": "1 bis 4 Deben aus einem Vorrat",
        "reserve holds 6 Deben": "Der Vorrat von Abu Simbel enthält 6 Deben",
    },
    extra=[
        Claim("Grün und Blau besitzen je eine\nStatuette", W.merchant_hands),
        Claim(
            "Schwarz besitzt ein Senet, ein Doppel-Senet, eine Statuette, einen Spiegel und eine Halskette",
            W.black_holds_five_kinds,
        ),
        Claim(
            "mit drei unverkauften Karten: oben eine Goldschmiedearbeit mit einem\nSiegel darauf, "
            "darunter ein Stuhl und ein Spiegel",
            W.chief_market,
        ),
        Claim("einen Besitzer weniger", W.scribe_leaves_one_holder_fewer),
    ],
)
