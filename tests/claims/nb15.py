"""Claims of tutorials/15-teaching-a-group.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
from claims import _facts as F
from nefertiti_core.files.scenario import loads_scenario

#: The smallest position file: everything left out takes its set-up value.
_BARE = """\
nefertiti: 1
seed: 5
players:
  - {colour: green}
  - {colour: red}
  - {colour: blue}
"""


def _reserves_of_a_bare_file() -> set[int]:
    return set(loads_scenario(_BARE, "bare.yaml").state.reserve)


CLAIMS = [
    Claim("reserves of 1", lambda: _reserves_of_a_bare_file() == {1}),
]


# ---------------------------------------------------------------- numbers written as words
def _lesson_file():
    """The teacher's position file the notebook writes (its ``LESSON`` string), loaded."""
    import ast

    from nefertiti_core.files.scenario import loads_scenario

    tree = ast.parse(F.notebook_code("15"))
    (text,) = [
        node.value.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "LESSON"
    ]
    return loads_scenario(text, "my-lesson.yaml")


def _four_sections() -> bool:
    headings = [line for line in F.prose("15").splitlines() if line.startswith("## ")]
    return len([h for h in headings if h not in ("## Exercises", "## Summary")]) == 4


def _three_players_no_characters() -> bool:
    state = _lesson_file().state
    return state.n == 3 and not any(state.piles)


def _two_slips() -> bool:
    import ast

    tree = ast.parse(F.notebook_code("15"))
    (mistakes,) = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "mistakes"
    ]
    return len(mistakes.keys) == 2


def _three_sessions() -> bool:
    """The lesson plan's table: sessions first, second, third ("before" is the teacher's own
    preparation, "extra" an optional one)."""
    rows = [line.split("|")[1].strip() for line in F.prose("15").splitlines() if line[:2] == "| "]
    sessions = [s for s in dict.fromkeys(rows) if s not in ("session", "before", "extra")]
    return sessions == ["first", "second", "third"]


def _a_game_per_tab() -> bool:
    from nefertiti_core.cli import output_of

    return "Each browser tab gets its own game" in " ".join(output_of(["serve", "--help"]).split())


CLAIMS += [
    Claim("It covers four things", _four_sections),
    Claim("for three players without characters", _three_players_no_characters),
    Claim("Two typical slips", _two_slips),
    Claim("A suggested course in three sessions", _three_sessions),
    Claim("the four markets, stall by stall", F.four_markets),
    Claim("use all seven characters", F.seven_piles),
    Claim("These three show the fixed dice", lambda: F.exercise_count("teaching") == 3),
    Claim("one game per browser tab", _a_game_per_tab),
]
