"""Exercises as data (#13 item 2): the ``exercises:`` block of a position file and the lessons file.

A teacher's file with two exercises loads, asks its questions and checks answers on the engine;
each kind of mistake in the block is one line naming the file, the line and the field (and the
file is refused); a written ``answer`` the engine disagrees with is refused; the shipped files
hold every exercise of the tutor, each listed exactly once in ``scenarios/lessons/lessons.yaml``
in the order of the lessons.
"""

from __future__ import annotations

import inspect
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nefertiti_core.files.exercise_block import ARGUMENTS, KIND_FIELDS
from nefertiti_core.files.exercises import (
    EXERCISES,
    KINDS,
    LESSONS_FILE,
    TOPICS,
    ClickClosingSquare,
    Exercise,
    HowMuchDeben,
    WillItClose,
    build_lessons,
    exercises_for,
    exercises_in,
    scenarios_folder,
)
from nefertiti_core.files.scenario import ScenarioError, loads_scenario
from nefertiti_core.files.yaml_subset import dumps, loads
from nefertiti_core.teaching.coverage import answer_rules

ROOT = Path(__file__).resolve().parents[1]
FOLDER = scenarios_folder()
SHIPPED = sorted(FOLDER.glob("*.yaml"))


def _doc_example() -> str:
    """The complete example of docs/scenario-format.md's exercises section."""
    text = (ROOT / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    section = text[text.index("## Exercises") :]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1)


LESSON = _doc_example()


