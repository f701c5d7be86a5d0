"""Claims of tutorials/de/14-what-if-explorer.ipynb: the English notebook's checks
(``claims.nb14``), each quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import nb14, translated

CLAIMS = translated(
    nb14,
    {
        "## Two moves from one position": "Zwei Züge aus derselben Stellung",
        "where the bids add up to 7": "wo die Gebote zusammen 7 ergeben",
        "Red's 7 would make\nexactly 14 and close the market": "Rots 7\nwürde genau 14 ergeben und den Markt schließen",
        "the 8 would make 15, which closes nothing": "die 8 ergäbe 15, was nichts schließt",
        "closes the market with her 7": "schließt den Markt mit ihrer 7",
        "where Red plays\nthe 8 instead": "in dem Rot\nstattdessen die 8 spielt",
        "with its three branches": "seinen drei Zweigen",
        "place on the 3 with": (
            "auf die 3 der\nlinken Preistabelle",
            "setze auf die 3",
        ),
        "the values 2, 3 and 7 are occupied": "die Werte 2, 3 und 7 besetzt",
        "4/36": "4/36",
        "Two branches: on `main`": "Zwei Zweige: Auf",
        "fixed at 3 and 2 before Green places, which closes the\nstall": "auf 3 und 2 festgelegt, bevor Grün einsetzt, was die\nPreistabelle schließt",
        "at 5 and 6, which does not": "auf 5 und 6, was sie nicht schließt",
        "differ by the 2 that Red owed her": "um die 2, die Rot ihr schuldete",
        "among the bottom five": "unter den untersten fünf",
        "with 400 rolls one standard\nerror is about 1.6 percentage points": "Bei 400 Würfen beträgt ein Standardfehler etwa 1,6 Prozentpunkte",
        "a gap of two or three points is ordinary luck": "Unterschied von zwei oder drei Punkten ist also gewöhnliches Glück",
        "with 95% intervals": "mit 95-%-Intervallen",
    },
)
