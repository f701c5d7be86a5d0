"""The rule-coverage tracker (nefertiti_core/coverage.py): reading rule IDs out of real games'
logs, the list of IDs the engine can name (kept in step with state.py and RULINGS.md), the JSON
record and its round trip, and files that are damaged, unreadable or unwritable."""

from __future__ import annotations

import ast
import json
import random
import re
from functools import cache
from pathlib import Path

import pytest

import nefertiti_core.state as state_module
from nefertiti_core import new_game
from nefertiti_core import rules as R
from nefertiti_core.coverage import (
    ALL_RULE_IDS,
    DERIVED_RULES,
    SECTIONS,
    Coverage,
    default_path,
    load_coverage,
    normalise,
    rule_key,
    rules_in,
    section_of,
)
from nefertiti_core.exercises import scenario_path
from nefertiti_core.i18n import LANGUAGES
from nefertiti_core.scenario import load

RULINGS = Path(__file__).resolve().parents[2] / "shared" / "rules" / "RULINGS.md"
WELL_FORMED = re.compile(r"R(1[0-3]|[1-9])(\.[1-9]\d?)?")


@cache
def random_game(seed: int, players: int = 4):
    game = new_game(players, seed=seed, layout="random", record_events=True)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_options()))
    return game


def played_scenario(name: str):
    scenario = load(scenario_path(name))
    scenario.state.log = []
    scenario.play_moves()
    return scenario.state


# --------------------------------------------------------------------------- rules_in
def test_rules_in_a_real_game_are_rulings_the_engine_names():
    game = random_game(1)
    found = rules_in(game.log)
    assert {"R2", "R5.2", "R6.6", "R7.1"} <= found
    assert found <= set(ALL_RULE_IDS)


def test_random_games_together_name_every_rule_the_engine_can_emit():
    """Each ID of ALL_RULE_IDS really occurs: the list has nothing the engine never says."""
    union: set[str] = set()
    for seed in range(30):
        union |= rules_in(random_game(seed, 3 + seed % 2).log)
    assert union == set(ALL_RULE_IDS)


def test_rules_in_a_scenario_follow_what_happened():
    abou = rules_in(played_scenario("abou-simbel-left-sums").log)
    assert abou == {"R5.2", "R3.5", "R6.2"}  # a placement, a closing at 14, the highest bidder pays
    dice = rules_in(played_scenario("louqsor-left-dice").log)
    assert {"R3.7", "R6.2"} <= dice
    assert "R10.7" in rules_in(played_scenario("scribe").log)
    assert "R6.8" in rules_in(played_scenario("akhenaton-appears").log)


def test_rules_in_splits_normalises_and_skips_what_is_not_a_rule():
    events = [
        ("roll", {"rule": "R3.7, R4.1"}),
        ("x", {"rule": " r6.4 "}),
        ("x", {"rule": "R06.02;R9"}),
        ("x", {"rule": "R6.5-R6.7"}),
        ("x", {"rule": "see the rulebook"}),
        ("x", {"rule": None}),
        ("x", {"rule": 35}),
        ("turn", {"seat": 1}),
        ("broken",),
        None,
        ("x", "not a dict"),
    ]
    assert rules_in(events) == {"R3.7", "R4.1", "R6.4", "R6.2", "R9", "R6.5", "R6.6", "R6.7"}
    assert rules_in([]) == set() and rules_in(None) == set()


def test_normalise_and_order():
    assert normalise("r3.5") == "R3.5" and normalise("R10.02.") == "R10.2"
    assert normalise("R0") is None and normalise("3.5") is None and normalise(None) is None
    assert sorted(["R10.2", "R3.1", "R2", "R3", "R2.9"], key=rule_key) == [
        "R2",
        "R2.9",
        "R3",
        "R3.1",
        "R10.2",
    ]
    assert section_of("R10.8") == "R10" and section_of("R2") == "R2"


# --------------------------------------------------------------------------- ALL_RULE_IDS
def _emitted_rule_ids() -> set[str]:
    """The RULINGS IDs in the ``rule=`` argument of every ``_emit`` call of state.py: string
    constants, and the stalls' rule IDs where the argument reads them from rules.STALLS."""
    tree = ast.parse(Path(state_module.__file__).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "_emit"
        ):
            continue
        for keyword in node.keywords:
            if keyword.arg == "rule":
                found |= _rule_values(keyword.value)
    return found


