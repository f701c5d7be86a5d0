"""The four players' servants stay distinguishable under colour-vision deficiency (WCAG 1.4.1:
colour is never the only sign), in Chromium against ``nefertiti serve``.

The Sandbox's first four placements put a servant of each player (Blue, Black, Green, Red) on
the board. Each carries its player's letter in the board's data (``board-servants``), and on
the drawn canvas: under Chromium's own simulations of deuteranopia and protanopia (DevTools
Protocol ``Emulation.setEmulatedVisionDeficiency``, which filters what the page paints, the
screenshots too) the servants' colours, sampled from the screenshot's pixels, still differ
pairwise by at least MIN_DELTA_E (CIELAB ΔE76), and each disc still shows its white letter.

Screenshots: tests/browser/artifacts/colour-vision/ (one per simulation; looked at).
"""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image
from playwright.sync_api import expect
from support import ARTIFACTS, LOAD_MS, STEP_MS, Served, source, wait_rows

from nefertiti_core.engine.i18n import tr
from widgets.game import geometry as G
from widgets.game.board import SERVANT_RADIUS

expect.set_options(timeout=STEP_MS)
SHOTS = ARTIFACTS / "colour-vision"
#: Two colours closer than this (ΔE76) are hard to tell apart at a glance; 2.3 is "just
#: noticeable". The game's colours are 18 or more apart under each simulation.
MIN_DELTA_E = 10.0
VISIONS = ("none", "deuteranopia", "protanopia")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Served(tmp_path_factory.mktemp("colour-vision-home"))
    server.start()
    yield server
    server.stop()


def lab(rgb) -> tuple[float, float, float]:
    """sRGB (0-255) to CIELAB (D65)."""

    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a, b) -> float:
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5


def servant_pixels(image: Image.Image, x: float, y: float) -> tuple[tuple, int]:
    """The disc's colour (the median of its pixels that are not the white letter or ring) and
    how many of its pixels are near-white (the letter)."""
    scale = image.width / G.WIDTH
    cx, cy = x * scale, (G.HEIGHT - y) * image.height / G.HEIGHT
    r = SERVANT_RADIUS * scale * 0.8  # inside the disc's white ring
    fill, white = [], 0
    for px in range(int(cx - r), int(cx + r) + 1):
        for py in range(int(cy - r), int(cy + r) + 1):
            if (px - cx) ** 2 + (py - cy) ** 2 > r * r:
                continue
            pixel = image.getpixel((px, py))[:3]
            if min(pixel) > 215:
                white += 1
            elif min(pixel) < 200 or max(pixel) - min(pixel) > 40:
                fill.append(pixel)
    assert fill, f"no servant drawn at ({x}, {y})"
    median = tuple(sorted(channel)[len(channel) // 2] for channel in zip(*fill, strict=True))
    return median, white


def test_servants_stay_distinguishable_under_colour_vision_deficiency(chromium, server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = chromium.new_context(viewport={"width": 1280, "height": 1000}, locale="en-GB")
    context.set_default_timeout(STEP_MS)
    try:
        page = context.new_page()
        page.goto(server.url, timeout=LOAD_MS)
        page.locator(".bk-Canvas").first.wait_for(timeout=LOAD_MS)
        wait_rows(page, "board-squares", "n > 0", timeout=LOAD_MS)
        place = tr("en", "panel.decision.place")
        for placed in range(1, 5):  # Blue, Black, Green and Red place in turn (R5.2)
            page.get_by_role("button", name=place, exact=True).click()
            wait_rows(page, "board-servants", f"n == {placed}", timeout=LOAD_MS)
        servants = source(page, "board-servants")
        assert sorted(servants["who"]) == ["black", "blue", "green", "red"]
        marks = {c: tr("en", f"colour.mark.{c}") for c in servants["who"]}
        assert servants["letter"] == [marks[c] for c in servants["who"]]
        canvas = page.locator(".bk-Canvas").first
        canvas.scroll_into_view_if_needed()
        page.mouse.move(0, 0)  # no tooltip over the board
        cdp = context.new_cdp_session(page)
        seen: dict[str, dict[str, tuple]] = {}
        for vision in VISIONS:
            cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": vision})
            page.wait_for_timeout(300)  # the next frame is painted through the filter
            shot = canvas.screenshot()
            (SHOTS / f"board-{vision}.png").write_bytes(shot)
            image = Image.open(io.BytesIO(shot)).convert("RGB")
            seen[vision] = {}
            for x, y, who in zip(servants["x"], servants["y"], servants["who"], strict=True):
                colour, white = servant_pixels(image, x, y)
                assert white >= 8, f"{who}'s letter is not drawn under {vision} ({white} px)"
                seen[vision][who] = colour
            for a, b in itertools.combinations(sorted(seen[vision]), 2):
                distance = delta_e(seen[vision][a], seen[vision][b])
                assert distance >= MIN_DELTA_E, (
                    f"{a} and {b} under {vision}: ΔE {distance:.1f} ({seen[vision]})"
                )
        cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": "none"})
        # the simulations did change what was painted (else this test could not fail)
        for vision in VISIONS[1:]:
            assert delta_e(seen[vision]["green"], seen["none"]["green"]) > 5, seen
    finally:
        context.close()
