"""Panel/Bokeh components over the Nefertiti engine (``nefertiti_core``).

Each component is a thin view bound to one :class:`GameSession`: it asks the engine for rules
(legal options, explanations, statuses, previews, scores) and never decides one itself. Serve
:func:`make_app` for a whole game in one page (one game per browser session).
"""

from . import _panel_patches
from .board import Board
from .characters import Characters
from .decision import DecisionPanel
from .hints import HintsView
from .language import LanguageSelector
from .log import Log
from .odds import OddsView
from .players import Players
from .practice import Practice
from .rules_view import RulesView, link_rule_ids, rule_ids_html
from .sandbox import Sandbox, make_app
from .scores import Scores
from .session import SEAT_KINDS, GameSession
from .timeline import Timeline

_panel_patches.apply()  # faster notebook output with pn.extension(inline=True)

__all__ = [
    "SEAT_KINDS",
    "Board",
    "Characters",
    "DecisionPanel",
    "HintsView",
    "GameSession",
    "LanguageSelector",
    "Log",
    "OddsView",
    "Players",
    "Practice",
    "RulesView",
    "Sandbox",
    "Scores",
    "Timeline",
    "link_rule_ids",
    "make_app",
    "rule_ids_html",
]
