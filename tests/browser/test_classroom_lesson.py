"""A whole lesson, as a teacher runs it, in Chromium against ``nefertiti serve``.

The teacher (a laptop, 1280 x 800, English) opens a room and keeps its record in a new class;
the projector (1024 x 768, another computer, by the renewable projector link) shows the table and
the join code. Four learners join: Jürgen on a phone (Playwright's Pixel 5: touch, device scale,
``is_mobile``; a German browser) by opening what the QR code says; 王芳 on a laptop who picks 中文
on the join form; Ana on a tablet (Galaxy Tab S4 emulation); Tom on a laptop. Each is shown a PIN.
The teacher seats the four and they play a round, each from their own page; every page passes
axe-core (no serious or critical violation). The teacher stages a chapter: the class sees its
title and teaching text in their languages, a step is played in it, and the class comes back to
its game, intact. A question is asked, answered by all four and revealed; the projector counts
and shows no name. The server is stopped and started again mid-lesson: every page comes back by
itself, at the same step and seat. Jürgen's phone dies: he comes back on a laptop with his PIN,
in the same seat, and the class plays on. The teacher downloads the class's per-rule record (CSV):
each learner's practised rules, and the question's rules right for three and wrong for Tom.

Screenshots: tests/browser/artifacts/classroom-lesson (looked at; described in the report).
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from axe import check as axe_check
from playwright.sync_api import expect
from support import ARTIFACTS, PIXEL_5, PIXEL_5_VIEWPORT, open_room, rows, wait_back, wait_rows
from test_classroom import LOAD_MS, STEP_MS, Class, Server, never_on_the_loop
from test_classroom_address import qr_link

from nefertiti_core import new_game
from nefertiti_core.engine.i18n import tr
from nefertiti_core.files import exercises as E
from widgets.classroom.chapters import shipped_scenario
from widgets.classroom.poll import Poll

SHOTS = ARTIFACTS / "classroom-lesson"
LAPTOP = {"width": 1280, "height": 800}
PROJECTOR = {"width": 1024, "height": 768}
PHONE = PIXEL_5_VIEWPORT
TABLET = {"width": 712, "height": 1138}
#: Playwright's "Galaxy Tab S4" descriptor, but its viewport (above).
GALAXY_TAB_S4 = dict(
    user_agent="Mozilla/5.0 (Linux; Android 8.1.0; SM-T837A) AppleWebKit/537.36 (KHTML, like "
    "Gecko) Chrome/120.0.0.0 Safari/537.36",
    device_scale_factor=2.25,
    is_mobile=True,
    has_touch=True,
)
COLOURS = new_game(4, 0).colours  # Blue, Black, Green, Red place in turn (R5.2)
#: Who sits where, in the order they play, and in which language their page is.
LEARNERS = {
    "Jürgen": ("blue", "de"),
    "王芳": ("black", "zh"),
    "Ana": ("green", "en"),
    "Tom": ("red", "en"),
}
CLASS_NAME = "7b Nefertiti"
POSITION = "abou-simbel-left-eleven"  # a shipped position, staged as a chapter
CLASS_GAME = tr("en", "chapters.chapter", n=1, title=tr("en", "chapters.class_game"))
WHO = "welcome/who-plays-next"  # the first lesson's question: who decides next (Red)


def shot(page, name: str, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def step_marker(step: int) -> str:
    """The table's step as each page shows it (a learner's status line, the teacher's people
    card, the projector's status line)."""
    return (
        f".room-status[data-step='{step}'], .room-table-step[data-step='{step}'], "
        f".room-projector-status [data-step='{step}']"
    )


def expect_step(page, step: int, timeout: int = STEP_MS) -> None:
    expect(page.locator(step_marker(step))).to_have_count(1, timeout=timeout)


def choice_label(key: str, lang: str) -> str:
    return dict(Poll(f"lesson:{WHO}", ["x"]).choices(lang))[key]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("classroom-lesson-home"))
    server.start()
    yield server
    server.stop()
    never_on_the_loop(server)


@pytest.fixture()
def klass(chromium, server):
    klass = Class(chromium, server)
    yield klass
    klass.close()
    assert not klass.errors, f"JavaScript errors in the pages: {klass.errors}"


