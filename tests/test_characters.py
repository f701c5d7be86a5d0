"""Characters (RULINGS R5.1, R2.3, R10): recruiting and every character's effect.

Each test stages a position with nefertiti_core.files.staging, applies the decisive option and checks
the rulebook's (or RULINGS') numbers. Seats: 0 green, 1 red, 2 blue, 3 black; with
``first_player=0`` they start with 8, 9, 9 and 10 Deben (R2.6).
"""

from __future__ import annotations

from helpers_chars import (
    BLACK,
    BLUE,
    GREEN,
    RED,
    events,
    fresh_game,
    option_texts,
    recruit_texts,
    set_deben_balanced,
    set_reserve_balanced,
    use_top_card,
)

from nefertiti_core import violations
from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.scoring import score_breakdown
from nefertiti_core.engine.state import (
    CLOSED,
    OPEN,
    P_EXCHANGE_GIVE,
    P_EXCHANGE_TAKE,
    P_PLACE,
    P_TURN,
)
from nefertiti_core.files import staging as S


def _gift_line(g, seat: int, type_name: str):
    lines = {line.gift_type: line for line in score_breakdown(g, seat).gifts}
    return lines.get(type_name)


def _only_kind(g, kind: str) -> bool:
    return all(O.OPTION_KIND[o] == kind for o in g.legal_options())


# --------------------------------------------------------------------------- recruiting (R5.1)


def test_r5_1_recruiting_spends_one_seal_which_goes_back_to_the_supply():
    g = fresh_game()
    S.set_seals(g, GREEN, 2)
    S.give_gifts(g, GREEN, "harp")
    S.start_turn(g, GREEN)
    supply = g.seal_supply
    g.apply("recruit vizier")
    assert g.seals[GREEN] == 1
    assert g.seal_supply == supply + 1
    assert events(g, "recruit")[-1]["card"] == "vizier"
    assert violations(g) == []


def test_r5_1_after_recruiting_the_turn_offers_placement_but_no_second_recruit():
    g = fresh_game()
    S.set_seals(g, GREEN, 2)  # a second seal would pay for a second character
    S.give_gifts(g, GREEN, "harp")
    S.start_turn(g, GREEN)
    assert {"recruit vizier", "recruit high_priest", "recruit scribe"} <= recruit_texts(g)
    g.apply("recruit vizier")
    assert g.phase == P_PLACE and g.decider == GREEN
    assert recruit_texts(g) == set()
    assert _only_kind(g, O.PLACE) and g.legal_options()
    g.apply("place gizeh.left#0")
    assert g.decider == RED and g.phase == P_TURN  # one placement ends the turn
    assert g.seals[GREEN] == 1
    assert violations(g) == []


def test_r5_1_without_a_seal_no_character_is_offered():
    g = fresh_game()
    S.give_gifts(g, GREEN, "harp")
    S.start_turn(g, GREEN)
    assert g.seals[GREEN] == 0
    assert recruit_texts(g) == set()
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    assert "recruit vizier" in recruit_texts(g)


def test_r5_1_a_recruited_card_leaves_the_game():
    g = fresh_game()
    S.set_seals(g, GREEN, 1)
    S.set_seals(g, RED, 1)
    S.start_turn(g, GREEN)
    g.apply("recruit vizier")
    assert g.piles[R.VIZIER] == []
    assert g.used_characters == [R.C_VIZIER]
    g.apply("place gizeh.left#0")
    assert g.decider == RED
    assert "recruit vizier" not in recruit_texts(g)  # the pile is empty for good
    assert "recruit high_priest" in recruit_texts(g)
    assert violations(g) == []


def test_r2_3_merchant_pile_first_merchant_is_recruited_first():
    g = fresh_game()
    S.give_gifts(g, RED, "harp", "chair")
    S.give_gifts(g, GREEN, "harp", "chair")
    S.set_seals(g, RED, 1)
    S.start_turn(g, RED)
    g.apply("recruit merchant")
    assert events(g, "recruit")[-1]["card"] == "first_merchant"
    assert g.piles[R.MERCHANT] == [R.C_MERCHANT, R.C_MERCHANT]


