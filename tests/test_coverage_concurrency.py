"""Issue #14 item 6: two kernels recording into one coverage.json at once keep every update.

Two separate Python processes (as two notebook kernels would be) each hold a Coverage of the same
file and record 30 things of their own, with random pauses so that their read-modify-write
cycles interleave; the file must end up with all 60 (and with the sum of their answers)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from nefertiti_core.teaching.coverage import Coverage, Marks

ROOT = Path(__file__).resolve().parents[1]

WRITER = textwrap.dedent(
    """
    import os, random, sys, time
    sys.path.insert(0, {root!r})
    from nefertiti_core.teaching.coverage import Coverage

    path, section, seed, go = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    background = sys.argv[5] == "background"  # then the last saves happen at exit
    rng = random.Random(seed)
    coverage = Coverage(path, background=background)
    while not os.path.exists(go):  # both start together
        time.sleep(0.001)
    for n in range(1, 31):
        coverage.add([f"R{{section}}.{{n}}"])  # 30 different rules per writer
        coverage.answered(["R3.5"], correct=n % 2 == 0)  # and 30 answers about one rule
        time.sleep(rng.random() * 0.004)
    print(coverage.warning or "ok" if not background else "ok")
    """
)


def run_writers(path: Path, tmp_path: Path, mode: str, seeds=(1, 2)) -> list[str]:
    script = tmp_path / "writer.py"
    script.write_text(WRITER.format(root=str(ROOT)))
    go = tmp_path / "go"
    writers = [
        subprocess.Popen(
            [sys.executable, str(script), str(path), str(20 + k), str(seed), str(go), mode],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for k, seed in enumerate(seeds)
    ]
    time.sleep(0.5)  # both have loaded the (empty) record
    go.write_text("go")
    outputs = []
    for writer in writers:
        out, err = writer.communicate(timeout=60)
        assert writer.returncode == 0, err
        outputs.append(out.strip())
    return outputs


@pytest.mark.parametrize("mode", ["at-once", "background"])
def test_two_processes_recording_at_once_keep_all_sixty_updates(tmp_path, mode):
    """``at-once``: every mark saved before the call returns; ``background``: as the tutorials
    record (a thread saves, the last save when the process exits)."""
    path = tmp_path / "coverage.json"
    Coverage(path).add(["R7.1"])  # something already there, which neither writer may drop
    assert run_writers(path, tmp_path, mode) == ["ok", "ok"]
    final = Coverage(path)
    assert final.warning is None
    written = {f"R{section}.{n}" for section in (20, 21) for n in range(1, 31)}
    kept = final.seen() & written
    assert len(kept) == 60, f"{len(kept)} of 60 kept; lost {sorted(written - kept)}"
    assert "R7.1" in final.seen()
    assert final.counts("R3.5") == Marks(right=30, wrong=30)  # 2 x 15 right, 2 x 15 wrong
    data = json.loads(path.read_text())
    assert data["version"] == 2 and len(data["rules"]) == 62
    assert not list(tmp_path.glob("*.broken-*")) and not list(tmp_path.glob(".coverage-*"))
