"""No position file's note can say something false (issue #13 item 9): every number in the English
note (``teaching: en``) of ``nefertiti_core/scenarios/*.yaml`` is covered by a claim of
``tests/claims/scenarios.py`` that the engine confirms. Every lesson board shows the note of its
position file, so a change to a rule, the gift values or a position must not leave a note wrong.
(The German and Chinese notes state the same numbers: ``tests/test_teaching_numbers.py``.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from claims.scenarios import CLAIMS

from nefertiti_core.files.scenario import load

SCENARIOS = sorted((Path(__file__).parents[1] / "nefertiti_core" / "scenarios").glob("*.yaml"))

#: Numbers that state nothing about the position: rule IDs (R3.5, R6.6).
_NOT_CLAIMS = re.compile(r"R\d+(?:\.\d+)?")
_NUMBER = re.compile(r"\d+")
#: A square named by its index or the move notation rather than by its value ("#3",
#: "place gizeh.left", "abou_simbel.left").
_NOTATION = re.compile(r"#\d|\b[a-z]+_[a-z]+\.(?:left|right)|\b(?:gizeh|louqsor)\.(?:left|right)")


def _note(path: Path, lang: str = "en") -> str:
    scenario = load(path)
    return scenario.teachings.get(lang) or (scenario.teaching if lang == "en" else "")


def loose_numbers(note: str, claims) -> list[str]:
    """The numbers of ``note`` that neither a rule ID nor a claim's phrase covers, in context."""
    covered = [False] * len(note)
    for match in _NOT_CLAIMS.finditer(note):
        covered[match.start() : match.end()] = [True] * (match.end() - match.start())
    for claim in claims:
        start = note.find(claim.text)
        while start >= 0:
            covered[start : start + len(claim.text)] = [True] * len(claim.text)
            start = note.find(claim.text, start + 1)
    return [
        note[max(0, m.start() - 30) : m.end() + 30].replace("\n", " ")
        for m in _NUMBER.finditer(note)
        if not all(covered[m.start() : m.end()])
    ]


def test_every_claim_names_a_position_file():
    stems = {p.stem for p in SCENARIOS}
    assert set(CLAIMS) <= stems, f"claims for no position file: {sorted(set(CLAIMS) - stems)}"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_claim_is_in_the_note_and_true(path):
    note = _note(path)
    for claim in CLAIMS.get(path.stem, []):
        assert claim.text in note, f"{path.name}: the claim {claim.text!r} is not in the note"
        assert claim.check(), f"{path.name}: the engine disagrees with {claim.text!r}"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_number_in_the_note_is_claimed(path):
    loose = loose_numbers(_note(path), CLAIMS.get(path.stem, []))
    assert not loose, f"{path.name}: numbers no claim covers: {loose}"


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_a_note_names_squares_by_value_not_by_notation(path, lang):
    found = [m.group(0) for m in _NOTATION.finditer(_note(path, lang))]
    assert not found, f"{path.name} ({lang}): move notation in the note: {found}"


def test_a_wrong_number_is_caught():
    """The coverage check is not blind: a note whose number differs from its claim's is loose."""
    path = next(p for p in SCENARIOS if p.stem == "abou-simbel-left-sums")
    note = _note(path)
    assert not loose_numbers(note, CLAIMS[path.stem])
    wrong = note.replace("makes exactly 14", "makes exactly 13", 1)
    assert wrong != note
    assert loose_numbers(wrong, CLAIMS[path.stem]), "a changed number went unnoticed"
