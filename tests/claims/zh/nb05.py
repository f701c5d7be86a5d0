"""Claims of tutorials/zh/05-contents-and-setup.ipynb: the English notebook's checks
(``claims.nb05``), each quoted with the Chinese phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

from claims import Claim, nb05, translated
from claims.nb05 import SEEDS, _purses_are
from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.state import OPEN


def _seats(players: int) -> bool:
    """The engine sets up a game of ``players`` players, each with four servants in hand."""
    return all(new_game(players, seed=s).hand == [4] * players for s in SEEDS)


def _senets(players: int) -> int:
    """The senet cards (single and double) in the deck and the markets of a fresh game."""
    total = 0
    for seed in SEEDS:
        game = new_game(players, seed=seed)
        cards = list(game.deck) + [card for market in game.cards for card in market]
        total = max(total, sum(R.KIND_TYPE[c] == R.SENET for c in cards if 0 <= c < R.NUM_KINDS))
    return total


def _akhenaton_in_the_bottom_five() -> bool:
    """In fresh games the Akhenaton card is always among the deck's bottom five (the list's
    start), and in each of the five places in some game: nobody can know which (R2.2, R12)."""
    places = {new_game(n, seed=s).deck.index(R.AKHENATON) for n in (3, 4) for s in range(60)}
    return places == set(range(5))


def _four_cards_each_open_market() -> bool:
    for seed in SEEDS:
        game = new_game(4, seed=seed)
        for market in range(4):
            dealt = sum(card >= 0 for card in game.cards[market])
            if dealt != (4 if game.status[market] == OPEN else 0):
                return False
    return True


def _three_open_markets() -> bool:
    return all(
        [s == OPEN for s in new_game(n, seed=seed).status] == [True, True, True, False]
        for n in (3, 4)
        for seed in SEEDS
    )


def _later_seats_one_or_two_more() -> bool:
    more = {d - purse[0] for purse in R.STARTING_DEBEN.values() for d in purse[1:]}
    return more == {1, 2} and _purses_are((9, 10, 10), (8, 9, 9, 10))


def _a_seal_on_each_upper_card() -> bool:
    """A fresh game: one seal on the upper card of each of the 3 open markets, the other 9 beside
    the board (R2.4)."""
    return all(
        [new_game(n, seed=s).seal_on_upper[m] for m in range(4)] == [True, True, True, False]
        and new_game(n, seed=s).seal_supply == R.SEALS - 3
        for n in (3, 4)
        for s in SEEDS
    )


CLAIMS = translated(
    nb05,
    {
        "counts as two senets": "双 senet 算作两张 senet",
        "3 points": "值 3 分",
        "Scribe +2 fewer": "少一张书记员 +2",
        "the purses are\n  9, 10, 10 instead of 8, 9, 9, 10": "起始的钱是 9、10、10，而不是 8、9、9、10",
        "starting purses\n  8, 9, 9, 10, or 9, 10, 10 with three players": "起始的钱为 8、9、9、10，3 人游戏时为 9、10、10",
    },
    extra=[
        Claim("4 人游戏", lambda: _seats(4)),
        Claim("3 人游戏", lambda: _seats(3)),
        Claim("3 人而不是 4 人", lambda: _seats(3) and _seats(4)),
        Claim("4 人局和 3 人局", lambda: _seats(3) and _seats(4)),
        Claim("7 种礼物", lambda: len(set(R.KIND_TYPE)) == 7 == len(R.GIFT_TYPES)),
        Claim("分成 7 叠", lambda: len(new_game(4, seed=1).piles) == 7),
        Claim("上排的牌上放一个印章", _a_seal_on_each_upper_card),
        Claim("每名玩家 4 个", lambda: _seats(3) and _seats(4)),
        Claim("最下面 5 张", _akhenaton_in_the_bottom_five),
        Claim("最后 5 张", _akhenaton_in_the_bottom_five),
        Claim(
            "先取出 4 张牌，和法老牌一起洗匀，然后把这 5 张放到最下面",
            _akhenaton_in_the_bottom_five,
        ),
        Claim("发 4 张牌", _four_cards_each_open_market),
        Claim(
            "储备上放 1 Deben",
            lambda: all(new_game(n, seed=s).reserve == [1] * 4 for n in (3, 4) for s in SEEDS),
        ),
        Claim("8 张 senet 牌全部留在盒子里", lambda: _senets(4) == 8 and _senets(3) == 0),
        Claim("多 1 到 2 Deben", _later_seats_one_or_two_more),
        Claim("每个市场有两个大厅", lambda: len(R.STALLS) == 2 * len(R.MARKETS)),
        Claim("3 个开放的市场", _three_open_markets),
    ],
)
