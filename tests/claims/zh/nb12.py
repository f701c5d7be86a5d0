"""Claims of tutorials/zh/12-common-misreadings.ipynb, checked against the engine (R3, R6, R13);
the checks are the English notebook's (tests/claims/nb12.py)."""

from __future__ import annotations

from claims import Claim
from claims._stalls import closes, place, to_play
from claims.nb12 import HIGH, _high_bids, _nothing_touches

CLAIMS = [
    Claim(
        "红方放在 7 上的仆人让 Abou Simbel 的左侧大厅关闭",
        lambda: (
            to_play("abou-simbel-left-sums", "red")
            and closes("abou-simbel-left-sums", "abou_simbel", "the 7")
        ),
    ),
    Claim("有 4、6 和 7 的出价，合计已经 17", _high_bids),
    Claim("没有 4 个连在一起", _nothing_touches),
    Claim("绿方把她的仆人放在 5 上", lambda: bool(place(HIGH, "gizeh", "the 5"))),
    Claim(
        "改把绿方的仆人放在 1 上",
        lambda: bool(place(HIGH, "gizeh", "the 1")) and not closes(HIGH, "gizeh", "the 1"),
    ),
]
