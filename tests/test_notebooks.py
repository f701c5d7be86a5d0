"""The tutorials: every notebook runs top to bottom headless, is committed without outputs, and
has what every lesson needs (inline JavaScript, a live board from a scenario, exercises, a
summary with rule IDs, the coverage tracker)."""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from nefertiti_core.files.exercises import exercises_for

pytestmark = pytest.mark.slow  # executes every tutorial (minutes)

TUTORIALS = Path(__file__).resolve().parents[1] / "tutorials"
NOTEBOOKS = sorted(TUTORIALS.glob("[0-9][0-9]-*.ipynb"))
TIMES: dict[str, float] = {}


def code(nb) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "code")


def test_the_tutorials_cover_the_rulebook_in_order():
    names = [p.stem for p in NOTEBOOKS]
    assert names and names[0] == "00-welcome"
    numbers = [int(n[:2]) for n in names]
    assert numbers == list(range(len(numbers))), "numbered in reading order, no gaps"
    for topic_words in [
        "setup",
        "gift",
        "market",
        "gizeh",
        "akhet",
        "abou",
        "louqsor",
        "turn",
        "closing-a-market",
        "characters",
        "scoring",
        "misreadings",
        "whole-game",
        "what-if",
        "teaching",
    ]:
        assert any(topic_words in n for n in names), f"no notebook about {topic_words}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: a cell has outputs"
            assert cell.execution_count is None, f"{path.name}: a cell has an execution count"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_has_what_every_lesson_needs(path):
    nb = nbformat.read(path, as_version=4)
    source = code(nb)
    assert "pn.extension(inline=True)" in source, "the board's JS must not come from a CDN"
    assert re.search(r"Lesson\(|Sandbox\(|make_app\(|Board\(", source), "a live board"
    assert re.search(r"\.yaml|Lesson\(\"|scenario", source), "staged from a scenario file"
    topics = re.findall(r"exercises\(\"([a-z-]+)\"", source)
    assert topics, "the topic's exercises"
    assert sum(len(exercises_for(t)) for t in topics) >= 2, "at least two exercises"
    assert "coverage_view()" in source, "the rule-coverage tracker"
    summary = [c.source for c in nb.cells if c.cell_type == "markdown"][-1]
    assert re.search(r"\bR\d+(\.\d+)?\b", summary), "a closing summary naming the rule IDs"


# Two kernels at a time: this machine (and CI's) has two cores, and a notebook's kernel mostly
# waits on one of them. ``NEFERTITI_NOTEBOOK_WORKERS=1`` runs them one after another.
WORKERS = max(1, int(os.environ.get("NEFERTITI_NOTEBOOK_WORKERS", min(2, os.cpu_count() or 1))))
WALL: dict[str, float] = {}


def _execute(path: Path, home: Path) -> tuple[float, BaseException | None]:
    """Run one notebook in a fresh kernel; (seconds, the error if a cell failed)."""
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    try:
        NotebookClient(
            nb,
            timeout=180,
            kernel_name="python3",
            resources={"metadata": {"path": str(TUTORIALS)}},
        ).execute(env={**os.environ, "NEFERTITI_HOME": str(home)})  # the learner's coverage file
    except Exception as error:  # CellExecutionError names the cell and the traceback
        return time.perf_counter() - start, error
    return time.perf_counter() - start, None


@pytest.fixture(scope="module")
def executed(tmp_path_factory) -> dict[str, tuple[float, BaseException | None]]:
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        futures = {
            path.stem: pool.submit(_execute, path, tmp_path_factory.mktemp(path.stem))
            for path in NOTEBOOKS
        }
        results = {name: future.result() for name, future in futures.items()}
    WALL["seconds"] = time.perf_counter() - start
    WALL["workers"] = WORKERS
    TIMES.update({name: seconds for name, (seconds, _) in results.items()})
    times_file().write_text(json.dumps({"wall": WALL, "times": TIMES}))
    return results


def times_file() -> Path:
    """Where this run's notebook times are written for the closing summary (tests/conftest.py),
    which pytest-xdist's controlling process prints: one file per run."""
    run = os.environ.get("NEFERTITI_TEST_RUN", str(os.getpid()))
    return Path(tempfile.gettempdir()) / f"nefertiti-notebook-times-{run}.json"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_top_to_bottom(path, executed):
    seconds, error = executed[path.stem]
    assert error is None, f"{path.name} failed: {error}"
