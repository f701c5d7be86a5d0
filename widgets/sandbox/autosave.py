"""Saved games of the served Sandbox: every change autosaved to the store, a reload or a restart
back to the same game, a new tab offered the browser's last game.

A browser is known by a random id in an HttpOnly cookie the server sets
(``widgets.server.cookies.BROWSER``: sent with every page request, so the server knows at once
whose saved games to offer; never in the address, so a shared link gives no game away, nor in
the page, where no script can read it); a game by a random token in the page's address
(``?game=...``). A game is never another browser's. Two pages on one game: the page that takes
it up last wins, and the other goes on with a copy under a new token and says so, so no move is
lost (``Store.take`` and the revision every save expects).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

import panel as pn
from bokeh.models import ColumnDataSource, CustomJS

from nefertiti_core.engine.i18n import tr
from widgets.game.common import HTML, esc, guarded, off_the_loop
from widgets.game.session import GameSession, served_document
from widgets.server.cookies import BROWSER, KEEP_JS, grant, page_secrets
from widgets.theme import PAPER, RULE_LINE

log = logging.getLogger("widgets.sandbox.autosave")

CARD_STYLE = {"background": PAPER, "border": f"1px solid {RULE_LINE}", "border-radius": "6px"}

#: The page's side of saved games, run when the board is laid out and when ``page`` changes:
#: a new browser's one-time grant posted once (the server then sets its cookie), and the game's
#: token in the address (``?game=...``, so a reload, or the page reloading itself after a
#: restart (widgets.game.reconnect), returns this tab to this game).
PAGE_JS = (
    KEEP_JS
    + """
