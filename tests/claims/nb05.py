"""Claims of tutorials/05-contents-and-setup.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
from claims import _facts as F
from claims.engine import position, seat
from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.scoring import totals

SEEDS = range(6)


def _seal_worth() -> int:
    state = position("first-game")
    green = seat(state, "green")
    without = totals(state)[green]
    state.seals[green] = 1
    return totals(state)[green] - without


def _purses(players: int) -> set[tuple[int, ...]]:
    """The starting purses, from the first player round the table, in games the engine sets up."""
    out = set()
    for seed in SEEDS:
        game = new_game(players, seed=seed)
        out.add(tuple(game.deben[(game.turn_player + k) % players] for k in range(players)))
    return out


def _plus_two_scribes(players: int) -> int:
    return new_game(players, seed=1).piles[R.SCRIBE].count(R.C_SCRIBE2)


def _purses_are(three, four) -> bool:
    return _purses(3) == {three} and _purses(4) == {four}


CLAIMS = [
    Claim("3 points", lambda: _seal_worth() == 3),
    Claim("Scribe +2 fewer", lambda: _plus_two_scribes(4) - _plus_two_scribes(3) == 1),
    Claim(
        "the purses are\n  9, 10, 10 instead of 8, 9, 9, 10",
        lambda: _purses_are((9, 10, 10), (8, 9, 9, 10)),
    ),
    Claim(
        "starting purses\n  8, 9, 9, 10, or 9, 10, 10 with three players",
        lambda: _purses_are((9, 10, 10), (8, 9, 9, 10)),
    ),
]


# ---------------------------------------------------------------- numbers written as words
def _akhenaton_in_the_bottom_five() -> bool:
    """The Akhenaton card lies among the last five cards of every new deck (R2.2)."""
    for players in (3, 4):
        for seed in SEEDS:
            under = new_game(players, seed).deck.index(R.AKHENATON)  # the top is the list's end
            assert under < 5, (players, seed, under)
    return F.bottom_five()


def _two_tables() -> bool:
    """The cell under "The pieces" shows the box's cards and the character piles."""
    shown = {
        call.func.id for call in F.calls("05", "box_contents") + F.calls("05", "character_piles")
    }
    return shown == {"box_contents", "character_piles"}


def _two_games_compared() -> bool:
    """compare_setups sets up a game for 4 and one for 3 players (R2)."""
    from widgets.lesson.setup_view import setup_facts

    return all(setup_facts(new_game(n, seed=5)) for n in (4, 3)) and F.three_and_four_players()


def _eight_senets() -> bool:
    senets = R.CARDS_PER_KIND[R.K_SENET] + R.CARDS_PER_KIND[R.K_DOUBLE_SENET]
    return senets == 8 and R.TOTAL_GIFTS[4] - R.TOTAL_GIFTS[3] == 8


def _later_seats_more() -> bool:
    first, *later = R.STARTING_DEBEN[4]
    return {d - first for d in later} == {1, 2}


def _fewer_turns_with_three() -> bool:
    from statistics import mean

    from widgets.lesson.game_length import game_lengths

    lengths = game_lengths(20)
    turns = {n: mean(g[1] for g in lengths if g[0] == n) for n in (3, 4)}
    return turns[3] < turns[4]


def _three_open_markets() -> bool:
    state = position("first-game")
    return sum(state.tile != m for m in range(4)) == 3


CLAIMS += [
    Claim("a four-player and a three-player game", F.three_and_four_players),
    Claim("seven gift types", F.seven_types),
    Claim("counts as two senets", F.double_senet_counts_two),
    Claim("face up in seven piles", F.seven_piles),
    Claim("four per player (R1.2)", lambda: R.SERVANTS_PER_PLAYER == 4),
    Claim("The two tables count the cards", _two_tables),
    Claim("Setting up for four and for three players", F.three_and_four_players),
    Claim(
        "card among the bottom five, deals four cards to each open market",
        lambda: _akhenaton_in_the_bottom_five() and F.four_cards_a_market(),
    ),
    Claim("puts one Deben on every reserve", lambda: R.RESERVE_START == 1),
    Claim("One Deben on each reserve", lambda: R.RESERVE_START == 1),
    Claim("With three players instead of four", F.three_and_four_players),
    Claim("counts what two fresh", _two_games_compared),
    Claim("What changes with three players", F.three_and_four_players),
    Claim("All eight senet cards stay in the box", _eight_senets),
    Claim("start with one or two Deben more", _later_seats_more),
    Claim("Each market has two stalls", F.two_stalls),
    Claim("four cards are taken off", _akhenaton_in_the_bottom_five),
    Claim("and the five", _akhenaton_in_the_bottom_five),
    Claim("one of the last five cards", _akhenaton_in_the_bottom_five),
    Claim("among the last five?", _akhenaton_in_the_bottom_five),
    Claim("A three-player game has fewer turns", _fewer_turns_with_three),
    Claim("gift cards of seven types", F.seven_types),
    Claim("with three players the senets", _eight_senets),
    Claim("among the bottom five cards", _akhenaton_in_the_bottom_five),
    Claim("fewer with three players", lambda: _plus_two_scribes(4) - _plus_two_scribes(3) == 1),
    Claim("The three open markets", _three_open_markets),
]
