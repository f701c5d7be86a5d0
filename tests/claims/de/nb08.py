"""Claims of tutorials/de/08-closing-akhet-aton.ipynb: the English notebook's checks
(``claims.nb08``), each quoted with the German phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

from claims import Claim, nb08, translated
from claims.engine import is_open, position
from claims.nb08 import (
    LEFT,
    LEVELS,
    RIGHT,
    _holds,
    _levels_are_the_rows,
    _rows,
)
from nefertiti_core.engine import rules as R


def _four_levels() -> bool:
    return LEFT.rule == R.ALL_LEVELS and len(LEFT.groups) == 4 and _levels_are_the_rows()


def _three_in_a_line() -> bool:
    """Three rows, three columns and two diagonals of three squares each, on three rows."""
    rows = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    columns = [list(c) for c in zip(*rows, strict=True)]
    diagonals = [[0, 4, 8], [2, 4, 6]]
    return (
        RIGHT.rule == R.LINE3
        and len({sq.row for sq in RIGHT.squares}) == 3
        and sorted(sorted(g) for g in RIGHT.groups) == sorted(rows + columns + diagonals)
    )


def _top_three_levels_covered() -> bool:
    state = position(LEVELS)
    held = [[state.owners[R.AKHET_ATON][i] >= 0 for i in level] for level in LEFT.groups]
    return [any(level) for level in held] == [True, True, True, False]


CLAIMS = translated(
    nb08,
    {
        "0 on top; then 1 2; then 3 4 5 (the 4 is a\n  Deben square); and 6 7 8 10 at the bottom "
        "(the 10 is an extra-card square)": "oben die 0; dann 1 2; dann\n  3 4 5 (die 4 ist ein Feld mit Münzsymbol); und ganz unten "
        "6 7 8 10 (die 10 ist ein Feld mit\n  Extrakarten-Symbol)",
        "Black is to play, with 8 Deben": "Schwarz ist am Zug und hat 8 Deben",
        "Black places on the 6": "Schwarz setzt auf die 6",
        "Try the 10 too: it is the highest\nbid and an extra-card square, but Black cannot pay it": "Probier auch die 10: Sie ist das\nhöchste Gebot und ein Feld mit Extrakarten-Symbol, "
        "aber Schwarz kann sie nicht bezahlen",
        "Red holds the 0, Blue the 3 and Black the 4": "Rot besetzt die 0, Blau die 3 und Schwarz die 4",
        "Green places on the 7 instead, which completes no line": "Grün setzt stattdessen auf die 7, womit keine Linie vollständig wird",
        "After Green's 7, the middle column needs only the 1": "Nach der 7 von Grün fehlt der mittleren Spalte nur noch die 1",
        "The 10 on the left stall is an extra-card square; the 4 on the left and the 5 on the right"
        "\n  are Deben squares": "Die 10 auf der linken Preistabelle ist ein Feld mit Extrakarten-Symbol; die 4 auf der "
        "linken und\n  die 5 auf der rechten sind Felder mit Münzsymbol",
    },
    extra=[
        Claim("eine Pyramide aus vier Ebenen", _four_levels),
        Claim(
            "**auf jeder Ebene mindestens ein Diener steht**",
            lambda: (
                _four_levels()
                and is_open(LEVELS, "akhet_aton")
                and not is_open(LEVELS, "akhet_aton", "place akhet_aton.left#6")
            ),
        ),
        Claim(
            "ein Raster aus drei Reihen** (R3.4): 0 1 2 / 3 4 5 / 6 7 8 (die 5 ist\n  ein Feld mit "
            "Münzsymbol)",
            lambda: (
                _rows(RIGHT) == [["0", "1", "2"], ["3", "4", "5D"], ["6", "7", "8"]]
                and _three_in_a_line()
            ),
        ),
        Claim(
            "**drei besetzte Felder in einer\n  Reihe, einer Spalte oder einer Diagonale**",
            _three_in_a_line,
        ),
        Claim(
            "Grün besetzt die 0, Rot die 1 und Blau die 4: Die oberen drei Ebenen sind abgedeckt",
            lambda: (
                (_holds(LEVELS, "green"), _holds(LEVELS, "red"), _holds(LEVELS, "blue"))
                == ([0], [1], [4])
                and _top_three_levels_covered()
            ),
        ),
        Claim("Das Raster: drei in einer Linie", _three_in_a_line),
        Claim("auf jeder ihrer vier Ebenen", _four_levels),
        Claim(
            "wenn drei besetzte Felder eine Reihe, eine\n  Spalte oder eine Diagonale bilden",
            _three_in_a_line,
        ),
    ],
)
