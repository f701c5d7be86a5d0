"""Panel/Bokeh components over the Nefertiti engine (``nefertiti_core``).

The package in layers, each importing only those before it (``tests/test_layers.py``):

- ``theme``: the colours and fonts every view uses;
- ``server``: what serves the pages and keeps their data, with no view in it: the stores, the
  upload worker, the limits, the framework patches, the front page;
- ``game``: the live views of one game (board, decision panel, log, players, timeline, ...);
- ``lesson``: what only the tutorial notebooks show (``Lesson``, ``demo``, the rule tables);
- ``sandbox`` and ``classroom``: the two served apps, each on its own;
- ``serve``: the ``nefertiti serve`` command, which puts the pages together.

Each component is a thin view bound to one :class:`GameSession`: it asks the engine for rules
(legal options, explanations, statuses, previews, scores) and never decides one itself. Serve
:func:`make_app` for a whole game in one page (one game per browser session).

The names below are imported when first used (PEP 562): the ``nefertiti`` command loads
``widgets.serve`` for its ``serve`` subcommand, and importing Panel for every ``nefertiti explain``
or ``nefertiti rules`` cost about 1.5 s of CPU. The notebook patches (``server.patches``) are
applied by ``widgets.game.session``, which every component imports.
"""

from __future__ import annotations

import importlib

#: public name -> the module that defines it
_EXPORTS = {
    "SEAT_KINDS": ".game.session",
    "Board": ".game.board",
    "Characters": ".game.characters",
    "DecisionPanel": ".game.decision",
    "GameSession": ".game.session",
    "HintsView": ".game.hints",
    "LanguageSelector": ".game.language",
    "Log": ".game.log",
    "OddsView": ".game.odds",
    "Players": ".game.players",
    "Practice": ".sandbox.practice",
    "RulesView": ".game.rules_view",
    "Sandbox": ".sandbox.app",
    "Scores": ".game.scores",
    "Timeline": ".game.timeline",
    "link_rule_ids": ".game.rules_view",
    "make_app": ".sandbox.app",
    "rule_ids_html": ".game.rules_view",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'widgets' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # the next lookup does not come here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
