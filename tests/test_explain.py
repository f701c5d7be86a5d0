"""Explanations (nefertiti_core.teaching.explain) of the rulebook's worked examples carry the right numbers.

Each position is staged with nefertiti_core.files.staging, then the decisive option is played through
GameState.apply, so the engine decides what happens and the explanation says why. Rule IDs refer
to shared/rules/RULINGS.md.
"""

from __future__ import annotations

import random

import pytest

from nefertiti_core import new_game, violations
from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.scoring import score_breakdown
from nefertiti_core.engine.state import P_BID, P_OVER
from nefertiti_core.files import staging as S
from nefertiti_core.teaching.explain import (
    describe_event,
    describe_option,
    narrate,
    score_lines,
    score_table,
    winner_line,
)

GREEN, RED, BLUE, BLACK = range(4)  # seat 0 plays first: 8, 9, 9, 10 Deben (R2.6)


def fresh(empty_markets: bool = False):
    g = new_game(4, seed=0, first_player=0, record_events=True)
    if empty_markets:  # the market cards go back to the deck, so any gift can be staged
        for m in (R.GIZEH, R.AKHET_ATON, R.ABOU_SIMBEL):
            S.set_cards(g, m, None, [], seal=False)
    return g


def move_deben(g, seat: int, amount: int, bank: int) -> None:
    """``seat`` ends with ``amount`` Deben; the difference goes to or comes from ``bank`` (R12)."""
    diff = amount - g.deben[seat]
    g.deben[bank] -= diff
    g.deben[seat] = amount
    assert g.deben[bank] >= 0


def set_reserve(g, market: int, amount: int, bank: int) -> None:
    g.deben[bank] -= amount - g.reserve[market]
    g.reserve[market] = amount
    assert g.deben[bank] >= 0


def use_top_card(g, pile: int) -> None:
    g.used_characters.append(g.piles[pile].pop(0))


def open_louqsor(g, side: str) -> None:
    """Louqsor open on ``side`` with cards; Gizeh takes the tile (three markets stay open)."""
    S.set_tile(g, "gizeh")
    S.set_stall(g, "louqsor", side, "open")
    S.set_cards(g, "louqsor", upper="harp", lower=["chair", "mirror", "statuette"], seal=True)


def play(g, seat: int, option: str, lang: str = "en", roll=()) -> list[str]:
    """Start ``seat``'s turn, apply ``option`` and return the explanations of what followed."""
    S.start_turn(g, seat)
    if roll:
        g.force_roll(*roll)
    since = len(g.log)
    g.apply(option)
    return narrate(g, lang, since)


def the_line(lines: list[str], *needles: str) -> str:
    found = [line for line in lines if all(n in line for n in needles)]
    assert len(found) == 1, f"expected one line with {needles}, got {found} in:\n" + "\n".join(
        lines
    )
    return found[0]


def no_line(lines: list[str], needle: str) -> None:
    assert not any(needle in line for line in lines), "\n".join(lines)


# --- R3: why a stall closes, with the numbers ----------------------------------------------------
def test_r3_5_abou_simbel_left_closing_at_14_names_the_sum_its_addends_and_the_closing_numbers():
    g = fresh()
    S.put_servant(g, GREEN, "abou_simbel", 3)  # a plain 2
    S.put_servant(g, RED, "abou_simbel", 4)  # 5
    lines = play(g, BLUE, "place abou_simbel.left#5")  # 7
    line = the_line(lines, "closes")
    assert line.startswith("Abou Simbel's left stall closes: the bids add up to 14 (2 + 5 + 7)")
    assert "exactly 11, exactly 14, or 17 and more (Markets sheet, R3.5)" in line
    assert "settled from the highest down: Blue 7, Red 5 and Green 2 (Market Closing, R6.1)" in line
    assert violations(g) == []


@pytest.mark.parametrize("lang, total", [("de", "14 (2 + 5 + 7)"), ("zh", "14（2 + 5 + 7）")])
def test_r3_5_abou_simbel_closing_numbers_in_german_and_chinese(lang, total):
    g = fresh()
    S.put_servant(g, GREEN, "abou_simbel", 3)
    S.put_servant(g, RED, "abou_simbel", 4)
    lines = play(g, BLUE, "place abou_simbel.left#5", lang)
    line = the_line(lines, total)
    assert "11" in line and "17" in line and "R3.5" in line


