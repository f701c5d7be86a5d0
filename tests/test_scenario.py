"""Scenario (position) files: the shipped examples, exact save/load round trips, a corpus of
broken files each refused with its field path, and a fuzz test that never sees a traceback."""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nefertiti_core import new_game, violations
from nefertiti_core.engine.state import P_OVER
from nefertiti_core.files.scenario import (
    ScenarioError,
    dumps_scenario,
    from_data,
    load,
    loads_scenario,
    save,
    to_data,
)
from nefertiti_core.files.yaml_subset import loads

SCENARIOS = Path(str(resources.files("nefertiti_core").joinpath("scenarios")))
ALL = sorted(SCENARIOS.glob("*.yaml"))


def test_there_is_a_scenario_for_every_stall_and_character_and_the_end_game():
    names = {p.stem for p in ALL}
    stalls = {
        "gizeh-left-connected",
        "gizeh-right-colours",
        "akhet-aton-left-levels",
        "akhet-aton-right-line",
        "abou-simbel-left-sums",
        "abou-simbel-right-17",
        "louqsor-left-dice",
        "louqsor-right-run",
    }
    characters = {"vizier", "merchant", "high-priest", "chief", "royal-servant", "scribe"}
    assert stalls | characters | {"treasurer", "end-game", "cannot-pay"} <= names


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_shipped_scenarios_load_cleanly_and_their_moves_play(path):
    scenario = load(path)
    assert scenario.warnings == []
    assert scenario.title and scenario.teaching
    scenario.play_moves()
    assert violations(scenario.state) == []


def _played(name):
    scenario = load(SCENARIOS / f"{name}.yaml")
    scenario.play_moves()
    return scenario.state


def test_vizier_scenario_scores_8():  # R10.2
    assert _played("vizier").prestige == [0, 0, 0, 8]


def test_scribe_scenario_scores_28():  # R10.7
    assert _played("scribe").prestige[2] == 28


def test_royal_servant_scenario_scores_5_each():  # R10.6
    assert _played("royal-servant").prestige == [5, 5, 5, 0]


def test_merchant_scenario_pays_green_2():  # R10.3
    state = _played("merchant")
    assert state.deben[0] - 10 == 2 and 8 - state.deben[1] == 2


def test_abou_simbel_scenario_closes_at_14_and_red_pays_7():  # R3.5, R6.2
    state = _played("abou-simbel-left-sums")
    assert state.res_market == 2 and state.decider == 1
    assert state.deben[1] == 1


def test_end_game_scenario_plays_to_the_end_without_reopening():  # R6.8, R7.1
    state = load(SCENARIOS / "end-game.yaml").state
    rng = random.Random(3)
    while not state.is_over:
        state.apply(rng.choice(state.legal_options()))
        assert state.status[3] == 1  # Louqsor stays closed for good
    assert state.phase == P_OVER and state.final is not None


# --------------------------------------------------------------------------- exact round trips
def _random_state(players, seed, steps, layout="random", characters=True):
    state = new_game(players, seed, layout=layout, characters=characters)
    rng = random.Random(seed * 31 + steps)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_options()))
    return state, rng


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([3, 4]),
    st.integers(0, 10**6),
    st.integers(0, 200),
    st.booleans(),
)
def test_saving_and_loading_any_state_gives_it_back_identical(players, seed, steps, characters):
    state, rng = _random_state(players, seed, steps, characters=characters)
    loaded = loads_scenario(dumps_scenario(state), "round-trip.yaml")
    assert loaded.warnings == []
    copy = loaded.state
    assert copy.state_hash() == state.state_hash()
    assert copy.legal_options() == state.legal_options()
    while not state.is_over:  # and the two play on identically, dice included
        option = rng.choice(state.legal_options())
        state.apply(option)
        copy.apply(option)
    assert copy.state_hash() == state.state_hash()


def test_save_writes_a_file_that_loads(tmp_path):
    state, _ = _random_state(4, 5, 40)
    save(state, tmp_path / "saved.yaml", title="Saved", teaching="Look at Gizeh.\n")
    text = (tmp_path / "saved.yaml").read_text()
    assert text.startswith("# Nefertiti position, format 1")
    again = load(tmp_path / "saved.yaml")
    assert again.state.state_hash() == state.state_hash()
    assert again.title == "Saved" and again.teaching == "Look at Gizeh.\n"


def test_a_what_if_with_extra_deben_loads_with_a_warning():
    data = to_data(new_game(4, 1))
    data["players"][0]["deben"] += 5
    scenario = from_data(data, "what-if.yaml")
    assert any("Deben" in w and "45" in w for w in scenario.warnings)
    assert scenario.state.deben[0] == data["players"][0]["deben"]


