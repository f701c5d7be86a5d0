"""Claims of tutorials/zh/04-characters.ipynb, checked against the engine with the English
notebook's checks (tests/claims/nb04.py), and a few more where the Chinese notebook gives a count
in digits or words that the English one writes as a word."""

from __future__ import annotations

from claims import Claim
from claims.engine import position, seat
from claims.nb04 import (
    _scribe_bonuses,
    _seal_worth,
    _the_8_on_abou_simbel_left,
    _treasurer_amounts,
    _vizier_per_type,
)
from nefertiti_core import new_game
from nefertiti_core.engine import rules as R

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


def _gifts(name: str, kind: int) -> dict[str, int]:
    state = position(name)
    return {colour: state.gifts[seat(state, colour)][kind] for colour in state.colours}


CLAIMS = [
    Claim("值 3 分", lambda: _seal_worth() == 3),
    Claim(
        "13 张角色牌面朝上，分成 7 叠",
        lambda: (
            sum(len(pile) for pile in new_game(4, seed=1).piles) == 13
            and len(new_game(4, seed=1).piles) == 7
        ),
    ),
    Claim("得 2 声望分", _vizier_per_type),
    Claim("可以交换两次，对象是两个不同的对手", _first_merchant_two_swaps),
    Claim("首席商人交换两次，对象是两个不同的玩家", _first_merchant_two_swaps),
    Claim("一个回合放两个仆人", _high_priest_places_twice),
    Claim("这个回合你放置两次", _high_priest_places_twice),
    Claim("一个回合放置两次", _high_priest_places_twice),
    Claim("绿方有 3 个仆人在游戏板上，手里还有 1 个", lambda: _green_servants() == (3, 1)),
    Claim("Abou Simbel 左侧大厅的 8", _the_8_on_abou_simbel_left),
    Claim("上面有 3 张没卖出去的牌", _gizeh_unsold),
    Claim(
        "绿方有 5 张椅子；红方和蓝方各有 1 张",
        lambda: _gifts("royal-servant", R.K_CHAIR) == {"green": 5, "red": 1, "blue": 1, "black": 0},
    ),
    Claim(
        "最上面是 +3，然后是 +2、+2、+1",
        lambda: _scribe_bonuses(new_game(4, seed=1).piles) == [3, 2, 2, 1],
    ),
    Claim("双 senet 算作两张 senet", lambda: R.KIND_WEIGHT[R.K_DOUBLE_SENET] == 2),
    Claim(
        "蓝方有 1 张双 senet 和 2 张单 senet；黑方有 2 张 senet",
        lambda: (
            _gifts("scribe", R.K_DOUBLE_SENET)["blue"] == 1
            and _gifts("scribe", R.K_SENET)["blue"] == 2
            and _gifts("scribe", R.K_SENET)["black"] == 2
            and _gifts("scribe", R.K_DOUBLE_SENET)["black"] == 0
        ),
    ),
    Claim(
        "+3 的书记员已经不在了，所以最上面是一张 +2",
        lambda: (
            _scribe_bonuses(position("scribe").piles)[0] == 2
            and 3 not in _scribe_bonuses(position("scribe").piles)
        ),
    ),
    Claim("拿 1 到 4 Deben", lambda: _treasurer_amounts() == [1, 2, 3, 4]),
    Claim("储备有 6 Deben", lambda: position("treasurer").reserve[R.ABOU_SIMBEL] == 6),
]
