"""R3 the eight stalls' closing conditions (at their boundaries), R3.9 resolution order, R4 Louqsor's
dice. Every closing is played: the other servants are staged, the last one is placed with apply."""

from __future__ import annotations

import pytest
from helpers_rules import (
    MARKET,
    P_REROLL,
    between_turns,
    closes,
    events,
    game,
    mark,
    open_louqsor,
    place,
    rebalance,
    resolve,
    stage_stall,
)

from nefertiti_core import violations
from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.state import CLOSED, OPEN, P_BID, P_TAKE, P_TURN
from nefertiti_core.files import staging as S

STAGED_SEATS = (1, 2, 3, 1, 2, 3)  # owners of staged servants; seat 0 places the last one
LEVELS = ((0,), (1, 2), (3, 4, 5), (6, 7, 8, 9))  # akhet_aton.left: 0 / 1 2 / 3 4D 5 / 6 7 8 10X
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def staged(market: str, side: str, squares, owners=STAGED_SEATS):
    g = game(characters=False)
    if market == "louqsor":
        open_louqsor(g, side)
    stage_stall(g, market, side, list(zip(owners, squares, strict=False)))
    return g


def check(market, side, squares, last, roll=(), owners=STAGED_SEATS, placer=0):
    """Stage ``squares``, let ``placer`` place on ``last``; return (closed?, game)."""
    g = staged(market, side, squares, owners)
    closed = closes(g, placer, market, side, last, roll)
    if not closed:
        m = MARKET[market]
        assert g.status[m] == OPEN
        assert g.owners[m][last] == placer
        assert between_turns(g) and g.decider == (placer + 1) % g.n
        assert violations(g) == []
    return closed, g


# --- R3 the printed squares ---------------------------------------------------------------------

LISTINGS = {
    "gizeh.left": "1 / 2 3 / 4D 5 6 / 7",
    "gizeh.right": "1 2 3 4D / 5 6 7 8",
    "akhet_aton.left": "0 / 1 2 / 3 4D 5 / 6 7 8 10X",
    "akhet_aton.right": "0 1 2 / 3 4 5D / 6 7 8",
    "abou_simbel.left": "1 1 / 2D 2 / 5 7 8",
    "abou_simbel.right": "1 1 / 2 2 3D / 3 6 7 12X",
    "louqsor.left": "1S 2S 3S 4S / 5 6 7",
    "louqsor.right": "2S 3S 4S 5S / 6 7 8",
}


@pytest.mark.parametrize("stall", R.STALLS, ids=lambda st: st.name)
def test_r3_squares_values_symbols_and_rows_follow_the_rulings_listing(stall):
    rows = [row.split() for row in LISTINGS[stall.name].split(" / ")]
    expected = [(token, r) for r, row in enumerate(rows) for token in row]
    actual = [(f"{sq.value}{sq.symbol}", sq.row) for sq in stall.squares]
    assert actual == expected
    assert [sq.index for sq in stall.squares] == list(range(len(expected)))


def _gizeh_left_oracle(occupied):
    edges = {(1, 2), (1, 3), (2, 3), (2, 4), (2, 5), (3, 5), (3, 6), (4, 5), (5, 6), (5, 7)}
    values = {i + 1 for i in occupied}
    best = 0
    for start in values:
        group, todo = {start}, [start]
        while todo:
            v = todo.pop()
            for a, b in edges:
                w = b if a == v else a if b == v else None
                if w in values and w not in group:
                    group.add(w)
                    todo.append(w)
        best = max(best, len(group))
    return best >= 4


def _sum(stall, occupied):
    return sum(stall.squares[i].value for i in occupied)


ORACLES = {
    "gizeh.left": lambda st, occ: _gizeh_left_oracle(occ),
    "akhet_aton.left": lambda st, occ: all(any(i in occ for i in lv) for lv in LEVELS),
    "akhet_aton.right": lambda st, occ: any(all(i in occ for i in ln) for ln in LINES),
    "abou_simbel.left": lambda st, occ: _sum(st, occ) in (11, 14) or _sum(st, occ) >= 17,
    "abou_simbel.right": lambda st, occ: _sum(st, occ) >= 17,
}


