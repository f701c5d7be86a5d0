"""A served page that comes back by itself after its server went away (a restart, a crash, a
dropped network), shared by the Sandbox and the classroom's pages.

When the page's websocket drops, a cover over the whole page says so in the page's language
and takes every click and key (the page's old buttons would do nothing: its session is gone with
the server), the page asks the server once a second whether it is back, and reloads when it
answers (a page nobody is looking at, a phone's screen off, when it is looked at again). The reload is a new page load of the same address with the browser's cookies, so it
comes back to what those name: the Sandbox's game (``?game=``), the teacher's room (``?room=``
and the teacher's cookie), a learner's seat (``?code=`` and their cookie), the projector's room.

The watch is wired when the page is requested (:func:`watch_connection`: a ``connection_lost``
callback of the page's Bokeh document, which is sent with the document), so it covers the page
from its first moment: the spinner, a join form, the room. Its words follow the page's language
as it changes (:class:`ConnectionWords`: a hidden model of the page that the script reads when
the connection drops; until the page is built, the words of the request's language).
"""

from __future__ import annotations

import json

import panel as pn
from bokeh.models import CustomJS, Div

from nefertiti_core.engine.i18n import LANGUAGES, tr
from widgets.game.common import deferred_page
from widgets.theme import ALERT, ON_COLOUR

#: The cover's id in the page (``window.__nefertitiOffline`` is set with it: the board draws no
#: press while it is up, widgets/game/board.py).
COVER_ID = "nefertiti-offline"
#: The CSS class of the hidden model holding the page's words for the cover (in its ``tags``:
#: never drawn, no text or control on the page).
WORDS_CLASS = "nefertiti-connection-words"
#: Seconds between two asks whether the server is back, and how long one ask may take (a
#: server that accepts connections but does not answer, a stopped process, is asked again).
PING_EVERY_MS = 1000
PING_TIMEOUT_MS = 5000
#: The words of a served classroom page; the Sandbox says "your game" (saved.json).
CLASSROOM_WORDS = ("room.connection.lost", "room.connection.back")
SANDBOX_WORDS = ("saved.lost", "saved.reconnected")

#: Runs in the browser on the document's ``connection_lost`` (``cb_obj``: the document). The
#: words from the page's hidden model (WORDS_CLASS) if it has one, else ``fallback``.
RECONNECT_JS = """
if (window.__nefertitiOffline) return;
window.__nefertitiOffline = true;
let words = fallback;
for (const model of cb_obj.all_models) {
    const classes = model.css_classes;
    if (classes && classes.includes(WORDS_CLASS) && model.tags && model.tags.length > 0) {
        try { words = JSON.parse(model.tags[0]); } catch (error) { /* the request's words */ }
        break;
    }
}
// Panel's own notice of the same (its toast, worded like the cover) is not shown twice
const quiet = document.createElement("style");
quiet.textContent = ".notyf__disconnect { display: none !important; }";
document.head.appendChild(quiet);
// nothing under the cover can be clicked, focused or typed into (nor read out as if it worked)
if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
for (const element of Array.from(document.body.children)) element.inert = true;
const cover = document.createElement("div");
cover.id = COVER_ID;
cover.lang = words.lang;
cover.style.cssText = "position:fixed;inset:0;z-index:100000;background:rgba(40,30,10,0.35);"
    + "cursor:not-allowed;";
const note = document.createElement("div");
note.setAttribute("role", "alert");
note.className = "nefertiti-offline-note";
note.textContent = words.lost;
note.style.cssText = "margin:0 auto;max-width:760px;padding:14px 20px;background:" + ALERT + ";"
    + "color:" + ON_ALERT + ";font:600 17px sans-serif;border-radius:0 0 8px 8px;text-align:center;"
    + "overflow-wrap:anywhere;";
cover.appendChild(note);
document.body.appendChild(cover);
const ping = () => {
    const stop = new AbortController();
    const late = setTimeout(() => stop.abort(), TIMEOUT_MS);
    fetch(new URL("/favicon.ico", window.location.origin), {cache: "no-store", signal: stop.signal})
        .then(() => {
            clearTimeout(late);
            note.textContent = words.back;
            cover.dataset.back = "1";
            // a page nobody looks at (a phone's screen off, a tab behind others) reloads when it
            // is looked at again: a class's locked phones do not all load at once, an abandoned
            // tab makes no new session
            if (document.visibilityState !== "hidden") { window.location.reload(); return; }
            document.addEventListener("visibilitychange", () => {
                if (document.visibilityState !== "hidden") window.location.reload();
            });
        }, () => { clearTimeout(late); setTimeout(ping, EVERY_MS); });
};
setTimeout(ping, EVERY_MS);
"""


