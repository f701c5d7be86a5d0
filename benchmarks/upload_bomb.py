"""Upload bombs against the served Sandbox: the server's memory, and another session's clicks.

    .venv/bin/python benchmarks/upload_bomb.py [--clicks 12]

Serves the Sandbox (``nefertiti serve``'s app) on 127.0.0.1 and opens two Chromium sessions.
Session A uploads each bomb through the real file input ("New game and files"); meanwhile
session B plays: it places a servant on an empty square and undoes it, again and again, and each
click is timed until the server's answer is in B's page (after a placement, the board's legal
squares for the next player; after Undo, the servant gone from the drawn board). The server's
memory is its resident set size (``VmRSS`` in ``/proc/PID/status``), sampled every 10 ms.

The bombs:

* ``zlib bomb 1.4 MB``: ``random_state`` is a zlib stream that inflates to about 1 GB (the
  file is over the 1 MiB limit);
* ``zlib bomb 0.93 MB``: the same kind, under the file limit (refused by the random state's
  length);
* ``zlib bomb 16 KB``: one that fits the random state's length and inflates to 11 MB (the
  reader stops inflating at 16 KiB);
* ``huge record``: 3,000 ``roll 6 6 6 6 6 6`` steps (0.07 MB);
* ``deep nesting``: 900 nested ``[``.

For each: the server's RSS before and its peak while the bomb was refused, the time until A
shows the refusal, and B's click latencies during that time (p50 / p95 / max) beside B's
latencies with no upload; and the same for the server's loop seen from outside (a small static
file fetched every 25 ms, see LoopProbe). The machine's load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT))

from support import SANDBOX, free_port, launch, wait_for_http  # noqa: E402

from widgets.game import geometry as G  # noqa: E402

SIMPLE = "nefertiti: 1\nplayers:\n- colour: red\n- colour: blue\n- colour: green\n- colour: black\n"
LOAD_MS = 120_000
REFUSED = "refused|too large|too long|nested more|unpacks to over|fixed ahead"


def zlib_bomb(size: int) -> bytes:
    """A zlib stream of about ``size`` bytes that inflates about a thousand times larger."""
    packer, chunk, out, n = zlib.compressobj(9), b"0," * 8_000_000, [], 0
    out.append(packer.compress(b"["))
    while n < size:
        out.append(packer.compress(chunk))
        n += len(out[-1])
    return b"".join(out)


def bombs(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    big = zlib_bomb(1_050_000)
    from nefertiti_core import new_game
    from nefertiti_core.files.history import History

    record = History(new_game(4, seed=1)).record().dumps().rstrip()
    record = record[: -len("moves: []")] + "moves:\n" + "  - roll 6 6 6 6 6 6\n" * 3000
    files = {
        "zlib bomb 1.4 MB": SIMPLE + "random_state: " + base64.b64encode(big).decode() + "\n",
        "zlib bomb 0.93 MB": SIMPLE
        + "random_state: "
        + base64.b64encode(big[:700_000]).decode()
        + "\n",
        "zlib bomb 16 KB": SIMPLE
        + "random_state: "
        + base64.b64encode(zlib.compress(b"[" + b" " * 11_000_000 + b"]", 9)).decode()
        + "\n",
        "huge record": record,
        "deep nesting": SIMPLE + "title: " + "[" * 900 + "]" * 900 + "\n",
    }
    out = {}
    for label, text in files.items():
        path = folder / (label.replace(" ", "-").replace(".", "_") + ".yaml")
        path.write_text(text, encoding="utf-8")
        out[label] = path
    return out


# --- the server and its memory ---------------------------------------------------------------
@contextlib.contextmanager
def server():
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", SANDBOX.replace("PORT", str(port))],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_http(f"http://127.0.0.1:{port}/tutor", timeout=120)
        yield process, f"http://127.0.0.1:{port}/tutor"
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class RssSampler:
    """The server's RSS every 10 ms in a thread; ``peak`` since the last ``reset``."""

    def __init__(self, pid: int):
        self.pid, self.peak, self._stop = pid, 0.0, False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop:
            with contextlib.suppress(OSError):
                self.peak = max(self.peak, rss_mb(self.pid))
            time.sleep(0.01)

    def reset(self) -> float:
        self.peak = rss_mb(self.pid)
        return self.peak

    def stop(self):
        self._stop = True


class LoopProbe:
    """The server's event loop, sampled from outside: a small static file (served by the same
    Tornado loop as every session) fetched every 25 ms; its answer time is the loop's delay plus
    a local round trip (about 10 ms here). Free of Chromium's and Playwright's own delays."""

    def __init__(self, url: str):
        self.url, self.times, self._stop = url, [], False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        import urllib.request

        while not self._stop:
            start = time.perf_counter()
            with contextlib.suppress(OSError), urllib.request.urlopen(self.url, timeout=60) as r:
                r.read()
                self.times.append((time.perf_counter() - start) * 1000)
            time.sleep(0.025)

    def take(self) -> list[float]:
        out, self.times = self.times, []
        return out

    def stop(self):
        self._stop = True


# --- session B: timed clicks -------------------------------------------------------------------
READ = """(name) => { for (const d of Bokeh.documents) { const m = d.get_model_by_name(name);
    if (m) { const e = m.data instanceof Map ? Object.fromEntries(m.data) : m.data;
             const o = {}; for (const k in e) o[k] = Array.from(e[k]); return o; } } return null; }"""


TEXT_SHOWN = """(needle) => { for (const d of Bokeh.documents) for (const m of d.all_models) {
    const t = m.text ?? m.object; if (typeof t === "string" && t.includes(needle)) return true; }
    return false; }"""


