"""nefertiti_core.teaching.status: how close each market is to closing (R3, R4) and option previews.

Every claim of :func:`stall_status` is checked against the engine itself: for each empty square a
copy of the game plays the placement with ``apply`` and we look for a ``market_closes`` event; for
Louqsor every dice outcome is fixed with ``force_roll`` (R4.4) on its own copy. Rule IDs refer to
``shared/rules/RULINGS.md``.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import string
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nefertiti_core import IllegalOptionError, new_game, violations
from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import LANGUAGES, catalog
from nefertiti_core.engine.state import CLOSED, P_REROLL, P_TAKE
from nefertiti_core.files import staging as S
from nefertiti_core.teaching.status import (
    CLOSED as ST_CLOSED,
)
from nefertiti_core.teaching.status import (
    DEAD,
    OPEN,
    RESOLVING,
    Message,
    Preview,
    StallStatus,
    all_statuses,
    describe_preview,
    describe_status,
    format_probability,
    louqsor_probability,
    preview,
    stall_status,
)

ROOT = Path(__file__).resolve().parent.parent
MESSAGES = ROOT / "nefertiti_core" / "messages"
SOURCE = ROOT / "nefertiti_core" / "teaching" / "status.py"
MARKET = {name: i for i, name in enumerate(R.MARKETS)}
SIDE = {name: i for i, name in enumerate(R.SIDES)}
DETERMINISTIC = [st for st in R.STALLS if st.rule not in (R.TWO_DICE, R.ONE_DIE_RUN)]


# --- helpers ------------------------------------------------------------------------------------


def game(seed: int = 1, players: int = 4):
    return new_game(players=players, seed=seed, first_player=0, record_events=True)


def stage(market: str, side: str, servants=(), seat: int = 0, seed: int = 1):
    """A game whose ``market`` shows ``side`` (open) with ``(seat, index)`` servants; ``seat`` to
    move. Louqsor is opened with four cards and Gizeh takes the tile (R12: 3 markets open)."""
    g = game(seed)
    if market == "louqsor":
        S.set_tile(g, "gizeh")
        S.set_stall(g, "louqsor", side, "open")
        S.set_cards(g, "louqsor", upper="harp", lower=["chair", "mirror", "statuette"])
    else:
        S.set_stall(g, market, side, "open")
    for owner, index in servants:
        S.put_servant(g, owner, market, index)
    S.start_turn(g, seat)
    return g


def played_closes(g, option, roll=()) -> bool:
    """Apply ``option`` on a copy (``roll`` fixed first) and say whether a market closed."""
    c = g.copy()
    if roll:
        c.force_roll(*roll)
    since = len(c.log)
    c.apply(option)
    if roll:
        assert c.last_roll == tuple(roll)
    # the option's own closing, not a later forced one (R5.4) by the next player
    return any(
        name == "market_closes" and data["cause"] in ("placement", "reroll")
        for name, data in c.log[since:]
    )


def brute_force_closers(g, market: str) -> set[int]:
    """The empty squares whose placement, by the player to move, closes ``market`` (no dice)."""
    m = MARKET[market]
    side = g.side[m]
    return {
        i
        for i, owner in enumerate(g.owners[m])
        if owner < 0 and played_closes(g, O.place_id(m, side, i))
    }


def brute_force_chance(g, option, dice: int) -> Fraction:
    """The closing frequency of ``option`` over every equally likely roll (R3.7, R3.8)."""
    outcomes = list(itertools.product(range(1, 7), repeat=dice))
    hits = sum(played_closes(g, option, roll) for roll in outcomes)
    return Fraction(hits, len(outcomes))


def reroll_position(servants, side: str = "left"):
    """Louqsor with ``servants``; Green holds the dice from an earlier turn, places on Akhet-Aton
    (which does not close it) and must now decide whether to roll again (R4.2)."""
    g = stage("louqsor", side, servants)
    S.set_holder(g, 0)
    S.start_turn(g, 0)
    g.apply("place akhet_aton.left#6")
    assert g.phase == P_REROLL and g.decider == 0
    return g


def rendered_ok(text: str) -> bool:
    return bool(text) and "{" not in text and "}" not in text


# --- R3.1-R3.6: would_close is exactly the set of closing squares --------------------------------

# (market, side, staged servants, placer): positions near and far from closing, per stall.
POSITIONS = [
    # R3.1 gizeh.left: a chain of 3 (1-3-5 in rulebook values), two pairs, nothing.
    ("gizeh", "left", [(1, 0), (2, 2), (3, 4)], 0),
    ("gizeh", "left", [(1, 3), (2, 6)], 0),
    ("gizeh", "left", [(1, 1), (1, 3), (2, 5)], 0),
    ("gizeh", "left", [], 0),
    # R3.2 gizeh.right: colours matter, so the placer changes the answer.
    ("gizeh", "right", [(1, 0), (2, 5)], 0),
    ("gizeh", "right", [(1, 0), (2, 5)], 1),
    ("gizeh", "right", [(1, 0), (1, 5), (1, 7)], 1),
    ("gizeh", "right", [(1, 0), (1, 5)], 0),
    ("gizeh", "right", [(0, 0), (0, 5)], 0),
    # R3.3 akhet_aton.left: one level missing, two levels missing.
    ("akhet_aton", "left", [(1, 0), (2, 1), (3, 9)], 0),
    ("akhet_aton", "left", [(1, 0), (2, 4)], 0),
    # R3.4 akhet_aton.right: two threats, one threat, a blocked centre.
    ("akhet_aton", "right", [(1, 0), (2, 4), (3, 6)], 0),
    ("akhet_aton", "right", [(1, 0), (2, 1)], 0),
    ("akhet_aton", "right", [(1, 4)], 0),
    # R3.5 abou_simbel.left: sum 12 (2 -> 14, 5+ -> 17), sum 9 (2 -> 11, 5 -> 14, 8 -> 17).
    ("abou_simbel", "left", [(1, 0), (2, 1), (3, 2), (1, 6)], 0),
    ("abou_simbel", "left", [(1, 0), (2, 1), (3, 5)], 0),
    ("abou_simbel", "left", [(1, 4)], 0),
    # R3.6 abou_simbel.right: sum 9 (only 12 closes), sum 13 (3D, 6, 7, 12 ... close).
    ("abou_simbel", "right", [(1, 0), (2, 2), (3, 6)], 0),
    ("abou_simbel", "right", [(1, 2), (2, 3), (3, 4), (1, 5), (2, 0), (3, 1)], 0),
]


@pytest.mark.parametrize(
    "market,side,servants,placer",
    POSITIONS,
    ids=[f"{p[0]}.{p[1]}-{i}" for i, p in enumerate(POSITIONS)],
)
def test_r3_would_close_is_exactly_the_squares_whose_placement_closes(
    market, side, servants, placer
):
    g = stage(market, side, servants, seat=placer)
    before = g.state_hash()
    status = stall_status(g, market)
    assert g.state_hash() == before  # reading never changes the game
    assert status.condition == OPEN and status.seat == placer
    assert set(status.would_close) == brute_force_closers(g, market)
    assert dict(status.closing_chances) == {
        i: Fraction(int(i in status.would_close)) for i in status.empty
    }
    assert violations(g) == []


def test_r3_1_gizeh_left_chain_of_three_reports_group_size_and_closing_squares():
    # rulebook values 1, 3, 5 are squares 0, 2, 4; 4 and 6 and 2 and 7 touch the chain
    g = stage("gizeh", "left", [(1, 0), (2, 2), (3, 4)])
    status = stall_status(g, "gizeh")
    assert status.rule_id == "R3.1"
    assert Message.of("status.progress.connected", size=3) in status.progress
    assert set(status.would_close) == {1, 3, 5, 6}
    assert status.placements_needed == 1
    empty = stall_status(stage("gizeh", "left"), "gizeh")
    assert empty.placements_needed == 4 and empty.would_close == ()


def test_r3_2_gizeh_right_depends_on_the_placers_colour():
    g = stage("gizeh", "right", [(1, 0), (2, 5)])
    assert stall_status(g, "gizeh").would_close == stall_status(g, "gizeh").empty  # green
    assert stall_status(g, "gizeh", seat=1).would_close == ()  # red is already there
    assert stall_status(g, "gizeh", seat=3).would_close == stall_status(g, "gizeh").empty
    text = describe_status(stall_status(g, "gizeh"), g.colours, "en")
    assert "Red and Blue" in text and "Green or Black" in text
    three_red = stage("gizeh", "right", [(1, 0), (1, 5), (1, 7)], seat=1)
    assert stall_status(three_red, "gizeh").would_close == stall_status(three_red, "gizeh").empty


def test_r3_2_gizeh_right_with_three_players_names_the_one_missing_colour():
    g = game(players=3)
    S.set_stall(g, "gizeh", "right", "open")
    S.put_servant(g, 1, "gizeh", 0)
    S.put_servant(g, 2, "gizeh", 1)
    S.start_turn(g, 1)
    status = stall_status(g, "gizeh")
    assert status.seat == 1 and status.would_close == ()
    assert stall_status(g, "gizeh", seat=0).would_close == status.empty
    hint = next(m for m in status.progress if m.key == "status.hint.colours.new_colour")
    assert hint.kwargs["new"].seats == (0,)
    assert "(Green)" in describe_status(status, g.colours, "en")


def test_r3_3_akhet_aton_left_names_the_missing_level():
    g = stage("akhet_aton", "left", [(1, 0), (2, 1), (3, 9)])
    status = stall_status(g, "akhet_aton")
    assert set(status.would_close) == {3, 4, 5}  # level 3 is squares 3, 4D, 5
    keys = [m.key for m in status.progress]
    assert "status.progress.levels.one" in keys
    assert status.progress[0].kwargs["level"] == 3
    assert "level 3" in describe_status(status, g.colours, "en")


def test_r3_4_akhet_aton_right_two_in_a_row_on_top_names_square_2():
    g = stage("akhet_aton", "right", [(1, 0), (2, 1)])
    status = stall_status(g, "akhet_aton")
    assert status.would_close == (2,)
    text = describe_status(status, g.colours, "en")
    assert "top row" in text and "the 2 completes it" in text


def test_r3_5_abou_simbel_left_sum_12_a_bid_of_2_makes_14_and_5_or_more_reaches_17():
    # 1 + 1 + 2D + 8 = 12; empty: the plain 2, the 5 and the 7
    g = stage("abou_simbel", "left", [(1, 0), (2, 1), (3, 2), (1, 6)])
    status = stall_status(g, "abou_simbel")
    assert set(status.would_close) == {3, 4, 5}
    keys = {m.key: m.kwargs for m in status.progress}
    assert keys["status.progress.sum_left"] == {"total": 12}
    assert keys["status.sum.exact"] == {"value": 2, "target": 14}
    assert keys["status.sum.reach_more"] == {"value": 5}
    text = describe_status(status, g.colours, "en")
    assert "add up to 12" in text and "exactly 14" in text and "5 or more" in text


def test_r3_5_abou_simbel_left_a_bid_that_jumps_past_14_does_not_close():
    # 7 + 5 = 12: a 1 makes 13 (no), a 2 makes 14 (yes), the 8 makes 20 (yes)
    g = stage("abou_simbel", "left", [(1, 4), (2, 5)])
    status = stall_status(g, "abou_simbel")
    assert set(status.would_close) == {2, 3, 6} == brute_force_closers(g, "abou_simbel")


def test_r3_6_abou_simbel_right_sum_9_needs_8_more():
    g = stage("abou_simbel", "right", [(1, 0), (2, 2), (3, 6)])  # 1 + 2 + 6
    status = stall_status(g, "abou_simbel")
    assert status.would_close == (8,)  # only the 12 reaches 17
    assert Message.of("status.progress.sum_right", total=9, missing=8) in status.progress
    assert "8 short of the 17" in describe_status(status, g.colours, "en")
    assert status.placements_needed == 1


# --- hypothesis: random occupancies of every shape, sum and colour stall ------------------------


@st.composite
def occupancies(draw, stall):
    """Servants on ``stall`` that do not close it (R3.10), none more than a seat owns; seat 0,
    the placer, keeps at least one servant in hand."""
    size = len(stall.squares)
    squares = draw(st.lists(st.integers(0, size - 1), unique=True, max_size=min(size - 1, 9)))
    owners = draw(st.lists(st.integers(0, 3), min_size=len(squares), max_size=len(squares)))
    mask = sum(1 << i for i in squares)
    if stall.rule == R.COLOURS3_OR_4:
        closed = len(squares) >= 4 or len(set(owners)) >= 3
    else:
        closed = R.CLOSES_TABLE[stall.id][mask]
    fits = owners.count(0) <= 3 and all(owners.count(s) <= 4 for s in (1, 2, 3))
    if closed or not fits:
        draw(st.nothing())
    return list(zip(owners, squares, strict=True))


@pytest.mark.parametrize("stall", DETERMINISTIC, ids=lambda s: s.name)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_r3_would_close_matches_the_engine_on_random_occupancies(stall, data):
    servants = data.draw(occupancies(stall))
    market, side = R.MARKETS[stall.market], R.SIDES[stall.side]
    g = stage(market, side, servants)
    status = stall_status(g, market)
    assert set(status.would_close) == brute_force_closers(g, market)
    needed = status.placements_needed
    assert needed is not None and needed >= 1
    # one more servant suffices exactly when some seat (any colour, R3.2) could close it now
    anyone = any(stall_status(g, market, seat=s).would_close for s in range(g.n))
    assert (needed == 1) == anyone
    if stall.rule != R.COLOURS3_OR_4:
        assert (needed == 1) == bool(status.would_close)


# --- R3.7, R3.8, R4: Louqsor's exact probabilities ---------------------------------------------


def test_r3_7_rulebook_example_2_3_7_closes_on_2_2_2_3_3_2_3_3_only():
    g = reroll_position([(1, 1), (2, 2), (3, 6)])  # values 2, 3, 7
    status = stall_status(g, "louqsor")
    assert status.louqsor_next_roll_probability == Fraction(4, 36)
    closing = {
        roll
        for roll in itertools.product(range(1, 7), repeat=2)
        if played_closes(g, O.REROLL_ID, roll)
    }
    assert closing == {(2, 2), (2, 3), (3, 2), (3, 3)}
    text = describe_status(status, g.colours, "en")
    assert "2, 3 and 7" in text and "4/36 (11%)" in text


def test_r3_8_rulebook_example_3_4_5_8_run_of_3_closes_on_3_or_less():
    g = reroll_position([(1, 1), (2, 2), (3, 3), (1, 6)], side="right")  # values 3, 4, 5, 8
    status = stall_status(g, "louqsor")
    assert status.louqsor_next_roll_probability == Fraction(3, 6)
    closing = {d for d in range(1, 7) if played_closes(g, O.REROLL_ID, (d,))}
    assert closing == {1, 2, 3}
    first = status.progress[0]
    assert first.key == "status.progress.one_die" and first.kwargs["run"] == 3
    assert first.kwargs["values"].values == (3, 4, 5)
    assert "3/6 (50%)" in describe_status(status, g.colours, "en")


LOUQSOR_POSITIONS = [
    ("left", []),
    ("left", [(1, 1), (2, 2), (3, 6)]),
    ("left", [(1, 0), (2, 3), (3, 5)]),
    ("left", [(1, 0), (2, 1), (3, 2), (1, 3), (2, 4)]),  # one more on 6 closes whatever the dice
    ("right", []),
    ("right", [(1, 1), (2, 2), (3, 3), (1, 6)]),
    ("right", [(1, 0), (2, 4), (3, 6)]),
    ("right", [(1, 0), (2, 1), (3, 2), (1, 3), (2, 4)]),  # 2..6 occupied: the 7 makes a run of 6
]


@pytest.mark.parametrize("side,servants", LOUQSOR_POSITIONS)
def test_r3_7_r3_8_each_square_chance_equals_the_enumerated_dice(side, servants):
    g = stage("louqsor", side, servants)
    status = stall_status(g, "louqsor")
    dice = 2 if side == "left" else 1
    assert status.dice == dice
    for i in status.empty:
        option = O.place_id(R.LOUQSOR, SIDE[side], i)
        assert status.chance(i) == brute_force_chance(g, option, dice), i
    assert set(status.would_close) == {i for i in status.empty if status.chance(i) == 1}
    assert violations(g) == []


@pytest.mark.parametrize("side,servants", [p for p in LOUQSOR_POSITIONS if p[1]])
def test_r4_2_next_roll_probability_equals_the_enumerated_reroll(side, servants):
    g = reroll_position(servants, side)
    dice = 2 if side == "left" else 1
    status = stall_status(g, "louqsor")
    assert status.louqsor_next_roll_probability == brute_force_chance(g, O.REROLL_ID, dice)


def test_r3_7_full_house_closes_for_sure_and_value_7_adds_nothing():
    g = stage("louqsor", "left", [(1, 0), (2, 1), (3, 2), (1, 3), (2, 4)])
    status = stall_status(g, "louqsor")
    assert status.would_close == (5,)  # the 6 completes 1..6: every roll closes
    assert status.chance(6) == Fraction(25, 36) == status.louqsor_next_roll_probability


def _sampled_frequency(g, option, runs: int) -> float:
    hits = 0
    for k in range(runs):
        c = g.copy()
        c.rng = random.Random(10_000 + k)  # the copy's own chance, a different one each time
        since = len(c.log)
        c.apply(option)
        hits += any(name == "market_closes" for name, _ in c.log[since:])
    return hits / runs


@pytest.mark.parametrize(
    "side,servants,square",
    [("left", [(1, 1), (2, 2), (3, 6)], 0), ("right", [(1, 1), (2, 2), (3, 6)], 4)],
)
def test_r4_monte_carlo_closing_frequency_matches_the_exact_probability(side, servants, square):
    g = stage("louqsor", side, servants)
    p = stall_status(g, "louqsor").chance(square)
    assert 0 < p < 1
    runs = 1500
    freq = _sampled_frequency(g, O.place_id(R.LOUQSOR, SIDE[side], square), runs)
    sigma = (float(p) * (1 - float(p)) / runs) ** 0.5
    assert abs(freq - float(p)) < 4.5 * sigma, (freq, p)


def test_louqsor_probability_uses_rolls_already_fixed():
    stall_id = R.LOUQSOR * 2 + R.LEFT
    mask = 0b0000110  # values 2 and 3
    assert louqsor_probability(stall_id, mask) == Fraction(4, 36)
    assert louqsor_probability(stall_id, mask, (2,)) == Fraction(2, 6)
    assert louqsor_probability(stall_id, mask, (1,)) == 0
    assert louqsor_probability(stall_id, mask, (3, 2)) == 1


# --- closed markets ----------------------------------------------------------------------------


def test_louqsor_starts_closed_with_the_tile_and_reopens_on_its_left_stall():
    g = game()
    status = stall_status(g, "louqsor")
    assert status.condition == ST_CLOSED and status.has_tile and status.side == R.LEFT
    assert status.would_close == () and status.louqsor_next_roll_probability is None
    assert status.progress[0].key == "status.closed_tile"
    assert [s.condition for s in all_statuses(g)] == [OPEN, OPEN, OPEN, ST_CLOSED]
    assert "Market Closed tile" in describe_status(status, g.colours, "en")


def test_r6_8_a_market_closed_by_the_akhenaton_card_is_permanently_closed():
    g = game()
    g.akhenaton_drawn = True
    g.dead_market = R.AKHET_ATON
    g.status[R.AKHET_ATON] = CLOSED
    dead = stall_status(g, "akhet_aton")
    assert dead.condition == DEAD and not dead.has_tile
    assert stall_status(g, "louqsor").progress[0].key == "status.closed_tile_final"
    assert "Akhenaton" in describe_status(dead, g.colours, "en")


# --- previews ----------------------------------------------------------------------------------


def test_r5_3_preview_first_servant_on_a_deben_square_with_a_reserve_of_1():
    g = stage("gizeh", "left")
    assert g.reserve[R.GIZEH] == 1
    before = g.state_hash()
    p = preview(g, "place gizeh.left#3")  # the 4D square of an empty stall
    assert g.state_hash() == before
    assert (p.bonus_due, p.bonus_paid, p.deben) == (2, 1, 1)
    assert p.reserve_changes == (-1, 0, 0, 0)
    assert p.closes is False and p.closing_probability is None and p.next_decider == 1
    text = describe_preview(p, g, "en")
    assert "Green gains 1 Deben" in text and "only has 1" in text
    real = g.copy()
    real.apply("place gizeh.left#3")
    assert real.deben[0] - g.deben[0] == p.deben and real.decider == p.next_decider


def test_r5_3_preview_both_bonuses_paid_from_a_richer_reserve():
    g = stage("gizeh", "left")
    S.set_reserve(g, "gizeh", 3)
    S.set_deben(g, 3, g.deben[3] - 2)  # keep the Deben total (R12)
    p = preview(g, "place gizeh.left#3")
    assert (p.bonus_due, p.bonus_paid, p.deben) == (2, 2, 2)
    second = preview(g, "place gizeh.left#0")  # first servant, no Deben symbol
    assert (second.bonus_due, second.bonus_paid, second.deben) == (1, 1, 1)
    assert violations(g) == []


def test_preview_closing_placement_says_it_closes_and_charges_the_highest_bidder():
    g = stage("akhet_aton", "right", [(1, 0), (2, 1)])
    S.set_cards(g, "akhet_aton", upper="chair", lower=["harp", "gold", "mirror"])
    S.start_turn(g, 0)
    p = preview(g, "place akhet_aton.right#2")
    assert p.closes is True and p.closing_market == R.AKHET_ATON
    assert p.deben == -2 and p.reserve_changes[R.AKHET_ATON] == 2  # green's 2 is the top bid
    assert p.next_decider == 0  # green now chooses the cards (R6.2)
    assert preview(g, "place akhet_aton.right#3").closes is False
    for lang in LANGUAGES:
        assert rendered_ok(describe_preview(p, g, lang))
    assert "Akhet-Aton closes" in describe_preview(p, g, "en")


def test_r6_2_preview_of_the_highest_bidders_take_shows_the_cards_and_the_seal():
    g = stage("akhet_aton", "right", [(1, 0), (2, 1)])
    S.set_cards(g, "akhet_aton", upper="chair", lower=["harp", "gold", "mirror"])
    S.start_turn(g, 0)
    g.apply("place akhet_aton.right#2")
    assert g.phase == P_TAKE and g.decider == 0
    assert stall_status(g, "akhet_aton").condition == RESOLVING
    upper = preview(g, "take upper")
    kind = R.CARD_KINDS.index
    assert upper.cards_gained == (kind("chair"),) and upper.seals == 1 and upper.deben == 0
    assert upper.next_decider == 2  # then blue's 1 (R6.4)
    lower = preview(g, "take lower1+lower3")
    assert sorted(lower.cards_gained) == sorted((kind("harp"), kind("mirror")))
    assert lower.seals == 0 and lower.closes is False
    text = describe_preview(lower, g, "en")
    assert "harp" in text and "mirror" in text
    assert "Royal Seal" in describe_preview(upper, g, "en")
    assert "椅子" in describe_preview(upper, g, "zh")


def test_r3_7_preview_of_a_louqsor_placement_computes_the_chance_without_rolling():
    g = stage("louqsor", "left", [(1, 1), (2, 2), (3, 6)])
    rng_before, hash_before = g.rng.getstate(), g.state_hash()
    p = preview(g, "place louqsor.left#0")
    assert g.rng.getstate() == rng_before and g.state_hash() == hash_before
    assert p.closes is None and p.closing_probability == Fraction(9, 36)
    assert p.closing_probability == stall_status(g, "louqsor").chance(0)
    assert p.next_decider is None
    assert p.if_closes.closes is True and p.if_not.closes is False
    assert p.if_not.next_decider == 1
    assert p.if_closes.closing_market == R.LOUQSOR
    text = describe_preview(p, g, "en")
    assert "9/36 (25%)" in text and "If it closes" in text


def test_r4_4_preview_honours_a_roll_already_fixed():
    g = stage("louqsor", "left", [(1, 1), (2, 2), (3, 6)])
    g.force_roll(2, 3)
    p = preview(g, "place louqsor.left#0")
    assert p.closes is True and p.closing_probability == 1
    assert g.forced_rolls == [2, 3]  # still waiting for the real placement
    g.forced_rolls.clear()
    g.force_roll(4, 4)
    assert preview(g, "place louqsor.left#0").closes is False


def test_r4_2_preview_of_a_reroll_has_the_next_roll_probability():
    g = reroll_position([(1, 1), (2, 2), (3, 6)])
    p = preview(g, "reroll")
    assert p.closes is None
    assert p.closing_probability == stall_status(g, "louqsor").louqsor_next_roll_probability
    keep = preview(g, "keep")
    assert keep.closes is False and keep.closing_probability is None and keep.next_decider == 1


def test_r5_4_preview_of_closing_a_market_without_servants():
    g = stage("gizeh", "left", [(0, 0), (0, 6)], seat=0)
    S.put_servant(g, 0, "abou_simbel", 0)
    S.put_servant(g, 0, "abou_simbel", 6)
    S.start_turn(g, 0)
    assert g.legal_options() == (O.CLOSE_BASE + R.GIZEH, O.CLOSE_BASE + R.ABOU_SIMBEL)
    p = preview(g, "close gizeh")
    assert p.closes is True and p.closing_market == R.GIZEH and p.then_closes == ()


def test_r5_4_preview_tells_a_forced_closing_by_the_next_player_apart_from_its_own():
    # red's four servants are all on Abou Simbel: after green's turn red must close it (R5.4)
    g = stage("abou_simbel", "right", [(1, 0), (1, 1), (1, 2), (1, 3)])
    p = preview(g, "place abou_simbel.right#4")
    assert p.closes is False and p.closing_market == -1
    assert p.then_closes == (R.ABOU_SIMBEL,)
    assert p.deben == 1 - 3  # the 3D bonus, then green's 3 is the highest bid of that closing
    assert "through a forced move" in describe_preview(p, g, "en")
    assert stall_status(g, "abou_simbel").would_close == (8,)


def test_preview_of_an_illegal_option_raises_and_changes_nothing():
    g = stage("gizeh", "left", [(1, 0)])
    before = g.state_hash()
    with pytest.raises(IllegalOptionError):
        preview(g, "place gizeh.left#0")
    assert g.state_hash() == before


# --- texts in every language -------------------------------------------------------------------


def _positions():
    yield game()
    for market, side, servants, placer in POSITIONS:
        yield stage(market, side, servants, seat=placer)
    for side, servants in LOUQSOR_POSITIONS:
        yield stage("louqsor", side, servants)
    yield reroll_position([(1, 1), (2, 2), (3, 6)])
    g = stage("akhet_aton", "right", [(1, 0), (2, 1)])
    g.apply("place akhet_aton.right#2")  # Akhet-Aton is being resolved
    yield g


def test_every_status_renders_in_every_language_without_placeholders():
    seen_keys = set()
    for g in _positions():
        for status in all_statuses(g):
            assert isinstance(status, StallStatus)
            seen_keys.update(m.key for m in status.progress)
            texts = {lang: describe_status(status, g.colours, lang) for lang in LANGUAGES}
            for lang, text in texts.items():
                assert rendered_ok(text), (lang, text)
            assert len(set(texts.values())) == len(LANGUAGES)  # really translated
    assert len(seen_keys) >= 15


def test_every_preview_renders_in_every_language_without_placeholders():
    g = stage("louqsor", "left", [(1, 1), (2, 2), (3, 6)])
    for option in g.legal_options():
        p = preview(g, option)
        assert isinstance(p, Preview)
        for lang in LANGUAGES:
            assert rendered_ok(describe_preview(p, g, lang))


def test_probabilities_read_as_fraction_over_the_dice_and_percent():
    assert format_probability(Fraction(4, 36), 36, "en") == "4/36 (11%)"
    assert format_probability(Fraction(4, 36), 36, "de") == "4/36 (11 %)"
    assert format_probability(Fraction(4, 36), 36, "zh") == "4/36（11%）"
    assert format_probability(Fraction(1, 2), 6, "en") == "3/6 (50%)"
    assert format_probability(Fraction(1, 36), 36, "en") == "1/36 (3%)"


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("filename", ["status.json", "previews.json"])
def test_status_catalogs_are_complete_in_all_three_languages(filename):
    data = {lang: json.loads((MESSAGES / lang / filename).read_text("utf-8")) for lang in LANGUAGES}
    keys = {k for k in data["en"] if not k.startswith("_")}
    for lang in LANGUAGES:
        assert {k for k in data[lang] if not k.startswith("_")} == keys, lang
        for key in keys:
            assert _placeholders(data[lang][key]) == _placeholders(data["en"][key]), (lang, key)


def test_every_message_key_the_module_uses_is_in_the_catalogs():
    source = SOURCE.read_text("utf-8")
    literal = set(re.findall(r'"((?:status|preview)\.[a-z0-9_.]+)"', source))
    literal = {k for k in literal if not k.endswith(".")}
    computed = {f"status.rule.{st.rule}" for st in R.STALLS}
    computed |= {f"status.list.{c}" for c in ("and", "or")}
    computed |= {f"preview.seals.{v}.{n}" for v in ("gain", "spend") for n in ("one", "other")}
    computed |= {f"preview.prestige.{n}" for n in ("one", "other")}
    for lang in LANGUAGES:
        missing = (literal | computed) - set(catalog(lang))
        assert not missing, (lang, sorted(missing))
