"""Claims of tutorials/de/15-teaching-a-group.ipynb: the English notebook's checks
(``claims.nb15``), each quoted with the German phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from claims import Claim, nb15, translated
from nefertiti_core.engine import rules as R
from nefertiti_core.files.exercises.lessons import exercises_for
from nefertiti_core.files.scenario import loads_scenario

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


CLAIMS = translated(
    nb15,
    {
        "reserves of 1": "Vorräte von 1",
        "the four markets, stall by stall": "die vier Märkte",
    },
    extra=[
        Claim("Es geht um vier Dinge", _four_things),
        Claim("für drei Spieler ohne\nPersonenkarten", _three_players_no_characters),
        Claim("in drei Einheiten", _three_sessions),
        Claim("alle sieben Arten von Personenkarten", lambda: len(R.PILES) == 7),
        Claim("Diese drei", lambda: len(exercises_for("teaching")) == 3),
    ],
)
