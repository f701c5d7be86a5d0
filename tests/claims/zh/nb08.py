"""Claims of tutorials/zh/08-closing-akhet-aton.ipynb: the English notebook's checks
(``claims.nb08``), each quoted with the Chinese phrase that states the same number."""

from __future__ import annotations

from claims import nb08, translated

CLAIMS = translated(
    nb08,
    {
        "a pyramid of four levels": "4 层的金字塔",
        "0 on top; then 1 2; then 3 4 5 (the 4 is a\n  Deben square); and 6 7 8 10 at the bottom "
        "(the 10 is an extra-card square)": "最上面是 0；然后是 1 2；然后是 3 4 5（4 是银币方块）；最下面是 6 7 8 10（10 是“额外牌”方块）",
        "holds at least one servant": "每一层都至少有一个仆人",
        "a grid of three rows": "3 行的方阵",
        "0 1 2 / 3 4 5 / 6 7 8 (the 5 is a Deben square)": "0 1 2 / 3 4 5 / 6 7 8（5 是银币方块）",
        "**three occupied squares in a row": "3 个被占的方块连成一行、一列或一条对角线",
        "Green holds the 0, Red the 1 and Blue the 4": "绿方占着 0，红方占着 1，蓝方占着 4",
        "the top three levels are covered": "上面 3 层都有人了",
        "Black is to play, with 8 Deben": "黑方行动，她有 8 Deben",
        "Black places on the 6": "黑方放在 6 上",
        "Try the 10 too: it is the highest\nbid and an extra-card square, but Black cannot pay it": "也试试 10：它是最高出价，又是“额外牌”方块，但黑方付不起",
        "## The grid: three in a line": "方阵：3 个连成一线",
        "Red holds the 0, Blue the 3 and Black the 4": "红方占着 0，蓝方占着 3，黑方占着 4",
        "Green places on the 7 instead, which completes no line": "绿方改放在 7 上，这不能连成任何一条线",
        "After Green's 7, the middle column needs only the 1": "绿方放了 7 之后，中间一列只差 1",
        "each of its four levels holds a servant": "4 层中的每一层都有仆人时关闭",
        "The 10 on the left stall is an extra-card square; the 4 on the left and the 5 on the right"
        "\n  are Deben squares": "左侧大厅的 10 是“额外牌”方块；左侧大厅的 4 和右侧大厅的 5 是银币方块",
    },
)
