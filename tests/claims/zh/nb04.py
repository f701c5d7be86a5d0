"""Claims of tutorials/zh/04-characters.ipynb: the English notebook's checks (``claims.nb04``),
each quoted with the Chinese phrase that states the same number, and the checks of its own
(``extra``)."""

from __future__ import annotations

from claims import Claim, nb04, translated
from claims.engine import position, seat
from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.files.exercises import scenario_path
from nefertiti_core.files.history import History
from nefertiti_core.files.scenario import load

_SWAPS = ("recruit merchant", "exchange green:statuette", "give harp")


def _first_merchant_two_swaps() -> bool:
    """The First Merchant swaps once with Green, then may swap with Blue but not Green again, and
    after the second swap no third is offered (R10.3)."""
    after_one = position("merchant", *_SWAPS)
    offered = [after_one.option_text(o) for o in after_one.legal_options()]
    after_two = position("merchant", *_SWAPS, "exchange blue:statuette", "give necklace")
    later = [after_two.option_text(o) for o in after_two.legal_options()]
    return (
        "exchange blue:statuette" in offered
        and not any(o.startswith("exchange green") for o in offered)
        and not any(o.startswith("exchange") for o in later)
    )


def _high_priest_places_twice() -> bool:
    """After the High Priest's first placement it is still Green's turn, to place (here: close)
    again (R10.4)."""
    state = position("high-priest", "recruit high_priest", "place abou_simbel.left#6")
    options = [state.option_text(o) for o in state.legal_options()]
    return state.turn_player == seat(state, "green") and any(o.startswith("close") for o in options)


def _green_servants() -> tuple[int, int]:
    state = position("high-priest")
    green = seat(state, "green")
    on_board = sum(owner == green for market in state.owners for owner in market)
    return on_board, state.hand[green]


def _gizeh_unsold() -> bool:
    state = position("chief")
    cards = state.cards[R.GIZEH]
    return (
        state.tile == R.GIZEH
        and sum(card >= 0 for card in cards) == 3
        and cards[0] == R.K_GOLD
        and state.seal_on_upper[R.GIZEH]
        and sorted(c for c in cards[1:] if c >= 0) == [R.K_CHAIR, R.K_MIRROR]
    )


def _one_character_per_turn() -> bool:
    """Black, given a second seal, may recruit several characters; after one recruit she still
    holds a seal but no recruit is offered until her next turn (R5.1)."""
    state = load(scenario_path("vizier")).state
    black = seat(state, "black")
    state.seals[black] = 2
    history = History(state)
    before = [history.state.option_text(o) for o in history.state.legal_options()]
    history.play("recruit vizier")
    after = [history.state.option_text(o) for o in history.state.legal_options()]
    return (
        sum(o.startswith("recruit") for o in before) > 1
        and history.state.seals[black] == 1
        and not any(o.startswith("recruit") for o in after)
    )


def _holds(name: str, colour: str, *steps: str) -> list[int]:
    state = position(name, *steps)
    return list(state.gifts[seat(state, colour)])


def _kinds(*kinds: int) -> list[int]:
    """A collection with one card of each of ``kinds``."""
    return [1 if kind in kinds else 0 for kind in range(R.NUM_KINDS)]


def _one_for_one() -> bool:
    """A swap moves one card each way: Red's harp to Green, Green's statuette to Red (R10.3)."""
    steps = ("recruit merchant", "exchange green:statuette", "give harp")
    red_before, red_after = _holds("merchant", "red"), _holds("merchant", "red", *steps)
    green_before, green_after = _holds("merchant", "green"), _holds("merchant", "green", *steps)
    moved_red = [a - b for a, b in zip(red_after, red_before, strict=True)]
    moved_green = [a - b for a, b in zip(green_after, green_before, strict=True)]
    return moved_red == [-n for n in moved_green] and sorted(moved_red) == [-1] + [0] * 6 + [1]


def _chief_takes_one_card() -> bool:
    before = sum(_holds("chief", "red"))
    return sum(_holds("chief", "red", "recruit chief", "chief upper")) == before + 1


def _royal_servant_one_each() -> bool:
    """Naming chairs, every holder discards exactly one chair (R10.6)."""
    after = _gifts_after("royal-servant", R.K_CHAIR, "recruit royal_servant", "royal chair")
    return after == {"green": 4, "red": 0, "blue": 0, "black": 0}


