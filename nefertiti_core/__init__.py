"""nefertiti_core: the rules engine of the Nefertiti tutor (standard library only).

    >>> from nefertiti_core import new_game
    >>> game = new_game(players=4, seed=1)
    >>> game.apply("place gizeh.left#0")

Rule IDs in docstrings and messages refer to the rules reference,
:mod:`nefertiti_core.teaching.rules_reference` (``nefertiti rules``).
"""

from .engine.errors import (
    GameOverError,
    IllegalOptionError,
    NefertitiError,
    NotationError,
    SetupError,
)
from .engine.invariants import violations
from .engine.options import option_text, parse_option
from .engine.scoring import final_scores, score_breakdown, winners
from .engine.state import Config, GameState, new_game

__all__ = [
    "Config",
    "GameOverError",
    "GameState",
    "IllegalOptionError",
    "NefertitiError",
    "NotationError",
    "SetupError",
    "final_scores",
    "new_game",
    "option_text",
    "parse_option",
    "score_breakdown",
    "violations",
    "winners",
]
