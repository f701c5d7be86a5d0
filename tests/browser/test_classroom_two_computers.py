"""Two computers against one classroom server (#29 items 1, 5), in Chromium.

The server sees each browser by its address: computer A's pages come straight from 127.0.0.1,
computer B's through a forwarder whose connections leave from 127.0.0.9 (tests/browser/support.py
``Forwarder``), so the server's per-client caps see two computers.

1. **One computer cannot take every room**: A opens three rooms; its fourth is refused in words
   (the cap per address); B still opens one.
2. **A removed learner cannot come back**: a learner on B's phone (an emulated Pixel 5, in
   German) joins B's room; the teacher removes her; her page says so; joining again from the
   same phone, under the same name, is refused, and so is a look-alike of it (a Cyrillic "А")
   from another phone (in Chinese); a different learner still joins.

Chromium missing is a failure.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support import ARTIFACTS, PIXEL_5, PIXEL_5_VIEWPORT, Forwarder, Served, join_room
from test_classroom import LOAD_MS, STEP_MS

from nefertiti_core.engine.i18n import tr
from widgets.classroom.room import MAX_ROOMS_PER_CLIENT

SHOTS = ARTIFACTS / "classroom-two-computers"


@pytest.fixture(scope="module")
def computers(tmp_path_factory, monkeypatch_module):
    """The server, and the address computer B opens it at."""
    monkeypatch_module.delenv("NEFERTITI_STORE_URL", raising=False)
    server = Served(tmp_path_factory.mktemp("two-computers-home"), name="two-computers")
    other = Forwarder(server.port, "127.0.0.9")
    server.code = (
        "from widgets.serve import serve; serve(port=PORT, address='127.0.0.1', show=False, "
        f"allow_websocket_origin=['127.0.0.1:{other.port}'])"
    )
    server.start()
    yield server.base, other.base
    server.stop()
    other.close()


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def new_page(chromium, viewport, **device):
    context = chromium.new_context(viewport=viewport, **device)
    context.set_default_timeout(STEP_MS)
    return context.new_page()


def open_room(page, base: str) -> None:
    page.goto(f"{base}/classroom", timeout=LOAD_MS)
    page.locator(".room-open button").click(timeout=LOAD_MS)


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_one_computer_cannot_take_every_room_while_another_still_opens_one(chromium, computers):
    here, other = computers
    pages = []
    for _ in range(MAX_ROOMS_PER_CLIENT):
        page = new_page(chromium, {"width": 1024, "height": 768})
        open_room(page, here)
        expect(page.locator(".room-join-code")).to_be_visible(timeout=LOAD_MS)
        pages.append(page)
    fourth = new_page(chromium, {"width": 1024, "height": 768})
    open_room(fourth, here)
    expect(
        fourth.get_by_text(f"This computer has {MAX_ROOMS_PER_CLIENT} rooms open")
    ).to_be_visible()
    expect(fourth.locator(".room-join-code")).to_have_count(0)
    shot(fourth, "fourth-room-refused-1024")
    teacher = new_page(chromium, {"width": 1024, "height": 768})
    open_room(teacher, other)  # the next computer of the school
    expect(teacher.locator(".room-join-code")).to_be_visible(timeout=LOAD_MS)
    for page in [*pages, fourth, teacher]:
        page.context.close()


def test_a_removed_learner_cannot_come_back_by_name_look_alike_or_phone(chromium, computers):
    _here, other = computers
    teacher = new_page(chromium, {"width": 1024, "height": 768})
    open_room(teacher, other)
    expect(teacher.locator(".room-join-code")).to_be_visible(timeout=LOAD_MS)
    code = teacher.locator(".room-code").inner_text().strip()
    phone = new_page(chromium, PIXEL_5_VIEWPORT, locale="de-DE", **PIXEL_5)
    join_room(phone, other, code, "Anna", wait=False)
    expect(phone.locator(".room-status")).to_be_visible(timeout=LOAD_MS)
    people = teacher.locator(".room-people")
    expect(people).to_contain_text("Anna")
    teacher.locator(".room-remove-who select").select_option(label="Anna (#1)")
    teacher.locator(".room-remove button").click()
    expect(people).not_to_contain_text("Anna")
    expect(phone.get_by_text(tr("de", "room.removed_you"))).to_be_visible()
    # the same phone, the same name: refused, in her language
    join_room(phone, other, code, "Anna", wait=False)
    expect(phone.get_by_text(tr("de", "room.refuse.removed"))).to_be_visible()
    shot(phone, "removed-learner-refused-de-pixel5")
    # another phone, a look-alike name (Cyrillic А): refused too
    second = new_page(chromium, PIXEL_5_VIEWPORT, locale="zh-CN", **PIXEL_5)
    join_room(second, other, code, "\u0410nna", wait=False)
    expect(second.get_by_text(tr("zh", "room.refuse.removed"))).to_be_visible()
    expect(people).not_to_contain_text("nna")
    # someone else still joins
    join_room(second, other, code, "Ben", wait=False)
    expect(second.locator(".room-status")).to_be_visible(timeout=LOAD_MS)
    expect(people).to_contain_text("Ben")
    for page in (teacher, phone, second):
        page.context.close()