def test_r2_3_scribe_pile_is_used_top_first_plus3_plus2_plus2_plus1():
    """Four players in a row recruit the Scribe for their single harp (R10.7, R8 harp 9/7/5/5)."""
    g = fresh_game()
    for seat in range(4):
        S.give_gifts(g, seat, "harp")
        S.set_seals(g, seat, 1)
    S.start_turn(g, GREEN)
    for seat in range(4):
        assert g.decider == seat
        g.apply("recruit scribe")  # the only type held is scored without a choice
        g.apply(f"place akhet_aton.left#{6 + seat}")  # level 4 only: no closing (R3.3)
    cards = [e["card"] for e in events(g, "recruit")]
    assert cards == ["scribe+3", "scribe+2", "scribe+2", "scribe+1"]
    assert [e["bonus"] for e in events(g, "scribe")] == [3, 2, 2, 1]
    # harp holders 4, 3, 2, 1 -> value 5, 5, 7, 9 (R8), plus the bonus, times 1 harp
    assert g.prestige == [8, 7, 9, 10]
    assert g.piles[R.SCRIBE] == []
    assert violations(g) == []


def test_r2_3_three_players_scribe_pile_is_plus3_plus2_plus1():
    g = fresh_game(players=3)
    assert g.piles[R.SCRIBE] == [R.C_SCRIBE3, R.C_SCRIBE2, R.C_SCRIBE1]
    assert sum(len(pile) for pile in g.piles) == 12
    S.give_gifts(g, GREEN, "harp")
    use_top_card(g, R.SCRIBE)
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    g.apply("recruit scribe")
    assert events(g, "recruit")[-1]["card"] == "scribe+2"
    assert g.prestige[GREEN] == 9 + 2  # one harp, Green the only holder (R8: 9)
    assert g.piles[R.SCRIBE] == [R.C_SCRIBE1]
    assert violations(g) == []


# --------------------------------------------------------------------------- R10.1 recruitability


def test_r10_1_at_game_start_only_vizier_high_priest_and_treasurer_can_be_recruited():
    """Louqsor holds the Market Closed tile and no card; nobody holds a gift; reserves hold 1."""
    g = fresh_game(empty_markets=False)
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    assert g.tile == R.LOUQSOR and all(c < 0 for c in g.cards[R.LOUQSOR])
    assert recruit_texts(g) == {"recruit vizier", "recruit high_priest", "recruit treasurer"}


def _chief_position(abou_cards: bool):
    g = fresh_game()
    S.set_stall(g, "louqsor", "left", "open")
    S.set_cards(g, "louqsor", "mirror", ["harp", "chair", "senet"])
    S.set_tile(g, "abou_simbel")
    if abou_cards:
        S.set_cards(g, "abou_simbel", "gold", ["harp", "chair"], seal=True)
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    return g


def test_r10_1_chief_needs_a_card_in_the_market_with_the_tile():
    assert "recruit chief" not in recruit_texts(_chief_position(abou_cards=False))
    g = _chief_position(abou_cards=True)
    assert "recruit chief" in recruit_texts(g)
    assert violations(g) == []


def test_r10_1_treasurer_needs_a_reserve_with_money():
    g = fresh_game()
    for m in range(4):
        set_reserve_balanced(g, m, 0, bank=BLACK)
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    assert "recruit treasurer" not in recruit_texts(g)
    set_reserve_balanced(g, R.LOUQSOR, 1, bank=BLACK)  # a closed market's reserve counts
    S.start_turn(g, GREEN)
    assert "recruit treasurer" in recruit_texts(g)
    assert violations(g) == []


def test_r10_1_scribe_needs_a_gift_of_the_recruiter():
    g = fresh_game()
    S.give_gifts(g, RED, "harp")  # another player's gift does not help
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    assert "recruit scribe" not in recruit_texts(g)
    S.give_gifts(g, GREEN, "chair")
    S.start_turn(g, GREEN)
    assert "recruit scribe" in recruit_texts(g)


def test_r10_1_royal_servant_needs_someone_holding_a_gift():
    g = fresh_game()
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    assert "recruit royal_servant" not in recruit_texts(g)
    S.give_gifts(g, BLUE, "mirror")  # held by another player only: still recruitable
    S.start_turn(g, GREEN)
    assert "recruit royal_servant" in recruit_texts(g)


