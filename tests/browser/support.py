"""Serving apps and driving Chromium for the browser tests and the latency benchmark.

Chromium is Debian's ``/usr/bin/chromium`` (``make test`` installs it when missing; Playwright
cannot download browsers here). A test that cannot find it fails: it never skips (DEVELOPERS.md).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from fractions import Fraction
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import expect

from nefertiti_core.files.exercises import Exercise
from widgets.game import geometry as G

# support is also imported with only tests/browser on sys.path (benchmarks/classroom_load.py, a
# fresh Python in test_wait_scale.py): the helpers one folder up must be found there too.
if str(Path(__file__).resolve().parents[1]) not in sys.path:
    sys.path.append(str(Path(__file__).resolve().parents[1]))
from helpers_reading import TUTORIALS, first_game_notebooks  # noqa: E402

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
#: The first-game path's notebooks (00-03), by name: the same in each language's folder of
#: ``TUTORIALS`` (the repository's tutorials, from ``helpers_reading``).
PATH = tuple(p.name for p in first_game_notebooks(TUTORIALS))
ARTIFACTS = Path(os.environ.get("NEFERTITI_ARTIFACTS", ROOT / "tests" / "browser" / "artifacts"))


#: Playwright's "Pixel 5" device descriptor without its viewport (its screen, device scale,
#: touch, is_mobile and user agent): ``new_context(viewport=PIXEL_5_VIEWPORT, **PIXEL_5)`` is
#: the phone. The viewport is the screen less the browser's own bars. ``test_phone_layout.py``
#: checks it against the table of the installed Playwright.
PIXEL_5 = dict(
    user_agent="Mozilla/5.0 (Linux; Android 11; Pixel 5) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/159.0.8154.6 Mobile Safari/537.36",
    screen={"width": 393, "height": 851},
    device_scale_factor=2.75,
    is_mobile=True,
    has_touch=True,
)
PIXEL_5_VIEWPORT = {"width": 393, "height": 727}


def wait_scale(cores: int | None = None, told: str | None = None) -> float:
    """How many times the browser tests' waits are stretched: ``$NEFERTITI_WAIT_SCALE`` (a
    number) if set, else 2 on a machine of 2 cores or fewer (where other work shares the cores:
    at a load of 25 a first page, a Python start with Panel's imports, took over a minute),
    1 on a bigger one. A wait is a limit, not a pause: a passing test never sits it out."""
    told = os.environ.get("NEFERTITI_WAIT_SCALE") if told is None else told
    if told:
        try:
            return max(1.0, float(told))
        except ValueError:
            raise ValueError(f"$NEFERTITI_WAIT_SCALE must be a number, not {told!r}") from None
    cores = (os.cpu_count() or 1) if cores is None else cores
    return 2.0 if cores <= 2 else 1.0


#: Milliseconds a page may take to load (a new Bokeh session: its document built on a busy
#: server) and a step of a test to show (one round trip of a click, a store write, a feed between
#: processes). Every browser journey waits with these, never with a number of its own.
LOAD_MS = int(120_000 * wait_scale())
STEP_MS = int(60_000 * wait_scale())
#: Milliseconds a notebook's kernel may take to answer (a cell's output, an exercise's verdict):
#: a kernel busy with the notebook's other cells answers late on a loaded machine.
KERNEL_MS = int(120_000 * wait_scale())


def open_room(page, base: str) -> str:
    """The teacher opens a room at ``/classroom`` (the code shown, with its link and QR code);
    its join code."""
    page.goto(f"{base}/classroom", timeout=LOAD_MS)
    page.locator(".room-open button").click(timeout=LOAD_MS)
    expect(page.locator(".room-join-code")).to_be_visible(timeout=LOAD_MS)
    code = page.locator(".room-code").inner_text().strip()
    # The teacher's key reaches this browser a moment later, as an HttpOnly cookie the server
    # sets when the page posts its grant: the projector view opened from this page and a reload
    # need it, so a teacher's page is ready once it holds the key to this room.
    room = code.replace(" ", "")
    cookie(page.context, "nefertiti_teacher", LOAD_MS / 1000, lambda v: v.startswith(f"{room}:"))
    return code


def join_room(page, base: str, code: str, name: str, *, lang=None, link=False, wait=True) -> None:
    """A learner joins a class at ``/join`` as on their own device: by the link with the code
    (``link``) or typing the code; picking ``lang`` on the form first (else the browser's
    language); then their name, and Join. ``wait``: True waits for the page to say who they
    are, a text waits for the status to say it, False waits for nothing (a refusal follows)."""
    from nefertiti_core.engine.i18n import tr

    page.goto(f"{base}/join?code={code}" if link else f"{base}/join", timeout=LOAD_MS)
    if lang is not None:
        page.locator(".room-join-form").get_by_role(
            "button", name=tr(lang, f"panel.lang.{lang}"), exact=True
        ).click(timeout=LOAD_MS)
        expect(page.locator(".room-join button")).to_have_text(tr(lang, "room.join"))
    if not link:
        page.locator(".room-code-input input").fill(code)
    page.locator(".room-name-input input").fill(name)
    page.locator(".room-join button").click(timeout=LOAD_MS)
    if wait:
        says = name if wait is True else wait
        expect(page.locator(".room-status")).to_contain_text(says, timeout=LOAD_MS)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: How long a server the tests start may take to answer its first page: on a 2-core machine at
#: load 20 starting Python and importing Panel alone took over a minute.
START_S = 240.0


def wait_for_http(url: str, timeout: float = START_S, process=None) -> None:
    """Wait until ``url`` answers 200; fail at once if ``process`` (the server) has ended."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server of {url} ended (exit {process.returncode})")
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
def running(command: list[str], url: str, log: Path, env: dict, timeout: float = START_S):
    """Run ``command`` until the block ends; yield once ``url`` answers.

    Its output goes to ``log`` (a pipe nobody reads would block it past 64 KB); the end of the
    log is raised with the error if the URL does not answer within ``timeout`` seconds."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w+") as output:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT, text=True
        )
        try:
            try:
                wait_for_http(url, timeout=timeout, process=process)
            except RuntimeError as error:
                process.kill()
                process.wait(timeout=10)
                output.seek(0)
                raise RuntimeError(f"{error}; its output:\n{output.read()[-3000:]}") from None
            yield process
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


@contextlib.contextmanager
def served(code: str, path: str, port: int | None = None, env: dict | None = None):
    """Run ``code`` (which serves an app on PORT) in a subprocess; yield the app's URL."""
    port = port or free_port()
    url = f"http://127.0.0.1:{port}/{path}"
    log = Path(tempfile.mkdtemp(prefix="nefertiti-served-")) / "server.log"
    command = [sys.executable, "-c", code.replace("PORT", str(port))]
    with running(command, url, log, {**os.environ, **(env or {})}):
        yield url


