"""The Practice view in the served Sandbox, as a learner uses it (#13 item 6).

The learner opens the Practice view, answers the generated exercise wrong, then right (the
verdict each time, then the rule IDs it tests, as links), and "Next exercise" brings another
exercise: the one the scheduler chooses after a wrong and a right answer; then the page's
language (中文, Deutsch) reaches the view. The expected exercises
are worked out here with the same seeds (the supply is deterministic). The level line says what
the exercise's level stands on: the server's calibration file is given nine answers to the first
exercise's kind beforehand, so the learner's first answer (only the first counts) calibrates it
and the line changes from the question's own level to the calibrated one, "from 10 learners'
answers", in English, then in Chinese and German. One server for the module (conftest.py);
Chromium missing is a failure, never a skip. Screenshots in artifacts/practice-*.png.
"""

from __future__ import annotations

import json
import re
import time

from playwright.sync_api import expect
from support import (
    ARTIFACTS,
    KERNEL_MS,
    LOAD_MS,
    STEP_MS,
    code_notebook,
    expect_verdict,
    give_answer,
    notebook_in_jupyterlab,
    wrong_and_right,
)

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files import calibration as C
from nefertiti_core.files import practice as P
from widgets.sandbox.practice import FIRST_SEEDS

expect.set_options(timeout=STEP_MS)


def _level_line(calibration: C.Calibration, g: P.Generated, lang: str) -> str:
    """The level line the view should show for ``g`` by ``calibration``."""
    level, answers, calibrated = calibration.level(g)
    if calibrated:
        return tr(lang, "calibration.level.answers", level=level, answers=answers)
    return tr(lang, "calibration.level.formula", level=level, answers=answers, needed=C.MIN_ANSWERS)


def test_practice_view_answer_wrong_then_right_then_next_shows_another_exercise(page, sandbox_home):
    mirror = C.Calibration()  # what the server's calibration holds, answer for answer
    expected = P.Scheduler(
        P.supply(FIRST_SEEDS), persist=False, seeds=FIRST_SEEDS, calibration=mirror
    )
    first = expected.next()
    wrong, right = wrong_and_right(first.exercise)
    # other learners' answers, nine of the ten a kind needs: all wrong (a hard kind)
    seeded = C.Calibration(sandbox_home / C.FILE)
    for _ in range(C.MIN_ANSWERS - 1):
        seeded.record(first, False)
        mirror.record(first, False)
    assert seeded.warning is None

    page.get_by_role("button", name="Practice", exact=True).click()
    view = page.locator(".practice-view")
    expect(view.locator(".exercise-prompt")).to_contain_text(
        first.exercise.prompt("en")[:60], timeout=LOAD_MS
    )
    expect(view.locator(".practice-info")).to_contain_text(f"Difficulty {first.difficulty} of 5")
    level = view.locator(".practice-level")
    expect(level).to_contain_text(_level_line(mirror, first, "en"))
    expect(level).to_contain_text("estimated from the question itself")
    expect(view.locator(".practice-table")).to_contain_text("decides now")
    expect(view.locator(".practice-rules")).to_contain_text("shown once you have answered")
    for rule in first.rule_ids:  # not before the answer: it would give it away
        expect(view.locator(".practice-rules")).not_to_contain_text(rule)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    view.screenshot(path=str(ARTIFACTS / "practice-question.png"))

    give_answer(page, view, first.exercise, wrong)
    expect_verdict(view, "wrong", "Not quite")
    expected.answered(first, False)  # the tenth answer: the kind is calibrated now
    calibrated = mirror.level(first)
    assert calibrated[1:] == (C.MIN_ANSWERS, True) and calibrated[0] > first.difficulty
    expect(level).to_contain_text(_level_line(mirror, first, "en"))
    expect(view.locator(".practice-info")).to_contain_text(f"Difficulty {calibrated[0]} of 5")
    rules = view.locator(".practice-rules")
    expect(rules).to_contain_text("Rules tested")
    for rule in first.rule_ids:
        expect(rules).to_contain_text(rule)
    link = rules.locator(f"[data-r='{first.rule_ids[0]}']").first
    expect(link).to_have_attribute("title", re.compile("^" + re.escape(first.rule_ids[0]) + " "))
    link.click()  # the rule's text opens in place
    expect(rules.locator(".nft").first).to_be_visible()

    give_answer(page, view, first.exercise, right)
    expect_verdict(view, "right", "Right")
    expect(level).to_contain_text(_level_line(mirror, first, "en"))  # a 2nd try is not counted
    view.screenshot(path=str(ARTIFACTS / "practice-answered.png"))

    expected.answered(first, True)
    second = expected.next()
    assert second.key != first.key
    view.locator(".practice-next").get_by_role("button").click()
    expect(view.locator(".exercise-prompt")).to_contain_text(second.exercise.prompt("en")[:60])
    expect(view.locator(".exercise-feedback .verdict-right")).to_have_count(0)
    expect(view.locator(".practice-rules")).to_contain_text("shown once you have answered")
    view.screenshot(path=str(ARTIFACTS / "practice-next.png"))

    # the page's language reaches the view: the question, its labels and the players' table
    page.get_by_role("button", name="中文", exact=True).click()
    expect(view.locator(".exercise-prompt")).to_contain_text(second.exercise.prompt("zh")[:20])
    expect(view.locator(".practice-next").get_by_role("button")).to_have_text("下一题")
    expect(view.locator(".practice-table")).to_contain_text("现在做决定")
    expect(level).to_contain_text(_level_line(mirror, second, "zh"))
    view.screenshot(path=str(ARTIFACTS / "practice-zh.png"))
    page.get_by_role("button", name="Deutsch", exact=True).click()
    expect(view.locator(".practice-next").get_by_role("button")).to_have_text("Nächste Übung")
    expect(level).to_contain_text(_level_line(mirror, second, "de"))
    view.screenshot(path=str(ARTIFACTS / "practice-de.png"))

    # a served page practises in memory: nothing written into the server's home for everyone
    assert not (sandbox_home / "practice.json").exists()
    # but the kinds' calibration is the server's: the answer is in its file (written off the
    # page's event loop, so it may land a moment after the page showed it)
    key, saved = C.kind_key(first), C.Calibration(sandbox_home / C.FILE)
    deadline = time.monotonic() + STEP_MS / 1000
    while saved.rating(key, first.difficulty).answers < C.MIN_ANSWERS:
        assert time.monotonic() < deadline, saved.kinds()
        time.sleep(0.1)
        saved.refresh()
    assert saved.kinds()[key].answers == C.MIN_ANSWERS and saved.warning is None


