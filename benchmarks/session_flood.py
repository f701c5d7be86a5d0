"""A flood of page loads against ``nefertiti serve``, and what an open session's clicks feel then.

    .venv/bin/python benchmarks/session_flood.py [--requests 200] [--seconds 60] [--clicks 20]
                                                 [--per-minute N] [--cpu-gets 10] [--before]

Any page a browser opens can make it load ``/tutor`` again and again (``<img>`` tags), so a page
load must cost the server little and the caps must hold. This script, on 127.0.0.1 only:

1. **CPU per page load**: serves the Sandbox with the per-client rate raised, fetches ``/tutor``
   ``--cpu-gets`` times one after the other and prints the server process's CPU time per fetch
   (``/proc/PID/stat``: user + system).
2. **Flood**: serves the Sandbox with ``nefertiti serve``'s defaults (or ``--per-minute``), opens
   the Sandbox in Chromium (one session, the Timeline shown), times ``--clicks`` board clicks with
   no flood, then sends ``--requests`` page loads spread over ``--seconds`` from another loopback
   address (127.0.0.2, another "computer"; at most 8 in flight) while clicking again. A click
   is a press and release on an empty square; its time runs from the release to the server's
   board update arriving in the page (``confirmed`` of benchmarks/click_latency.py, in-page
   clock); after each click the Timeline's Undo takes it back, so every click is the same
   placement in the same open session.
3. After the flood: the answers' status codes, the server still running, and a new session
   (a new browser context) that plays a move.

Prints one JSON line per figure; the machine's load average with them (other work on a shared
2-core machine inflates every figure).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from click_latency import PROBE, _placement_targets, click, from_release, wait_marks  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402
from support import canvas_point, free_port, launch, wait_for_http  # noqa: E402

from widgets.game import geometry as G  # noqa: E402

SERVE = (
    "from widgets.serve import serve; serve(port={port}, address='127.0.0.1', show=False{extra})"
)
#: ``--before``: the Sandbox served without the safeguards of docs/security.md, to compare: every
#: page load builds a whole Sandbox, no caps (TCP_NODELAY as before; the views are built lazily,
#: which is the Sandbox's own code and stays).
SERVE_BEFORE = (
    "import panel as pn\nfrom widgets.serve import install_handlers\n"
    "from widgets.sandbox.app import make_app\ninstall_handlers()\npn.extension(notifications=True)\n"
    "pn.serve({{'tutor': make_app}}, port={port}, address='127.0.0.1', show=False, "
    "websocket_origin=['127.0.0.1:{port}', 'localhost:{port}'])\n"
)


def start_server(extra: str = "", before: bool = False):
    """A served Sandbox in a subprocess; returns (process, port)."""
    import subprocess

    port = free_port()
    code = SERVE_BEFORE.format(port=port) if before else SERVE.format(port=port, extra=extra)
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for_http(f"http://127.0.0.1:{port}/tutor")
    return process, port


def stop(process) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except Exception:  # noqa: BLE001 - a server that will not stop is killed
        process.kill()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def page_load(port: int, source: str = "127.0.0.1", timeout: float = 60) -> int:
    """One ``GET /tutor`` from ``source``; its HTTP status (0: no answer)."""
    request = f"GET /tutor HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
    try:
        with socket.create_connection(
            ("127.0.0.1", port), timeout=timeout, source_address=(source, 0)
        ) as s:
            s.sendall(request)
            head = s.recv(64)
            while s.recv(65536):
                pass
        return int(head.split()[1]) if head.startswith(b"HTTP/") else 0
    except OSError:
        return 0


def cpu_per_page_load(gets: int, before: bool = False) -> dict:
    process, port = start_server(", sessions_per_minute=10_000", before)
    try:
        page_load(port)  # warm
        before = cpu_seconds(process.pid)
        start = time.perf_counter()
        codes = collections.Counter(page_load(port) for _ in range(gets))
        cpu = cpu_seconds(process.pid) - before
        wall = time.perf_counter() - start
    finally:
        stop(process)
    return {
        "what": "server CPU per GET /tutor",
        "gets": gets,
        "cpu_ms_per_get": round(cpu / gets * 1000),
        "wall_ms_per_get": round(wall / gets * 1000),
        "codes": dict(codes),
        "load_average": load(),
    }


class Flood:
    """``requests`` page loads spread evenly over ``seconds`` from ``source`` (8 in flight)."""

    def __init__(self, port: int, requests: int, seconds: float, source: str = "127.0.0.2"):
        self.port, self.requests, self.seconds, self.source = port, requests, seconds, source
        self.codes: collections.Counter = collections.Counter()
        self._lock = threading.Lock()
        self._slots = threading.Semaphore(8)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.elapsed = 0.0

    def start(self) -> Flood:
        self._thread.start()
        return self

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def _one(self) -> None:
        try:
            code = page_load(self.port, self.source)
            with self._lock:
                self.codes[code] += 1
        finally:
            self._slots.release()

    def _run(self) -> None:
        start = time.perf_counter()
        workers = []
        for n in range(self.requests):
            delay = start + n * self.seconds / self.requests - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            self._slots.acquire()
            worker = threading.Thread(target=self._one, daemon=True)
            worker.start()
            workers.append(worker)
        for worker in workers:
            worker.join(120)
        self.elapsed = time.perf_counter() - start


def open_sandbox(browser, url: str):
    """A new context (a new session) on the Sandbox, its Timeline shown; returns the page."""
    context = browser.new_context(viewport={"width": 1500, "height": 1150})
    page = context.new_page()
    page.goto(url, timeout=120_000)
    page.locator(".bk-Canvas").first.wait_for(timeout=120_000)
    page.wait_for_function(
        """() => { for (const d of (window.Bokeh ? Bokeh.documents : [])) {
            const m = d.get_model_by_name("board-squares");
            if (m) { const x = m.data instanceof Map ? m.data.get("x") : m.data.x; return x.length > 0; } }
            return false; }""",
        timeout=120_000,
    )
    page.get_by_role("button", name="Timeline", exact=True).click()
    page.get_by_role("button", name="Undo", exact=True).wait_for(timeout=60_000)
    time.sleep(1.0)
    page.evaluate(PROBE)
    return page


SERVANTS = """() => { for (const d of Bokeh.documents) { const m = d.get_model_by_name("board-servants");
    if (m) { const x = m.data instanceof Map ? m.data.get("x") : m.data.x; return x.length; } } return -1; }"""


def click_and_undo(page, target) -> float:
    """Place a servant on ``target``; ms from the release to the server's board update (in page);
    then Undo, and wait until the servant is gone."""
    x, y = canvas_point(page, target[0], target[1], G.WIDTH, G.HEIGHT)
    page.evaluate("() => window.__probe.arm('board')")
    click(page, x, y, 0.1, "drawn")
    marks = wait_marks(page, ["confirmed"], timeout=60_000)
    latency = from_release(marks, "confirmed")
    page.get_by_role("button", name="Undo", exact=True).click()
    page.wait_for_function(f"() => ({SERVANTS})() === 0", polling=20, timeout=60_000)
    time.sleep(0.3)
    return latency


def figures(name: str, values: list[float]) -> dict:
    ordered = sorted(values)
    if not ordered:
        return {"what": name, "clicks": 0, "load_average": load()}
    return {
        "what": name,
        "clicks": len(values),
        "p50_ms": round(statistics.median(ordered), 1),
        "p95_ms": round(ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))], 1),
        "max_ms": round(ordered[-1], 1),
        "load_average": load(),
    }


def flood_run(
    browser, requests: int, seconds: float, clicks: int, per_minute: int | None, before: bool
):
    """The open session's clicks before and during a flood; the server's state after it."""
    extra = f", sessions_per_minute={per_minute}" if per_minute else ""
    process, port = start_server(extra, before)
    url = f"http://127.0.0.1:{port}/tutor"
    out = []
    try:
        page = open_sandbox(browser, url)
        target = _placement_targets(page)[0]
        quiet = [click_and_undo(page, target) for _ in range(clicks)]
        out.append(figures("open session's click -> server's board update, no flood", quiet))
        flood = Flood(port, requests, seconds).start()
        during = []
        unanswered = 0
        while flood.running:
            try:
                during.append(click_and_undo(page, target))
            except PlaywrightTimeout:  # not answered within 60 s: noted, measuring stops
                unanswered += 1
                break
        flood.join()
        row = figures(
            f"open session's click -> server's board update, during {requests} page loads "
            f"in {flood.elapsed:.0f} s",
            during,
        )
        row["clicks_unanswered_within_60s"] = unanswered
        out.append(row)
        if unanswered:
            time.sleep(20)  # the server works off the flood's sessions
            page.wait_for_function(f"() => ({SERVANTS})() >= 0", timeout=120_000)
            page.get_by_role("button", name="Undo", exact=True).click(timeout=120_000)
            page.wait_for_function(f"() => ({SERVANTS})() === 0", timeout=120_000)
        out.append(
            {
                "what": "the flood's answers (HTTP status: count)",
                "codes": dict(flood.codes),
                "server_running": process.poll() is None,
            }
        )
        after = [click_and_undo(page, target) for _ in range(3)]
        fresh = open_sandbox(browser, url)
        fresh_ms = click_and_undo(fresh, _placement_targets(fresh)[0])
        out.append(
            {
                "what": "after the flood",
                "open_session_clicks_ms": [round(v) for v in after],
                "new_session_click_ms": round(fresh_ms),
                "server_running": process.poll() is None,
            }
        )
    finally:
        stop(process)
    return out


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--clicks", type=int, default=20, help="clicks with no flood")
    parser.add_argument(
        "--per-minute",
        type=int,
        default=None,
        help="the server's --sessions-per-minute (default: nefertiti serve's)",
    )
    parser.add_argument("--cpu-gets", type=int, default=10)
    parser.add_argument(
        "--before",
        action="store_true",
        help="serve the Sandbox without its safeguards (a whole Sandbox per page load, no caps)",
    )
    args = parser.parse_args(argv)
    if not (1 <= args.requests <= 1000 and 1 <= args.seconds <= 600 and args.clicks >= 1):
        parser.error("--requests 1..1000, --seconds 1..600, --clicks at least 1")
    from playwright.sync_api import sync_playwright

    print(json.dumps({"load_average_at_start": load(), "before": args.before}), flush=True)
    if args.cpu_gets:
        print(json.dumps(cpu_per_page_load(args.cpu_gets, args.before)), flush=True)
    with sync_playwright() as p:
        browser = launch(p)
        rows = flood_run(
            browser, args.requests, args.seconds, args.clicks, args.per_minute, args.before
        )
        for row in rows:
            print(json.dumps(row), flush=True)
        browser.close()
    print(json.dumps({"load_average_at_end": load()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