# --------------------------------------------------------------------------- broken files
BASE = """\
nefertiti: 1
title: base
seed: 3
players:
  - {colour: green, deben: 7}
  - {colour: red, seals: 1, gifts: {chair: 2}}
  - {colour: blue}
  - {colour: black}
turn: green
markets:
  gizeh:
    stall: left
    servants: {0: red, 2: blue}
  abou_simbel: {stall: right, reserve: 2}
dice: {}
moves: ["place gizeh.left#6"]
"""


def test_the_base_of_the_corpus_is_valid():
    scenario = loads_scenario(BASE, "base.yaml")
    assert scenario.warnings == []
    scenario.play_moves()


BROKEN = [
    # (what is wrong, replace this, with this, expected field path, words in the message)
    ("version missing", "nefertiti: 1\n", "", "", "nefertiti: 1"),
    ("version unknown", "nefertiti: 1", "nefertiti: 7", "nefertiti", "version"),
    ("unknown top field", "title: base", "titel: base", "titel", "did you mean 'title'"),
    ("two players only", "  - {colour: blue}\n  - {colour: black}\n", "", "players", "3 or 4"),
    (
        "five players",
        "  - {colour: black}\n",
        "  - {colour: black}\n  - {colour: red}\n",
        "players",
        "3 or 4",
    ),
    ("unknown colour", "{colour: blue}", "{colour: purple}", "players.2.colour", "unknown colour"),
    ("colour twice", "{colour: blue}", "{colour: green}", "players.2.colour", "already"),
    ("no colour", "{colour: blue}", "{deben: 3}", "players.2", "needs a colour"),
    ("negative deben", "deben: 7", "deben: -2", "players.0.deben", "below"),
    ("deben not a number", "deben: 7", "deben: lots", "players.0.deben", "whole number"),
    (
        "unknown gift",
        "gifts: {chair: 2}",
        "gifts: {sofa: 2}",
        "players.1.gifts.sofa",
        "unknown field",
    ),
    (
        "too many of a gift",
        "gifts: {chair: 2}",
        "gifts: {gold: 6}",
        "players.1.gifts.gold",
        "box holds 5",
    ),
    (
        "unknown market",
        "  abou_simbel:",
        "  abu_simbel:",
        "markets.abu_simbel",
        "did you mean 'abou_simbel'",
    ),
    (
        "unknown stall",
        "stall: right",
        "stall: middle",
        "markets.abou_simbel.stall",
        "unknown stall",
    ),
    (
        "square that does not exist",
        "{0: red, 2: blue}",
        "{0: red, 9: blue}",
        "markets.gizeh.servants.9",
        "squares 0 to 6",
    ),
    ("two servants on one square", "{0: red, 2: blue}", "{0: red, 0: blue}", "", "appears twice"),
    (
        "servant of unknown colour",
        "{0: red, 2: blue}",
        "{0: red, 2: pink}",
        "markets.gizeh.servants.2",
        "player colour",
    ),
    (
        "fifth servant",
        "{0: red, 2: blue}",
        "{0: red, 1: red, 2: red, 3: red, 4: red}",
        "markets.gizeh.servants.4",
        "fifth servant",
    ),
    (
        "stall already closed",
        "{0: red, 2: blue}",
        "{0: red, 2: blue, 4: green, 5: black}",
        "markets.gizeh.servants",
        "already have closed",
    ),
    (
        "servants on a closed market",
        "stall: right, reserve: 2}",
        "stall: right, state: tile, servants: {0: red}}",
        "markets.abou_simbel.servants.0",
        "closed",
    ),
    (
        "two tiles",
        "stall: right, reserve: 2}",
        "stall: right, state: tile}",
        "markets",
        "exactly one market",
    ),
    (
        "unknown market state",
        "stall: right, reserve: 2}",
        "stall: right, state: shut}",
        "markets.abou_simbel.state",
        "unknown state",
    ),
    (
        "four lower cards",
        "stall: right, reserve: 2}",
        "stall: right, upper: harp, lower: [harp, harp, harp, harp]}",
        "markets.abou_simbel.lower",
        "three lower cards",
    ),
    (
        "seal without an upper card",
        "stall: right, reserve: 2}",
        "stall: right, upper: null, seal: true, lower: [harp]}",
        "markets.abou_simbel.seal",
        "no",
    ),
    ("too many seals", "seals: 1,", "seals: 13,", "players.1.seals", "above"),
    ("turn of a missing colour", "turn: green", "turn: purple", "turn", "player colour"),
    (
        "unknown variant",
        "seed: 3",
        "seed: 3\noptions: {variants: [fast_game]}",
        "options.variants.0",
        "unknown variant",
    ),
    (
        "gift values wrong length",
        "seed: 3",
        "seed: 3\noptions: {gift_values: {harp: [9, 7]}}",
        "options.gift_values.harp",
        "four values",
    ),
    (
        "character in the wrong pile",
        "seed: 3",
        "seed: 3\ncharacters: {vizier: [chief]}",
        "characters.vizier.0",
        "another pile",
    ),
    (
        "impossible pile order",
        "seed: 3",
        "seed: 3\ncharacters: {merchant: [merchant, first_merchant]}",
        "characters.merchant",
        "top",
    ),
    (
        "deck with a card twice too many",
        "seed: 3",
        "seed: 3\ndeck: {order: [gold, gold, gold, gold, gold, gold, akhenaton]}",
        "deck.order.5",
        "box holds 5",
    ),
    (
        "deck without Akhenaton",
        "seed: 3",
        "seed: 3\ndeck: {order: [gold]}",
        "deck.order",
        "Akhenaton",
    ),
    (
        "dice holder while Louqsor is closed",
        "dice: {}",
        "dice: {holder: red}",
        "dice.holder",
        "Louqsor is closed",
    ),
    ("die out of range", "dice: {}", "dice: {last_roll: [7]}", "dice.last_roll.0", "above"),
    ("tab indentation", "  gizeh:\n", "\tgizeh:\n", "", "tabs"),
    ("unclosed bracket", "{0: red, 2: blue}", "{0: red, 2: blue", "", "expected"),
    ("anchor", "title: base", "title: &a base", "", "anchors"),
    (
        "players not a list",
        "players:\n  - {colour: green, deben: 7}\n  - {colour: red, seals: 1, gifts: {chair: 2}}\n"
        "  - {colour: blue}\n  - {colour: black}\n",
        "players: everyone\n",
        "players",
        "list",
    ),
    (
        "akhenaton market but card in deck",
        "stall: right, reserve: 2}",
        "stall: right, state: akhenaton}\ndeck: {akhenaton: bottom5}",
        "deck.akhenaton",
        "drawn",
    ),
    (
        "illegal move",
        'moves: ["place gizeh.left#6"]',
        'moves: ["place gizeh.left#0"]',
        "moves.0",
        "already holds",
    ),
    (
        "move that is not notation",
        'moves: ["place gizeh.left#6"]',
        'moves: ["jump"]',
        "moves.0",
        "not an option",
    ),
]


