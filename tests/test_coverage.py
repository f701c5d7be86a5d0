"""The rule-coverage tracker (nefertiti_core/teaching/coverage.py): reading rule IDs out of real games'
logs, the list of IDs the engine can name (kept in step with state.py and RULINGS.md), the JSON
record and its round trip, and files that are damaged, unreadable or unwritable."""

from __future__ import annotations

import ast
import json
import os
import random
import re
import stat
import tempfile
from functools import cache
from pathlib import Path

import pytest
from helpers_python import parse

import nefertiti_core.engine.state as state_module
from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import LANGUAGES
from nefertiti_core.files.exercises import scenario_path
from nefertiti_core.files.scenario import load
from nefertiti_core.teaching.coverage import (
    ALL_RULE_IDS,
    DERIVED_RULES,
    MAX_BYTES,
    SECTIONS,
    Coverage,
    Marks,
    answer_rules,
    default_path,
    load_coverage,
    normalise,
    rule_key,
    rules_in,
    rules_shown,
    section_of,
)

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
    tree = parse(Path(state_module.__file__).read_text(encoding="utf-8"))
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
    assert data == {
        "version": 2,
        "rules": {"R3.5": {"seen": 1}, "R5.2": {"seen": 1}, "R6.2": {"seen": 1}},
    }
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
    state.log = state.log[:1]  # a shorter log (undo): nothing is counted again
    assert coverage.record(state) == set()
    assert coverage.seen() == {"R5.1", "R10.7"}
    assert coverage.counts("R5.1") == Marks(seen=1)
    quiet = new_game(4, seed=1)  # no event log
    quiet.apply(quiet.legal_options()[0])
    assert coverage.record(quiet) == set()


def test_record_follows_a_history_of_snapshots_without_counting_twice(tmp_path):
    """GameSession's History gives a new state (a copy of the log) after every step: the events
    already recorded for the same source are not counted again, an undo counts nothing."""
    from nefertiti_core.files.history import History

    coverage = Coverage(tmp_path / "c.json")
    start = load(scenario_path("abou-simbel-left-sums")).state
    start.log = []
    history = History(start)
    source = object()
    history.play("place abou_simbel.left#5")
    coverage.record(history.state, source=source)
    first = coverage.marks()
    assert first["R3.5"] == Marks(seen=1)
    coverage.record(history.state, source=source)  # the same state again
    assert coverage.marks() == first
    history.undo()
    coverage.record(history.state, source=source)
    assert coverage.marks() == first
    history.play("place abou_simbel.left#5")  # redo: it happens again on the board
    coverage.record(history.state, source=source)
    assert coverage.counts("R3.5") == Marks(seen=2)


def test_practised_counts_only_the_events_the_learner_caused(tmp_path):
    """#13 item 5: a move played by code is seen; the learner's own step is practised too."""
    coverage = Coverage(tmp_path / "c.json")
    state = load(scenario_path("abou-simbel-left-sums")).state
    state.log = []
    state.apply("place abou_simbel.left#5")  # code: closes at 14 (R3.5), Red pays (R6.2)
    state.apply("take upper")
    coverage.record(state)
    assert coverage.practised() == set() and "R3.5" in coverage.seen()
    before = len(state.log)
    state.apply("buy lower1")  # the learner's click: Blue buys a card (R6.4)
    mine = state.log[before:]
    coverage.record(state, learner=mine)
    assert coverage.practised() == rules_in(mine) == {"R6.4"}
    assert coverage.seen() == {"R5.2", "R3.5", "R6.2", "R6.4"}
    for rule in rules_in(mine):
        assert coverage.counts(rule).practised >= 1
        assert coverage.counts(rule).seen >= coverage.counts(rule).practised
    assert Coverage(coverage.path).practised() == coverage.practised()


