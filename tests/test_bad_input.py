"""Bad input: every refused option leaves the game untouched and says why, with the rule.

An illegal option raises IllegalOptionError (a ValueError) whose message quotes the option, cites
a rule ID and lists the legal options; ``g.state_hash()`` and ``g.legal_options()`` are the same
before and after. Texts that are not notation raise NotationError, a finished game
GameOverError, impossible configurations and staging SetupError.
"""

from __future__ import annotations

import pytest
from helpers_chars import (
    BLACK,
    BLUE,
    GREEN,
    RED,
    fresh_game,
    play_random_to_end,
    set_deben_balanced,
    set_reserve_balanced,
    snapshot,
)

from nefertiti_core import (
    GameOverError,
    IllegalOptionError,
    NefertitiError,
    NotationError,
    SetupError,
    new_game,
    violations,
)
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.state import P_BID, P_EXCHANGE_GIVE, P_EXCHANGE_TAKE, P_PLACE, P_TAKE
from nefertiti_core.files import staging as S


def assert_refused(g, option, rule: str | None) -> IllegalOptionError:
    """``option`` (an id or a text) is refused for ``rule`` (the error's ``rule``), the message
    quotes the option and lists the legal options, and nothing changes."""
    option_id = g.parse(option) if isinstance(option, str) else option
    before = snapshot(g)
    with pytest.raises(IllegalOptionError) as info:
        g.apply(option)
    err = info.value
    message = str(err)
    assert isinstance(err, ValueError)
    assert err.option == option_id
    assert repr(g.option_text(option_id)) in message, message
    assert "options are" in message, message
    for legal in g.legal_options():
        assert g.option_text(legal) in message, message
    if rule is not None:
        assert err.rule == rule, message
    assert snapshot(g) == before
    return err


# --------------------------------------------------------------------------- placing (R5.2, R5.4)


def test_r5_2_placing_on_an_occupied_square_is_refused():
    g = fresh_game()
    S.put_servant(g, RED, "gizeh", 2)
    S.start_turn(g, GREEN)
    err = assert_refused(g, "place gizeh.left#2", "R5.2")
    assert err.rule == "R5.2" and "Red" in str(err)


def test_r5_2_placing_on_a_closed_market_is_refused():
    g = fresh_game()
    S.start_turn(g, GREEN)
    assert_refused(g, "place louqsor.left#0", "R5.2")


def test_r5_2_placing_on_the_stall_covered_by_the_reserve_is_refused():
    g = fresh_game()
    S.start_turn(g, GREEN)
    err = assert_refused(g, "place gizeh.right#0", "R5.2")
    assert err.rule == "R5.2" and "covered" in str(err)


def test_r5_4_placing_with_no_servant_left_is_refused_close_instead():
    g = fresh_game()
    for m, i in (("gizeh", 0), ("akhet_aton", 0), ("abou_simbel", 0), ("abou_simbel", 1)):
        S.put_servant(g, GREEN, m, i)
    S.start_turn(g, GREEN)
    assert g.hand[GREEN] == 0
    assert_refused(g, "place gizeh.left#5", "R5.4")


def test_r5_4_closing_while_holding_servants_is_refused():
    g = fresh_game()
    S.put_servant(g, GREEN, "gizeh", 0)
    S.start_turn(g, GREEN)
    assert_refused(g, "close gizeh", "R5.4")


def test_r5_4_closing_a_market_without_own_servant_is_refused():
    g = fresh_game()
    for i in range(3):
        S.put_servant(g, GREEN, "akhet_aton", 6 + i)
    S.put_servant(g, GREEN, "abou_simbel", 0)
    S.put_servant(g, RED, "gizeh", 0)
    S.start_turn(g, GREEN)
    assert g.hand[GREEN] == 0 and g.decider == GREEN
    assert_refused(g, "close gizeh", "R5.4")


# --------------------------------------------------------------------------- recruiting (R5.1, R10.1)


