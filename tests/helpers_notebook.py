"""A component shown as a notebook output, without a browser: page messages go through Panel's own
notebook handler (the one a Jupyter comm calls).

The browser sends a choice and a click in one message when they come close together or while the
kernel has not yet acknowledged its previous message (Panel's page-side debounce); see
``widgets.game.common.after_page_message``.
"""

from __future__ import annotations

import uuid

from bokeh.document import Document
from panel.io.model import add_to_doc
from panel.models.comm_manager import CommManager


class KernelComm:
    """Stands in for the kernel's end of Panel's comm: records what would go to the browser."""

    _comm = True  # open (panel.io.notebook.push sends at once)

    def __init__(self):
        self.id = uuid.uuid4().hex
        self.sent = []

    def send(self, data=None, metadata=None, buffers=None):
        self.sent.append(data)


def shown_in_a_notebook(view):
    """Render the view as Panel does for a notebook output; return a function that delivers a
    page message (a list of Bokeh patch events) the way the output's comm does."""
    layout = view.__panel__()
    doc, comm = Document(), KernelComm()
    root = layout.get_root(doc, comm)
    add_to_doc(root, doc, hold=True)  # a notebook output's document is always on hold
    ref = root.ref["id"]
    manager = CommManager(comm_id=comm.id, plot_id=ref)

    def deliver(*events):
        message = {
            "header": {"msgid": uuid.uuid4().hex, "msgtype": "PATCH-DOC"},
            "metadata": {},
            "content": {"events": list(events)},
            "_buffers": {},
        }
        # private: the handler Panel gives the output's comm; Jupyter calls it with each message
        layout._on_msg(ref, manager, message)

    return deliver, ref, comm


def model_id(widget, ref) -> str:
    """The id of the Bokeh model the page has for ``widget`` in the output ``ref``."""
    # private: Panel's widget -> model map; the page names a widget by this id in its messages
    return widget._models[ref][0].id


def chosen(widget, ref, label):
    return {
        "kind": "ModelChanged",
        "model": {"id": model_id(widget, ref)},
        "attr": "value",
        "new": label,
    }


def clicked(button, ref):
    return {
        "kind": "MessageSent",
        "msg_type": "bokeh_event",
        "msg_data": {
            "type": "event",
            "name": "button_click",
            "values": {"type": "map", "entries": [["model", {"id": model_id(button, ref)}]]},
        },
    }