def test_answers_count_right_and_wrong_per_rule(tmp_path):
    path = tmp_path / "c.json"
    coverage = Coverage(path)
    coverage.answered(["R3.5", "r6.2", "nonsense"], correct=True)
    coverage.answered(["R3.5"], correct=False)
    coverage.answered(["R3.5"], correct=False)
    assert coverage.counts("R3.5") == Marks(right=1, wrong=2)
    assert coverage.right() == {"R3.5", "R6.2"} and coverage.wrong() == {"R3.5"}
    assert coverage.seen() == set()  # answering is not seeing it happen
    again = Coverage(path)
    assert again.counts("R6.2") == Marks(right=1)
    sections = again.by_section()
    assert sections["R3"].right == ("R3.5",) and sections["R3"].wrong == ("R3.5",)
    assert sections["R6"].practised == ()


def test_answer_rules_prefer_the_exercises_own_list_else_its_explanation():
    from nefertiti_core.files.exercises import EXERCISES, Feedback

    class Tagged:
        rule_ids = ("R3.5", "r6.2")

    assert answer_rules(Tagged()) == {"R3.5", "R6.2"}
    feedback = Feedback(False, "7", "8", "It closes at 14 (R3.5); then R6.2 and R6.4 apply.")
    assert answer_rules(object(), feedback) == {"R3.5", "R6.2", "R6.4"}
    exercise = EXERCISES["closing-abou-simbel/exactly-fourteen"]
    assert "R3.5" in answer_rules(exercise, exercise.check(0, "en"))


def test_a_set_up_board_shows_r2_and_a_game_under_way_does_not():
    assert rules_shown(load(scenario_path("first-game")).state) == {"R2"}
    assert rules_shown(new_game(3, seed=4)) == {"R2"}
    assert rules_shown(load(scenario_path("abou-simbel-left-sums")).state) == set()
    game = new_game(4, seed=4)
    game.apply(game.legal_options()[0])
    assert rules_shown(game) == set()
    assert rules_shown(object()) == set()


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
    assert coverage.counts("R3.5") == Marks(seen=2)
    assert coverage.reset() is None
    assert Coverage(path).seen() == set()


def test_a_first_version_file_loads_as_rules_seen_and_is_written_in_the_new_shape(tmp_path):
    path = tmp_path / "coverage.json"
    path.write_text(json.dumps({"version": 1, "seen": ["R3.5", "R5.3", "R5.5"]}))
    coverage = Coverage(path)
    assert coverage.warning is None
    assert coverage.seen() == {"R3.5", "R5.3", "R5.5"} and coverage.practised() == set()
    coverage.answered(["R3.5"], correct=True)
    data = json.loads(path.read_text())
    assert data["version"] == 2
    assert data["rules"]["R3.5"] == {"seen": 1, "right": 1}
    assert data["rules"]["R5.5"] == {"seen": 1}
    assert not list(tmp_path.glob("*.broken-*"))


# --------------------------------------------------------------------------- broken files
def _kept_aside(folder: Path) -> list[Path]:
    return sorted(folder.glob("coverage.json.broken-*"))


DAMAGED = {
    "bad-json": b"{not json",
    "truncated": b'{"version": 2, "rules": {"R3.5": {"seen": 4, "prac',
    "a-list": b"[1, 2, 3]",
    "seen-not-a-list": b'{"version": 1, "seen": "R3.5"}',
    "no-rules": b'{"version": 2}',
    "counts-not-numbers": b'{"version": 2, "rules": {"R3.5": {"seen": "many"}}}',
    "negative": b'{"version": 2, "rules": {"R3.5": {"seen": -1}}}',
    "huge-integer": b'{"version": 2, "rules": {"R3.5": {"seen": ' + b"9" * 5000 + b"}}}",
    "not-utf8": b"\xff\xfe\x00garbage",
    "empty": b"",
    "garbage": bytes(range(256)) * 8,
    "deep-nesting": b"[" * 100_000 + b"]" * 100_000,
    "deep-inside-rules": b'{"version": 2, "rules": {"R3.5": '
    + b'{"a": ' * 50_000
    + b"1"
    + b"}" * 50_001
    + b"}",
}