def _scribe_one_holder_fewer() -> bool:
    def holders(*steps: str) -> int:
        state = position("scribe", *steps)
        return sum(any(state.gifts[p][k] for k in R.KINDS_OF_TYPE[R.SENET]) for p in range(state.n))

    return holders() - holders("recruit scribe", "scribe senet") == 1


def _gifts_after(name: str, kind: int, *steps: str) -> dict[str, int]:
    state = position(name, *steps)
    return {colour: state.gifts[seat(state, colour)][kind] for colour in state.colours}


def _gifts(name: str, kind: int) -> dict[str, int]:
    state = position(name)
    return {colour: state.gifts[seat(state, colour)][kind] for colour in state.colours}


CLAIMS = translated(
    nb04,
    {
        "3 points": "值 3 分",
        "2 prestige for every": "得 2 声望分",
        "the 8 of Abou Simbel's left stall": "Abou Simbel 左侧大厅的 8",
        "+3 on top, then +2, +2,\n+1": "最上面是 +3，然后是 +2、+2、+1",
        "counts as two senets": "双 senet 算作两张 senet",
        "The +3 Scribe is gone, so\na +2 lies on top": "+3 的书记员已经不在了，所以最上面是一张 +2",
        "from 1 to 4 Deben": (
            "拿 1 到 4 Deben",
            "从一个储备拿 1 到 4 Deben",
        ),
        "reserve holds 6 Deben": "储备有 6 Deben",
    },
    extra=[
        Claim("每回合最多雇佣一个角色", _one_character_per_turn),
        Claim(
            "13 张角色牌面朝上，分成 7 叠",
            lambda: (
                sum(len(pile) for pile in new_game(4, seed=1).piles) == 13
                and len(new_game(4, seed=1).piles) == 7
            ),
        ),
        Claim(
            "黑方有 senet、双 senet、雕像、镜子和项链各一张",
            lambda: (
                _holds("vizier", "black")
                == _kinds(R.K_SENET, R.K_DOUBLE_SENET, R.K_STATUETTE, R.K_MIRROR, R.K_NECKLACE)
            ),
        ),
        Claim("你把自己的一张礼物给一个对手，再从他那里拿走一张礼物", _one_for_one),
        Claim(
            "红方有竖琴、项链和雕像各一张；绿方和蓝方各有一张雕像",
            lambda: (
                _holds("merchant", "red") == _kinds(R.K_HARP, R.K_NECKLACE, R.K_STATUETTE)
                and _holds("merchant", "green") == _kinds(R.K_STATUETTE)
                and _holds("merchant", "blue") == _kinds(R.K_STATUETTE)
            ),
        ),
        Claim("可以交换两次，对象是两个不同的对手", _first_merchant_two_swaps),
        Claim("首席商人交换两次，对象是两个不同的玩家", _first_merchant_two_swaps),
        Claim("一个回合放两个仆人", _high_priest_places_twice),
        Claim("这个回合你放置两次", _high_priest_places_twice),
        Claim("一个回合放置两次", _high_priest_places_twice),
        Claim("绿方有 3 个仆人在游戏板上，手里还有 1 个", lambda: _green_servants() == (3, 1)),
        Claim("从休市的市场拿一张牌", _chief_takes_one_card),
        Claim("免费拿一张牌", _chief_takes_one_card),
        Claim("市场拿一张牌", _chief_takes_one_card),
        Claim("上面有 3 张没卖出去的牌", _gizeh_unsold),
        Claim("上排是一张黄金工艺品，上面放着印章；下排是一张椅子和一张镜子", _gizeh_unsold),
        Claim("人人都要交出一张", _royal_servant_one_each),
        Claim("都要丢弃一张这种牌", _royal_servant_one_each),
        Claim("各丢弃一张", _royal_servant_one_each),
        Claim("只是持有这种礼物的玩家少了一个", _scribe_one_holder_fewer),
        Claim(
            "绿方有 5 张椅子；红方和蓝方各有 1 张",
            lambda: (
                _gifts("royal-servant", R.K_CHAIR) == {"green": 5, "red": 1, "blue": 1, "black": 0}
            ),
        ),
        Claim(
            "蓝方有 1 张双 senet 和 2 张单 senet；黑方有 2 张 senet",
            lambda: (
                _gifts("scribe", R.K_DOUBLE_SENET)["blue"] == 1
                and _gifts("scribe", R.K_SENET)["blue"] == 2
                and _gifts("scribe", R.K_SENET)["black"] == 2
                and _gifts("scribe", R.K_DOUBLE_SENET)["black"] == 0
            ),
        ),
    ],
)