def test_r10_1_merchant_needs_a_legal_exchange():
    g = fresh_game()
    S.give_gifts(g, RED, "harp")
    S.give_gifts(g, GREEN, "gold")  # red holds no gold: nothing to take
    S.set_seals(g, RED, 1)
    S.start_turn(g, RED)
    assert "recruit merchant" not in recruit_texts(g)
    S.give_gifts(g, BLUE, "harp")
    S.start_turn(g, RED)
    assert "recruit merchant" in recruit_texts(g)


def test_r10_1_vizier_and_high_priest_are_recruitable_without_any_gift():
    g = fresh_game()
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    assert {"recruit vizier", "recruit high_priest"} <= recruit_texts(g)
    g.apply("recruit vizier")
    assert g.prestige[GREEN] == 0  # no gift type held: 0 points, but the card is spent


# --------------------------------------------------------------------------- Vizier (R10.2)


def test_r10_2_vizier_rulebook_example_black_scores_8_for_four_types():
    g = fresh_game()
    S.give_gifts(g, BLACK, "senet", "statuette", "mirror", "necklace")
    S.set_seals(g, BLACK, 1)
    S.start_turn(g, BLACK)
    before = list(g.gifts[BLACK])
    g.apply("recruit vizier")
    assert g.prestige[BLACK] == 8
    assert g.gifts[BLACK] == before  # the gifts are not discarded
    assert violations(g) == []


def test_r10_2_vizier_single_and_double_senet_are_one_type():
    g = fresh_game()
    S.give_gifts(g, BLACK, "senet", "double_senet", "harp", "harp")
    S.set_seals(g, BLACK, 1)
    S.start_turn(g, BLACK)
    g.apply("recruit vizier")
    assert g.prestige[BLACK] == 4  # senet and harp: 2 types


# --------------------------------------------------------------------------- Merchant (R10.3)


def _merchant_example(red_deben: int = 9):
    """Rulebook: Red holds a harp, a necklace and a statuette; Green and Blue a statuette each."""
    g = fresh_game()
    S.give_gifts(g, RED, "harp", "necklace", "statuette")
    S.give_gifts(g, GREEN, "statuette")
    S.give_gifts(g, BLUE, "statuette")
    set_deben_balanced(g, RED, red_deben, bank=BLACK)
    S.set_seals(g, RED, 1)
    S.start_turn(g, RED)
    return g


def test_r10_3_merchant_rulebook_example_first_merchant_two_exchanges():
    g = _merchant_example()
    g.apply("recruit merchant")
    assert g.phase == P_EXCHANGE_TAKE and g.decider == RED
    assert {"exchange green:statuette", "exchange blue:statuette"} <= option_texts(g)
    assert "exchange done" not in option_texts(g)  # at least one exchange is made
    g.apply("exchange green:statuette")
    assert g.phase == P_EXCHANGE_GIVE
    g.apply("give harp")  # harp 9 for statuette 11: Red pays 2 Deben to Green
    assert g.deben[RED] == 9 - 2 and g.deben[GREEN] == 8 + 2
    assert g.gifts[GREEN][R.K_HARP] == 1 and g.gifts[GREEN][R.K_STATUETTE] == 0
    g.apply("exchange blue:statuette")
    g.apply("give necklace")  # necklace 14 for statuette 11: nobody pays
    assert g.deben[RED] == 7 and g.deben[BLUE] == 9
    assert g.gifts[RED][R.K_STATUETTE] == 3
    assert g.gifts[RED][R.K_HARP] == 0 and g.gifts[RED][R.K_NECKLACE] == 0
    assert g.gifts[BLUE][R.K_NECKLACE] == 1 and g.gifts[BLUE][R.K_STATUETTE] == 0
    assert [e["paid"] for e in events(g, "exchange")] == [2, 0]
    assert g.phase == P_PLACE and g.decider == RED
    assert sum(g.deben) + sum(g.reserve) == 40  # R10.3: no bank, the 2 Deben went to Green
    assert violations(g) == []


def test_r10_3_merchant_must_already_hold_the_type_taken():
    g = fresh_game()
    S.give_gifts(g, RED, "harp", "necklace")  # no statuette
    S.give_gifts(g, GREEN, "statuette", "harp", "necklace")
    S.set_seals(g, RED, 1)
    S.start_turn(g, RED)
    g.apply("recruit merchant")
    takes = {t for t in option_texts(g) if t.startswith("exchange ")}
    assert takes == {"exchange green:harp", "exchange green:necklace"}


