"""The OddsView in a notebook, without a browser: a page message goes through Panel's own notebook
handler (the one a Jupyter comm calls), with the kernel's asyncio loop running.

The browser sends a choice and a click in one message when they come close together or while the
kernel has not yet acknowledged its previous message (Panel's page-side debounce). Panel 1.9 runs
the click's callbacks while that message's property changes are still held; Run used to play the
old number of playouts, and the Playouts menu never got the choice on the kernel's side (the
browser check tests/browser/test_odds_in_jupyterlab.py failed that way about one run in three).
"""

from __future__ import annotations

import asyncio
import uuid

from bokeh.document import Document
from panel.io.model import add_to_doc
from panel.models.comm_manager import CommManager

from widgets import GameSession, OddsView


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
        layout._on_msg(ref, manager, message)

    return deliver, ref, comm


def chosen(widget, ref, label):
    return {
        "kind": "ModelChanged",
        "model": {"id": widget._models[ref][0].id},
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
            "values": {"type": "map", "entries": [["model", {"id": button._models[ref][0].id}]]},
        },
    }


def test_a_playouts_choice_sent_with_the_run_click_is_the_one_played():
    view = OddsView(GameSession(), workers=1)
    deliver, ref, _comm = shown_in_a_notebook(view)

    async def in_the_kernel():
        loop = asyncio.get_running_loop()
        deliver(chosen(view._playouts, ref, "5000"), clicked(view._run, ref))
        await asyncio.sleep(0.05)  # the kernel loop's next turns
        try:
            assert view._playouts.value == 5000
            assert view.running and view._progress.max == 5000
            assert "of 5000 playouts" in view._status.object
        finally:
            deliver(clicked(view._stop, ref))
            await asyncio.sleep(0.05)
            await loop.run_in_executor(None, view.join, 60)
            await asyncio.sleep(0.05)  # the report is shown on the loop's turn
        assert not view.running and view.report.requested == 5000
        assert view.report.cancelled and "Cancelled" in view._status.object

    asyncio.run(in_the_kernel())


def test_a_choice_sent_alone_then_a_click():
    view = OddsView(GameSession(), workers=1)
    deliver, ref, _comm = shown_in_a_notebook(view)

    async def in_the_kernel():
        loop = asyncio.get_running_loop()
        deliver(chosen(view._playouts, ref, "50"))
        assert view._playouts.value == 50
        deliver(clicked(view._run, ref))
        await asyncio.sleep(0.05)
        assert view._progress.max == 50
        await loop.run_in_executor(None, view.join, 60)
        await asyncio.sleep(0.05)
        assert view.report.playouts == 50 and not view._run.disabled

    asyncio.run(in_the_kernel())
