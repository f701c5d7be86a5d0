"""Claims of tutorials/zh/10-closing-louqsor.ipynb: the English notebook's checks
(``claims.nb10``), each quoted with the Chinese phrase that states the same number."""

from __future__ import annotations

from claims import nb10, translated

CLAIMS = translated(
    nb10,
    {
        "**two dice**": "两颗骰子",
        "**one die**": "一颗骰子",
        "the 5 and the 6 count as neighbours": "5 和 6 虽然不在同一行，也算相邻",
        "Red holds the 2, Blue the 7, and Green is to play": "红方占着 2，蓝方占着 7，轮到绿方",
        "No die ever shows a 7": (
            "骰子永远掷不出 7",
            "但骰子掷不出 7",
        ),
        "click the 3": (
            "绿方放在 3 上",
            "点击 3",
        ),
        "how many of the 36 are they": "在 36 种结果中有多少种",
        "Green holds the 3, Red the 4, Blue the 8; Black is to play": "绿方占着 3，红方占着 4，蓝方占着 8；轮到黑方",
        "the die is fixed to show 4": "骰子固定掷出 4",
        "Black places on the 5": "黑方放在 5 上",
        "placed on Louqsor's 3 and rolled a 5 and a 3": "在 Louqsor 的 3 上放了仆人，掷出 5 和 3",
        "the lesson fixes the dice at 2 and 3": "课程把骰子固定为 2 和 3",
        "With k of the numbers 1 to 6 taken, k×k rolls of 36 close it; the 7 may be taken": "1 到 6 中有 k 个数值被占时，36 种结果中有 k×k 种让它关闭；7 可以被占",
        "buys just\none card": "在那里出价最高者只能买下一张牌",
    },
)
