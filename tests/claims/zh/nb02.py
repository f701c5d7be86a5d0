"""Claims of tutorials/zh/02-closing-a-market.ipynb: the English notebook's checks
(``claims.nb02``), each quoted with the Chinese phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

from claims import Claim, nb02, translated
from claims import _facts as F
from claims.engine import position

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


CLAIMS = translated(
    nb02,
    {
        "add up to 6": "出价加起来是 6",
        "closes at exactly 11, exactly 14, or 17 and more": "总和恰好为 11、恰好为 14，或达到 17 及以上时，它就关闭",
        "takes two lower cards": "拿下排的两张牌",
    },
    extra=[
        Claim("丢弃自己的一张礼物牌", _discards_one_gift),
        Claim("买下剩下的一张牌", F.others_buy_one),
    ],
)
