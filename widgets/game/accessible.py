"""Names that screen readers and voice control read, for widgets whose caption Bokeh draws in a
way that names nothing: a form field with no ``<label>`` has no name (axe-core's ``label`` and
``select-name`` rules, WCAG 4.1.2), and its user hears "combo box" or "check box" only.

- Bokeh's ``Select`` draws its caption (Panel's ``name``) as a ``<label for="input">``, hidden
  when there is no caption: a drop-down whose meaning a line of text above it gives (the decision
  panel's "12 placements") then has no name. :func:`name_for_readers` gives it one, the same
  words, in a label that is read but not shown twice.
- Bokeh's ``Checkbox`` draws its caption as a ``<div>`` beside the box: seen, never read with
  it. :class:`LabelledCheckbox` draws a ``CheckboxGroup`` of one box instead, whose caption is a
  ``<label>`` around the box (clicking the words ticks it, too); it is a ``Checkbox`` to the
  code (``value`` True or False, ``name`` its caption).

The page template's one ``<main>`` and ``<h1>`` are ``widgets.game.common``'s; the tests are
tests/browser/test_accessibility.py (axe-core on every page).
"""

from __future__ import annotations

import panel as pn
from bokeh.models import CheckboxGroup

#: A label kept for screen readers and hidden from sight (the usual "visually hidden" rule: not
#: ``display: none``, which would hide it from readers too).
READ_NOT_SHOWN = (
    ":host label { position: absolute !important; width: 1px; height: 1px; margin: -1px; "
    "padding: 0; border: 0; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); "
    "white-space: nowrap; }"
)


def name_for_readers(widget, text: str) -> None:
    """Name ``widget`` (a ``Select`` or text input) ``text`` for screen readers without showing
    a caption (the text is already on the page beside it). Only a change is sent."""
    if READ_NOT_SHOWN not in widget.stylesheets:
        widget.stylesheets = [*widget.stylesheets, READ_NOT_SHOWN]
    if widget.name != text:
        widget.name = text


class LabelledCheckbox(pn.widgets.Checkbox):
    """A ``Checkbox`` whose caption is the ``<label>`` of its box (see the module's doc)."""

    _widget_type = CheckboxGroup
    # Panel's Checkbox's renames (name: none, value: active), its caption sent as labels
    _rename = {"name": None, "value": "active", "label": "labels"}

    def _process_param_change(self, params):
        params = super()._process_param_change(params)
        if "active" in params:
            params["active"] = [0] if params["active"] else []
        if "labels" in params:
            params["labels"] = [params["labels"] or ""]
        return params

    def _process_property_change(self, msg):
        if "active" in msg:
            msg = {**msg, "active": 0 in msg["active"]}
        return super()._process_property_change(msg)
