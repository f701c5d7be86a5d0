"""How a game starts, side by side (widgets/lesson/setup_view.py): the facts are counted from the games
the engine sets up, so they follow the rules of R2."""

from __future__ import annotations

from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.files.exercises import scenario_path
from nefertiti_core.files.scenario import load
from widgets.lesson.setup_view import compare_layouts, compare_setups, layout_rows, setup_facts


def test_r2_setup_facts_for_4_and_3_players():
    four, three = setup_facts(new_game(4, seed=5)), setup_facts(new_game(3, seed=5))
    assert four["Gift cards in play"] == "46" and three["Gift cards in play"] == "38"  # R2.1
    assert four["Senet cards among them"] == "8" and three["Senet cards among them"] == "0"
    assert four["Character cards"] == "13" and three["Character cards"] == "12"  # R2.3
    assert three["Scribe pile (top card first)"] == "Scribe +3, Scribe +2, Scribe +1"
    purses = "Starting Deben, from the first player round the table"
    assert four[purses] == "8 / 9 / 9 / 10" and three[purses] == "9 / 10 / 10"  # R2.6
    assert four["Deben in play (purses and reserves)"] == str(R.TOTAL_DEBEN[4])  # R12


def test_setup_facts_follow_the_state_not_a_table():
    game = new_game(4, seed=5)
    game.deben[game.turn_player] += 1  # a changed purse shows as changed
    assert (
        setup_facts(game)["Starting Deben, from the first player round the table"]
        == "9 / 9 / 9 / 10"
    )
    assert (
        setup_facts(game, "de")["Startspieler"]
        == {"green": "Grün", "red": "Rot", "blue": "Blau", "black": "Schwarz"}[
            game.colours[game.turn_player]
        ]
    )


def test_r2_8_layouts_name_the_stall_each_market_shows_and_louqsor_closed():
    first = load(scenario_path("first-game")).state
    random_layout = new_game(4, seed=9, layout="random")
    header, rows = layout_rows({"first game": first, "random": random_layout})
    assert header == ["Market", "first game: stall shown", "random: stall shown"]
    assert rows[0] == ["Gizeh", "Gizeh's left stall", "Gizeh's right stall"]
    assert rows[3][1] == "Louqsor's left stall (closed, under the Market Closed tile)"


def test_the_views_build_with_two_live_boards_and_a_table():
    setups = compare_setups(seed=5)
    assert "<table" in setups[0].object and "46" in setups[0].object
    assert len(setups[1]) == 2  # the two boards
    layouts = compare_layouts(load(scenario_path("first-game")).state, seed=9)
    assert "random layout (seed 9)" in layouts[1].object
    by_name = compare_layouts("first-game", seed=9)[1].object
    assert by_name == layouts[1].object and "Louqsor&#x27;s left stall (closed" in by_name
