"""The exercise block over a notebook comm (issue #13, item 1): a tab opened after the output was
shown must have its models known to the kernel's document, or every message from the page about
them is refused ("Comm received message that could not be deserialized") and the exercise is dead.

The browser test (tests/browser/test_every_exercise.py) presses every exercise's buttons in
JupyterLab; this one checks the cause in a second, without a browser.
"""

from __future__ import annotations

import panel as pn
from bokeh.models import Button
from panel.io.state import state

import widgets  # noqa: F401 - applies the notebook speed patch under test
from widgets.lesson import exercises


def test_a_tab_opened_later_has_its_buttons_in_the_kernel_document():
    loaded = pn.extension._loaded
    pn.config.inline = True
    pn.extension._loaded = True  # as after pn.extension(inline=True) in a notebook
    try:
        block = exercises("closing-abou-simbel")
        block._repr_mimebundle_()  # shown as a notebook output (a comm of its own)
        ref = next(r for r, view in state._views.items() if view[0] is block)
        _, root, doc, _ = state._views[ref]
        tabs = block[1]
        for active in range(1, len(tabs)):
            tabs.active = active
            assert doc.models._freeze_count == 0
            buttons = [m for m in root.select({"type": Button}) if m.visible]
            assert buttons, f"tab {active + 1} shows no button"
            for button in buttons:
                assert doc.get_model_by_id(button.id) is button, f"tab {active + 1}: {button}"
    finally:
        pn.config.inline = False
        pn.extension._loaded = loaded
        state._views.clear()
