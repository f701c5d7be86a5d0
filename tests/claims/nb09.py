"""Claims of tutorials/09-closing-abou-simbel.ipynb, checked against the engine (R3.5, R3.6)."""

from __future__ import annotations

from claims import Claim
from claims._stalls import bid_sum, closes, holds, index, place, stall, to_play, totals
from claims.engine import deben, position
from nefertiti_core.engine import rules as R
from nefertiti_core.teaching.status import stall_status

LEFT, RIGHT = R.LEFT, R.RIGHT
SUMS, ELEVEN, SEVENTEEN = "abou-simbel-left-sums", "abou-simbel-left-eleven", "abou-simbel-right-17"


def _left_rule() -> bool:
    close, stay = totals("abou_simbel", LEFT)
    assert {11, 14} <= close and {12, 13, 15, 16} <= stay, (close, stay)
    assert all(t in close for t in close | stay if t >= 17), "every sum from 17 closes"
    assert {t for t in close if t < 17} == {11, 14}, "only 11 and 14 below 17"
    return True


def _right_rule() -> bool:
    close, stay = totals("abou_simbel", RIGHT)
    return min(close) == 17 and max(stay) == 16


def _twelve_extra() -> bool:
    st = R.stall_of(R.ABOU_SIMBEL, RIGHT)
    return st.squares[index(st, "the 12")].symbol == R.EXTRA


def _names() -> bool:
    st = R.stall_of(R.ABOU_SIMBEL, LEFT)
    for name in ("the Deben 2", "the plain 2", "the first 1", "the second 1"):
        index(st, name)
    return st.squares[index(st, "the Deben 2")].symbol == R.DEBEN


def _fourteen_not_fifteen() -> bool:
    assert bid_sum(SUMS, "abou_simbel") + 7 == 14 and bid_sum(SUMS, "abou_simbel") + 8 == 15
    return closes(SUMS, "abou_simbel", "the 7") and not closes(SUMS, "abou_simbel", "the 8")


def _only_twelve() -> bool:
    status = stall_status(position(SEVENTEEN), "abou_simbel")
    st = stall(SEVENTEEN, "abou_simbel")
    assert bid_sum(SEVENTEEN, "abou_simbel") + 12 >= 17 > bid_sum(SEVENTEEN, "abou_simbel") + 7
    return status.would_close == (index(st, "the 12"),)


def _cannot_pay_twelve() -> bool:
    place(SEVENTEEN, "abou_simbel", "the 12")
    return deben(SEVENTEEN, "green") < 12


CLAIMS = [
    Claim("exactly 11, exactly 14, or 17 and more", _left_rule),
    Claim("12, 13, 15 or 16 leaves it open", _left_rule),
    Claim(
        "it closes at 17 or more. Its 12 is an extra-card square",
        lambda: _right_rule() and _twelve_extra(),
    ),
    Claim("the Deben 2 and the plain 2, the first 1 and the second 1", _names),
    Claim("14 closes, 15 does not", _fourteen_not_fifteen),
    Claim(
        "Green holds the plain 2 and Blue the 5, so the bids add up to 7",
        lambda: (
            holds(SUMS, "abou_simbel", "green", "the plain 2")
            and holds(SUMS, "abou_simbel", "blue", "the 5")
            and bid_sum(SUMS, "abou_simbel") == 7
            and to_play(SUMS, "red")
        ),
    ),
    Claim("click the 8 and read what happens", lambda: bool(place(SUMS, "abou_simbel", "the 8"))),
    Claim("and click the 7", _fourteen_not_fifteen),
    Claim("11 closes too, and so does anything from 17", _left_rule),
    Claim(
        "Green holds the plain 2 and Blue the 8, so 10 is on the stall",
        lambda: (
            holds(ELEVEN, "abou_simbel", "green", "the plain 2")
            and holds(ELEVEN, "abou_simbel", "blue", "the 8")
            and bid_sum(ELEVEN, "abou_simbel") == 10
            and to_play(ELEVEN, "red")
        ),
    ),
    Claim(
        "Red puts a servant on the first 1",
        lambda: bool(place(ELEVEN, "abou_simbel", "the first 1")),
    ),
    Claim(
        "Red takes the 7 instead: the sum jumps past 14 to 17",
        lambda: (
            bool(place(ELEVEN, "abou_simbel", "the 7")) and bid_sum(ELEVEN, "abou_simbel") + 7 == 17
        ),
    ),
    Claim("Right stall: 17 or more", _right_rule),
    Claim(
        "Red holds the first 2 and Blue the 6: 8 in all",
        lambda: (
            holds(SEVENTEEN, "abou_simbel", "red", "the first 2")
            and holds(SEVENTEEN, "abou_simbel", "blue", "the 6")
            and bid_sum(SEVENTEEN, "abou_simbel") == 8
            and to_play(SEVENTEEN, "green")
        ),
    ),
    Claim(
        "Green puts her servant on the 7",
        lambda: bool(place(SEVENTEEN, "abou_simbel", "the 7")),
    ),
    Claim("only the 12 reaches 17 in one step", _only_twelve),
    Claim("she has 8 Deben", lambda: deben(SEVENTEEN, "green") == 8),
    Claim("put Green's servant on the 12", _cannot_pay_twelve),
    Claim(
        "closes at 17 or more (R3.6); the 12 there carries the extra card",
        lambda: _right_rule() and _twelve_extra(),
    ),
]


# ---------------------------------------------------------------- numbers written as words
def _the_one_market_on_sums() -> bool:
    by_sum = {R.MARKETS[st.market] for st in R.STALLS if st.rule in (R.SUM_11_14_17, R.SUM_17)}
    return by_sum == {"abou_simbel"}


def _equal_bids_lower_row_first() -> bool:
    """Of two equal bids, the one on the lower row is settled first (R6.1, R3.9)."""
    for st in R.STALLS:
        order = R.resolution_order(st)
        for a, b in zip(order, order[1:], strict=False):
            sa, sb = st.squares[a], st.squares[b]
            if sa.value == sb.value:
                assert sa.row > sb.row or (sa.row == sb.row and sa.col > sb.col), (st, a, b)
    return True


CLAIMS += [
    Claim("Abou Simbel is the one market that closes on the", _the_one_market_on_sums),
    Claim("of two equal bids, the one on the lower row goes first", _equal_bids_lower_row_first),
]
