"""Panel/Bokeh components over the Nefertiti engine (``nefertiti_core``).

Each component is a thin view bound to one :class:`GameSession`: it asks the engine for rules
(legal options, explanations, statuses, previews, scores) and never decides one itself. Serve
:func:`make_app` for a whole game in one page (one game per browser session).

The names below are imported when first used (PEP 562): the ``nefertiti`` command loads
``widgets.serve`` for its ``serve`` subcommand, and importing Panel for every ``nefertiti explain``
or ``nefertiti rules`` cost about 1.5 s of CPU. The notebook patches (``_panel_patches``) are
applied by ``widgets.session``, which every component imports.
"""

from __future__ import annotations

import importlib

#: public name -> the module that defines it
_EXPORTS = {
    "SEAT_KINDS": ".session",
    "Board": ".board",
    "Characters": ".characters",
    "DecisionPanel": ".decision",
    "GameSession": ".session",
    "HintsView": ".hints",
    "LanguageSelector": ".language",
    "Log": ".log",
    "OddsView": ".odds",
    "Players": ".players",
    "Practice": ".practice",
    "RulesView": ".rules_view",
    "Sandbox": ".sandbox",
    "Scores": ".scores",
    "Timeline": ".timeline",
    "link_rule_ids": ".rules_view",
    "make_app": ".sandbox",
    "rule_ids_html": ".rules_view",
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
