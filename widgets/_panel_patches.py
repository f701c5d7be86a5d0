"""Panel fixes for notebooks: a speed fix for ``pn.extension(inline=True)``, and comms that work
in Voilà.

Panel (1.9) inlines the stylesheets of every model of an output one model at a time, and each
change makes Bokeh recompute the whole document's model graph: the cost grows with the square of
the number of models (a Lesson took about 5 s to appear). Freezing the document's models for the
length of that loop gives the same output with one recompute at the end. Applied only when the
Panel internals it wraps are there; otherwise Panel is left as it is.
"""

from __future__ import annotations

import logging
import os

log = logging.getLogger(__name__)

#: Set in a kernel that Voilà started (voila/handler.py and notebook_renderer.py, Voilà 0.5).
VOILA_KERNEL_VARIABLES = ("VOILA_KERNEL_ID", "VOILA_SERVER_URL", "VOILA_REQUEST_URL")


def in_voila(environ=os.environ) -> bool:
    return any(name in environ for name in VOILA_KERNEL_VARIABLES)


def use_ipywidgets_comms_in_voila(environ=os.environ) -> bool:
    """In Voilà, Panel talks to the kernel through ipywidgets (jupyter_bokeh's BokehModel).

    Panel's own comms need its JupyterLab extension, which Voilà 0.5 cannot load ("Shared module
    @jupyterlab/docmanager doesn't exist"): the boards were drawn but a click or a Check never
    reached the kernel. ipywidgets' comms are part of Voilà. Only the comms of outputs shown after
    this call change: the notebooks import ``widgets`` before they show any board. JupyterLab
    keeps Panel's own comms; an explicit choice (PANEL_COMMS, ``pn.extension(comms=...)``) wins.
    Returns whether the comms were switched."""
    if not in_voila(environ):
        return False
    try:
        from panel import config
    except ImportError:  # pragma: no cover - no Panel: nothing is shown
        return False
    if environ.get("PANEL_COMMS") or config.comms != "default":
        return False
    try:
        import jupyter_bokeh  # noqa: F401 - what Panel renders ipywidgets with
    except ImportError:
        log.warning(
            "Voila: the boards and exercises cannot answer without the jupyter_bokeh package "
            "(pip install jupyter_bokeh)"
        )
        return False
    config.comms = "ipywidgets"
    return True


def apply() -> None:
    use_ipywidgets_comms_in_voila()
    try:
        from bokeh.models import UIElement
        from panel import viewable
        from panel.config import config
    except ImportError:  # pragma: no cover - no Panel: nothing to speed up
        return
    if getattr(viewable, "_nefertiti_frozen_inline", False):
        return
    original_patch = getattr(viewable, "patch_inline_stylesheets", None)
    original_render = getattr(viewable.Viewable, "_render_mimebundle", None)
    if original_patch is None or original_render is None:
        log.debug("panel internals changed: inline stylesheet speed fix not applied")
        return
    frozen: dict[int, object] = {}

    def patch_inline_stylesheets(submodel):
        doc = getattr(submodel, "document", None)
        if doc is not None and id(doc) not in frozen:
            freezer = doc.models.freeze()
            freezer.__enter__()
            frozen[id(doc)] = freezer
        return original_patch(submodel)

    def _render_mimebundle(self, model, doc, comm, location=None):
        freezer = frozen.pop(id(doc), None)
        if freezer is not None:
            freezer.__exit__(None, None, None)  # one recompute, before the output is built
        return original_render(self, model, doc, comm, location)

    original_preprocess = viewable.Viewable._preprocess

    def _preprocess(self, root, changed=None, old_models=None):
        # A change over a notebook comm (a dynamic tab opened, a layout's objects replaced)
        # inlines the new models' stylesheets here, and no _render_mimebundle follows: the
        # freeze must end with this call, or the document never indexes the models added from
        # now on and every message from the page about them is refused ("Comm received message
        # that could not be deserialized": the exercises after the first tab were dead).
        before = set(frozen)
        try:
            if config.inline and config.comms == "ipywidgets":
                # Voilà: Panel inlines stylesheets only on its own comms; without this the page
                # asks cdn.holoviz.org for them (and is unstyled offline). Models done already
                # are left as they are (patch_inline_stylesheets changes only CDN links).
                for model in root.select({"type": UIElement}):
                    patch_inline_stylesheets(model)
            return original_preprocess(self, root, changed, old_models)
        finally:
            for key in set(frozen) - before:
                frozen.pop(key).__exit__(None, None, None)

    viewable.patch_inline_stylesheets = patch_inline_stylesheets
    viewable.Viewable._render_mimebundle = _render_mimebundle
    viewable.Viewable._preprocess = _preprocess
    viewable._nefertiti_frozen_inline = True
