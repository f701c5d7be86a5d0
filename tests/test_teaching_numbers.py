"""The notes of the position files say the same numbers in every language (issue #13 item 9): a
translation cannot drift from the English note (a total, a bid, a count) unnoticed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nefertiti_core.files.scenario import load

SCENARIOS = sorted((Path(__file__).parents[1] / "nefertiti_core" / "scenarios").glob("*.yaml"))
_NUMBER = re.compile(r"\d+")


def _numbers(text: str) -> set[str]:
    """The numbers a note states in digits (a repeat says nothing new)."""
    return set(_NUMBER.findall(re.sub(r"R\d+(?:\.\d+)?", "", text)))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
@pytest.mark.parametrize("lang", ["de", "zh"])
def test_a_note_states_the_same_numbers_in_every_language(path, lang):
    scenario = load(path)
    english = scenario.teachings.get("en") or scenario.teaching
    translated = scenario.teachings.get(lang, "")
    if not english.strip():
        return
    assert translated.strip(), f"{path.name}: no {lang} note"
    mine, theirs = _numbers(english), _numbers(translated)
    assert mine == theirs, (
        f"{path.name} ({lang}): numbers only in English {sorted(mine - theirs)}, "
        f"only in the translation {sorted(theirs - mine)}"
    )
