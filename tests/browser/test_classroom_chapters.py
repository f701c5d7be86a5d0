"""A room's chapters in Chromium against ``nefertiti serve``: staging a position never loses the
class game.

The teacher (1024 x 768, English) opens a room and its projector view; a learner on an emulated
Pixel 5 in German and one at 1024 x 768 who picked 中文 join. The teacher plays a step of the
class game, then stages a shipped position (picked by its English title; asked first: "the
class game stays as chapter 1"): every page shows the chapter's title and teaching text in its
own language, compact on the phone. A step in the chapter; back to the class game (asked first),
which is exactly where it was; the position staged again reopens its chapter with its step. A
bad position file is refused with its line and problem, nothing changed; a good one becomes a
chapter. The German learner breaks away; "Bring everyone back" ends it and her page says why.
The teacher plays a step in the Sandbox in the same browser. The server is stopped and started
again: the chapters are back; the teacher's own Sandbox game becomes a chapter; the class game
is where it was.

Screenshots: tests/browser/artifacts/classroom-chapters (looked at; described in the report).
"""

from __future__ import annotations

import html

import pytest
from playwright.sync_api import expect
from support import (
    ARTIFACTS,
    PIXEL_5,
    PIXEL_5_VIEWPORT,
    open_room,
    rows,
    wait_back,
    wait_rows,
    wait_saved,
)
from test_classroom import LOAD_MS, STEP_MS, Class, Server, never_on_the_loop
from test_restart import play_square, token_of, wait_loaded

from nefertiti_core.engine.i18n import tr
from widgets.classroom.chapters import shipped_scenario

SHOTS = ARTIFACTS / "classroom-chapters"
CLASS_GAME_LABEL = tr("en", "chapters.chapter", n=1, title=tr("en", "chapters.class_game"))
SCREEN = {"width": 1024, "height": 768}
PHONE = PIXEL_5_VIEWPORT
POSITION = "abou-simbel-left-eleven"
BAD_FILE = b"nefertiti: 1\nplayers:\n  - {colour: green}\n  - {colour: red}\n  - {colour: pink}\n"
GOOD_FILE = (
    "nefertiti: 1\ntitle:\n  en: Three at the table\n  de: Zu dritt am Tisch\n  zh: 三人牌桌\n"
    "players:\n  - {colour: green}\n  - {colour: red}\n  - {colour: blue}\n"
    "teaching:\n  en: |\n    Three players: look at the stalls.\n"
    "  de: |\n    Drei Personen: Sieh dir die Preistabellen an.\n"
    "  zh: |\n    三名玩家：看看各个大厅。\n"
).encode()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("classroom-chapters-home"))
    server.start()
    yield server
    server.stop()
    never_on_the_loop(server)


@pytest.fixture(scope="module")
def klass(chromium, server):
    klass = Class(chromium, server)
    yield klass
    klass.close()
    assert not klass.errors, f"JavaScript errors in the pages: {klass.errors}"


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def expect_at(page, step: int, chapter: int) -> None:
    """The page's table at ``step`` of ``chapter`` (the teacher's people card, a learner's
    status line; the chapter note, or none for the class game alone)."""
    expect(
        page.locator(f".room-status[data-step='{step}'], .room-table-step[data-step='{step}']")
    ).to_have_count(1, timeout=STEP_MS)
    expect(page.locator(f".room-chapter-note[data-chapter='{chapter}']")).to_have_count(1)


def confirm(teacher, says: str) -> None:
    """The question the page asks first: its words, then Yes."""
    expect(teacher.locator(".room-confirm-text")).to_contain_text(says)
    teacher.locator(".room-confirm-yes button").click()
    expect(teacher.locator(".room-confirm")).to_be_hidden()


def place(page) -> None:
    page.locator(".room-decision").get_by_role("button", name="Place", exact=True).click()


