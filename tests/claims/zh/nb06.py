"""Claims of tutorials/zh/06-markets-and-special-squares.ipynb: the English notebook's checks
(``claims.nb06``), each quoted with the Chinese phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

from claims import Claim, nb06, translated
from claims import _in_words as W

CLAIMS = translated(
    nb06,
    {
        "The board has four markets": "4 个市场",
        "Each has **two stalls**": "两个大厅",
        "Three marks change what a square does": "有 3 种标志",
        "it buys only one card (R6.2)": "只能买 1 张牌",
        "it buys one card more (R6.2)": "可以多买 1 张牌",
        "Here are all eight stalls": "全部 8 个大厅",
        "its reserve holds 3 Deben; the other reserves hold 1\neach": "它的储备有 3 Deben；其他储备各有 1 Deben",
        "the Deben 2": "银币方块 2",
        "the 4 on Gizeh's left stall, another Deben square on an empty stall,\nwhose reserve "
        "holds only 1 Deben": "Gizeh 左侧大厅的 4 比较一下：那也是空大厅上的银币方块，但它的储备只有 1 Deben",
        "takes **either two lower cards or the upper card": "下排的两张牌",
        "all three lower cards": "下排全部 3 张牌，或者上排带印章的牌再加 1 张下排的牌",
        "the first 2 of Abou Simbel's right stall, Blue's on the 6": "右侧大厅的第一个 2 上，蓝方的站在 6 上",
        "close the market with the 12, an extra-card square": "用 12 关闭这个市场，12 是“额外牌”方块",
        "place on the 12": "放在 12 上",
        "takes **exactly one card**": "只拿 1 张牌",
        "Louqsor's squares 1 to 4 on the left\nstall and 2 to 5 on the right": "Louqsor 左侧大厅的 1 到 4 和右侧大厅的 2 到 5",
        "on Louqsor's 1, Blue's on the 3. Green places on the 2": "站在 Louqsor 的 1 上，蓝方的站在 3 上。绿方放在 2 上",
        "Blue's 3 is the highest bid": "蓝方的 3 是最高出价",
        "the bids add up to 7, and Red's servant on the 7 makes exactly 14": "出价加起来是 7，红方放在 7 上的仆人让总和恰好为 14",
        "The 7 carries no mark": "这个 7 没有标志",
        "each buy at most one card": "最多买 1 张牌",
    },
    extra=[
        Claim("立即从储备拿 1 Deben", W.arrival_and_deben_square),
        Claim("从这个市场的储备拿 1 Deben", W.arrival_and_deben_square),
        Claim("也拿 1 Deben", W.arrival_and_deben_square),
        Claim("两者可以同时发生", W.arrival_and_deben_square),
        Claim("各从储备拿 1 Deben", W.arrival_and_deben_square),
    ],
)