@pytest.mark.parametrize("name", sorted(ORACLES))
def test_r3_closing_table_agrees_with_the_rulings_for_every_occupancy(name):
    """R3.1, R3.3-R3.6 read independently, compared on every set of occupied squares."""
    stall = next(st for st in R.STALLS if st.name == name)
    n = len(stall.squares)
    wrong = [
        mask
        for mask in range(1 << n)
        if R.CLOSES_TABLE[stall.id][mask]
        != ORACLES[name](stall, {i for i in range(n) if mask >> i & 1})
    ]
    assert wrong == []


# --- R3.1 gizeh.left: 4 connected squares (indices are value - 1) --------------------------------


@pytest.mark.parametrize(
    "staged_values, last",
    [((1, 3, 4), 5), ((2, 4, 5), 7)],
    ids=["rulebook 1-3-4-5", "rulebook 2-4-5-7"],
)
def test_r3_1_gizeh_left_rulebook_examples_close(staged_values, last):
    closed, _ = check("gizeh", "left", [v - 1 for v in staged_values], last - 1)
    assert closed


def test_r3_1_gizeh_left_three_connected_do_not_close():
    closed, _ = check("gizeh", "left", [0, 1], 2)  # 1-2-3
    assert not closed


@pytest.mark.parametrize(
    "values",
    [(1, 4, 6, 7), (1, 2, 6, 7), (1, 3, 4, 7)],
    ids=["all apart", "pair and two apart", "1-3 and 4 and 7"],
)
def test_r3_1_gizeh_left_four_unconnected_squares_do_not_close(values):
    *first, last = [v - 1 for v in values]
    closed, _ = check("gizeh", "left", first, last)
    assert not closed


def test_r3_1_gizeh_left_joining_a_three_group_and_a_single_closes():
    # 1-2-3 and 7 are open (3 connected + 1); 5 touches 2, 3 and 7: a group of 5
    assert not check("gizeh", "left", [0, 1], 2)[0]
    closed, _ = check("gizeh", "left", [0, 1, 2, 6], 4)
    assert closed


# --- R3.2 gizeh.right: 3 colours or 4 servants ---------------------------------------------------


def test_r3_2_gizeh_right_three_servants_of_two_colours_do_not_close():
    closed, _ = check("gizeh", "right", [0, 1], 2, owners=(0, 1))
    assert not closed


def test_r3_2_gizeh_right_three_servants_of_three_colours_close():
    closed, _ = check("gizeh", "right", [0, 1], 2, owners=(1, 2))
    assert closed


def test_r3_2_gizeh_right_four_servants_of_one_colour_close():
    closed, _ = check("gizeh", "right", [0, 1, 2], 7, owners=(0, 0, 0))
    assert closed


def test_r3_2_gizeh_right_two_servants_of_two_colours_do_not_close():
    closed, _ = check("gizeh", "right", [5], 6, owners=(1,))
    assert not closed


# --- R3.3 akhet_aton.left: every level ------------------------------------------------------------


@pytest.mark.parametrize(
    "squares",
    [(0, 1, 4, 7), (0, 1, 3, 8)],
    ids=["rulebook 0-1-4-7", "rulebook 0-1-3-8"],  # values equal indices up to 8
)
def test_r3_3_akhet_aton_left_rulebook_examples_close(squares):
    closed, _ = check("akhet_aton", "left", list(squares[:-1]), squares[-1])
    assert closed


@pytest.mark.parametrize("missing", range(4), ids=lambda k: f"level {k + 1} empty")
def test_r3_3_akhet_aton_left_a_missing_level_does_not_close(missing):
    others = [LEVELS[k][0] for k in range(4) if k != missing]
    # a fourth servant on another level that is already occupied
    extra_level = next(k for k in range(4) if k != missing and len(LEVELS[k]) > 1)
    last = LEVELS[extra_level][1]
    closed, _ = check("akhet_aton", "left", others, last)
    assert not closed
    # and the missing level's square closes it
    closed, _ = check("akhet_aton", "left", others + [last], LEVELS[missing][-1])
    assert closed


