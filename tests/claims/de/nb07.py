"""Claims of tutorials/de/07-closing-gizeh.ipynb: the English notebook's checks (``claims.nb07``),
each quoted with the German phrase that states the same number, and the checks of its own
(``extra``)."""

from __future__ import annotations

from claims import Claim, nb07, translated
from claims.engine import is_open, position, seat
from claims.nb07 import LEFT, RIGHT, _examples_connect, _neighbours, _occupied
from nefertiti_core.engine import rules as R

HIGH = "gizeh-left-high-bids"


def _four_that_touch() -> bool:
    """The pyramid closes on four touching squares: the rulebook's groups close, no three do."""
    return LEFT.rule == R.CONNECTED4 and _examples_connect()


def _three_colours_or_four_servants() -> bool:
    return (
        RIGHT.rule == R.COLOURS3_OR_4
        and R.COLOURS_TO_CLOSE == 3
        and R.SERVANTS_TO_CLOSE == 4
        and not is_open("gizeh-right-colours", "gizeh", "place gizeh.right#1")  # a third colour
        and is_open("gizeh-right-two-colours", "gizeh", "place gizeh.right#1")  # a third servant
        and not is_open(
            "gizeh-right-two-colours", "gizeh", "place gizeh.right#1", "place gizeh.right#2"
        )  # a fourth servant
    )


def _none_of_the_three_touches() -> bool:
    on = _occupied(HIGH)
    return on == [4, 6, 7] and all(not _neighbours(v) & set(on) for v in on)


def _the_one_square_touches_all_three() -> bool:
    state = position(HIGH)
    free = [sq for sq in LEFT.squares if state.owners[R.GIZEH][sq.index] < 0]
    closing = [
        sq.value for sq in free if not is_open(HIGH, "gizeh", f"place gizeh.left#{sq.index}")
    ]
    return closing == [5] and {4, 6, 7} <= _neighbours(5)


def _the_same_two_servants() -> bool:
    """Red's turn on the same stall: Red's and Blue's servants, the same squares as before."""
    state = position("gizeh-right-two-colours")
    owners = state.owners[R.GIZEH]
    taken = [o for o in owners if o >= 0]
    return (
        state.turn_player == seat(state, "red")
        and owners == position("gizeh-right-colours").owners[R.GIZEH]
        and sorted(taken) == sorted([seat(state, "red"), seat(state, "blue")])
    )


CLAIMS = translated(
    nb07,
    {
        "1 at the top, then 2 3, then\n  4 5 6 (the 4 is a Deben square), and 7 at the bottom, "
        "under the 5": "oben die 1,\n  darunter 2 3, dann 4 5 6 (die 4 ist ein Feld mit Münzsymbol) und ganz "
        "unten die 7, unter der 5",
        "1 2 3 4 over 5 6 7 8 (the 4 is a Deben square)": "**Rechte Preistabelle, zwei Reihen** (R3.2): 1 2 3 4 über 5 6 7 8 (die 4 ist ein Feld "
        "mit\n  Münzsymbol)",
        "1-3-4-5 and 2-4-5-7": "zwei Beispiele für eine Gruppe, 1-3-4-5 und 2-4-5-7",
        "hold the 1, the 3 and the 5": "besetzen die 1, die 3 und die 5: eine Kette aus drei Feldern",
        "Green places on the 4, the Deben square": "Grün setzt auf die 4, das Feld mit Münzsymbol",
    },
    extra=[
        Claim("sobald sich **vier besetzte Felder gegenseitig berühren**", _four_that_touch),
        Claim(
            "Diener in **drei verschiedenen Farben** stehen oder\n  **vier Diener**",
            _three_colours_or_four_servants,
        ),
        Claim("Die Pyramide: vier, die sich berühren", _four_that_touch),
        Claim(
            "auf der 4, der 6 und der 7: Gebote von zusammen 17",
            lambda: (
                _occupied(HIGH) == [4, 6, 7]
                and sum(_occupied(HIGH)) == 17
                and is_open(HIGH, "gizeh")
            ),
        ),
        Claim("keiner der drei einen anderen berührt", _none_of_the_three_touches),
        Claim(
            "setzt auf die 1, und die Gebote erreichen 18",
            lambda: sum(_occupied(HIGH, "place gizeh.left#0")) == 18 and LEFT.squares[0].value == 1,
        ),
        Claim("es berührt alle drei\nDiener", _the_one_square_touches_all_three),
        Claim("drei Farben oder vier Diener", _three_colours_or_four_servants),
        Claim("Hier spielen drei Spieler", lambda: position("gizeh-right-colours").n == 3),
        Claim("dieselben zwei Diener", _the_same_two_servants),
        Claim("wenn sich vier oder mehr besetzte Felder gegenseitig", _four_that_touch),
        Claim("mit Dienern in drei Farben oder mit vier Dienern", _three_colours_or_four_servants),
    ],
)
