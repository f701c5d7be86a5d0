"""The numbers of tutorials/02-closing-a-market.ipynb, checked against the engine."""

from __future__ import annotations

import re

from nefertiti_core.engine import rules as R

from . import Claim
from ._firstgame import bids_total, decider, option_texts


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


def _two_lower_cards() -> bool:
    """Green, the highest bidder on a plain square, may take two lower cards (never three), or
    the upper card (R6.2)."""
    closed = ("closing-step-by-step", "place abou_simbel.left#4")
    assert decider(*closed) == "green"
    takes = [o for o in option_texts(*closed) if o.startswith("take ")]
    lowers = {len(re.findall(r"lower\d", o)) for o in takes if "upper" not in o}
    assert lowers == {2}, takes
    assert "take upper" in takes, takes
    return True


CLAIMS = [
    Claim(
        "add up to 6",
        lambda: bids_total("closing-step-by-step", "abou_simbel") == 6,
    ),
    Claim("closes at exactly 11, exactly 14, or 17 and more", _abou_simbel_left_closing_totals),
    Claim("takes two lower cards", _two_lower_cards),
]