def test_r5_1_recruiting_without_a_seal_is_refused():
    g = fresh_game()
    S.start_turn(g, GREEN)
    assert_refused(g, "recruit vizier", "R5.1")


def test_r5_1_recruiting_twice_in_a_turn_is_refused():
    g = fresh_game()
    S.set_seals(g, GREEN, 2)
    S.start_turn(g, GREEN)
    g.apply("recruit vizier")
    err = assert_refused(g, "recruit high_priest", "R5.1")
    assert "one character" in str(err)
    assert g.seals[GREEN] == 1


def test_r5_1_recruiting_after_placing_is_refused_high_priest_second_placement():
    g = fresh_game()
    S.set_seals(g, GREEN, 2)
    S.start_turn(g, GREEN)
    g.apply("recruit high_priest")
    g.apply("place gizeh.left#0")
    assert g.phase == P_PLACE and g.decider == GREEN
    assert_refused(g, "recruit vizier", "R5.1")


def test_r10_1_recruiting_a_character_whose_effect_cannot_be_carried_out_is_refused():
    g = fresh_game(empty_markets=False)
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    for pile in ("chief", "scribe", "merchant", "royal_servant"):  # nothing to take or score
        assert_refused(g, f"recruit {pile}", "R10.1")


def test_r2_3_recruiting_from_an_empty_pile_is_refused():
    g = fresh_game()
    S.set_seals(g, GREEN, 1)
    S.remove_characters(g, "vizier")
    S.start_turn(g, GREEN)
    assert_refused(g, "recruit vizier", "R2.3")


# --------------------------------------------------------------------------- wrong phase


def test_an_option_of_another_phase_is_refused_naming_the_pending_decision():
    g = fresh_game()
    S.start_turn(g, GREEN)
    for text in ("half", "pass", "take upper", "buy lower1", "reroll", "scribe harp"):
        err = assert_refused(g, text, None)
        assert "R5.1" in str(err) and "R5.2" in str(err)  # the pending decision's rules


# --------------------------------------------------------------------------- a market closing (R6)


def _abou_closing(auto_forced: bool = True, red_deben: int = 9, blue_deben: int = 9, reserve=1):
    """Blue on 8, Red on 7 at Abou Simbel's left stall; Green's 2 makes 17 and closes (R3.5)."""
    g = fresh_game(auto_forced=auto_forced)
    S.set_cards(g, "abou_simbel", "gold", ["harp", "chair", "mirror"], seal=True)
    set_reserve_balanced(g, R.ABOU_SIMBEL, reserve, bank=BLACK)
    set_deben_balanced(g, RED, red_deben, bank=BLACK)
    set_deben_balanced(g, BLUE, blue_deben, bank=BLACK)
    S.put_servant(g, BLUE, "abou_simbel", 6)
    S.put_servant(g, RED, "abou_simbel", 5)
    S.start_turn(g, GREEN)
    g.apply("place abou_simbel.left#3")
    return g


def test_r6_2_a_take_set_the_square_does_not_allow_is_refused():
    g = _abou_closing()
    assert g.phase == P_TAKE and g.decider == BLUE
    for text in ("take upper+lower1", "take lower1+lower2+lower3", "take lower1"):
        assert_refused(g, text, "R6.2")


def test_r6_4_buying_with_too_little_deben_is_refused():
    g = _abou_closing(auto_forced=False, red_deben=6)  # bid 7
    g.apply("take upper")
    assert g.phase == P_BID and g.decider == RED
    assert_refused(g, "buy lower1", "R6.4")


def test_r6_4_passing_while_the_reserve_has_money_is_refused():
    g = _abou_closing()
    g.apply("take upper")  # Blue paid 8 into the reserve
    assert g.phase == P_BID and g.decider == RED and g.reserve[R.ABOU_SIMBEL] == 9
    assert_refused(g, "pass", "R6.4")