def test_chapters_keep_the_class_game(klass, server):
    teacher = klass.teacher
    code = open_room(teacher, server.base)
    with teacher.context.expect_page() as opened:
        teacher.locator(".room-projector-open a").click()
    projector = opened.value
    projector.on("pageerror", lambda error: klass.errors.append(str(error)))
    projector.set_viewport_size(SCREEN)
    expect(projector.locator(".room-join-code")).to_be_visible(timeout=LOAD_MS)
    german = klass.join(code, "Jürgen", PHONE, locale="de-DE", **PIXEL_5)
    chinese = klass.join(code, "王芳", SCREEN, lang="zh", locale="en-US")

    # a step of the class game
    place(teacher)
    expect(teacher.locator(".room-table-step[data-step='1']")).to_have_count(1)
    wait_rows(teacher, "board-servants", "n >= 1", timeout=LOAD_MS)
    class_servants = rows(teacher, "board-servants")

    # the list shows titles in the class's language, never file names
    scenario = shipped_scenario(POSITION)
    select = teacher.locator(".room-stage-what select")
    labels = select.locator("option").all_inner_texts()
    assert scenario.title_in("en") in labels and POSITION not in labels, labels[:5]
    select.select_option(label=scenario.title_in("en"))
    teacher.locator(".room-stage button").click()
    # asked first; Cancel changes nothing
    expect(teacher.locator(".room-confirm-text")).to_contain_text("chapter 1")
    teacher.locator(".room-confirm-no button").click()
    expect(teacher.locator(".room-chapter")).to_have_count(1)
    teacher.locator(".room-stage button").click()
    confirm(teacher, tr("en", "chapters.confirm_show", title=scenario.title_in("en")))
    expect(teacher.locator(".room-chapter")).to_have_count(2)
    for page, lang in ((teacher, "en"), (projector, "en"), (german, "de"), (chinese, "zh")):
        note = page.locator(".room-chapter-note[data-chapter='2']")
        expect(note).to_contain_text(scenario.title_in(lang), timeout=STEP_MS)
    # the teaching text: the Chinese learner's open at once; the phone's folded to one line
    expect(chinese.locator(".room-chapter-teaching")).to_contain_text(
        scenario.teaching_in("zh").strip()[:20]
    )
    expect(projector.locator(".room-chapter-teaching")).to_contain_text(
        scenario.teaching_in("en").strip()[:30]
    )
    phone_note = german.locator(".room-chapter-note")
    box = phone_note.bounding_box()
    assert box is not None and box["height"] < 90, box  # no big band above the board
    german.locator(".room-chapter-note summary").click()
    expect(german.locator(".room-chapter-teaching")).to_contain_text(
        scenario.teaching_in("de").strip()[:25]
    )
    shot(german, "phone-de-chapter")
    shot(chinese, "learner-zh-1024-chapter")
    shot(projector, "projector-1024-chapter")

    # a step in the chapter, then back to the class game: where it was
    expect_at(teacher, 0, 2)
    place(teacher)
    expect_at(teacher, 1, 2)
    pick = teacher.locator(".room-chapter-pick select")
    pick.select_option(label=CLASS_GAME_LABEL)
    teacher.locator(".room-chapter-show button").click()
    confirm(teacher, tr("en", "chapters.class_game"))
    for page in (teacher, german, chinese):
        expect_at(page, 1, 1)
    expect(german.locator(".room-chapter-title")).to_have_text(tr("de", "chapters.class_game"))
    wait_rows(teacher, "board-servants", f"n == {class_servants}", timeout=STEP_MS)
    # the position staged again: its chapter, with its step
    select.select_option(label=scenario.title_in("en"))
    teacher.locator(".room-stage button").click()
    confirm(teacher, scenario.title_in("en"))
    expect_at(teacher, 1, 2)
    expect(teacher.locator(".room-chapter")).to_have_count(2)

    # a bad file: its line and problem, nothing changed; a good one: a chapter
    files = teacher.locator(".room-chapter-file input[type=file]")
    files.set_input_files(
        files=[{"name": "broken.yaml", "mimeType": "text/yaml", "buffer": BAD_FILE}]
    )
    status = teacher.locator(".room-chapter-file-status")
    expect(status).to_contain_text("broken.yaml cannot be used: line 5:", timeout=LOAD_MS)
    expect(status).to_contain_text("pink")
    expect(teacher.locator(".room-chapter")).to_have_count(2)
    expect_at(teacher, 1, 2)
    files.set_input_files(
        files=[{"name": "three.yaml", "mimeType": "text/yaml", "buffer": GOOD_FILE}]
    )
    confirm(teacher, "Three at the table")
    expect(teacher.locator(".room-chapter")).to_have_count(3)
    expect(status).to_contain_text("three.yaml", timeout=STEP_MS)
    expect(german.locator(".room-chapter-title")).to_have_text("Zu dritt am Tisch")
    expect(chinese.locator(".room-chapter-title")).to_have_text("三人牌桌")
    shot(teacher, "teacher-1024-three-chapters")

    # the German learner breaks away; the teacher brings everyone back
    german.locator(".room-away button").click()
    expect(german.locator(".room-status")).to_have_attribute("data-away", "1")
    teacher.locator(".room-bring-back button").click()
    confirm(teacher, "Three at the table")
    expect(german.locator(".room-status")).to_have_attribute("data-away", "0")
    said = tr("de", "chapters.brought_back", title="Zu dritt am Tisch")
    expect(german.locator(".room-error")).to_contain_text(html.unescape(said))
    shot(german, "phone-de-brought-back")

    # the teacher plays in the Sandbox in this browser (autosaved), for a chapter after the restart
    sandbox = teacher.context.new_page()
    sandbox.goto(f"{server.base}/tutor", timeout=LOAD_MS)
    wait_loaded(sandbox)
    play_square(sandbox)
    wait_saved(server.home, token_of(sandbox), [], 1)
    sandbox.close()

    # a restart: the chapters are back, and the class game where it was
    server.stop()
    server.start()
    for page in (teacher, german, chinese):
        wait_back(page, timeout=LOAD_MS)
    expect(teacher.locator(".room-chapter")).to_have_count(3, timeout=LOAD_MS)
    expect(teacher.locator(".room-chapter[data-current='1']")).to_have_attribute(
        "data-chapter", "3"
    )
    expect(german.locator(".room-chapter-title")).to_have_text("Zu dritt am Tisch")
    # the teacher's own Sandbox game (this browser's cookie): a chapter with its step
    teacher.locator(".room-chapter-sandbox button").click()
    confirm(teacher, tr("en", "chapters.sandbox_title"))
    expect(teacher.locator(".room-chapter")).to_have_count(4)
    expect_at(teacher, 1, 4)
    expect(chinese.locator(".room-chapter-title")).to_have_text(tr("zh", "chapters.sandbox_title"))
    pick = teacher.locator(".room-chapter-pick select")
    pick.select_option(label=CLASS_GAME_LABEL)
    teacher.locator(".room-chapter-show button").click()
    confirm(teacher, tr("en", "chapters.class_game"))
    for page in (teacher, german, chinese):
        expect_at(page, 1, 1)
    wait_rows(teacher, "board-servants", f"n == {class_servants}", timeout=LOAD_MS)
    shot(teacher, "teacher-1024-class-game-after-restart")
