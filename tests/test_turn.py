"""R5 a turn: placement bonuses, refused placements, closing with no servant left, turn order."""

from __future__ import annotations

import pytest
from helpers_rules import (
    MARKET,
    between_turns,
    events,
    game,
    mark,
    place,
    rebalance,
    resolve,
    stage_stall,
)

from nefertiti_core import IllegalOptionError, violations
from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.state import CLOSED, OPEN, P_TURN
from nefertiti_core.files import staging as S


def placed(g, seat, market, side, index):
    """``seat`` places; return (Deben gained, the 'place' event)."""
    S.start_turn(g, seat)
    before = g.deben[seat]
    since = mark(g)
    place(g, market, side, index)
    return g.deben[seat] - before, events(g, "place", since)[0]


# --- R5.3 bonuses ----------------------------------------------------------------------------------


def test_r5_3_first_servant_on_an_empty_stall_earns_1_from_that_reserve():
    g = game()
    gained, ev = placed(g, 0, "gizeh", "left", 0)
    assert gained == 1
    assert g.reserve[R.GIZEH] == 0
    assert g.reserve[R.AKHET_ATON] == 1  # only that market's reserve pays
    assert ev["first_here"] and ev["bonus_paid"] == 1
    assert violations(g) == []


def test_r5_3_a_plain_square_on_an_occupied_stall_earns_nothing():
    g = game()
    stage_stall(g, "gizeh", "left", [(1, 0)])
    gained, ev = placed(g, 0, "gizeh", "left", 1)
    assert gained == 0
    assert g.reserve[R.GIZEH] == 1
    assert ev["bonus_due"] == 0


@pytest.mark.parametrize(
    "market, side, deben_square, other",
    [
        ("gizeh", "left", 3, 0),
        ("gizeh", "right", 3, 0),
        ("akhet_aton", "left", 4, 0),
        ("akhet_aton", "right", 5, 0),
        ("abou_simbel", "left", 2, 0),
        ("abou_simbel", "right", 4, 0),
    ],
)
def test_r5_3_a_deben_square_on_an_occupied_stall_earns_1(market, side, deben_square, other):
    g = game()
    stage_stall(g, market, side, [(1, other)])
    stall = R.stall_of(MARKET[market], R.SIDES.index(side))
    assert stall.squares[deben_square].symbol == R.DEBEN
    gained, ev = placed(g, 0, market, side, deben_square)
    assert gained == 1
    assert g.reserve[MARKET[market]] == 0
    assert ev["deben_square"] and not ev["first_here"]
    assert violations(g) == []


@pytest.mark.parametrize("reserve, gained, left", [(2, 2, 0), (3, 2, 1)])
def test_r5_3_first_servant_on_a_deben_square_earns_2_when_the_reserve_has_them(
    reserve, gained, left
):
    g = game()
    S.set_reserve(g, "gizeh", reserve)
    rebalance(g, 3)
    got, ev = placed(g, 0, "gizeh", "left", 3)  # 4D on an empty stall
    assert (got, g.reserve[R.GIZEH]) == (gained, left)
    assert ev["bonus_due"] == 2
    assert violations(g) == []


def test_r5_3_both_bonuses_due_with_one_deben_in_the_reserve_pay_1():
    g = game()
    assert g.reserve[R.GIZEH] == 1
    gained, ev = placed(g, 0, "gizeh", "left", 3)
    assert gained == 1
    assert g.reserve[R.GIZEH] == 0
    assert ev["bonus_due"] == 2 and ev["bonus_paid"] == 1
    assert violations(g) == []


def test_r5_3_an_empty_reserve_pays_nothing():
    g = game()
    S.set_reserve(g, "gizeh", 0)
    rebalance(g, 3)
    gained, ev = placed(g, 0, "gizeh", "left", 3)
    assert gained == 0
    assert g.reserve[R.GIZEH] == 0
    assert ev["bonus_paid"] == 0
    assert violations(g) == []


# --- R5.2 refused placements -----------------------------------------------------------------------


def _refused(g, text, rule):
    before = g.state_hash()
    with pytest.raises(IllegalOptionError) as info:
        g.apply(text)
    assert info.value.rule == rule
    assert g.state_hash() == before  # nothing changed


def test_r5_2_placing_on_the_closed_market_is_refused():
    g = game()
    assert g.status[R.LOUQSOR] == CLOSED
    _refused(g, "place louqsor.left#0", "R5.2")


def test_r5_2_placing_on_an_occupied_square_is_refused():
    g = game()
    stage_stall(g, "gizeh", "left", [(1, 4)])
    S.start_turn(g, 0)
    _refused(g, "place gizeh.left#4", "R5.2")