@pytest.mark.parametrize("content", list(DAMAGED.values()), ids=list(DAMAGED))
def test_a_damaged_file_is_moved_aside_kept_and_the_learner_told(tmp_path, content):
    path = tmp_path / "coverage.json"
    path.write_bytes(content)
    coverage, warning = load_coverage(path)  # never raises
    assert coverage.seen() == set()
    aside = _kept_aside(tmp_path)
    assert len(aside) == 1 and aside[0].read_bytes() == content  # kept, byte for byte
    assert warning and str(path) in warning and str(aside[0]) in warning
    assert "damaged" in warning
    coverage.record(played_scenario("abou-simbel-left-sums"))  # and it goes on working
    assert Coverage(path).seen() == {"R5.2", "R3.5", "R6.2"}
    assert _kept_aside(tmp_path)[0].read_bytes() == content  # still there after the save


def test_a_file_over_the_size_cap_is_moved_aside_unread(tmp_path):
    path = tmp_path / "coverage.json"
    big = json.dumps({"version": 2, "rules": {}, "padding": "x" * (MAX_BYTES + 10)})
    path.write_text(big)
    coverage = Coverage(path)
    assert coverage.seen() == set() and "2 MiB" in coverage.warning
    assert len(_kept_aside(tmp_path)) == 1 and not path.exists()


def test_a_file_with_some_bad_entries_keeps_the_good_ones_and_the_original(tmp_path):
    path = tmp_path / "coverage.json"
    original = json.dumps({"version": 1, "seen": ["R3.5", 7, "hello", "r6.4"]})
    path.write_text(original)
    coverage = Coverage(path)
    assert coverage.seen() == {"R3.5", "R6.4"}
    assert coverage.warning and "damaged" in coverage.warning
    assert _kept_aside(tmp_path)[0].read_text() == original
    assert Coverage(path).seen() == {"R3.5", "R6.4"}  # the good ones were written back


def test_a_folder_where_the_file_should_be_is_left_alone(tmp_path):
    folder = tmp_path / "coverage.json"
    folder.mkdir()  # a directory where the file should be
    (folder / "inside").write_text("keep me")
    coverage = Coverage(folder)
    assert coverage.seen() == set() and "could not be read" in coverage.warning
    assert coverage.add(["R3.5"]) == {"R3.5"}  # in memory
    assert coverage.reset() == coverage.warning
    assert folder.is_dir() and (folder / "inside").read_text() == "keep me"


def test_a_fifo_is_not_read_and_not_replaced(tmp_path):
    fifo = tmp_path / "coverage.json"
    os.mkfifo(fifo)
    coverage = Coverage(fifo)  # does not hang
    assert "not a regular file" in coverage.warning
    coverage.add(["R3.5"])
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_file_from_a_newer_version_is_left_alone(tmp_path):
    path = tmp_path / "coverage.json"
    text = json.dumps({"version": 99, "rules": {"R3.5": {"seen": 1}}, "future": True})
    path.write_text(text)
    coverage = Coverage(path)
    assert "newer version" in coverage.warning
    coverage.add(["R6.4"])
    assert path.read_text() == text and not _kept_aside(tmp_path)


def test_a_symlink_is_followed_and_kept(tmp_path):
    real_folder = tmp_path / "synced"
    real_folder.mkdir()
    target = real_folder / "record.json"
    target.write_text(json.dumps({"version": 2, "rules": {"R3.5": {"seen": 1}}}))
    link = tmp_path / "coverage.json"
    link.symlink_to(target)
    coverage = Coverage(link)
    assert coverage.seen() == {"R3.5"} and coverage.warning is None
    coverage.add(["R6.4"])
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert json.loads(target.read_text())["rules"] == {"R3.5": {"seen": 1}, "R6.4": {"seen": 1}}
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(real_folder / "not-yet.json")
    Coverage(dangling).add(["R7.1"])
    assert dangling.is_symlink() and (real_folder / "not-yet.json").exists()


