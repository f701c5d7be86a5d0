"""What keeping a room's record in a class costs: a move, a reveal, the exports.

    .venv/bin/python benchmarks/class_record_cost.py [--learners 30] [--moves 60] [--questions 20]

One process, the store (SQLite, WAL) in a fresh temporary folder (the default store's kind). A room of
``--learners`` learners, each holding a seat in turn, plays ``--moves`` table moves twice: once
in a room kept in no class, once in a room kept in a class (each move then also writes the
steps' rules to the class's record, in the room's change, off the event loop in the served
app). Then ``--questions`` class questions are asked and revealed, every learner answering.
Prints one JSON line per figure (median and p95 milliseconds of a move; a reveal; each CSV
export with its size), with the machine's load average (other work on a shared 2-core machine
inflates every figure). Results: docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time

if __name__ == "__main__":
    from widgets.classroom import classes as C
    from widgets.classroom.room import Room
    from widgets.server.store import Store

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--questions", type=int, default=20)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="class-record-")
    store = Store(f"sqlite:///{folder}/store.sqlite3")  # WAL, as the served app's
    book = C.ClassBook(store.engine)
    C.use(book)
    info, secret = book.create("Benchmark")

    def room_of(linked: bool):
        room, key = Room.open()
        if linked:
            book.link(room, info.id)
        people = [room.join(f"Learner {n}", "en")[0] for n in range(args.learners)]
        return room, key, people

    def moves(room, key, people) -> list[float]:
        times = []
        for n in range(args.moves):
            state = room.table.state
            if state.is_over:
                break
            room.assign_seat(key, people[n % len(people)].id, state.decider)
            option = state.legal_options()[0]
            start = time.perf_counter()
            room.play(key, option)
            times.append((time.perf_counter() - start) * 1000)
        return times

    def said(what: str, values: list[float], **more) -> None:
        values = sorted(values)
        print(
            json.dumps(
                {
                    "figure": what,
                    "median_ms": round(statistics.median(values), 2),
                    "p95_ms": round(values[int(0.95 * (len(values) - 1))], 2),
                    "n": len(values),
                    "load": os.getloadavg()[0],
                    **more,
                }
            )
        )

    said("move, room in no class", moves(*room_of(False)))
    room, key, people = room_of(True)
    said("move, room kept in a class", moves(room, key, people))
    reveals = []
    for _ in range(args.questions):
        room.polls.push("lesson:welcome/who-plays-next", room.learner_names())
        for person in people:
            room.polls.answer(str(person.id), "red" if person.id % 3 else "green")
        start = time.perf_counter()
        room.polls.reveal()
        reveals.append((time.perf_counter() - start) * 1000)
        room.polls.close()
    said("reveal, room kept in a class", reveals, learners=args.learners)
    for part in ("rules", "questions"):
        start = time.perf_counter()
        text = book.rules_csv(info.id, "de") if part == "rules" else book.questions_csv(info.id)
        took = (time.perf_counter() - start) * 1000
        said(f"export {part}", [took], bytes=len(text.encode()))
    C.use(None)