class Lesson:
    """The pages of the lesson by role: the teacher, the projector, each learner's."""

    def __init__(self, klass, server):
        self.klass, self.server = klass, server
        self.teacher = klass.page(LAPTOP, locale="en-GB", accept_downloads=True)
        self.projector = None
        self.learners: dict[str, object] = {}
        self.pins: dict[str, str] = {}
        self.code = ""

    def pages(self) -> dict[str, object]:
        return {"teacher": self.teacher, "projector": self.projector, **self.learners}

    # ---------------------------------------------------------------- the room and who is in it
    def open_room(self) -> None:
        teacher = self.teacher
        self.code = open_room(teacher, self.server.base)
        # the room's record is kept in a class, which outlives the room
        panel = teacher.locator(".class-panel")
        teacher.locator(".class-new-name input").fill(CLASS_NAME)
        teacher.locator(".class-keep button").click()
        expect(panel.locator(".class-name")).to_have_text(CLASS_NAME)

    def export_record(self, folder) -> list[list[str]]:
        """The class's per-rule record as the teacher downloads it (CSV), read back."""
        panel = self.teacher.locator(".class-panel")
        with self.teacher.expect_download() as download:
            panel.locator(".class-export-rules").click()
        path = folder / "record.csv"
        download.value.save_as(path)
        raw = path.read_bytes()
        assert raw.startswith(b"\xef\xbb\xbf"), raw[:10]  # UTF-8 with a BOM (Excel)
        return list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))

    def open_projector(self) -> None:
        """The projector link on a computer of its own (no key in its address)."""
        self.teacher.locator(".room-projector-link-button button").click()
        url = self.teacher.locator(".room-projector-url")
        expect(url).to_contain_text("/projector?room=")
        projector = self.klass.page(PROJECTOR, locale="en-GB")
        projector.goto(url.inner_text().strip(), timeout=LOAD_MS)
        shown = f"{self.code[:4]} {self.code[4:]}"
        expect(projector.locator(".room-join-code")).to_have_text(shown, timeout=LOAD_MS)
        assert "projector=" not in projector.url
        self.projector = projector

    def join(self, name: str) -> None:
        colour, lang = LEARNERS[name]
        if name == "Jürgen":  # a phone, which opens what the QR code says
            page = self.klass.page(PHONE, locale="de-DE", **PIXEL_5)
            page.goto(qr_link(self.teacher), timeout=LOAD_MS)
        elif name == "Ana":
            page = self.klass.page(TABLET, locale="en-GB", **GALAXY_TAB_S4)
            page.goto(f"{self.server.base}/join?code={self.code}", timeout=LOAD_MS)
        else:
            page = self.klass.page(LAPTOP, locale="en-US")
            page.goto(f"{self.server.base}/join", timeout=LOAD_MS)
            page.locator(".room-code-input input").fill(self.code)
            if lang != "en":  # she picks her language on the join form
                page.locator(".room-join-form").get_by_role(
                    "button", name=tr(lang, f"panel.lang.{lang}"), exact=True
                ).click(timeout=LOAD_MS)
        expect(page.locator(".room-join button")).to_have_text(tr(lang, "room.join"))
        page.locator(".room-name-input input").fill(name)
        page.locator(".room-join button").click(timeout=LOAD_MS)
        expect(page.locator(".room-status")).to_contain_text(name, timeout=LOAD_MS)
        # the PIN that brings them back on another device, shown once
        self.pins[name] = page.locator(".room-pin-note b").inner_text(timeout=STEP_MS).strip()
        assert re.fullmatch(r"[0-9]{4}", self.pins[name]), self.pins[name]
        self.learners[name] = page

    def seat_everyone(self) -> None:
        for number, (name, (colour, _lang)) in enumerate(LEARNERS.items(), start=1):
            seat = COLOURS.index(colour)
            self.teacher.locator(f".room-seat-{seat} select").select_option(
                label=f"{name} (#{number})"
            )
            status = self.learners[name].locator(".room-status")
            expect(status).to_have_attribute("data-seat", str(seat), timeout=STEP_MS)

    # ---------------------------------------------------------------- play
    def play_round(self, first_step: int) -> int:
        """Each learner places the servant their decision panel offers, in turn order; every
        page follows each step."""
        step = first_step
        for name, (_colour, lang) in LEARNERS.items():
            page = self.learners[name]
            place = tr(lang, "panel.decision.place")
            page.get_by_role("button", name=place, exact=True).click()
            step += 1
            for each in self.pages().values():
                expect_step(each, step)
        return step

    def play_on(self, step: int, steps: int) -> int:
        """``steps`` more steps, whatever the table asks (placements, a closing's choices): the
        learner whose page says it is their turn takes the first thing their page offers."""
        for _ in range(steps):
            deciding = [
                name
                for name, page in self.learners.items()
                if page.locator(".room-your-turn").count()
            ]
            assert len(deciding) == 1, deciding
            page = self.learners[deciding[0]]
            lang = LEARNERS[deciding[0]][1]
            place = page.get_by_role("button", name=tr(lang, "panel.decision.place"), exact=True)
            if place.is_visible():
                place.click()
            else:  # a closing's choice, a character's: the first option button
                page.locator(".room-decision button:visible").first.click()
            step += 1
            for each in self.pages().values():
                expect_step(each, step)
        return step

    def new_device(self, name: str, step: int) -> None:
        """``name``'s device is gone: on a laptop (no cookie) the code and name ask for the
        PIN, which brings the same learner back to the same seat; the old page is told."""
        colour, lang = LEARNERS[name]
        old = self.learners[name]
        laptop = self.klass.page(LAPTOP, locale="de-DE" if lang == "de" else "en-GB")
        laptop.goto(f"{self.server.base}/join?code={self.code}", timeout=LOAD_MS)
        laptop.locator(".room-name-input input").fill(name)
        laptop.locator(".room-join button").click(timeout=LOAD_MS)
        expect(laptop.locator(".room-rejoin")).to_contain_text(name, timeout=LOAD_MS)
        laptop.locator(".room-pin-input input").fill(self.pins[name])
        laptop.locator(".room-pin-go button").click()
        status = laptop.locator(".room-status")
        expect(status).to_have_attribute("data-seat", str(COLOURS.index(colour)), timeout=LOAD_MS)
        expect_step(laptop, step)
        expect(self.teacher.locator(".room-person")).to_have_count(len(LEARNERS))  # no twin
        expect(old.locator(".room-moved")).to_be_visible(timeout=STEP_MS)
        expect(old.get_by_role("button")).to_have_count(0)
        shot(old, f"{name}-old-device-moved")
        shot(laptop, f"{name}-new-device")
        self.learners[name] = laptop

    def confirm(self, says: str) -> None:
        """The teacher's page asks before the whole class moves: Yes."""
        expect(self.teacher.locator(".room-confirm-text")).to_contain_text(says)
        self.teacher.locator(".room-confirm-yes button").click()
        expect(self.teacher.locator(".room-confirm")).to_be_hidden()

    def a_chapter_and_back(self, step: int) -> None:
        """A position staged as chapter 2: everyone sees its title and teaching text in their
        language; a step is played in it; back to chapter 1, the class game is where it was."""
        teacher = self.teacher
        servants = rows(teacher, "board-servants")
        scenario = shipped_scenario(POSITION)
        teacher.locator(".room-stage-what select").select_option(label=scenario.title_in("en"))
        teacher.locator(".room-stage button").click()
        self.confirm(scenario.title_in("en"))
        for name, page in self.pages().items():
            lang = LEARNERS[name][1] if name in LEARNERS else "en"
            note = page.locator(".room-chapter-note[data-chapter='2']")
            expect(note).to_contain_text(scenario.title_in(lang), timeout=STEP_MS)
        expect(self.learners["王芳"].locator(".room-chapter-teaching")).to_contain_text(
            scenario.teaching_in("zh").strip()[:20]
        )
        shot(self.projector, "projector-chapter")
        shot(self.learners["Jürgen"], "phone-de-chapter")
        self.play_on(0, 1)  # the chapter's first step, by the learner whose seat decides
        teacher.locator(".room-chapter-pick select").select_option(label=CLASS_GAME)
        teacher.locator(".room-chapter-show button").click()
        self.confirm(tr("en", "chapters.class_game"))
        for page in self.pages().values():
            expect_step(page, step)
            expect(page.locator(".room-chapter-note[data-chapter='1']")).to_have_count(1)
        wait_rows(teacher, "board-servants", f"n == {servants}", timeout=STEP_MS)

    def ask_and_reveal(self) -> None:
        teacher, projector = self.teacher, self.projector
        teacher.locator(".poll-pick select").select_option(index=0)  # the first lesson's: WHO
        teacher.locator(".poll-push button").click()
        for name, (_colour, lang) in LEARNERS.items():
            card = self.learners[name].locator(".room-poll .poll-card")
            expect(card.locator(".poll-card-question")).to_contain_text(
                E.EXERCISES[WHO].prompt(lang)[:40], timeout=STEP_MS
            )
        box = projector.locator(".room-poll-projected")
        expect(box.locator(".poll-question")).to_contain_text(E.EXERCISES[WHO].prompt("en")[:40])
        shot(projector, "projector-asked")
        shot(self.learners["Jürgen"], "phone-de-asked")
        # Tom answers wrong, the others right (Red decides next)
        for name, (_colour, lang) in LEARNERS.items():
            key = "blue" if name == "Tom" else "red"
            card = self.learners[name].locator(".room-poll .poll-card")
            card.get_by_role("button", name=choice_label(key, lang), exact=True).click()
            expect(card.locator(".poll-your-answer")).to_contain_text(choice_label(key, lang))
        expect(teacher.locator(".poll-progress")).to_contain_text("4 of 4")
        expect(box.locator(".poll-bar")).to_have_count(0)  # counts only before the reveal
        teacher.locator(".poll-reveal-button button").click()
        expect(box.locator(".poll-bar[data-key='red'] .poll-bar-count")).to_have_text("3")
        expect(box.locator(".poll-bar[data-key='blue'] .poll-bar-count")).to_have_text("1")
        for name in LEARNERS:
            assert name not in projector.locator("body").inner_text(), name
        shot(projector, "projector-revealed")
        shot(self.learners["王芳"], "laptop-zh-revealed")


