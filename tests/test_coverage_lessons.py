"""The learner's record in the tutorials (#13 item 5): what a notebook cell plays is seen, what the
learner's own clicks and choices cause is practised, exercise answers count right or wrong per
rule, the coverage view shows all four and redraws; and every rule ID the engine can name is
reachable from some tutorial's lesson or exercise."""

from __future__ import annotations

import html
import json
import re
from functools import cache
from pathlib import Path

import pytest

from nefertiti_core.engine.i18n import LANGUAGES, tr
from nefertiti_core.files.exercises import EXERCISES, exercises_for, scenario_path
from nefertiti_core.files.scenario import load
from nefertiti_core.teaching.coverage import (
    ALL_RULE_IDS,
    Coverage,
    Marks,
    answer_rules,
    rules_in,
    rules_shown,
)
from widgets.game import geometry as G
from widgets.game.exercise import ExerciseCard
from widgets.lesson.notebook import Lesson, coverage_html, coverage_rows, coverage_view

TUTORIALS = Path(__file__).resolve().parents[1] / "tutorials"


@pytest.fixture()
def coverage(tmp_path):
    return Coverage(tmp_path / "coverage.json")


def click_square(lesson, option: int) -> bool:
    """What the page's click on the square of ``option`` does (Board.click)."""
    cell = next(c for c in G.squares(lesson.session.state.side) if c.option == option)
    return lesson.board.click(cell.x, cell.y)


# --------------------------------------------------------------------------- seen vs practised
def test_moves_played_by_a_notebook_cell_are_seen_not_practised(coverage):
    """The reported case: Run All of notebook 00 (Lesson("first-game") and lesson.play(...)) marked
    R5.3 and R5.5 as the learner's own, without a click."""
    lesson = Lesson("first-game", coverage=coverage)
    lesson.play("place gizeh.left#3")
    assert {"R2", "R5.3", "R5.5"} <= coverage.seen()
    assert coverage.practised() == set()


def test_a_click_on_the_board_is_practised(coverage):
    lesson = Lesson("first-game", coverage=coverage)
    lesson.play("place gizeh.left#3")
    state = lesson.session.state
    option = state.parse("place abou_simbel.left#0")  # Red's first servant there: a bonus (R5.3)
    assert click_square(lesson, option)
    assert coverage.practised() == {"R5.3", "R5.5"}
    assert coverage.counts("R5.3") == Marks(seen=2, practised=1)
    assert Coverage(coverage.path).practised() == {"R5.3", "R5.5"}  # saved


def test_a_choice_in_the_decision_panel_is_practised_and_undo_counts_nothing(coverage):
    lesson = Lesson("abou-simbel-left-sums", coverage=coverage)
    lesson.play("place abou_simbel.left#5")  # code: closes at 14, Red pays
    assert coverage.practised() == set() and {"R3.5", "R6.2"} <= coverage.seen()
    lesson.play("take upper")
    option = lesson.session.state.parse("buy lower1")
    assert lesson.decision.click(option)  # Blue's choice, pressed in the panel
    assert coverage.practised() == {"R6.4"}
    before = coverage.marks()
    lesson.session.undo()
    assert coverage.marks() == before


def test_a_refused_click_and_a_bots_move_are_not_practised(coverage):
    lesson = Lesson("first-game", coverage=coverage)
    taken = lesson.session.state.parse("place gizeh.left#3")
    lesson.play("place gizeh.left#3")
    assert not click_square(lesson, taken)  # the square is taken: refused
    assert coverage.practised() == set()
    lesson.session.seats = ["human", "greedy", "greedy", "greedy"]
    lesson.session.run_bots()  # the bots play Red, Blue and Black
    assert coverage.practised() == set() and len(coverage.seen()) > 3


def test_exercise_answers_count_right_and_wrong_for_the_rules_they_test(coverage):
    exercise = EXERCISES["closing-abou-simbel/exactly-fourteen"]
    card = ExerciseCard(exercise, coverage=coverage)
    (right,) = exercise.right_answer()
    wrong = next(i for i in range(7) if i != right and exercise.check(i).valid)
    assert not card.answer(wrong).correct
    assert card.answer(right).correct
    rules = answer_rules(exercise)
    assert "R3.5" in rules
    for rule in rules:
        assert coverage.counts(rule) == Marks(right=1, wrong=1)
    card.answer("not an answer")  # not valid: counts nothing
    assert coverage.counts("R3.5") == Marks(right=1, wrong=1)
    assert coverage.practised() == set() and coverage.seen() == set()


def test_playing_on_an_exercise_board_after_answering_is_practised(coverage):
    exercise = EXERCISES["closing-abou-simbel/exactly-fourteen"]
    card = ExerciseCard(exercise, coverage=coverage)
    card.board.on_square = None  # after the answer: the board plays (the card's "see it happen")
    (right,) = exercise.right_answer()
    state = card.session.state
    option = state.parse(f"place abou_simbel.left#{right}")
    cell = next(c for c in G.squares(state.side) if c.option == option)
    assert card.board.click(cell.x, cell.y)
    assert "R3.5" in coverage.practised()


def test_a_set_up_board_in_a_lesson_counts_r2_as_seen(coverage):
    Lesson("abou-simbel-left-sums", coverage=coverage)
    assert "R2" not in coverage.seen()
    Lesson("first-game", coverage=coverage)
    assert coverage.counts("R2") == Marks(seen=1)


# --------------------------------------------------------------------------- the view
def row(rows, section):
    return next(r for r in rows if r[0] == section)