def test_r10_3_merchant_an_exchange_red_cannot_pay_for_is_not_offered():
    g = _merchant_example(red_deben=1)
    g.apply("recruit merchant")
    g.apply("exchange green:statuette")
    # the harp would cost 11 - 9 = 2 Deben, Red has 1
    assert option_texts(g) == {"give necklace", "give statuette"}
    g2 = _merchant_example(red_deben=2)
    g2.apply("recruit merchant")
    g2.apply("exchange green:statuette")
    assert "give harp" in option_texts(g2)


def test_r10_3_merchant_double_senet_max_value_12_against_single_6():
    """Taking a double senet (12) for a single (6) costs 6: with 5 Deben no exchange is legal."""
    g = fresh_game()
    S.give_gifts(g, RED, "senet")
    S.give_gifts(g, GREEN, "double_senet")
    set_deben_balanced(g, RED, 5, bank=BLACK)
    S.set_seals(g, RED, 1)
    S.start_turn(g, RED)
    assert "recruit merchant" not in recruit_texts(g)
    set_deben_balanced(g, RED, 6, bank=BLACK)
    S.start_turn(g, RED)
    g.apply("recruit merchant")  # the only exchange and the only gift to give are forced
    assert g.gifts[RED][R.K_DOUBLE_SENET] == 1 and g.gifts[GREEN][R.K_SENET] == 1
    assert g.deben[RED] == 0 and g.deben[GREEN] == 8 + 6
    assert events(g, "exchange")[-1]["taken_max"] == 12
    assert events(g, "exchange")[-1]["given_max"] == 6
    assert violations(g) == []


def test_r10_3_first_merchant_second_exchange_is_with_another_opponent():
    g = fresh_game()
    S.give_gifts(g, RED, "harp", "chair", "mirror")
    S.give_gifts(g, GREEN, "harp", "chair")
    S.give_gifts(g, BLUE, "mirror")
    S.set_seals(g, RED, 1)
    S.start_turn(g, RED)
    g.apply("recruit merchant")
    g.apply("exchange green:harp")
    g.apply("give chair")
    assert g.phase == P_EXCHANGE_TAKE
    texts = option_texts(g)
    assert not any(t.startswith("exchange green:") for t in texts)  # green holds a chair again
    assert texts == {"exchange blue:mirror", "exchange done"}


def test_r10_3_first_merchant_second_exchange_is_optional():
    g = _merchant_example()
    g.apply("recruit merchant")
    g.apply("exchange green:statuette")
    g.apply("give harp")
    g.apply("exchange done")
    assert g.phase == P_PLACE and g.decider == RED
    assert len(events(g, "exchange")) == 1
    assert g.gifts[BLUE][R.K_STATUETTE] == 1


def test_r10_3_plain_merchant_allows_only_one_exchange():
    g = _merchant_example()
    use_top_card(g, R.MERCHANT)  # the First Merchant was played earlier
    S.start_turn(g, RED)
    g.apply("recruit merchant")
    assert events(g, "recruit")[-1]["card"] == "merchant"
    g.apply("exchange green:statuette")
    g.apply("give harp")
    assert g.phase == P_PLACE and g.decider == RED  # blue:statuette is no longer offered
    assert len(events(g, "exchange")) == 1
    assert violations(g) == []


# --------------------------------------------------------------------------- Royal Servant (R10.6)


def _royal_example():
    """Rulebook: Green holds 5 chairs, two other players 1 chair each; Black a harp."""
    g = fresh_game()
    S.give_gifts(g, GREEN, *["chair"] * 5)
    S.give_gifts(g, RED, "chair")
    S.give_gifts(g, BLUE, "chair")
    S.give_gifts(g, BLACK, "harp")
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    return g


def test_r10_6_royal_servant_rulebook_example_three_holders_discard_a_chair_and_score_5():
    g = _royal_example()
    g.apply("recruit royal_servant")
    g.apply("royal chair")
    assert g.prestige == [5, 5, 5, 0]
    assert g.gifts[GREEN][R.K_CHAIR] == 4
    assert g.gifts[RED][R.K_CHAIR] == 0 and g.gifts[BLUE][R.K_CHAIR] == 0
    assert g.gifts[BLACK][R.K_HARP] == 1
    line = _gift_line(g, GREEN, "chair")  # Green's 4 chairs, now the only holder: 9 each
    assert (line.count, line.holders, line.value, line.points) == (4, 1, 9, 36)
    assert g.phase == P_PLACE and g.decider == GREEN
    assert violations(g) == []


