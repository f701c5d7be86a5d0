"""Claims of tutorials/zh/08-closing-akhet-aton.ipynb: the English notebook's checks
(``claims.nb08``), each quoted with the Chinese phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

from claims import Claim, nb08, translated
from claims.engine import is_open, position
from claims.nb08 import LEFT, LEVELS, LINE, RIGHT, _levels_are_the_rows, _rows
from nefertiti_core.engine import rules as R

_LINES = {(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)}


def _four_levels() -> bool:
    return _levels_are_the_rows() and len(LEFT.groups) == 4


def _every_level_closes() -> bool:
    """Open with the top 3 levels covered, closed once a servant stands on the fourth (R3.3)."""
    return (
        _four_levels()
        and is_open(LEVELS, "akhet_aton")
        and not is_open(LEVELS, "akhet_aton", "place akhet_aton.left#6")
    )


def _top_three_levels() -> bool:
    owners = position(LEVELS).owners[R.AKHET_ATON]
    covered = [any(owners[i] >= 0 for i in level) for level in LEFT.groups]
    return covered == [True, True, True, False]


def _three_in_a_line() -> bool:
    """The grid's lines are its rows, columns and diagonals, and in the position with the 0, 3
    and 4 held exactly the free squares that complete one of them close it, whatever the
    colours (R3.4)."""
    owners = position(LINE).owners[R.AKHET_ATON]
    held = {i for i, owner in enumerate(owners) if owner >= 0}
    free = [i for i, owner in enumerate(owners) if owner < 0]
    completing = [i for i in free if any(i in ln and set(ln) - {i} <= held for ln in _LINES)]
    closing = [i for i in free if not is_open(LINE, "akhet_aton", f"place akhet_aton.right#{i}")]
    return set(RIGHT.groups) == _LINES and held == {0, 3, 4} and closing == completing


CLAIMS = translated(
    nb08,
    {
        "0 on top; then 1 2; then 3 4 5 (the 4 is a\n  Deben square); and 6 7 8 10 at the bottom "
        "(the 10 is an extra-card square)": "最上面是 0；然后是 1 2；然后是 3 4 5（4 是银币方块）；最下面是 6 7 8 10（10 是“额外牌”方块）",
        "0 1 2 / 3 4 5 / 6 7 8 (the 5 is a Deben square)": "0 1 2 / 3 4 5 / 6 7 8（5 是银币方块）",
        "Green holds the 0, Red the 1 and Blue the 4": "绿方占着 0，红方占着 1，蓝方占着 4",
        "Black is to play, with 8 Deben": "黑方行动，她有 8 Deben",
        "Black places on the 6": "黑方放在 6 上",
        "Try the 10 too: it is the highest\nbid and an extra-card square, but Black cannot pay it": "也试试 10：它是最高出价，又是“额外牌”方块，但黑方付不起",
        "Red holds the 0, Blue the 3 and Black the 4": "红方占着 0，蓝方占着 3，黑方占着 4",
        "Green places on the 7 instead, which completes no line": "绿方改放在 7 上，这不能连成任何一条线",
        "After Green's 7, the middle column needs only the 1": "绿方放了 7 之后，中间一列只差 1",
        "The 10 on the left stall is an extra-card square; the 4 on the left and the 5 on the right"
        "\n  are Deben squares": "左侧大厅的 10 是“额外牌”方块；左侧大厅的 4 和右侧大厅的 5 是银币方块",
    },
    extra=[
        Claim("4 层的金字塔", _four_levels),
        Claim("每一层都至少有一个仆人", _every_level_closes),
        Claim("3 行的方阵", lambda: len(_rows(RIGHT)) == 3),
        Claim("3 个被占的方块连成一行、一列或一条对角线", _three_in_a_line),
        Claim("上面 3 层都有人了", _top_three_levels),
        Claim("方阵：3 个连成一线", _three_in_a_line),
        Claim("4 层中的每一层都有仆人时关闭", _every_level_closes),
    ],
)
