"""Claims of tutorials/de/07-closing-gizeh.ipynb: the English notebook's checks (``claims.nb07``),
each quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import nb07, translated

CLAIMS = translated(
    nb07,
    {
        "1 at the top, then 2 3, then\n  4 5 6 (the 4 is a Deben square), and 7 at the bottom, "
        "under the 5": "oben die 1,\n  darunter 2 3, dann 4 5 6 (die 4 ist ein Feld mit Münzsymbol) und ganz "
        "unten die 7, unter der 5",
        "It closes as soon as **four": "sobald sich **vier besetzte Felder gegenseitig berühren**",
        "1 2 3 4 over 5 6 7 8 (the 4 is a Deben square)": "**Rechte Preistabelle, zwei Reihen** (R3.2): 1 2 3 4 über 5 6 7 8 (die 4 ist ein Feld "
        "mit\n  Münzsymbol)",
        "**three different colours**, or **four servants**": "Diener in **drei verschiedenen Farben** stehen oder\n  **vier Diener**",
        "1-3-4-5 and 2-4-5-7": "zwei Beispiele für eine Gruppe, 1-3-4-5 und 2-4-5-7",
        "## The pyramid: four that touch": "Die Pyramide: vier, die sich berühren",
        "hold the 1, the 3 and the 5": "besetzen die 1, die 3 und die 5: eine Kette aus drei Feldern",
        "Green places on the 4, the Deben square": "Grün setzt auf die 4, das Feld mit Münzsymbol",
        "on the 4, the 6 and the 7: bids of 17 in all": "auf der 4, der 6 und der 7: Gebote von zusammen 17",
        "none of the three touches another": "keiner der drei einen anderen berührt",
        "places on the 1, and the bids reach 18": "setzt auf die 1, und die Gebote erreichen 18",
        (
            "find the one square that closes it for Green",
            "all three servants",
        ): "es berührt alle drei\nDiener",
        "three colours or four servants": "drei Farben oder vier Diener",
        "Three players here. A red and a blue servant": "Hier spielen drei Spieler",
        "same two servants": "dieselben zwei Diener",
        "closes when four or more occupied squares touch": "wenn sich vier oder mehr besetzte Felder gegenseitig",
        "servants of three colours, or with four servants": "mit Dienern in drei Farben oder mit vier Dienern",
    },
)