def test_a_whole_lesson_with_a_projector_and_four_learners(klass, server, tmp_path):
    lesson = Lesson(klass, server)
    lesson.open_room()
    lesson.open_projector()
    for name in LEARNERS:
        lesson.join(name)
    expect(lesson.teacher.locator(".room-person")).to_have_count(4)
    lesson.seat_everyone()
    shot(lesson.teacher, "teacher-seated")
    shot(lesson.projector, "projector-seated")

    step = lesson.play_round(0)
    for name, page in lesson.pages().items():
        wait_rows(page, "board-servants", "n == 4", timeout=STEP_MS)
        shot(page, f"{name}-after-the-round")
        axe_check(page, f"the lesson's {name} page")  # no serious or critical violation

    lesson.a_chapter_and_back(step)

    lesson.ask_and_reveal()

    # a restart mid-lesson: no page is reloaded by the test
    urls = {name: page.url for name, page in lesson.pages().items()}
    server.stop()
    server.start()
    for name, page in lesson.pages().items():
        wait_back(page, timeout=LOAD_MS)
        assert page.url == urls[name], name
        expect_step(page, step, timeout=LOAD_MS)
    for name, (colour, _lang) in LEARNERS.items():
        status = lesson.learners[name].locator(".room-status")
        expect(status).to_have_attribute("data-seat", str(COLOURS.index(colour)))
    for name, page in lesson.pages().items():
        shot(page, f"{name}-after-the-restart")
    expect(lesson.teacher.locator(".room-person")).to_have_count(4)  # nobody joined twice

    # Jürgen's phone dies: he comes back on a laptop with his PIN, and plays on
    lesson.new_device("Jürgen", step)
    step = lesson.play_on(step, 4)
    shot(lesson.teacher, "teacher-second-round")

    # what each learner practised and answered, per rule: the teacher's export
    rows = lesson.export_record(tmp_path)
    assert rows[0] == [tr("en", f"class.csv.{c}") for c in
                       ("learner", "rule", "title", "practised", "right", "wrong")]  # fmt: skip
    counts = {(row[0], row[1]): [int(v) for v in row[3:]] for row in rows[1:]}
    assert {name for name, _rule in counts} == set(LEARNERS)
    for name in LEARNERS:  # each placed a servant in the first round, by some rule of R5
        practised = {rule: c[0] for (who, rule), c in counts.items() if who == name and c[0]}
        assert any(rule.startswith("R5.") for rule in practised), (name, practised)
    # the question tests who decides next: Tom answered wrong, the others right
    asked = {rule for (name, rule), (_p, right, wrong) in counts.items() if right or wrong}
    assert asked, counts
    for rule in asked:
        assert counts[("Tom", rule)][1:] == [0, 1], (rule, counts[("Tom", rule)])
        assert counts[("Ana", rule)][1:] == [1, 0], (rule, counts[("Ana", rule)])
    shot(lesson.teacher, "teacher-record", full_page=True)
