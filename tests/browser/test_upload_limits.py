"""Upload bombs through the Sandbox's real file input, in Chromium (issue #14).

One served Sandbox, two browser sessions. Session A has played a step; it uploads each bomb
("New game and files", the file input). The page must show the refusal in one line naming the
file, the game in A must be the one it had (its step, its servant), and session B must still
play (a placement and its undo answered by the server) while and after A's file is refused. A
valid file with a Windows BOM then loads. The server's memory is measured by
``benchmarks/upload_bomb.py``, not here.
"""

from __future__ import annotations

import base64
import re
import sys
import zlib
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1] / "benchmarks"))

from message_flood import largest_file  # noqa: E402
from support import ARTIFACTS, SANDBOX, STEP_MS, launch, served  # noqa: E402
from upload_bomb import TEXT_SHOWN, Player, open_session, zlib_bomb  # noqa: E402

SIMPLE = "nefertiti: 1\nplayers:\n- colour: red\n- colour: blue\n- colour: green\n- colour: black\n"


def _record(steps: str) -> str:
    from nefertiti_core import new_game
    from nefertiti_core.files.history import History

    text = History(new_game(4, seed=1)).record().dumps().rstrip()
    return text[: -len("moves: []")] + "moves:\n" + steps


BOMBS = {
    # name: (file text, what the refusal says)
    # over the file limit, under the message cap (a larger file's message closes the page's
    # connection: tests/test_serve_safety.py)
    "zlib-bomb.yaml": (
        lambda: SIMPLE + "random_state: " + base64.b64encode(zlib_bomb(800_000)).decode(),
        "zlib-bomb.yaml: too large (1,07",
    ),
    "small-zlib-bomb.yaml": (
        lambda: (
            SIMPLE
            + "random_state: "
            + base64.b64encode(zlib.compress(b"[" + b" " * 11_000_000 + b"]", 9)).decode()
        ),
        "small-zlib-bomb.yaml: line 7: random_state: unpacks to over 16,384 bytes",
    ),
    "huge-record.yaml": (
        lambda: _record("  - roll 6 6 6 6 6 6\n" * 3000),
        "huge-record.yaml: moves.2: at most 12 dice can be fixed ahead",
    ),
    "deep-nesting.yaml": (
        lambda: SIMPLE + "title: " + "[" * 900 + "]" * 900 + "\n",
        "deep-nesting.yaml: line 7: brackets nested more than 32 deep",
    ),
}


@pytest.fixture(scope="module")
def sandbox_url():
    with served(SANDBOX, "tutor") as url:
        yield url


@pytest.fixture(scope="module")
def sessions(sandbox_url, tmp_path_factory):
    with sync_playwright() as p:
        browser = launch(p)  # raises if Chromium is missing: a failure, never a skip
        ctx_a, page_a = open_session(browser, sandbox_url)
        ctx_b, page_b = open_session(browser, sandbox_url)
        for context in (ctx_a, ctx_b):
            context.set_default_timeout(STEP_MS)
        a, b = Player(page_a), Player(page_b)
        a.place()  # A's game has a step of its own, which a refused file must not lose
        page_a.get_by_role("button", name="New game and files", exact=True).click()
        yield a, b, tmp_path_factory.mktemp("bombs")
        ctx_a.close()
        ctx_b.close()
        browser.close()


def _a_still_has_its_game(a: Player) -> None:
    assert a.page.evaluate(TEXT_SHOWN, "Step 1 of 1 ")
    servants = a.page.evaluate(
        """() => { for (const d of Bokeh.documents) { const m = d.get_model_by_name(
            'board-servants'); if (m) return (m.data instanceof Map ? m.data.get('x')
            : m.data.x).length; } return -1; }"""
    )
    assert servants == 1


@pytest.mark.parametrize("name", list(BOMBS))
def test_a_bomb_is_refused_in_one_line_and_the_other_session_still_plays(sessions, name):
    a, b, folder = sessions
    text, refusal = BOMBS[name]
    path = folder / name
    path.write_text(text(), encoding="utf-8")
    a.page.locator("input[type=file]").set_input_files(str(path))
    b_times = [b.place(), b.take_back()]  # B plays while A's file is read and refused
    shown = a.page.get_by_text(re.compile(re.escape(refusal)))  # the files view, and the
    expect(shown.first).to_be_visible(timeout=STEP_MS)  # error line above the board
    line = shown.first.inner_text().strip()
    assert "\n" not in line and len(line) <= 200, line
    _a_still_has_its_game(a)
    b_times += [b.place(), b.take_back()]  # and after it
    assert all(t < STEP_MS for t in b_times)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    a.page.screenshot(path=str(ARTIFACTS / f"upload-refused-{path.stem}.png"))
    # the next upload of the same file must fire again: clear the input
    a.page.locator("input[type=file]").set_input_files([])


def test_a_file_with_a_bom_loads_after_the_bombs(sessions):
    a, b, folder = sessions
    path = folder / "notepad.yaml"
    path.write_bytes(
        ("\ufeff" + SIMPLE + "title: Saved by Notepad\n").replace("\n", "\r\n").encode()
    )
    a.page.locator("input[type=file]").set_input_files(str(path))
    expect(a.page.get_by_text("Loaded notepad.yaml", exact=False)).to_be_visible(timeout=STEP_MS)
    expect(a.page.get_by_text("Red decides now")).to_be_visible()
    assert b.place() < STEP_MS and b.take_back() < STEP_MS


def test_the_largest_file_a_position_may_be_still_loads(sessions):
    """A file of exactly MAX_FILE_BYTES (1 MiB) is the largest message a page sends (about
    1.4 MB, base64): it arrives under the server's message cap and loads."""
    a, b, folder = sessions
    path = largest_file(folder / "largest.yaml")
    a.page.locator("input[type=file]").set_input_files(str(path))
    expect(a.page.get_by_text("Loaded largest.yaml", exact=False).first).to_be_visible(
        timeout=STEP_MS
    )
    expect(a.page.get_by_text("Red decides now")).to_be_visible()
    assert b.place() < STEP_MS and b.take_back() < STEP_MS