NOTEBOOK = code_notebook(
    "import panel as pn\npn.extension(inline=True)",
    "from widgets import Practice\nPractice()",
)


def test_practice_in_a_jupyterlab_notebook_answers_and_keeps_its_state_by_the_record(
    tmp_path, chromium
):
    """widgets.Practice() in a notebook: a wrong and a right answer reach the kernel (the
    learner record and practice.json in $NEFERTITI_HOME get them), Next shows another one."""
    expected = P.Scheduler(P.supply(FIRST_SEEDS), persist=False, seeds=FIRST_SEEDS)
    first = expected.next()
    wrong, right = wrong_and_right(first.exercise)
    expected.answered(first, False)
    expected.answered(first, True)
    second = expected.next()
    with notebook_in_jupyterlab(chromium, tmp_path, "practice.ipynb", NOTEBOOK) as page:
        view = page.locator(".practice-view")
        expect(view.locator(".exercise-prompt")).to_contain_text(
            first.exercise.prompt("en")[:60],
            timeout=KERNEL_MS,  # a kernel start on a loaded machine
        )
        give_answer(page, view, first.exercise, wrong)
        expect_verdict(view, "wrong", "Not quite")
        give_answer(page, view, first.exercise, right)
        expect_verdict(view, "right", "Right")
        expect(view.locator(".practice-rules")).to_contain_text("Rules tested")
        view.locator(".practice-next").get_by_role("button").click()
        expect(view.locator(".exercise-prompt")).to_contain_text(second.exercise.prompt("en")[:60])
        page.screenshot(path=str(ARTIFACTS / "practice-jupyterlab.png"))
        home = tmp_path / "home" / "nefertiti"
        saved = home / "practice.json"
        for _ in range(100):  # the record saves in a background thread
            if saved.exists() and (home / "coverage.json").exists():
                break
            time.sleep(0.1)
        state = json.loads(saved.read_text())
        assert state["step"] == 2
        assert {r: v["box"] for r, v in state["rules"].items()} == dict.fromkeys(first.rule_ids, 2)
        record = json.loads((home / "coverage.json").read_text())["rules"]
        for rule in first.rule_ids:
            assert record[rule].get("right") == 1 and record[rule].get("wrong") == 1
