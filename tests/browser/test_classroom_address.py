"""The join link and its QR code point at an address learners can reach (#28 item 2), in
Chromium against the real ``nefertiti serve`` command.

Served with ``--address 0.0.0.0``, a teacher (1024 x 768) opens the classroom at
``http://127.0.0.1:PORT/classroom`` as the console says: the join card names this computer's
network address (never 127.0.0.1), the QR code encodes the same link with the room's code (the
QR drawn for that link, compared), the projector window shows the same; a learner's phone (an
emulated Pixel 5, in Chinese) opens that very link, at the network address, and joins. Served
on 127.0.0.1 only, a German teacher's page says in German that phones cannot reach this address
and how to serve it so they can.

Screenshots: tests/browser/artifacts/classroom-address (looked at; described in the report).
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

import segno
from playwright.sync_api import expect
from support import ARTIFACTS, PIXEL_5, PIXEL_5_VIEWPORT, ROOT, free_port, running
from test_classroom import LOAD_MS, STEP_MS

from nefertiti_core.engine.i18n import tr
from widgets.server.addresses import lan_addresses
from widgets.theme import INK, PAPER

SHOTS = ARTIFACTS / "classroom-address"
TEACHER = {"width": 1024, "height": 768}
PHONE = PIXEL_5_VIEWPORT


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def nefertiti_serve(address: str, port: int, home: Path):
    """``nefertiti serve`` on ``address``:``port`` until the block ends (its output in
    ``home``/server.log)."""
    command = [sys.executable, "-m", "nefertiti_core", "serve", "--port", str(port),
               "--address", address]  # fmt: skip
    env = {**os.environ, "NEFERTITI_HOME": str(home), "PYTHONPATH": str(ROOT)}
    return running(command, f"http://127.0.0.1:{port}/tutor", home / "server.log", env, 120)


def open_a_room(chromium, base: str, locale: str):
    context = chromium.new_context(viewport=TEACHER, locale=locale)
    context.set_default_timeout(STEP_MS)
    teacher = context.new_page()
    teacher.goto(f"{base}/classroom", timeout=LOAD_MS)
    teacher.locator(".room-open button").click(timeout=LOAD_MS)
    expect(teacher.locator(".room-join-code")).to_be_visible(timeout=LOAD_MS)
    return teacher


def qr_link(page) -> str:
    """The link the page's QR code is drawn for (its ``data-link``), once checked that the QR
    drawn is that link's."""
    qr = page.locator(".room-qr").first
    link = qr.get_attribute("data-link")
    drawn = qr.locator("svg").evaluate("(svg) => svg.outerHTML")
    expected = segno.make(link, error="m")
    assert _modules(drawn) == _modules(expected.svg_inline(dark=INK, light=PAPER)), link
    return link


def _modules(svg: str) -> str:
    """The dark modules of a segno SVG (its last path, after the light background's), whatever
    its scale or border (the path's first move)."""
    return re.findall(r' d="([^"]+)"', svg)[-1].split("m", 1)[1]


def test_served_on_every_interface_the_qr_and_link_name_the_network_address(chromium, tmp_path):
    network = lan_addresses("0.0.0.0")
    assert network, "this computer has no network address to test with"
    port = free_port()
    errors: list[str] = []
    with nefertiti_serve("0.0.0.0", port, tmp_path):
        console = (tmp_path / "server.log").read_text()
        assert f"Classroom, learners join at: http://{network[0]}:{port}/join" in console, console
        teacher = open_a_room(chromium, f"http://127.0.0.1:{port}", "en-US")
        teacher.on("pageerror", lambda error: errors.append(str(error)))
        code = teacher.locator(".room-code").inner_text().strip()
        reachable = f"http://{network[0]}:{port}/join"
        card = teacher.locator(".room-join-card")
        expect(card).to_contain_text(f"Learners open {reachable} and type the code.")
        assert "127.0.0.1" not in card.inner_text()
        assert qr_link(teacher) == f"{reachable}?code={code}"
        expect(teacher.locator(".room-address-warning")).to_have_count(0)
        shot(teacher, "teacher-1024-network-address")
        with teacher.context.expect_page() as opened:
            teacher.locator(".room-projector-open a").click()
        projector = opened.value
        projector.set_viewport_size(TEACHER)
        expect(projector.locator(".room-join-card")).to_contain_text(reachable, timeout=LOAD_MS)
        assert qr_link(projector) == f"{reachable}?code={code}"
        shot(projector, "projector-1024-network-address")
        # a phone opens what the QR code says, at the network address, and joins
        phone = chromium.new_context(viewport=PHONE, locale="zh-CN", **PIXEL_5)
        try:
            page = phone.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{reachable}?code={code}", timeout=LOAD_MS)
            page.locator(".room-name-input input").fill("王芳")
            page.locator(".room-join button").click(timeout=LOAD_MS)
            expect(page.locator(".room-status")).to_contain_text(
                tr("zh", "room.you_are", name="王芳"), timeout=LOAD_MS
            )
            expect(teacher.locator(".room-person")).to_have_count(1)
            shot(page, "phone-zh-joined-at-the-network-address")
        finally:
            phone.close()
            teacher.context.close()
    assert not errors, errors


def test_served_on_loopback_only_the_teacher_is_told_in_their_language(chromium):
    home = Path(tempfile.mkdtemp(prefix="classroom-address-"))
    port = free_port()
    with nefertiti_serve("127.0.0.1", port, home):
        teacher = open_a_room(chromium, f"http://127.0.0.1:{port}", "de-DE")
        try:
            warning = teacher.locator(".room-address-warning")
            expect(warning).to_have_text(tr("de", "room.address.loopback", host="127.0.0.1"))
            expect(warning).to_be_visible()
            assert qr_link(teacher).startswith(f"http://127.0.0.1:{port}/join?code=")
            shot(teacher, "teacher-1024-de-loopback-warning")
        finally:
            teacher.context.close()
