"""Claims of tutorials/zh/07-closing-gizeh.ipynb: the English notebook's checks (``claims.nb07``),
each quoted with the Chinese phrase that states the same number, and the checks of its own
(``extra``)."""

from __future__ import annotations

from claims import Claim, nb07, translated
from claims.engine import is_open, position
from claims.nb07 import LEFT, RIGHT, _examples_connect, _mask, _neighbours, _rows
from nefertiti_core.engine import rules as R

CONNECTED, HIGH_BIDS = "gizeh-left-connected", "gizeh-left-high-bids"
COLOURS, TWO_COLOURS = "gizeh-right-colours", "gizeh-right-two-colours"


def _closing_squares(name: str, side: str, *steps: str) -> list[int]:
    """The free squares (by index) of Gizeh's ``side`` stall that close it after ``steps``."""
    owners = position(name, *steps).owners[R.GIZEH]
    return [
        i
        for i, owner in enumerate(owners)
        if owner < 0 and not is_open(name, "gizeh", *steps, f"place gizeh.{side}#{i}")
    ]


def _four_or_more_touching() -> bool:
    """Four touching squares close the pyramid, five do too, three never (R3.1)."""
    chain = (1, 3, 4, 5, 7)
    return (
        _examples_connect()
        and R.closes_by_shape(LEFT, _mask(*chain))
        and not any(R.closes_by_shape(LEFT, _mask(*three)) for three in [(1, 3, 5), (4, 5, 7)])
    )


def _groups_of_four_from_the_chain() -> bool:
    """From the chain 1-3-5 several free squares close the pyramid, each making a group of
    four touching squares."""
    closing = _closing_squares(CONNECTED, "left")
    values = [LEFT.squares[i].value for i in closing]
    return len(values) > 1 and all(R.closes_by_shape(LEFT, _mask(1, 3, 5, v)) for v in values)


def _only_the_5_touching_all_three() -> bool:
    closing = _closing_squares(HIGH_BIDS, "left")
    return [LEFT.squares[i].value for i in closing] == [5] and _neighbours(5) >= {4, 6, 7}


def _none_of_the_three_touch() -> bool:
    held = {4, 6, 7}
    return is_open(HIGH_BIDS, "gizeh") and all(not (_neighbours(v) & held) for v in held)


def _colours_or_servants() -> bool:
    """With a red and a blue servant on the right stall a third colour closes it anywhere; a
    second red one leaves it open (3 servants, 2 colours), and the fourth servant closes it."""
    free = [i for i, o in enumerate(position(COLOURS).owners[R.GIZEH]) if o < 0]
    after_red = "place gizeh.right#1"
    return (
        _closing_squares(COLOURS, "right") == free
        and is_open(TWO_COLOURS, "gizeh", after_red)
        and _closing_squares(TWO_COLOURS, "right", after_red) == [i for i in free if i != 1]
    )


def _same_two_servants() -> bool:
    colours = position(COLOURS)
    two = position(TWO_COLOURS)
    on_stall = [o for o in two.owners[R.GIZEH] if o >= 0]
    return two.owners[R.GIZEH] == colours.owners[R.GIZEH] and sorted(
        two.colours[o] for o in on_stall
    ) == ["blue", "red"]


CLAIMS = translated(
    nb07,
    {
        "1 at the top, then 2 3, then\n  4 5 6 (the 4 is a Deben square), and 7 at the bottom, "
        "under the 5": "最上面是 1，下面是 2 3，再下面是 4 5 6（4 是银币方块），最下面是 7，在 5 的正下方",
        "1 2 3 4 over 5 6 7 8 (the 4 is a Deben square)": "上行 1 2 3 4，下行 5 6 7 8（4 是银币方块）",
        "1-3-4-5 and 2-4-5-7": (
            "两个相连的例子 1-3-4-5 和 2-4-5-7",
            "两个例子都能连上",
        ),
        "hold the 1, the 3 and the 5": "占着 1、3 和 5：连成一串，共 3 个",
        "Green places on the 4, the Deben square": "绿方放在 4 上，也就是银币方块",
        "on the 4, the 6 and the 7: bids of 17 in all": "站在 4、6 和 7 上：出价一共 17",
        "places on the 1, and the bids reach 18": "绿方放在 1 上，出价达到 18",
    },
    extra=[
        Claim("它的两个大厅", lambda: len(R.STALLS) == 2 * len(R.MARKETS)),
        Claim("4 个被占的方块彼此相连", _four_or_more_touching),
        Claim("右侧大厅，两行", lambda: len(_rows(RIGHT)) == 2),
        Claim("**3 种不同颜色**的仆人，或者有 **4 个仆人**", _colours_or_servants),
        Claim("金字塔：4 个相连", _four_or_more_touching),
        Claim("凑成 4 个相连的一组", _groups_of_four_from_the_chain),
        Claim("这 3 个仆人彼此都不相邻", _none_of_the_three_touch),
        Claim("唯一能让绿方关闭市场的方块（它与 3 个仆人都相邻）", _only_the_5_touching_all_three),
        Claim("3 种颜色或 4 个仆人", _colours_or_servants),
        Claim("红方和蓝方各一个仆人", _same_two_servants),
        Claim("这里是 3 人游戏", lambda: len(position(COLOURS).colours) == 3),
        Claim("同样的两个仆人", _same_two_servants),
        Claim("4 个或更多被占的方块彼此相连", _four_or_more_touching),
        Claim("有 3 种颜色的仆人，或者有 4 个仆人", _colours_or_servants),
    ],
)
