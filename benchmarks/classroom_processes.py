"""Classroom moves across two server processes on one PostgreSQL database.

Two worker processes (A and B) each hold the classroom exactly as ``nefertiti serve --database
postgresql://...`` does: their own ``Rooms``, SQLAlchemy engine, ``PgFeed`` (LISTEN/NOTIFY)
and room store (``widgets.classroom.room_store.connect``). A opens the rooms; the participants
join half on A, half on B (``Room.join``, through their own process's cache), each one a
listener of the room as a page is (``Room.subscribe``; a served page then draws on its next
Bokeh tick, which this script does not include). The teacher then plays moves, alternately
through A and through B, one every ``--gap`` seconds; every participant notes when its
process's room showed the move. Reported: the move-propagation latency from the ``play`` call
to the participants of the OTHER process (p50/p95/max: the database write with compare-and-set,
the NOTIFY, the other process re-reading the room and replaying its record), the same inside the
mover's process, and the database round-trips per move (statements, BEGINs and COMMITs counted
by SQLAlchemy events, in the mover and in the other process). No browser.

    .venv/bin/python benchmarks/classroom_processes.py            # 30 and 90 participants
    .venv/bin/python benchmarks/classroom_processes.py --participants 30 --rooms 3 --moves 20

Without ``--database`` it starts a private PostgreSQL server (tests/pg.py) and stops it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def worker(name: str, url: str, pipe) -> None:
    import logging

    from sqlalchemy import create_engine, event

    logging.basicConfig(level=logging.WARNING, format=f"[{name}] %(name)s: %(message)s")

    from widgets.classroom.feed import PgFeed
    from widgets.classroom.room import Rooms
    from widgets.classroom.room_store import connect

    engine = create_engine(url, pool_size=5)
    trips = {"statements": 0, "begins": 0, "commits": 0, "rollbacks": 0}

    @event.listens_for(engine, "before_cursor_execute")
    def _statement(*_args):
        trips["statements"] += 1

    for what in ("begin", "commit", "rollback"):
        event.listen(
            engine,
            what,
            lambda *_a, what=what: trips.__setitem__(what + "s", trips[what + "s"] + 1),
        )

    feed = PgFeed(url, engine=engine)
    rooms = Rooms()
    store = connect(rooms, engine, feed=feed)
    seen: list[tuple[str, int, float]] = []  # (room, step, when) per participant and move
    keys: dict[str, str] = {}
    while True:
        command, *args = pipe.recv()
        if command == "open":
            out = []
            for _ in range(args[0]):
                room, key, _ = rooms.open()
                keys[room.code] = key
                out.append((room.code, key))
            pipe.send(out)
        elif command == "join":
            code, names = args
            room = rooms.find(code)
            if room is None:
                pipe.send(f"process {name}: room {code} not found")
                continue
            for person in names:
                _, _, why = room.join(person)
                assert why is None, why
                last = [0]

                def heard(_v, what, room=room, last=last):
                    step = room.table.step
                    if what == "table" and step != last[0]:
                        last[0] = step
                        seen.append((room.code, step, time.monotonic()))

                room.subscribe(heard)
            pipe.send(len(names))
        elif command == "play":
            code, key = args
            room = rooms.find(code)
            before = dict(trips)
            t0 = time.monotonic()
            why = room.play(key, room.table.state.legal_options()[0])
            spent = {k: trips[k] - before[k] for k in trips}
            pipe.send((room.table.step, t0, why.key if why else None, spent))
        elif command == "trips":
            pipe.send(dict(trips))
        elif command == "seen":
            pipe.send((seen, store.refreshes, store.conflicts))
        elif command == "stop":
            feed.close()
            engine.dispose()
            pipe.send("bye")
            return


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run(url: str, participants: int, n_rooms: int, moves: int, gap: float) -> dict:
    context = multiprocessing.get_context("spawn")
    pipes, procs = {}, {}
    for name in "AB":
        here, there = context.Pipe()
        proc = context.Process(target=worker, args=(name, url, there), daemon=True)
        proc.start()
        pipes[name], procs[name] = here, proc

    def ask(name, *command):
        pipes[name].send(command)
        if not pipes[name].poll(60):
            raise RuntimeError(f"process {name} did not answer {command[0]!r} in 60 s")
        answer = pipes[name].recv()
        if isinstance(answer, str) and "not found" in answer:
            raise RuntimeError(answer)
        return answer

    rooms = ask("A", "open", n_rooms)
    per_room = participants // n_rooms
    where: dict[str, dict[str, int]] = {}
    for i, (code, _) in enumerate(rooms):
        names = [f"P{i}-{j}" for j in range(per_room)]
        half = len(names) // 2
        ask("A", "join", code, names[:half])
        ask("B", "join", code, names[half:])
        where[code] = {"A": half, "B": len(names) - half}
    time.sleep(0.5)
    trips_before = {n: ask(n, "trips") for n in "AB"}
    plays = []  # (room, step, t0, mover)
    mover_trips = []
    for m in range(moves):
        for code, key in rooms:
            mover = "AB"[m % 2]
            step, t0, why, spent = ask(mover, "play", code, key)
            if why is None:
                plays.append((code, step, t0, mover))
                mover_trips.append(spent)
            time.sleep(gap / n_rooms)
    time.sleep(1.0)
    trips_after = {n: ask(n, "trips") for n in "AB"}
    seen = {n: ask(n, "seen") for n in "AB"}
    for n in "AB":
        ask(n, "stop")
        procs[n].join(5)
    started = {(code, step): (t0, mover) for code, step, t0, mover in plays}
    across, inside, missing = [], [], 0
    for n in "AB":
        arrivals = {}
        for code, step, when in seen[n][0]:
            arrivals.setdefault((code, step), []).append(when)
        for (code, step), (t0, mover) in started.items():
            got = arrivals.get((code, step), [])
            expected = where[code][n]
            missing += max(0, expected - len(got))
            (inside if mover == n else across).extend((w - t0) * 1000 for w in got)
    total = {n: {k: trips_after[n][k] - trips_before[n][k] for k in trips_after[n]} for n in "AB"}
    n_moves = len(plays)
    mover_rt = sum(sum(t.values()) for t in mover_trips) / max(1, n_moves)
    all_rt = sum(sum(t.values()) for t in total.values()) / max(1, n_moves)
    return {
        "participants": per_room * n_rooms,
        "rooms": n_rooms,
        "moves": n_moves,
        "across": across,
        "inside": inside,
        "missing": missing,
        "mover_round_trips": mover_rt,
        "all_round_trips": all_rt,
        "refreshes": sum(seen[n][1] for n in "AB"),
        "conflicts": sum(seen[n][2] for n in "AB"),
    }


def report(result: dict) -> str:
    a, i = result["across"], result["inside"]
    line = (
        f"{result['participants']:3d} participants in {result['rooms']} rooms, "
        f"{result['moves']} moves: other process p50 {percentile(a, 0.5):.1f} ms, "
        f"p95 {percentile(a, 0.95):.1f} ms, max {max(a):.1f} ms ({len(a)} arrivals); "
        f"mover's process p95 {percentile(i, 0.95):.2f} ms; missed {result['missing']}; "
        f"DB round-trips per move: {result['mover_round_trips']:.1f} by the mover, "
        f"{result['all_round_trips']:.1f} in both processes; conflicts {result['conflicts']}"
    )
    return line


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", help="a PostgreSQL URL (default: a private server)")
    parser.add_argument("--participants", type=int, nargs="*", default=[30, 90])
    parser.add_argument("--rooms", type=int, nargs="*", default=None,
                        help="rooms per run (default: 3 for 30, 9 for 90)")  # fmt: skip
    parser.add_argument("--moves", type=int, default=20, help="moves per room")
    parser.add_argument("--gap", type=float, default=0.1, help="seconds between moves")
    args = parser.parse_args(argv)
    server = None
    url = args.database
    if not url:
        import pg

        server = pg.PgServer().start()
        url = pg.fresh_database(server.url)
    url = url.replace("postgresql://", "postgresql+psycopg://", 1)
    try:
        for k, participants in enumerate(args.participants):
            n_rooms = (args.rooms or [])[k : k + 1] or [3 if participants <= 30 else 9]
            print(report(run(url, participants, n_rooms[0], args.moves, args.gap)), flush=True)
    finally:
        if server is not None:
            server.stop()
            server.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
