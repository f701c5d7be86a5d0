"""A class question reaching 30 learners: the time from the teacher's Ask to the question on
each learner's page.

    .venv/bin/python benchmarks/question_push.py [--learners 30] [--questions 10]

On 127.0.0.1 only. Serves ``nefertiti serve`` (one process, its session caps raised) with a
fresh ``$NEFERTITI_HOME``; the teacher opens a room in Chromium (1024 x 768); ``--learners``
learners join at ``/join`` in Chromium (code + name, as a learner does), then each learner's
Chromium context is closed and the learner is a **Bokeh websocket client** in this process
instead (as benchmarks/classroom_load.py: it loads ``/join?code=...`` with its browser's cookie,
opens the page's websocket, pulls the document, says it is ready, and from then on receives
every update the server sends that page). 30 rendering Chromium pages on this 2-core machine
would measure Chromium's layout more than the server's fan-out; the clients do not render.

Each of ``--questions`` questions (the teacher's menu in order) is asked from the teacher's
page (its Ask button, in Chromium); a learner **has** the question when their page has received
both the card's question (``data-poll`` = its number, poll_view.LearnerPollCard) and the
question's box made visible (``room-poll``; the teacher closes each question before the next,
which hides it). Per learner the time from just before the teacher's click to the later of the
two frames; per question the order of arrival (the 30th learner's time is the last one's).

Prints one JSON line per question and a summary (p50, p95, max, the last learner's p50 and
max, the first question separately: it builds each page's small board), with the machine's
load average. The goal: p95 under 1 s. Exit status 1 when a learner missed a question.
Results: docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
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

#: ``nefertiti serve`` with its session caps raised: every learner here comes from 127.0.0.1
SERVE = (
    "from widgets.serve import serve; serve(port={port}, address='127.0.0.1', show=False, "
    "max_sessions=5000, sessions_per_minute=100000, sessions_per_client=5000)"
)
# the card's question, as the HTML pane sends it (its text escaped: ' -> &#x27;)
ASKED = re.compile(r"data-poll=(?:'|&#x27;|&#39;|\\\"|&quot;)(\d+)")


def _walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


class Client(PageSocket):
    """One learner's page as a websocket client: when each question's text and the question's
    box (shown) first arrived."""

    def __init__(self, base: str, code: str, cookie: str):
        super().__init__(base, code, cookie)
        self.asked: dict[int, float] = {}  # question number -> first frame with it
        self.shown: list[float] = []  # each frame that made the question's box visible
        self.box: str | None = None  # the Bokeh id of the question's box
        self.built = False

    def frame(self, frame: str, now: float) -> None:
        for match in ASKED.finditer(frame):
            self.asked.setdefault(int(match.group(1)), now)
        if '"visible"' not in frame and "room-poll" not in frame:
            return
        try:
            data = json.loads(frame)
        except ValueError:
            return
        for node in _walk(data):
            if self.box is None and "room-poll" in (
                (node.get("attributes") or {}).get("css_classes") or []
            ):
                self.box = node.get("id")
                self.built = True
            if (
                node.get("kind") == "ModelChanged"
                and node.get("attr") == "visible"
                and node.get("new") is True
                and (node.get("model") or {}).get("id") == self.box
            ):
                self.shown.append(now)

    def has(self, number: int, since: float) -> float | None:
        """When this page had question ``number`` asked at ``since`` (None: not yet)."""
        asked = self.asked.get(number)
        shown = [t for t in self.shown if t >= since]
        if asked is None or not shown:
            return None
        return max(asked, shown[0])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=positive, default=30)
    parser.add_argument("--questions", type=positive, default=10)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per question")
    args = parser.parse_args(argv)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    home = tempfile.mkdtemp(prefix="question-push-")
    env = {**os.environ, "NEFERTITI_HOME": home}
    log = Path(home) / "server.log"
    load_before = [round(x, 2) for x in os.getloadavg()]

    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    command = [sys.executable, "-c", SERVE.format(port=port)]
    with running(command, f"{base}/tutor", log, env, timeout=120):
        loop = asyncio.new_event_loop()
        threading.Thread(target=loop.run_forever, name="ws-clients", daemon=True).start()
        with sync_playwright() as p:
            browser = launch(p)
            teacher = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
            teacher.set_default_timeout(120_000)
            teacher.goto(f"{base}/classroom")
            teacher.locator(".room-open button").click()
            teacher.locator(".room-join-code").wait_for()
            code = teacher.locator(".room-code").inner_text().strip()
            clients = []
            for n in range(args.learners):
                for attempt in range(3):  # a page that never came (a busy machine): again
                    context = browser.new_context(viewport={"width": 390, "height": 844})
                    page = context.new_page()
                    page.set_default_timeout(120_000)
                    try:
                        page.goto(f"{base}/join?code={code}")
                        page.locator(".room-name-input input").fill(f"L{n}")
                        page.locator(".room-join button").click()
                        page.locator(".room-status").wait_for()
                        cookie = learner_cookie(context)
                        break
                    except PlaywrightTimeout:
                        print(f"# learner {n}: no page, attempt {attempt + 1}", flush=True)
                        if attempt == 2:
                            raise
                    finally:
                        context.close()  # its session is dropped; the websocket client takes over
                client = Client(base, code, cookie)
                asyncio.run_coroutine_threadsafe(client.run(), loop)
                clients.append(client)
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and not all(c.built or c.error for c in clients):
                time.sleep(0.2)
            # the closed Chromium sessions are discarded once unused for 15 s (checked every 5 s)
            time.sleep(22.0)
            pick = teacher.locator(".poll-pick select")
            every, lasts, firsts_q, missing = [], [], [], 0
            for q in range(args.questions):
                pick.select_option(index=q)
                number = q + 1
                time.sleep(0.5)
                t0 = time.perf_counter()
                teacher.locator(".poll-push button").click()
                end = time.monotonic() + args.timeout
                while time.monotonic() < end and not all(
                    c.has(number, t0) is not None for c in clients if not c.error
                ):
                    time.sleep(0.005)
                times = sorted(
                    (c.has(number, t0) - t0) for c in clients if c.has(number, t0) is not None
                )
                missing += len(clients) - len(times)
                every.extend(times)
                if times:
                    lasts.append(times[-1])
                if q == 0:
                    firsts_q = times
                print(
                    json.dumps(
                        {
                            "question": number,
                            "received": len(times),
                            "first_s": round(times[0], 3) if times else None,
                            "p50_s": round(pct(times, 0.5), 3) if times else None,
                            "p95_s": round(pct(times, 0.95), 3) if times else None,
                            "last_s": round(times[-1], 3) if times else None,
                            "load_average": [round(x, 2) for x in os.getloadavg()],
                        }
                    ),
                    flush=True,
                )
                teacher.locator(".poll-close-button button").click()
                time.sleep(2.0)
            browser.close()
        loop.call_soon_threadsafe(loop.stop)
    errors = [c.error for c in clients if c.error]
    later = every[len(firsts_q) :]
    summary = {
        "figure": "question push",
        "measured": "teacher's click on Ask in Chromium -> the question's text and its box shown "
        "at each learner's websocket (no rendering)",
        "learners": args.learners,
        "questions": args.questions,
        "expected": args.learners * args.questions,
        "received": len(every),
        "missing": missing,
        "client_errors": errors[:3],
        "p50_s": round(pct(every, 0.5), 3) if every else None,
        "p95_s": round(pct(every, 0.95), 3) if every else None,
        "max_s": round(max(every), 3) if every else None,
        "last_learner_p50_s": round(pct(lasts, 0.5), 3) if lasts else None,
        "last_learner_max_s": round(max(lasts), 3) if lasts else None,
        "first_question_p95_s": round(pct(firsts_q, 0.95), 3) if firsts_q else None,
        "first_question_last_s": round(max(firsts_q), 3) if firsts_q else None,
        "later_questions_p95_s": round(pct(later, 0.95), 3) if later else None,
        "load_average_before": load_before,
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "cores": os.cpu_count(),
    }
    print(json.dumps(summary), flush=True)
    return 1 if missing or errors else 0


if __name__ == "__main__":
    sys.exit(main())
