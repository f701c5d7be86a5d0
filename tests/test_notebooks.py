"""The tutorials: every notebook runs top to bottom headless, is committed without outputs, and
has what every lesson needs (inline JavaScript, a live board from a scenario, exercises, a
summary with rule IDs, the coverage tracker)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from nefertiti_core.exercises import exercises_for

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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_top_to_bottom(path, tmp_path, monkeypatch):
    monkeypatch.setenv("NEFERTITI_HOME", str(tmp_path))  # the learner's coverage file
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    NotebookClient(
        nb,
        timeout=180,
        kernel_name="python3",
        resources={"metadata": {"path": str(TUTORIALS)}},
    ).execute()
    TIMES[path.stem] = time.perf_counter() - start
    errors = [
        out
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") == "error"
    ]
    assert errors == []
