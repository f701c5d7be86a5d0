"""R6 closing a market (payment, card choices, shame, other bidders, the reopening) and R7 the end
(the Akhenaton card, the last markets, the final scores); R13 against the play report."""

from __future__ import annotations

import pytest
from helpers_rules import (
    KIND,
    MARKET,
    between_turns,
    events,
    game,
    mark,
    names,
    open_louqsor,
    place,
    rebalance,
    resolve,
    stage_stall,
)

from nefertiti_core import GameOverError, violations
from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.scoring import score_breakdown, totals
from nefertiti_core.engine.state import CLOSED, OPEN, P_BID, P_OVER, P_SHAME, P_TAKE, P_TURN
from nefertiti_core.files import staging as S

CHAIR, HARP, GOLD, MIRROR = KIND["chair"], KIND["harp"], KIND["gold"], KIND["mirror"]


def take_set(*slots):
    return O.take_id(list(slots))


def gizeh_right_closing(characters=True):
    """Gizeh right: red (1) on 1, blue (2) on 2; green (0) places on 8 and closes (R3.2).

    Cards: upper chair (sealed), lower harp, gold, mirror. Green (8 Deben) is the highest bidder,
    then blue (2), then red (1).
    """
    g = game(characters=characters)
    S.set_cards(g, "gizeh", upper="chair", lower=["harp", "gold", "mirror"], seal=True)
    stage_stall(g, "gizeh", "right", [(1, 0), (2, 1)])
    S.start_turn(g, 0)
    since = mark(g)
    place(g, "gizeh", "right", 7)
    assert events(g, "market_closes", since)
    return g, since


# --- R6.2 the highest bidder ----------------------------------------------------------------------


def test_r6_2_highest_bidder_pays_the_bid_into_the_reserve_before_choosing():
    g, since = gizeh_right_closing()
    assert g.phase == P_TAKE and g.decider == 0
    assert g.deben[0] == 0  # had exactly 8: enough
    assert g.reserve[R.GIZEH] == 1 + 8
    assert events(g, "pay", since) == [
        {"seat": 0, "market": R.GIZEH, "amount": 8, "rule": "R6.2", "turn": g.turn_no}
    ]
    assert not any(g.gifts[0])
    assert violations(g) == []


def test_r6_2_plain_square_upper_with_seal_or_any_two_lower():
    g, _ = gizeh_right_closing()
    assert set(g.legal_options()) == {
        take_set(0),
        take_set(1, 2),
        take_set(1, 3),
        take_set(2, 3),
    }


def test_r6_2_taking_the_upper_card_gives_its_seal():
    g, _ = gizeh_right_closing()
    supply = g.seal_supply
    g.apply("take upper")
    assert g.gifts[0][CHAIR] == 1 and sum(g.gifts[0]) == 1
    assert g.seals[0] == 1
    assert not g.seal_on_upper[R.GIZEH]
    assert g.seal_supply == supply
    # blue is next, and can buy only the three lower cards
    assert g.phase == P_BID and g.decider == 2
    assert set(g.legal_options()) == {O.BUY_BASE + 1, O.BUY_BASE + 2, O.BUY_BASE + 3, O.HALF_ID}
    assert violations(g) == []


def test_r6_2_taking_two_lower_cards_gives_no_seal():
    g, _ = gizeh_right_closing()
    g.apply("take lower1+lower3")
    assert g.gifts[0][HARP] == 1 and g.gifts[0][MIRROR] == 1 and sum(g.gifts[0]) == 2
    assert g.seals[0] == 0
    assert g.cards[R.GIZEH] == [CHAIR, -1, GOLD, -1]
    assert g.seal_on_upper[R.GIZEH]


@pytest.mark.parametrize(
    "side, staged, last, roll",
    [("left", [(1, 1)], 2, (2, 3)), ("right", [(1, 0)], 1, (2,))],
    ids=["louqsor.left 3S", "louqsor.right 3S"],
)
def test_r6_2_single_card_square_exactly_one_card_of_either_row(side, staged, last, roll):
    g = game()
    open_louqsor(g, side, upper="chair", lower=["harp", "gold", "mirror"])
    stage_stall(g, "louqsor", side, staged)
    S.start_turn(g, 0)
    g.force_roll(*roll)
    place(g, "louqsor", side, last)
    assert g.phase == P_TAKE and g.decider == 0
    assert set(g.legal_options()) == {take_set(0), take_set(1), take_set(2), take_set(3)}
    g.apply("take upper")
    assert sum(g.gifts[0]) == 1 and g.gifts[0][CHAIR] == 1 and g.seals[0] == 1
    assert violations(g) == []


