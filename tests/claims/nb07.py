"""Claims of tutorials/07-closing-gizeh.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
from claims.engine import is_open, position
from nefertiti_core.engine import rules as R

LEFT = R.stall_of(R.GIZEH, R.LEFT)
RIGHT = R.stall_of(R.GIZEH, R.RIGHT)


def _rows(stall: R.Stall) -> list[list[str]]:
    """The stall's squares row by row as the board prints them (``4D``: a Deben 4)."""
    return [
        [f"{sq.value}{sq.symbol}" for sq in stall.squares if sq.row == row]
        for row in sorted({sq.row for sq in stall.squares})
    ]


def _neighbours(value: int) -> set[int]:
    index = next(sq.index for sq in LEFT.squares if sq.value == value)
    return {LEFT.squares[b if a == index else a].value for a, b in LEFT.groups if index in (a, b)}


def _mask(*values: int) -> int:
    return sum(1 << sq.index for sq in LEFT.squares if sq.value in values)


def _occupied(name: str, *steps: str) -> list[int]:
    state = position(name, *steps)
    return [sq.value for sq in LEFT.squares if state.owners[R.GIZEH][sq.index] >= 0]


def _examples_connect() -> bool:
    """Both of the rulebook's example groups close the pyramid, and no three of them would."""
    groups = [(1, 3, 4, 5), (2, 4, 5, 7)]
    four = all(R.closes_by_shape(LEFT, _mask(*g)) for g in groups)
    three = any(R.closes_by_shape(LEFT, _mask(*g[:3])) for g in groups)
    return four and not three


CLAIMS = [
    Claim(
        "1 at the top, then 2 3, then\n  4 5 6 (the 4 is a Deben square), and 7 at the bottom, "
        "under the 5",
        lambda: (
            _rows(LEFT) == [["1"], ["2", "3"], ["4D", "5", "6"], ["7"]] and _neighbours(7) == {5}
        ),
    ),
    Claim(
        "1 2 3 4 over 5 6 7 8 (the 4 is a Deben square)",
        lambda: _rows(RIGHT) == [["1", "2", "3", "4D"], ["5", "6", "7", "8"]],
    ),
    Claim("1-3-4-5 and 2-4-5-7", _examples_connect),
    Claim(
        "hold the 1, the 3 and the 5",
        lambda: (
            _occupied("gizeh-left-connected") == [1, 3, 5]
            and is_open("gizeh-left-connected", "gizeh")
        ),
    ),
    Claim(
        "Green places on the 4, the Deben square",
        lambda: (
            (LEFT.squares[3].value, LEFT.squares[3].symbol) == (4, R.DEBEN)
            and not is_open("gizeh-left-connected", "gizeh", "place gizeh.left#3")
        ),
    ),
    Claim(
        "on the 4, the 6 and the 7: bids of 17 in all",
        lambda: (
            _occupied("gizeh-left-high-bids") == [4, 6, 7]
            and sum(_occupied("gizeh-left-high-bids")) == 17
            and is_open("gizeh-left-high-bids", "gizeh")
        ),
    ),
    Claim(
        "places on the 1, and the bids reach 18",
        lambda: (
            sum(_occupied("gizeh-left-high-bids", "place gizeh.left#0")) == 18
            and LEFT.squares[0].value == 1
        ),
    ),
]
