"""How long other pages take to answer while the classroom's database hangs.

    .venv/bin/python benchmarks/hung_database.py [--requests 15] [--repo PATH]

A private PostgreSQL server (tests/pg.py) and ``nefertiti serve`` on it (``--repo``: run the
server from another checkout, e.g. a ``git worktree`` of an older commit, to compare). A
teacher's page (Chromium) opens a room; the database is stopped (SIGSTOP on the postmaster and
every backend, as a frozen database host is) and the teacher presses Pause, whose write then
waits for the database. Meanwhile this script fetches the front page (``/``) and a Sandbox page
(``/tutor``) ``--requests`` times each, one after another, each with a 60 s timeout, and prints
their p50/p95/max in milliseconds (and how many did not answer in time); then the database is
let go (SIGCONT) and the script checks that the pause reached the database. Prints the load
average too (other work on the machine shows in the figures).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "browser")]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def fetch_ms(url: str) -> float | None:
    """Milliseconds to the whole answer (a refusal, e.g. the per-client session rate's 429, is
    an answer too); None if none came in 60 s."""
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            answer.read()
    except urllib.error.HTTPError as refused:
        refused.read()
        print(f"  {url}: {refused.code}", file=sys.stderr)
    except OSError:
        return None
    return (time.perf_counter() - start) * 1000


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # each /tutor load is a new session: more than the server's 20 a minute per client are refused
    parser.add_argument("--requests", type=int, default=15)
    parser.add_argument("--repo", type=Path, default=ROOT, help="the checkout to serve from")
    args = parser.parse_args(argv)

    import subprocess
    import tempfile

    import pg
    from playwright.sync_api import sync_playwright
    from sqlalchemy import create_engine, text
    from support import SANDBOX, free_port, launch, wait_for_http
    from test_classroom_storage import Frozen

    database = pg.PgServer().start()
    url = pg.fresh_database(database.url)
    port = free_port()
    home = Path(tempfile.mkdtemp(prefix="hung-db-"))
    env = {
        **os.environ,
        "NEFERTITI_HOME": str(home),
        "NEFERTITI_STORE_URL": url,
        "PYTHONPATH": str(args.repo.resolve()),
    }
    log = open(home / "server.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-c", SANDBOX.replace("PORT", str(port))],
        cwd=args.repo, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    times: dict[str, list[float | None]] = {"/": [], "/tutor": []}
    try:
        wait_for_http(f"{base}/tutor", timeout=120)
        with sync_playwright() as playwright:
            browser = launch(playwright)
            teacher = browser.new_page(viewport={"width": 1024, "height": 768})
            teacher.goto(f"{base}/classroom", timeout=60_000)
            teacher.locator(".room-open button").click(timeout=60_000)
            teacher.locator(".room-join-code").wait_for(timeout=60_000)
            code = teacher.locator(".room-code").inner_text().strip()
            with Frozen(database):
                teacher.locator(".room-pause button").click()
                time.sleep(1.0)  # the pause's write is waiting for the database
                for _ in range(args.requests):
                    for path in times:
                        times[path].append(fetch_ms(base + path))
            engine = create_engine(url)
            deadline = time.monotonic() + 60
            paused = False
            while not paused and time.monotonic() < deadline:
                with engine.connect() as db:
                    paused = bool(
                        db.execute(
                            text("select paused from classroom_rooms where code = :c"),
                            {"c": code},
                        ).scalar()
                    )
                time.sleep(0.1)
            engine.dispose()
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
        database.stop()
        database.cleanup()
    print(f"server from {args.repo.resolve()}; load average {os.getloadavg()[0]:.2f}")
    for path, values in times.items():
        answered = [v for v in values if v is not None]
        missing = len(values) - len(answered)
        if not answered:
            print(f"GET {path:7} no answer in 60 s ({missing} requests)")
            continue
        print(
            f"GET {path:7} p50 {statistics.median(answered):8.1f} ms  "
            f"p95 {percentile(answered, 0.95):8.1f} ms  max {max(answered):8.1f} ms  "
            f"unanswered {missing} of {len(values)}"
        )
    print(f"the pause reached the database once it was back: {paused}")
    return 0 if paused else 1


if __name__ == "__main__":
    sys.exit(main())
