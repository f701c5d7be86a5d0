"""A class's record across two lessons, in Chromium against ``nefertiti serve``.

A teacher (German, 1024 x 768: the projector) opens a room and keeps its record in a new class;
two learners join: Jürgen on a laptop, 王小明 on a phone (Pixel 5, Chinese). Each makes a move
from their own seat and answers a class question, which the teacher reveals; the class card
shows the rules, weakest first. The room is closed. A second room is opened for the same class
(chosen from this browser's classes: its key is in an HttpOnly cookie), 王小明 rejoins it by
name from the phone, moves and answers again: the record now spans both lessons. The teacher
downloads both CSV exports (Playwright's download API) and the test reads them: UTF-8 with a
BOM, one row per learner and rule, 王小明's two answers from two rooms. A learner asking for
the same export gets 403 and a sentence saying who may.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from playwright.sync_api import expect
from support import ARTIFACTS, PIXEL_5, PIXEL_5_VIEWPORT, join_room
from test_classroom import LOAD_MS, Class, Server, never_on_the_loop

from nefertiti_core import new_game
from nefertiti_core.engine.i18n import tr
from widgets.classroom.poll import Poll

SHOTS = ARTIFACTS / "class-record"
WHO = "lesson:welcome/who-plays-next"
CLASS_NAME = "Klasse 7b"
FIRST = new_game(4, 0).decider  # the seat that decides first


def label(key: str, lang: str) -> str:
    return dict(Poll(WHO, ["x"]).choices(lang))[key]


def shot(page, name: str, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("class-record-home"))
    server.start()
    yield server
    server.stop()
    never_on_the_loop(server)


@pytest.fixture(scope="module")
def klass(chromium, server):
    klass = Class(chromium, server)
    klass.teacher.context.close()  # the teacher's own: German, and taking downloads
    klass.teacher = klass.page(
        {"width": 1024, "height": 768}, locale="de-DE", accept_downloads=True
    )
    yield klass
    klass.close()
    assert not klass.errors, f"JavaScript errors in the pages: {klass.errors}"


def open_room(klass, server) -> str:
    teacher = klass.teacher
    teacher.goto(f"{server.base}/classroom", timeout=LOAD_MS)
    teacher.locator(".room-open button").click(timeout=LOAD_MS)
    expect(teacher.locator(".room-join-code")).to_be_visible(timeout=LOAD_MS)
    expect(teacher.locator(".class-panel")).to_contain_text(tr("de", "class.panel.title"))
    return teacher.locator(".room-code").inner_text().strip()


def seat_and_move(klass, page, name: str, number: int, lang: str) -> None:
    """The teacher gives the deciding seat to ``name`` (#``number``), who places a servant."""
    teacher = klass.teacher
    step = int(teacher.locator(".room-table-step").get_attribute("data-step"))
    seat = (FIRST + step) % 4  # the first placements go round the table
    teacher.locator(f".room-seat-{seat} select").select_option(label=f"{name} (#{number})")
    expect(page.locator(".room-your-turn")).to_be_visible()
    page.get_by_role("button", name=tr(lang, "panel.decision.place"), exact=True).click()
    expect(teacher.locator(f".room-table-step[data-step='{step + 1}']")).to_have_count(1)


def ask_and_reveal(klass, answers: dict) -> None:
    """The teacher asks the first lesson's question; each page answers; the teacher reveals."""
    teacher = klass.teacher
    teacher.locator(".poll-pick select").select_option(index=0)
    teacher.locator(".poll-push button").click()
    for page, (key, lang) in answers.items():
        card = page.locator(".room-poll .poll-card")
        card.get_by_role("button", name=label(key, lang), exact=True).click()
        expect(card.locator(".poll-your-answer")).to_contain_text(label(key, lang))
    total = len(answers)
    expect(teacher.locator(".poll-progress")).to_contain_text(f"{total} von {total}")
    teacher.locator(".poll-reveal-button button").click()
    expect(teacher.locator(".poll-result")).to_be_visible()


def test_a_class_record_spans_two_lessons_and_exports_as_csv(klass, server, tmp_path):
    teacher = klass.teacher
    # ---- the first lesson: a new class
    code = open_room(klass, server)
    panel = teacher.locator(".class-panel")
    expect(panel).to_contain_text(tr("de", "class.panel.not_kept")[:40])
    teacher.locator(".class-new-name input").fill(CLASS_NAME)
    teacher.locator(".class-keep button").click()
    expect(panel.locator(".class-name")).to_have_text(CLASS_NAME)
    for _ in range(300):  # the class's key: an HttpOnly cookie the server sets
        kept = {c["name"]: c for c in teacher.context.cookies()}
        if "nefertiti_class" in kept:
            break
        teacher.wait_for_timeout(100)
    cookie = kept["nefertiti_class"]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert cookie["value"] not in server.log.read_text()
    juergen = klass.join(code, "Jürgen", {"width": 800, "height": 700}, link=True)
    phone = klass.join(code, "王小明", PIXEL_5_VIEWPORT, link=True, locale="zh-CN", **PIXEL_5)
    expect(teacher.locator(".room-person")).to_have_count(2)
    seat_and_move(klass, juergen, "Jürgen", 1, "en")
    seat_and_move(klass, phone, "王小明", 2, "zh")
    ask_and_reveal(klass, {juergen: ("red", "en"), phone: ("green", "zh")})
    record = panel.locator(".class-record")
    expect(record.locator(".class-learner")).to_have_count(2)
    expect(record.locator(".class-rule").first).to_be_visible()
    expect(record).to_contain_text("王小明")
    # the class's totals: the question (who plays next) tests R5.5, its reason's rule: one right,
    # one wrong; the one placement made at the table is practice of R5.2
    expect(record.locator(".class-rule[data-rule='R5.5'] td").nth(1)).to_have_text(
        re.compile(r"^1✓ 1✗ \d+▶$")
    )
    expect(record.locator(".class-rule[data-rule='R5.2'] td").nth(1)).to_have_text("0✓ 0✗ 1▶")
    shot(teacher, "teacher-1024-class-record-de", full_page=True)
    teacher.locator(".room-close button").click()

    # ---- the second lesson: the same class, chosen from this browser's classes
    code2 = open_room(klass, server)
    assert code2 != code
    choose = teacher.locator(".class-choose select")
    expect(choose.locator("option", has_text=CLASS_NAME)).to_have_count(1)
    choose.select_option(label=CLASS_NAME)
    teacher.locator(".class-keep button").click()
    expect(panel.locator(".class-name")).to_have_text(CLASS_NAME)
    join_room(
        phone, server.base, code2, "王小明", link=True
    )  # rejoins by name, from the same phone
    expect(teacher.locator(".room-person")).to_have_count(1)
    seat_and_move(klass, phone, "王小明", 1, "zh")
    ask_and_reveal(klass, {phone: ("red", "zh")})
    # the record spans both lessons: still two learners, 王小明 once
    expect(record.locator(".class-learner")).to_have_count(2)
    expect(record.locator(".class-learner", has_text="王小明")).to_have_count(1)
    expect(record.locator(".class-rule[data-rule='R5.5'] td").nth(1)).to_have_text(
        re.compile(r"^2✓ 1✗ \d+▶$")
    )
    panel.scroll_into_view_if_needed()
    shot(teacher, "teacher-1024-second-lesson-de")
    shot(phone, "phone-pixel5-second-lesson-zh")

    # ---- the exports: the teacher downloads both
    files = {}
    for part in ("rules", "questions"):
        with teacher.expect_download() as download:
            panel.locator(f".class-export-{part}").click()
        path = tmp_path / f"{part}.csv"
        download.value.save_as(path)
        raw = path.read_bytes()
        assert raw.startswith(b"\xef\xbb\xbf"), raw[:10]  # UTF-8 with a BOM (Excel)
        files[part] = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    rules = files["rules"]
    assert rules[0] == [tr("de", f"class.csv.{c}") for c in
                        ("learner", "rule", "title", "practised", "right", "wrong")]  # fmt: skip
    learners = {row[0] for row in rules[1:]}
    assert learners == {"Jürgen", "王小明"}
    rule_ids = {row[1] for row in rules[1:]}
    assert len(rules) - 1 == 2 * len(rule_ids)  # one row per learner and rule
    # 王小明 practised at both lessons' tables (two placements: R5.2/R5.3), answered both
    practised = sum(int(row[3]) for row in rules[1:] if row[0] == "王小明")
    assert practised >= 2
    counts = {(row[0], row[1]): [int(v) for v in row[3:]] for row in rules[1:]}
    assert counts[("Jürgen", "R5.5")][1:] == [1, 0]  # right once, wrong never
    assert counts[("王小明", "R5.5")][1:] == [1, 1]  # wrong in the first lesson, right after
    wang = [row for row in files["questions"][1:] if row[0] == "王小明"]
    assert len(wang) == 2 and len({row[2] for row in wang}) == 2  # two rooms
    assert {row[2] for row in wang} == {code, code2}
    assert [row[5] for row in wang] == [tr("de", "class.csv.no"), tr("de", "class.csv.yes")]
    juergen_rows = [row for row in files["questions"][1:] if row[0] == "Jürgen"]
    assert [row[4] for row in juergen_rows] == [label("red", "de")]

    # ---- a learner (or anyone without the class's key) gets 403 and a sentence
    href = panel.locator(".class-export-rules").get_attribute("href")
    answer = phone.request.get(f"{server.base}{href}")
    assert answer.status == 403
    assert tr("de", "class.export.forbidden") in answer.text()
    assert "王小明" not in answer.text()
