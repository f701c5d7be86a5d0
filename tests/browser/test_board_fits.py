"""The Sandbox's board fits and stays readable, in Chromium at 1440 x 900 and a projector's
1024 x 768, in English, German and Chinese (longer German words are the usual clipping case):

* the board and the decision's Place button are both in view without scrolling;
* no button's words are cut (each button's ``scrollWidth`` fits its ``clientWidth``);
* the status line under each market is at least 12 px (a projector's back row reads it);
* every market's outline lies inside the canvas (the right-hand markets kept theirs whole);
* a servant leaves its square's bid readable: the bid is written in white on the servant, under
  its player's letter (tests/test_board_bids.py checks the data), seen here in the pixels.

One server and one Chromium for the module (conftest.py); each case gets its own browser
context (a new game). Screenshots go to the artifacts folder.
"""

from __future__ import annotations

import pytest
from PIL import Image
from playwright.sync_api import expect
from support import ARTIFACTS, CLIPPED_BUTTONS, LOAD_MS, SOURCE, STEP_MS, wait_rows

from nefertiti_core import new_game
from nefertiti_core.engine.i18n import tr
from widgets.game import board as B
from widgets.game import geometry as G

CELLS = G.squares(new_game(4, 0).side)  # the first-game layout (R2.8): Blue starts
LANGS = {"en-GB": "en", "de-DE": "de", "zh-CN": "zh"}

#: A phone, as Playwright's device descriptor gives it (a touch screen, its pixel density).
PIXEL_5 = dict(
    viewport={"width": 393, "height": 851},
    user_agent="Mozilla/5.0 (Linux; Android 11; Pixel 5) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/120.0.0.0 Mobile Safari/537.36",
    device_scale_factor=2.75,
    is_mobile=True,
    has_touch=True,
)


def open_sandbox(chromium, url: str, size: tuple[int, int], locale: str, **device):
    context = chromium.new_context(
        **{"viewport": {"width": size[0], "height": size[1]}, **device}, locale=locale
    )
    context.set_default_timeout(STEP_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url, timeout=LOAD_MS)
    page.locator(".bk-Canvas").first.wait_for(timeout=LOAD_MS)
    wait_rows(page, "board-squares", "n > 0", timeout=LOAD_MS)
    return context, page, errors


def in_window(box: dict | None, size: tuple[int, int]) -> bool:
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size[0] + 0.5
        and box["y"] + box["height"] <= size[1] + 0.5
    )


CASES = [
    ((1440, 900), "en-GB"),
    ((1024, 768), "en-GB"),
    ((1440, 900), "de-DE"),
    ((1024, 768), "zh-CN"),
]


@pytest.mark.parametrize(("size", "locale"), CASES, ids=[f"{s[0]}-{lo}" for s, lo in CASES])
def test_the_sandbox_fits_and_its_words_are_whole(chromium, sandbox_url, size, locale):
    lang = LANGS[locale]
    context, page, errors = open_sandbox(chromium, sandbox_url, size, locale)
    try:
        place = page.get_by_role("button", name=tr(lang, "panel.decision.place"), exact=True)
        expect(place).to_be_visible(timeout=LOAD_MS)
        board = page.locator(".bk-Canvas").first
        assert page.evaluate("() => window.scrollY") == 0
        for what, locator in (("board", board), ("Place", place)):
            box = locator.bounding_box()
            assert in_window(box, size), f"{what} not in view at {size} ({locale}): {box}"
        # no button's words cut off (German's long words, a projector's narrow window)
        clipped = page.locator("button").evaluate_all(CLIPPED_BUTTONS)
        assert not clipped, f"buttons cut at {size} ({locale}): {clipped}"
        # the status lines under the markets: 12 px or more, as the board draws them
        texts = page.evaluate(SOURCE, "board-texts")
        hints = [
            (text, size_px)
            for text, size_px, y in zip(texts["text"], texts["size"], texts["y"], strict=True)
            if (y % (G.REGION_H + G.GAP)) < 2.2 and text.strip()
        ]
        assert hints, texts["text"]
        small = [(t, s) for t, s in hints if float(s.removesuffix("px")) < 12]
        assert not small, f"status lines under 12 px at {size} ({locale}): {small}"
        # every market's outline inside the canvas (half of it was cut at the edges)
        regions = page.evaluate(SOURCE, "board-regions")
        for x, y, w, h in zip(regions["x"], regions["y"], regions["w"], regions["h"], strict=True):
            assert 0 < x - w / 2 and x + w / 2 < G.WIDTH, (x, w)
            assert 0 < y - h / 2 and y + h / 2 < G.HEIGHT, (y, h)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"board-fits-{size[0]}-{lang}.png"))
    finally:
        context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


