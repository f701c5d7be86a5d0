"""Claims of tutorials/zh/15-teaching-a-group.ipynb: the English notebook's checks
(``claims.nb15``), each quoted with the Chinese phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

import json
from pathlib import Path

from claims import Claim, nb15, translated
from nefertiti_core.engine import rules as R
from nefertiti_core.files.scenario import loads_scenario


def _three_players_no_characters() -> bool:
    """The position file the Chinese notebook writes out (its ``LESSON``) seats 3 players and
    plays without characters."""
    path = Path(__file__).parents[3] / "tutorials" / "zh" / "15-teaching-a-group.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    (source,) = (
        "".join(c["source"])
        for c in cells
        if c["cell_type"] == "code" and "".join(c["source"]).startswith("LESSON = ")
    )
    names: dict = {}
    exec(source, names)  # the cell only assigns a string
    state = loads_scenario(names["LESSON"], "my-lesson.yaml").state
    return len(state.colours) == 3 and not state.config.characters


CLAIMS = translated(
    nb15,
    {
        "reserves of 1": "储备各 1 Deben",
    },
    extra=[
        Claim("3 名玩家，不用角色", _three_players_no_characters),
        Claim("全部 7 种角色", lambda: len(R.PILES) == 7),
    ],
)
