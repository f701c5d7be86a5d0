"""Claims of tutorials/zh/06-markets-and-special-squares.ipynb: the English notebook's checks
(``claims.nb06``), each quoted with the Chinese phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

from claims import Claim, nb06, translated
from claims._firstgame import deben_gain, option_texts
from claims.nb02 import _two_lower_cards
from nefertiti_core.engine import rules as R

EXTRA = ("extra-card", "place abou_simbel.right#8")
SINGLE = ("single-card", "place louqsor.left#1")
OTHERS = ("closing-step-by-step", "place abou_simbel.left#4", "take upper")


def _takes(*steps: str) -> list[list[str]]:
    """The cards each of the decider's take or buy options takes (``take upper+lower1``)."""
    return [
        option.split()[1].split("+")
        for option in option_texts(*steps)
        if option.startswith(("take ", "buy "))
    ]


def _extra_card_choices() -> bool:
    """On an extra-card square: the three lower cards, or the upper card and one lower card."""
    takes = _takes(*EXTRA)
    three_lower = [t for t in takes if "upper" not in t]
    upper_and_one = [t for t in takes if "upper" in t]
    return (
        three_lower == [["lower1", "lower2", "lower3"]]
        and len(upper_and_one) == 3
        and all(len(t) == 2 for t in upper_and_one)
    )


def _single_card_choices() -> bool:
    """On a single-card square: exactly one card, from either row."""
    takes = _takes(*SINGLE)
    return all(len(t) == 1 for t in takes) and ["upper"] in takes and ["lower1"] in takes


def _others_buy_one() -> bool:
    """A bidder after the highest buys one card at most (or takes half the reserve)."""
    takes = _takes(*OTHERS)
    return bool(takes) and all(len(t) == 1 for t in takes) and "half" in option_texts(*OTHERS)


def _arrival_and_deben_square() -> bool:
    """On an empty stall with 3 Deben in its reserve: a plain square pays 1 (the arrival), the
    Deben square 2 pays 2 (the arrival and the square, both at once)."""
    plain = deben_gain("markets-bonuses", "green", "place abou_simbel.left#0")
    both = deben_gain("markets-bonuses", "green", "place abou_simbel.left#2")
    return plain == 1 and both == 2


def _marks() -> set[str]:
    return {sq.symbol for stall in R.STALLS for sq in stall.squares} - {R.PLAIN}


CLAIMS = translated(
    nb06,
    {
        "The board has four markets": "4 个市场",
        "Here are all eight stalls": "全部 8 个大厅",
        "its reserve holds 3 Deben; the other reserves hold 1\neach": "它的储备有 3 Deben；其他储备各有 1 Deben",
        "the Deben 2": "银币方块 2",
        "the 4 on Gizeh's left stall, another Deben square on an empty stall,\nwhose reserve "
        "holds only 1 Deben": "Gizeh 左侧大厅的 4 比较一下：那也是空大厅上的银币方块，但它的储备只有 1 Deben",
        "the first 2 of Abou Simbel's right stall, Blue's on the 6": "右侧大厅的第一个 2 上，蓝方的站在 6 上",
        "close the market with the 12, an extra-card square": "用 12 关闭这个市场，12 是“额外牌”方块",
        "place on the 12": "放在 12 上",
        "Louqsor's squares 1 to 4 on the left\nstall and 2 to 5 on the right": "Louqsor 左侧大厅的 1 到 4 和右侧大厅的 2 到 5",
        "on Louqsor's 1, Blue's on the 3. Green places on the 2": "站在 Louqsor 的 1 上，蓝方的站在 3 上。绿方放在 2 上",
        "Blue's 3 is the highest bid": "蓝方的 3 是最高出价",
        "the bids add up to 7, and Red's servant on the 7 makes exactly 14": "出价加起来是 7，红方放在 7 上的仆人让总和恰好为 14",
        "The 7 carries no mark": "这个 7 没有标志",
    },
    extra=[
        Claim("两个大厅", lambda: len(R.STALLS) == 2 * len(R.MARKETS)),
        Claim("有 3 种标志", lambda: _marks() == {R.DEBEN, R.SINGLE, R.EXTRA}),
        Claim("立即从储备拿 1 Deben", _arrival_and_deben_square),
        Claim("只能买 1 张牌", _single_card_choices),
        Claim("可以多买 1 张牌", _extra_card_choices),
        Claim("从这个市场的储备拿 1 Deben", _arrival_and_deben_square),
        Claim("也拿 1 Deben", _arrival_and_deben_square),
        Claim("两者可以同时发生", _arrival_and_deben_square),
        Claim("下排的两张牌", _two_lower_cards),
        Claim("下排全部 3 张牌，或者上排带印章的牌再加 1 张下排的牌", _extra_card_choices),
        Claim("只拿 1 张牌", _single_card_choices),
        Claim("最多买 1 张牌", _others_buy_one),
        Claim("各从储备拿 1 Deben", _arrival_and_deben_square),
    ],
)