EXTRA_OPTIONS = {take_set(1, 2, 3), take_set(0, 1), take_set(0, 2), take_set(0, 3)}


def test_r6_2_extra_card_square_akhet_aton_left_10x_all_three_lower():
    g = game()
    S.set_cards(g, "akhet_aton", upper="chair", lower=["harp", "gold", "mirror"], seal=True)
    stage_stall(g, "akhet_aton", "left", [(1, 0), (2, 1), (3, 3)])
    S.set_deben(g, 0, 10)
    rebalance(g, 3)
    S.start_turn(g, 0)
    place(g, "akhet_aton", "left", 9)  # 10X completes the fourth level
    assert g.phase == P_TAKE and g.decider == 0
    assert g.deben[0] == 0
    assert set(g.legal_options()) == EXTRA_OPTIONS
    g.apply("take lower1+lower2+lower3")
    assert [g.gifts[0][k] for k in (HARP, GOLD, MIRROR, CHAIR)] == [1, 1, 1, 0]
    assert g.seals[0] == 0
    assert violations(g) == []


def test_r6_2_extra_card_square_abou_simbel_right_12x_upper_plus_one_lower():
    g = game()
    S.set_cards(g, "abou_simbel", upper="chair", lower=["harp", "gold", "mirror"], seal=True)
    stage_stall(g, "abou_simbel", "right", [(0, 8), (1, 0)])  # 12 + 1
    S.set_deben(g, 0, 12)
    rebalance(g, 3)
    S.start_turn(g, 2)
    place(g, "abou_simbel", "right", 6)  # + 6 = 19
    assert g.phase == P_TAKE and g.decider == 0
    assert set(g.legal_options()) == EXTRA_OPTIONS
    g.apply("take upper+lower2")
    assert g.gifts[0][CHAIR] == 1 and g.gifts[0][GOLD] == 1 and sum(g.gifts[0]) == 2
    assert g.seals[0] == 1
    assert violations(g) == []


# --- R6.3 the highest bidder cannot pay ------------------------------------------------------------


def abou_right_short_of_money(gifts=(), reserve=None):
    """Green (0) on 12X with 11 Deben, red (1) on 1; blue (2) places on 6 and closes (19)."""
    g = game()
    S.set_cards(g, "abou_simbel", upper="chair", lower=["harp", "gold", "mirror"], seal=True)
    stage_stall(g, "abou_simbel", "right", [(0, 8), (1, 0)])
    if gifts:
        S.give_gifts(g, 0, *gifts)
    S.set_deben(g, 0, 11)  # one short of 12
    if reserve is not None:
        S.set_reserve(g, "abou_simbel", reserve)
    rebalance(g, 3)
    S.start_turn(g, 2)
    since = mark(g)
    place(g, "abou_simbel", "right", 6)
    assert events(g, "market_closes", since)
    return g, since


def test_r6_3_highest_bidder_who_cannot_pay_discards_a_gift_of_their_choice():
    g, since = abou_right_short_of_money(gifts=("harp", "gold"))
    reserve = g.reserve[R.ABOU_SIMBEL]
    assert g.phase == P_SHAME and g.decider == 0
    assert set(g.legal_options()) == {O.DISCARD_BASE + HARP, O.DISCARD_BASE + GOLD}
    assert g.deben[0] == 11 and not events(g, "pay", since)
    g.apply("discard gold")
    assert g.gifts[0][GOLD] == 0 and g.gifts[0][HARP] == 1
    assert g.out_of_game[GOLD] == 1
    assert g.deben[0] == 11 and g.reserve[R.ABOU_SIMBEL] == reserve  # paid nothing
    assert g.owners[R.ABOU_SIMBEL][8] == -1 and g.hand[0] == 4  # the servant came home (R6.5)
    assert violations(g) == []


