"""What a component puts on the page, read as the browser gets it: the Panel objects its
``__panel__`` lays out (the Viewer protocol), and the Bokeh models of a board's figure, found by
their names. Tests read a view through these, never through its private attributes."""

from __future__ import annotations

import re
from html import unescape

import panel as pn


def parts(view, *, shown: bool = True):
    """Every Panel object ``view`` lays out, depth first (``shown``: only those visible, inside
    visible layouts: what the browser shows)."""
    obj = view.__panel__() if isinstance(view, pn.viewable.Viewer) else view
    if shown and not getattr(obj, "visible", True):
        return
    yield obj
    for child in getattr(obj, "objects", None) or ():
        yield from parts(child, shown=shown)


def html(view) -> str:
    """The HTML and Markdown the browser shows of ``view``, one pane after another."""
    return "\n".join(
        p.object
        for p in parts(view)
        if isinstance(p, pn.pane.Markdown | pn.pane.HTML | pn.pane.Alert)
    )


def widget(view, kind, css: str | None = None, *, shown: bool = False):
    """The one widget of type ``kind`` (with the CSS class ``css``) in ``view``."""
    found = [
        p
        for p in parts(view, shown=shown)
        if isinstance(p, kind) and (css is None or css in p.css_classes)
    ]
    assert len(found) == 1, found
    return found[0]


def seen(view) -> list[tuple]:
    """What the browser shows of ``view``: each visible pane's text, each visible widget's
    label, tooltip, choices and value, in order."""
    shown = []
    for p in parts(view):
        if isinstance(p, pn.pane.Markdown | pn.pane.HTML | pn.pane.Alert):
            shown.append((type(p).__name__, p.object))
        elif isinstance(p, pn.widgets.Widget):
            description = getattr(p, "description", None)
            shown.append(
                (
                    type(p).__name__,
                    p.name,
                    getattr(description, "content", description),
                    getattr(p, "groups", None),
                    getattr(p, "options", None),
                    getattr(p, "value", None),
                    p.disabled,
                )
            )
    return shown


def figure(board):
    """The Bokeh figure a board draws."""
    return widget(board, pn.pane.Bokeh).object


def source(board, name: str):
    """A board's data source by its name (``board-servants``, ``board-last``, ...): the data
    the browser draws. Looked for among the figure's renderers first: Bokeh's ``select_one``
    walks every model the figure refers to (a board has thousands of properties), which made
    a test that reads a few sources of 18 boards take 45 s."""
    fig = figure(board)
    for renderer in fig.renderers:
        data = getattr(renderer, "data_source", None)
        if data is not None and data.name == name:
            return data
    return fig.select_one({"name": name})


def element_text(view, css: str) -> str:
    """The text a reader sees in the one element with the CSS class ``css`` in ``view``'s HTML
    (tags dropped, entities decoded): a line as the page shows it, not a copy the view keeps."""
    found = re.findall(
        rf"<(\w+)[^>]*\bclass=[\"']([^\"']*\s)?{re.escape(css)}(\s[^\"']*)?[\"'][^>]*>(.*?)</\1>",
        html(view),
        re.S,
    )
    assert len(found) == 1, (css, found)
    return unescape(re.sub(r"<[^>]+>", "", found[0][3]))
