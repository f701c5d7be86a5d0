"""Claims of tutorials/de/08-closing-akhet-aton.ipynb: the English notebook's checks
(``claims.nb08``), each quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import nb08, translated

CLAIMS = translated(
    nb08,
    {
        "0 on top; then 1 2; then 3 4 5 (the 4 is a\n  Deben square); and 6 7 8 10 at the bottom "
        "(the 10 is an extra-card square)": "oben die 0; dann 1 2; dann\n  3 4 5 (die 4 ist ein Feld mit Münzsymbol); und ganz unten "
        "6 7 8 10 (die 10 ist ein Feld mit\n  Extrakarten-Symbol)",
        "a pyramid of four levels": "eine Pyramide aus vier Ebenen",
        "holds at least one servant": "**auf jeder Ebene mindestens ein Diener steht**",
        (
            "a grid of three rows",
            "0 1 2 / 3 4 5 / 6 7 8 (the 5 is a Deben square)",
        ): "ein Raster aus drei Reihen** (R3.4): 0 1 2 / 3 4 5 / 6 7 8 (die 5 ist\n  ein Feld mit "
        "Münzsymbol)",
        "**three occupied squares in a row": "**drei besetzte Felder in einer\n  Reihe, einer Spalte oder einer Diagonale**",
        (
            "Green holds the 0, Red the 1 and Blue the 4",
            "the top three levels are covered",
        ): "Grün besetzt die 0, Rot die 1 und Blau die 4: Die oberen drei Ebenen sind abgedeckt",
        "Black is to play, with 8 Deben": "Schwarz ist am Zug und hat 8 Deben",
        "Black places on the 6": "Schwarz setzt auf die 6",
        "Try the 10 too: it is the highest\nbid and an extra-card square, but Black cannot pay it": "Probier auch die 10: Sie ist das\nhöchste Gebot und ein Feld mit Extrakarten-Symbol, "
        "aber Schwarz kann sie nicht bezahlen",
        "## The grid: three in a line": "Das Raster: drei in einer Linie",
        "Red holds the 0, Blue the 3 and Black the 4": "Rot besetzt die 0, Blau die 3 und Schwarz die 4",
        "Green places on the 7 instead, which completes no line": "Grün setzt stattdessen auf die 7, womit keine Linie vollständig wird",
        "After Green's 7, the middle column needs only the 1": "Nach der 7 von Grün fehlt der mittleren Spalte nur noch die 1",
        "each of its four levels holds a servant": "auf jeder ihrer vier Ebenen",
        "closes when three occupied squares form a row": "wenn drei besetzte Felder eine Reihe, eine\n  Spalte oder eine Diagonale bilden",
        "The 10 on the left stall is an extra-card square; the 4 on the left and the 5 on the right"
        "\n  are Deben squares": "Die 10 auf der linken Preistabelle ist ein Feld mit Extrakarten-Symbol; die 4 auf der "
        "linken und\n  die 5 auf der rechten sind Felder mit Münzsymbol",
    },
)
