"""Claims of tutorials/zh/04-characters.ipynb: the English notebook's checks (``claims.nb04``),
each quoted with the Chinese phrase that states the same number, and the checks of its own
(``extra``)."""

from __future__ import annotations

from claims import Claim, nb04, translated
from claims import _in_words as W
from claims.engine import position, seat


def _holds(name: str, colour: str, *steps: str) -> list[int]:
    state = position(name, *steps)
    return list(state.gifts[seat(state, colour)])


def _one_for_one() -> bool:
    """A swap moves one card each way: Red's harp to Green, Green's statuette to Red (R10.3)."""
    steps = ("recruit merchant", "exchange green:statuette", "give harp")
    red_before, red_after = _holds("merchant", "red"), _holds("merchant", "red", *steps)
    green_before, green_after = _holds("merchant", "green"), _holds("merchant", "green", *steps)
    moved_red = [a - b for a, b in zip(red_after, red_before, strict=True)]
    moved_green = [a - b for a, b in zip(green_after, green_before, strict=True)]
    return moved_red == [-n for n in moved_green] and sorted(moved_red) == [-1] + [0] * 6 + [1]


CLAIMS = translated(
    nb04,
    {
        "3 points": "值 3 分",
        "One\ncharacter per turn": "每回合最多雇佣一个角色",
        ("The 13 character cards", "in seven piles"): "13 张角色牌面朝上，分成 7 叠",
        "2 prestige for every": "得 2 声望分",
        "allows two\nswaps, with two different opponents": "可以交换两次，对象是两个不同的对手",
        "The First Merchant swaps twice, with two": "首席商人交换两次，对象是两个不同的玩家",
        "two servants in one turn": "一个回合放两个仆人",
        "two placements in one turn": (
            "这个回合你放置两次",
            "一个回合放置两次",
        ),
        "Green has three servants on the board and one in hand": "绿方有 3 个仆人在游戏板上，手里还有 1 个",
        "the 8 of Abou Simbel's left stall": "Abou Simbel 左侧大厅的 8",
        "one card from the market under": (
            "从休市的市场拿一张牌",
            "市场拿一张牌",
        ),
        "The Chief takes one card": "免费拿一张牌",
        "with three unsold cards": "上面有 3 张没卖出去的牌",
        "discards one card of it": (
            "人人都要交出一张",
            "都要丢弃一张这种牌",
            "各丢弃一张",
        ),
        "Green owns five chairs; Red and Blue own one each": "绿方有 5 张椅子；红方和蓝方各有 1 张",
        "+3 on top, then +2, +2,\n+1": "最上面是 +3，然后是 +2、+2、+1",
        "counts as two senets": "双 senet 算作两张 senet",
        "Blue owns a double senet and two single senets; Black owns two senets": "蓝方有 1 张双 senet 和 2 张单 senet；黑方有 2 张 senet",
        "The +3 Scribe is gone, so\na +2 lies on top": "+3 的书记员已经不在了，所以最上面是一张 +2",
        "from 1 to 4 Deben": (
            "拿 1 到 4 Deben",
            "从一个储备拿 1 到 4 Deben",
        ),
        "reserve holds 6 Deben": "储备有 6 Deben",
    },
    extra=[
        Claim("黑方有 senet、双 senet、雕像、镜子和项链各一张", W.black_holds_five_kinds),
        Claim("你把自己的一张礼物给一个对手，再从他那里拿走一张礼物", _one_for_one),
        Claim("红方有竖琴、项链和雕像各一张；绿方和蓝方各有一张雕像", W.merchant_hands),
        Claim("上排是一张黄金工艺品，上面放着印章；下排是一张椅子和一张镜子", W.chief_market),
        Claim("只是持有这种礼物的玩家少了一个", W.scribe_leaves_one_holder_fewer),
    ],
)
