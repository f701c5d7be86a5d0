"""The numbers of tutorials/02-closing-a-market.ipynb, checked against the engine."""

from __future__ import annotations

from nefertiti_core.engine import rules as R

from . import Claim
from ._firstgame import bids_total, is_square
from .engine import deben, is_open


def _abou_simbel_left_closing_totals() -> bool:
    """Every set of occupied squares of Abou Simbel's left stall: it closes exactly when the bids
    add up to 11, 14, or 17 and more (R3.5)."""
    stall = R.stall_of(R.ABOU_SIMBEL, R.LEFT)
    closing, open_ = set(), set()
    for mask in range(1, 1 << len(stall.squares)):
        total = sum(sq.value for sq in stall.squares if mask >> sq.index & 1)
        (closing if R.closes_by_shape(stall, mask) else open_).add(total)
    assert not closing & open_, closing & open_
    assert {11, 14} <= closing and {12, 13, 15, 16} <= open_, (closing, open_)
    assert min(t for t in closing if t not in (11, 14)) == 17, closing
    assert all(t < 17 for t in open_), open_
    return True


def _red_cannot_pay() -> bool:
    is_square("cannot-pay", "abou_simbel", 5, 7)
    assert deben("cannot-pay", "red") == 5
    assert not is_open("cannot-pay", "abou_simbel", "place abou_simbel.left#5")
    return True


CLAIMS = [
    Claim(
        "closes at exactly 11, at exactly 14, or at 17 and more",
        _abou_simbel_left_closing_totals,
    ),
    Claim(
        "add up to\n6 now",
        lambda: bids_total("closing-step-by-step", "abou_simbel") == 6,
    ),
    Claim("Red's 7 closes Abou Simbel on this board, but Red has only 5 Deben", _red_cannot_pay),
]