# --- R3.4 akhet_aton.right: three in a line ------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [(0, 3, 6), (2, 4, 6), (3, 4, 5), (0, 1, 2), (6, 7, 8), (1, 4, 7), (2, 5, 8), (0, 4, 8)],
)
def test_r3_4_akhet_aton_right_any_line_of_three_closes(line):
    # the first three lines are the rulebook's examples 0-3-6, 2-4-6, 3-4-5
    closed, _ = check("akhet_aton", "right", list(line[:2]), line[2])
    assert closed


@pytest.mark.parametrize(
    "squares", [(0, 3, 4), (0, 1, 5, 6)], ids=["L-shape 0-3-4", "four without a line"]
)
def test_r3_4_akhet_aton_right_without_a_line_does_not_close(squares):
    closed, _ = check("akhet_aton", "right", list(squares[:-1]), squares[-1])
    assert not closed


# --- R3.5 abou_simbel.left: exactly 11, exactly 14, or 17+ ----------------------------------------
# squares: 0:1 1:1 / 2:2D 3:2 / 4:5 5:7 6:8


@pytest.mark.parametrize(
    "squares, total",
    [
        ((0, 1, 2, 5), 11),  # rulebook 1-1-2-7
        ((3, 4, 5), 14),  # rulebook 2-5-7
        ((0, 3, 5, 6), 18),  # rulebook 1-2-7-8
        ((3, 5, 6), 17),
        ((4, 5, 6), 20),
    ],
    ids=["11 (1-1-2-7)", "14 (2-5-7)", "18 (1-2-7-8)", "17 (2-7-8)", "20 (5-7-8)"],
)
def test_r3_5_abou_simbel_left_closes_at_11_14_and_17_or_more(squares, total):
    stall = R.stall_of(R.ABOU_SIMBEL, R.LEFT)
    assert sum(stall.squares[i].value for i in squares) == total
    closed, _ = check("abou_simbel", "left", list(squares[:-1]), squares[-1])
    assert closed


@pytest.mark.parametrize(
    "squares, total",
    [((3, 6), 10), ((4, 5), 12), ((4, 6), 13), ((5, 6), 15), ((0, 5, 6), 16)],
)
def test_r3_5_abou_simbel_left_does_not_close_at_10_12_13_15_16(squares, total):
    stall = R.stall_of(R.ABOU_SIMBEL, R.LEFT)
    assert sum(stall.squares[i].value for i in squares) == total
    closed, _ = check("abou_simbel", "left", list(squares[:-1]), squares[-1])
    assert not closed


def test_r3_5_abou_simbel_left_from_12_a_2_makes_14_and_closes():
    closed, _ = check("abou_simbel", "left", [4, 5], 3)  # 5 + 7 open at 12; + 2 = 14
    assert closed


# --- R3.6 abou_simbel.right: 17 or more ----------------------------------------------------------
# squares: 0:1 1:1 / 2:2 3:2 4:3D / 5:3 6:6 7:7 8:12X


@pytest.mark.parametrize(
    "squares",
    [(0, 2, 3, 6, 7), (2, 4, 8)],
    ids=["rulebook 1-2-2-6-7 (18)", "rulebook 2-3-12 (17)"],
)
def test_r3_6_abou_simbel_right_rulebook_examples_close(squares):
    closed, _ = check("abou_simbel", "right", list(squares[:-1]), squares[-1])
    assert closed


@pytest.mark.parametrize(
    "squares, total", [((8, 5, 0), 16), ((0, 2, 3, 6), 11), ((2, 5, 6), 11), ((6, 7, 4), 16)]
)
def test_r3_6_abou_simbel_right_does_not_close_below_17(squares, total):
    stall = R.stall_of(R.ABOU_SIMBEL, R.RIGHT)
    assert sum(stall.squares[i].value for i in squares) == total
    closed, _ = check("abou_simbel", "right", list(squares[:-1]), squares[-1])
    assert not closed  # 11 closes only the left stall


# --- R3.7 louqsor.left: two dice on occupied values (index = value - 1) ----------------------------


