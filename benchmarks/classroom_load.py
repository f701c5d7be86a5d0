"""A class at one table under load: how fast each move reaches every learner's page.

    .venv/bin/python benchmarks/classroom_load.py [--learners 30] [--rooms 1] [--moves 20]

On 127.0.0.1 only. Serves ``nefertiti serve`` (its session caps raised) with a fresh
``$NEFERTITI_HOME``; opens ``--rooms`` rooms, each from a teacher's page in Chromium (the
projector view, 1024 x 768); ``--learners`` learners per room join at ``/join`` in Chromium
(code + name, as a learner does; the time from opening the page to the table shown is the
**join time**), then each learner's Chromium context is closed and the learner is a
**websocket client** in this process instead: it loads ``/join?code=...`` with its browser's
cookie (the same participant), opens the page's Bokeh websocket, pulls the document, says the
document is ready (as BokehJS does: the page is built then) and from then on receives every
update the server sends that page. Each of ``--moves`` moves is played from a teacher's page
(Place, or the decision's first option), rooms in turn; a move's **propagation latency** for a
learner is the time from just before the teacher's click to the first websocket frame that
carries the learner page's new table step (``data-step`` of its status line). The clients do
not render, so the figure is the server's share (and the network's) of what a browser would
show; rendering in a phone adds its own milliseconds.

Server memory: the server process's resident set (``/proc/PID/status``) before the rooms, and
once every learner's websocket page is built; per participant = the difference / participants.

Prints one JSON line per figure, with the machine's load average (other work on a shared
2-core machine inflates every figure).

Also printed per move: when the first learner has the move, and how long after it the last
one has it (the server's fan-out to the room's pages).

The goal: p95 propagation under 150 ms for 30 learners. The exit status is 1 when any learner
missed a move (or its page failed), whatever the speed. Results: docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from page_socket import PageSocket, learner_cookie, pct, positive  # noqa: E402
from support import free_port, launch, running  # noqa: E402

SERVE = (
    "from widgets.serve import serve; serve(port={port}, address='127.0.0.1', show=False, "
    "max_sessions=5000, sessions_per_minute=100000)"
)
# the status line's step, as the HTML pane sends it (its text escaped: ' -> &#x27;)
STEP = re.compile(r"data-step=(?:'|&#x27;|&#39;|\\\"|&quot;)(\d+)")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Client(PageSocket):
    """One learner's page as a websocket client: every frame's arrival time, by table step."""

    def __init__(self, base: str, code: str, cookie: str):
        super().__init__(base, code, cookie)
        self.seen: dict[int, float] = {}  # table step -> first arrival (perf_counter)
        self.ready = asyncio.Event()

    def frame(self, frame: str, now: float) -> None:
        for match in STEP.finditer(frame):
            self.seen.setdefault(int(match.group(1)), now)
            self.ready.set()

    def failed(self) -> None:
        self.ready.set()


def _step(page) -> int:
    """The table's step as the teacher's (projector) page shows it."""
    return int(page.locator(".room-table-step").get_attribute("data-step") or 0)


def _arrival(client: Client, target: int) -> float | None:
    """When the client first received the table at ``target`` or later (several steps made
    in one tick reach a page as one update)."""
    times = [t for step, t in client.seen.items() if step >= target]
    return min(times) if times else None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=positive, default=30, help="learners per room")
    parser.add_argument("--rooms", type=positive, default=1)
    parser.add_argument("--moves", type=positive, default=20, help="moves in all (rooms in turn)")
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="seconds after which a move counts as missing"
    )
    args = parser.parse_args(argv)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    home = tempfile.mkdtemp(prefix="classroom-load-")
    env = {**os.environ, "NEFERTITI_HOME": home}
    log = Path(home) / "server.log"
    results = {}

    def out(**figures):
        figures["load_average"] = [round(x, 2) for x in os.getloadavg()]
        results[figures["figure"]] = figures
        print(json.dumps(figures), flush=True)

    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    load_before = [round(x, 2) for x in os.getloadavg()]
    command = [sys.executable, "-c", SERVE.format(port=port)]
    with running(command, f"{base}/tutor", log, env, timeout=120) as server:
        time.sleep(2.0)
        rss_start = rss_kb(server.pid)
        loop = asyncio.new_event_loop()
        threading.Thread(target=loop.run_forever, name="ws-clients", daemon=True).start()
        with sync_playwright() as p:
            browser = launch(p)
            teachers, codes, joins = [], [], []
            for _ in range(args.rooms):
                page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
                page.set_default_timeout(120_000)
                page.goto(f"{base}/classroom")
                page.locator(".room-open button").click()
                page.locator(".room-join-code").wait_for()
                codes.append(page.locator(".room-code").inner_text().strip())
                teachers.append(page)
            time.sleep(1.0)
            rss_teachers = rss_kb(server.pid)
            clients: list[list[Client]] = []
            for room, code in enumerate(codes):
                room_clients = []
                for n in range(args.learners):
                    context = browser.new_context(viewport={"width": 390, "height": 844})
                    page = context.new_page()
                    page.set_default_timeout(120_000)
                    t0 = time.perf_counter()
                    page.goto(f"{base}/join?code={code}")
                    page.locator(".room-name-input input").fill(f"L{room}-{n}")
                    page.locator(".room-join button").click()
                    page.locator(".room-status").wait_for()
                    joins.append(time.perf_counter() - t0)
                    cookie = learner_cookie(context)
                    context.close()  # its session is dropped; the websocket client takes over
                    client = Client(base, code, cookie)
                    asyncio.run_coroutine_threadsafe(client.run(), loop)
                    room_clients.append(client)
                clients.append(room_clients)
            everyone = [c for room in clients for c in room]
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not all(c.seen or c.error for c in everyone):
                time.sleep(0.2)
            errors = [c.error for c in everyone if c.error]
            not_ready = sum(1 for c in everyone if not c.seen and not c.error)
            for c in everyone:
                if not c.seen and not c.error:
                    print(
                        f"# a client without its page: {c.state}, {c.frames} frames; log {log}",
                        flush=True,
                    )
            # the closed Chromium sessions are discarded once unused for 15 s (checked every 5 s)
            time.sleep(22.0)
            rss_all = rss_kb(server.pid)
            out(
                figure="join",
                rooms=args.rooms,
                learners_per_room=args.learners,
                join_p50_s=round(pct(joins, 0.5), 3),
                join_p95_s=round(pct(joins, 0.95), 3),
                join_max_s=round(max(joins), 3),
                client_errors=errors[:3],
                clients_without_page=not_ready,
            )
            latencies, projector, missing, moved, projector_missing = [], [], 0, 0, 0
            firsts, spreads = [], []  # per move: the first learner's latency; last - first
            for move in range(args.moves):
                room = move % args.rooms
                page = teachers[room]
                before = _step(page)
                decision = page.locator(".room-decision")
                place = decision.get_by_role("button", name="Place", exact=True)
                button = place.first if place.count() and place.first.is_visible() else None
                if button is None:
                    button = decision.locator("button:visible").first
                t0 = time.perf_counter()
                button.click()
                try:  # the projector (the teacher's page in Chromium) shows the new step
                    page.locator(f".room-table-step:not([data-step='{before}'])").wait_for(
                        state="attached", timeout=args.timeout * 1000
                    )
                    projector.append((time.perf_counter() - t0) * 1000)
                except PlaywrightTimeout:
                    projector_missing += 1
                moved += 1
                end = time.monotonic() + args.timeout
                live = [c for c in clients[room] if not c.error]
                while time.monotonic() < end and not all(
                    _arrival(c, before + 1) is not None for c in live
                ):
                    time.sleep(0.002)
                arrivals = []
                for c in clients[room]:
                    arrived = _arrival(c, before + 1)
                    if arrived is None:
                        missing += 1  # a learner who never got the move (or whose page failed)
                    else:
                        latencies.append((arrived - t0) * 1000)
                        arrivals.append(arrived)
                if arrivals:  # the click's way to the server, then the server's fan-out
                    firsts.append((min(arrivals) - t0) * 1000)
                    spreads.append((max(arrivals) - min(arrivals)) * 1000)
                time.sleep(0.3)
            # every learner ends at the table's step the teacher's page shows
            final = [_step(page) for page in teachers]
            behind = sum(
                1
                for room, room_clients in enumerate(clients)
                for c in room_clients
                if not c.seen or max(c.seen) != final[room]
            )
            out(
                figure="move propagation",
                measured="teacher's click in Chromium -> the frame with the new table step at "
                "each learner's websocket",
                rooms=args.rooms,
                learners_per_room=args.learners,
                moves=moved,
                expected=moved * args.learners,
                received=len(latencies),
                missing=missing,
                learners_not_at_final_step=behind,
                p50_ms=round(pct(latencies, 0.5), 1) if latencies else None,
                p95_ms=round(pct(latencies, 0.95), 1) if latencies else None,
                max_ms=round(max(latencies), 1) if latencies else None,
                mean_ms=round(statistics.mean(latencies), 1) if latencies else None,
                first_learner_p50_ms=round(pct(firsts, 0.5), 1) if firsts else None,
                fan_out_p50_ms=round(pct(spreads, 0.5), 1) if spreads else None,
                fan_out_p95_ms=round(pct(spreads, 0.95), 1) if spreads else None,
                projector_missing=projector_missing,
                projector_p50_ms=round(pct(projector, 0.5), 1) if projector else None,
                projector_p95_ms=round(pct(projector, 0.95), 1) if projector else None,
            )
            participants = args.rooms * args.learners
            out(
                figure="server memory",
                rss_start_mb=round(rss_start / 1024, 1),
                rss_with_teachers_mb=round(rss_teachers / 1024, 1),
                rss_with_everyone_mb=round(rss_all / 1024, 1),
                per_learner_mb=round((rss_all - rss_teachers) / 1024 / participants, 2),
            )
            browser.close()
        loop.call_soon_threadsafe(loop.stop)
    join, prop, mem = results["join"], results["move propagation"], results["server memory"]
    failed = bool(prop["missing"] or prop["learners_not_at_final_step"] or join["client_errors"])
    failed = failed or bool(prop["projector_missing"])
    failed = failed or bool(join["clients_without_page"])
    print(
        f"\n{args.rooms} room(s) x {args.learners} learner(s) + a teacher's projector page each, "
        f"{moved} moves:\n"
        f"  move propagation p50 {prop['p50_ms']} ms, p95 {prop['p95_ms']} ms, "
        f"max {prop['max_ms']} ms ({prop['received']} of {prop['expected']} received, "
        f"{prop['missing']} missing)\n"
        f"  per move: the first learner has it after p50 {prop['first_learner_p50_ms']} ms, "
        f"the last {prop['fan_out_p50_ms']} ms after the first (p95 {prop['fan_out_p95_ms']} ms)\n"
        f"  projector (Chromium) shows the move: p50 {prop['projector_p50_ms']} ms, "
        f"p95 {prop['projector_p95_ms']} ms\n"
        f"  join (Chromium, page opened -> table shown): p50 {join['join_p50_s']} s, "
        f"p95 {join['join_p95_s']} s\n"
        f"  server memory: {mem['rss_with_everyone_mb']} MB with everyone, "
        f"{mem['per_learner_mb']} MB per learner\n"
        f"  load average before {load_before}, after {[round(x, 2) for x in os.getloadavg()]} "
        f"({os.cpu_count()} cores)\n"
        f"  {'FAILED: a learner missed a move or had no page' if failed else 'every learner received every move'}",
        flush=True,
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