@pytest.mark.parametrize("case", BROKEN, ids=[c[0] for c in BROKEN])
def test_broken_files_are_refused_naming_file_path_and_problem(case):
    name, old, new, path, words = case
    assert old in BASE, f"corpus case {name!r} does not apply to BASE"
    text = BASE.replace(old, new, 1)
    with pytest.raises(ScenarioError) as refused:
        loads_scenario(text, "lesson.yaml").play_moves()
    error = refused.value
    message = str(error)
    assert message.startswith("lesson.yaml")
    assert ".".join(map(str, error.path)) == path, message
    assert words in message, message
    assert "Traceback" not in message


def test_the_corpus_has_at_least_25_kinds_of_mistakes():
    assert len(BROKEN) >= 25


def test_error_messages_give_the_line():
    text = BASE.replace("{0: red, 2: blue}", "{0: red, 9: blue}")
    with pytest.raises(ScenarioError) as refused:
        loads_scenario(text, "lesson.yaml")
    assert refused.value.line == 13
    assert str(refused.value).startswith("lesson.yaml: line 13: markets.gizeh.servants.9:")


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(ScenarioError, match="no such file"):
        load(tmp_path / "nothing.yaml")


def test_loading_runs_no_code(tmp_path):
    """Python tags that PyYAML's unsafe loader would run are refused as text, never executed."""
    marker = tmp_path / "ran"
    text = BASE.replace("title: base", f"title: !!python/object/apply:os.system ['touch {marker}']")
    with pytest.raises(ScenarioError):
        loads_scenario(text, "evil.yaml")
    assert not marker.exists()


# --------------------------------------------------------------------------- fuzzing
def _mutations(draw_value):
    return st.sampled_from(["delete", "replace", "wrap"])


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 50),
    st.text(max_size=8),
    st.lists(st.integers(-2, 12), max_size=4),
    st.dictionaries(st.text(max_size=5), st.integers(-2, 9), max_size=3),
    st.sampled_from(["red", "green", "gizeh", "left", "harp", "akhenaton", "tile", "open"]),
)


