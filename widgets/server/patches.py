"""Workarounds for Panel/Bokeh behaviour, in one place, each bounded to the versions it was
measured on and applied explicitly where it is needed.

* :data:`INLINE_STYLESHEETS` (notebooks, ``widgets.game.session`` applies it through
  :func:`apply_notebook`): Panel (1.9) inlines the stylesheets of every model of an output one
  model at a time, and each change makes Bokeh recompute the whole document's model graph: the
  cost grows with the square of the number of models (a Lesson took about 5 s to appear).
  Freezing the document's models for the length of that loop gives the same output with one
  recompute at the end. In Voilà (ipywidgets comms) Panel does not inline the stylesheets at
  all and the page asks cdn.holoviz.org for them (unstyled offline): the patch inlines them there
  too.
* :data:`VOILA_CURDOC` (Voilà only, applied with its ipywidgets comms): a click runs with its
  model's own document as Panel's current one (see there).
* :data:`WEBSOCKET` and :data:`PAGE_ADMISSION` (the served app, ``widgets.serve`` applies them
  through :func:`apply_server`): TCP_NODELAY on each websocket, its page's activity reported to
  the served app's state, and the session guard asked before a page load makes a session. These
  two are required: out of their bounds the server does not start (:class:`PanelPatchMissing`).
* :data:`FORGED_CHOICES` (the served app too): a choice a browser sends that its widget does not
  offer is refused in one log line and told to the page, not raised as a traceback.
* Two reads of Bokeh internals (:func:`live_sessions`, :func:`tornado_application`), where Bokeh
  has no public way, in the same bounds.

:data:`PATCHES` lists them all; each method Panel or Bokeh owns is wrapped once.

A notebook patch whose Panel or Bokeh version is outside its bounds is not applied, and one
warning says so (:class:`PanelPatchSkipped`): Panel is then left as it is, slower but correct.
``tests/test_panel_patches.py`` reproduces each problem with the patch off and checks it is gone
with the patch on, so a Panel release that changes the behaviour under a patch fails there.
"""

from __future__ import annotations

import logging
import os
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata

log = logging.getLogger(__name__)


class PanelPatchSkipped(UserWarning):
    """A workaround was not applied: the installed Panel or Bokeh is not one it was measured on."""


class PanelPatchMissing(RuntimeError):
    """A patch the served app cannot do without (its limits) could not be applied."""


@dataclass(frozen=True)
class Patch:
    name: str
    #: (lowest, first version not covered), compared on (major, minor)
    panel: tuple[tuple[int, int], tuple[int, int]]
    bokeh: tuple[tuple[int, int], tuple[int, int]]
    install: Callable[[], bool]
    what_is_lost: str
    #: a required patch that is not applied stops the caller (:class:`PanelPatchMissing`)
    #: instead of leaving Panel as it is
    required: bool = False


def _minor(version: str) -> tuple[int, int]:
    match = re.match(r"(\d+)\.(\d+)", version)
    return (int(match[1]), int(match[2])) if match else (0, 0)


def installed_versions() -> dict[str, str]:
    """The installed Panel and Bokeh versions (a test replaces this to try other ones)."""
    return {name: metadata.version(name) for name in ("panel", "bokeh")}


def in_bounds(patch: Patch, versions: dict[str, str] | None = None) -> str | None:
    """None when the installed versions are the ones ``patch`` covers, else why not."""
    versions = versions or installed_versions()
    for name, (low, high) in (("panel", patch.panel), ("bokeh", patch.bokeh)):
        if not low <= _minor(versions[name]) < high:
            return (
                f"{name} {versions[name]} is outside {low[0]}.{low[1]} to before "
                f"{high[0]}.{high[1]}"
            )
    return None


_applied: set[str] = set()
_warned: set[str] = set()


def apply(patch: Patch) -> bool:
    """Apply ``patch`` once; False (and one warning per process) when the versions are not its
    own or the Panel internals it wraps are gone."""
    if patch.name in _applied:
        return True
    why = in_bounds(patch)
    if why is None and not patch.install():
        why = "the Panel internals it wraps are not there"
    if why is not None and patch.required:
        raise PanelPatchMissing(
            f"Panel patch {patch.name!r} not applied ({why}): {patch.what_is_lost}. Check "
            "tests/test_panel_patches.py against this version and widen the bounds in "
            "widgets/server/patches.py if it passes."
        )
    if why is not None:
        if patch.name not in _warned:
            _warned.add(patch.name)
            warnings.warn(
                f"nefertiti: Panel patch {patch.name!r} not applied ({why}): {patch.what_is_lost}. "
                "Check tests/test_panel_patches.py against this version and widen the bounds "
                "in widgets/server/patches.py if it passes.",
                PanelPatchSkipped,
                stacklevel=2,
            )
        return False
    _applied.add(patch.name)
    return True