def test_r6_4_half_of_an_empty_reserve_is_refused():
    g = _abou_closing(blue_deben=0, reserve=0)  # Blue cannot pay and has no gift (R6.3)
    assert g.phase == P_BID and g.decider == RED and g.reserve[R.ABOU_SIMBEL] == 0
    assert_refused(g, "half", "R6.4")
    assert violations(g) == []


def test_r6_4_buying_from_an_empty_slot_is_refused():
    g = _abou_closing()
    g.apply("take lower1+lower2")
    assert_refused(g, "buy lower1", "R6.4")


def test_r6_3_discarding_a_gift_not_held_is_refused():
    g = fresh_game()
    S.set_cards(g, "abou_simbel", "gold", ["harp"], seal=True)
    S.give_gifts(g, BLUE, "chair", "mirror")
    set_deben_balanced(g, BLUE, 3, bank=BLACK)  # cannot pay the 8
    S.put_servant(g, BLUE, "abou_simbel", 6)
    S.put_servant(g, RED, "abou_simbel", 5)
    S.start_turn(g, GREEN)
    g.apply("place abou_simbel.left#3")
    assert g.decider == BLUE
    assert_refused(g, "discard gold", "R6.3")


# --------------------------------------------------------------------------- characters (R10)


def _merchant_turn():
    g = fresh_game()
    S.give_gifts(g, RED, "harp", "necklace", "gold")
    S.give_gifts(g, GREEN, "statuette", "harp", "necklace")
    set_deben_balanced(g, RED, 0, bank=BLACK)
    S.set_seals(g, RED, 1)
    S.start_turn(g, RED)
    g.apply("recruit merchant")
    return g


def test_r10_3_an_exchange_not_allowed_is_refused():
    g = _merchant_turn()
    assert g.phase == P_EXCHANGE_TAKE
    assert_refused(g, "exchange green:statuette", "R10.3")  # none held
    assert_refused(g, "exchange red:harp", "R10.3")  # with oneself
    assert_refused(g, "exchange done", "R10.3")  # none made yet
    g.apply("exchange green:necklace")
    assert g.phase == P_EXCHANGE_GIVE
    assert_refused(g, "give harp", "R10.3")  # 14 - 9 = 5 Deben, has 0


def test_r10_5_r10_6_r10_7_r10_8_character_choices_out_of_range_are_refused():
    g = fresh_game()
    S.give_gifts(g, GREEN, "harp")
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    g.apply("recruit royal_servant")  # harp is the only type held: forced
    assert g.phase == P_PLACE
    # Royal Servant: nobody holds gold
    g2 = fresh_game()
    S.give_gifts(g2, GREEN, "harp")
    S.give_gifts(g2, RED, "chair")
    S.set_seals(g2, GREEN, 1)
    S.start_turn(g2, GREEN)
    g2.apply("recruit royal_servant")
    assert_refused(g2, "royal gold", "R10.6")
    # Scribe: Green holds no chair
    g3 = fresh_game()
    S.give_gifts(g3, GREEN, "harp", "mirror")
    S.give_gifts(g3, RED, "chair")
    S.set_seals(g3, GREEN, 1)
    S.start_turn(g3, GREEN)
    g3.apply("recruit scribe")
    assert_refused(g3, "scribe chair", "R10.7")
    # Treasurer: Gizeh's reserve is empty; then more than the reserve holds
    g4 = fresh_game()
    set_reserve_balanced(g4, R.GIZEH, 0, bank=BLACK)
    set_reserve_balanced(g4, R.AKHET_ATON, 2, bank=BLACK)
    S.set_seals(g4, GREEN, 1)
    S.start_turn(g4, GREEN)
    g4.apply("recruit treasurer")
    assert_refused(g4, "treasurer gizeh", "R10.8")
    g4.apply("treasurer akhet_aton")
    assert_refused(g4, "treasurer 3", "R10.8")