def test_r5_2_placing_on_the_covered_stall_is_refused():
    g = game()
    assert g.side[R.GIZEH] == R.LEFT
    _refused(g, "place gizeh.right#0", "R5.2")


def test_r5_2_a_player_may_place_several_servants_in_the_same_market():
    g = game()
    stage_stall(g, "gizeh", "left", [(0, 0), (0, 6)])  # 1 and 7: not connected
    S.start_turn(g, 0)
    assert O.place_id(R.GIZEH, R.LEFT, 4) in g.legal_options()
    place(g, "gizeh", "left", 4)  # 5 joins them: a group of 3, still open
    assert [i for i, o in enumerate(g.owners[R.GIZEH]) if o == 0] == [0, 4, 6]
    assert g.hand[0] == 1
    assert g.status[R.GIZEH] == OPEN
    assert violations(g) == []


# --- R5.4 no servant left --------------------------------------------------------------------------


def _all_servants_out(g):
    """Seat 0's four servants on Akhet-Aton (level 2 only) and Abou Simbel (1 + 1)."""
    stage_stall(g, "akhet_aton", "left", [(0, 1), (0, 2)])
    stage_stall(g, "abou_simbel", "left", [(0, 0), (0, 1)])
    stage_stall(g, "gizeh", "left", [(1, 0)])


def test_r5_4_no_servant_left_only_markets_holding_theirs_may_be_closed():
    g = game()
    _all_servants_out(g)
    S.start_turn(g, 0)
    assert g.hand[0] == 0
    assert g.legal_options() == (
        O.CLOSE_BASE + R.AKHET_ATON,
        O.CLOSE_BASE + R.ABOU_SIMBEL,
    )
    with pytest.raises(IllegalOptionError) as info:
        g.apply("place gizeh.left#1")
    assert info.value.rule == "R5.4"
    with pytest.raises(IllegalOptionError):
        g.apply("close gizeh")  # holds only red's servant


def test_r5_4_closing_a_market_by_choice_resolves_it_and_returns_the_servants():
    g = game()
    _all_servants_out(g)
    S.start_turn(g, 0)
    since = mark(g)
    g.apply("close abou_simbel")
    closing = events(g, "market_closes", since)
    assert closing and closing[0]["market"] == R.ABOU_SIMBEL
    assert closing[0]["cause"] == "no_servant"
    resolve(g)
    assert g.status[R.ABOU_SIMBEL] == CLOSED
    assert g.hand[0] == 2  # the two from Abou Simbel came back
    assert g.status[R.AKHET_ATON] == OPEN
    assert between_turns(g) and g.decider == 1  # R5.5
    assert violations(g) == []


def test_r5_4_a_single_market_holding_theirs_is_closed_automatically():
    g = game()
    stage_stall(g, "abou_simbel", "left", [(0, 0), (0, 1), (0, 2), (0, 3)])  # 1+1+2+2 = 6
    since = mark(g)
    S.start_turn(g, 0)
    assert events(g, "close_by_choice", since)[0]["market"] == R.ABOU_SIMBEL
    assert events(g, "market_closes", since)


# --- R5.5 who plays next ----------------------------------------------------------------------------


@pytest.mark.parametrize("seat", range(4))
def test_r5_5_after_a_placement_the_next_seat_plays(seat):
    g = game()
    S.start_turn(g, seat)
    place(g, "akhet_aton", "left", 0)
    assert g.phase == P_TURN
    assert g.turn_player == g.decider == (seat + 1) % 4


@pytest.mark.parametrize("closer", [2, 3])
def test_r5_5_after_a_closing_the_player_left_of_the_closer_plays(closer):
    g = game()
    others = [s for s in range(4) if s != closer][:2]
    stage_stall(g, "gizeh", "right", [(others[0], 0), (others[1], 1)])
    S.start_turn(g, closer)
    since = mark(g)
    place(g, "gizeh", "right", 2)  # a third colour: closes (R3.2)
    assert events(g, "market_closes", since)
    assert g.decider == closer  # the closer is the highest bidder (3)
    resolve(g)
    assert g.status[R.GIZEH] == CLOSED
    assert between_turns(g)
    assert g.turn_player == g.decider == (closer + 1) % 4
    assert violations(g) == []


def test_r5_5_the_closer_plays_next_turn_order_not_the_highest_bidder():
    g = game()
    stage_stall(g, "gizeh", "right", [(2, 7), (3, 6)])  # 8 and 7: seat 2 is the highest bidder
    S.start_turn(g, 0)
    place(g, "gizeh", "right", 0)
    assert g.decider == 2
    resolve(g)
    assert g.turn_player == g.decider == 1  # left of seat 0, who caused the closing