def _write(tmp_path, text, name="lesson.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- a teacher's file
def test_a_teachers_file_with_two_exercises_loads_and_checks_answers(tmp_path):
    first, second = exercises_in(_write(tmp_path, LESSON))
    assert isinstance(first, WillItClose) and isinstance(second, HowMuchDeben)
    assert first.id == "abou-simbel/seven-makes-fourteen" and first.topic == "abou-simbel"
    # the teacher's question replaces the tutor's, in the learner's language
    assert first.prompt("en") == "Red puts a servant on the 7. Does Abou Simbel close?"
    assert first.prompt("de") == "Rot setzt einen Diener auf die 7. Schließt Abu Simbel?"
    assert "Abou Simbel" in first.prompt("zh")
    right = first.check("yes")
    assert right.correct and "R3.5" in right.explanation
    assert right.reason.endswith("Count the bids: 2 + 5 + 7 = 14.")  # after the engine's reason
    wrong = first.check("no")
    assert not wrong.correct and wrong.right_answer == "yes"
    assert first.check("ja", "de").correct
    assert first.check("nein", "de").reason.endswith("Zähle die Gebote: 2 + 5 + 7 = 14.")
    # the second one asks in the tutor's words; the engine's answer is -7 (Red pays the bid)
    assert "Deben" in second.prompt("en")
    assert second.check(-7).correct and second.check("-7").correct
    assert not second.check(7).correct
    # the file's rules are what the learner's coverage counts
    assert first.rules == ("R3.5",) and answer_rules(first) == {"R3.5"}


def test_the_staged_position_is_the_files_and_a_fresh_copy(tmp_path):
    first, _ = exercises_in(_write(tmp_path, LESSON))
    board = first.state()
    board.apply("place abou_simbel.left#5")
    assert first.state().owners[2][5] == -1  # playing on the board changes nothing
    assert first.check("yes").correct


def test_a_question_in_english_only_shows_in_every_language(tmp_path):
    text = LESSON.replace(
        '      de: "Rot setzt einen Diener auf die 7. Schließt Abu Simbel?"\n', ""
    ).replace('      zh: "红方把仆人放在7上。Abou Simbel会关闭吗？"\n', "")
    first, _ = exercises_in(_write(tmp_path, text))
    assert first.prompt("de") == first.prompt("en")


def test_before_moves_and_variants_stage_the_question(tmp_path):
    text = LESSON.replace(
        "  - id: abou-simbel/red-pays\n    kind: how-much-deben\n"
        '    option: "place abou_simbel.left#5"\n    answer: -7\n',
        "  - id: abou-simbel/half\n    kind: is-legal\n    option: half\n"
        '    before: ["place abou_simbel.left#5"]\n    variants: [merchant_pays_reserve]\n'
        "    answer: no\n",
    )
    _, half = exercises_in(_write(tmp_path, text))
    assert half.before == ("place abou_simbel.left#5",)
    assert half.state().phase != "turn"  # the closing is being resolved
    assert half.check("no").correct  # the highest bidder takes no half (R6.4)


def test_click_closing_square_answers_may_list_every_closing_square(tmp_path):
    text = LESSON.replace(
        "  - id: abou-simbel/red-pays\n    kind: how-much-deben\n"
        '    option: "place abou_simbel.left#5"\n    answer: -7\n',
        "  - id: abou-simbel/click\n    kind: click-closing-square\n    market: abou_simbel\n"
        "    answer: [5]\n",
    )
    _, click = exercises_in(_write(tmp_path, text))
    assert isinstance(click, ClickClosingSquare) and click.right_answer() == (5,)
    with pytest.raises(ScenarioError, match=r"exercises\.1\.answer: the engine says"):
        exercises_in(_write(tmp_path, text.replace("answer: [5]", "answer: [5, 6]")))


# --------------------------------------------------------------------------- broken entries
# (name, text replaced in LESSON, replacement, the field path, words of the message, the text
# of the line the message must name)
BROKEN = [
    (
        "unknown kind",
        "kind: how-much-deben",
        "kind: how-much-money",
        "exercises.1.kind",
        "unknown exercise kind 'how-much-money' (did you mean 'how-much-deben'?)",
        "kind: how-much-money",
    ),
    (
        "missing kind",
        "    kind: how-much-deben\n",
        "",
        "exercises.1",
        "each exercise needs a kind",
        "- id: abou-simbel/red-pays",
    ),
    (
        "missing option",
        '    kind: how-much-deben\n    option: "place abou_simbel.left#5"\n',
        "    kind: how-much-deben\n",
        "exercises.1",
        "a how-much-deben exercise needs 'option:'",
        "- id: abou-simbel/red-pays",
    ),
    (
        "missing id",
        "  - id: abou-simbel/red-pays\n    kind: how-much-deben",
        "  - kind: how-much-deben",
        "exercises.1",
        "each exercise needs an id",
        "- kind: how-much-deben",
    ),
    (
        "duplicate id",
        "id: abou-simbel/red-pays",
        "id: abou-simbel/seven-makes-fourteen",
        "exercises.1.id",
        "the id 'abou-simbel/seven-makes-fourteen' is taken already, by exercises.0",
        "- id: abou-simbel/seven-makes-fourteen",
    ),
    (
        "bad id",
        "id: abou-simbel/red-pays",
        "id: Abou Simbel pays",
        "exercises.1.id",
        "an id is lower-case words",
        "- id: Abou Simbel pays",
    ),
    (
        "unknown field",
        "    answer: -7\n",
        "    answer: -7\n    seet: red\n",
        "exercises.1.seet",
        "unknown field 'seet'",
        "seet: red",
    ),
    (
        "a field of another kind",
        "    answer: -7\n",
        "    answer: -7\n    market: gizeh\n",
        "exercises.1.market",
        "unknown field 'market'",
        "market: gizeh",
    ),
    (
        "unknown seat",
        '    kind: how-much-deben\n    option: "place abou_simbel.left#5"\n    answer: -7\n',
        "    kind: gift-value\n    seat: purple\n    gift: harp\n",
        "exercises.1.seat",
        "unknown player colour 'purple'",
        "seat: purple",
    ),
    (
        "unknown gift",
        '    kind: how-much-deben\n    option: "place abou_simbel.left#5"\n    answer: -7\n',
        "    kind: gift-value\n    seat: red\n    gift: harps\n",
        "exercises.1.gift",
        "unknown gift type 'harps' (did you mean 'harp'?)",
        "gift: harps",
    ),
    (
        "unknown market",
        '    kind: how-much-deben\n    option: "place abou_simbel.left#5"\n    answer: -7\n',
        "    kind: click-closing-square\n    market: abu_simbel\n",
        "exercises.1.market",
        "unknown market 'abu_simbel'",
        "market: abu_simbel",
    ),
    (
        "option not text",
        'option: "place abou_simbel.left#5"\n    answer: -7',
        "option: [place, 5]\n    answer: -7",
        "exercises.1.option",
        "expected a step in the move notation",
        "option: [place, 5]",
    ),
    (
        "square not a number",
        '    kind: how-much-deben\n    option: "place abou_simbel.left#5"\n    answer: -7\n',
        "    kind: closing-chance\n    square: two\n",
        "exercises.1.square",
        "expected a whole number, found 'two'",
        "square: two",
    ),
    (
        "answer a mapping",
        "answer: -7",
        "answer: {red: -7}",
        "exercises.1.answer",
        "an answer is one value",
        "answer: {red: -7}",
    ),
    (
        "question a list",
        "    answer: -7\n",
        "    answer: -7\n    question: [a, b]\n",
        "exercises.1.question",
        "expected a text, or one text per language",
        "question: [a, b]",
    ),
    (
        "question without English",
        '      en: "Red puts a servant on the 7. Does Abou Simbel close?"\n',
        "",
        "exercises.0.question",
        "needs the English one too ('en:')",
        "question:",
    ),
    (
        "explanation in an unknown language",
        '      en: "Count the bids: 2 + 5 + 7 = 14."\n',
        '      en: "Count the bids: 2 + 5 + 7 = 14."\n      fr: "Comptez."\n',
        "exercises.0.explanation.fr",
        "unknown field 'fr'",
        'fr: "Comptez."',
    ),
    (
        "unknown rule ID",
        "rules: [R3.5]",
        "rules: [R3.5, R3.55]",
        "exercises.0.rules.1",
        "unknown rule ID 'R3.55' (did you mean 'R3.5'?)",
        "rules: [R3.5, R3.55]",
    ),
    (
        "unknown variant",
        "    answer: -7\n",
        "    answer: -7\n    variants: [akhenaton_ends_games]\n",
        "exercises.1.variants.0",
        "unknown variant 'akhenaton_ends_games' (did you mean 'akhenaton_ends_game'?)",
        "variants: [akhenaton_ends_games]",
    ),
    (
        "unknown note",
        "    answer: -7\n",
        "    answer: -7\n    note: half_high\n",
        "exercises.1.note",
        "unknown note 'half_high' (did you mean 'half_highest'?)",
        "note: half_high",
    ),
    (
        "before not a list",
        "    answer: -7\n",
        "    answer: -7\n    before: {place: 5}\n",
        "exercises.1.before",
        "expected a list",
        "before: {place: 5}",
    ),
    (
        "an entry not a mapping",
        "exercises:\n",
        "exercises:\n  - will-it-close\n",
        "exercises.0",
        "an exercise is a mapping of fields",
        "- will-it-close",
    ),
]

# Mistakes only the engine sees: the file loads, exercises_in refuses it.
ENGINE = [
    (
        "illegal option",
        'option: "place abou_simbel.left#5"\n    answer: -7',
        'option: "place louqsor.left#0"\n    answer: -7',
        "exercises.1.option",
        "'place louqsor.left#0' is not legal in this position; red may choose place gizeh",
        'option: "place louqsor.left#0"',
    ),
    (
        "option not in the notation",
        'option: "place abou_simbel.left#5"\n    answer: -7',
        'option: "put a servant on the 7"\n    answer: -7',
        "exercises.1.option",
        "'put a servant on the 7'",
        'option: "put a servant on the 7"',
    ),
    (
        "illegal before move",
        "    answer: -7\n",
        '    answer: -7\n    before: ["take upper"]\n',
        "exercises.1.before.0",
        "'take upper'",
        'before: ["take upper"]',
    ),
    (
        "answer mismatch",
        "answer: -7",
        "answer: -5",
        "exercises.1.answer",
        "the engine says -7, the file says -5",
        "answer: -5",
    ),
    (
        "choice answer mismatch",
        "answer: yes",
        "answer: no",
        "exercises.0.answer",
        "the engine says yes, the file says no",
        "answer: no",
    ),
    (
        "answer not an answer",
        "answer: yes",
        "answer: 14",
        "exercises.0.answer",
        "not an answer to this question",
        "answer: 14",
    ),
    (
        "a list for another kind",
        "answer: -7",
        "answer: [7]",
        "exercises.1.answer",
        "a list is an answer to a click-closing-square exercise only",
        "answer: [7]",
    ),
    (
        "no square closes",
        '    kind: how-much-deben\n    option: "place abou_simbel.left#5"\n    answer: -7\n',
        "    kind: click-closing-square\n    market: gizeh\n",
        "exercises.1.market",
        "no square closes gizeh now",
        "market: gizeh",
    ),
    (
        "a gift the seat does not hold",
        '    kind: how-much-deben\n    option: "place abou_simbel.left#5"\n    answer: -7\n',
        "    kind: gift-value\n    seat: red\n    gift: harp\n",
        "exercises.1.gift",
        "red holds no harp",
        "gift: harp",
    ),
    (
        "a louqsor square that is not free",
        '    kind: how-much-deben\n    option: "place abou_simbel.left#5"\n    answer: -7\n',
        "    kind: closing-chance\n    square: 0\n",
        "exercises.1.square",
        "square 0 of Louqsor is not free",
        "square: 0",
    ),
]


def _line_of(text: str, marker: str) -> int:
    """The last line with ``marker`` (a duplicate is named where it is written again)."""
    return max(n for n, line in enumerate(text.splitlines(), 1) if marker in line)


def _expect(error: ScenarioError, text: str, field: str, words: str, marker: str) -> None:
    message = str(error)
    assert "\n" not in message and "Traceback" not in message
    assert message.startswith(f"lesson.yaml: line {_line_of(text, marker)}: {field}: "), message
    assert words in message, message


@pytest.mark.parametrize("case", BROKEN, ids=[c[0] for c in BROKEN])
def test_a_broken_entry_is_refused_when_the_file_loads(case, tmp_path):
    name, old, new, field, words, marker = case
    assert old in LESSON, f"case {name!r} does not apply to the example"
    text = LESSON.replace(old, new, 1)
    with pytest.raises(ScenarioError) as info:
        loads_scenario(text, "lesson.yaml")
    _expect(info.value, text, field, words, marker)
    with pytest.raises(ScenarioError) as info:  # and by exercises_in, the same words
        exercises_in(_write(tmp_path, text))
    _expect(info.value, text, field, words, marker)


def test_a_block_that_is_not_a_list_is_refused():
    text = LESSON[: LESSON.index("exercises:")] + "exercises: {id: x}\n"
    with pytest.raises(ScenarioError) as info:
        loads_scenario(text, "lesson.yaml")
    _expect(info.value, text, "exercises", "expected a list, found {'id': 'x'}", "exercises:")


@pytest.mark.parametrize("case", ENGINE, ids=[c[0] for c in ENGINE])
def test_an_entry_the_engine_cannot_ask_is_refused_with_its_field(case, tmp_path):
    name, old, new, field, words, marker = case
    assert old in LESSON, f"case {name!r} does not apply to the example"
    text = LESSON.replace(old, new, 1)
    loads_scenario(text, "lesson.yaml")  # as data the file is fine: the position loads
    with pytest.raises(ScenarioError) as info:
        exercises_in(_write(tmp_path, text))
    _expect(info.value, text, field, words, marker)
    # unchecked, the exercises are still made (a notebook may want to show the broken one)
    assert len(exercises_in(_write(tmp_path, text), check=False)) == text.count("  - id: ")


def test_the_shipped_files_use_every_kind():
    assert {_kind_of(ex) for ex in EXERCISES.values()} == set(KINDS)


def test_every_kind_a_file_may_name_has_a_class_taking_its_fields():
    """A file is checked against KIND_FIELDS when it loads, and its exercises are made from
    KINDS: the same kinds, the same fields, and each class takes each field as an argument."""
    assert list(KINDS) == list(KIND_FIELDS)
    for name, (cls, needs, may) in KINDS.items():
        assert issubclass(cls, Exercise) and (needs, may) == KIND_FIELDS[name], name
        parameters = inspect.signature(cls.__init__).parameters
        assert {ARGUMENTS[f] for f in needs + may} <= set(parameters), name


def _kind_of(exercise) -> str:
    return next(name for name, (cls, _, _) in KINDS.items() if type(exercise) is cls)


# --------------------------------------------------------------------------- the shipped files
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_file_s_exercises_are_checked_by_the_engine(path):
    made = exercises_in(path)  # raises for any exercise the engine cannot ask or answers otherwise
    for exercise in made:
        registered = EXERCISES[exercise.id]
        assert registered.scenario == path.stem
        assert registered.right_answer() == exercise.right_answer()
        assert registered.prompt("de") == exercise.prompt("de")


def test_every_shipped_exercise_has_a_written_answer_the_engine_agrees_with():
    for path in SHIPPED:
        data = loads(path.read_text(encoding="utf-8")).data
        for entry in data.get("exercises") or []:
            assert "answer" in entry, f"{path.name}: {entry['id']} has no answer"


def test_the_lessons_list_every_exercise_exactly_once_in_order():
    lessons = loads((FOLDER / LESSONS_FILE).read_text(encoding="utf-8")).data["topics"]
    listed = [ident for ids in lessons.values() for ident in ids]
    assert len(listed) == len(set(listed)), "an exercise is listed twice"
    in_files = []
    for path in SHIPPED:
        data = loads(path.read_text(encoding="utf-8")).data
        in_files += [entry["id"] for entry in data.get("exercises") or []]
    assert len(in_files) == len(set(in_files)), "an id is written twice"
    assert sorted(listed) == sorted(in_files)
    assert tuple(lessons) == TOPICS
    assert list(EXERCISES) == listed  # EXERCISES in the order of the lessons
    for topic, ids in lessons.items():
        assert [ex.id for ex in exercises_for(topic)] == ids
        assert all(ident.startswith(f"{topic}/") for ident in ids)


def test_the_registry_is_the_one_the_lessons_had_before_the_move():
    """The 56 ids, topics and per-topic order of the Python table this data replaced."""
    assert len(EXERCISES) == 56
    assert [ex.id for ex in exercises_for("closing-a-market")] == [
        "closing-a-market/highest-bidder-first",
        "closing-a-market/half-the-reserve",
        "closing-a-market/cannot-pay",
        "closing-a-market/equal-bids-right-first",
    ]
    assert TOPICS[0] == "welcome" and TOPICS[-1] == "teaching" and len(TOPICS) == 16


def _copy_shipped(tmp_path) -> Path:
    folder = tmp_path / "scenarios"
    shutil.copytree(FOLDER, folder)
    return folder


def test_a_copy_of_the_shipped_files_builds_the_same_lessons(tmp_path):
    topics, exercises = build_lessons(_copy_shipped(tmp_path))
    assert topics == TOPICS and list(exercises) == list(EXERCISES)


def _edit(path: Path, old: str, new: str) -> str:
    text = path.read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    return text


def test_a_listed_id_that_no_file_has_is_named(tmp_path):
    folder = _copy_shipped(tmp_path)
    text = _edit(folder / LESSONS_FILE, "    - welcome/gold-held-alone\n", "    - welcome/gold\n")
    with pytest.raises(ScenarioError) as info:
        build_lessons(folder)
    line = _line_of(text, "- welcome/gold")
    assert str(info.value) == (
        f"lessons.yaml: line {line}: topics.welcome.1: no position file in scenarios/ has an "
        "exercise 'welcome/gold'"
    )


def test_an_exercise_in_no_lesson_is_named(tmp_path):
    folder = _copy_shipped(tmp_path)
    _edit(folder / LESSONS_FILE, "    - welcome/gold-held-alone\n", "")
    with pytest.raises(ScenarioError) as info:
        build_lessons(folder)
    message = str(info.value)
    assert message.startswith("end-game.yaml: line ") and "exercises.0.id: " in message
    assert "'welcome/gold-held-alone' is in no lesson: list it in lessons.yaml" in message


def test_an_exercise_listed_twice_is_named(tmp_path):
    folder = _copy_shipped(tmp_path)
    _edit(
        folder / LESSONS_FILE,
        "    - setup/one-deben-per-reserve\n",
        "    - setup/one-deben-per-reserve\n    - setup/louqsor-starts-closed\n",
    )
    with pytest.raises(ScenarioError, match=r"topics\.setup\.2: 'setup/louqsor-starts-closed' "):
        build_lessons(folder)


def test_an_exercise_listed_under_another_topic_is_named(tmp_path):
    folder = _copy_shipped(tmp_path)
    _edit(folder / LESSONS_FILE, "    - welcome/gold-held-alone\n", "    - setup/gold\n")
    with pytest.raises(ScenarioError, match=r"topics\.welcome\.1: an exercise of welcome"):
        build_lessons(folder)


def test_one_id_in_two_files_is_named(tmp_path):
    folder = _copy_shipped(tmp_path)
    _edit(folder / "scribe.yaml", "id: characters/vizier\n", "id: welcome/who-plays-next\n")
    with pytest.raises(ScenarioError) as info:
        build_lessons(folder)
    assert "'welcome/who-plays-next' is taken already, in first-game.yaml" in str(info.value)
    assert str(info.value).startswith("scribe.yaml: line ")


# --------------------------------------------------------------------------- the command line
def _nefertiti(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nefertiti_core.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def test_nefertiti_check_lists_each_exercise_with_the_engines_answer(tmp_path):
    run = _nefertiti("check", str(_write(tmp_path, LESSON)))
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "abou-simbel/seven-makes-fourteen (will-it-close): yes, as the file says",
        "abou-simbel/red-pays (how-much-deben): -7, as the file says",
        "lesson.yaml: the position loads; 2 exercises checked on the engine, "
        "2 written answers agree",
    ]


def test_nefertiti_check_refuses_a_wrong_answer_in_one_line(tmp_path):
    text = LESSON.replace("answer: -7", "answer: -5")
    run = _nefertiti("check", str(_write(tmp_path, text)))
    assert run.returncode == 2
    line = _line_of(text, "answer: -5")
    assert run.stderr == (
        f"nefertiti check: error: lesson.yaml: line {line}: exercises.1.answer: the engine says "
        "-7, the file says -5\n"
    )


# --------------------------------------------------------------------------- never a traceback
_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-50, 50),
    st.sampled_from(
        [
            "yes",
            "no",
            "red",
            "nobody",
            "4/36",
            "11%",
            "half",
            "pass",
            "take upper",
            "close gizeh",
            "recruit vizier",
            "place gizeh.left#0",
            "place louqsor.left#2",
            "place abou_simbel.left#5",
            "place abou_simbel.left#99",
            "gizeh",
            "louqsor",
            "harp",
            "gold",
            "R3.5",
            "akhenaton_ends_game",
            "half_highest",
            *KINDS,
        ]
    ),
    st.text(max_size=12),
    st.lists(st.integers(-2, 12), max_size=3),
    st.dictionaries(st.sampled_from(["en", "de", "fr"]), st.text(max_size=5), max_size=2),
)
_FIELDS = ["id", "kind", "option", "seat", "gift", "market", "square", "before", "variants"]
_FIELDS += ["note", "question", "answer", "explanation", "rules", "other"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_mutated_exercises_never_raise_anything_but_a_scenario_error(data, tmp_path_factory):
    doc = loads(LESSON).data
    for _ in range(data.draw(st.integers(1, 4))):
        entry = doc["exercises"][data.draw(st.integers(0, 1))]
        name = data.draw(st.sampled_from(_FIELDS))
        if data.draw(st.booleans()) and name in entry:
            del entry[name]
        else:
            entry[name] = data.draw(_VALUES)
    path = tmp_path_factory.mktemp("fuzz") / "lesson.yaml"
    path.write_text(dumps(doc), encoding="utf-8")
    try:
        for exercise in exercises_in(path):
            for lang in ("en", "de", "zh"):
                exercise.prompt(lang)
                exercise.check(data.draw(_VALUES), lang)
    except ScenarioError as error:
        message = str(error)
        assert message.startswith("lesson.yaml: ") and "\n" not in message, message


def test_nefertiti_check_refuses_a_game_record_in_one_line():
    run = _nefertiti("check", str(ROOT / "tests" / "corpus" / "good" / "record-rolls.yaml"))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == (
        "nefertiti check: error: record-rolls.yaml: a game record; check reads position files "
        "(scenarios)\n"
    )
