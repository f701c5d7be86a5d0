"""Publish-to-receive latency of the classroom's room feed between two processes.

    .venv/bin/python benchmarks/feed_latency.py [--messages 1000] [--interval-ms 5]
        [--database postgresql://…] [--in-transaction]

Without ``--database`` a private PostgreSQL server is started in a temporary folder (tests/pg.py;
Debian's ``postgresql`` must be installed) and stopped at the end.

Two processes, each with its own :class:`widgets.classroom.feed.PgFeed` on the same database, as
two ``nefertiti serve`` processes have: this one publishes ``--messages`` news (room ``BENCH``,
versions 1…N) one every ``--interval-ms``; a child process (multiprocessing, spawn) subscribes
and notes when each arrives. Latency = arrival in the child − the moment just before the
publisher's ``publish`` call (both read ``time.monotonic_ns``, one clock for every process on
Linux): it includes the publisher's transaction (``SELECT pg_notify`` and its commit), the
server's delivery and the child's listener thread calling its subscriber. ``--in-transaction``
publishes inside a transaction that first updates a row (as a room's write with
``Store.compare_and_set(..., then=publish)`` does).

Prints p50/p95/p99/max, messages lost (must be 0), and the machine's load average (other work on
the machine shows in the figures).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def subscriber(url: str, count: int, ready, results) -> None:
    from widgets.classroom.feed import PgFeed, wait_for

    feed = PgFeed(url)
    arrived: dict[int, int] = {}

    def heard(room: str, version: int) -> None:
        arrived.setdefault(version, time.monotonic_ns())

    feed.subscribe(heard)
    ready.set()
    wait_for(lambda: len(arrived) >= count, 120)
    time.sleep(0.2)  # anything doubled or late
    feed.close()
    results.put(arrived)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--interval-ms", type=float, default=5.0)
    parser.add_argument("--database", help="a PostgreSQL URL (default: a private server)")
    parser.add_argument("--in-transaction", action="store_true")
    args = parser.parse_args(argv)

    server = None
    url = args.database
    if not url:
        import pg

        server = pg.PgServer().start()
        url = pg.fresh_database(server.url)
    try:
        from sqlalchemy import create_engine, text

        from widgets.classroom.feed import PgFeed

        engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
        with engine.begin() as db:
            db.execute(
                text("CREATE TABLE IF NOT EXISTS bench_rooms (code text primary key, version int)")
            )
            db.execute(text("INSERT INTO bench_rooms VALUES ('BENCH', 0) ON CONFLICT DO NOTHING"))
        feed = PgFeed(url, engine=engine)
        context = multiprocessing.get_context("spawn")
        ready, results = context.Event(), context.Queue()
        child = context.Process(target=subscriber, args=(url, args.messages, ready, results))
        child.start()
        if not ready.wait(60):
            raise SystemExit("the subscriber process did not start")
        time.sleep(0.3)
        sent: dict[int, int] = {}
        pause = args.interval_ms / 1000
        for version in range(1, args.messages + 1):
            sent[version] = time.monotonic_ns()
            if args.in_transaction:
                with engine.begin() as db:
                    db.execute(text("UPDATE bench_rooms SET version = :v WHERE code = 'BENCH'"),
                               {"v": version})  # fmt: skip
                    feed.publish("BENCH", version, db=db)
            else:
                feed.publish("BENCH", version)
            time.sleep(pause)
        arrived = results.get(timeout=180)
        child.join(timeout=30)
        feed.close()
        engine.dispose()
    finally:
        if server is not None:
            server.cleanup()

    latencies = [(arrived[v] - sent[v]) / 1e6 for v in sent if v in arrived]
    lost = len(sent) - len(latencies)
    load = os.getloadavg()
    print(
        f"room feed, PostgreSQL LISTEN/NOTIFY, 2 processes, {args.messages} messages every "
        f"{args.interval_ms:g} ms{' (in a transaction with an UPDATE)' if args.in_transaction else ''}"
    )
    print(
        f"publish→receive ms: p50 {percentile(latencies, 0.5):.2f}  "
        f"p95 {percentile(latencies, 0.95):.2f}  p99 {percentile(latencies, 0.99):.2f}  "
        f"max {max(latencies):.2f}  mean {statistics.fmean(latencies):.2f}"
    )
    print(f"lost: {lost}   load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"on {os.cpu_count()} cores")  # fmt: skip
    return 1 if lost else 0


if __name__ == "__main__":
    raise SystemExit(main())
