"""Claims of tutorials/zh/14-what-if-explorer.ipynb, checked against the engine; the checks are
the English notebook's (tests/claims/nb14.py)."""

from __future__ import annotations

from fractions import Fraction

from claims import Claim
from claims.engine import is_open
from claims.nb10 import LEFT
from claims.nb14 import (
    DICE,
    EIGHT,
    ON_THE_THREE,
    SEVEN,
    SUMS,
    Z95,
    _abou_total,
    _chance_on_the_three,
    _merchant_difference,
    _occupied_after_the_three,
    _square_value,
    _standard_error_points,
)
from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.chance import dice_of


def _akhenaton_in_the_bottom_five() -> bool:
    """In fresh games the Akhenaton card is always among the deck's bottom five (the list's
    start), and in each of the five places in some game (R2.2)."""
    places = {new_game(n, seed=s).deck.index(R.AKHENATON) for n in (3, 4) for s in range(60)}
    return places == set(range(5))


CLAIMS = [
    Claim("那里的出价合计为 7", lambda: _abou_total() == 7),
    Claim(
        "红方放 7 会让总和恰好为 14 并关闭市场",
        lambda: _abou_total(SEVEN) == 14 and not is_open(SUMS, "abou_simbel", SEVEN),
    ),
    Claim(
        "放 8 会让总和为 15，什么也不会关闭",
        lambda: _abou_total(EIGHT) == 15 and is_open(SUMS, "abou_simbel", EIGHT),
    ),
    Claim("用她的 7 关闭市场", lambda: not is_open(SUMS, "abou_simbel", SEVEN)),
    Claim("红方这次改放 8", lambda: _abou_total(EIGHT) - _abou_total() == 8),
    Claim("把一个仆人放在左侧大厅的 3 上", lambda: _square_value(ON_THE_THREE) == 3),
    Claim("数值 2、3 和 7 被占", lambda: _occupied_after_the_three() == {2, 3, 7}),
    Claim("4/36", lambda: _chance_on_the_three() == Fraction(4, 36)),
    Claim(
        "骰子被固定为 3 和 2，让大厅关闭",
        lambda: not is_open(DICE, "louqsor", "roll 3 2", ON_THE_THREE),
    ),
    Claim("固定为 5 和 6，大厅不关闭", lambda: is_open(DICE, "louqsor", "roll 5 6", ON_THE_THREE)),
    Claim("在什么都不固定的情况下放在 3 上", lambda: _square_value(ON_THE_THREE) == 3),
    Claim("相差的正是红方欠她的那 2 Deben", lambda: _merchant_difference() == 2),
    Claim(
        "掷 400 次时，一个标准误差约为 1.6 个百分点",
        lambda: _standard_error_points(400) == 1.6,
    ),
    Claim("带 95% 区间", lambda: round(Z95, 2) == 1.96),
    Claim("两颗骰子", lambda: dice_of(LEFT.id) == 2),
    Claim("最下面 5 张", _akhenaton_in_the_bottom_five),
    Claim(
        "相差两三个百分点只是平常的运气",
        lambda: 2 < 3 <= Z95 * _standard_error_points(400),
    ),
]