@pytest.mark.parametrize("dice", [(2, 2), (2, 3), (3, 2), (3, 3)])
def test_r3_7_louqsor_left_rulebook_example_2_3_7_closes_on_2s_and_3s(dice):
    closed, g = check("louqsor", "left", [1, 2], 6, roll=dice)  # squares 2, 3, then 7
    assert closed
    roll = events(g, "roll")[-1]
    assert roll["dice"] == dice and roll["closes"] is True


@pytest.mark.parametrize("dice", [(2, 4), (4, 3), (1, 1), (6, 6), (5, 2)])
def test_r3_7_louqsor_left_rulebook_example_2_3_7_stays_open_otherwise(dice):
    closed, g = check("louqsor", "left", [1, 2], 6, roll=dice)
    assert not closed
    assert g.last_roll == dice
    assert g.holder == 0  # R4.1


def test_r3_7_louqsor_left_example_closes_on_exactly_the_four_pairs_of_2_and_3():
    closing = set()
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            closed, _ = check("louqsor", "left", [1, 2], 6, roll=(d1, d2))
            if closed:
                closing.add((d1, d2))
    # 7 is occupied too, but no die shows 7
    assert closing == {(2, 2), (2, 3), (3, 2), (3, 3)}


# --- R3.8 louqsor.right: one die vs the longest run ------------------------------------------------
# squares: 0:2S 1:3S 2:4S 3:5S / 4:6 5:7 6:8


@pytest.mark.parametrize("die, expected", [(1, True), (3, True), (4, False), (6, False)])
def test_r3_8_louqsor_right_rulebook_example_3_4_5_8_run_of_3(die, expected):
    closed, g = check("louqsor", "right", [1, 2, 6], 3, roll=(die,))  # 3, 4, 8, then 5
    assert closed is expected
    assert events(g, "roll")[-1]["run"] == 3


@pytest.mark.parametrize("die", range(1, 7))
def test_r3_8_louqsor_right_run_of_three_closes_on_die_at_most_3(die):
    closed, _ = check("louqsor", "right", [0, 1], 2, roll=(die,))  # 2-3-4
    assert closed is (die <= 3)


@pytest.mark.parametrize("die, expected", [(3, True), (4, False)])
def test_r3_8_louqsor_right_5_and_6_are_consecutive_across_rows(die, expected):
    closed, g = check("louqsor", "right", [3, 5], 4, roll=(die,))  # 5 (row 1), 7, then 6 (row 2)
    assert events(g, "roll")[-1]["run"] == 3
    assert closed is expected


def test_r3_8_louqsor_right_squares_4_6_8_are_three_runs_of_one():
    closed, g = check("louqsor", "right", [2, 4], 6, roll=(2,))
    assert events(g, "roll")[-1]["run"] == 1
    assert not closed


def test_r3_8_louqsor_right_first_servant_closes_on_a_1():
    closed, _ = check("louqsor", "right", [], 0, roll=(1,))
    assert closed


# --- R3.9, R6.1 resolution order -----------------------------------------------------------------


def test_r3_9_resolution_order_table_for_abou_simbel_right():
    stall = R.stall_of(R.ABOU_SIMBEL, R.RIGHT)
    order = R.RESOLUTION_ORDER[stall.id]
    # 12, 7, 6, 3 (row 3), 3D (row 2), right 2, left 2, right 1, left 1
    assert order == (8, 7, 6, 5, 4, 3, 2, 1, 0)
    assert [stall.squares[i].value for i in order] == [12, 7, 6, 3, 3, 2, 2, 1, 1]
    left = R.stall_of(R.ABOU_SIMBEL, R.LEFT)
    assert R.RESOLUTION_ORDER[left.id] == (6, 5, 4, 3, 2, 1, 0)


def _resolve_taking_half(g):
    """The highest bidder takes their first card set; every other bidder takes half."""

    def choose(g):
        legal = g.legal_options()
        if g.phase == P_TAKE:
            return legal[0]
        return O.HALF_ID if O.HALF_ID in legal else legal[-1]

    resolve(g, choose)


