"""Claims of tutorials/zh/09-closing-abou-simbel.ipynb: the English notebook's checks
(``claims.nb09``), each quoted with the Chinese phrase that states the same number."""

from __future__ import annotations

from claims import nb09, translated

CLAIMS = translated(
    nb09,
    {
        "exactly 11, exactly 14, or 17 and more": "恰好为 11、恰好为 14，或达到 17 及以上",
        "12, 13, 15 or 16 leaves it open": "总和为 12、13、15 或 16 时仍然开放",
        "it closes at 17 or more. Its 12 is an extra-card square": "达到 17 或以上时关闭。它的 12 是“额外牌”方块",
        "the Deben 2 and the plain 2, the first 1 and the second 1": "银币方块的 2 和普通的 2，第一个 1 和第二个 1",
        "14 closes, 15 does not": "14 关闭，15 不关闭",
        "Green holds the plain 2 and Blue the 5, so the bids add up to 7": "绿方占着普通的 2，蓝方占着 5，所以出价合计为 7",
        "click the 8 and read what happens": "点击 8，看看会发生什么",
        "and click the 7": "再点击 7",
        "11 closes too, and so does anything from 17": "11 也关闭，17 及以上同样关闭",
        "Green holds the plain 2 and Blue the 8, so 10 is on the stall": "绿方占着普通的 2，蓝方占着 8，所以大厅上已有 10",
        "Red puts a servant on the first 1": "红方把一个仆人放在第一个 1 上",
        "Red takes the 7 instead: the sum jumps past 14 to 17": "红方改放 7：总和越过 14，一下子到了 17",
        "Right stall: 17 or more": "右侧大厅：17 或以上",
        "Red holds the first 2 and Blue the 6: 8 in all": "红方占着第一个 2，蓝方占着 6：合计 8",
        "Green puts her servant on the 7": "绿方把她的仆人放在 7 上",
        "only the 12 reaches 17 in one step": "只有 12 能一步达到 17",
        "she has 8 Deben": "她有 8 Deben",
        "put Green's servant on the 12": "把绿方的仆人放在 12 上",
        "closes at 17 or more (R3.6); the 12 there carries the extra card": "达到 17 或以上时关闭（R3.6）；那里的 12 带有额外牌",
        "of two equal bids, the one on the lower row goes first": (
            "下面一行的先结算（这是本项目的解读：规则书没有规定），同一行的则靠右的先结算",
            "相同的出价先结算下面一行的（本项目的解读），同一行再从右到左",
        ),
    },
)