def test_r10_6_royal_servant_may_name_a_type_the_recruiter_does_not_hold():
    g = _royal_example()
    g.apply("recruit royal_servant")
    assert "royal harp" in option_texts(g)
    g.apply("royal harp")
    assert g.prestige == [0, 0, 0, 9]  # Black alone held harps: 9 points
    assert g.gifts[BLACK][R.K_HARP] == 0
    assert g.gifts[GREEN][R.K_CHAIR] == 5
    assert violations(g) == []


def test_r10_6_royal_servant_senet_single_discarded_first_a_double_scores_twice():
    g = fresh_game()
    S.give_gifts(g, GREEN, "senet", "double_senet")
    S.give_gifts(g, RED, "double_senet")
    S.give_gifts(g, BLUE, "senet")
    S.give_gifts(g, BLACK, "harp")
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    g.apply("recruit royal_servant")
    g.apply("royal senet")
    # 3 holders: 4 per senet (R8); Red's double counts two senets
    assert g.prestige == [4, 8, 4, 0]
    assert g.gifts[GREEN][R.K_SENET] == 0 and g.gifts[GREEN][R.K_DOUBLE_SENET] == 1
    assert g.gifts[RED][R.K_DOUBLE_SENET] == 0
    assert g.gifts[BLUE][R.K_SENET] == 0
    assert violations(g) == []


# --------------------------------------------------------------------------- Scribe (R10.7)


def test_r10_7_scribe_rulebook_example_blue_scores_28_and_black_keeps_senets_worth_6():
    g = fresh_game()
    S.give_gifts(g, BLUE, "double_senet", "senet", "senet")
    S.give_gifts(g, BLACK, "senet", "senet")
    use_top_card(g, R.SCRIBE)  # the +3 was used earlier: the +2 is on top
    S.set_seals(g, BLUE, 1)
    S.start_turn(g, BLUE)
    g.apply("recruit scribe")  # senet is Blue's only type
    scribe = events(g, "scribe")[-1]
    assert (scribe["bonus"], scribe["count"], scribe["value"]) == (2, 4, 5)
    assert g.prestige[BLUE] == 28  # (5 + 2) x 4 senets
    assert g.gifts[BLUE][R.K_SENET] == 0 and g.gifts[BLUE][R.K_DOUBLE_SENET] == 0
    assert g.gifts[BLACK][R.K_SENET] == 2 and g.prestige[BLACK] == 0
    line = _gift_line(g, BLACK, "senet")
    assert (line.holders, line.value, line.points) == (1, 6, 12)
    assert violations(g) == []


def test_r10_7_scribe_plus3_is_used_first_and_scores_only_the_chosen_type():
    g = fresh_game()
    S.give_gifts(g, GREEN, "gold", "gold", "harp")
    S.give_gifts(g, RED, "gold")
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    g.apply("recruit scribe")
    assert option_texts(g) == {"scribe gold", "scribe harp"}
    g.apply("scribe gold")
    assert g.prestige[GREEN] == (10 + 3) * 2  # 2 gold holders: 10 each (R8), +3 bonus
    assert g.gifts[GREEN][R.K_GOLD] == 0 and g.gifts[GREEN][R.K_HARP] == 1
    assert g.gifts[RED][R.K_GOLD] == 1
    assert g.piles[R.SCRIBE] == [R.C_SCRIBE2, R.C_SCRIBE2, R.C_SCRIBE1]


# --------------------------------------------------------------------------- High Priest (R10.4)


def test_r10_4_high_priest_places_two_servants_in_one_turn():
    g = fresh_game()
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    g.apply("recruit high_priest")
    g.apply("place gizeh.left#0")
    assert g.decider == GREEN and g.phase == P_PLACE and g.hand[GREEN] == 3
    assert recruit_texts(g) == set()
    g.apply("place akhet_aton.left#0")
    assert g.hand[GREEN] == 2
    assert g.decider == RED and g.phase == P_TURN
    assert violations(g) == []