def test_r3_9_staged_closing_asks_equal_bids_lower_row_then_right_first():
    g = game(characters=False)
    # idx: 5 = 3 (row 3), 4 = 3D (row 2), 3 = right 2, 2 = left 2, 1 = right 1, 0 = left 1
    owners = {5: 1, 4: 2, 3: 3, 2: 1, 1: 2, 0: 3}
    stage_stall(g, "abou_simbel", "right", [(s, i) for i, s in owners.items()])  # sum 12
    since = mark(g)
    assert closes(g, 0, "abou_simbel", "right", 7)  # + 7 = 19
    bids = events(g, "market_closes", since)[0]["bids"]
    assert [tuple(b) for b in bids] == [(0, 7), (1, 3), (2, 3), (3, 2), (1, 2), (2, 1), (3, 1)]
    assert g.phase == P_TAKE and g.decider == 0
    _resolve_taking_half(g)
    asked = [d["seat"] for ev, d in g.log[since:] if ev in ("buy", "half", "pass")]
    assert asked == [1, 2, 3, 1, 2, 3]
    assert violations(g) == []


def test_r3_9_staged_closing_12_before_6_before_the_ones():
    g = game(characters=False)
    stage_stall(g, "abou_simbel", "right", [(1, 8), (2, 0), (3, 1)])  # 12 + 1 + 1 = 14
    S.set_deben(g, 1, 12)  # seat 1 can pay 12
    rebalance(g, 0)
    since = mark(g)
    assert closes(g, 0, "abou_simbel", "right", 6)  # + 6 = 20
    bids = events(g, "market_closes", since)[0]["bids"]
    assert [tuple(b) for b in bids] == [(1, 12), (0, 6), (3, 1), (2, 1)]
    assert g.decider == 1  # the 12 is the highest bidder, not the placer
    _resolve_taking_half(g)
    asked = [d["seat"] for ev, d in g.log[since:] if ev in ("buy", "half", "pass")]
    assert asked == [0, 3, 2]
    assert violations(g) == []


# --- R4 Louqsor's dice ---------------------------------------------------------------------------

# Placements that close nothing, one per seat and turn, away from Louqsor (Gizeh holds the tile).
QUIET = [
    ("akhet_aton", "left", 1),
    ("akhet_aton", "left", 2),
    ("abou_simbel", "left", 0),
    ("abou_simbel", "left", 1),
    ("akhet_aton", "left", 6),
    ("akhet_aton", "left", 7),
]


def louqsor_game():
    g = game(characters=False)
    open_louqsor(g, "left")
    return g


def roll_without_closing(g, seat, index=0, dice=(5, 6)):
    """``seat`` places on louqsor.left#index with dice that miss (occupied: 1..4 only)."""
    assert not closes(g, seat, "louqsor", "left", index, roll=dice)


def quiet_turns(g, count, start=0):
    for k in range(count):
        assert g.phase == P_TURN
        place(g, *QUIET[start + k])


def test_r4_1_a_roll_that_does_not_close_makes_the_placer_holder_no_reroll_same_turn():
    g = louqsor_game()
    roll_without_closing(g, 2)
    assert g.holder == 2
    assert g.status[R.LOUQSOR] == OPEN
    # R4.2: no reroll at the end of the turn in which the holder rolled
    assert g.phase == P_TURN and g.decider == 3
    assert violations(g) == []


def test_r4_2_holder_gets_reroll_or_keep_at_the_end_of_their_next_turn():
    g = louqsor_game()
    roll_without_closing(g, 0)
    quiet_turns(g, 3)  # seats 1, 2, 3
    assert g.phase == P_TURN and g.decider == 0
    place(g, *QUIET[3])  # seat 0's next turn, elsewhere
    assert g.phase == P_REROLL and g.decider == 0
    assert g.legal_options() == (O.REROLL_ID, O.KEEP_ID)
    assert violations(g) == []


def test_r4_2_keep_passes_the_turn_and_the_holder_keeps_the_dice():
    g = louqsor_game()
    roll_without_closing(g, 0)
    quiet_turns(g, 4)
    g.apply("keep")
    assert g.phase == P_TURN and g.decider == 1
    assert g.holder == 0


