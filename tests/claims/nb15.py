"""Claims of tutorials/15-teaching-a-group.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
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
