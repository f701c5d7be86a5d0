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
from pathlib import Path

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