def test_r6_3_the_next_servant_is_not_promoted_after_a_shame_discard():
    g, since = abou_right_short_of_money(gifts=("harp",))  # one gift: the discard is forced
    assert events(g, "shame_discard", since)
    assert g.phase == P_BID and g.decider == 2  # blue's 6, asked as another bidder
    legal = set(g.legal_options())
    assert not {o for o in legal if O.OPTION_KIND[o] == O.TAKE}
    assert {O.BUY_BASE + s for s in range(4)} | {O.HALF_ID} == legal
    assert not events(g, "pay", since)


def test_r6_3_without_gifts_nothing_happens_and_the_next_is_not_promoted():
    g, since = abou_right_short_of_money()
    assert events(g, "cannot_pay_no_gift", since)
    assert g.deben[0] == 11 and not any(g.gifts[0])
    assert g.owners[R.ABOU_SIMBEL][8] == -1 and g.hand[0] == 4  # servant home (R6.5)
    assert g.phase == P_BID and g.decider == 2
    assert O.take_id([0]) not in g.legal_options()
    assert O.BUY_BASE + 0 in g.legal_options()


# --- R6.4 the other bidders --------------------------------------------------------------------------


def test_r6_4_another_bidder_buys_a_card_paying_the_bid_into_the_reserve():
    g, _ = gizeh_right_closing()
    g.apply("take lower1+lower2")
    blue, reserve = g.deben[2], g.reserve[R.GIZEH]
    g.apply("buy upper")  # blue, bid 2: the upper card comes with its seal
    assert g.deben[2] == blue - 2 and g.reserve[R.GIZEH] == reserve + 2
    assert g.gifts[2][CHAIR] == 1 and g.seals[2] == 1
    red = g.deben[1]
    assert g.phase == P_BID and g.decider == 1
    g.apply("buy lower3")  # red, bid 1
    assert g.deben[1] == red - 1 and g.reserve[R.GIZEH] == reserve + 3
    assert g.gifts[1][MIRROR] == 1
    assert violations(g) == []


def test_r6_4_half_the_reserve_rounded_up():
    g, since = gizeh_right_closing()
    g.apply("take upper")
    assert g.reserve[R.GIZEH] == 9
    assert O.PASS_ID not in g.legal_options()  # the reserve has money
    blue = g.deben[2]
    g.apply("half")
    assert g.deben[2] == blue + 5 and g.reserve[R.GIZEH] == 4
    red = g.deben[1]
    g.apply("half")
    assert g.deben[1] == red + 2 and g.reserve[R.GIZEH] == 2
    assert [d["amount"] for d in events(g, "half", since)] == [5, 2]
    assert violations(g) == []


def test_r6_4_pass_only_when_the_reserve_is_empty():
    g, since = abou_right_short_of_money(reserve=0)
    assert g.reserve[R.ABOU_SIMBEL] == 0
    assert g.phase == P_BID and g.decider == 2
    legal = set(g.legal_options())
    assert O.PASS_ID in legal and O.HALF_ID not in legal
    blue = g.deben[2]
    g.apply("pass")
    assert g.deben[2] == blue
    assert events(g, "pass", since)[0]["seat"] == 2
    assert violations(g) == []


def test_r6_4_a_bidder_who_cannot_pay_the_bid_can_only_take_half():
    g, since = gizeh_right_closing()
    S.set_deben(g, 2, 1)  # blue (bid 2) is one short
    rebalance(g, 3)
    g.refresh()
    g.apply("take upper")
    half = events(g, "half", since)
    assert half and half[0]["seat"] == 2  # forced: no buy was possible
    assert events(g, "forced", since)


# --- R6.5-R6.7 after the resolution --------------------------------------------------------------


def test_r6_5_r6_6_servants_return_stall_switches_tile_moves_unsold_cards_stay():
    g, _ = gizeh_right_closing()
    g.apply("take lower1+lower2")  # chair (upper) and mirror (lower3) are left
    g.apply("half")
    g.apply("half")
    assert g.hand == [4, 4, 4, 4]
    assert all(o == -1 for o in g.owners[R.GIZEH])
    assert g.status[R.GIZEH] == CLOSED and g.tile == R.GIZEH
    assert g.side[R.GIZEH] == R.LEFT  # the right stall was played: the left one is next
    assert g.cards[R.GIZEH] == [CHAIR, -1, -1, MIRROR]
    assert g.seal_on_upper[R.GIZEH]
    assert violations(g) == []


