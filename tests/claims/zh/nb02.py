"""The numbers of tutorials/zh/02-closing-a-market.ipynb, checked against the engine with the
English notebook's checks (tests/claims/nb02.py). Chinese says "a card" with the number one
(一张牌), so the settling's "one gift" and "one card" are claims here too."""

from __future__ import annotations

from claims import Claim
from claims._firstgame import bids_total
from claims.engine import position
from claims.nb02 import _abou_simbel_left_closing_totals, _two_lower_cards
from claims.zh.nb06 import _others_buy_one

CANNOT_PAY = ("cannot-pay", "place abou_simbel.left#5")


def _discards_one_gift() -> bool:
    """A highest bidder who cannot pay chooses one gift to throw away, and loses exactly one
    card (R6.3)."""
    closed = position(*CANNOT_PAY)
    red = closed.decider
    options = [closed.option_text(o) for o in closed.legal_options()]
    if not options or not all(o.startswith("discard ") for o in options):
        return False
    after = position(*CANNOT_PAY, options[0])
    return sum(closed.gifts[red]) - sum(after.gifts[red]) == 1


CLAIMS = [
    Claim("出价加起来是 6", lambda: bids_total("closing-step-by-step", "abou_simbel") == 6),
    Claim(
        "总和恰好为 11、恰好为 14，或达到 17 及以上时，它就关闭",
        _abou_simbel_left_closing_totals,
    ),
    Claim("拿下排的两张牌", _two_lower_cards),
    Claim("丢弃自己的一张礼物牌", _discards_one_gift),
    Claim("买下剩下的一张牌", _others_buy_one),
]
