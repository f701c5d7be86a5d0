"""Claims of tutorials/zh/14-what-if-explorer.ipynb: the English notebook's checks
(``claims.nb14``), each quoted with the Chinese phrase that states the same number."""

from __future__ import annotations

from claims import nb14, translated

CLAIMS = translated(
    nb14,
    {
        "where the bids add up to 7": "那里的出价合计为 7",
        "Red's 7 would make\nexactly 14 and close the market": "红方放 7 会让总和恰好为 14 并关闭市场",
        "the 8 would make 15, which closes nothing": "放 8 会让总和为 15，什么也不会关闭",
        "closes the market with her 7": "用她的 7 关闭市场",
        "where Red plays\nthe 8 instead": "红方这次改放 8",
        "place on the 3 with": (
            "把一个仆人放在左侧大厅的 3 上",
            "在什么都不固定的情况下放在 3 上",
        ),
        "the values 2, 3 and 7 are occupied": "数值 2、3 和 7 被占",
        "4/36": "4/36",
        "fixed at 3 and 2 before Green places, which closes the\nstall": "骰子被固定为 3 和 2，让大厅关闭",
        "at 5 and 6, which does not": "固定为 5 和 6，大厅不关闭",
        "differ by the 2 that Red owed her": "相差的正是红方欠她的那 2 Deben",
        "with 400 rolls one standard\nerror is about 1.6 percentage points": "掷 400 次时，一个标准误差约为 1.6 个百分点",
        "with 95% intervals": "带 95% 区间",
        "that the two dice then close the stall": "两颗骰子",
        "among the bottom five": "最下面 5 张",
        "a gap of two or three points is ordinary luck": "相差两三个百分点只是平常的运气",
    },
)
