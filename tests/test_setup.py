"""R2 setup: Deben by seat, the first player, the deck, the markets, the layout, the characters."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers_rules import MARKET, game

from nefertiti_core import new_game, violations
from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.state import CLOSED, OPEN, P_TURN
from nefertiti_core.files import staging as S

SEEDS = range(150)
OPEN_AT_START = ("gizeh", "akhet_aton", "abou_simbel")


# --- R2.6 starting Deben ---------------------------------------------------------------------


@pytest.mark.parametrize("first", range(4))
def test_r2_6_four_players_start_with_8_9_9_10_from_the_first_player(first):
    g = game(4, first_player=first)
    by_position = [g.deben[(first + k) % 4] for k in range(4)]
    assert by_position == [8, 9, 9, 10]
    assert g.reserve == [1, 1, 1, 1]  # R2.5
    assert sum(g.deben) + sum(g.reserve) == 40
    assert violations(g) == []


@pytest.mark.parametrize("first", range(3))
def test_r2_6_three_players_start_with_9_10_10_from_the_first_player(first):
    g = game(3, first_player=first)
    by_position = [g.deben[(first + k) % 3] for k in range(3)]
    assert by_position == [9, 10, 10]
    assert g.reserve == [1, 1, 1, 1]  # R2.5
    assert sum(g.deben) + sum(g.reserve) == 33
    assert violations(g) == []


# --- R2.7 the first player ---------------------------------------------------------------------


def test_r2_7_first_player_from_the_seed_is_deterministic_and_varies_across_seeds():
    firsts = []
    for seed in range(40):
        a = new_game(4, seed=seed)
        b = new_game(4, seed=seed)
        assert a.turn_player == b.turn_player
        assert a.decider == a.turn_player and a.phase == P_TURN
        # the first player is the one who received 8 Deben (R2.6)
        assert a.deben[a.turn_player] == 8
        firsts.append(a.turn_player)
    assert len(set(firsts)) > 1, "the seeded roll always picks the same seat"


@pytest.mark.parametrize("players", [3, 4])
def test_r2_7_first_player_given_by_the_caller_starts(players):
    for first in range(players):
        g = new_game(players, seed=5, first_player=first)
        assert g.turn_player == first
        assert g.decider == first
        assert g.deben[first] == R.STARTING_DEBEN[players][0]


# --- R2.1, R2.2 the deck -----------------------------------------------------------------------


def _all_gifts(g) -> Counter:
    cards = Counter(c for c in g.deck if c != R.AKHENATON)
    cards.update(c for market in g.cards for c in market if c >= 0)
    return cards


def test_r2_1_r2_2_four_player_deck_has_46_gifts_and_akhenaton_in_the_bottom_five():
    positions = set()
    for seed in SEEDS:
        g = new_game(4, seed=seed)
        gifts = _all_gifts(g)
        assert sum(gifts.values()) == 46
        assert [gifts[k] for k in range(R.NUM_KINDS)] == [5, 3, 8, 8, 6, 6, 5, 5]
        assert g.deck.count(R.AKHENATON) == 1
        assert R.AKHENATON in g.deck[0:5], f"seed {seed}: Akhenaton not in the bottom five"
        assert len(g.deck) == 46 - 12 + 1  # 12 cards on the three open markets
        positions.add(g.deck.index(R.AKHENATON))
    # shuffled with four gifts: it is not always at the same place among the bottom five
    assert len(positions) >= 3


def test_r2_1_r2_2_three_player_deck_has_38_gifts_without_senets():
    for seed in SEEDS:
        g = new_game(3, seed=seed)
        gifts = _all_gifts(g)
        assert sum(gifts.values()) == 38
        assert gifts[R.K_SENET] == 0 and gifts[R.K_DOUBLE_SENET] == 0
        assert R.AKHENATON in g.deck[0:5]
        assert g.deck.count(R.AKHENATON) == 1
        assert violations(g) == []


# --- R2 step 3, R2.9 the markets -----------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_r2_9_open_markets_have_four_cards_and_a_seal_on_the_upper_one(players):
    for seed in range(20):
        g = new_game(players, seed=seed)
        for name in OPEN_AT_START:
            m = MARKET[name]
            assert g.status[m] == OPEN
            assert all(c >= 0 for c in g.cards[m]), f"{name} has an empty slot"
            assert g.seal_on_upper[m]
        assert g.seal_supply == 12 - 3
        assert g.seals == [0] * players


def test_r2_3_step_louqsor_is_closed_with_the_tile_and_no_cards():
    g = game()
    lq = R.LOUQSOR
    assert g.status == [OPEN, OPEN, OPEN, CLOSED]
    assert g.tile == lq
    assert g.cards[lq] == [-1, -1, -1, -1]
    assert not g.seal_on_upper[lq]
    assert g.reserve[lq] == 1
    # no placement in the closed market is offered
    louqsor_squares = {
        O.place_id(lq, side, i) for side in (0, 1) for i in range(len(R.stall_of(lq, side).squares))
    }
    assert not louqsor_squares & set(g.legal_options())


def test_r1_2_every_player_starts_with_4_servants_0_prestige_0_seals():
    g = game()
    assert g.hand == [4, 4, 4, 4]
    assert g.prestige == [0, 0, 0, 0]
    assert g.seals == [0, 0, 0, 0]


# --- R2.8 the layout -----------------------------------------------------------------------------


def test_r2_8_first_game_layout_left_stalls_and_louqsor_opens_on_its_left():
    g = game(layout="first")
    assert g.side == [R.LEFT, R.LEFT, R.LEFT, R.LEFT]
    # the tile lies on Louqsor's left stall: that is the stall it opens on
    assert g.visible_stall(R.LOUQSOR).name == "louqsor.left"
    expected = {
        O.place_id(m, R.LEFT, i)
        for m in (R.GIZEH, R.AKHET_ATON, R.ABOU_SIMBEL)
        for i in range(len(R.stall_of(m, R.LEFT).squares))
    }
    assert set(g.legal_options()) == expected
    assert len(expected) == 7 + 10 + 7


def test_r2_8_random_layout_is_seeded_and_varies():
    layouts = []
    for seed in range(40):
        a = new_game(4, seed=seed, layout="random")
        b = new_game(4, seed=seed, layout="random")
        assert a.side == b.side
        layouts.append(tuple(a.side))
        # the offered squares are those of the visible stalls
        offered = {O.SQUARE_STALL[o] for o in a.legal_options()}
        assert offered == {m * 2 + a.side[m] for m in (0, 1, 2)}
    assert len(set(layouts)) > 3
    for m in range(4):
        assert {lay[m] for lay in layouts} == {R.LEFT, R.RIGHT}, f"{R.MARKETS[m]} never varies"


def test_r2_8_explicit_layout_of_four_sides():
    g = game(layout=("right", "left", "right", "right"))
    assert g.side == [R.RIGHT, R.LEFT, R.RIGHT, R.RIGHT]
    assert len(g.owners[R.GIZEH]) == 8 and len(g.owners[R.ABOU_SIMBEL]) == 9


# --- R2.3 the characters -------------------------------------------------------------------------


def test_r2_3_four_players_character_piles_in_order_13_cards():
    g = game(4)
    assert g.piles == [
        [R.C_VIZIER],
        [R.C_FIRST_MERCHANT, R.C_MERCHANT, R.C_MERCHANT],
        [R.C_HIGH_PRIEST],
        [R.C_CHIEF],
        [R.C_ROYAL_SERVANT, R.C_ROYAL_SERVANT],
        [R.C_SCRIBE3, R.C_SCRIBE2, R.C_SCRIBE2, R.C_SCRIBE1],
        [R.C_TREASURER],
    ]
    assert sum(len(p) for p in g.piles) == 13


def test_r2_3_three_players_one_scribe_plus_2_removed_12_cards():
    g = game(3)
    assert g.piles[R.SCRIBE] == [R.C_SCRIBE3, R.C_SCRIBE2, R.C_SCRIBE1]
    assert g.piles[R.MERCHANT] == [R.C_FIRST_MERCHANT, R.C_MERCHANT, R.C_MERCHANT]
    assert sum(len(p) for p in g.piles) == 12
    assert violations(g) == []


def test_r2_3_characters_false_offers_no_recruit_even_with_a_seal():
    with_chars = game(characters=True)
    without = game(characters=False)
    for g in (with_chars, without):
        S.set_seals(g, 0, 1)
        S.start_turn(g, 0)
    recruit = set(range(O.RECRUIT_BASE, O.RECRUIT_BASE + len(R.PILES)))
    assert O.RECRUIT_BASE + R.VIZIER in with_chars.legal_options()  # control
    assert not recruit & set(without.legal_options())
    assert violations(without) == []