def open_session(browser, url: str):
    context = browser.new_context(viewport={"width": 1500, "height": 1150})
    page = context.new_page()
    page.goto(url, timeout=LOAD_MS)
    page.locator(".bk-Canvas").first.wait_for(timeout=LOAD_MS)
    page.wait_for_function(
        f"() => {{ const s = ({READ})('board-squares'); return s && s.x.length > 0; }}",
        timeout=LOAD_MS,
    )
    return context, page


def empty_square(page) -> tuple[float, float]:
    squares, servants = page.evaluate(READ, "board-squares"), page.evaluate(READ, "board-servants")
    taken = set(zip(servants["x"], servants["y"], strict=True))
    for x, y, fill in zip(squares["x"], squares["y"], squares["fill"], strict=True):
        if (x, y) not in taken and fill == "#fffaf0":
            canvas = page.locator(".bk-Canvas").first
            canvas.scroll_into_view_if_needed()  # a mouse clicks what is on the screen
            box = canvas.bounding_box()
            return (
                box["x"] + x / G.WIDTH * box["width"],
                box["y"] + (1 - y / G.HEIGHT) * box["height"],
            )
    raise RuntimeError("no empty square")


class Player:
    """Session B: place a servant, undo it; each click timed until the server's answer is in
    the page: the timeline's "Step 1 of 1" after the placement, "Step 0 of 1" after Undo (the
    board draws a servant at the press itself, so the drawn board proves nothing)."""

    def __init__(self, page):
        self.page = page
        page.get_by_role("button", name="Timeline", exact=True).click()
        self.undo = page.get_by_role("button", name="Undo", exact=True)
        self.undo.wait_for()
        self.target = empty_square(page)

    def _wait_text(self, needle: str) -> None:
        self.page.wait_for_function(TEXT_SHOWN, arg=needle, polling=5, timeout=LOAD_MS)

    def place(self) -> float:
        self.target = empty_square(self.page)  # where the board is on the screen now
        self.page.mouse.move(*self.target)
        start = time.perf_counter()
        self.page.mouse.click(*self.target)
        self._wait_text("Step 1 of 1 ")
        return (time.perf_counter() - start) * 1000

    def take_back(self) -> float:
        box = self.undo.bounding_box()
        start = time.perf_counter()
        self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self._wait_text("Step 0 of 1 ")
        return (time.perf_counter() - start) * 1000

    def clicks(self, until=None, at_least: int = 0, at_most: int = 40) -> list[float]:
        out = []
        while len(out) < at_most and (len(out) < at_least or (until is not None and not until())):
            out.append(self.place())
            out.append(self.take_back())
        return out


def summary(values: list[float], what: str = "clicks") -> str:
    if not values:
        return f"no {what}"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"p50 {statistics.median(ordered):.0f} ms, p95 {p95:.0f} ms, max {ordered[-1]:.0f} ms "
        f"({len(ordered)} {what})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=12, help="baseline clicks (12)")
    parser.add_argument("--out", default="/tmp/upload-bomb", help="where the bombs are written")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    files = bombs(Path(args.out))
    print(f"load average before: {os.getloadavg()}")
    with server() as (process, url), sync_playwright() as p:
        browser = launch(p)
        sampler = RssSampler(process.pid)
        probe = LoopProbe(url.rsplit("/", 1)[0] + "/static/extensions/panel/css/loading.css")
        ctx_a, page_a = open_session(browser, url)
        ctx_b, page_b = open_session(browser, url)
        page_a.get_by_role("button", name="New game and files", exact=True).click()
        status = page_a.get_by_text(re.compile(REFUSED))  # the refusal in A's files view
        player = Player(page_b)
        player.clicks(at_least=4)  # warm up
        base_rss = sampler.reset()
        probe.take()
        baseline = player.clicks(at_least=args.clicks, at_most=args.clicks)
        print(f"server RSS {base_rss:.0f} MB; session B with no upload: {summary(baseline)}")
        print(f"{'':18} the server's loop with no upload: {summary(probe.take(), 'answers')}")
        results = {}
        for label, path in files.items():
            before = sampler.reset()
            probe.take()
            start = time.perf_counter()
            page_a.locator("input[type=file]").set_input_files(str(path))
            refused = lambda: status.count() > 0 and status.first.is_visible()  # noqa: E731
            during = player.clicks(until=refused, at_least=2)
            status.first.wait_for(timeout=LOAD_MS)
            seconds = time.perf_counter() - start
            text = status.first.inner_text().strip().splitlines()[0]
            results[label] = (before, sampler.peak, seconds, during, text)
            print(
                f"{label:18} ({path.stat().st_size / 1e6:.2f} MB): server RSS {before:.0f} -> "
                f"peak {sampler.peak:.0f} MB; refused after {seconds:.1f} s; session B: "
                f"{summary(during)}"
            )
            print(f"{'':18} the server's loop meanwhile: {summary(probe.take(), 'answers')}")
            print(f"{'':18} A shows: {text[:160]}")
            # the next bomb: clear A's status by showing the view again
            page_a.reload(timeout=LOAD_MS)
            page_a.locator(".bk-Canvas").first.wait_for(timeout=LOAD_MS)
            page_a.get_by_role("button", name="New game and files", exact=True).click()
        sampler.stop()
        probe.stop()
        alive = process.poll() is None
        print(f"server still running: {alive}; load average after: {os.getloadavg()}")
        ctx_a.close()
        ctx_b.close()
        browser.close()


if __name__ == "__main__":
    main()