def test_r6_7_the_previous_tile_holder_reopens_with_four_cards_and_a_seal():
    g, since = gizeh_right_closing()
    supply = g.seal_supply
    g.apply("take lower1+lower2")
    resolve(g)
    lq = R.LOUQSOR
    assert g.status[lq] == OPEN
    assert g.side[lq] == R.LEFT  # R2.8: Louqsor opens on its left stall
    assert all(c >= 0 for c in g.cards[lq])
    assert g.seal_on_upper[lq] and g.seal_supply == supply - 1
    assert events(g, "reopen", since)[0]["market"] == lq
    assert between_turns(g) and g.decider == 1
    assert violations(g) == []


def _close_gizeh_with_louqsor_cards(louqsor_cards, seal, draws, characters=True):
    """Louqsor (the tile holder) holds ``louqsor_cards`` slot by slot; Gizeh closes and Louqsor
    reopens drawing ``draws`` in order."""
    g = game(characters=characters)
    present = [c for c in louqsor_cards if c is not None]
    S.set_cards(g, "louqsor", upper=present[0], lower=present[1:], seal=seal)
    g.cards[R.LOUQSOR] = [KIND[c] if c else -1 for c in louqsor_cards]  # same cards, moved
    assert g.seal_on_upper[R.LOUQSOR] == (seal and louqsor_cards[0] is not None)
    S.set_cards(g, "gizeh", upper="chair", lower=["harp", "gold", "mirror"], seal=True)
    stage_stall(g, "gizeh", "right", [(1, 0), (2, 1)])
    S.start_turn(g, 0)
    for card in draws:
        g.force_draw(card)
    assert violations(g) == []
    place(g, "gizeh", "right", 7)
    return g


def test_r6_7_leftmost_lower_card_moves_up_when_the_upper_slot_is_empty():
    g = _close_gizeh_with_louqsor_cards(
        [None, None, "statuette", "necklace"], seal=False, draws=["gold", "mirror"]
    )
    supply = g.seal_supply
    g.apply("take lower1+lower2")
    resolve(g)
    assert g.cards[R.LOUQSOR] == [KIND[k] for k in ("statuette", "necklace", "gold", "mirror")]
    assert g.seal_on_upper[R.LOUQSOR] and g.seal_supply == supply - 1
    assert violations(g) == []


def test_r6_7_lower_cards_slide_left_and_an_existing_seal_stays():
    g = _close_gizeh_with_louqsor_cards(
        ["statuette", None, "necklace", None], seal=True, draws=["gold", "mirror"]
    )
    supply = g.seal_supply
    g.apply("take lower1+lower2")
    resolve(g)
    assert g.cards[R.LOUQSOR] == [KIND[k] for k in ("statuette", "necklace", "gold", "mirror")]
    assert g.seal_on_upper[R.LOUQSOR] and g.seal_supply == supply  # no second seal
    assert violations(g) == []


def test_r6_7_an_empty_market_draws_upper_first_then_lower_left_to_right():
    g, _ = gizeh_right_closing()
    for card in ("gold", "mirror", "chair", "statuette"):
        g.force_draw(card)
    g.apply("take lower1+lower2")
    resolve(g)
    assert g.cards[R.LOUQSOR] == [KIND[k] for k in ("gold", "mirror", "chair", "statuette")]


def test_r6_7_with_an_empty_seal_supply_no_seal_is_placed():
    g, _ = gizeh_right_closing(characters=False)
    S.set_seals(g, 3, g.seal_supply)  # every seal left goes to black
    assert g.seal_supply == 0
    g.apply("take lower1+lower2")
    resolve(g)
    assert g.status[R.LOUQSOR] == OPEN
    assert all(c >= 0 for c in g.cards[R.LOUQSOR])
    assert not g.seal_on_upper[R.LOUQSOR]
    assert g.seal_supply == 0
    assert violations(g) == []


