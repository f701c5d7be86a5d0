"""The notebooks are written for learners: little visible code and no helper
defined in a notebook. (The first-game path's length: ``test_first_game_budget.py``.)

The figures are printed (``pytest -s tests/test_notebook_shape.py``) for the closing note."""

from __future__ import annotations

import json
import re
from pathlib import Path

TUTORIALS = Path(__file__).parents[1] / "tutorials"
NOTEBOOKS = sorted(TUTORIALS.glob("[0-9][0-9]-*.ipynb"))
#: Every language's notebooks: the English ones and their German and Chinese copies.
ALL_LANGUAGES = NOTEBOOKS + sorted(TUTORIALS.glob("[dz][eh]/[0-9][0-9]-*.ipynb"))
VISIBLE_CODE_BUDGET = 150  # lines across all notebooks (932 before the rewrite)


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


def test_visible_code_is_within_the_budget():
    lines = visible_code_lines()
    print(f"\nvisible code lines: {sum(lines.values())} {lines}")
    assert sum(lines.values()) < VISIBLE_CODE_BUDGET, lines


def test_no_notebook_defines_a_helper():
    assert len(ALL_LANGUAGES) > len(NOTEBOOKS)  # the German and Chinese copies are read too
    defined = [
        (str(p.relative_to(TUTORIALS)), m.group(0))
        for p in ALL_LANGUAGES
        for c in _cells(p)
        if c["cell_type"] == "code"
        for m in re.finditer(r"^\s*(?:def|class) \w+", "".join(c["source"]), re.M)
    ]
    assert not defined, f"helpers belong in widgets or nefertiti_core: {defined}"