def test_r4_2_a_reroll_that_closes_resolves_then_the_player_left_of_the_holder_plays():
    g = louqsor_game()
    roll_without_closing(g, 3)  # seat 3 on louqsor.left#0 (value 1)
    quiet_turns(g, 3)  # seats 0, 1, 2
    place(g, *QUIET[3])  # seat 3's next turn, elsewhere
    assert g.phase == P_REROLL and g.decider == 3
    g.force_roll(1, 1)
    since = mark(g)
    g.apply("reroll")
    closing = events(g, "market_closes", since)
    assert closing and closing[0]["market"] == R.LOUQSOR
    resolve(g)
    assert g.status[R.LOUQSOR] == CLOSED and g.tile == R.LOUQSOR
    assert g.holder == -1  # R4.3
    assert g.status[R.GIZEH] == OPEN  # the previous tile holder reopened
    assert g.phase == P_TURN and g.turn_player == 0  # left of the holder (seat 3)
    assert violations(g) == []


def test_r4_2_a_reroll_that_misses_passes_the_turn_holder_unchanged():
    g = louqsor_game()
    roll_without_closing(g, 0)
    quiet_turns(g, 4)
    g.force_roll(6, 5)
    g.apply("reroll")
    assert g.last_roll == (6, 5)
    assert g.status[R.LOUQSOR] == OPEN and g.holder == 0
    assert g.phase == P_TURN and g.decider == 1


def test_r4_3_a_placement_by_another_player_makes_them_holder_old_holder_gets_no_reroll():
    g = louqsor_game()
    roll_without_closing(g, 0, index=0)
    assert g.decider == 1
    g.force_roll(6, 6)
    place(g, "louqsor", "left", 1)  # seat 1 places in Louqsor and rolls
    assert g.holder == 1
    quiet_turns(g, 3)  # seats 2, 3, then seat 0's next turn
    assert g.phase == P_TURN and g.decider == 1, "the old holder was offered a reroll"
    place(g, *QUIET[3])  # seat 1's next turn
    assert g.phase == P_REROLL and g.decider == 1
    assert violations(g) == []


def test_r4_3_a_placement_that_closes_louqsor_clears_the_holder():
    g = louqsor_game()
    roll_without_closing(g, 0, index=0)  # value 1 occupied
    g.force_roll(1, 2)
    since = mark(g)
    place(g, "louqsor", "left", 1)  # seat 1 on value 2, rolls 1-2: closes
    assert events(g, "market_closes", since)
    assert g.holder == -1
    resolve(g)
    assert g.phase == P_TURN and g.decider == 2
    assert violations(g) == []


def test_r4_roll_event_and_bid_phase_after_a_closing_roll():
    g = louqsor_game()
    roll_without_closing(g, 1, index=0, dice=(4, 4))  # seat 1 on value 1
    g.force_roll(1, 4)
    since = mark(g)
    place(g, "louqsor", "left", 3)  # seat 2 on value 4S: 1 and 4 occupied
    assert events(g, "roll", since)[0]["closes"] is True
    # highest bidder seat 2 (4S) pays 4 and takes one card; then seat 1 bids
    assert g.phase == P_TAKE and g.decider == 2
    g.apply("take upper")
    assert g.phase == P_BID and g.decider == 1


def test_r4_2_holder_who_closes_another_market_still_gets_the_reroll_after_it():
    g = louqsor_game()
    roll_without_closing(g, 0)
    quiet_turns(g, 3)  # seats 1, 2, 3
    stage_stall(g, "akhet_aton", "right", [(1, 0), (2, 1)])
    S.start_turn(g, 0)
    since = mark(g)
    place(g, "akhet_aton", "right", 2)  # seat 0's next turn: 0-1-2 closes Akhet-Aton
    assert events(g, "market_closes", since)
    resolve(g)
    assert g.status[R.AKHET_ATON] == CLOSED
    assert g.phase == P_REROLL and g.decider == 0  # the end of the holder's turn
    assert violations(g) == []
