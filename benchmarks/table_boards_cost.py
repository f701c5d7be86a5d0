"""What every player's board and the table's log cost a class (#28 item 7), in one process.

    .venv/bin/python benchmarks/table_boards_cost.py [--learners 30]

A room with a teacher's page and ``--learners`` learners' pages (English, German and Chinese in
turn), built as the server builds them but not served (no browser, no websocket: the server's
Python work only); the teacher plays a whole game (the first option each time). Measured, once
with the views (``table_boards.TablePlayers`` and ``TableLog``) and once with their refresh
emptied:

- the CPU time (``time.process_time``) of the fan-out of a move to every page, per move;
- the CPU time of the views themselves, per move, all pages together;
- the bytes of text a learner's page is sent per move for the boards and the log (the panes'
  texts that changed; what Bokeh sends is that text in a JSON patch).

Prints one JSON line per run. Results: docs/benchmarks.md ("Players' boards and the log").
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def run(learners: int, views: bool) -> dict:
    from widgets.classroom import table_boards as T
    from widgets.classroom.learner import LearnerPage
    from widgets.classroom.room import Rooms
    from widgets.classroom.teacher import TeacherPage

    spent = {"views": 0.0}
    originals = {cls: cls.refresh for cls in (T.TablePlayers, T.TableLog)}

    def timed(original):
        def refresh(self):
            start = time.process_time()
            original(self)
            spent["views"] += time.process_time() - start

        return refresh

    for cls, original in originals.items():
        cls.refresh = timed(original) if views else (lambda self: setattr(self, "_last", ()))
    try:
        rooms = Rooms()
        teacher = TeacherPage(rooms)
        assert teacher.open_room()
        pages = []
        for n in range(learners):
            page = LearnerPage(rooms, lang=("en", "de", "zh")[n % 3])
            assert page.join(teacher.room.code, f"L{n}")
            pages.append(page)
        watched = pages[0]

        def texts():
            log, players = watched.table_log, watched.players
            panes = (*log.recent, log.earlier, log.title, players.pane, players.note)
            return [pane.object for pane in panes]

        room = teacher.room
        spent["views"] = 0.0
        sent, moves, start = [], 0, time.process_time()
        while not room.table.state.is_over and moves < 400:
            before = texts()
            assert room.play(teacher.key, room.table.state.legal_options()[0]) is None
            moves += 1
            sent.append(sum(len(a) for a, b in zip(texts(), before, strict=True) if a != b))
        total = time.process_time() - start
    finally:
        for cls, original in originals.items():
            cls.refresh = original
    return {
        "views": views,
        "pages": learners + 1,
        "moves": moves,
        "fan_out_cpu_ms_per_move": round(1000 * total / moves, 1),
        "views_cpu_ms_per_move": round(1000 * spent["views"] / moves, 2),
        "learner_page_text_bytes_per_move": {
            "mean": round(statistics.mean(sent)),
            "p95": sorted(sent)[int(0.95 * (len(sent) - 1))],
            "max": max(sent),
        },
        "load_average": os.getloadavg()[0],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=30)
    args = parser.parse_args()
    os.environ.setdefault("NEFERTITI_HOME", tempfile.mkdtemp(prefix="boards-cost-"))
    for views in (False, True):
        print(json.dumps(run(args.learners, views)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