# ------------------------------------------------------------------ Voila's comms (notebooks)
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
    apply(VOILA_CURDOC)
    return True


def _install_voila_curdoc() -> bool:
    from panel.reactive import Reactive

    original = getattr(Reactive, "_process_bokeh_event", None)
    if original is None:
        return False

    def _process_bokeh_event(self, doc, event):
        model = getattr(event, "model", None)
        document = getattr(model, "document", None)
        return original(self, document if document is not None else doc, event)

    Reactive._process_bokeh_event = _process_bokeh_event  # noqa: SLF001  framework private: Panel's Reactive._process_bokeh_event, patched
    return True


#: Voilà: Panel registers a widget's events with the document it rendered the output into, but
#: jupyter_bokeh puts the model in a document of its own, and Panel runs the click with the
#: first one current. Components built in the click take their stylesheets from the current
#: document's cache, which another output had filled: "Models must be owned by only a single
#: document", and a demonstration's "Show what happens" did nothing about one press in eight.
#: The patch runs each event with its model's own document current.
VOILA_CURDOC = Patch(
    name="voila-curdoc",
    panel=((1, 9), (1, 10)),  # measured on Panel 1.9.4, jupyter_bokeh 4.1.0, Voila 0.5.13
    bokeh=((3, 9), (3, 10)),
    install=_install_voila_curdoc,
    what_is_lost="in Voila a press that builds new components sometimes does nothing",
)


# ------------------------------------------------------------------ inline stylesheets (notebooks)
def _install_inline_stylesheets() -> bool:
    from bokeh.models import UIElement
    from panel import viewable
    from panel.config import config

    original_patch = getattr(viewable, "patch_inline_stylesheets", None)
    original_render = getattr(viewable.Viewable, "_render_mimebundle", None)
    original_preprocess = getattr(viewable.Viewable, "_preprocess", None)
    if original_patch is None or original_render is None or original_preprocess is None:
        return False
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
    viewable.Viewable._render_mimebundle = _render_mimebundle  # noqa: SLF001  framework private: Panel's Viewable._render_mimebundle, patched
    viewable.Viewable._preprocess = _preprocess  # noqa: SLF001  framework private: Panel's Viewable._preprocess, patched
    return True


INLINE_STYLESHEETS = Patch(
    name="inline-stylesheets",
    panel=((1, 9), (1, 10)),  # measured on Panel 1.9.4
    bokeh=((3, 9), (3, 10)),  # and Bokeh 3.9.2
    install=_install_inline_stylesheets,
    what_is_lost=(
        "a notebook output with many models (a Lesson) takes seconds longer to appear, and in "
        "Voila the page's stylesheets come from cdn.holoviz.org (unstyled offline)"
    ),
)


# ------------------------------------------------------------------ Panel's stylesheets, local (notebooks)
def _install_local_stylesheets() -> bool:
    import base64
    import functools

    from bokeh.models import ImportedStyleSheet
    from panel.config import config
    from panel.io import resources

    original = ImportedStyleSheet.__dict__.get("__setattr__", ImportedStyleSheet.__setattr__)
    if not all(hasattr(resources, name) for name in ("CDN_DIST", "LOCAL_DIST", "DIST_DIR")):
        return False

    @functools.cache
    def local(url: str) -> str | None:
        """The file of Panel's own dist that an address names (on the CDN, or on Panel's
        server, which Panel turns into the CDN's later) as a data: address, or None."""
        if url.startswith(resources.CDN_DIST):
            rest = url[len(resources.CDN_DIST) :]
        elif resources.LOCAL_DIST in url and not url.startswith(("http:", "https:", "/", "data:")):
            rest = url.split(resources.LOCAL_DIST, 1)[1]
        else:
            return None
        path = resources.DIST_DIR / rest.split("?")[0]
        if not path.is_file():
            return None
        return "data:text/css;base64," + base64.b64encode(path.read_bytes()).decode("ascii")

    def __setattr__(self, name, value):
        if name == "url" and config.inline and isinstance(value, str):
            value = local(value) or value
        return original(self, name, value)

    __setattr__.__wrapped__ = original
    ImportedStyleSheet.__setattr__ = __setattr__

    # When an output is shown, Panel turns its CDN stylesheets into inline ones: the data:
    # addresses above are turned into the same (plain text, a quarter smaller than base64).
    from bokeh.models import InlineStyleSheet
    from panel.io import notebook

    replace = getattr(notebook, "replace_inline_css", None)
    if replace is not None:
        prefix = "data:text/css;base64,"

        def replace_inline_css(stylesheet):
            url = getattr(stylesheet, "url", "")
            if isinstance(url, str) and url.startswith(prefix):
                return InlineStyleSheet(css=base64.b64decode(url[len(prefix) :]).decode("utf-8"))
            return replace(stylesheet)

        replace_inline_css.__wrapped__ = replace
        notebook.replace_inline_css = replace_inline_css
    return True