def jupyter_env(home: Path) -> dict:
    """The environment of a Jupyter server (JupyterLab, Voilà) whose settings, runtime files and
    learner records stay in ``home`` (never the user's own)."""
    home.mkdir(parents=True, exist_ok=True)
    return {
        **os.environ,
        "HOME": str(home),
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "IPYTHONDIR": str(home / "ipython"),
        "NEFERTITI_HOME": str(home / "nefertiti"),
    }


#: The project's JupyterLab settings, which the install copies into the environment (Makefile).
OVERRIDES = ROOT / "jupyterlab" / "overrides.json"
INSTALLED_OVERRIDES = Path(sys.prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"


@contextlib.contextmanager
def start_jupyterlab(home: Path, root: Path):
    """JupyterLab on 127.0.0.1 serving ``root``, with its settings kept in ``home``.

    It runs with the project's settings (jupyterlab/overrides.json: comms over subshells off),
    as ``make tutor`` does; an environment installed without them is refused, not tested."""
    if not INSTALLED_OVERRIDES.exists() or (
        json.loads(INSTALLED_OVERRIDES.read_text()) != json.loads(OVERRIDES.read_text())
    ):
        raise RuntimeError(
            f"{INSTALLED_OVERRIDES} is missing or differs from {OVERRIDES}: run make install"
        )
    env = jupyter_env(home)
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--allow-root",
        "--ip",
        "127.0.0.1",
        "--port",
        str(port),
        "--ServerApp.token=",
        "--ServerApp.password=",
        f"--ServerApp.root_dir={root}",
    ]
    # 240 s: at a load of 16 on 2 cores the server logged its first line 80 s after it was
    # started, and a 90 s wait failed there (issue #14's odds journey runs).
    url = f"http://127.0.0.1:{port}"
    with running(command, f"{url}/lab", home / "jupyterlab.log", env, timeout=240):
        yield url