const get = (key) => { const d = page.data; return (d instanceof Map ? d.get(key) : d[key])[0]; };
keep(get("grant"));
const token = get("token");
const url = new URL(window.location.href);
if (token && url.searchParams.get("game") !== token) {
    url.searchParams.set("game", token);
    window.history.replaceState(window.history.state, "", url);
}
"""
)


@dataclass
class Found:
    """What the store holds for a page about to open (:func:`read_saved`)."""

    browser: str  # the browser's id (a new one if it had none)
    new_browser: bool
    owner: str  # its hash, as the store keys games
    saved: object = None  # the game the address names, taken up (or loaded, for a copy)
    copy: bool = False  # that game is open in another tab: this one goes on with a copy
    newest: object = None  # the browser's most recent game (the resume offer)


def read_saved(store, browser: str, game: str, live) -> Found:
    """Every store read a page makes as it opens (may wait for the database: a served page
    calls this off the event loop, ``deferred_page``'s ``prepare``)."""
    from widgets.server.store import new_token, owner_of, valid_token

    new_browser = not valid_token(browser)
    browser = new_token() if new_browser else browser
    found = Found(browser, new_browser, owner_of(browser))
    if valid_token(game):
        found.copy = game in live  # the same game open in another tab
        if not found.copy:
            # a reload: the page it left may still have a save to make (a move in the last
            # AUTOSAVE_DELAY_MS); made first, then the game taken up, so that page's later
            # saves (its session is dropped some seconds on) cannot undo this one's moves
            getattr(live, "settle", lambda token: None)(game)
        found.saved = store.load(game, found.owner) if found.copy else store.take(game, found.owner)
    if not new_browser:  # offered when the address names no game of this browser's
        found.newest = store.latest(found.owner)
    return found


class SavedGames:
    """The Sandbox's saved game: the note and the resume offer shown above the board (:attr:`row`)
    and the page's side (:attr:`page`: the browser's cookie, the game's token in the address;
    the cover when the connection drops is widgets.game.reconnect's). Nothing is saved until
    :meth:`connect` names a store (a served page does; a notebook does not)."""

    def __init__(self, session: GameSession, board):
        self.session = session
        self.board = board
        self._store = None
        self._token = self._owner = ""
        self._offer = None  # the saved game offered for resuming
        self._saved_kind = ""
        #: The note: the game is back, a copy, or the offer of the browser's last game.
        self.note = HTML("", margin=(6, 12))
        #: The offer's two buttons: resume the saved game, or start anew. Named in the page's
        #: language from the start (and on each change of it): hidden until an offer, they are
        #: still buttons a screen reader's list or a later change of the page can reach.
        lang = session.lang
        self.resume_button = pn.widgets.Button(
            name=tr(lang, "saved.resume"), color="primary", visible=False, margin=(6, 6)
        )
        self.fresh_button = pn.widgets.Button(
            name=tr(lang, "saved.new"), color="default", visible=False, margin=(6, 6)
        )
        self.resume_button.on_click(self._on_resume)
        self.fresh_button.on_click(self._on_fresh)
        #: The row above the board that holds the note and the offer (hidden when empty).
        self.row = pn.Row(
            self.note, self.resume_button, self.fresh_button, visible=False, styles=CARD_STYLE
        )
        #: What the page's script reads (PAGE_JS).
        self.page = ColumnDataSource(name="nefertiti-page", data={"token": [""], "grant": [""]})

    def connect(
        self, store, browser: str = "", game: str = "", live=None, found: Found | None = None
    ) -> None:
        """Autosave this Sandbox's game to ``store`` and offer or resume a saved one.

        ``browser`` is the browser's id (its cookie; a new one is made if it has none), ``game``
        the token in the page's address, ``live`` the games other open tabs play (``in``). A
        reload or a restart (the address names a game of this browser): the game comes back at
        once, with a note. A new tab (no game in the address) of a browser with a saved game:
        the offer to resume it, or to start anew. A game is never another browser's.
        ``found``: what :func:`read_saved` read for these (a served page reads it off the event
        loop first); read here otherwise.
        """
        from widgets.server.store import new_token

        live = live if live is not None else set()
        found = found if found is not None else read_saved(store, browser, game, live)
        self._live = live
        new_browser, browser = found.new_browser, found.browser
        self._store, self._owner = store, found.owner
        self._token = new_token()
        self._revisions: dict[str, int] = {}  # token -> the revision this page last wrote or took
        self._doc = served_document()
        note = ""
        saved, copy = found.saved, found.copy
        if saved is not None and not copy:  # before the restore, whose change is saved
            self._revisions[game] = saved.revision
        if saved is not None and self._restore(saved):
            if copy:
                note = "saved.copy"
            else:
                self._token = game
                note = "saved.back"
            self._offer = saved
        elif not new_browser:
            self._offer = found.newest
            note = "saved.offer" if self._offer is not None else ""
        self._saved_kind = note
        # the note that the game is back goes at the game's next change (board_version is
        # bumped at once; the restore's own change is already counted)
        self.session.param.watch(self._hide_note, ["board_version"])
        self.page.data = {
            "token": [self._token],
            # a new browser's id: a one-time grant the page posts (the id never goes to the page)
            "grant": [grant((BROWSER, "", browser)) if new_browser else ""],
        }
        self.refresh()
        page_js = CustomJS(
            args=dict(page=self.page),
            code=PAGE_JS,
        )
        self.board.figure.js_on_change("inner_width", page_js)
        self.page.js_on_change("data", page_js)
        self.session.autosave(self._write, key=self._token)
        self.session.param.watch(lambda *_: self.session.schedule_save(), ["lang", "hints"])

    @property
    def token(self) -> str:
        return self._token

    def _write(self, text: str, branch: str, step: int, token: str) -> None:
        """Background thread: keep the game in the store (under the token it had when its
        record was taken), unless another page took that game up since (StaleGame)."""
        from widgets.server.store import StaleGame

        session = self.session
        try:
            self._revisions[token] = self._store.save(
                token, self._owner, text, lang=session.lang, hints=session.hints,
                branch=branch, step=step, expected=self._revisions.get(token, 0),
            )  # fmt: skip
        except StaleGame as error:
            log.info("%s", error)
            if self._doc is None:
                self._on_stale(token)
                return
            try:  # the page's own thread (Bokeh's one thread-safe call on a document)
                self._doc.add_next_tick_callback(lambda: self._on_stale(token))
            except Exception:  # its session is gone (the save made as it was dropped)
                self.session.autosave(None)

    def _on_stale(self, token: str) -> None:
        """Another page took this game up (a reload of this tab, or a tab of this browser served
        by another process). A page nobody sees any more stops saving; a page still open goes
        on with a copy under a new token (its address too), and says so: no move is lost."""
        if token != self._token:
            return  # already a copy
        context = getattr(self._doc, "session_context", None)
        if context is not None and not _connected(context):
            self.session.autosave(None)
            return
        from widgets.server.store import new_token

        self._token = new_token()
        self.session.autosave_key = self._token
        self._saved_kind = "saved.copy"
        self.refresh()
        self.page.data = dict(self.page.data, token=[self._token])
        self.session.save_now()

    def _restore(self, saved) -> bool:
        from nefertiti_core.files.history import record_from_data
        from nefertiti_core.files.yaml_subset import loads

        try:
            doc = loads(saved.record)
            record = record_from_data(doc.data, "saved game", doc)
            self.session.load_record(record, "saved game", resume=True)
        except Exception as error:  # a saved game that no longer loads: start anew, say why
            log.warning("saved game %s… did not load: %s", saved.token[:6], error)
            return False
        self.session.param.update(lang=saved.lang, hints=saved.hints)
        return True

    def refresh(self) -> None:
        lang = self.session.lang
        kind, saved = getattr(self, "_saved_kind", ""), self._offer
        self.resume_button.name = tr(lang, "saved.resume")
        self.fresh_button.name = tr(lang, "saved.new")
        if self._store is None or not kind or (saved is None and kind != "saved.copy"):
            self.row.visible = False
        else:  # (a copy made when another page took this game up may have no saved game read)
            key, facts = kind, {}
            if saved is not None:
                when = saved.updated.astimezone()
                time = when.strftime(
                    "%H:%M" if when.date() == datetime.now().date() else "%Y-%m-%d %H:%M"
                )
                facts = dict(time=time, step=saved.step, branch=saved.branch)
                if kind == "saved.offer" and saved.branch != "main":
                    key = "saved.offer_branch"
            text = tr(lang, key, **facts)
            self.note.object = f"<b>{esc(text)}</b>" if kind == "saved.offer" else esc(text)
            offer = kind == "saved.offer"
            self.resume_button.visible = offer
            self.fresh_button.visible = offer
            self.row.visible = True

    @guarded
    def _on_resume(self, *_):
        self.resume_offer()

    def resume_offer(self) -> bool:
        """Take the offered saved game up in this tab (its token too: it is saved from now on)."""
        saved = self._offer
        if saved is None:
            return False
        copy = saved.token in self._live  # open in another tab: this one goes on with a copy
        if copy:
            return self._resume(saved, copy)
        store, owner, live, token = self._store, self._owner, self._live, saved.token

        def take():  # taken up as it is now (the offer was read when the page opened)
            getattr(live, "settle", lambda token: None)(token)
            return store.take(token, owner)

        answer: list[bool] = []
        off_the_loop(take, lambda taken: answer.append(self._resume(taken, copy)))
        return answer[0] if answer else True

    def _resume(self, saved, copy: bool) -> bool:
        session = self.session
        if saved is None:  # deleted since (expired)
            return False
        if not copy:
            self._revisions[saved.token] = saved.revision  # before the restore's own save
            session.autosave_key = saved.token  # saved under its own token from the restore on
        if not self._restore(saved):
            session.autosave_key = self._token
            return False
        if copy:
            self._saved_kind = "saved.copy"
        else:
            self._token = saved.token
            self._saved_kind = ""
        self.refresh()
        self.page.data = dict(self.page.data, token=[self._token])
        return True

    @guarded
    def _hide_note(self, *_):
        """The note that the game is back goes at its next move (the offer stays until chosen)."""
        if self._saved_kind in ("saved.back", "saved.copy"):
            self._saved_kind = ""
            self.refresh()

    @guarded
    def _on_fresh(self, *_):
        self._saved_kind = ""
        self.refresh()


def served_request():
    """The served page's store, browser id and game token (None outside a served session)."""
    from widgets.server.store import get_store

    doc = pn.state.curdoc
    if doc is None or doc.session_context is None:
        return None
    args = pn.state.session_args.get("game") or [b""]
    game = args[0].decode("ascii", "replace") if isinstance(args[0], bytes) else str(args[0])
    browser = page_secrets().id(BROWSER)  # its HttpOnly cookie, redeemed on the server
    return get_store(), browser, game


def read_served(request) -> Found | None:
    """:func:`read_saved` for :func:`served_request`'s answer (off the event loop)."""
    if request is None or request[0] is None:
        return None
    store, browser, game = request
    return read_saved(store, browser, game, OPEN_GAMES)


def connect_served(sandbox, request=None, found: Found | None = None) -> None:
    """A served session: autosave to the process's store; resume or offer a saved game.
    ``request``/``found``: :func:`served_request` and :func:`read_served` made before (the
    store read off the event loop); made here otherwise."""
    request = request if request is not None else served_request()
    if request is None:
        return  # not served (a notebook, a test): nothing is saved
    store, browser, game = request
    doc = pn.state.curdoc
    if store is None:
        sandbox.saved.note.object = esc(tr(sandbox.session.lang, "saved.off"))
        sandbox.saved.row.visible = True
        return
    sandbox.saved.connect(store, browser=browser, game=game, live=OPEN_GAMES, found=found)
    context = doc.session_context
    OPEN_GAMES.tabs[id(context)] = (sandbox.saved, context)

    def closed(_context):
        sandbox.session.save_now()  # the last changes, before the session is gone
        OPEN_GAMES.tabs.pop(id(context), None)

    pn.state.on_session_destroyed(closed)


class _OpenGames:
    """The games open in this server's tabs: ``token in OPEN_GAMES`` if a tab that is still
    connected plays it (a closed tab's session lingers a while; it does not count)."""

    def __init__(self):
        self.tabs: dict[int, tuple[SavedGames, object]] = {}

    def __contains__(self, token) -> bool:
        return any(
            _connected(context) and saved.token == token
            for saved, context in list(self.tabs.values())
        )

    def settle(self, token: str, timeout: float = 5.0) -> None:
        """Make now the saves still to come of this process's pages that play ``token`` (the
        page a reload left behind), and wait for them: a move made just before a reload is in
        the store when the new page reads it."""
        for saved, _context in list(self.tabs.values()):
            if saved.token == token and saved.session.save_pending:
                future = saved.session.save_now()
                if future is not None:
                    try:
                        future.result(timeout=timeout)
                    except Exception:  # logged by the save itself; the reload goes on
                        pass


def _connected(context) -> bool:
    """Whether a served session still has its browser (Bokeh's ServerSession counts them)."""
    session = getattr(context, "_session", None)
    return session is None or getattr(session, "connection_count", 1) > 0


OPEN_GAMES = _OpenGames()
