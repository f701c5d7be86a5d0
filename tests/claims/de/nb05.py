"""Claims of tutorials/de/05-contents-and-setup.ipynb: the English notebook's checks
(``claims.nb05``), each quoted with the German phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

from claims import Claim, nb05, translated
from claims.engine import position
from claims.nb05 import _plus_two_scribes, _purses, _purses_are
from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.errors import SetupError

SEEDS = range(30)


def _seven_gift_types() -> bool:
    return len(R.GIFT_TYPES) == 7 and len(set(R.KIND_TYPE)) == 7


def _double_senet_counts_two() -> bool:
    return (
        R.KIND_TYPE[R.K_DOUBLE_SENET] == R.KIND_TYPE[R.K_SENET] == R.SENET
        and R.KIND_WEIGHT[R.K_DOUBLE_SENET] == 2
    )


def _seven_piles() -> bool:
    return len(new_game(4, seed=1).piles) == len(new_game(3, seed=1).piles) == 7


def _four_servants_each() -> bool:
    return all(new_game(n, seed=1).hand == [4] * n for n in (3, 4))


def _three_or_four_players() -> bool:
    for players in (2, 5):
        try:
            new_game(players, seed=1)
        except SetupError:
            continue
        return False
    return all(new_game(n, seed=1).n == n for n in (3, 4))


def _akhenaton_places(players: int) -> set[int]:
    """Where the Akhenaton card lies in freshly set-up decks, counted from the bottom (0)."""
    return {new_game(players, seed=s).deck.index(R.AKHENATON) for s in SEEDS}


def _akhenaton_in_bottom_five() -> bool:
    return all(_akhenaton_places(n) <= set(range(5)) for n in (3, 4))


def _nobody_knows_which() -> bool:
    return _akhenaton_in_bottom_five() and all(len(_akhenaton_places(n)) > 1 for n in (3, 4))


def _four_cards_a_seal_one_deben() -> bool:
    """Every open market starts with four cards and a seal on the upper one; every reserve
    with one Deben."""
    for players in (3, 4):
        game = new_game(players, seed=1)
        filled = [m for m in range(4) if -1 not in game.market_cards(m)]
        if not (
            filled == [R.GIZEH, R.AKHET_ATON, R.ABOU_SIMBEL]
            and all(game.market_seal(m) for m in filled)
            and game.reserve == [1, 1, 1, 1]
        ):
            return False
    return R.MARKET_CARDS == 4


def _no_senets_with_three() -> bool:
    senet_kinds = [k for k, t in enumerate(R.KIND_TYPE) if t == R.SENET]
    in_box = sum(R.CARDS_PER_KIND[k] for k in senet_kinds)
    in_play = [
        card
        for s in SEEDS
        for card in new_game(3, seed=s).deck
        + [c for m in range(4) for c in new_game(3, seed=s).market_cards(m)]
        if card in senet_kinds
    ]
    return in_box == 8 and in_play == []


def _one_fewer_plus_two_scribe() -> bool:
    return _plus_two_scribes(4) - _plus_two_scribes(3) == 1


def _what_three_players_change() -> bool:
    return (
        _no_senets_with_three()
        and _one_fewer_plus_two_scribe()
        and _purses_are((9, 10, 10), (8, 9, 9, 10))
    )


def _later_seats_one_or_two_more() -> bool:
    extra = {p - purse[0] for purse in _purses(3) | _purses(4) for p in purse[1:]}
    return extra == {1, 2}


def _two_stalls_each() -> bool:
    return R.SIDES == ("left", "right") and all(
        R.stall_of(m, side).market == m for m in range(4) for side in range(2)
    )


def _three_open_markets_filled() -> bool:
    state = position("first-game")
    filled = [m for m in range(4) if -1 not in state.market_cards(m)]
    return filled == [R.GIZEH, R.AKHET_ATON, R.ABOU_SIMBEL] and state.tile == R.LOUQSOR


CLAIMS = translated(
    nb05,
    {
        "3 points": "am Ende 3 Punkte",
        "Scribe +2 fewer": (
            "Ein Schreiber +2 weniger",
            "mit drei Spielern ein\n  Schreiber +2 weniger",
        ),
        "the purses are\n  9, 10, 10 instead of 8, 9, 9, 10": "die Spieler\n  9, 10, 10 statt 8, 9, 9, 10 Deben",
        "starting purses\n  8, 9, 9, 10, or 9, 10, 10 with three players": "Start-Deben\n  8, 9, 9, 10, oder 9, 10, 10 mit drei Spielern",
    },
    extra=[
        Claim("sieben Geschenkarten", _seven_gift_types),
        Claim("Geschenkkarten in sieben Arten", _seven_gift_types),
        Claim("ein Doppel-Senet zählt als zwei Senets", _double_senet_counts_two),
        Claim("offen in sieben Stapeln", _seven_piles),
        Claim("vier pro Spieler", _four_servants_each),
        Claim("Aufbau für vier und für drei Spieler", _three_or_four_players),
        Claim("mit drei statt vier Spielern", _three_or_four_players),
        Claim("unter den untersten fünf Karten", _akhenaton_in_bottom_five),
        Claim(
            "vier Karten, mit einem Siegel auf der oberen, legt einen Deben auf jeden Vorrat",
            _four_cards_a_seal_one_deben,
        ),
        Claim("Was sich mit drei Spielern ändert", _what_three_players_change),
        Claim("Alle acht Senet-Karten bleiben in der Schachtel", _no_senets_with_three),
        Claim("mit ein oder zwei Deben mehr", _later_seats_one_or_two_more),
        Claim("Jeder Markt hat zwei Preistabellen", _two_stalls_each),
        Claim(
            "werden vier Karten abgenommen und mit der Echnaton-Karte gemischt, und\ndiese fünf "
            "kommen ganz nach unten",
            _akhenaton_in_bottom_five,
        ),
        Claim("eine der letzten fünf\nKarten, aber niemand weiß, welche", _nobody_knows_which),
        Claim("weiter oben unter den letzten fünf", _akhenaton_in_bottom_five),
        Claim("mit drei Spielern\n  bleiben die Senets in der Schachtel", _no_senets_with_three),
        Claim("Ein Deben auf jedem Vorrat", _four_cards_a_seal_one_deben),
        Claim("Die\n  drei offenen Märkte werden aufgefüllt", _three_open_markets_filled),
    ],
)
