"""Rule variants (rules.VARIANTS) and an edited gift-value table, on the same position."""

from __future__ import annotations

import pytest

from nefertiti_core import SetupError, new_game, violations
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import LANGUAGES, tr
from nefertiti_core.engine.scoring import score_breakdown
from nefertiti_core.engine.variants import compare_rules, describe_variant, with_rules
from nefertiti_core.files import staging as S
from nefertiti_core.files.scenario import load


def closing_gizeh_with_akhenaton_next(variants=()):
    """Green closes Gizeh; Louqsor then reopens and the Akhenaton card is drawn (R6.8)."""
    game = new_game(4, 3, first_player=0, variants=variants)
    S.put_servant(game, 1, "gizeh", 0)
    S.put_servant(game, 2, "gizeh", 2)
    S.put_servant(game, 3, "gizeh", 4)
    S.start_turn(game, 0)
    game.force_draw("harp")
    game.force_draw("akhenaton")
    game.apply("place gizeh.left#3")  # 1-3-4-5 connected: closes (R3.1)
    while game.res_market >= 0:
        game.apply(game.legal_options()[0])
    return game


def test_r7_1_as_printed_the_open_markets_play_on_after_akhenaton():
    game = closing_gizeh_with_akhenaton_next()
    assert game.akhenaton_drawn and game.dead_market == R.LOUQSOR
    assert not game.is_over
    assert game.status.count(0) == 2


def test_r13_variant_akhenaton_ends_game_stops_at_once():
    game = closing_gizeh_with_akhenaton_next(("akhenaton_ends_game",))
    assert game.is_over and game.final is not None
    assert violations(game) == []


def test_with_rules_on_a_position_after_akhenaton_ends_it_under_that_variant():
    state = load(
        __import__("importlib")
        .resources.files("nefertiti_core")
        .joinpath("scenarios/end-game.yaml")
    ).state
    assert not state.is_over
    assert with_rules(state, variants=["akhenaton_ends_game"]).is_over
    assert not state.is_over  # the original is untouched


def royal_servant_position(variants=()):
    game = new_game(4, 5, first_player=0, variants=variants)
    S.give_gifts(game, 0, "chair")
    S.give_gifts(game, 1, "harp", "gold")
    S.set_seals(game, 0, 1)
    S.start_turn(game, 0)
    game.apply("recruit royal_servant")
    return game


def test_r10_6_as_printed_the_royal_servant_names_any_held_type():
    game = royal_servant_position()
    assert {game.option_text(o) for o in game.legal_options()} == {
        "royal chair",
        "royal harp",
        "royal gold",
    }


def test_variant_royal_servant_own_type_only_offers_the_recruiters_types():
    game = new_game(4, 5, first_player=0, variants=("royal_servant_own_type",))
    S.give_gifts(game, 0, "chair", "mirror")
    S.give_gifts(game, 1, "harp", "gold")
    S.set_seals(game, 0, 1)
    S.start_turn(game, 0)
    game.apply("recruit royal_servant")
    assert {game.option_text(o) for o in game.legal_options()} == {"royal chair", "royal mirror"}


def test_variant_royal_servant_own_type_needs_a_gift_to_recruit():
    game = new_game(4, 5, first_player=0, variants=("royal_servant_own_type",))
    S.give_gifts(game, 1, "harp")
    S.set_seals(game, 0, 1)
    S.start_turn(game, 0)
    assert "recruit royal_servant" not in {game.option_text(o) for o in game.legal_options()}


def merchant_position(variants=()):
    game = new_game(4, 6, first_player=1, variants=variants)
    S.give_gifts(game, 1, "harp", "statuette")
    S.give_gifts(game, 0, "statuette")
    S.set_seals(game, 1, 1)
    S.start_turn(game, 1)
    before = list(game.deben), list(game.reserve)
    game.apply("recruit merchant")  # Green's statuette is the only gift to take: forced (E3)
    game.apply("give harp")
    return game, before


def test_r10_3_as_printed_the_merchant_pays_the_opponent():
    game, (deben, reserve) = merchant_position()
    assert game.deben[1] == deben[1] - 2 and game.deben[0] == deben[0] + 2
    assert game.reserve == reserve


def test_variant_merchant_pays_reserve_pays_the_tile_markets_reserve():
    game, (deben, reserve) = merchant_position(("merchant_pays_reserve",))
    assert game.deben[1] == deben[1] - 2 and game.deben[0] == deben[0]
    assert game.reserve[game.tile] == reserve[game.tile] + 2
    assert violations(game) == []


def test_an_edited_gift_value_table_changes_scores_and_merchant_values():
    game = new_game(4, 7, first_player=0)
    S.give_gifts(game, 0, "harp", "harp")
    edited = with_rules(game, gift_values={"harp": [20, 7, 5, 5]})
    assert score_breakdown(game, 0).gift_points == 18
    assert score_breakdown(edited, 0).gift_points == 40
    assert edited.max_values[R.K_HARP] == 20 and game.max_values[R.K_HARP] == 9


def test_with_rules_refuses_unknown_names():
    game = new_game(4, 1)
    with pytest.raises(SetupError, match="unknown variant.*'short_game'"):
        with_rules(game, variants=["short_game"])
    with pytest.raises(SetupError, match="unknown gift type 'sofa'"):
        with_rules(game, gift_values={"sofa": [1, 1, 1, 1]})


def test_compare_rules_plays_one_position_under_two_rule_sets():
    game = closing_gizeh_with_akhenaton_next()
    comparison = compare_rules(game, {}, {"variants": ["akhenaton_ends_game"]}, seed=4)
    assert comparison.a.label == tr("en", "compare.as_printed")
    assert comparison.b.label == tr(
        "en", "compare.with", changes=tr("en", "compare.variant.akhenaton_ends_game")
    )
    assert comparison.a.over and comparison.b.over
    assert comparison.b.steps == 0  # it was over at once
    assert comparison.a.steps > 0
    again = compare_rules(game, {}, {"variants": ["akhenaton_ends_game"]}, seed=4)
    assert again == comparison  # seeded: the same outcome every time
    assert not game.is_over  # the position itself is untouched


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compare_rules_checks_the_rules_before_labelling_them(lang):
    """A misspelt variant is the engine's SetupError listing the known variants, in every
    language, not a missing catalogue message for the misspelt name."""
    game = new_game(4, 1)
    with pytest.raises(SetupError, match="unknown variant.*merchant_pays_reserv'.*known: "):
        compare_rules(game, {}, {"variants": ["merchant_pays_reserv"]}, lang=lang)


def test_compare_rules_plays_shared_steps_while_legal_on_both():
    game = new_game(4, 2, first_player=0)
    comparison = compare_rules(
        game,
        {},
        {"gift_values": {"gold": [30, 20, 10, 10]}},
        steps=["place gizeh.left#0", "place gizeh.left#1", "close gizeh"],
        to_end=False,
    )
    assert comparison.shared_steps == 2  # 'close gizeh' is illegal: Black has servants left
    assert comparison.a.steps == comparison.b.steps == 2


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(R.VARIANTS))
def test_every_variant_is_explained_in_every_language(name, lang):
    text = describe_variant(name, lang)
    assert R.VARIANTS[name][1] in text and "{" not in text
