"""benchmarks/classroom_load.py runs (#16): a real, small run (a teacher's page and 2 learners
in Chromium, then 2 learners' websocket clients, 2 moves) whose figures say every learner
received every move; the script exits 1 when one is missing. Not a speed test: the figures
are quoted from the script's own runs (docs/benchmarks.md, "Classroom load")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "classroom_load.py"


def _run(*args, timeout=600):
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_classroom_load_two_learners_receive_both_moves():
    done = _run("--learners", "2", "--moves", "2")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    figures = {
        line["figure"]: line
        for line in map(json.loads, (x for x in done.stdout.splitlines() if x.startswith("{")))
    }
    join, moves, memory = (
        figures["join"],
        figures["move propagation"],
        figures["server memory"],
    )
    assert join["clients_without_page"] == 0 and join["client_errors"] == []
    assert join["join_p50_s"] > 0
    assert moves["moves"] == 2 and moves["expected"] == 4
    assert moves["received"] == 4 and moves["missing"] == 0
    assert moves["learners_not_at_final_step"] == 0 and moves["projector_missing"] == 0
    assert 0 < moves["p50_ms"] <= moves["p95_ms"] <= moves["max_ms"]
    assert memory["rss_with_everyone_mb"] > memory["rss_start_mb"] > 0
    assert "every learner received every move" in done.stdout
    assert "load average" in done.stdout


def test_classroom_load_refuses_bad_counts_with_a_message():
    done = _run("--learners", "0", timeout=60)
    assert done.returncode == 2
    assert "must be at least 1" in done.stderr and "Traceback" not in done.stderr
    done = _run("--moves", "many", timeout=60)
    assert done.returncode == 2
    assert "not a whole number" in done.stderr and "Traceback" not in done.stderr