#: A notebook (``pn.extension(inline=True)``): Panel names its components' stylesheets by
#: their cdn.holoviz.org address (or its own server's, which it turns into the CDN's) and inlines
#: them only when an output is first shown (in Voilà, over ipywidgets comms, not at all). A
#: component built or restyled later (a press that unfolds a demonstration, a verdict, a widget
#: that shows it is loading, the theme's stylesheet of a new component) asked cdn.holoviz.org:
#: unstyled offline, and a request outside the classroom. With the patch, while ``inline`` is on,
#: a stylesheet that names a file of Panel's own dist carries that file as a data: address
#: instead (Bokeh's ``ImportedStyleSheet.url``, wherever Panel sets it). Where ``inline`` is off
#: (the served app) nothing changes.
LOCAL_STYLESHEETS = Patch(
    name="local-stylesheets",
    panel=((1, 9), (1, 10)),  # measured on Panel 1.9.4, Bokeh 3.9.2
    bokeh=((3, 9), (3, 10)),
    install=_install_local_stylesheets,
    what_is_lost=(
        "in a notebook, components built after the first output ask cdn.holoviz.org for "
        "their stylesheets (unstyled offline)"
    ),
)


# ------------------------------------------------------------------ the served app's handlers
def _install_websocket() -> bool:
    from panel.io import server

    handler = getattr(server, "WSHandler", None)
    original_open = getattr(handler, "open", None)
    original_message = getattr(handler, "on_message", None)
    if original_open is None or original_message is None:
        return False
    from widgets.server.state import SERVED

    def open_(self, *args, **kwargs):
        try:
            self.set_nodelay(True)
        except Exception:  # pragma: no cover - a closed stream: nothing to speed up
            log.debug("could not set TCP_NODELAY", exc_info=True)
        SERVED.opened(self)
        return original_open(self, *args, **kwargs)

    def on_message(self, fragment, *args, **kwargs):
        if not SERVED.message(self, len(fragment)):
            log.warning(
                "closing a page's connection from %s: it sent more than its budget of bytes",
                self.request.remote_ip,
            )
            connection = self.ws_connection  # (close() forgets it)
            self.close(1009, "too much data")
            # at once, as Tornado does for a message over the cap: a graceful close goes on
            # reading (and handing on) what the client sends for up to 5 s
            if connection is not None:
                connection._abort()  # noqa: SLF001  framework private
            return None
        return original_message(self, fragment, *args, **kwargs)

    open_.__wrapped__, on_message.__wrapped__ = original_open, original_message
    handler.open, handler.on_message = open_, on_message
    return True


#: The served app's websockets (Panel's ``WSHandler``, Bokeh's): ``open`` sets TCP_NODELAY
#: (Bokeh writes one update as several small frames and nobody sets it, so with Nagle's algorithm
#: the later frames wait for the browser's acknowledgement: about 40 ms of a 55 ms click here)
#: and tells :data:`widgets.server.state.SERVED` of the socket; ``on_message`` tells it that the
#: page spoke (the idle timeout, the garbage collection pacing) and how much it sent: a page past
#: its byte budget has its connection closed. One wrapper per method.
WEBSOCKET = Patch(
    name="websocket",
    panel=((1, 9), (1, 10)),  # measured on Panel 1.9.4 (its WSHandler is Bokeh's, 3.9.2)
    bokeh=((3, 9), (3, 10)),
    install=_install_websocket,
    what_is_lost="clicks wait about 40 ms longer, idle pages are never closed",
    required=True,
)