def test_the_coverage_view_shows_seen_practised_right_wrong_and_redraws(coverage):
    lesson = Lesson("first-game", coverage=coverage)
    lesson.play("place gizeh.left#3")
    view = coverage_view(coverage=coverage)
    rows = coverage_rows(coverage)
    assert rows[0] == ["Section", "Seen", "Practised", "Answered right", "Answered wrong"]
    assert row(rows, "R5") == ["R5", "2 of 5: R5.3, R5.5", "0 of 5", "—", "—"]
    assert row(rows, "R2") == ["R2", "1 of 1: R2", "—", "—", "—"]  # shown, never practised
    assert "<td style='padding:3px 10px;border:1px solid #d8cfbf;text-align:left'>0 of 5" in (
        view.object
    )
    assert view.object.count("2 of 5") == 1
    assert click_square(lesson, lesson.session.state.parse("place abou_simbel.left#0"))
    assert row(coverage_rows(coverage), "R5") == [
        "R5",
        "2 of 5: R5.3, R5.5",
        "2 of 5: R5.3, R5.5",
        "—",
        "—",
    ]
    assert view.object.count("2 of 5") == 2  # redrawn: seen and practised
    coverage.answered(["R8", "R3.5"], correct=False)  # R8 is no event's rule: its row appears
    rows = coverage_rows(coverage)
    assert row(rows, "R8") == ["R8", "—", "—", "—", "R8"]
    assert row(rows, "R3") == ["R3", "0 of 8", "0 of 8", "—", "R3.5"]
    assert "Not seen yet: " in view.object and view.object.count("R8") >= 2


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_coverage_view_in_every_language(coverage, lang):
    coverage.add(["R3.5"])
    text = html.unescape(coverage_html(coverage, lang))
    for key in ("title", "legend", "seen", "practised", "right", "wrong"):
        assert tr(lang, f"coverage.view.{key}") in text
    assert tr(lang, "coverage.view.of", count=1, total=8) in text
    # "1 of 8: R3.5", with the language's own colon (Chinese: a full-width one)
    share = tr(lang, "coverage.view.of", count=1, total=8)
    assert tr(lang, "coverage.view.listed", share=share, ids="R3.5") in text
    assert (f"{share}：R3.5" in text) == (lang == "zh")
    assert "{" not in text


def test_the_coverage_view_tells_the_learner_about_a_damaged_file_escaped(tmp_path):
    folder = tmp_path / "<img src=x onerror=alert(1)>"
    folder.mkdir()
    path = folder / "coverage.json"
    path.write_text("{truncated")
    coverage = Coverage(path)
    text = coverage_html(coverage, "en")
    assert "damaged" in text and "broken-" in text and "coverage-warning" in text
    assert "<img" not in text and "&lt;img" in text  # shown as text, never as HTML


def test_the_view_shows_what_another_kernel_recorded_meanwhile(tmp_path):
    path = tmp_path / "coverage.json"
    mine = Coverage(path)
    Coverage(path).add(["R7.1"])  # another kernel
    coverage_view(coverage=mine)
    assert row(coverage_rows(mine), "R7")[1] == "1 of 1: R7.1"


# --------------------------------------------------------------------------- reachable
@cache
def used_by_tutorials() -> tuple[dict[str, str], dict[str, str]]:
    """The scenarios shown as a Lesson and the exercise topics, with the notebook using each."""
    lessons: dict[str, str] = {}
    topics: dict[str, str] = {}
    for notebook in sorted(TUTORIALS.glob("*.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        for name in re.findall(r'Lesson\(\s*"([^"]+)"', code):
            lessons.setdefault(name, notebook.name)
        for topic in re.findall(r'exercises\(\s*"([^"]+)"', code):
            topics.setdefault(topic, notebook.name)
    return lessons, topics


def _one_click(state) -> set[str]:
    """The rules a learner's single step from ``state`` can cause (every legal option)."""
    found: set[str] = set()
    for option in state.legal_options():
        after = state.copy()
        after.log = []
        after.apply(option)
        found |= rules_in(after.log)
    return found


def reachable() -> dict[str, set[str]]:
    """Rule ID -> where a learner of the tutorials meets it: a Lesson's board as shown, its
    scenario's moves, one click on it; an exercise's rules, one click on its board."""
    out: dict[str, set[str]] = {}

    def note(rules, where):
        for rule in rules:
            out.setdefault(rule, set()).add(where)

    lessons, topics = used_by_tutorials()
    for name, notebook in lessons.items():
        start = load(scenario_path(name)).state
        start.log = []
        note(rules_shown(start), f"{notebook}: Lesson {name} (shown)")
        note(_one_click(start), f"{notebook}: Lesson {name} (a click)")
        played = load(scenario_path(name))
        played.state.log = []
        played.play_moves()
        note(rules_in(played.state.log), f"{notebook}: Lesson {name} (its moves)")
    for topic, notebook in topics.items():
        for exercise in exercises_for(topic):
            answer = exercise.right_answer()
            if isinstance(answer, (list, tuple)):
                answer = answer[0]
            feedback = exercise.check(answer)
            assert feedback.valid and feedback.correct, exercise.id
            note(answer_rules(exercise, feedback), f"{notebook}: exercise {exercise.id}")
            note(_one_click(exercise.state()), f"{notebook}: exercise {exercise.id} (a click)")
    return out


def test_the_tutorials_use_lessons_and_exercises():
    lessons, topics = used_by_tutorials()
    assert len(lessons) >= 20 and len(topics) >= 10


def test_every_rule_id_is_reachable_from_some_tutorial():
    """Each ID of ALL_RULE_IDS (what the engine's events name, R2 to R10.8) can be marked by a
    learner doing the tutorials; R2 only through rules_shown (a Lesson of a set-up board)."""
    found = reachable()
    missing = [rule for rule in ALL_RULE_IDS if rule not in found]
    assert missing == [], f"no tutorial reaches {missing}"
    assert all("(shown)" in where for where in found["R2"])  # no event of a lesson names it