def test_a_damaged_symlinked_file_is_moved_aside_next_to_its_target(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("{broken")
    link = tmp_path / "coverage.json"
    link.symlink_to(target)
    coverage = Coverage(link)
    assert "damaged" in coverage.warning and link.is_symlink()
    assert [p.read_text() for p in tmp_path.glob("real.json.broken-*")] == ["{broken"]
    coverage.add(["R3.5"])
    assert link.is_symlink() and Coverage(link).seen() == {"R3.5"}


def test_an_unwritable_folder_keeps_the_record_in_memory_with_a_warning(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file, so nothing can be created inside it")
    coverage = Coverage(blocker / "coverage.json", lang="de")
    assert coverage.seen() == set() and coverage.warning is None  # nothing there yet
    new = coverage.record(played_scenario("abou-simbel-left-sums"))  # does not raise
    assert new == {"R5.2", "R3.5", "R6.2"} and coverage.seen() == new
    assert coverage.warning and "nicht schreiben" in coverage.warning
    assert coverage.save() == coverage.warning
    assert list(tmp_path.iterdir()) == [blocker]  # no temporary file left behind


def test_a_read_only_folder_keeps_the_file_and_the_record_in_memory(tmp_path):
    folder = tmp_path / "home"
    folder.mkdir()
    path = folder / "coverage.json"
    Coverage(path).add(["R3.5"])
    before = path.read_bytes()
    folder.chmod(0o555)
    try:
        if os.access(folder, os.W_OK):  # root writes anyway: refuse the temporary file instead
            real = tempfile.mkstemp

            def refuse(*args, **kwargs):
                if kwargs.get("dir") == folder:
                    raise PermissionError(13, "Permission denied")
                return real(*args, **kwargs)

            patch = pytest.MonkeyPatch()
            patch.setattr("nefertiti_core.teaching.json_file.tempfile.mkstemp", refuse)
        else:
            patch = None
        coverage = Coverage(path)
        assert coverage.seen() == {"R3.5"} and coverage.warning is None
        coverage.add(["R6.4"])  # no exception
        assert "could not be written" in coverage.warning
        assert "Permission denied" in coverage.warning
        assert coverage.seen() == {"R3.5", "R6.4"}
        assert path.read_bytes() == before
        if patch is not None:
            patch.undo()
    finally:
        folder.chmod(0o755)
    coverage.add(["R7.1"])  # writable again: the kept marks are written with the new one
    assert Coverage(path).seen() == {"R3.5", "R6.4", "R7.1"} and coverage.warning is None


def test_warnings_are_in_the_learners_language(tmp_path):
    texts = {}
    for lang in LANGUAGES:
        path = tmp_path / lang / "coverage.json"
        path.parent.mkdir()
        path.write_text("{")
        texts[lang] = Coverage(path, lang).warning
        assert str(path) in texts[lang]
    assert len(set(texts.values())) == 3
    path = tmp_path / "xx.json"
    path.write_text("{")
    assert "damaged" in Coverage(path, "xx").warning


def test_the_default_file_is_under_nefertiti_home_or_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("NEFERTITI_HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / "coverage.json"
    coverage = Coverage()
    coverage.add(["R7.1"])
    data = json.loads((tmp_path / "home" / "coverage.json").read_text())
    assert data["rules"] == {"R7.1": {"seen": 1}}
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

    monkeypatch.setattr("nefertiti_core.teaching.coverage.os.replace", refuse)
    assert coverage.add(["R6.4"]) == {"R6.4"}  # recorded in memory, no exception
    assert "Permission denied" in coverage.warning and "could not be written" in coverage.warning
    assert coverage.seen() == {"R3.5", "R6.4"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["coverage.json", "coverage.json.lock"]
    assert json.loads(path.read_text())["rules"] == {"R3.5": {"seen": 1}}


def test_two_records_in_one_process_merge_instead_of_overwriting(tmp_path):
    """Two kernels' records of the same file: each save adds to what the file holds now."""
    path = tmp_path / "coverage.json"
    a, b = Coverage(path), Coverage(path)
    a.add(["R3.5"])
    b.add(["R6.4"])  # b never read R3.5, but must not drop it
    a.answered(["R3.5"], correct=True)
    b.answered(["R3.5"], correct=True)
    final = Coverage(path)
    assert final.seen() == {"R3.5", "R6.4"}
    assert final.counts("R3.5") == Marks(seen=1, right=2)


def test_a_symlink_loop_is_left_alone_with_a_warning(tmp_path):
    a, b = tmp_path / "coverage.json", tmp_path / "other.json"
    a.symlink_to(b)
    b.symlink_to(a)
    coverage = Coverage(a)
    assert "could not be read" in coverage.warning
    coverage.add(["R3.5"])  # kept in memory, the links untouched
    assert a.is_symlink() and b.is_symlink() and coverage.seen() == {"R3.5"}


def test_nothing_in_the_file_raises_out_of_the_constructor(tmp_path):
    """Random damage to a good record (bytes cut, flipped, repeated): Coverage() never raises,
    and the file is either read or kept aside byte for byte."""
    rng = random.Random(14)
    good = json.dumps(
        {"version": 2, "rules": {"R3.5": {"seen": 3, "practised": 1}, "R6.4": {"wrong": 2}}}
    ).encode()
    for n in range(200):
        data = bytearray(good)
        for _ in range(rng.randint(1, 4)):
            if not data:
                break
            at = rng.randrange(len(data))
            choice = rng.randrange(3)
            if choice == 0:
                data[at] = rng.randrange(256)
            elif choice == 1:
                del data[at:]
            else:
                data[at:at] = data[at : at + rng.randint(1, 40)] * rng.randint(1, 50)
        folder = tmp_path / str(n)
        folder.mkdir()
        path = folder / "coverage.json"
        path.write_bytes(bytes(data))
        coverage = Coverage(path)
        aside = _kept_aside(folder)
        if coverage.warning:
            assert [p.read_bytes() for p in aside] == [bytes(data)], n
        else:
            assert not aside and path.read_bytes() == bytes(data)
        coverage.add(["R7.1"])
        assert "R7.1" in Coverage(path).seen()


def test_a_writer_that_holds_the_lock_too_long_delays_the_save_and_loses_nothing(
    tmp_path, monkeypatch
):
    import fcntl

    path = tmp_path / "coverage.json"
    coverage = Coverage(path)
    coverage.add(["R3.5"])
    monkeypatch.setattr("nefertiti_core.teaching.coverage.LOCK_SECONDS", 0.2)
    with open(str(path) + ".lock", "a") as other:  # another program's lock
        fcntl.flock(other.fileno(), fcntl.LOCK_EX)
        assert coverage.add(["R6.4"]) == {"R6.4"}  # waits 0.2 s, then keeps it for later
        assert "another program" in coverage.warning
        assert json.loads(path.read_text())["rules"] == {"R3.5": {"seen": 1}}
        fcntl.flock(other.fileno(), fcntl.LOCK_UN)
    coverage.add(["R7.1"])
    assert Coverage(path).seen() == {"R3.5", "R6.4", "R7.1"} and coverage.warning is None


def test_without_fcntl_the_record_is_still_written_atomically(tmp_path, monkeypatch):
    monkeypatch.setattr("nefertiti_core.teaching.coverage.fcntl", None)
    path = tmp_path / "coverage.json"
    coverage = Coverage(path)
    coverage.add(["R3.5"])
    Coverage(path).add(["R6.4"])
    assert Coverage(path).seen() == {"R3.5", "R6.4"} and coverage.warning is None
    assert not (tmp_path / "coverage.json.lock").exists()


def test_in_the_background_a_slow_disk_never_holds_up_a_click(tmp_path, monkeypatch):
    """The tutorials' record saves in a background thread: recording returns at once, the
    marks are readable meanwhile, flush() writes them all."""
    import os
    import time

    path = tmp_path / "coverage.json"
    coverage = Coverage(path, background=True)
    real = os.fsync

    def slow(fd):  # a slow disk: every save waits for it
        time.sleep(0.3)
        real(fd)

    monkeypatch.setattr(os, "fsync", slow)
    started = time.perf_counter()
    for n in range(1, 21):
        coverage.add([f"R3.{n}"])
        coverage.answered(["R6.4"], correct=True)
    took = time.perf_counter() - started
    assert took < 0.25, f"recording waited for the disk: {took:.2f} s"
    assert len(coverage.seen()) == 20 and coverage.counts("R6.4") == Marks(right=20)
    assert coverage.flush() is None
    final = Coverage(path)
    assert len(final.seen()) == 20 and final.counts("R6.4") == Marks(right=20)