def _rule_values(node) -> set[str]:
    """The values a ``rule=`` expression can take: constants, both branches of ``a if c else b``,
    and every stall's rule ID for ``R.STALLS[...].rule_id``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _rule_values(node.body) | _rule_values(node.orelse)
    if isinstance(node, ast.Attribute) and node.attr == "rule_id":
        return {stall.rule_id for stall in R.STALLS}
    raise AssertionError(f"state.py line {node.lineno}: a rule= this test cannot read")


def test_all_rule_ids_are_exactly_those_the_engines_events_name():
    emitted = _emitted_rule_ids()
    assert len(emitted) > 20
    assert set(ALL_RULE_IDS) == emitted | set(DERIVED_RULES)
    assert list(ALL_RULE_IDS) == sorted(ALL_RULE_IDS, key=rule_key)


def test_every_rule_id_is_a_well_formed_rulings_id():
    for rule_id in ALL_RULE_IDS:
        assert WELL_FORMED.fullmatch(rule_id), rule_id
        assert normalise(rule_id) == rule_id
        assert section_of(rule_id) in SECTIONS
    if not RULINGS.exists():
        pytest.skip(f"{RULINGS} is not here to compare with")
    text = RULINGS.read_text(encoding="utf-8")
    listed = set(re.findall(r"^(R\d+\.\d+) ", text, re.M)) | set(
        re.findall(r"^## (R\d+) ", text, re.M)
    )
    assert set(ALL_RULE_IDS) <= listed, sorted(set(ALL_RULE_IDS) - listed)


# --------------------------------------------------------------------------- the record
def test_record_persists_and_loads_back(tmp_path):
    path = tmp_path / "coverage.json"
    coverage = Coverage(path)
    assert coverage.seen() == set() and coverage.warning is None and not path.exists()
    new = coverage.record(played_scenario("abou-simbel-left-sums"))
    assert new == {"R5.2", "R3.5", "R6.2"}
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data == {"version": 1, "seen": ["R3.5", "R5.2", "R6.2"]}
    again = Coverage(path)
    assert again.seen() == coverage.seen() and again.warning is None
    again.record(random_game(2))
    assert Coverage(path).seen() == again.seen() >= coverage.seen()


def test_record_adds_only_what_happened_since_the_last_record(tmp_path):
    coverage = Coverage(tmp_path / "c.json")
    scenario = load(scenario_path("scribe"))
    state = scenario.state
    state.log = []
    state.apply("recruit scribe")
    assert coverage.record(state) == {"R5.1"}
    assert coverage.record(state) == set()  # nothing new happened
    state.apply("scribe senet")
    assert coverage.record(state) == {"R10.7"}
    state.log = state.log[:1]  # a shorter log (undo): read again from the start
    assert coverage.record(state) == set()
    assert coverage.seen() == {"R5.1", "R10.7"}
    quiet = new_game(4, seed=1)  # no event log
    quiet.apply(quiet.legal_options()[0])
    assert coverage.record(quiet) == set()


def test_missing_is_what_is_left_to_see(tmp_path):
    coverage = Coverage(tmp_path / "c.json")
    assert coverage.missing() == list(ALL_RULE_IDS)
    coverage.record(played_scenario("abou-simbel-left-sums"))
    expected = [r for r in ALL_RULE_IDS if r not in {"R5.2", "R3.5", "R6.2"}]
    assert coverage.missing() == expected
    assert coverage.missing(["R3.5", "r3.6", "R9"]) == ["R3.6", "R9"]
    for seed in range(30):
        coverage.record(random_game(seed, 3 + seed % 2))
    assert coverage.missing() == []


def test_by_section_groups_r1_to_r13(tmp_path):
    coverage = Coverage(tmp_path / "c.json")
    coverage.record(played_scenario("abou-simbel-left-sums"))
    sections = coverage.by_section()
    assert list(sections) == list(SECTIONS)
    assert sections["R3"].seen == ("R3.5",)
    assert "R3.1" in sections["R3"].missing and "R3.5" not in sections["R3"].missing
    assert sections["R3"].total == 8
    assert sections["R1"].total == 0 and sections["R1"].complete
    assert sections["R6"].seen == ("R6.2",)
    total = sum(len(s.missing) + len(set(s.seen) & set(ALL_RULE_IDS)) for s in sections.values())
    assert total == len(ALL_RULE_IDS)
    for lang in LANGUAGES:
        lines = coverage.summary() if lang == "en" else Coverage(coverage.path, lang).summary()
        assert len(lines) == len({section_of(r) for r in ALL_RULE_IDS})
        assert all("{" not in line for line in lines)
    assert "R3: 1 of 8 rules seen" in coverage.summary()


def test_add_and_reset(tmp_path):
    path = tmp_path / "c.json"
    coverage = Coverage(path)
    assert coverage.add(["R3.5", "nonsense", " r6.4"]) == {"R3.5", "R6.4"}
    assert coverage.add(["R3.5"]) == set()
    assert coverage.reset() is None
    assert Coverage(path).seen() == set()


# --------------------------------------------------------------------------- broken files
@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"[1, 2, 3]",
        b'{"version": 1, "seen": "R3.5"}',
        b'{"version": 1}',
        b"\xff\xfe\x00garbage",
        b"",
    ],
    ids=["bad-json", "a-list", "seen-not-a-list", "no-seen", "not-utf8", "empty"],
)
def test_a_damaged_file_starts_empty_with_a_warning(tmp_path, content):
    path = tmp_path / "coverage.json"
    path.write_bytes(content)
    coverage, warning = load_coverage(path)
    assert coverage.seen() == set()
    assert warning and str(path) in warning
    coverage.record(played_scenario("abou-simbel-left-sums"))  # and it goes on working
    assert Coverage(path).seen() == {"R5.2", "R3.5", "R6.2"}


def test_a_file_with_some_bad_entries_keeps_the_good_ones(tmp_path):
    path = tmp_path / "coverage.json"
    path.write_text(json.dumps({"version": 1, "seen": ["R3.5", 7, "hello", "r6.4"]}))
    coverage = Coverage(path)
    assert coverage.seen() == {"R3.5", "R6.4"}
    assert coverage.warning and "damaged" in coverage.warning


def test_an_unreadable_path_starts_empty_with_a_warning(tmp_path):
    folder = tmp_path / "coverage.json"
    folder.mkdir()  # a directory where the file should be
    coverage = Coverage(folder)
    assert coverage.seen() == set() and "could not be read" in coverage.warning


def test_an_unwritable_file_keeps_the_record_in_memory_with_a_warning(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file, so nothing can be created inside it")
    coverage = Coverage(blocker / "coverage.json", lang="de")
    assert coverage.seen() == set() and "nicht lesen" in coverage.warning
    new = coverage.record(played_scenario("abou-simbel-left-sums"))  # does not raise
    assert new == {"R5.2", "R3.5", "R6.2"} and coverage.seen() == new
    assert coverage.warning and "nicht schreiben" in coverage.warning
    assert coverage.save() == coverage.warning
    assert list(tmp_path.iterdir()) == [blocker]  # no temporary file left behind


def test_warnings_are_in_the_learners_language(tmp_path):
    path = tmp_path / "coverage.json"
    path.write_text("{")
    texts = {lang: Coverage(path, lang).warning for lang in LANGUAGES}
    assert len(set(texts.values())) == 3 and all(str(path) in t for t in texts.values())
    assert Coverage(path, "xx").warning == texts["en"]


def test_the_default_file_is_under_nefertiti_home_or_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("NEFERTITI_HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / "coverage.json"
    coverage = Coverage()
    coverage.add(["R7.1"])
    assert json.loads((tmp_path / "home" / "coverage.json").read_text())["seen"] == ["R7.1"]
    monkeypatch.delenv("NEFERTITI_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    assert default_path() == tmp_path / "user" / ".nefertiti" / "coverage.json"


def test_a_failing_write_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "coverage.json"
    coverage = Coverage(path)
    coverage.add(["R3.5"])
    assert coverage.warning is None

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("nefertiti_core.coverage.os.replace", refuse)
    assert coverage.add(["R6.4"]) == {"R6.4"}  # recorded in memory, no exception
    assert "Permission denied" in coverage.warning and "could not be written" in coverage.warning
    assert coverage.seen() == {"R3.5", "R6.4"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["coverage.json"]
    assert json.loads(path.read_text())["seen"] == ["R3.5"]
