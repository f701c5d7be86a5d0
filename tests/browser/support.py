"""Serving apps and driving Chromium for the browser tests and the latency benchmark.

Chromium is Debian's ``/usr/bin/chromium`` (``.ci/run`` installs it; Playwright cannot download
browsers here). A test that cannot find it fails: it never skips (DEVELOPERS.md).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from fractions import Fraction
from pathlib import Path

from playwright.sync_api import expect

from nefertiti_core.exercises import Exercise
from widgets import geometry as G

CHROMIUM = os.environ.get("NEFERTITI_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("NEFERTITI_ARTIFACTS", ROOT / "tests" / "browser" / "artifacts"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_http(url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        # An app's page is rendered per request (the Sandbox takes 1-2.5 s on a busy 2-core
        # machine): a short per-request timeout would abandon every request and never succeed.
        remaining = max(2.0, deadline - time.monotonic())
        try:
            with urllib.request.urlopen(url, timeout=remaining) as response:
                if response.status == 200:
                    return
        except OSError as error:
            last = error
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {timeout} s ({last})")


@contextlib.contextmanager
def served(code: str, path: str, port: int | None = None, env: dict | None = None):
    """Run ``code`` (which serves an app on PORT) in a subprocess; yield the app's URL."""
    port = port or free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", code.replace("PORT", str(port))],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/{path}"
    try:
        try:
            wait_for_http(url)
        except RuntimeError:
            process.kill()
            output = process.communicate(timeout=10)[0]
            raise RuntimeError(f"the app did not start:\n{output[-3000:]}") from None
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


SANDBOX = "from widgets.serve import serve; serve(port=PORT, address='127.0.0.1', show=False)"

BARE_PANEL_APP = """
import panel as pn
def app():
    text = pn.pane.Markdown('count: 0', name='out')
    button = pn.widgets.Button(name='Press')
    def press(event):
        text.object = f'count: {event.obj.clicks}'
    button.on_click(press)
    return pn.Column(button, text)
pn.serve({'bare': app}, port=PORT, address='127.0.0.1', show=False,
         websocket_origin=['127.0.0.1:PORT', 'localhost:PORT'])
"""


def require_chromium() -> str:
    if not Path(CHROMIUM).exists():
        raise RuntimeError(
            f"Chromium not found at {CHROMIUM}: install Debian's package "
            "(apt-get install chromium; .ci/run does) or set NEFERTITI_CHROMIUM"
        )
    return CHROMIUM


def launch(playwright):
    return playwright.chromium.launch(
        executable_path=require_chromium(), args=CHROMIUM_ARGS, headless=True
    )


def canvas_point(page, x: float, y: float, width: float, height: float):
    """Page coordinates of data point (x, y) on the board's canvas (y points up in data)."""
    box = page.locator(".bk-Canvas").first.bounding_box()
    return box["x"] + x / width * box["width"], box["y"] + (1 - y / height) * box["height"]


def bokeh_data_length(page, name: str) -> int:
    """Rows of the named ColumnDataSource in the browser's Bokeh document (what is drawn)."""
    return page.evaluate(
        """(name) => {
            for (const doc of Bokeh.documents) {
                const model = doc.get_model_by_name(name);
                if (model) {
                    const d = model.data;
                    const column = d instanceof Map ? d.get("x") : d["x"];
                    return column.length;
                }
            }
            return -1;
        }""",
        name,
    )


# ------------------------------------------------------------------------------ exercises
# Answering a tutorial exercise card (widgets/exercise.py) as a learner does, in JupyterLab or
# Voilà: ``block`` is a locator of the output that holds the exercise tabs.
WAIT = 60_000  # ms: a kernel busy with the notebook's other cells answers late on a loaded machine


def wrong_and_right(ex: Exercise):
    """(wrong, right): each as the value the card's widget hands to the engine."""
    truth = ex.right_answer()
    kind = ex.answer_kind
    if kind == "choice":
        values = [value for value, _ in ex.choices("en")]
        return next(v for v in values if v != truth), truth
    if kind == "integer":
        return (truth + 1 if truth + 1 <= ex.high else truth - 1), truth
    if kind == "probability":
        right = f"{truth.numerator}/{truth.denominator}"
        other = truth + Fraction(1, 36) if truth + Fraction(1, 36) <= 1 else Fraction(0)
        return f"{other.numerator}/{other.denominator}", right
    if kind == "square":
        stall_size = len(stall_cells(ex))
        wrong = next(i for i in range(stall_size) if i not in truth)
        return (ex.market, wrong), (ex.market, truth[0])
    raise AssertionError(f"{ex.id}: an answer kind this test does not know: {kind!r}")


def stall_cells(ex: Exercise):
    state = ex.state()
    return [c for c in G.squares(state.side) if c.market == ex.market]


def click_square(page, block, ex: Exercise, market: int, index: int) -> None:
    state = ex.state()
    cell = next(c for c in G.squares(state.side) if c.market == market and c.index == index)
    canvas = block.locator(".bk-Canvas").first
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    page.mouse.click(
        box["x"] + cell.x / G.WIDTH * box["width"],
        box["y"] + (1 - cell.y / G.HEIGHT) * box["height"],
    )


def give_answer(page, block, ex: Exercise, value) -> None:
    """Answer as a learner does: press the choice, type the number, or click the square."""
    kind = ex.answer_kind
    if kind == "square":
        click_square(page, block, ex, *value)
        return
    answer = block.locator(".exercise-answer")
    if kind == "choice":
        label = dict(ex.choices("en"))[value]
        answer.get_by_role("button", name=label, exact=True).click()
    else:
        field = answer.locator("input")
        field.fill(str(value))
        field.press("Enter")
    block.locator(".exercise-check").get_by_role("button").click()


def expect_verdict(block, kind: str, headline: str) -> str:
    verdict = block.locator(f".exercise-feedback .verdict-{kind}")
    expect(verdict).to_contain_text(headline, timeout=WAIT)
    return verdict.inner_text()