def test_r10_4_high_priest_a_closing_by_the_first_servant_is_resolved_before_the_second():
    g = fresh_game()
    S.put_servant(g, BLUE, "abou_simbel", 6)  # 8
    S.put_servant(g, RED, "abou_simbel", 5)  # 7
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    g.apply("recruit high_priest")
    g.apply("place abou_simbel.left#3")  # 8 + 7 + 2 = 17: closes (R3.5)
    # resolved at once (no cards: Blue pays 8, Red then Green take half of 9, then of 4)
    assert g.status[R.ABOU_SIMBEL] == CLOSED and g.tile == R.ABOU_SIMBEL
    assert g.status[R.LOUQSOR] == OPEN  # the previous tile holder reopened (R6.7)
    assert (g.deben[BLUE], g.deben[RED], g.deben[GREEN]) == (1, 14, 10)
    assert g.reserve[R.ABOU_SIMBEL] == 2
    assert g.hand == [4, 4, 4, 4]
    assert g.decider == GREEN and g.phase == P_PLACE  # now the second placement
    assert not any(o in g.legal_options() for o in range(R.SQUARE_BASE[4], R.SQUARE_BASE[6]))
    names = [e for e, _ in g.log]
    assert names.index("market_closed") > names.index("high_priest")
    g.apply("place gizeh.left#6")
    assert g.decider == RED and g.hand[GREEN] == 3
    assert violations(g) == []


def test_r10_4_high_priest_with_one_servant_left_places_it_then_must_close_a_market():
    g = fresh_game()
    S.put_servant(g, GREEN, "gizeh", 0)
    S.put_servant(g, GREEN, "akhet_aton", 0)
    S.put_servant(g, GREEN, "abou_simbel", 0)
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    g.apply("recruit high_priest")
    assert _only_kind(g, O.PLACE)
    g.apply("place gizeh.left#6")
    assert g.hand[GREEN] == 0 and g.decider == GREEN and g.phase == P_PLACE
    assert option_texts(g) == {"close gizeh", "close akhet_aton", "close abou_simbel"}
    g.apply("close akhet_aton")
    assert g.status[R.AKHET_ATON] == CLOSED and g.tile == R.AKHET_ATON
    assert g.hand[GREEN] == 1  # the servant came home (R6.5)
    assert g.decider == RED and g.phase == P_TURN
    assert violations(g) == []


def test_r10_4_high_priest_with_no_servant_left_closes_first_then_places():
    g = fresh_game()
    S.put_servant(g, GREEN, "gizeh", 0)
    S.put_servant(g, GREEN, "akhet_aton", 0)
    S.put_servant(g, GREEN, "abou_simbel", 0)
    S.put_servant(g, GREEN, "abou_simbel", 1)
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    g.apply("recruit high_priest")
    assert option_texts(g) == {"close gizeh", "close akhet_aton", "close abou_simbel"}
    g.apply("close abou_simbel")
    assert g.status[R.ABOU_SIMBEL] == CLOSED
    assert g.hand[GREEN] == 2  # the resolution returned both servants
    assert g.decider == GREEN and g.phase == P_PLACE
    assert _only_kind(g, O.PLACE) and g.legal_options()
    g.apply("place gizeh.left#6")
    assert g.hand[GREEN] == 1 and g.decider == RED
    assert violations(g) == []


def test_r6_5_a_servant_home_from_the_high_priests_first_closing_goes_out_again_this_turn():
    """R6.5: a settled servant can be placed again at once, not only from the owner's next turn:
    Green's last servant in hand closes Abou Simbel, two of Green's come home there, and the
    High Priest's second placement sends one out again."""
    g = fresh_game()
    S.put_servant(g, GREEN, "abou_simbel", 6)  # 8
    S.put_servant(g, RED, "abou_simbel", 5)  # 7
    S.put_servant(g, GREEN, "gizeh", 0)
    S.put_servant(g, GREEN, "akhet_aton", 0)
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    assert g.hand[GREEN] == 1
    g.apply("recruit high_priest")
    g.apply("place abou_simbel.left#3")  # 8 + 7 + 2 = 17: closes (R3.5); the last in hand
    assert g.status[R.ABOU_SIMBEL] == CLOSED
    assert g.hand[GREEN] == 2  # the 8 and the 2 came home (R6.5)
    assert g.decider == GREEN and g.phase == P_PLACE
    g.apply("place gizeh.left#6")  # one of them, out again in the same turn
    assert g.hand[GREEN] == 1 and g.decider == RED
    assert violations(g) == []


