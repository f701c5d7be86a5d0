"""Claims of tutorials/07-closing-gizeh.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
from claims import _facts as F
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


# ---------------------------------------------------------------- numbers written as words
def _chain_of_three() -> bool:
    assert F.occupied("gizeh-left-connected", "gizeh") == [1, 3, 5]
    return not F.shape_closes("gizeh", "left", 1, 3, 5)


def _none_of_the_three_touches() -> bool:
    values = F.occupied("gizeh-left-high-bids", "gizeh")
    assert values == [4, 6, 7], values
    st = R.stall_of(R.GIZEH, R.LEFT)
    sizes = R.connected_component_sizes(st, F.mask("gizeh", "left", *values))
    return sorted(sizes) == [1, 1, 1]


def _the_one_square_for_green() -> bool:
    """Exactly one free square closes it: the one touching all three servants (R3.1)."""
    state = position("gizeh-left-high-bids")
    closing = [
        o
        for o in state.legal_options()
        if state.option_text(o).startswith("place gizeh.")
        and not is_open("gizeh-left-high-bids", "gizeh", state.option_text(o))
    ]
    return len(closing) == 1


def _three_players_red_and_blue() -> bool:
    state = position("gizeh-right-colours")
    colours = sorted(state.colours[o] for o in state.square_owners(R.GIZEH) if o >= 0)
    return len(state.colours) == 3 and colours == ["blue", "red"]


def _same_two_servants() -> bool:
    state = position("gizeh-right-two-colours")
    return sum(o >= 0 for o in state.square_owners(R.GIZEH)) == 2


CLAIMS += [
    Claim("Its two stalls:", F.two_stalls),
    Claim("It closes as soon as **four", F.gizeh_left_needs_four),
    Claim("**Right stall, two rows**", F.gizeh_right_three_colours_or_four),
    Claim("**three different colours**, or **four servants**", F.gizeh_right_three_colours_or_four),
    Claim("gives two examples of a group, 1-3-4-5 and 2-4-5-7", F.gizeh_left_needs_four),
    Claim("## The pyramid: four that touch", F.gizeh_left_needs_four),
    Claim("a chain of three", _chain_of_three),
    Claim("a group of four?", F.gizeh_left_needs_four),
    Claim("none of the three touches another", _none_of_the_three_touches),
    Claim("find the one square that closes it for Green", _the_one_square_for_green),
    Claim("all three servants", _none_of_the_three_touches),
    Claim("three colours or four servants", F.gizeh_right_three_colours_or_four),
    Claim("Three players here. A red and a blue servant", _three_players_red_and_blue),
    Claim("same two servants", _same_two_servants),
    Claim("closes when four or more occupied squares touch", F.gizeh_left_needs_four),
    Claim("servants of three colours, or with four servants", F.gizeh_right_three_colours_or_four),
]
