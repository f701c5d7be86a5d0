"""Claims of tutorials/zh/09-closing-abou-simbel.ipynb, checked against the engine (R3.5, R3.6);
the checks are the English notebook's (tests/claims/nb09.py)."""

from __future__ import annotations

from claims import Claim
from claims._stalls import bid_sum, holds, place, to_play
from claims.engine import deben
from claims.nb09 import (
    ELEVEN,
    SEVENTEEN,
    SUMS,
    _cannot_pay_twelve,
    _fourteen_not_fifteen,
    _left_rule,
    _names,
    _only_twelve,
    _right_rule,
    _twelve_extra,
)
from nefertiti_core.engine import rules as R


def _ties() -> bool:
    """Equal bids on Abou Simbel's stalls are settled lower row first, and on one row the square
    further right first (R3.9: the engine's settling order)."""
    for side in (R.LEFT, R.RIGHT):
        stall = R.stall_of(R.ABOU_SIMBEL, side)
        order = [stall.squares[i] for i in R.RESOLUTION_ORDER[stall.id]]
        for k, first in enumerate(order):
            for later in order[k + 1 :]:
                if first.value == later.value:
                    assert (first.row, first.col) > (later.row, later.col), (first, later)
    return True


CLAIMS = [
    Claim("恰好为 11、恰好为 14，或达到 17 及以上", _left_rule),
    Claim("总和为 12、13、15 或 16 时仍然开放", _left_rule),
    Claim(
        "达到 17 或以上时关闭。它的 12 是“额外牌”方块",
        lambda: _right_rule() and _twelve_extra(),
    ),
    Claim("银币方块的 2 和普通的 2，第一个 1 和第二个 1", _names),
    Claim("14 关闭，15 不关闭", _fourteen_not_fifteen),
    Claim(
        "绿方占着普通的 2，蓝方占着 5，所以出价合计为 7",
        lambda: (
            holds(SUMS, "abou_simbel", "green", "the plain 2")
            and holds(SUMS, "abou_simbel", "blue", "the 5")
            and bid_sum(SUMS, "abou_simbel") == 7
            and to_play(SUMS, "red")
        ),
    ),
    Claim("点击 8，看看会发生什么", lambda: bool(place(SUMS, "abou_simbel", "the 8"))),
    Claim("再点击 7", _fourteen_not_fifteen),
    Claim("11 也关闭，17 及以上同样关闭", _left_rule),
    Claim(
        "绿方占着普通的 2，蓝方占着 8，所以大厅上已有 10",
        lambda: (
            holds(ELEVEN, "abou_simbel", "green", "the plain 2")
            and holds(ELEVEN, "abou_simbel", "blue", "the 8")
            and bid_sum(ELEVEN, "abou_simbel") == 10
            and to_play(ELEVEN, "red")
        ),
    ),
    Claim(
        "红方把一个仆人放在第一个 1 上",
        lambda: bool(place(ELEVEN, "abou_simbel", "the first 1")),
    ),
    Claim(
        "红方改放 7：总和越过 14，一下子到了 17",
        lambda: (
            bool(place(ELEVEN, "abou_simbel", "the 7")) and bid_sum(ELEVEN, "abou_simbel") + 7 == 17
        ),
    ),
    Claim("右侧大厅：17 或以上", _right_rule),
    Claim(
        "红方占着第一个 2，蓝方占着 6：合计 8",
        lambda: (
            holds(SEVENTEEN, "abou_simbel", "red", "the first 2")
            and holds(SEVENTEEN, "abou_simbel", "blue", "the 6")
            and bid_sum(SEVENTEEN, "abou_simbel") == 8
            and to_play(SEVENTEEN, "green")
        ),
    ),
    Claim("绿方把她的仆人放在 7 上", lambda: bool(place(SEVENTEEN, "abou_simbel", "the 7"))),
    Claim("只有 12 能一步达到 17", _only_twelve),
    Claim("她有 8 Deben", lambda: deben(SEVENTEEN, "green") == 8),
    Claim("把绿方的仆人放在 12 上", _cannot_pay_twelve),
    Claim(
        "达到 17 或以上时关闭（R3.6）；那里的 12 带有额外牌",
        lambda: _right_rule() and _twelve_extra(),
    ),
    Claim(
        "下面一行的先结算（这是本项目的解读：规则书没有规定），同一行的则靠右的先结算",
        _ties,
    ),
    Claim("相同的出价先结算下面一行的（本项目的解读），同一行再从右到左", _ties),
]
