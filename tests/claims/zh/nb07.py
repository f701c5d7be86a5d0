"""Claims of tutorials/zh/07-closing-gizeh.ipynb: the English notebook's checks (``claims.nb07``),
each quoted with the Chinese phrase that states the same number."""

from __future__ import annotations

from claims import nb07, translated

CLAIMS = translated(
    nb07,
    {
        "Its two stalls:": "它的两个大厅",
        "1 at the top, then 2 3, then\n  4 5 6 (the 4 is a Deben square), and 7 at the bottom, "
        "under the 5": "最上面是 1，下面是 2 3，再下面是 4 5 6（4 是银币方块），最下面是 7，在 5 的正下方",
        "It closes as soon as **four": "4 个被占的方块彼此相连",
        (
            "**Right stall, two rows**",
            "1 2 3 4 over 5 6 7 8 (the 4 is a Deben square)",
        ): "右侧大厅，两行",
        "1 2 3 4 over 5 6 7 8 (the 4 is a Deben square)": "上行 1 2 3 4，下行 5 6 7 8（4 是银币方块）",
        "**three different colours**, or **four servants**": "**3 种不同颜色**的仆人，或者有 **4 个仆人**",
        "1-3-4-5 and 2-4-5-7": (
            "两个相连的例子 1-3-4-5 和 2-4-5-7",
            "两个例子都能连上",
        ),
        "## The pyramid: four that touch": "金字塔：4 个相连",
        "hold the 1, the 3 and the 5": "占着 1、3 和 5：连成一串，共 3 个",
        "a group of four?": "凑成 4 个相连的一组",
        "Green places on the 4, the Deben square": "绿方放在 4 上，也就是银币方块",
        "on the 4, the 6 and the 7: bids of 17 in all": "站在 4、6 和 7 上：出价一共 17",
        "none of the three touches another": "这 3 个仆人彼此都不相邻",
        "places on the 1, and the bids reach 18": "绿方放在 1 上，出价达到 18",
        (
            "find the one square that closes it for Green",
            "all three servants",
        ): "唯一能让绿方关闭市场的方块（它与 3 个仆人都相邻）",
        "three colours or four servants": "3 种颜色或 4 个仆人",
        "Three players here. A red and a blue servant": (
            "红方和蓝方各一个仆人",
            "这里是 3 人游戏",
        ),
        "same two servants": "同样的两个仆人",
        "closes when four or more occupied squares touch": "4 个或更多被占的方块彼此相连",
        "servants of three colours, or with four servants": "有 3 种颜色的仆人，或者有 4 个仆人",
    },
)
