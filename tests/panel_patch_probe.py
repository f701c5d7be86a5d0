"""Reproduce, in a fresh interpreter, what each of widgets/server/patches.py's patches works
around; ``on`` applies the patches first, ``off`` leaves Panel as it is. Prints one JSON line.

Run by tests/test_panel_patches.py (a subprocess each, so that no patch applied by another test's
``import widgets`` is in the way).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys


def count_recomputes(models: int) -> tuple[int, dict]:
    """Bokeh's recomputes of the document graph while a Column of ``models`` buttons is shown
    in a notebook with ``pn.extension(inline=True)``, and the output."""
    import panel as pn
    from bokeh.document.models import DocumentModelManager
    from panel.config import panel_extension

    pn.config.inline = True
    pn.config.comms = "default"
    panel_extension._loaded = True  # private: what pn.extension() marks in a notebook
    calls = [0]
    original = DocumentModelManager.recompute

    def recompute(self):
        calls[0] += 1
        return original(self)

    DocumentModelManager.recompute = recompute
    try:
        column = pn.Column(*[pn.widgets.Button(name=f"b{i}") for i in range(models)])
        bundle = column._repr_mimebundle_()  # private: IPython's display protocol, as a notebook
    finally:
        DocumentModelManager.recompute = original
    return calls[0], bundle[0]


def shown_over_ipywidgets(viewable):
    """The Bokeh model of ``viewable`` as Panel shows it over ipywidgets comms (Voilà)."""
    import panel as pn
    from panel.io.notebook import ipywidget

    pn.config.comms = "ipywidgets"
    try:
        return ipywidget(viewable)._model  # private: the model Panel keeps no public handle to
    finally:
        pn.config.comms = "default"


def voila_cdn_links() -> tuple[int, int]:
    """Stylesheets still linked to the CDN when a layout is shown over ipywidgets comms with
    ``inline=True`` (Voilà), and the document's freeze count afterwards (0: not left frozen)."""
    import panel as pn
    from bokeh.models import ImportedStyleSheet, UIElement
    from panel.io.resources import CDN_DIST

    pn.config.inline = True
    model = shown_over_ipywidgets(pn.Column(pn.widgets.Button(name="x"), pn.pane.Markdown("text")))
    links = [
        sheet.url
        for element in model.select({"type": UIElement})
        for sheet in element.stylesheets
        if isinstance(sheet, ImportedStyleSheet) and sheet.url.startswith(CDN_DIST)
    ]
    frozen = model.document.models._freeze_count  # private: the symptom, in Bokeh's bookkeeping
    return len(links), frozen


def late_stylesheet_links() -> int:
    """Stylesheets linked to another host (cdn.holoviz.org) once a shown layout gets a component
    built later (a press that unfolds a view), with ``inline=True`` (a lesson's notebook)."""
    import panel as pn
    from bokeh.document import Document
    from bokeh.models import ImportedStyleSheet, UIElement

    pn.config.inline = True
    column = pn.Column(pn.widgets.Button(name="x"))
    model = column.get_root(Document())
    column.append(pn.widgets.Select(options=["a", "b"]))  # built after the output was shown
    return sum(
        1
        for element in model.select({"type": UIElement})
        for sheet in element.stylesheets
        if isinstance(sheet, ImportedStyleSheet) and sheet.url.startswith(("http:", "https:"))
    )


def voila_click_document() -> bool:
    """Whether a button shown over ipywidgets comms (Voilà) runs its click with the document its
    model is in as Panel's current one (the stylesheets of what the click builds are cached per
    current document)."""
    import panel as pn
    from bokeh.events import ButtonClick
    from panel.io.state import state

    button, seen = pn.widgets.Button(name="x"), []
    button.on_click(lambda _event: seen.append(state.curdoc))
    model = shown_over_ipywidgets(button)
    model._trigger_event(ButtonClick(model))  # private: a browser's click, as Bokeh receives it
    assert len(seen) == 1, seen
    return seen[0] is model.document


def websocket_nodelay() -> bool:
    """TCP_NODELAY on the server's end of a served Panel app's websocket."""
    import panel as pn
    from bokeh.util.token import generate_jwt_token, generate_session_id
    from panel.io import server
    from tornado.websocket import websocket_connect

    opened = []
    patched_open = server.WSHandler.open

    def open_(self, *args, **kwargs):
        result = patched_open(self, *args, **kwargs)
        opened.append(self)
        return result

    server.WSHandler.open = open_
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    thread = pn.serve(
        {"app": lambda: pn.pane.Markdown("hi")},
        port=port,
        address="127.0.0.1",
        show=False,
        threaded=True,
        websocket_origin=[f"127.0.0.1:{port}"],
    )
    try:
        token = generate_jwt_token(generate_session_id())

        async def nodelay() -> bool:
            for _ in range(100):
                try:
                    client = await websocket_connect(
                        f"ws://127.0.0.1:{port}/app/ws", subprotocols=["bokeh", token]
                    )
                    break
                except OSError:
                    await asyncio.sleep(0.1)
            else:
                raise RuntimeError("the app did not start")
            try:
                for _ in range(300):
                    if opened:
                        stream = opened[0].ws_connection.stream
                        return bool(
                            stream.socket.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
                        )
                    await asyncio.sleep(0.05)
                raise RuntimeError("the websocket was not opened")
            finally:
                client.close()

        return asyncio.run(nodelay())
    finally:
        thread.stop()


def forged_choices() -> dict:
    """What a forged choice does to a RadioButtonGroup and a Select (a change of their models, as
    a browser's message makes it): the error Panel raises, or the value it takes."""
    import logging

    import panel as pn
    from bokeh.document import Document

    logging.getLogger("panel").setLevel(logging.CRITICAL)  # Panel logs the traceback: not here
    out = {}
    doc = Document()
    for kind, attr, forged in (
        ("RadioButtonGroup", "active", 99),
        ("RadioButtonGroup", "active", -1),
        ("Select", "value", "bogus"),
    ):
        widget = getattr(pn.widgets, kind)(options=["en", "de", "zh"], value="en")
        model = widget.get_root(doc)
        try:
            setattr(model, attr, forged)
            result = widget.value
        except Exception as error:
            result = f"{type(error).__name__}: {error}"
        out[f"{kind} {forged}"] = result
    return out


def main(mode: str) -> None:
    from widgets.server import patches as _panel_patches

    if mode == "on":
        # the bundles are compared with the unpatched ones: the inline patch alone first
        _panel_patches.apply(_panel_patches.INLINE_STYLESHEETS)
        _panel_patches.apply_server()
        _panel_patches.apply(_panel_patches.VOILA_CURDOC)  # Voilà's, applied there only
    small, small_bundle = count_recomputes(10)
    large, large_bundle = count_recomputes(40)
    if mode == "on":
        _panel_patches.apply_notebook()  # the rest of a notebook's (local stylesheets)
    links, frozen = voila_cdn_links()
    out = {
        "recomputes": [small, large],
        "bundle_sizes": [len(json.dumps(small_bundle)), len(json.dumps(large_bundle))],
        "cdn_links": links,
        "late_links": late_stylesheet_links(),
        "left_frozen": frozen,
        "click_in_its_document": voila_click_document(),
        "nodelay": websocket_nodelay(),
        "forged_choices": forged_choices(),
    }
    print(json.dumps(out))  # the last line (Panel prints "Launching server" before it)
    sys.stdout.flush()
    os._exit(0)  # private: os._exit is documented; the server's thread would keep us waiting


if __name__ == "__main__":
    main(sys.argv[1])