# --- R6.8, R7.1, R13 the Akhenaton card and the end ---------------------------------------------------


def _akhenaton_during_louqsor_refill():
    g, since = gizeh_right_closing()
    g.force_draw("harp")
    g.force_draw("akhenaton")
    g.apply("take lower1+lower2")
    resolve(g)
    return g, since


def test_r6_8_akhenaton_drawn_stops_the_refill_and_closes_that_market_for_good():
    g, since = _akhenaton_during_louqsor_refill()
    lq = R.LOUQSOR
    assert g.akhenaton_drawn and g.dead_market == lq
    assert R.AKHENATON not in g.deck
    assert g.cards[lq] == [HARP, -1, -1, -1]  # drawing stopped at the Akhenaton card
    assert g.status[lq] == CLOSED
    assert events(g, "akhenaton", since)[0]["market"] == lq
    assert not events(g, "reopen", since)
    assert violations(g) == []


def test_r13_r7_1_the_game_goes_on_after_the_akhenaton_card():
    g, _ = _akhenaton_during_louqsor_refill()
    assert not g.is_over and g.final is None
    assert g.phase == P_TURN and g.decider == 1
    assert g.open_markets() == [R.AKHET_ATON, R.ABOU_SIMBEL]
    offered = {O.SQUARE_STALL[o] >> 1 for o in g.legal_options() if O.OPTION_KIND[o] == O.PLACE}
    assert offered == {R.AKHET_ATON, R.ABOU_SIMBEL}


def test_r6_8_r7_1_no_market_reopens_and_the_game_ends_when_the_last_closes():
    g, _ = _akhenaton_during_louqsor_refill()
    # red (1) closes Akhet-Aton: Gizeh (the tile holder) stays closed; Abou Simbel is still open
    stage_stall(g, "akhet_aton", "left", [(2, 0), (3, 1), (0, 3)])
    S.start_turn(g, 1)
    since = mark(g)
    place(g, "akhet_aton", "left", 6)
    resolve(g)
    assert events(g, "stays_closed", since)[0]["market"] == R.GIZEH
    assert g.status == [CLOSED, CLOSED, OPEN, CLOSED]
    assert g.tile == R.AKHET_ATON
    assert not g.is_over and g.phase == P_TURN and g.decider == 2
    assert violations(g) == []
    # blue (2) closes Abou Simbel with exactly 11: the game is over
    stage_stall(g, "abou_simbel", "left", [(3, 5), (0, 3)])  # 7 + 2
    S.start_turn(g, 2)
    since = mark(g)
    place(g, "abou_simbel", "left", 2)  # + 2D = 11
    resolve(g)
    assert g.is_over and g.phase == P_OVER
    assert g.status == [CLOSED] * 4
    assert g.tile == R.ABOU_SIMBEL  # the tile is on the market that closed last (R7.1)
    assert "game_over" in names(g, since)
    assert g.legal_options() == ()
    assert [b.total for b in g.final] == totals(g)
    for p in range(4):
        b = score_breakdown(g, p)
        assert g.final[p] == b
        assert b.deben_points == g.deben[p] // 2
        assert b.seal_points == 3 * g.seals[p]
    with pytest.raises(GameOverError):
        g.apply("place gizeh.left#0")
    assert violations(g) == []


def test_r7_1_markets_still_open_at_akhenaton_keep_their_servants_and_bids():
    g = game()
    stage_stall(g, "akhet_aton", "left", [(3, 0)])
    S.set_cards(g, "gizeh", upper="chair", lower=["harp", "gold", "mirror"], seal=True)
    stage_stall(g, "gizeh", "right", [(1, 0), (2, 1)])
    S.start_turn(g, 0)
    g.force_draw("akhenaton")
    place(g, "gizeh", "right", 7)
    g.apply("take lower1+lower2")
    resolve(g)
    assert g.akhenaton_drawn and g.cards[R.LOUQSOR] == [-1, -1, -1, -1]
    assert g.owners[MARKET["akhet_aton"]][0] == 3  # R13: the open market is not wiped
    assert g.status[R.AKHET_ATON] == OPEN and not g.is_over