def test_r10_5_chief_from_an_empty_slot_is_refused():
    g = fresh_game()
    S.set_stall(g, "louqsor", "left", "open")
    S.set_tile(g, "abou_simbel")
    S.set_cards(g, "abou_simbel", "gold", ["harp"], seal=True)
    S.set_seals(g, GREEN, 1)
    S.start_turn(g, GREEN)
    g.apply("recruit chief")
    assert_refused(g, "chief lower2", "R10.5")


# --------------------------------------------------------------------------- the end (R7.1)


def test_r7_1_any_option_after_the_game_is_over_raises_game_over_error():
    g = new_game(players=4, seed=5)
    play_random_to_end(g, seed=5)
    assert g.is_over
    before = snapshot(g)
    for option in (0, "place gizeh.left#0", "pass", "recruit vizier"):
        with pytest.raises(GameOverError) as info:
            g.apply(option)
        assert isinstance(info.value, IllegalOptionError)
        assert "R7.1" in str(info.value) and "over" in str(info.value)
    assert snapshot(g) == before


# --------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("fly to the moon", "an option starts with place"),
        ("place gizeh#4", "place gizeh.left#4"),
        ("place gizeh.left#9", "place gizeh.left#4"),
        ("recruit pharaoh", "piles are vizier"),
        ("take everything", "joined with '+'"),
        ("royal beer", "gift types are senet"),
        ("", "an option starts with place"),
    ],
)
def test_text_that_is_not_notation_raises_notation_error_with_a_hint(text, hint):
    g = fresh_game()
    S.start_turn(g, GREEN)
    before = snapshot(g)
    with pytest.raises(NotationError) as info:
        g.apply(text)
    assert isinstance(info.value, NefertitiError) and isinstance(info.value, ValueError)
    assert not isinstance(info.value, IllegalOptionError)
    assert repr(text) in str(info.value) and hint in str(info.value)
    assert snapshot(g) == before


def test_an_option_id_outside_the_id_space_raises_notation_error():
    g = fresh_game()
    S.start_turn(g, GREEN)
    before = snapshot(g)
    for bad in (-1, 174, 10_000):
        with pytest.raises(NotationError) as info:
            g.apply(bad)
        assert "0..173" in str(info.value)
    assert snapshot(g) == before


# --------------------------------------------------------------------------- chance (R4.4)


@pytest.mark.parametrize("dice", [(7,), (0,), (3, 7)])
def test_r4_4_force_roll_outside_1_to_6_is_refused(dice):
    g = fresh_game()
    before = snapshot(g)
    with pytest.raises(IllegalOptionError) as info:
        g.force_roll(*dice)
    assert "R4.4" in str(info.value) and "1 to 6" in str(info.value)
    assert g.forced_rolls == [] and snapshot(g) == before


def test_r4_4_force_draw_of_a_card_not_in_the_deck_is_refused():
    g = fresh_game()
    S.give_gifts(g, GREEN, *["gold"] * 5)  # all five gold cards are held
    before = snapshot(g)
    with pytest.raises(IllegalOptionError) as info:
        g.force_draw("gold")
    assert "gold" in str(info.value) and "R4.4" in str(info.value)
    with pytest.raises(IllegalOptionError) as info:
        g.force_draw("dragon")
    assert "'dragon'" in str(info.value)
    assert snapshot(g) == before
    g.force_draw("akhenaton")  # the one Akhenaton card: once, not twice
    with pytest.raises(IllegalOptionError):
        g.force_draw("akhenaton")
    assert g.forced_draws == [R.AKHENATON]


# --------------------------------------------------------------------------- setup (R1.1) and staging


@pytest.mark.parametrize("players", [2, 5])
def test_r1_1_new_game_with_a_wrong_player_count_raises_setup_error(players):
    with pytest.raises(SetupError) as info:
        new_game(players=players)
    assert "3 or 4" in str(info.value) and "R1.1" in str(info.value)
    assert str(players) in str(info.value)


