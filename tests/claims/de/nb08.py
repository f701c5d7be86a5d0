"""Claims of tutorials/de/08-closing-akhet-aton.ipynb, checked against the engine: the English
notebook's checks, and checks for the counts the German prose writes as words (vier Ebenen, drei
Reihen, drei in einer Linie)."""

from __future__ import annotations

from claims import Claim
from claims.engine import is_open, position, seat
from claims.nb08 import (
    LEFT,
    LEVELS,
    LINE,
    RIGHT,
    _closing_after_the_7,
    _holds,
    _levels_are_the_rows,
    _rows,
    _square,
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


CLAIMS = [
    Claim(
        "oben die 0; dann 1 2; dann\n  3 4 5 (die 4 ist ein Feld mit Münzsymbol); und ganz unten "
        "6 7 8 10 (die 10 ist ein Feld mit\n  Extrakarten-Symbol)",
        lambda: (
            _rows(LEFT) == [["0"], ["1", "2"], ["3", "4D", "5"], ["6", "7", "8", "10X"]]
            and _levels_are_the_rows()
        ),
    ),
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
    Claim(
        "Schwarz ist am Zug und hat 8 Deben",
        lambda: (lambda s: s.turn_player == seat(s, "black") and s.deben[seat(s, "black")] == 8)(
            position(LEVELS)
        ),
    ),
    Claim(
        "Schwarz setzt auf die 6",
        lambda: (
            LEFT.squares[6].value == 6
            and not is_open(LEVELS, "akhet_aton", "place akhet_aton.left#6")
        ),
    ),
    Claim(
        "Probier auch die 10: Sie ist das\nhöchste Gebot und ein Feld mit Extrakarten-Symbol, "
        "aber Schwarz kann sie nicht bezahlen",
        lambda: (
            _square(LEFT, 10).symbol == R.EXTRA
            and _square(LEFT, 10).value == max(sq.value for sq in LEFT.squares)
            and position(LEVELS).deben[seat(position(LEVELS), "black")] < 10
        ),
    ),
    Claim("Das Raster: drei in einer Linie", _three_in_a_line),
    Claim(
        "Rot besetzt die 0, Blau die 3 und Schwarz die 4",
        lambda: (
            (_holds(LINE, "red"), _holds(LINE, "blue"), _holds(LINE, "black")) == ([0], [3], [4])
        ),
    ),
    Claim(
        "Grün setzt stattdessen auf die 7, womit keine Linie vollständig wird",
        lambda: (
            RIGHT.squares[7].value == 7 and is_open(LINE, "akhet_aton", "place akhet_aton.right#7")
        ),
    ),
    Claim(
        "Nach der 7 von Grün fehlt der mittleren Spalte nur noch die 1",
        lambda: (1, 4, 7) in RIGHT.groups and 1 in _closing_after_the_7(),
    ),
    Claim("auf jeder ihrer vier Ebenen", _four_levels),
    Claim(
        "wenn drei besetzte Felder eine Reihe, eine\n  Spalte oder eine Diagonale bilden",
        _three_in_a_line,
    ),
    Claim(
        "Die 10 auf der linken Preistabelle ist ein Feld mit Extrakarten-Symbol; die 4 auf der "
        "linken und\n  die 5 auf der rechten sind Felder mit Münzsymbol",
        lambda: (
            _square(LEFT, 10).symbol == R.EXTRA
            and _square(LEFT, 4).symbol == R.DEBEN
            and _square(RIGHT, 5).symbol == R.DEBEN
        ),
    ),
]