def _paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, prefix + (i,))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzz_mutated_files_never_raise_anything_but_a_scenario_error(data):
    base = loads(BASE).data if data.draw(st.booleans()) else to_data(_random_state(4, 2, 30)[0])
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p in _paths(base) if p]
        path = data.draw(st.sampled_from(paths))
        parent = base
        for key in path[:-1]:
            parent = parent[key]
        action = data.draw(st.sampled_from(["delete", "replace", "wrap"]))
        if action == "delete":
            del parent[path[-1]]
        elif action == "replace":
            parent[path[-1]] = data.draw(JUNK)
        else:
            parent[path[-1]] = [parent[path[-1]]]
    try:
        scenario = from_data(base, "fuzz.yaml")
        scenario.play_moves()
    except ScenarioError as error:
        assert str(error).startswith("fuzz.yaml")


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_fuzz_mutated_text_never_raises_anything_but_a_scenario_error(data):
    """Text-level damage: lines dropped, doubled or cut, characters inserted."""
    lines = BASE.splitlines()
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        action = data.draw(st.sampled_from(["drop", "double", "cut", "insert", "indent"]))
        if action == "drop" and len(lines) > 1:
            del lines[i]
        elif action == "double":
            lines.insert(i, lines[i])
        elif action == "cut":
            lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])))]
        elif action == "insert":
            at = data.draw(st.integers(0, len(lines[i])))
            char = data.draw(st.sampled_from(list(":-[]{},#'\"|>&*! \tx9")))
            lines[i] = lines[i][:at] + char + lines[i][at:]
        else:
            lines[i] = "  " + lines[i]
    try:
        loads_scenario("\n".join(lines), "damaged.yaml").play_moves()
    except ScenarioError as error:
        assert str(error).startswith("damaged.yaml")


def test_a_scenarios_moves_may_fix_the_dice():  # R4.4, as docs/scenario-format.md says
    text = BASE.replace(
        'moves: ["place gizeh.left#6"]', 'moves: ["roll 2 2", "place gizeh.left#6"]'
    )
    scenario = loads_scenario(text, "fixed.yaml")
    state = scenario.play_moves()
    assert state.forced_rolls == [2, 2]  # queued for the next Louqsor roll
    assert state.owners[0][6] == 0


def test_a_title_may_come_in_every_language():
    text = BASE.replace(
        "title: base", 'title:\n  en: "Gizeh closes"\n  de: "Gizeh schließt"\n  zh: "吉萨关闭"'
    )
    scenario = loads_scenario(text)
    assert scenario.title == "Gizeh closes"
    assert scenario.title_in("de") == "Gizeh schließt" and scenario.title_in("zh") == "吉萨关闭"
    only_english = loads_scenario(BASE.replace("title: base", 'title:\n  en: "Gizeh closes"'))
    assert only_english.title_in("de") == "Gizeh closes"  # falls back to English


@pytest.mark.parametrize(
    ("title", "words"),
    [
        ('title:\n  de: "Gizeh schließt"', "needs the English one too ('en:')"),
        ('title:\n  en: "Gizeh"\n  fr: "Gizeh ferme"', "unknown field 'fr'"),
        ('title:\n  en: "Gizeh"\n  de: 3', "expected the title in de as text"),
    ],
)
def test_a_broken_translated_title_is_named(title, words):
    with pytest.raises(ScenarioError) as info:
        loads_scenario(BASE.replace("title: base", title))
    assert words in str(info.value) and "title" in str(info.value)


def test_every_example_scenario_has_its_title_in_german_and_chinese():
    from nefertiti_core.files.exercises import scenario_path

    for path in sorted(scenario_path("first-game").parent.glob("*.yaml")):
        scenario = load(path)
        for lang in ("de", "zh"):
            assert scenario.titles.get(lang), f"{path.name}: no {lang} title"
            assert scenario.title_in(lang) != scenario.title, path.name


def test_a_bid_whose_resolution_is_at_the_end_of_its_queue_is_refused_naming_the_line():
    """Nobody is left to settle at the queue's end, yet the phase waits on a bidder: one clear
    line naming the field, never an IndexError when the position is explained or hinted."""
    bad = Path(__file__).parent / "corpus" / "bad" / "bid-position-at-queue-end.yaml"
    with pytest.raises(ScenarioError, match=r"pending\.resolution\.position: phase bid waits"):
        loads_scenario(bad.read_text(encoding="utf-8"))
