"""nefertiti_core: the rules engine of the Nefertiti tutor (standard library only).

    >>> from nefertiti_core import new_game
    >>> game = new_game(players=4, seed=1)
    >>> game.apply("place gizeh.left#0")

Rule IDs in docstrings and messages refer to the rules reference,
:mod:`nefertiti_core.rules_reference` (``nefertiti rules``).
"""

from .errors import (
    GameOverError,
    IllegalOptionError,
    NefertitiError,
    NotationError,
    SetupError,
)
from .invariants import violations
from .options import option_text, parse_option
from .scoring import final_scores, score_breakdown, winners
from .state import Config, GameState, new_game

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
