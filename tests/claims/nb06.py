"""Claims of tutorials/06-markets-and-special-squares.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
from claims import _facts as F
from claims.engine import deben, is_open, position, seat
from nefertiti_core.engine import rules as R

ABOU_LEFT = R.stall_of(R.ABOU_SIMBEL, R.LEFT)
ABOU_RIGHT = R.stall_of(R.ABOU_SIMBEL, R.RIGHT)
GIZEH_LEFT = R.stall_of(R.GIZEH, R.LEFT)


def _square(stall: R.Stall, index: int) -> tuple[int, str]:
    return stall.squares[index].value, stall.squares[index].symbol


def _stands(name: str, market: int, colour: str) -> list[int]:
    """The values of the squares where ``colour``'s servants stand in ``market``."""
    state = position(name)
    stall = state.visible_stall(market)
    owners = state.owners[market]
    return [stall.squares[i].value for i, o in enumerate(owners) if o == seat(state, colour)]


def _bids(name: str, market: int, *steps: str) -> int:
    state = position(name, *steps)
    stall = state.visible_stall(market)
    return sum(sq.value for sq in stall.squares if state.owners[market][sq.index] >= 0)


def _gizeh_four() -> bool:
    state = position("markets-bonuses")
    gain = deben("markets-bonuses", "green", "place gizeh.left#3") - deben(
        "markets-bonuses", "green"
    )
    return (
        _square(GIZEH_LEFT, 3) == (4, R.DEBEN)
        and state.mask[R.GIZEH] == 0
        and state.reserve[R.GIZEH] == 1
        and gain == 1
    )


def _single_values(side: int) -> list[int]:
    stall = R.stall_of(R.LOUQSOR, side)
    return [sq.value for sq in stall.squares if sq.symbol == R.SINGLE]


def _blue_highest() -> bool:
    state = position("single-card", "place louqsor.left#1")
    return state.decider == seat(state, "blue") and _stands("single-card", R.LOUQSOR, "blue") == [3]


CLAIMS = [
    Claim(
        "its reserve holds 3 Deben; the other reserves hold 1\neach",
        lambda: position("markets-bonuses").reserve == [1, 1, 3, 1],
    ),
    Claim("the Deben 2", lambda: _square(ABOU_LEFT, 2) == (2, R.DEBEN)),
    Claim(
        "the 4 on Gizeh's left stall, another Deben square on an empty stall,\nwhose reserve "
        "holds only 1 Deben",
        _gizeh_four,
    ),
    Claim(
        "the first 2 of Abou Simbel's right stall, Blue's on the 6",
        lambda: (
            position("extra-card").owners[R.ABOU_SIMBEL][2] == 1  # red, the first 2
            and _square(ABOU_RIGHT, 2) == (2, R.PLAIN)
            and _stands("extra-card", R.ABOU_SIMBEL, "blue") == [6]
        ),
    ),
    Claim(
        "close the market with the 12, an extra-card square",
        lambda: (
            _square(ABOU_RIGHT, 8) == (12, R.EXTRA)
            and not is_open("extra-card", "abou_simbel", "place abou_simbel.right#8")
        ),
    ),
    Claim("place on the 12", lambda: _square(ABOU_RIGHT, 8)[0] == 12),
    Claim(
        "Louqsor's squares 1 to 4 on the left\nstall and 2 to 5 on the right",
        lambda: _single_values(R.LEFT) == [1, 2, 3, 4] and _single_values(R.RIGHT) == [2, 3, 4, 5],
    ),
    Claim(
        "on Louqsor's 1, Blue's on the 3. Green places on the 2",
        lambda: (
            _stands("single-card", R.LOUQSOR, "red") == [1]
            and _stands("single-card", R.LOUQSOR, "blue") == [3]
            and _stands("single-card", R.LOUQSOR, "green") == []
            and R.stall_of(R.LOUQSOR, R.LEFT).squares[1].value == 2
        ),
    ),
    Claim("Blue's 3 is the highest bid", _blue_highest),
    Claim(
        "the bids add up to 7, and Red's servant on the 7 makes exactly 14",
        lambda: (
            _bids("abou-simbel-left-sums", R.ABOU_SIMBEL) == 7
            and _square(ABOU_LEFT, 5) == (7, R.PLAIN)
            and _bids("abou-simbel-left-sums", R.ABOU_SIMBEL, "place abou_simbel.left#5") == 14
            and not is_open("abou-simbel-left-sums", "abou_simbel", "place abou_simbel.left#5")
        ),
    ),
    Claim("The 7 carries no mark", lambda: _square(ABOU_LEFT, 5) == (7, R.PLAIN)),
]


# ---------------------------------------------------------------- numbers written as words
def _one_market_a_notebook() -> bool:
    """Notebooks 07-10 take one market each, in the board's order."""
    names = [next(F.TUTORIALS.glob(f"{n}-*.ipynb")).stem for n in ("07", "08", "09", "10")]
    markets = [m.replace("_", "-") for m in R.MARKETS]
    return [n.split("closing-")[1] for n in names] == markets


CLAIMS += [
    Claim("The board has four markets", F.four_markets),
    Claim("Each has **two stalls**", F.two_stalls),
    Claim("Three marks change what a square does", F.three_marks),
    Claim("it buys only one card (R6.2)", F.single_deal),
    Claim("it buys one card more (R6.2)", F.extra_deal),
    Claim("Here are all eight stalls", F.eight_stalls),
    Claim("them one market at a time", _one_market_a_notebook),
    Claim("takes **either two lower cards or the upper card", F.normal_deal),
    Claim("all three lower cards", F.extra_deal),
    Claim("plus one", F.extra_deal),
    Claim("takes **exactly one card**", F.single_deal),
    Claim("each buy at most one card", F.others_buy_one),
    Claim("Each market has two stalls", F.two_stalls),
    Claim("on a single-card square: one card only", F.single_deal),
]