def test_r3_5_abou_simbel_left_at_13_does_not_close_and_the_option_says_so():
    g = fresh()
    S.put_servant(g, GREEN, "abou_simbel", 0)  # 1
    S.put_servant(g, RED, "abou_simbel", 4)  # 5
    S.start_turn(g, BLUE)
    option = g.parse("place abou_simbel.left#5")
    assert "closes the market" not in describe_option(g, option)
    lines = play(g, BLUE, "place abou_simbel.left#5")
    no_line(lines, "closes")
    assert (
        lines[0] == "Blue puts a servant on the 7 of Abou Simbel's left stall: a bid of 7 "
        "(Place a Servant, R5.2)."
    )


def test_r3_5_the_option_that_reaches_14_is_announced_as_closing():
    g = fresh()
    S.put_servant(g, GREEN, "abou_simbel", 3)
    S.put_servant(g, RED, "abou_simbel", 4)
    S.start_turn(g, BLUE)
    text = describe_option(g, g.parse("place abou_simbel.left#5"))
    assert text == "Place on the 7 of Abou Simbel's left stall (bid 7; closes the market, R3.5)"


def test_r3_6_abou_simbel_right_closes_at_17_from_2_3_12():
    g = fresh()
    S.set_stall(g, "abou_simbel", "right", "open")
    S.put_servant(g, GREEN, "abou_simbel", 2)  # 2
    S.put_servant(g, RED, "abou_simbel", 5)  # 3 (row 3)
    line = the_line(play(g, BLUE, "place abou_simbel.right#8"), "closes")  # 12, extra card
    assert "the bids add up to 17 (2 + 3 + 12)" in line
    assert "closes at 17 or more (Markets sheet, R3.6)" in line


def test_r3_1_gizeh_left_example_1_3_4_5_is_a_connected_group_of_four():
    g = fresh()
    for seat, index in ((GREEN, 0), (RED, 2), (BLUE, 3)):  # values 1, 3, 4
        S.put_servant(g, seat, "gizeh", index)
    S.start_turn(g, BLACK)
    assert "closes the market, R3.1" in describe_option(g, g.parse("place gizeh.left#4"))
    assert "closes" not in describe_option(g, g.parse("place gizeh.left#6"))
    line = the_line(play(g, BLACK, "place gizeh.left#4"), "closes")  # value 5
    assert "servants stand on 4 connected squares (1-3-4-5)" in line
    assert "4 or more occupied squares" in line and "(Markets sheet, R3.1)" in line


def test_r3_1_gizeh_left_example_2_4_5_7_and_a_group_that_does_not_touch():
    g = fresh()
    for seat, index in ((GREEN, 1), (RED, 3), (BLUE, 4)):  # values 2, 4, 5
        S.put_servant(g, seat, "gizeh", index)
    line = the_line(play(g, BLACK, "place gizeh.left#6"), "closes")  # value 7
    assert "4 connected squares (2-4-5-7)" in line

    g = fresh()
    for seat, index in ((GREEN, 0), (RED, 2), (BLUE, 3)):  # 1, 3, 4: only 1-3 touch
        S.put_servant(g, seat, "gizeh", index)
    no_line(play(g, BLACK, "place gizeh.left#6"), "closes")  # 7 touches only 5


def test_r3_2_gizeh_right_three_colours_and_four_servants_of_two_colours():
    g = fresh()
    S.set_stall(g, "gizeh", "right", "open")
    S.put_servant(g, GREEN, "gizeh", 0)
    S.put_servant(g, RED, "gizeh", 5)
    line = the_line(play(g, BLUE, "place gizeh.right#7"), "closes")
    assert "it holds 3 servants of 3 colours (Green, Red and Blue)" in line
    assert "(Markets sheet, R3.2)" in line

    g = fresh()
    S.set_stall(g, "gizeh", "right", "open")
    for index in (0, 1):
        S.put_servant(g, GREEN, "gizeh", index)
    S.put_servant(g, RED, "gizeh", 2)
    S.start_turn(g, RED)
    line = the_line(play(g, RED, "place gizeh.right#4"), "closes")
    assert "it holds 4 servants of 2 colours (Green and Red)" in line


