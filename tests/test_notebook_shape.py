"""The notebooks are written for learners (issue #13 item 7): little visible code, no helper
defined in a notebook, and a first-game path short enough to read in about 30 minutes.

The figures are printed (``pytest -s tests/test_notebook_shape.py``) for the closing note."""

from __future__ import annotations

import json
import re
from pathlib import Path

TUTORIALS = Path(__file__).parents[1] / "tutorials"
NOTEBOOKS = sorted(TUTORIALS.glob("[0-9][0-9]-*.ipynb"))
#: The first game: the welcome, a turn, closing and settling a market, gifts and scoring.
FIRST_GAME = ("00", "01", "02", "03")
VISIBLE_CODE_BUDGET = 150  # lines across all notebooks (932 before the rewrite)
FIRST_GAME_WORDS = 3000


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _hidden(cell: dict) -> bool:
    return bool(cell.get("metadata", {}).get("jupyter", {}).get("source_hidden"))


def _lines(cell: dict) -> int:
    return sum(1 for line in "".join(cell["source"]).splitlines() if line.strip())


def visible_code_lines() -> dict[str, int]:
    return {
        p.name: sum(_lines(c) for c in _cells(p) if c["cell_type"] == "code" and not _hidden(c))
        for p in NOTEBOOKS
    }


def words(path: Path) -> int:
    return sum(
        len(re.findall(r"\w+", "".join(c["source"])))
        for c in _cells(path)
        if c["cell_type"] == "markdown"
    )


def test_visible_code_is_within_the_budget():
    lines = visible_code_lines()
    print(f"\nvisible code lines: {sum(lines.values())} {lines}")
    assert sum(lines.values()) < VISIBLE_CODE_BUDGET, lines


def test_no_notebook_defines_a_helper():
    defined = [
        (p.name, m.group(0))
        for p in NOTEBOOKS
        for c in _cells(p)
        if c["cell_type"] == "code"
        for m in re.finditer(r"^\s*(?:def|class) \w+", "".join(c["source"]), re.M)
    ]
    assert not defined, f"helpers belong in widgets or nefertiti_core: {defined}"


def test_the_first_game_path_is_short():
    path = [p for p in NOTEBOOKS if p.name[:2] in FIRST_GAME]
    counts = {p.name: words(p) for p in path}
    print(f"\nfirst-game path words: {sum(counts.values())} {counts}")
    assert len(path) == len(FIRST_GAME)
    assert sum(counts.values()) <= FIRST_GAME_WORDS, counts
