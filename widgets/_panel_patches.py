"""A speed fix for showing components in a notebook with ``pn.extension(inline=True)``.

Panel (1.9) inlines the stylesheets of every model of an output one model at a time, and each
change makes Bokeh recompute the whole document's model graph: the cost grows with the square of
the number of models (a Lesson took about 5 s to appear). Freezing the document's models for the
length of that loop gives the same output with one recompute at the end. Applied only when the
Panel internals it wraps are there; otherwise Panel is left as it is.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def apply() -> None:
    try:
        from panel import viewable
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
            return original_preprocess(self, root, changed, old_models)
        finally:
            for key in set(frozen) - before:
                frozen.pop(key).__exit__(None, None, None)

    viewable.patch_inline_stylesheets = patch_inline_stylesheets
    viewable.Viewable._render_mimebundle = _render_mimebundle
    viewable.Viewable._preprocess = _preprocess
    viewable._nefertiti_frozen_inline = True