def test_r3_3_akhet_aton_left_example_0_1_4_7_names_a_servant_on_each_level():
    g = fresh()
    for seat, index in ((GREEN, 0), (RED, 1), (BLUE, 4)):  # values 0, 1, 4
        S.put_servant(g, seat, "akhet_aton", index)
    line = the_line(play(g, BLACK, "place akhet_aton.left#7"), "closes")  # value 7
    assert "(level 1: 0; level 2: 1; level 3: 4; level 4: 7)" in line
    assert "(Markets sheet, R3.3)" in line


def test_r3_4_akhet_aton_right_example_2_4_6_is_a_diagonal():
    g = fresh()
    S.set_stall(g, "akhet_aton", "right", "open")
    S.put_servant(g, GREEN, "akhet_aton", 2)
    S.put_servant(g, RED, "akhet_aton", 4)
    line = the_line(play(g, BLUE, "place akhet_aton.right#6"), "closes")
    assert "the squares 2-4-6 are all taken and make a straight line (a diagonal)" in line
    assert "(Markets sheet, R3.4)" in line


def test_r3_4_akhet_aton_right_example_0_3_6_is_a_column():
    g = fresh()
    S.set_stall(g, "akhet_aton", "right", "open")
    S.put_servant(g, GREEN, "akhet_aton", 0)
    S.put_servant(g, RED, "akhet_aton", 3)
    line = the_line(play(g, BLUE, "place akhet_aton.right#6"), "closes")
    assert "0-3-6" in line and "(column 1)" in line


def test_r3_7_louqsor_left_example_2_3_7_closes_on_2_3_but_not_on_2_4():
    g = fresh()
    open_louqsor(g, "left")
    S.put_servant(g, GREEN, "louqsor", 1)  # 2
    S.put_servant(g, RED, "louqsor", 2)  # 3
    lines = play(g, BLUE, "place louqsor.left#6", roll=(2, 3))  # 7
    roll = the_line(lines, "rolls")
    assert roll.startswith("Blue rolls 2 and 3 for Louqsor's left stall.")
    assert "(occupied: 2, 3 and 7), so the stall closes (Markets sheet, R3.7)" in roll
    closing = the_line(lines, "left stall closes")
    assert "the dice show 2 and 3, and each of them matches an occupied square" in closing

    g = fresh()
    open_louqsor(g, "left")
    S.put_servant(g, GREEN, "louqsor", 1)
    S.put_servant(g, RED, "louqsor", 2)
    lines = play(g, BLUE, "place louqsor.left#6", roll=(2, 4))
    roll = the_line(lines, "rolls")
    assert "No servant stands on 4 (occupied: 2, 3 and 7)" in roll
    assert "Blue keeps the dice (Markets sheet, R3.7, R4.1)" in roll
    no_line(lines, "stall closes:")


def test_r3_8_louqsor_right_example_3_4_5_8_makes_a_run_of_3():
    g = fresh()
    open_louqsor(g, "right")
    S.put_servant(g, GREEN, "louqsor", 1)  # 3
    S.put_servant(g, RED, "louqsor", 6)  # 8
    S.put_servant(g, BLUE, "louqsor", 3)  # 5
    S.start_turn(g, BLACK)
    assert "closes on 3 or less" in describe_option(g, g.parse("place louqsor.right#2"))
    lines = play(g, BLACK, "place louqsor.right#2", roll=(3,))  # 4
    roll = the_line(lines, "rolls")
    assert (
        "is 3 long (3-4-5); 3 is not more than 3, so the stall closes (Markets sheet, R3.8)" in roll
    )
    closing = the_line(lines, "right stall closes")
    assert "the die shows 3, not more than 3, the longest run" in closing and "(3-4-5)" in closing


