"""Claims of tutorials/de/15-teaching-a-group.ipynb: the English notebook's check (a bare file's
reserves), and the counts the German prose writes as words: the notebook's position file, the
markets, the character piles, the teaching exercises, the course's sessions and the notebook's
own sections."""

from __future__ import annotations

import json
import re
from pathlib import Path

from claims import Claim
from claims.nb15 import CLAIMS as ENGLISH
from nefertiti_core.engine import rules as R
from nefertiti_core.files.exercises.lessons import exercises_for
from nefertiti_core.files.scenario import loads_scenario

_EN = {claim.text: claim.check for claim in ENGLISH}
_NOTEBOOK = Path(__file__).parents[3] / "tutorials" / "de" / "15-teaching-a-group.ipynb"


def _cells(kind: str) -> list[str]:
    cells = json.loads(_NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == kind]


def _three_players_no_characters() -> bool:
    """The notebook's position file loads, for three players and without characters."""
    code = next(c for c in _cells("code") if c.startswith('LESSON = """'))
    text = code.split('"""\\\n', 1)[1].rsplit('"""', 1)[0]
    scenario = loads_scenario(text, "my-lesson.yaml")
    return (
        scenario.state.n == 3
        and not scenario.state.config.characters
        and not any(scenario.state.piles)
    )


def _four_things() -> bool:
    """The notebook's sections before its exercises and summary: four."""
    titles = [
        line for cell in _cells("markdown") for line in cell.splitlines() if line.startswith("## ")
    ]
    return len(titles[: titles.index("## Übungen")]) == 4


def _three_sessions() -> bool:
    """The course plan's table has sessions erste, zweite and dritte, besides vorher and extra."""
    plan = next(c for c in _cells("markdown") if c.startswith("## Ein Kursplan"))
    rows = re.findall(r"^\| (\w+) \|", plan, re.M)
    return set(rows) - {"Einheit", "vorher", "extra"} == {"erste", "zweite", "dritte"}


CLAIMS = [
    Claim("Es geht um vier Dinge", _four_things),
    Claim("Vorräte von 1", _EN["reserves of 1"]),
    Claim("für drei Spieler ohne\nPersonenkarten", _three_players_no_characters),
    Claim("in drei Einheiten", _three_sessions),
    Claim("die vier Märkte", lambda: len(R.MARKETS) == 4),
    Claim("alle sieben Arten von Personenkarten", lambda: len(R.PILES) == 7),
    Claim("Diese drei", lambda: len(exercises_for("teaching")) == 3),
]
