"""Small helpers shared by the components: texts, HTML, and callbacks that never raise.

Nothing here decides a rule; it only words, escapes and guards.
"""

from __future__ import annotations

import asyncio
import functools
import html
import logging
import re

import panel as pn
import param
from bokeh.models import Legend, LegendItem, Tooltip

from nefertiti_core.engine.i18n import LANGUAGES, has, language_from_header, tr
from widgets.game.session import served_document
from widgets.theme import NO_PLAYER, ON_COLOUR, PAGE_BACKGROUND, PLAYER_COLOURS, SWATCH_RING

log = logging.getLogger("widgets")

#: Bokeh buttons keep their label on one line; option labels are sentences, so let them wrap.
WRAP_BUTTON_CSS = """
:host { height: auto; }
.bk-btn { white-space: normal; text-align: left; height: auto; line-height: 1.3;
          padding: 5px 9px; }
"""

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")


def esc(text) -> str:
    """Text for an HTML pane."""
    return html.escape(str(text), quote=True)


def md_escape(text) -> str:
    """Text for a Markdown pane (an engine message may contain ``_``, ``#``, ``*``...)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))


def colour_name(lang: str, colour: str) -> str:
    return tr(lang, f"colour.{colour}")


def player_name(lang: str, colours, seat: int) -> str:
    return tr(lang, f"colour.{colours[seat]}")


def swatch(colour: str, size: int = 12) -> str:
    """A small disc in a player's colour, as HTML."""
    fill = PLAYER_COLOURS.get(colour, NO_PLAYER)
    return (
        f'<span style="display:inline-block;width:{size}px;height:{size}px;'
        f"border-radius:50%;background:{fill};vertical-align:middle;"
        f'margin-right:4px;border:1px solid {ON_COLOUR};box-shadow:0 0 0 1px {SWATCH_RING}"></span>'
    )


def seat_kind_label(lang: str, kind: str) -> str:
    """A seat kind in words ("human", "random", and kinds a later version adds)."""
    key = f"panel.seat.{kind}"
    return tr(lang, key) if has(lang, key) or has("en", key) else kind


def tooltip(text: str, position: str = "left") -> Tooltip | None:
    """A hover text for a button, as plain text (Panel's default opens to the right, where a
    button at the page's edge cuts it off)."""
    if not text:
        return None
    return Tooltip(
        content=text,
        position=position,
        stylesheets=[":host { white-space: initial; max-width: 320px; }"],
    )


