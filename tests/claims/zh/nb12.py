"""Claims of tutorials/zh/12-common-misreadings.ipynb: the English notebook's checks
(``claims.nb12``), each quoted with the Chinese phrase that states the same number."""

from __future__ import annotations

from claims import nb12, translated

CLAIMS = translated(
    nb12,
    {
        "Red's servant on the 7 closes Abou Simbel's left stall": "红方放在 7 上的仆人让 Abou Simbel 的左侧大厅关闭",
        "holds bids of 4, 6 and 7, already 17": "有 4、6 和 7 的出价，合计已经 17",
        "no 4 taken squares touch": "没有 4 个连在一起",
        "Green puts her servant on the 5": "绿方把她的仆人放在 5 上",
        "put Green's servant on the 1 instead": "改把绿方的仆人放在 1 上",
    },
)