def test_new_game_with_an_unknown_option_raises_setup_error_naming_it():
    with pytest.raises(SetupError) as info:
        new_game(players=4, colour="red")
    message = str(info.value)
    assert "colour" in message and "colours" in message and "layout" in message


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"first_player": 4}, "first_player"),
        ({"layout": "sideways"}, "layout"),
        ({"layout": ("left", "left", "up", "left")}, "four"),
        ({"colours": ("green", "green", "red", "blue")}, "colours"),
    ],
)
def test_new_game_with_an_impossible_configuration_raises_setup_error(options, words):
    with pytest.raises(SetupError) as info:
        new_game(players=4, **options)
    assert words in str(info.value)


def test_staging_a_servant_on_an_occupied_square_raises_setup_error():
    g = fresh_game()
    S.put_servant(g, RED, "gizeh", 3)
    before = g.state_hash()
    with pytest.raises(SetupError) as info:
        S.put_servant(g, GREEN, "gizeh", 3)
    assert "gizeh.left#3" in str(info.value) and "already" in str(info.value)
    with pytest.raises(SetupError) as info:
        S.put_servant(g, GREEN, "gizeh", 7)  # squares 0..6
    assert "0..6" in str(info.value)
    with pytest.raises(SetupError):
        S.put_servant(g, GREEN, "atlantis", 0)
    assert g.state_hash() == before
    assert g.owners[R.GIZEH][3] == RED and g.hand[GREEN] == 4


# --------------------------------------------------------------------------- messages cite the rule


def test_refusal_messages_cite_the_rule_id_in_their_text():
    """errors.py: "each message names the input, the position and the rule" -- the rule ID must
    be readable in the message itself, not only in the exception's ``rule`` attribute."""
    cases = []
    g = fresh_game()
    S.put_servant(g, RED, "gizeh", 2)
    S.start_turn(g, GREEN)
    cases += [(g, "place gizeh.left#2", "R5.2"), (g, "place louqsor.left#0", "R5.2")]
    cases += [(g, "recruit vizier", "R5.1"), (g, "close gizeh", "R5.4")]
    g2 = _abou_closing()
    cases += [(g2, "take upper+lower1", "R6.2")]
    g3 = _merchant_turn()
    cases += [(g3, "exchange green:statuette", "R10.3")]
    missing = []
    for game, text, rule in cases:
        with pytest.raises(IllegalOptionError) as info:
            game.apply(text)
        if rule not in str(info.value):
            missing.append(f"{text}: {info.value}")
    assert missing == []


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_refusals_are_told_in_every_language(lang):
    """The same refusal in German or Chinese: translated words, the same rule id, no template
    left unfilled; over many random positions and every illegal option."""
    import random

    from nefertiti_core import new_game
    from nefertiti_core.engine.explain_illegal import why_illegal

    rng = random.Random(5)
    seen_keys = 0
    for seed in range(3):
        g = new_game(4, seed=seed)
        while not g.is_over:
            if rng.random() < 0.1:
                legal = set(g.legal_options())
                for option in range(174):
                    if option in legal:
                        continue
                    en, rule = why_illegal(g, option, "en")
                    text, rule_there = why_illegal(g, option, lang)
                    assert rule_there == rule
                    assert text != en and "{" not in text and "}" not in text
                    if rule:
                        assert rule in text
                    seen_keys += 1
            g.apply(rng.choice(g.legal_options()))
    assert seen_keys > 500


def test_a_refusal_in_german_names_the_square_and_the_owner():
    from nefertiti_core.engine.explain_illegal import why_illegal
    from nefertiti_core.engine.options import parse_option

    g = fresh_game()
    S.put_servant(g, RED, "gizeh", 2)
    S.start_turn(g, GREEN)
    text, rule = why_illegal(g, parse_option("place gizeh.left#2"), "de")
    assert rule == "R5.2"
    assert "auf der 3 steht schon ein Diener von Rot (R5.2)" in text  # the square by its bid