def open_and_run_all(browser, url: str, viewport: dict, watch=None, **options):
    """A page on the notebook at ``url``: once the kernel is idle, Run > Run All Cells
    (../shared/STACK-NOTES.md). ``watch(page)``, if given, is called before the page loads
    (to record its requests from the first one); ``options``: the page's other browser
    settings (``reduced_motion``, ``locale``, ...)."""
    page = browser.new_page(viewport=viewport, **options)
    if watch is not None:
        watch(page)
    page.goto(url)
    # the status bar says the kernel is starting meanwhile (twice a kernel's answer: a start)
    page.get_by_text("Python 3 (ipykernel) | Idle").first.wait_for(timeout=2 * KERNEL_MS)
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    return page


SANDBOX = "from widgets.serve import serve; serve(port=PORT, address='127.0.0.1', show=False)"


class Served:
    """``nefertiti serve`` in a subprocess on a port of its own, which a test may stop (SIGTERM:
    the stores are written first), kill (SIGKILL) and start again (the same port and
    ``$NEFERTITI_HOME``). ``code``: the Python the subprocess runs, ``PORT`` standing for the
    port (:data:`SANDBOX` by default; set it before :meth:`start`); ``env``: added to this
    process's environment. Its output goes to ``log``."""

    def __init__(self, home: Path, code: str = "", env: dict | None = None, name: str = "served"):
        self.home, self.port = home, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.base}/tutor"
        self.code, self.env = code or SANDBOX, dict(env or {})
        self.process = None
        self.out = None
        self.log = Path(tempfile.mkdtemp(prefix=f"{name}-")) / "server.log"

    def start(self, timeout: float = START_S) -> None:
        self.out = open(self.log, "a")
        self.process = subprocess.Popen(
            [sys.executable, "-c", self.code.replace("PORT", str(self.port))],
            cwd=ROOT,
            env={**os.environ, "NEFERTITI_HOME": str(self.home), **self.env},
            stdout=self.out,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for_http(self.url, timeout=timeout, process=self.process)
        except RuntimeError:
            self.stop()
            raise RuntimeError(f"no server: {self.log.read_text()[-3000:]}") from None

    def stop(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.terminate()
                try:
                    self.process.wait(timeout=STEP_MS / 1000)  # its stores written first
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(timeout=10)
            self.process = None
        if self.out is not None:
            self.out.close()
            self.out = None

    def kill(self) -> None:
        """SIGKILL: no exit flush, as a crash or the OOM killer."""
        self.process.kill()
        self.process.wait(timeout=30)
        self.stop()

    def wait_for_log(self, needle: str, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.log.read_text():
            if time.monotonic() > deadline:
                raise AssertionError(f"the server never logged {needle!r} in {timeout:.0f} s")
            time.sleep(0.5)


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
            "(apt-get install chromium; make test does) or set NEFERTITI_CHROMIUM"
        )
    return CHROMIUM


def launch(playwright):
    return playwright.chromium.launch(
        executable_path=require_chromium(), args=CHROMIUM_ARGS, headless=True
    )


def canvas_point(page, x: float, y: float, width: float, height: float):
    """Page coordinates of data point (x, y) on the board's canvas (y points up in data)."""
    canvas = page.locator(".bk-Canvas >> visible=true").first
    canvas.scroll_into_view_if_needed()  # a mouse clicks what is on the screen
    box = canvas.bounding_box()
    return box["x"] + x / width * box["width"], box["y"] + (1 - y / height) * box["height"]


#: A served page that lost its server is covered (widgets.game.reconnect.COVER_ID) until it has
#: reloaded itself: back once the cover is gone and a Bokeh document is drawn again.
OFFLINE = "#nefertiti-offline"
BACK_JS = (
    "() => !document.getElementById('nefertiti-offline') && !!window.Bokeh "
    "&& Bokeh.documents.length > 0"
)


def wait_covered(page, timeout: int = STEP_MS) -> None:
    """The page knows its server went away (its cover is up)."""
    page.locator(OFFLINE).wait_for(state="attached", timeout=timeout)


def wait_back(page, timeout: int = LOAD_MS) -> None:
    """The page reloaded itself once its server answered again. A test never reloads such a
    page itself: its reload would race the page's own (and be aborted by it)."""
    page.wait_for_function(BACK_JS, polling=100, timeout=timeout)


#: The named ColumnDataSource of the page's Bokeh documents as {column: [values]}, or null.
SOURCE = """(name) => {
    if (!window.Bokeh) return null;
    for (const doc of Bokeh.documents) {
        const m = doc.get_model_by_name(name);
        if (m) {
            const entries = m.data instanceof Map ? [...m.data.entries()] : Object.entries(m.data);
            const out = {};
            for (const [k, v] of entries) out[k] = Array.from(v);
            return out;
        }
    }
    return null;
}"""
#: Its number of rows (of column x), or -1 while it is not there.
ROWS = f"""(name) => {{ const d = ({SOURCE})(name); return d ? d.x.length : -1; }}"""


def source(page, name: str) -> dict | None:
    return page.evaluate(SOURCE, name)


def rows(page, name: str) -> int:
    return page.evaluate(ROWS, name)


def wait_rows(page, name: str, test: str, timeout: int = STEP_MS, polling: int = 10) -> None:
    """Wait until the number of rows ``n`` of source ``name`` satisfies ``test`` (JS, on ``n``)."""
    page.wait_for_function(
        f"([name]) => {{ const n = ({ROWS})(name); return n >= 0 && ({test}); }}",
        arg=[name],
        polling=polling,
        timeout=timeout,
    )


def code_notebook(*sources: str) -> dict:
    """A notebook (nbformat 4, Python 3 kernel) of code cells with these sources, no outputs."""
    return {
        "cells": [
            {
                "cell_type": "code",
                "metadata": {},
                "outputs": [],
                "execution_count": None,
                "source": source,
            }
            for source in sources
        ],
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


@contextlib.contextmanager
def notebook_in_jupyterlab(
    browser, folder: Path, name: str, notebook: dict, viewport=None, watch=None, **options
):
    """A JupyterLab of its own on ``notebook`` (saved as ``folder/work/name``), its cells run in
    a new page of ``browser`` (``watch``, ``options``: see :func:`open_and_run_all`): yields the
    page. The
    kernel's $NEFERTITI_HOME is ``folder/home/nefertiti``."""
    work = folder / "work"
    work.mkdir(parents=True, exist_ok=True)
    (work / name).write_text(json.dumps(notebook))
    with start_jupyterlab(folder / "home", work) as lab:
        yield open_and_run_all(
            browser,
            f"{lab}/lab/tree/{name}?reset",
            viewport or {"width": 1400, "height": 1000},
            watch,
            **options,
        )


# ------------------------------------------------------------------------------ voila
#: The tutor's Voilà settings (voila.json) and template, as ``make voila`` runs it: Voilà's lab
#: template without its links to a CDN, Panel's JupyterLab extension left out (Voilà cannot load
#: it), and each output rendered once its widget is in the page (progressive rendering).
VOILA_SETTINGS = ROOT / "jupyterlab" / "voila"


@contextlib.contextmanager
def start_voila(home: Path, root: Path):
    """Voilà on 127.0.0.1 serving the notebooks of ``root``, with its settings kept in ``home``."""
    env = jupyter_env(home)
    env.pop("PANEL_COMMS", None)  # the comms must be chosen by the project, not by the caller
    for name in ("JUPYTER_PATH", "JUPYTER_CONFIG_PATH"):  # as the Makefile's `make voila`
        env[name] = os.pathsep.join(filter(None, [str(VOILA_SETTINGS), env.get(name)]))
    port = free_port()
    command = [
        str(Path(sys.executable).parent / "voila"),
        str(root),
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--Voila.port={port}",
    ]
    url = f"http://127.0.0.1:{port}"
    with running(command, f"{url}/", home / "voila.log", env, timeout=240):  # the listing
        yield url


#: The hosts of this machine: a request to any other goes over the network.
LOCAL_HOSTS = ("127.0.0.1", "localhost")


def is_outside(url: str) -> bool:
    """A request over the network to another host than this machine (data: and blob: URLs
    are the page's own)."""
    parts = urlsplit(url)
    return parts.scheme in ("http", "https", "ws", "wss") and parts.hostname not in LOCAL_HOSTS


def watch_requests_and_console(page, requests: list, errors: list) -> None:
    """Record every request of ``page`` (in ``requests``) and every error it logs (in
    ``errors``); a request to any other host than this machine is refused at once (here it
    would fail anyway, only later: no internet)."""

    def outside(route):
        route.abort()

    page.on("request", lambda request: requests.append(request.url))
    page.on(
        "console",
        lambda message: message.type == "error" and errors.append(message.text),
    )
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.route(is_outside, outside)


def broken_widgets(page) -> list[str]:
    """What each widget of a Jupyter page that could not be drawn says went wrong: ipywidgets
    draws such a widget as an icon (``.jupyter-widgets-error-widget``) whose JavaScript error
    shows only after a click; the console has just "Could not create a view for model id …"."""
    said = []
    for icon in page.locator(".jupyter-widgets-error-widget").all():
        try:
            icon.click(timeout=5_000)
            said.append(icon.inner_text(timeout=5_000)[:2_000])
        except Exception as error:  # a diagnosis: whatever it found is worth more than this
            said.append(f"(could not read: {error})")
    return said


def leave_voila(page) -> None:
    """Leave a Voilà page as a learner does, then close its browser context: the page's unload
    asks Voilà to shut its kernel down (a closed context alone would leave the kernel running
    until the server stops). Called in a ``finally``, so a failed test frees its kernel too;
    the closing happens even if the page cannot be left."""
    try:
        page.goto("about:blank")
    finally:
        page.context.close()


# ------------------------------------------------------------------------------ exercises
# Answering a tutorial exercise card (widgets/game/exercise.py) as a learner does, in JupyterLab or
# Voilà: ``block`` is a locator of the output that holds the exercise tabs.


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


def give_answer(page, block, ex: Exercise, value, lang: str = "en") -> None:
    """Answer as a learner does: press the choice (its label in the page's ``lang``), type the
    number, or click the square."""
    kind = ex.answer_kind
    if kind == "square":
        click_square(page, block, ex, *value)
        return
    answer = block.locator(".exercise-answer")
    if kind == "choice":
        label = dict(ex.choices(lang))[value]
        answer.get_by_role("button", name=label, exact=True).click()
    else:
        field = answer.locator("input")
        # the box's placeholder shows the form of an answer, never a value of one
        hint = field.get_attribute("placeholder") or ""
        assert str(value) not in hint and not re.search(r"\d", hint.replace("/36", "")), hint
        field.fill(str(value))
        field.press("Enter")
    block.locator(".exercise-check").get_by_role("button").click()


def shut_down_kernels(page, url: str) -> None:
    """Free the machine for the next notebook: delete every session (and its kernel) of the
    JupyterLab at ``url``, as the page's JupyterLab would (its cookies, its XSRF token)."""
    request = page.context.request
    xsrf = next((c["value"] for c in page.context.cookies() if c["name"] == "_xsrf"), "")
    headers = {"X-XSRFToken": xsrf}
    for session in request.get(f"{url}/api/sessions", headers=headers).json():
        response = request.delete(f"{url}/api/sessions/{session['id']}", headers=headers)
        assert response.ok, (response.status, response.text())


def expect_verdict(block, kind: str, headline: str) -> str:
    verdict = block.locator(f".exercise-feedback .verdict-{kind}")
    expect(verdict).to_contain_text(headline, timeout=KERNEL_MS)
    return verdict.inner_text()


def verdict_opening(lang: str, verdict: str) -> str:
    """How a ``verdict`` ("right", "wrong") opens in ``lang`` ("Not quite", "Richtig", "正确"):
    the catalogue's text up to its colon."""
    from nefertiti_core.engine.i18n import tr

    text = tr(lang, f"exercise.verdict.{verdict}", answer="", right="")
    return text.replace("\uff1a", ":").split(":")[0]


def answer_wrong_then_right(page, block, ex: Exercise, lang: str = "en") -> tuple[str, str]:
    """Answer ``ex`` in ``block`` wrong, then right, as a learner does (:func:`give_answer`):
    each time the engine's verdict in ``lang`` must show, opening as it should; the two
    verdicts as shown."""
    wrong, right = wrong_and_right(ex)
    wrong_feedback, right_feedback = ex.check(wrong, lang), ex.check(right, lang)
    assert wrong_feedback.valid and not wrong_feedback.correct, (ex.id, wrong_feedback)
    assert right_feedback.correct, (ex.id, right_feedback)
    give_answer(page, block, ex, wrong, lang)
    shown_wrong = expect_verdict(block, "wrong", wrong_feedback.headline)
    assert shown_wrong.lstrip("\u2717 ").startswith(verdict_opening(lang, "wrong")), shown_wrong
    give_answer(page, block, ex, right, lang)
    shown_right = expect_verdict(block, "right", right_feedback.headline)
    assert shown_right.lstrip("\u2714 ").startswith(verdict_opening(lang, "right")), shown_right
    return shown_wrong, shown_right


@contextlib.contextmanager
def screenshot_on_failure(page, name: str, full_page: bool = True):
    """Keep what ``page`` showed (``ARTIFACTS/<name>-failed.png``) if the block fails."""
    try:
        yield
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(Exception):
            page.screenshot(path=str(ARTIFACTS / f"{name}-failed.png"), full_page=full_page)
        raise


def cookie(context, name: str, timeout: float = STEP_MS / 1000, value=None) -> dict:
    """The browser's cookie ``name`` once the server has set it (and, given ``value``, a
    predicate on its value, once its value passes)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        kept = {c["name"]: c for c in context.cookies()}
        if name in kept and (value is None or value(kept[name]["value"])):
            return kept[name]
        time.sleep(0.2)
    raise AssertionError(f"no cookie {name} as wanted in {timeout:.0f} s: {context.cookies()}")


def wait_saved(home: Path, token: str, needles=(), step: int | None = None, lang=None) -> str:
    """Wait until the Sandbox's store in ``home`` (``games.sqlite3``) holds the game ``token``
    with every needle in its record (and at ``step``, in ``lang``, when given): its record."""
    path = home / "games.sqlite3"
    deadline = time.monotonic() + STEP_MS / 1000
    row = None
    while time.monotonic() < deadline:
        if path.exists():
            with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
                row = db.execute(
                    "SELECT record, step, lang FROM saved_games WHERE token = ?", (token,)
                ).fetchone()
            if (
                row
                and step in (None, row[1])
                and lang in (None, row[2])
                and all(n in row[0] for n in needles)
            ):
                return row[0]
        time.sleep(0.2)
    raise AssertionError(f"game {token} not saved at step {step} in {lang} with {needles}: {row}")


def unfold_demos(page, lang: str, count: int) -> None:
    """Each of the page's ``count`` folded demonstrations ("Show what happens") unfolds to its
    board and the engine's account of the steps in ``lang``, with no step refused."""
    from nefertiti_core.engine.i18n import tr

    # one demonstration per cell (the count of outputs holding one must match the cells')
    outputs = page.locator(".jp-OutputArea-output").filter(has=page.locator(".lesson-demo-show"))
    expect(outputs).to_have_count(count, timeout=KERNEL_MS)
    for i in range(count):
        demo = outputs.nth(i)
        button = demo.locator(".lesson-demo-show button")
        button.scroll_into_view_if_needed()
        button.click()
        account = demo.locator(".lesson-demo-account")
        expect(account).to_contain_text(tr(lang, "lesson.demo.account"), timeout=KERNEL_MS)
        expect(account.locator("li").first).to_be_visible(timeout=KERNEL_MS)
        stopped = tr(lang, "lesson.demo.refused", why="").rstrip(": \uff1a")
        assert stopped not in account.inner_text(), account.inner_text()
        expect(demo.locator("canvas").first).to_be_attached(timeout=KERNEL_MS)


class Forwarder:
    """Another computer of the class, on this machine: a TCP forwarder on ``127.0.0.1:port``
    whose connections reach the server (``127.0.0.1:target``) from the address ``source`` (a
    loopback address of its own), so the server sees that browser as another client address.
    A browser opens the server's pages at ``base``; the server must accept that origin
    (``allow_websocket_origin``)."""

    def __init__(self, target: int, source: str):
        import socket
        import threading

        self.target, self.source = target, source
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.stopped = False
        threading.Thread(target=self.accept, daemon=True, name="forwarder").start()

    def accept(self) -> None:
        import socket
        import threading

        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(
                    ("127.0.0.1", self.target), timeout=30, source_address=(self.source, 0)
                )
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self.pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def pipe(a, b) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for end in (a, b):
                try:
                    end.close()
                except OSError:
                    pass

    def close(self) -> None:
        self.stopped = True
        self.listener.close()


#: Every button of the page (through Panel's shadow roots: pass it to
#: ``page.locator("button").evaluate_all``) whose words are cut: its text and its widths. A
#: hidden button (width 0) is not looked at.
CLIPPED_BUTTONS = """(buttons) => buttons
    .filter((b) => b.clientWidth > 0 && b.scrollWidth > b.clientWidth + 1)
    .map((b) => `${b.innerText.trim()} (${b.scrollWidth} > ${b.clientWidth})`)"""
