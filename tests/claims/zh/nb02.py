"""The numbers of tutorials/zh/02-closing-a-market.ipynb, checked against the engine with the
English notebook's checks (tests/claims/nb02.py)."""

from __future__ import annotations

from claims import Claim
from claims._firstgame import bids_total
from claims.nb02 import _abou_simbel_left_closing_totals, _two_lower_cards

CLAIMS = [
    Claim("出价加起来是 6", lambda: bids_total("closing-step-by-step", "abou_simbel") == 6),
    Claim(
        "总和恰好为 11、恰好为 14，或达到 17 及以上时，它就关闭",
        _abou_simbel_left_closing_totals,
    ),
    Claim("拿下排的两张牌", _two_lower_cards),
]
