"""The numbers of tutorials/de/02-closing-a-market.ipynb, checked against the engine with the
English notebook's checks."""

from __future__ import annotations

from claims import Claim
from claims._firstgame import bids_total
from claims.nb02 import _abou_simbel_left_closing_totals, _two_lower_cards

CLAIMS = [
    Claim(
        "ergeben zusammen 6",
        lambda: bids_total("closing-step-by-step", "abou_simbel") == 6,
    ),
    Claim("bei genau 11, genau 14 oder 17 und mehr", _abou_simbel_left_closing_totals),
    Claim("nimmt zwei untere Karten", _two_lower_cards),
]
