"""The Practice view in the served Sandbox, as a learner uses it (#13 item 6).

The learner opens the Practice view, answers the generated exercise wrong, then right (the
verdict each time, then the rule IDs it tests, as links), and "Next exercise" brings another
exercise: the one the scheduler chooses after a wrong and a right answer; then the page's
language (中文, Deutsch) reaches the view. The expected exercises
are worked out here with the same seeds (the supply is deterministic). One server for the module
(conftest.py); Chromium missing is a failure, never a skip. Screenshots in artifacts/practice-*.png.
"""

from __future__ import annotations

import json
import re
import time

from playwright.sync_api import expect
from support import (
    ARTIFACTS,
    code_notebook,
    expect_verdict,
    give_answer,
    notebook_in_jupyterlab,
    wrong_and_right,
)

from nefertiti_core.files import practice as P
from widgets.sandbox.practice import FIRST_SEEDS

LOAD_MS = 60_000
STEP_MS = 30_000
expect.set_options(timeout=STEP_MS)


def test_practice_view_answer_wrong_then_right_then_next_shows_another_exercise(page, sandbox_home):
    expected = P.Scheduler(P.supply(FIRST_SEEDS), persist=False, seeds=FIRST_SEEDS)
    first = expected.next()
    wrong, right = wrong_and_right(first.exercise)

    page.get_by_role("button", name="Practice", exact=True).click()
    view = page.locator(".practice-view")
    expect(view.locator(".exercise-prompt")).to_contain_text(
        first.exercise.prompt("en")[:60], timeout=LOAD_MS
    )
    expect(view.locator(".practice-info")).to_contain_text(f"Difficulty {first.difficulty} of 5")
    expect(view.locator(".practice-table")).to_contain_text("decides now")
    expect(view.locator(".practice-rules")).to_contain_text("shown once you have answered")
    for rule in first.rule_ids:  # not before the answer: it would give it away
        expect(view.locator(".practice-rules")).not_to_contain_text(rule)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    view.screenshot(path=str(ARTIFACTS / "practice-question.png"))

    give_answer(page, view, first.exercise, wrong)
    expect_verdict(view, "wrong", "Not quite")
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
    view.screenshot(path=str(ARTIFACTS / "practice-answered.png"))

    expected.answered(first, False)
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
    view.screenshot(path=str(ARTIFACTS / "practice-zh.png"))
    page.get_by_role("button", name="Deutsch", exact=True).click()
    expect(view.locator(".practice-next").get_by_role("button")).to_have_text("Nächste Übung")
    view.screenshot(path=str(ARTIFACTS / "practice-de.png"))

    # a served page practises in memory: nothing written into the server's home for everyone
    assert not (sandbox_home / "practice.json").exists()


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
            timeout=180_000,  # a kernel start on a loaded machine
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