def white_in_band(image: Image.Image, cx: float, cy: float, unit: float, low: float, high: float):
    """Near-white pixels of ``image`` from ``low`` to ``high`` board units below (cx, cy)
    (negative: above), within 0.2 units of the vertical through it."""
    count = 0
    for px in range(int(cx - 0.2 * unit), int(cx + 0.2 * unit) + 1):
        for py in range(int(cy + low * unit), int(cy + high * unit) + 1):
            if min(image.getpixel((px, py))[:3]) > 215:
                count += 1
    return count


def test_a_servant_leaves_its_squares_bid_readable(chromium, sandbox_url, tmp_path):
    """Blue places a servant on Gizeh's first square: the servant shows Blue's letter above
    its centre and the square's bid, in white, below it (where the disc was plain before)."""
    context, page, errors = open_sandbox(chromium, sandbox_url, (1440, 900), "en-GB")
    try:
        expect(page.get_by_text("Blue decides now")).to_be_visible(timeout=LOAD_MS)
        cell = next(c for c in CELLS if c.market == 0 and c.index == 0)
        board = page.locator(".bk-Canvas").first
        box = board.bounding_box()
        cx = box["x"] + cell.x / G.WIDTH * box["width"]
        cy = box["y"] + (1 - cell.y / G.HEIGHT) * box["height"]
        page.mouse.click(cx, cy)
        wait_rows(page, "board-servants", "n === 1", timeout=LOAD_MS)
        servants = page.evaluate(SOURCE, "board-servants")
        assert servants["bid"] == [f"{cell.value}{cell.symbol}"], servants
        expect(page.get_by_text("Blue decides now")).to_be_hidden(timeout=LOAD_MS)
        shot = tmp_path / "servant.png"
        page.screenshot(path=str(shot))
        unit = box["width"] / G.WIDTH
        with Image.open(shot) as image:
            image = image.convert("RGB")
            scale = image.width / 1440
            letter = white_in_band(image, cx * scale, cy * scale, unit * scale, -0.3, -0.1)
            bid = white_in_band(image, cx * scale, cy * scale, unit * scale, 0.18, 0.3)
            r = int(B.SERVANT_RADIUS * unit * scale) + 4
            crop = image.crop((cx * scale - r, cy * scale - r, cx * scale + r, cy * scale + r))
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            crop.resize((crop.width * 4, crop.height * 4)).save(ARTIFACTS / "servant-bid.png")
        assert letter > 3, f"no letter above the servant's centre ({letter} white pixels)"
        assert bid > 3, f"no bid below the servant's centre ({bid} white pixels)"
        page.screenshot(path=str(ARTIFACTS / "servant-bid-board.png"))
    finally:
        context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


def test_on_a_phone_the_board_fits_its_width_and_a_servant_shows_its_bid(chromium, sandbox_url):
    """A Pixel 5 in German: the board is as wide as the screen at most, no button's words are
    cut, and a servant placed by a tap carries its square's bid (drawn on it)."""
    context, page, errors = open_sandbox(chromium, sandbox_url, (393, 851), "de-DE", **PIXEL_5)
    try:
        board = page.locator(".bk-Canvas").first
        box = board.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 393 + 0.5, box
        clipped = page.locator("button").evaluate_all(CLIPPED_BUTTONS)
        assert not clipped, f"buttons cut on a phone: {clipped}"
        cell = next(c for c in CELLS if c.market == 0 and c.index == 0)
        board.scroll_into_view_if_needed()
        box = board.bounding_box()
        page.mouse.click(
            box["x"] + cell.x / G.WIDTH * box["width"],
            box["y"] + (1 - cell.y / G.HEIGHT) * box["height"],
        )
        wait_rows(page, "board-servants", "n === 1", timeout=LOAD_MS)
        assert page.evaluate(SOURCE, "board-servants")["bid"] == [f"{cell.value}{cell.symbol}"]
        # the server's answer drawn (Black to decide), not only the servant drawn at the tap
        expect(page.get_by_text("Blau entscheidet jetzt")).to_be_hidden(timeout=LOAD_MS)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "board-fits-phone-de.png"))
    finally:
        context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