def test_r3_8_louqsor_right_a_4_does_not_close_on_a_run_of_3():
    g = fresh()
    open_louqsor(g, "right")
    S.put_servant(g, GREEN, "louqsor", 1)
    S.put_servant(g, RED, "louqsor", 6)
    S.put_servant(g, BLUE, "louqsor", 3)
    roll = the_line(play(g, BLACK, "place louqsor.right#2", roll=(4,)), "rolls")
    assert "4 is more than 3, so the stall stays open and Black keeps the die" in roll
    assert "(Markets sheet, R3.8, R4.1)" in roll


# --- R5: placing ---------------------------------------------------------------------------------
def test_r5_3_both_bonuses_due_but_the_reserve_holds_only_1():
    g = fresh()  # every reserve starts with 1 Deben (R2.5)
    S.start_turn(g, GREEN)
    text = describe_option(g, g.parse("place abou_simbel.left#2"))
    assert text == (
        "Place on the Deben 2 of Abou Simbel's left stall "
        "(bid 2; Deben square; first servant here; +1 of 2 Deben due: the reserve is short)"
    )
    lines = play(g, GREEN, "place abou_simbel.left#2")
    assert lines[0].endswith(
        "2 bonuses are due (first servant on an empty stall and a Deben square), but Abou "
        "Simbel's reserve holds only 1 Deben, so Green gets 1 (Place a Servant, R5.3)."
    )
    assert g.deben[GREEN] == 9


def test_r5_3_both_bonuses_paid_from_a_reserve_of_2_and_none_from_an_empty_one():
    g = fresh()
    set_reserve(g, R.ABOU_SIMBEL, 2, bank=BLACK)
    line = play(g, GREEN, "place abou_simbel.left#2")[0]
    assert (
        "Green takes 2 Deben from Abou Simbel's reserve: first servant on an empty stall and "
        "a Deben square (Place a Servant, R5.3)." in line
    )

    g = fresh()
    set_reserve(g, R.GIZEH, 0, bank=BLACK)
    line = play(g, GREEN, "place gizeh.left#3")[0]
    assert (
        "A bonus is due (first servant on an empty stall and a Deben square), but Gizeh's "
        "reserve is empty, so Green gets nothing" in line
    )
    assert violations(g) == []


def test_r5_4_no_servant_left_closing_by_choice_names_the_rule():
    g = fresh()
    for index in (0, 6):  # Gizeh values 1 and 7: not connected
        S.put_servant(g, GREEN, "gizeh", index)
    for index in (0, 8):  # Akhet-Aton left: levels 1 and 4 only
        S.put_servant(g, GREEN, "akhet_aton", index)
    S.start_turn(g, GREEN)
    assert describe_option(g, g.parse("close gizeh")) == (
        "Close Gizeh (no servant left; one of yours stands there)"
    )
    lines = play(g, GREEN, "close gizeh")
    assert lines[0] == (
        "Green has no servant left to place, so instead they close Gizeh, where one of their "
        "servants stands (Place a Servant, R5.4)."
    )
    assert "Gizeh closes without meeting its own condition" in lines[1]
    assert "(Place a Servant, R5.4)" in lines[1]


def test_r5_4_a_single_market_holding_the_servants_is_a_forced_closing():
    g = fresh()
    for index in (0, 3, 5, 6):  # Gizeh values 1, 4, 6, 7: no two touch
        S.put_servant(g, GREEN, "gizeh", index)
    S.start_turn(g, GREEN)
    line = the_line(narrate(g), "must close")
    assert line == (
        "Green has no servant left, and only Gizeh holds one of theirs: Gizeh must close "
        "(Place a Servant, R5.4)."
    )


# --- R6: resolving a closing ---------------------------------------------------------------------
def stage_red_bids_7_with_5_deben(gift: str | None):
    g = fresh()
    S.put_servant(g, RED, "abou_simbel", 5)  # 7, the highest bid
    S.put_servant(g, BLUE, "abou_simbel", 3)  # 2
    if gift:
        S.give_gifts(g, RED, gift)
    move_deben(g, RED, 5, bank=GREEN)
    return g


