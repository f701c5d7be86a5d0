"""Gift values and final scoring (RULINGS R8, R9; rulebook "Final Scoring").

Seats: 0 green, 1 red, 2 blue, 3 black; with ``first_player=0`` they hold 8, 9, 9, 10 Deben.
"""

from __future__ import annotations

import pytest
from helpers_chars import (
    BLACK,
    BLUE,
    GREEN,
    RED,
    events,
    fresh_game,
    play_random_to_end,
    set_deben_balanced,
)

from nefertiti_core import new_game, score_breakdown, violations, winners
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.scoring import final_scores, totals
from nefertiti_core.files import staging as S


def _line(g, seat: int, type_name: str):
    return {line.gift_type: line for line in score_breakdown(g, seat).gifts}[type_name]


# --------------------------------------------------------------------------- R8 the value table


def test_r8_gift_value_table_matches_rulings():
    assert dict(zip(R.GIFT_TYPES, R.GIFT_VALUES, strict=True)) == {
        "senet": (6, 5, 4, 4),
        "harp": (9, 7, 5, 5),
        "chair": (9, 7, 5, 5),
        "mirror": (11, 8, 6, 6),
        "statuette": (11, 8, 6, 6),
        "necklace": (14, 10, 7, 7),
        "gold": (14, 10, 7, 7),
    }


@pytest.mark.parametrize(
    ("holders", "value"),
    [(0, 0), (1, 11), (2, 8), (3, 6), (4, 6)],
)
def test_r8_statuette_11_with_one_holder_6_with_three_or_four(holders, value):
    g = fresh_game()
    for seat in range(holders):
        S.give_gifts(g, seat, "statuette")
    assert g.holders(R.STATUETTE) == holders
    assert g.gift_value(R.STATUETTE) == value


@pytest.mark.parametrize(("holders", "value"), [(1, 14), (2, 10), (3, 7), (4, 7)])
def test_r8_gold_14_with_one_holder_7_with_three_or_four(holders, value):
    g = fresh_game()
    for seat in range(holders):
        S.give_gifts(g, seat, "gold")
    assert g.gift_value(R.GOLD) == value
    assert _line(g, GREEN, "gold").points == value


def test_r8_necklace_14_for_a_single_holder():
    g = fresh_game()
    S.give_gifts(g, BLUE, "necklace", "necklace")
    line = _line(g, BLUE, "necklace")
    assert (line.count, line.holders, line.value, line.points) == (2, 1, 14, 28)


@pytest.mark.parametrize(("holders", "points"), [(1, 12), (2, 10), (3, 8)])
def test_r8_double_senet_is_two_senets_12_10_8_by_holders(holders, points):
    """A double senet alone is worth 12, 10 or 8 (rulebook); single senets make holders."""
    g = fresh_game()
    S.give_gifts(g, GREEN, "double_senet")
    for seat in range(1, holders):
        S.give_gifts(g, seat, "senet")
    assert g.type_count(GREEN, R.SENET) == 2
    line = _line(g, GREEN, "senet")
    assert (line.count, line.holders, line.points) == (2, holders, points)


def test_r8_single_and_double_senet_held_by_one_player_count_three_senets():
    g = fresh_game()
    S.give_gifts(g, BLACK, "senet", "double_senet")
    S.give_gifts(g, RED, "double_senet")
    assert g.holders(R.SENET) == 2
    assert _line(g, BLACK, "senet").points == 3 * 5
    assert _line(g, RED, "senet").points == 2 * 5


# --------------------------------------------------------------------------- R9.1 final score


