"""Claims of tutorials/08-closing-akhet-aton.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
from claims import _facts as F
from claims.engine import is_open, position, seat
from nefertiti_core.engine import rules as R

LEFT = R.stall_of(R.AKHET_ATON, R.LEFT)
RIGHT = R.stall_of(R.AKHET_ATON, R.RIGHT)
LEVELS, LINE = "akhet-aton-left-levels", "akhet-aton-right-line"


def _rows(stall: R.Stall) -> list[list[str]]:
    return [
        [f"{sq.value}{sq.symbol}" for sq in stall.squares if sq.row == row]
        for row in sorted({sq.row for sq in stall.squares})
    ]


def _holds(name: str, colour: str) -> list[int]:
    state = position(name)
    stall = state.visible_stall(R.AKHET_ATON)
    mine = seat(state, colour)
    return [sq.value for sq in stall.squares if state.owners[R.AKHET_ATON][sq.index] == mine]


def _square(stall: R.Stall, value: int) -> R.Square:
    return next(sq for sq in stall.squares if sq.value == value)


def _levels_are_the_rows() -> bool:
    rows = [[sq.index for sq in LEFT.squares if sq.row == r] for r in range(4)]
    return [list(level) for level in LEFT.groups] == rows


def _closing_after_the_7() -> list[int]:
    """The values that close the grid for the next player after Green's 7."""
    state = position(LINE, "place akhet_aton.right#7")
    free = [sq for sq in RIGHT.squares if state.owners[R.AKHET_ATON][sq.index] < 0]
    return sorted(
        sq.value
        for sq in free
        if not is_open(
            LINE, "akhet_aton", "place akhet_aton.right#7", f"place akhet_aton.right#{sq.index}"
        )
    )


CLAIMS = [
    Claim(
        "0 on top; then 1 2; then 3 4 5 (the 4 is a\n  Deben square); and 6 7 8 10 at the bottom "
        "(the 10 is an extra-card square)",
        lambda: (
            _rows(LEFT) == [["0"], ["1", "2"], ["3", "4D", "5"], ["6", "7", "8", "10X"]]
            and _levels_are_the_rows()
        ),
    ),
    Claim(
        "0 1 2 / 3 4 5 / 6 7 8 (the 5 is a Deben square)",
        lambda: _rows(RIGHT) == [["0", "1", "2"], ["3", "4", "5D"], ["6", "7", "8"]],
    ),
    Claim(
        "Green holds the 0, Red the 1 and Blue the 4",
        lambda: (
            (_holds(LEVELS, "green"), _holds(LEVELS, "red"), _holds(LEVELS, "blue"))
            == ([0], [1], [4])
        ),
    ),
    Claim(
        "Black is to play, with 8 Deben",
        lambda: (lambda s: s.turn_player == seat(s, "black") and s.deben[seat(s, "black")] == 8)(
            position(LEVELS)
        ),
    ),
    Claim(
        "Black places on the 6",
        lambda: (
            LEFT.squares[6].value == 6
            and not is_open(LEVELS, "akhet_aton", "place akhet_aton.left#6")
        ),
    ),
    Claim(
        "Try the 10 too: it is the highest\nbid and an extra-card square, but Black cannot pay it",
        lambda: (
            _square(LEFT, 10).symbol == R.EXTRA
            and _square(LEFT, 10).value == max(sq.value for sq in LEFT.squares)
            and position(LEVELS).deben[seat(position(LEVELS), "black")] < 10
        ),
    ),
    Claim(
        "Red holds the 0, Blue the 3 and Black the 4",
        lambda: (
            (_holds(LINE, "red"), _holds(LINE, "blue"), _holds(LINE, "black")) == ([0], [3], [4])
        ),
    ),
    Claim(
        "Green places on the 7 instead, which completes no line",
        lambda: (
            RIGHT.squares[7].value == 7 and is_open(LINE, "akhet_aton", "place akhet_aton.right#7")
        ),
    ),
    Claim(
        "After Green's 7, the middle column needs only the 1",
        lambda: (1, 4, 7) in RIGHT.groups and 1 in _closing_after_the_7(),
    ),
    Claim(
        "The 10 on the left stall is an extra-card square; the 4 on the left and the 5 on the right"
        "\n  are Deben squares",
        lambda: (
            _square(LEFT, 10).symbol == R.EXTRA
            and _square(LEFT, 4).symbol == R.DEBEN
            and _square(RIGHT, 5).symbol == R.DEBEN
        ),
    ),
]


# ---------------------------------------------------------------- numbers written as words
def _four_levels() -> bool:
    assert F.market_rule("akhet_aton", "left") == R.ALL_LEVELS and F.rows("akhet_aton", "left") == 4
    # one servant on each level closes it; a level left empty keeps it open (R3.3)
    return F.shape_closes("akhet_aton", "left", 0, 1, 3, 6) and not F.shape_closes(
        "akhet_aton", "left", 0, 1, 2, 3, 4, 5
    )


def _three_in_a_line() -> bool:
    assert F.market_rule("akhet_aton", "right") == R.LINE3 and F.rows("akhet_aton", "right") == 3
    return (
        F.shape_closes("akhet_aton", "right", 0, 4, 8)
        and F.shape_closes("akhet_aton", "right", 1, 4, 7)
        and not F.shape_closes("akhet_aton", "right", 0, 1, 4)
    )


def _top_three_levels() -> bool:
    values = F.occupied("akhet-aton-left-levels", "akhet_aton")
    st = R.stall_of(R.AKHET_ATON, R.LEFT)
    levels = {sq.row for sq in st.squares if sq.value in values}
    return values == [0, 1, 4] and levels == {0, 1, 2}


CLAIMS += [
    Claim("a pyramid of four levels", _four_levels),
    Claim("holds at least one servant", _four_levels),
    Claim("a grid of three rows", _three_in_a_line),
    Claim("**three occupied squares in a row", _three_in_a_line),
    Claim("the top three levels are covered", _top_three_levels),
    Claim("## The grid: three in a line", _three_in_a_line),
    Claim("each of its four levels holds a servant", _four_levels),
    Claim("closes when three occupied squares form a row", _three_in_a_line),
]