def test_r6_3_highest_bidder_who_cannot_pay_pays_nothing_and_discards_a_gift():
    g = stage_red_bids_7_with_5_deben("harp")
    lines = play(g, GREEN, "place abou_simbel.left#4")  # 7 + 2 + 5 = 14
    line = the_line(lines, "holds only 5 Deben")
    assert line == (
        "Red bid 7, the highest, but holds only 5 Deben: Red pays nothing and must discard a "
        "gift; the next servant does not become the highest bidder (Market Closing, R6.3)."
    )
    assert "Red holds only one kind of gift, so the discarded card is a harp" in the_line(
        lines, "only one kind"
    )
    assert "Out of shame Red discards a harp; it leaves the game (Market Closing, R6.3)." in lines
    assert g.deben[RED] == 5 and not any(g.gifts[RED])
    assert g.phase == P_BID and g.decider == GREEN  # Green buys or takes half: not the winner
    assert violations(g) == []


def test_r6_3_highest_bidder_without_money_or_gifts_nothing_happens():
    g = stage_red_bids_7_with_5_deben(None)
    line = the_line(play(g, GREEN, "place abou_simbel.left#4"), "no gift to discard")
    assert line.startswith("Red bid 7, the highest, but holds only 5 Deben and no gift")
    assert "(Market Closing, R6.3)" in line


def stage_second_bidder(reserve: int, red_deben: int):
    """Abou Simbel left: Green 8 cannot pay and holds no gift; Red 5 is the next bidder."""
    g = fresh()
    S.put_servant(g, GREEN, "abou_simbel", 6)  # 8
    S.put_servant(g, RED, "abou_simbel", 4)  # 5
    move_deben(g, GREEN, 0, bank=BLACK)
    move_deben(g, RED, red_deben, bank=BLACK)
    set_reserve(g, R.ABOU_SIMBEL, reserve, bank=BLACK)
    return g


def test_r6_4_half_the_reserve_rounded_up_3_of_5():
    g = stage_second_bidder(reserve=5, red_deben=9)
    play(g, BLUE, "place abou_simbel.left#0")  # 8 + 5 + 1 = 14
    assert g.decider == RED and g.phase == P_BID
    assert describe_option(g, O.HALF_ID) == "Take half the reserve: 3 of 5 Deben"
    buy = describe_option(g, O.BUY_BASE + 0)
    assert buy.startswith("Buy the upper card (") and buy.endswith(") and its seal for 5 Deben")
    since = len(g.log)
    g.apply("half")
    assert narrate(g, "en", since)[0] == (
        "Red takes half of Abou Simbel's reserve, rounded up: 3 of 5 Deben, leaving 2 "
        "(Market Closing, R6.4)."
    )


def test_r6_4_forced_pass_says_no_card_is_affordable_and_the_reserve_is_empty():
    g = stage_second_bidder(reserve=0, red_deben=2)
    lines = play(g, BLUE, "place abou_simbel.left#0")
    assert (
        "Red can only pass: no card is affordable (the bid is 5, Red holds 2 Deben), and the "
        "reserve is empty (Market Closing, R6.4)." in lines
    )
    assert "Red passes: Abou Simbel's reserve is empty, so there is no half to take" in the_line(
        lines, "Red passes"
    )
    assert g.decider == BLUE  # Blue's 1 is a real choice: buy or pass
    assert violations(g) == []


def test_r6_2_highest_bidder_pays_then_takes_the_upper_card_and_its_seal():
    g = fresh()
    S.set_cards(g, "abou_simbel", upper="chair", lower=["harp", "mirror", "gold"], seal=True)
    S.put_servant(g, GREEN, "abou_simbel", 3)
    S.put_servant(g, RED, "abou_simbel", 4)
    lines = play(g, BLUE, "place abou_simbel.left#5")
    assert (
        "Blue has the highest bid and pays 7 Deben into Abou Simbel's reserve; now they choose "
        "their cards (Market Closing, R6.2)." in lines
    )
    take_upper = O.take_id([R.UPPER])
    assert describe_option(g, take_upper) == "Take the upper card (chair) and its seal"
    assert describe_option(g, O.take_id([1, 3])) == (
        "Take lower card 1 (harp) and lower card 3 (gold craft)"
    )
    since = len(g.log)
    g.apply(take_upper)
    assert narrate(g, "en", since)[0] == (
        "Blue takes the chair (the upper card) from Abou Simbel, "
        "together with the Royal Seal on it."
    )