def guarded(method):
    """Run a callback so that nothing escapes into the page: a bug becomes a visible message."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception as error:  # a callback must never raise into Panel
            log.exception("%s failed", method.__qualname__)
            session = getattr(self, "session", None)
            if session is not None:
                try:
                    session.error = tr(session.lang, "panel.error.unexpected", error=str(error))
                except Exception:  # pragma: no cover - the catalog itself is broken
                    session.error = str(error)
            return None

    return wrapper


def running_loop():
    """The asyncio loop running in this thread (an IPython kernel's), if any."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def after_page_message(method):
    """A button's callback that reads other widgets (a menu, a text box): in a notebook, run it
    once the page's message that carried the click has been applied.

    In a notebook, Panel (1.9) applies a message from the browser with the Bokeh document on
    hold: a click in it runs its callbacks at once, but the message's property changes reach the
    widgets only when the hold is released, after those callbacks, and the first change a
    callback makes to the page sends the held changes back to the browser instead, so the widget
    never gets them. The browser puts a choice and a click into one message when they come
    within its 50 ms debounce or while the kernel has not yet acknowledged its previous message:
    "Place" then placed the servant on the square chosen before, and the odds' Run played the
    old number of playouts. On the kernel loop's next turn the whole message has been applied.
    A served app needs no wait (Panel applies pending changes before it runs an event), nor does
    Python code outside an event loop. The components' Python methods (``click``, ``compare``,
    ...) do their work at once; only the buttons' callbacks wait."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        loop = running_loop()
        if loop is not None and served_document() is None:
            loop.call_soon(functools.partial(method, self, *args, **kwargs))
            return None
        return method(self, *args, **kwargs)

    return wrapper


class HTML(pn.pane.HTML):
    """``pn.pane.HTML`` whose new text goes to the browser alone.

    Panel 1.9's HTML pane sends all its properties again when its text changes, its stylesheets
    as new Bokeh models each time; in a served app every such update makes Bokeh walk the whole
    document's model graph (about 100 ms for the Sandbox on a busy 2-core machine) and the
    browser load the stylesheets again. This pane sends only the text; every other parameter
    (visible, width, styles...) still goes through Panel's normal path.
    """

    def _update(self, ref, model):
        text = self._transform_object(self.object)["object"]
        if model.text != text:
            model.text = text


class DeferredView(pn.viewable.Viewer):
    """A view that follows the session only while it is shown.

    While ``active`` is False (a hidden tab of the Sandbox) changes only mark it stale; it
    refreshes once when shown again. Subclasses watch the session with ``_on_change`` and
    define ``refresh()`` (which clears ``_stale``).
    """

    active = param.Boolean(
        default=True,
        doc="Follow every change; while False (a hidden view) updates wait until it is True",
    )
    _stale = False

    @guarded
    def _on_change(self, *_):
        if self.active:
            self.refresh()
        else:
            self._stale = True

    @param.depends("active", watch=True)
    @guarded
    def _on_active(self):
        if self.active and self._stale:
            self.refresh()

    def refresh(self) -> None:  # pragma: no cover - every subclass defines it
        raise NotImplementedError


def players_legend(fig, renderers) -> list:
    """A horizontal legend above ``fig``, one item per player's renderer; returns the items,
    whose labels the caller sets (and changes with the language) in place."""
    items = [LegendItem(label="", renderers=[r]) for r in renderers]
    fig.add_layout(
        Legend(
            items=items,
            orientation="horizontal",
            background_fill_alpha=0.7,
            label_text_font_size="12px",
            border_line_color=None,
        ),
        "above",
    )
    return items


#: The served pages' HTML: Panel's own page with a viewport for phones (without it a phone lays
#: the page out 980 px wide and shrinks it to its screen: text about 5 px high on a 390 px phone),
#: the page's language on ``<html>`` (Panel writes ``lang="en"``; a screen reader would read
#: German or Chinese with English sounds), and its content in one ``<main>`` landmark under one
#: level-one heading, the tutor's name, read but not shown (each page shows its own headings).
#: On a phone's width the widgets' text (Bokeh's ``--bokeh-font-size``, inherited into every
#: widget's shadow root; 12 px by default) is 15 px: readable, and buttons a finger can hit; the
#: banner and the last step above the board take the height their words need
#: (widgets.game.projector.BANNER_HEIGHT).
#: LANG, HEADING and HEAD are filled in by :func:`_page_template`, escaped.
PHONE_READY_PAGE = """{% extends base %}
{% block preamble %}{{ super() }}
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>@media (max-width: 600px) { :root { --bokeh-font-size: 15px;
  --nefertiti-min-text: 14px; --nefertiti-banner-height: auto; --nefertiti-last-height: auto; } }</style>
{% raw %}<script>document.documentElement.lang = "LANG";</script>HEAD{% endraw %}
{% endblock %}
{% block contents %}<main class="nefertiti-page">{% raw %}<h1 style="position: absolute;
width: 1px; height: 1px; margin: -1px; padding: 0; border: 0; overflow: hidden;
clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap;">HEADING</h1>{% endraw %}
{{ super() }}</main>{% endblock %}"""


#: A small print's size (``PHONE_MIN_TEXT.format(12)``): as given, but at least 14 px on a
#: phone's width (the served page sets ``--nefertiti-min-text`` there: PHONE_READY_PAGE).
PHONE_MIN_TEXT = "max({}px, var(--nefertiti-min-text, 0px))"


@functools.lru_cache(maxsize=32)
def _page_template(head: str = "", lang: str = "en"):
    from panel.io.resources import BASE_TEMPLATE

    lang = lang if lang in LANGUAGES else "en"
    # head is fixed HTML (a script), taken as it is; no template syntax in any of the three
    text = (
        PHONE_READY_PAGE.replace("LANG", lang)
        .replace("HEADING", html.escape(tr(lang, "panel.title")))
        .replace("HEAD", head)
    )
    return BASE_TEMPLATE.environment.from_string(text, {"base": BASE_TEMPLATE})


#: Where a page's ``prepare`` runs (deferred_page): reading the store never holds the event loop.
_PREPARE = None


def _prepare_pool():
    global _PREPARE
    if _PREPARE is None:
        from concurrent.futures import ThreadPoolExecutor

        _PREPARE = ThreadPoolExecutor(4, thread_name_prefix="page-prepare")
    return _PREPARE


def on_page(doc, callback, *args) -> None:
    """``callback(*args)`` on ``doc``'s next tick, with it as Panel's current document: how a
    thread hands its result to a page (``add_next_tick_callback`` is Bokeh's one thread-safe
    call on a document). Nothing when the page is gone; an error in ``callback`` is logged."""
    from panel.io.state import set_curdoc

    def run() -> None:
        with set_curdoc(doc):
            try:
                callback(*args)
            except Exception:  # one page's update never stops the tick's others
                log.exception("a page's update failed")

    try:
        doc.add_next_tick_callback(run)
    except Exception:  # the page is gone: nobody to tell
        pass


def off_the_loop(work, then) -> None:
    """``work()`` (what may wait for the store) on a thread, then ``then(result)`` on the calling
    page's document; outside a served page (a notebook, a test), both at once. A ``work`` that
    raised is logged and ``then`` is not called."""
    doc = pn.state.curdoc
    if doc is None or doc.session_context is None:
        then(work())
        return

    def done(future) -> None:
        if future.exception() is not None:
            log.error("work off the event loop failed", exc_info=future.exception())
            return
        on_page(doc, then, future.result())

    _prepare_pool().submit(work).add_done_callback(done)


def deferred_page(build, prepare=None, head: str = "", also=(), lang: str | None = None):
    """What a served page load builds: a spinner, and the page itself (``build()``) once the
    browser's websocket connects (``holder.page`` then holds it). The page's HTML is
    :data:`PHONE_READY_PAGE`, with ``head`` (fixed HTML: a ``<script>`` that must run before
    anything else, at the page's first parse) added to its head.

    A page load from a script or an ``<img>`` tag (which never runs the page's JavaScript) then
    costs a few milliseconds instead of a whole page (about half a second of the server's CPU
    for the Sandbox, all of it on the event loop every session shares), and saves nothing. A
    browser gets the page a moment later, from the session's ``onload``.

    ``prepare()``, if given, runs first on a thread, off the event loop (what may wait for the
    store: the classroom's pages read their room there, the Sandbox its saved game), then
    ``build(prepared)`` with its answer, on the page's document.

    ``also``: hidden parts the page keeps beside it from the start (the words of its cover when
    the connection drops, widgets.game.reconnect). ``lang``: the page's language (its
    ``<html lang>`` and hidden heading; the browser's by default).
    """
    also = list(also)
    holder = pn.Column(
        pn.indicators.LoadingSpinner(value=True, size=48, margin=(40, 60)),
        *also,
        sizing_mode="stretch_width",
        styles={"background": PAGE_BACKGROUND, "min-height": "400px"},
    )

    def show(prepared=None) -> None:
        page = build() if prepare is None else build(prepared)
        holder.page = page
        holder.objects = [page, *also]

    def load() -> None:
        doc = pn.state.curdoc
        if prepare is None or doc is None:
            show(None if prepare is None else prepare())
            return

        def prepared(future) -> None:
            result = None
            if future.exception() is not None:  # the page is built without it
                log.error("a page's preparation failed", exc_info=future.exception())
            else:
                result = future.result()
            on_page(doc, show, result)

        _prepare_pool().submit(prepare).add_done_callback(prepared)

    if pn.state.curdoc is not None:
        if lang is None:
            lang = language_from_header((pn.state.headers or {}).get("Accept-Language", "")[:500])
        pn.state.curdoc.template = _page_template(head, lang)
    pn.state.onload(load)
    return holder