def _install_page_admission() -> bool:
    from panel.io import server

    handlers = [getattr(server, name, None) for name in ("DocHandler", "AutoloadJsHandler")]
    if any(getattr(h, "get", None) is None for h in handlers):
        return False
    from widgets.server.cookies import admit
    from widgets.server.state import SERVED

    def guarded(original):
        async def get(self, *args, **kwargs):
            for name, value in PAGE_HEADERS.items():
                self.set_header(name, value)
            if SERVED.refuse_page(self, live_sessions(self.application)):
                return None
            admit(self)  # the secret cookies: read here, a one-time ticket into the session
            try:
                return await original(self, *args, **kwargs)
            except Exception as error:
                from tornado.web import HTTPError

                if isinstance(error, HTTPError):
                    raise
                log.warning("bad request %s: %s", self.request.uri[:200], error)
                raise HTTPError(400, "bad request") from None

        get.__wrapped__ = original
        return get

    for handler in handlers:
        handler.get = guarded(handler.get)
    return True


#: Every page of the served app (and its ``autoload.js``): no other site may frame it (a page
#: of ours inside a hostile one, its buttons under a decoy), no address leaks in a Referer (an old
#: link to the teacher's page carried its key), and nothing is read as another type than it says.
PAGE_HEADERS = {
    "Content-Security-Policy": "frame-ancestors 'self'; base-uri 'self'; object-src 'none'",
    "X-Frame-Options": "SAMEORIGIN",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}

#: A page load and its ``autoload.js`` (Panel's ``DocHandler`` and ``AutoloadJsHandler``) ask
#: the served app's session guard first (a cap on live sessions, on one client's open pages, a
#: rate per client: 503/429 before any session is made), carry :data:`PAGE_HEADERS`, give the
#: session the request's secret cookies under a one-time ticket (``widgets.server.cookies.admit``:
#: no secret in the page), and a request the handler fails on unexpectedly answers 400, not a 500
#: with a traceback in the log.
PAGE_ADMISSION = Patch(
    name="page-admission",
    panel=((1, 9), (1, 10)),  # measured on Panel 1.9.4, Bokeh 3.9.2
    bokeh=((3, 9), (3, 10)),
    install=_install_page_admission,
    what_is_lost="no cap on sessions: one computer could fill the server",
    required=True,
)


# ------------------------------------------------------------------ forged choices (served app)
#: Called (with the widget, or None) when a page's browser sent a choice its widget does not
#: offer; the served app sets it to tell that page, in its language (``widgets.serve``).
choice_refused: Callable[[object], None] | None = None


def _refuse_choice(widget, value) -> None:
    """One line in the log, no traceback; the page is told through :data:`choice_refused`."""
    log.warning(
        "a page sent a choice its %s does not offer: %s (refused)",
        type(widget).__name__ if widget is not None else "widget",
        repr(value)[:60],
    )
    if choice_refused is not None:
        try:
            choice_refused(widget)
        except Exception:  # telling the page is a courtesy, never a second failure
            log.warning("the page was not told of its refused choice", exc_info=True)
    from panel.io.state import state

    doc = state.curdoc
    if widget is not None and doc is not None and doc.session_context is not None:
        # the browser shows the choice it made up: its model shown again as the server has it
        # (on the next tick; the widget's watchers are not called: nothing changed)
        doc.add_next_tick_callback(lambda: _show_again(widget, doc))


def _show_again(widget, doc) -> None:
    props = widget._process_param_change({"value": widget.value})  # noqa: SLF001  framework private
    for model, _ in list(widget._models.values()):  # noqa: SLF001  framework private
        if model.document is doc:
            model.update(**props)


def _offered_index(widget, index) -> bool:
    """A radio group's ``active`` from the browser: None, or the index of one of its options."""
    if index is None:
        return True
    return (
        isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(widget.values)
    )


def _offered_value(widget, value) -> bool:
    """A select's ``value`` from the browser: empty (Panel takes the first option), or one of
    its options' values (as text) or labels."""
    if value in ("", None):
        return True
    if not isinstance(value, str):
        return False
    try:
        return value in widget.unicode_values or value in widget.labels
    except Exception:  # an option that cannot be compared: not this one
        return False