def test_r6_6_market_closed_says_which_stall_opens_next():
    g = fresh()
    S.put_servant(g, GREEN, "abou_simbel", 3)
    S.put_servant(g, RED, "abou_simbel", 4)
    play(g, BLUE, "place abou_simbel.left#5")
    random_rest = random.Random(1)
    since = len(g.log)
    while g.res_market >= 0:
        g.apply(random_rest.choice(g.legal_options()))
    line = the_line(narrate(g, "en", since), "is closed")
    assert "next time the market opens on its right stall" in line and "R6.6" in line
    reopen = the_line(narrate(g, "en", since), "reopens")
    assert reopen.startswith("Louqsor reopens:") and "(Market Closing, R6.7)" in reopen


# --- R10: characters -----------------------------------------------------------------------------
def test_r10_7_scribe_example_blue_scores_28_as_4_senets_times_5_plus_2():
    g = fresh(empty_markets=True)
    S.give_gifts(g, BLUE, "double_senet", "senet", "senet")
    S.give_gifts(g, BLACK, "senet", "senet")
    use_top_card(g, R.SCRIBE)  # the +3 is gone: the Scribe +2 is on top
    S.set_seals(g, BLUE, 1)
    S.start_turn(g, BLUE)
    assert describe_option(g, O.RECRUIT_BASE + R.SCRIBE).startswith("Recruit the Scribe +2:")
    lines = play(g, BLUE, "recruit scribe")
    line = the_line(lines, "scores 28")
    assert line.startswith(
        "Blue scores 28 with the Scribe +2: 4 senets × (5, the value with 2 holders, + 2)."
    )
    assert "(Characters sheet, R10.7)" in line
    assert "Blue holds a single gift type, so the Scribe scores senets" in the_line(lines, "single")
    assert "2 senets × 6 (one holder) = 12" in score_lines(g, BLACK)  # Black's now worth 6
    assert violations(g) == []


def test_r10_7_scribe_option_shows_the_product_before_choosing():
    g = fresh(empty_markets=True)
    S.give_gifts(g, BLUE, "double_senet", "senet", "senet", "harp")
    S.give_gifts(g, BLACK, "senet", "senet")
    use_top_card(g, R.SCRIBE)
    S.set_seals(g, BLUE, 1)
    play(g, BLUE, "recruit scribe")
    assert describe_option(g, O.SCRIBE_BASE + R.SENET) == ("Score your 4 senets: 4 × (5 + 2) = 28")
    assert describe_option(g, O.SCRIBE_BASE + R.HARP) == "Score your 1 harp: 1 × (9 + 2) = 11"


def test_r10_2_vizier_example_black_scores_8_for_4_types():
    g = fresh(empty_markets=True)
    S.give_gifts(g, BLACK, "senet", "statuette", "mirror", "necklace")
    S.set_seals(g, BLACK, 1)
    S.start_turn(g, BLACK)
    assert describe_option(g, O.RECRUIT_BASE + R.VIZIER) == (
        "Recruit the Vizier: 8 prestige now, 2 for each of your 4 gift types"
    )
    line = the_line(play(g, BLACK, "recruit vizier"), "different gift types")
    assert line == (
        "Black holds 4 different gift types (senets, mirrors, statuettes and necklaces) and "
        "scores 2 × 4 = 8 prestige (Characters sheet, R10.2)."
    )
    assert g.prestige[BLACK] == 8