def connection_words(lang: str, keys=CLASSROOM_WORDS) -> dict:
    """What the cover says in ``lang``: ``lost`` while the server is away, ``back`` as the page
    reloads (``keys``: their two message keys)."""
    lang = lang if lang in LANGUAGES else "en"
    lost, back = keys
    return {"lang": lang, "lost": tr(lang, lost), "back": tr(lang, back)}


class ConnectionWords:
    """The page's words for the cover, in its current language: a hidden model (:attr:`pane`,
    placed in the page: no text, no control) that :data:`RECONNECT_JS` reads when the
    connection drops. :meth:`follow` keeps them in the language of a page's game session."""

    def __init__(self, lang: str = "en", keys=CLASSROOM_WORDS):
        self.keys = keys
        self._model = Div(visible=False, css_classes=[WORDS_CLASS], name="nefertiti-words")
        self.pane = pn.pane.Bokeh(self._model, visible=False, margin=0)
        self._page = None
        self._session = None
        self._watcher = None
        self.show_language(lang)

    @property
    def words(self) -> dict:
        """What the page's script reads when the connection drops."""
        return json.loads(self._model.tags[0])

    def show_language(self, lang: str) -> None:
        self._model.tags = [json.dumps(connection_words(lang, self.keys), ensure_ascii=False)]

    def follow(self, page) -> None:
        """Speak the language of ``page.session`` (a game session), now and as it changes; a
        page that takes up another session (a learner who joined, a teacher who opened a
        room) is followed there."""
        self._page = page
        if "session" in getattr(page, "param", {}):
            page.param.watch(lambda *_: self._on_session(), "session")
        self._on_session()

    def _on_session(self) -> None:
        session = getattr(self._page, "session", None)
        if session is self._session:
            return
        if self._session is not None and self._watcher is not None:
            self._session.param.unwatch(self._watcher)
        self._session, self._watcher = session, None
        if session is not None and "lang" in session.param:
            self._watcher = session.param.watch(lambda event: self.show_language(event.new), "lang")
            self.show_language(session.lang)


def watch_connection(lang: str, keys=CLASSROOM_WORDS) -> ConnectionWords | None:
    """Wire the cover and the reload into the page being requested (called by a served app
    function, before the page's document is sent): the document's ``connection_lost`` runs
    :data:`RECONNECT_JS`, with the words of ``lang`` until the page places the returned
    :class:`ConnectionWords`. Panel's own notice (a toast, "Server connection lost." in
    English) is worded as the cover (this session only) and hidden by it: Panel's script reads
    its words when the connection drops, so it must have some. None outside a served page."""
    doc = pn.state.curdoc
    if doc is None or doc.session_context is None:
        return None
    pn.config.disconnect_notification = connection_words(lang, keys)["lost"]
    doc.js_on_event(
        "connection_lost",
        CustomJS(
            args=dict(
                fallback=connection_words(lang, keys),
                WORDS_CLASS=WORDS_CLASS,
                COVER_ID=COVER_ID,
                ALERT=ALERT,
                ON_ALERT=ON_COLOUR,
                EVERY_MS=PING_EVERY_MS,
                TIMEOUT_MS=PING_TIMEOUT_MS,
            ),
            code=RECONNECT_JS,
        ),
    )
    return ConnectionWords(lang, keys)


def reconnecting_page(build, prepare=None, head: str = "", *, lang: str, keys=CLASSROOM_WORDS,
                      follow=None):  # fmt: skip
    """:func:`~widgets.game.common.deferred_page` for a page that comes back by itself after
    its server went away (see the module's doc): ``lang`` is the request's language, ``keys``
    the cover's two message keys; the built page's game session (``follow(page)``'s
    ``session``: the page's own by default) gives the words' language from then on."""
    words = watch_connection(lang, keys)
    if words is None:
        return deferred_page(build, prepare=prepare, head=head, lang=lang)

    def built(*prepared):
        page = build(*prepared)
        words.follow(follow(page) if follow is not None else page)
        return page

    return deferred_page(built, prepare=prepare, head=head, also=[words.pane], lang=lang)