# --------------------------------------------------------------------------- Chief (R10.5)


def test_r10_5_chief_takes_the_upper_card_with_its_seal():
    g = _chief_position(abou_cards=True)
    g.apply("recruit chief")
    assert option_texts(g) == {"chief upper", "chief lower1", "chief lower2"}
    g.apply("chief upper")
    assert g.gifts[GREEN][R.K_GOLD] == 1
    assert g.seals[GREEN] == 1  # one seal spent, the card's seal gained
    assert not g.seal_on_upper[R.ABOU_SIMBEL]
    assert g.cards[R.ABOU_SIMBEL][0] == -1
    assert g.phase == P_PLACE and g.decider == GREEN
    assert violations(g) == []


def test_r10_5_chief_may_take_a_lower_card():
    g = _chief_position(abou_cards=True)
    g.apply("recruit chief")
    g.apply("chief lower2")
    assert g.gifts[GREEN][R.K_CHAIR] == 1
    assert g.seals[GREEN] == 0 and g.seal_on_upper[R.ABOU_SIMBEL]
    assert g.cards[R.ABOU_SIMBEL] == [R.K_GOLD, R.K_HARP, -1, -1]


def _endgame_two_closed_markets(tile_cards: bool):
    """Akhenaton drawn, Louqsor closed for good with cards; the tile on Abou Simbel."""
    g = fresh_game()
    g.deck.remove(R.AKHENATON)
    g.akhenaton_drawn = True
    g.dead_market = R.LOUQSOR
    S.set_cards(g, "louqsor", "necklace", ["gold", "mirror"], seal=False)
    S.set_tile(g, "abou_simbel")
    if tile_cards:
        S.set_cards(g, "abou_simbel", "harp", ["chair"], seal=False)
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    return g


def test_r10_5_chief_takes_only_from_the_market_with_the_tile_not_another_closed_one():
    assert "recruit chief" not in recruit_texts(_endgame_two_closed_markets(tile_cards=False))
    g = _endgame_two_closed_markets(tile_cards=True)
    g.apply("recruit chief")
    assert option_texts(g) == {"chief upper", "chief lower1"}
    g.apply("chief upper")
    assert g.gifts[GREEN][R.K_HARP] == 1 and g.gifts[GREEN][R.K_NECKLACE] == 0
    assert g.cards[R.LOUQSOR] == [R.K_NECKLACE, R.K_GOLD, R.K_MIRROR, -1]
    assert violations(g) == []


# --------------------------------------------------------------------------- Treasurer (R10.8)


def _treasurer_position():
    g = fresh_game()
    set_reserve_balanced(g, R.GIZEH, 0, bank=BLACK)
    set_reserve_balanced(g, R.AKHET_ATON, 0, bank=BLACK)
    set_reserve_balanced(g, R.ABOU_SIMBEL, 6, bank=BLACK)
    set_reserve_balanced(g, R.LOUQSOR, 3, bank=BLACK)  # Louqsor is closed
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    g.apply("recruit treasurer")
    return g


def test_r10_8_treasurer_chooses_among_reserves_with_money_open_or_closed():
    g = _treasurer_position()
    assert option_texts(g) == {"treasurer abou_simbel", "treasurer louqsor"}
    g.apply("treasurer louqsor")
    assert option_texts(g) == {"treasurer 1", "treasurer 2", "treasurer 3"}
    g.apply("treasurer 3")
    assert g.deben[GREEN] == 8 + 3 and g.reserve[R.LOUQSOR] == 0
    assert g.phase == P_PLACE and g.decider == GREEN
    assert violations(g) == []


def test_r10_8_treasurer_takes_at_most_4_deben():
    g = _treasurer_position()
    g.apply("treasurer abou_simbel")
    assert option_texts(g) == {"treasurer 1", "treasurer 2", "treasurer 3", "treasurer 4"}
    g.apply("treasurer 4")
    assert g.deben[GREEN] == 12 and g.reserve[R.ABOU_SIMBEL] == 2
    assert violations(g) == []