def _install_forged_choices() -> bool:
    from bokeh.server.session import ServerSession
    from panel.io.state import set_curdoc
    from panel.widgets import select

    radio = getattr(select, "_RadioGroupBase", None)
    single = getattr(select, "SingleSelectBase", None)
    handle_patch = getattr(ServerSession, "_handle_patch", None)
    if radio is None or single is None or handle_patch is None:
        return False
    radio_change = radio.__dict__.get("_process_property_change")
    select_change = single.__dict__.get("_process_property_change")
    if radio_change is None or select_change is None:
        return False

    def checked(original, key, offered):
        def change(self, props):
            if key in props and not offered(self, props[key]):
                _refuse_choice(self, props[key])
                props = {k: v for k, v in props.items() if k != key}
            return original(self, props)

        change.__wrapped__ = original
        return change

    async def patch_doc(self, message, connection):
        try:
            return await handle_patch(self, message, connection)
        except ValueError as error:  # Bokeh's own check of a value's type (bokeh/core/property)
            why = str(error)
            if not why.startswith("failed to validate"):
                raise
            document = self.document

            def tell():
                with set_curdoc(document):
                    _refuse_choice(None, why[:200])

            document.add_next_tick_callback(tell)
            return connection.error(message, "refused")

    patch_doc.__wrapped__ = handle_patch
    radio._process_property_change = checked(radio_change, "active", _offered_index)  # noqa: SLF001
    # a Select and its kind only: the other selects handle their own values
    select.Select._process_property_change = checked(select_change, "value", _offered_value)  # noqa: SLF001
    ServerSession._handle_patch = patch_doc  # noqa: SLF001
    return True


#: A choice a page's browser sends that its widget does not offer (a forged message: an index
#: out of range, negative or huge, a value no option has, a string where a number goes) is
#: refused: Panel would raise (``list index out of range``, ``... not in list``: a traceback in
#: the log and that text on the page) or, for a negative index, silently pick an option counted
#: from the end; Bokeh logs a traceback for a value of the wrong type. Instead the widget keeps
#: its value, one line goes to the log, and the page is told in its language
#: (:data:`choice_refused`). Also covers a choice that went away while the page chose it.
FORGED_CHOICES = Patch(
    name="forged-choices",
    panel=((1, 9), (1, 10)),  # measured on Panel 1.9.4, Bokeh 3.9.2
    bokeh=((3, 9), (3, 10)),
    install=_install_forged_choices,
    what_is_lost="a forged choice logs a traceback and shows Panel's own error text",
)


# ------------------------------------------------------------------ Bokeh internals read
# Bokeh has no public count of the sessions being made, nor of the Tornado application behind a
# ``Server``; these two read its internals, within the same version bounds as the patches, and
# tests/test_panel_patches.py checks on the installed version that they still answer.
def live_sessions(application) -> int:
    """Sessions (made or being made) of every app of a Bokeh Tornado application."""
    return sum(
        len(ctx.sessions) + len(ctx._pending_sessions)  # noqa: SLF001  framework private
        for ctx in application.applications.values()
    )


def tornado_application(server):
    """The Tornado application (``BokehTornado``) of a Bokeh ``Server``."""
    return server._tornado  # noqa: SLF001  framework private


# ------------------------------------------------------------------ where they are needed
def apply_notebook() -> None:
    """What a notebook (JupyterLab or Voilà) needs before it shows a component; its
    components also hold still for a learner whose system asks for less motion
    (``widgets.server.motion``, as on the served pages)."""
    use_ipywidgets_comms_in_voila()
    try:
        import panel  # noqa: F401
    except ImportError:  # pragma: no cover - no Panel: nothing is shown
        return
    apply(INLINE_STYLESHEETS)
    apply(LOCAL_STYLESHEETS)
    from widgets.server.motion import hold_still

    hold_still()


def apply_server() -> None:
    """What the served app (``nefertiti serve``) needs before it serves a page; raises
    :class:`PanelPatchMissing` when a patch it cannot do without is not applied."""
    apply(WEBSOCKET)
    apply(PAGE_ADMISSION)
    apply(FORGED_CHOICES)


#: Every patch, for a reader and for the tests: the notebook's, then the served app's.
PATCHES = (
    INLINE_STYLESHEETS,
    LOCAL_STYLESHEETS,
    VOILA_CURDOC,
    WEBSOCKET,
    PAGE_ADMISSION,
    FORGED_CHOICES,
)