def test_r9_1_final_score_worked_breakdown():
    """Green: prestige 8; 2 statuettes alone (11 each) = 22; 1 gold shared with Red (10);
    9 Deben -> 4 points; 2 seals -> 6. Total 8 + 32 + 4 + 6 = 50."""
    g = fresh_game()
    g.prestige[GREEN] = 8
    S.give_gifts(g, GREEN, "statuette", "statuette", "gold")
    S.give_gifts(g, RED, "gold")
    set_deben_balanced(g, GREEN, 9, bank=BLACK)
    S.set_seals(g, GREEN, 2)
    b = score_breakdown(g, GREEN)
    assert b.prestige == 8
    assert [(x.gift_type, x.count, x.holders, x.value, x.points) for x in b.gifts] == [
        ("statuette", 2, 1, 11, 22),
        ("gold", 1, 2, 10, 10),
    ]
    assert b.gift_points == 32
    assert (b.deben, b.deben_points) == (9, 4)  # rounded down
    assert (b.seals, b.seal_points) == (2, 6)
    assert b.total == 50
    assert totals(g)[GREEN] == 50
    assert score_breakdown(g, RED).total == 10 + 9 // 2
    assert violations(g) == []


def test_r9_1_one_point_per_two_deben_rounded_down():
    g = fresh_game()
    set_deben_balanced(g, GREEN, 11, bank=BLACK)
    set_deben_balanced(g, RED, 10, bank=BLACK)
    assert score_breakdown(g, GREEN).deben_points == 5
    assert score_breakdown(g, RED).deben_points == 5
    assert totals(g)[:2] == [5, 5]


# --------------------------------------------------------------------------- R9.2 the winner


def test_r9_2_tie_on_points_goes_to_the_most_deben():
    g = fresh_game()
    g.prestige[GREEN] = 3
    g.prestige[RED] = 4
    set_deben_balanced(g, GREEN, 11, bank=BLACK)  # 3 + 5 = 8
    set_deben_balanced(g, RED, 8, bank=BLACK)  # 4 + 4 = 8
    assert totals(g)[GREEN] == totals(g)[RED] == 8
    assert max(totals(g)) == 8
    assert winners(g) == (GREEN,)


def test_r9_2_most_points_wins_even_with_fewer_deben():
    g = fresh_game()
    g.prestige[RED] = 5
    set_deben_balanced(g, GREEN, 14, bank=BLACK)  # 7 points
    set_deben_balanced(g, RED, 6, bank=BLUE)  # 5 + 3 = 8 points
    assert winners(g) == (RED,)


def test_r9_2_tie_on_points_and_deben_is_a_shared_win():
    g = fresh_game()
    g.prestige[GREEN] = 3
    g.prestige[RED] = 3
    set_deben_balanced(g, GREEN, 10, bank=BLACK)
    set_deben_balanced(g, RED, 10, bank=BLUE)
    assert totals(g)[GREEN] == totals(g)[RED] == 8
    assert max(totals(g)) == 8
    assert winners(g) == (GREEN, RED)


def test_r9_winners_totals_and_breakdowns_agree_on_a_staged_position():
    g = fresh_game()
    S.give_gifts(g, GREEN, "harp", "harp", "senet")
    S.give_gifts(g, RED, "double_senet", "mirror")
    S.give_gifts(g, BLUE, "harp", "gold")
    S.set_seals(g, BLACK, 1)
    g.prestige[BLUE] = 7
    scores = totals(g)
    assert scores == [b.total for b in final_scores(g)]
    for b in final_scores(g):
        assert b.total == b.prestige + b.gift_points + b.deben_points + b.seal_points
    # green 2x7 + 5 + 4 = 23; red 10 + 11 + 4 = 25; blue 7 + 7 + 14 + 4 = 32; black 3 + 5 = 8
    assert scores == [23, 25, 32, 8]
    assert winners(g) == (BLUE,)


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (4, 2), (3, 3)])
def test_r9_a_complete_random_game_final_equals_totals(players, seed):
    g = new_game(players=players, seed=seed, record_events=True)
    play_random_to_end(g, seed=seed)
    assert g.is_over and g.legal_options() == ()
    assert [b.total for b in g.final] == totals(g)
    assert g.final == final_scores(g)
    for b in g.final:
        assert b.total == b.prestige + b.gift_points + b.deben_points + b.seal_points
    assert tuple(events(g, "game_over")[-1]["winners"]) == winners(g)
    assert violations(g) == []