def test_r10_6_royal_servant_example_three_holders_score_5_each():
    g = fresh(empty_markets=True)
    S.give_gifts(g, GREEN, *["chair"] * 5)
    S.give_gifts(g, RED, "chair")
    S.give_gifts(g, BLUE, "chair")
    S.give_gifts(g, BLACK, "harp")  # a second type held: naming chairs is a real choice
    S.set_seals(g, GREEN, 1)
    play(g, GREEN, "recruit royal_servant")
    assert describe_option(g, O.ROYAL_BASE + R.CHAIR) == (
        "Name chairs: with 3 holders, every holder discards one and scores 5 (you hold 5)"
    )
    since = len(g.log)
    g.apply("royal chair")
    line = the_line(narrate(g, "en", since), "names chairs")
    assert line == (
        "Green names chairs. With 3 holders, each is worth 5: every holder discards one and "
        "scores it (Green 5, Red 5 and Blue 5) (Characters sheet, R10.6)."
    )
    assert score_lines(g, GREEN)[0] == "4 chairs × 9 (one holder) = 36"  # now the only holder


def test_r10_3_first_merchant_example_harp_for_statuette_pays_2_necklace_pays_nothing():
    g = fresh(empty_markets=True)
    S.give_gifts(g, RED, "harp", "necklace", "statuette")
    S.give_gifts(g, GREEN, "statuette")
    S.give_gifts(g, BLUE, "statuette")
    S.set_seals(g, RED, 1)
    play(g, RED, "recruit merchant")
    assert describe_option(g, g.parse("exchange green:statuette")) == (
        "Take Green's statuette (maximum value 11)"
    )
    g.apply("exchange green:statuette")
    assert describe_option(g, g.parse("give harp")) == (
        "Give Green a harp in return and pay 2 Deben (11 − 9)"
    )
    red, green = g.deben[RED], g.deben[GREEN]
    since = len(g.log)
    g.apply("give harp")
    first = narrate(g, "en", since)[0]
    assert first == (
        "Red gives Green a harp and takes Green's statuette in return (Characters sheet, R10.3). "
        "A statuette has a maximum value of 11, a harp only 9: Red pays the difference, 2 Deben, "
        "to Green."
    )
    assert (g.deben[RED], g.deben[GREEN]) == (red - 2, green + 2)
    since = len(g.log)
    g.apply("exchange blue:statuette")
    g.apply("give necklace")
    second = the_line(narrate(g, "en", since), "gives Blue")
    assert "A necklace has a maximum value of 14, at least the 11 of a statuette: nobody pays" in (
        second
    )
    assert violations(g) == []


def test_r10_8_treasurer_options_and_event():
    g = fresh()
    set_reserve(g, R.GIZEH, 5, bank=BLACK)
    S.set_seals(g, GREEN, 1)
    play(g, GREEN, "recruit treasurer")
    assert describe_option(g, g.parse("treasurer gizeh")) == "Take from Gizeh's reserve (5 Deben)"
    g.apply("treasurer gizeh")
    assert describe_option(g, g.parse("treasurer 4")) == "Take 4 Deben from Gizeh's reserve"
    since = len(g.log)
    g.apply("treasurer 4")
    assert narrate(g, "en", since)[0] == (
        "Green takes 4 Deben from Gizeh's reserve (Characters sheet, R10.8)."
    )


# --- R8, R9: scores ------------------------------------------------------------------------------
def test_r9_1_score_lines_add_up_gifts_deben_seals_and_prestige():
    g = fresh(empty_markets=True)
    S.give_gifts(g, GREEN, *["chair"] * 4)
    move_deben(g, GREEN, 11, bank=BLACK)
    S.set_seals(g, GREEN, 2)
    g.prestige[GREEN] = 7
    assert score_lines(g, GREEN) == [
        "4 chairs × 9 (one holder) = 36",
        "11 Deben → 5 (1 point per 2 Deben)",
        "2 seals × 3 = 6",
        "Prestige scored during the game: 7",
        "Total for Green: 54",
    ]
    assert score_breakdown(g, GREEN).total == 54


