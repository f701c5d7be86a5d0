"""The tutorials: every notebook is committed without outputs and has what every lesson needs
(inline JavaScript, a live board from a scenario, exercises, a summary with rule IDs, the
coverage tracker). That every notebook runs top to bottom is checked where learners run it, in
JupyterLab (tests/browser/every_exercise.py: Run All, no cell fails, every exercise answered),
not a second time headless."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from nefertiti_core.files.exercises import exercises_for

TUTORIALS = Path(__file__).resolve().parents[1] / "tutorials"
NOTEBOOKS = sorted(TUTORIALS.glob("[0-9][0-9]-*.ipynb"))
#: Every language's notebooks: the English ones and the German and Chinese copies.
ALL_LANGUAGES = NOTEBOOKS + sorted(TUTORIALS.glob("[dz][eh]/[0-9][0-9]-*.ipynb"))
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


@pytest.mark.parametrize("path", ALL_LANGUAGES, ids=lambda p: str(p.relative_to(TUTORIALS)))
def test_notebook_is_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: a cell has outputs"
            assert cell.execution_count is None, f"{path.name}: a cell has an execution count"


@pytest.mark.parametrize("path", ALL_LANGUAGES, ids=lambda p: str(p.relative_to(TUTORIALS)))
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
