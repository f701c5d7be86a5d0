"""No lesson can say something false (issue #13 item 9): every number in a notebook's prose is
covered by a claim of ``tests/claims/nb<NN>.py`` that the engine confirms."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
from helpers_reading import FIRST_GAME

TUTORIALS = Path(__file__).parents[1] / "tutorials"
NOTEBOOKS = sorted(TUTORIALS.glob("[0-9][0-9]-*.ipynb"))

#: Numbers that state nothing about the game: rule IDs (R3.5, R6.1–R6.4), notebook numbers
#: (**07**, "notebook 07", 07-closing-gizeh, the title's "# 07 ·"), Markdown list markers, inline
#: code (commands, notation), durations and HTML comments.
_NOT_CLAIMS = re.compile(
    r"R\d+(?:\.\d+)?(?:\s*[–-]\s*R?\d+(?:\.\d+)?)?"
    r"|\*\*\d\d(?:[–-]\d\d)?\*\*|notebooks? \d\d(?:[–-]\d\d)?|\b\d\d-[a-z][a-z-]+"
    r"|^\s*\d+\.\s|(?<=[#])\d+|^# \d\d ·"
    r"|`[^`]*`"
    r"|\b\d+ min(?:utes)?\b"  # a lesson plan's durations are advice, not facts of the game
    r"|<!--.*?-->",  # a note to the tools the learner does not see (board steps: 3)
    re.M | re.S,
)
_NUMBER = re.compile(r"\d+")


def _prose(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def _claims(path: Path):
    name = f"claims.nb{path.name[:2]}"
    try:
        return importlib.import_module(name).CLAIMS
    except ModuleNotFoundError:
        return []


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_claim_is_in_the_notebook_and_true(notebook):
    prose = _prose(notebook)
    for claim in _claims(notebook):
        assert claim.text in prose, f"{notebook.name}: the claim {claim.text!r} is not in the prose"
        assert claim.check(), f"{notebook.name}: the engine disagrees with {claim.text!r}"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_number_in_the_prose_is_claimed(notebook):
    prose = _prose(notebook)
    loose = _loose(prose, notebook, _NUMBER)
    assert not loose, f"{notebook.name}: numbers no claim covers: {loose}"


#: In the first-game path numbers written as words count too: "four markets" is checked like "4".
_NUMBER_WORDS = re.compile(
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b", re.I
)


@pytest.mark.parametrize(
    "notebook", [p for p in NOTEBOOKS if p.name[:2] in FIRST_GAME], ids=lambda p: p.stem
)
def test_every_number_word_in_the_first_game_path_is_claimed(notebook):
    loose = _loose(_prose(notebook), notebook, _NUMBER_WORDS)
    assert not loose, f"{notebook.name}: numbers in words no claim covers: {loose}"


def _loose(prose: str, notebook: Path, numbers: re.Pattern) -> list[str]:
    """The numbers in ``prose`` (as ``numbers`` finds them) that no claim and no exemption covers,
    each with some text around it."""
    covered = [False] * len(prose)
    for match in _NOT_CLAIMS.finditer(prose):
        covered[match.start() : match.end()] = [True] * (match.end() - match.start())
    for claim in _claims(notebook):
        start = prose.find(claim.text)
        while start >= 0:
            covered[start : start + len(claim.text)] = [True] * len(claim.text)
            start = prose.find(claim.text, start + 1)
    return [
        prose[max(0, m.start() - 30) : m.end() + 30].replace("\n", " ")
        for m in numbers.finditer(prose)
        if not all(covered[m.start() : m.end()])
    ]


#: The notebooks about records and files, where the move notation is the subject.
NOTATION_NOTEBOOKS = {"13", "14", "15"}
_NOTATION = re.compile(
    r"#\d|\b(?:place|buy|take|recruit|roll|draw) [a-z_]+\.(?:left|right)|\b[a-z]+_[a-z]+\.(?:left|right)"
)


@pytest.mark.parametrize(
    "notebook",
    [p for p in NOTEBOOKS if p.name[:2] not in NOTATION_NOTEBOOKS],
    ids=lambda p: p.stem,
)
def test_prose_names_squares_by_value_not_by_notation(notebook):
    found = [m.group(0) for m in _NOTATION.finditer(_prose(notebook))]
    assert not found, f"{notebook.name}: move notation in the prose: {found}"