def test_r8_estimated_values_are_marked_and_printed_ones_are_not():
    g = fresh(empty_markets=True)
    S.give_gifts(g, RED, "harp")
    S.give_gifts(g, BLUE, "harp", "double_senet", "senet")
    lines = score_lines(g, RED)
    assert lines[0] == "1 harp × 7 (2 holders; an estimated value, R8) = 7"
    blue = score_lines(g, BLUE)
    assert blue[0] == "3 senets (a double senet counts as 2) × 6 (one holder) = 18"
    assert "estimated" not in blue[0]


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_r9_1_score_lines_carry_the_same_numbers_in_other_languages(lang):
    g = fresh(empty_markets=True)
    S.give_gifts(g, GREEN, *["chair"] * 4)
    move_deben(g, GREEN, 11, bank=BLACK)
    S.set_seals(g, GREEN, 2)
    lines = score_lines(g, GREEN, lang)
    assert "4" in lines[0] and "× 9" in lines[0] and "= 36" in lines[0]
    assert lines[1].startswith("11 Deben → 5")
    assert "× 3 = 6" in lines[2]
    assert lines[-1].endswith("47")
    assert lines != score_lines(g, GREEN, "en")


def finished_game():
    g = new_game(4, seed=5, record_events=True)
    rng = random.Random(5)
    while not g.is_over:
        g.apply(rng.choice(g.legal_options()))
    return g


def set_scores(g, prestige, deben):
    for seat in range(g.n):
        g.gifts[seat] = [0] * R.NUM_KINDS
        g.seals[seat] = 0
    g.prestige[:] = prestige
    g.deben[:] = deben


def test_r9_2_winner_line_tie_broken_by_deben():
    g = finished_game()
    set_scores(g, [30, 30, 10, 0], [5, 4, 1, 0])  # 32 and 32 points: 5 Deben beat 4
    assert winner_line(g) == (
        "Green and Red tie on 32 points; a tie goes to the most Deben: Green wins with 5 "
        "(against Red 4) (R9.2)."
    )
    set_scores(g, [30, 30, 10, 0], [4, 4, 1, 0])
    assert winner_line(g) == (
        "Green and Red tie on 32 points and on Deben (4 each): they share the win (R9.2)."
    )
    set_scores(g, [30, 10, 10, 0], [4, 4, 1, 0])
    assert winner_line(g) == "Green wins with 32 points (R9.2)."


def test_r9_2_the_end_of_the_game_is_narrated_with_the_winner():
    g = finished_game()
    assert g.phase == P_OVER
    last = narrate(g)[-1]
    assert last.startswith("The Akhenaton card is out and no market is open any more")
    assert last.endswith(winner_line(g))
    table = score_table(g)
    assert table[0] == "Final scores (Final Scoring, R9.1):" and table[-1] == winner_line(g)
    for seat in range(g.n):
        total = score_breakdown(g, seat).total
        assert f"  Total for {g.colours[seat].capitalize()}: {total}" in table


def test_score_table_before_the_end_speaks_of_a_lead():
    g = fresh()
    g.prestige[BLUE] = 20
    table = score_table(g)
    assert table[0] == "Scores if the game ended now (Final Scoring, R9.1):"
    assert table[-1] == "Blue leads with 24 points (R9.2)."  # 20 + 9 Deben → 4


# --- the narration itself ------------------------------------------------------------------------
def test_decisions_are_bookkeeping_and_unknown_events_are_refused():
    assert describe_event("decision", {"seat": 0, "option": "pass"}, R.COLOURS) is None
    with pytest.raises(KeyError):
        describe_event("no_such_event", {}, R.COLOURS)


def test_narrate_from_a_position_explains_only_the_new_events():
    g = fresh()
    everything = narrate(g)
    assert everything[0].startswith(
        "Green plays first. Starting Deben, clockwise from Green: 8, 9, 9 and 10."
    )
    since = len(g.log)
    g.apply("place gizeh.left#0")
    new = narrate(g, "en", since)
    assert new[0].startswith("Green puts a servant on the 1 of Gizeh's left stall: a bid of 1")
    assert new[-1] == "Turn 2: Red to play."
    assert len(narrate(g)) == len(everything) + len(new)


def test_a_game_without_recorded_events_cannot_be_narrated():
    g = new_game(4, seed=0)
    with pytest.raises(ValueError):
        narrate(g)
