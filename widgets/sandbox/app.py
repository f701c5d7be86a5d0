"""The Sandbox: a whole game in one page, for a teacher and a group at one screen.

The board in the middle, the decision panel beside it, and around them the players, scores,
characters, the log and the timeline (one at a time, chosen with a row of buttons), a new game
with its options, each seat human (hot seat) or a bot, files in and out, the hints toggle and the
language. Serve :func:`make_app`: it builds a new session and a new Sandbox for every browser
session, so every visitor has their own game.
"""

from __future__ import annotations

import functools
import io
import logging
import threading
from collections.abc import Mapping
from datetime import datetime

import panel as pn
import param
from bokeh.models import ColumnDataSource, CustomJS

from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.limits import MAX_FILE_BYTES
from nefertiti_core.engine.rules import COLOURS
from widgets.game.board import Board
from widgets.game.characters import Characters
from widgets.game.common import HTML, after_page_message, esc, guarded, md_escape, seat_kind_label
from widgets.game.decision import DecisionPanel
from widgets.game.hints import HintsView
from widgets.game.language import LanguageSelector, browser_language
from widgets.game.log import Log
from widgets.game.odds import OddsView
from widgets.game.players import Players
from widgets.game.projector import PositionNote, ProjectorBar
from widgets.game.rules_view import LINK_VARIABLE, RulesView, bridge_id, rules_bridge
from widgets.game.scores import Scores
from widgets.game.session import SEAT_KINDS, GameSession, _server_document
from widgets.game.timeline import Timeline
from widgets.sandbox.practice import Practice
from widgets.theme import ALERT, HEADING, INK_MUTED, ON_COLOUR, PAGE_BACKGROUND, PAPER, RULE_LINE

MAX_SEATS = 4
RANDOM_FIRST = -1
VIEWS = ("characters", "log", "scores", "timeline", "odds", "rules", "practice", "setup")
BOARD_WIDTH = 860  # the views below the board are laid out for this width
SIDE_WIDTH = 490
#: The side column (the decision, hints, players) at a projector's 1024 pixels and on a wide
#: screen: the board takes the rest of the width.
SIDE_CSS_WIDTH = f"clamp(360px, 30vw, {SIDE_WIDTH}px)"
#: The board is never higher than the window less what is above it (the header, the banner and
#: the last step): at 1024 x 768 the board and the decision beside it are both in view.
BOARD_MAX_HEIGHT = "100vh - 250px"
#: The narrowest board beside the side column; narrower than both (a notebook's column, a
#: phone), the Sandbox is one column: the board's column lets its parts (the banner, the board,
#: the view buttons, the views) take their places among the side column by their ``order``
#: (banner and board, side, buttons, views).
MIN_BOARD = 480
NARROW_CSS = f"""
@container (max-width: {MIN_BOARD + 360 + 40}px) {{
  div[id^="flexbox"] {{ flex-direction: column !important; }}
  .nefertiti-main {{ display: contents !important; }}
  .nefertiti-side {{ width: auto !important; align-self: stretch; }}
}}
"""
#: The parts' places in that one column (the board's is 0, the first).
ORDER = {"side": {"order": "2"}, "buttons": {"order": "3"}, "views": {"order": "4"}}
CARD_STYLE = {"background": PAPER, "border": f"1px solid {RULE_LINE}", "border-radius": "6px"}

log = logging.getLogger("widgets.sandbox.app")

#: The browser's own random id (a cookie: sent with every page request, so the server knows at
#: once whose saved games to offer; never in the URL, so a shared link gives no game away).
BROWSER_COOKIE = "nefertiti_browser"
#: The page's side of saved games, run when the board is laid out and when ``page`` changes:
#: the browser's cookie (set once), the game's token in the address (``?game=...``, so a reload
#: or a restart returns this tab to this game), and, when the server's connection drops, a
#: banner over the page that takes no clicks (the board takes no presses either: CLICKS_JS),
#: then a reload as soon as the server answers again.
PAGE_JS = """
const get = (key) => { const d = page.data; return (d instanceof Map ? d.get(key) : d[key])[0]; };
const browser = get("browser");
if (browser && !document.cookie.split("; ").includes(`${COOKIE}=${browser}`)) {
    document.cookie = `${COOKIE}=${browser}; path=/; max-age=31536000; SameSite=Strict`;
}
const token = get("token");
const url = new URL(window.location.href);
if (token && url.searchParams.get("game") !== token) {
    url.searchParams.set("game", token);
    window.history.replaceState(window.history.state, "", url);
}
const doc = fig.document;
if (doc && !doc.__nefertitiWatched) {
    doc.__nefertitiWatched = true;
    doc.on_event("connection_lost", () => {
        if (window.__nefertitiOffline) return;
        window.__nefertitiOffline = true;
        const cover = document.createElement("div");
        cover.id = "nefertiti-offline";
        cover.style.cssText = "position:fixed;inset:0;z-index:100000;background:rgba(40,30,10,0.35);"
            + "cursor:not-allowed;";
        const note = document.createElement("div");
        note.setAttribute("role", "alert");
        note.textContent = get("lost");
        note.style.cssText = "margin:0 auto;max-width:760px;padding:14px 20px;background:" + ALERT + ";"
            + "color:" + ON_ALERT + ";font:600 17px sans-serif;border-radius:0 0 8px 8px;text-align:center;";
        cover.appendChild(note);
        document.body.appendChild(cover);
        const ping = () => fetch(new URL("/favicon.ico", window.location.origin), {cache: "no-store"})
            .then(() => { note.textContent = get("back"); window.location.reload(); },
                  () => setTimeout(ping, 1000));
        setTimeout(ping, 1000);
    });
}
"""


class Sandbox(pn.viewable.Viewer):
    """Every component of the tutor around one live board."""

    session = param.ClassSelector(class_=GameSession)
    fit_window = param.Boolean(
        default=False,
        doc="The page is the Sandbox alone (served): the whole board is kept in the window "
        "below the banner (a notebook scrolls the Sandbox with its other cells: the board's "
        "CSS height limit alone applies there)",
    )

    def __init__(self, session: GameSession | None = None, **params):
        super().__init__(session=session if session is not None else GameSession(), **params)
        session = self.session
        self.board = Board(
            session,
            width=BOARD_WIDTH,
            fit=True,
            max_height=BOARD_MAX_HEIGHT,
            fit_window=self.fit_window,
        )
        self.projector = ProjectorBar(session)
        self.position_note = PositionNote(session)
        self.decision = DecisionPanel(session, show_who=False)  # the banner says it
        self.players = Players(session)
        self.hints_view = HintsView(session)
        self.language = LanguageSelector(session)

        # --- header
        self._heading = HTML("", margin=(4, 10))
        #: Which bot is thinking now, in words.
        self.bot_status = HTML("", margin=(14, 10))
        #: Turns the learner's hints on or off.
        self.hints_checkbox = pn.widgets.Checkbox(value=session.hints, margin=(14, 10))
        self.hints_checkbox.param.watch(self._on_hints, "value")
        self._download = pn.widgets.FileDownload(
            callback=self.save_file, filename="nefertiti-game.yaml", color="default"
        )
        # --- saved games (a served app: see connect_store)
        self._store = None
        self._token = self._owner = ""
        self._offer = None  # the saved game offered for resuming
        self._saved_note = HTML("", margin=(6, 12))
        self._resume = pn.widgets.Button(color="primary", visible=False, margin=(6, 6))
        self._fresh = pn.widgets.Button(color="default", visible=False, margin=(6, 6))
        self._resume.on_click(self._on_resume)
        self._fresh.on_click(self._on_fresh)
        self._saved_row = pn.Row(
            self._saved_note, self._resume, self._fresh, visible=False, styles=CARD_STYLE
        )
        self._page = ColumnDataSource(
            name="nefertiti-page", data={"token": [""], "browser": [""], "lost": [""], "back": [""]}
        )

        # --- new game
        self._setup_title = HTML("")
        #: Setup: how many players.
        self.players_count = pn.widgets.Select(options=[3, 4], value=session.state.n, width=120)
        #: Setup: the seed of the shuffle.
        self.seed = pn.widgets.IntInput(value=0, start=0, width=120)
        #: Setup: the board's layout.
        self.layout_choice = pn.widgets.Select(width=220)
        #: Setup: play with the character cards.
        self.with_characters = pn.widgets.Checkbox(value=True)
        #: Setup: who begins.
        self.first_player = pn.widgets.Select(width=220)
        #: Starts a new game with the setup chosen.
        self.start_button = pn.widgets.Button(color="primary", width=200)
        self.start_button.on_click(self._on_new_game)
        self.players_count.param.watch(self._on_players_count, "value")

        self._seats_title = HTML("")
        #: Who plays each seat (a person or a bot), one drop-down per seat.
        self.seat_selects = [pn.widgets.Select(width=190) for _ in range(MAX_SEATS)]
        for select in self.seat_selects:
            select.param.watch(self._on_seat, "value")
        self._updating = False

        self._files_title = HTML("")
        self._file_label = HTML("", margin=(0, 10))
        self._file = pn.widgets.FileInput(accept=".yaml,.yml,.txt", multiple=False)
        self._file.param.watch(self._on_file, "value")
        #: What became of the last file loaded or saved.
        self.file_status = pn.pane.Alert("", alert_type="info", visible=False)

        setup = pn.Column(
            self._setup_title,
            pn.Row(self.players_count, self.seed),
            pn.Row(self.layout_choice, self.first_player),
            self.with_characters,
            self.start_button,
            self._seats_title,
            pn.Row(*self.seat_selects[:2]),
            pn.Row(*self.seat_selects[2:]),
            self._files_title,
            self._file_label,
            self._file,
            self.file_status,
            self._download,
            sizing_mode="stretch_width",
        )

        # --- the views around the board, one at a time, each built when first shown (or asked
        # for): a page load builds only the first: a session costs only what it must
        self._views = _LazyViews(
            {
                "characters": lambda: Characters(session),
                "log": lambda: Log(session),
                "scores": lambda: Scores(session, width=BOARD_WIDTH - 20, height=340),
                "timeline": lambda: Timeline(session),
                "odds": lambda: OddsView(session, width=BOARD_WIDTH - 10),
                "rules": lambda: RulesView(session, with_bridge=False),
                "practice": lambda: Practice(session=session, board_width=BOARD_WIDTH - 40),
                "setup": lambda: setup,
            },
            self._on_view_built,
        )
        self._shown_view = VIEWS[0]
        #: The box of each view below the board, by view name (one shown).
        self.view_boxes = {
            key: pn.Column(
                visible=key == VIEWS[0], sizing_mode="stretch_width", styles=ORDER["views"]
            )
            for key in self._views
        }
        #: The buttons choosing the view shown below the board.
        self.view_picker = pn.widgets.RadioButtonGroup(
            color="primary", value=VIEWS[0], styles=ORDER["buttons"]
        )
        self.view_picker.param.watch(self._on_view, "value")

        # A click on "Open in the Rules view" under any rule ID of the page arrives here
        self._rules_bridge = rules_bridge()
        self._rules_bridge.param.watch(self._on_rules_bridge, "value")
        header = pn.Row(
            self._heading,
            self.bot_status,
            pn.layout.HSpacer(),
            self.language,
            self.hints_checkbox,
            self._rules_bridge,
            sizing_mode="stretch_width",
        )
        side = pn.Column(
            self.position_note,  # beside the board: the board stays in view below the banner
            pn.Column(self.decision, styles=CARD_STYLE, sizing_mode="stretch_width"),
            pn.Column(self.hints_view, styles=CARD_STYLE, sizing_mode="stretch_width"),
            self.players,
            margin=(5, 5),
            css_classes=["nefertiti-side"],
            styles={**ORDER["side"], "width": SIDE_CSS_WIDTH, "flex": "0 0 auto"},
        )
        # Side by side from a projector's 1024 pixels up: the banner, the board (as wide as the
        # rest of the window allows, never higher than the window) and the views below it on
        # the left, the decision and the players on the right. Narrower (a notebook's column, a
        # phone): one column, banner, board, decision and players, then the views; nothing is
        # cut off. NARROW_CSS switches by the layout's own width (a container query), since a
        # notebook's column is much narrower than the browser's window.
        main = pn.Column(
            self.projector,
            self.board,
            self.view_picker,
            *self.view_boxes.values(),
            css_classes=["nefertiti-main"],
            styles={"flex": "1 1 0", "min-width": f"{MIN_BOARD}px"},
        )
        self._layout = pn.Column(
            header,
            self._saved_row,
            pn.FlexBox(
                main,
                side,
                flex_wrap="nowrap",
                align_items="flex-start",
                sizing_mode="stretch_width",
                stylesheets=[NARROW_CSS],
            ),
            sizing_mode="stretch_width",
            # the container that NARROW_CSS measures
            styles={
                "background": PAGE_BACKGROUND,
                "container-type": "inline-size",
                LINK_VARIABLE: "block",  # the rule IDs' "Open in the Rules view"
            },
        )
        self._refresh_labels()
        self._refresh_seats()
        self._show_view(VIEWS[0])
        session.param.watch(self._on_lang, ["lang"])
        session.param.watch(self._on_seats, ["seats", "version"])
        session.param.watch(self._on_session_hints, ["hints"])
        session.param.watch(self._on_bot_thinking, ["bot_thinking"])

    def __panel__(self):
        return self._layout

    # ------------------------------------------------------------------ labels
    @guarded
    def _on_lang(self, *_):
        self._refresh_labels()
        self._refresh_seats()

    def _refresh_labels(self) -> None:
        lang = self.session.lang
        self._heading.object = (
            f"<h2 style='margin:6px 0;color:{HEADING}'>{esc(tr(lang, 'panel.title'))}</h2>"
        )
        self.hints_checkbox.name = tr(lang, "panel.hints")
        self._download.label = tr(lang, "saved.file.save")
        self._refresh_saved()
        self.view_picker.param.update(
            options={tr(lang, f"panel.view.{key}"): key for key in VIEWS},
            value=self.view_picker.value or VIEWS[0],
        )
        self._setup_title.object = (
            f"<h3 style='margin:4px 0'>{esc(tr(lang, 'panel.setup.title'))}</h3>"
        )
        self.players_count.name = tr(lang, "panel.setup.players")
        self.seed.name = tr(lang, "panel.setup.seed")
        self.layout_choice.name = tr(lang, "panel.setup.layout")
        self.layout_choice.param.update(
            options={
                tr(lang, "panel.setup.layout_first"): "first",
                tr(lang, "panel.setup.layout_random"): "random",
            },
            value=self.layout_choice.value or "first",
        )
        self.with_characters.name = tr(lang, "panel.setup.characters")
        self.start_button.name = tr(lang, "panel.setup.start")
        self._seats_title.object = f"<b>{esc(tr(lang, 'panel.setup.seats'))}</b>"
        self._files_title.object = f"<b>{esc(tr(lang, 'panel.file.title'))}</b>"
        self._file_label.object = esc(tr(lang, "panel.file.load"))
        self._refresh_first_player()

    def _refresh_first_player(self) -> None:
        lang = self.session.lang
        n = self.players_count.value
        options = {tr(lang, "panel.setup.first_random"): RANDOM_FIRST}
        options.update({tr(lang, f"colour.{COLOURS[seat]}"): seat for seat in range(n)})
        value = self.first_player.value
        self.first_player.name = tr(lang, "panel.setup.first_player")
        self.first_player.param.update(
            options=options, value=value if value in options.values() else RANDOM_FIRST
        )

    # ------------------------------------------------------------------ a bot choosing
    @guarded
    def _on_bot_thinking(self, *_):
        session, lang = self.session, self.session.lang
        seat = session.bot_thinking
        if 0 <= seat < session.state.n:
            who = tr(lang, f"colour.{session.state.colours[seat]}")
            text = tr(lang, "panel.bot.thinking", player=who)
            self.bot_status.object = f"<i style='color:{INK_MUTED}'>{esc(text)}</i>"
        else:
            self.bot_status.object = ""

    # ------------------------------------------------------------------ seats
    @guarded
    def _on_seats(self, *_):
        self._refresh_seats()

    def _refresh_seats(self) -> None:
        session, lang = self.session, self.session.lang
        state = session.state
        kinds = {seat_kind_label(lang, kind): kind for kind in SEAT_KINDS}
        self._updating = True
        try:
            for seat, select in enumerate(self.seat_selects):
                if seat < state.n:
                    kind = session.seats[seat] if seat < len(session.seats) else "human"
                    select.name = tr(lang, f"colour.{state.colours[seat]}")
                    select.param.update(options=kinds, value=kind, visible=True)
                else:
                    select.visible = False
        finally:
            self._updating = False

    @guarded
    def _on_seat(self, *_):
        if self._updating:
            return
        n = self.session.state.n
        self.session.seats = [select.value for select in self.seat_selects[:n]]

    # ------------------------------------------------------------------ actions
    @guarded
    def _on_hints(self, event):
        self.session.hints = bool(event.new)

    @guarded
    def _on_session_hints(self, event):
        self.hints_checkbox.value = event.new

    @guarded
    def _on_view(self, event):
        self._show_view(event.new)

    def _show_view(self, shown: str) -> None:
        """Show one view (built the first time); the hidden ones stop following the game until
        shown again (speed)."""
        self._shown_view = shown
        for key, box in self.view_boxes.items():
            if key == shown and not box.objects:
                box.objects = [self._views[key]]
            box.visible = key == shown
            if self._views.built(key):
                view = self._views[key]
                if "active" in view.param:
                    view.active = key == shown

    def _on_view_built(self, key: str, view) -> None:
        if "active" in view.param:  # built while hidden (asked for by code): it waits
            view.active = key == self._shown_view

    # the views, built when first asked for
    characters = property(lambda self: self._views["characters"])
    log = property(lambda self: self._views["log"])
    scores = property(lambda self: self._views["scores"])
    timeline = property(lambda self: self._views["timeline"])
    odds = property(lambda self: self._views["odds"])
    rules = property(lambda self: self._views["rules"])

    @guarded
    def _on_rules_bridge(self, event):
        rule_id = bridge_id(event.new)
        if rule_id:
            self.open_rule(rule_id)

    def open_rule(self, rule_id: str) -> bool:
        """Show the Rules view at ``rule_id`` (what "Open in the Rules view" does)."""
        self.open_view("rules")
        return self.rules.show(rule_id) is not None

    @guarded
    def _on_players_count(self, *_):
        self._refresh_first_player()

    @after_page_message  # the options chosen in the same message as the click
    @guarded
    def _on_new_game(self, *_):
        self.new_game()

    def new_game(self) -> bool:
        """Start a game with the options chosen in the "New game" view."""
        first = self.first_player.value
        options = dict(
            layout=self.layout_choice.value or "first",
            characters=bool(self.with_characters.value),
            first_player=None if first in (None, RANDOM_FIRST) else first,
        )
        seed = self.seed.value if self.seed.value is not None else 0
        started = self.session.new_game(self.players_count.value, seed, **options)
        if started:
            self.file_status.visible = False
        return started

    @guarded
    def _on_file(self, *_):
        data = self._file.value
        if data:
            name = self._file.filename or "scenario.yaml"
            doc = _server_document()
            if doc is None:  # a notebook or a test: read it here
                self.load_file(data, name)
            else:
                self._load_file_off_loop(doc, data, name)

    def _load_file_off_loop(self, doc, data: bytes, name: str) -> None:
        """Served: the upload is checked in a worker process within a time and memory budget,
        then read in a thread (widgets.server.upload); the game changes on the loop's next tick. The
        event loop, and so every other session, never parses it."""
        from widgets.server.upload import load_checked

        self._upload_token = token = getattr(self, "_upload_token", 0) + 1
        self._show_file_status(
            md_escape(tr(self.session.lang, "panel.file.checking", name=name)), "info"
        )

        def work():
            upload = load_checked(data, name)
            doc.add_next_tick_callback(functools.partial(self._file_read, doc, token, upload))

        threading.Thread(target=work, name="upload", daemon=True).start()

    @guarded
    def _file_read(self, doc, token: int, upload) -> None:
        from panel.io.state import set_curdoc

        with set_curdoc(doc):
            if token == self._upload_token:  # else a newer file was chosen meanwhile
                loaded = self._show_loaded(upload.name, self.session.load_upload(upload))
                if loaded and upload.scenario is not None:
                    self.position_note.show(upload.scenario)

    def load_file(self, data: bytes, name: str) -> bool:
        """Load a scenario or a game record; show its warnings or why it was refused."""
        lang = self.session.lang
        if len(data) > MAX_FILE_BYTES:
            self.session.error = (
                f"{name}: too large ({len(data):,} bytes; at most {MAX_FILE_BYTES:,})"
            )
            self._show_file_status(md_escape(self.session.error), "danger")
            return False
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            self.session.error = tr(lang, "panel.file.not_text", name=name)
            self._show_file_status(md_escape(self.session.error), "danger")
            return False
        # A loaded file always brings a new history. (Not ``version``: in a served app the
        # session bumps it on the next tick of the event loop, after this callback.)
        before = self.session.history
        warnings = self.session.load_text(text, name)
        loaded = self._show_loaded(name, None if self.session.history is before else warnings)
        if loaded:
            self._show_position(text, name)
        return loaded

    def _show_position(self, text: str, name: str) -> None:
        """A loaded position's title and teaching note above the board (a record has none)."""
        from nefertiti_core.files.history import GameRecord, load_any

        try:
            loaded = load_any(text, name)
            if isinstance(loaded, GameRecord):
                return
            self.position_note.show(loaded)
        except Exception as error:  # loaded already: the note is a help, never a failure
            log.warning("%s: no title or teaching note shown: %s", name, error)

    def _show_loaded(self, name: str, warnings: list[str] | None) -> bool:
        """Say that the file was loaded (with its warnings), or why it was refused (None)."""
        lang = self.session.lang
        if warnings is None:  # refused: the game is as it was
            self._show_file_status(md_escape(self.session.error), "danger")
            return False
        text = md_escape(tr(lang, "panel.file.loaded", name=name))
        if warnings:
            text += "\n\n" + md_escape(tr(lang, "panel.file.warnings")) + "\n\n"
            text += "\n".join(f"- {md_escape(warning)}" for warning in warnings)
        self._show_file_status(text, "warning" if warnings else "success")
        self.players_count.value = self.session.state.n
        return True

    def _show_file_status(self, text: str, kind: str) -> None:
        self.file_status.param.update(object=text, alert_type=kind, visible=bool(text))

    def save_file(self) -> io.StringIO:
        """What the Save button downloads: the whole game (every branch, where it is, the
        seats), which loads back identically."""
        try:
            return io.StringIO(self.session.whole_record().dumps())
        except Exception as error:  # never into the page
            self.session.error = tr(self.session.lang, "panel.error.unexpected", error=str(error))
            return io.StringIO("")

    # ------------------------------------------------------------------ saved games
    def connect_store(self, store, browser: str = "", game: str = "", live=None) -> None:
        """Autosave this Sandbox's game to ``store`` and offer or resume a saved one.

        ``browser`` is the browser's id (its cookie; a new one is made if it has none), ``game``
        the token in the page's address, ``live`` the games other open tabs play (``in``). A
        reload or a restart (the address names a game of this browser): the game comes back at
        once, with a note. A new tab (no game in the address) of a browser with a saved game:
        the offer to resume it, or to start anew. A game is never another browser's.
        """
        from widgets.server.store import new_token, owner_of, valid_token

        self._live = live = live if live is not None else set()
        new_browser = not valid_token(browser)
        browser = new_token() if new_browser else browser
        self._store, self._owner = store, owner_of(browser)
        self._token = new_token()
        self._revisions: dict[str, int] = {}  # token -> the revision this page last wrote or took
        self._doc = _server_document()
        note = ""
        saved = None
        if valid_token(game):
            copy = game in live  # the same game open in another tab: this one goes on with a copy
            if not copy:
                # a reload: the page it left may still have a save to make (a move in the last
                # AUTOSAVE_DELAY_MS); made first, then the game taken up, so that page's later
                # saves (its session is dropped some seconds on) cannot undo this one's moves
                getattr(live, "settle", lambda token: None)(game)
            saved = store.load(game, self._owner) if copy else store.take(game, self._owner)
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
            self._offer = store.latest(self._owner)
            note = "saved.offer" if self._offer is not None else ""
        self._saved_kind = note
        # the note that the game is back goes at the game's next change (board_version is
        # bumped at once; the restore's own change is already counted)
        self.session.param.watch(self._hide_note, ["board_version"])
        self._page.data = {
            "token": [self._token],
            "browser": [browser if new_browser else ""],
            "lost": [""],
            "back": [""],
        }
        self._refresh_saved()
        page_js = CustomJS(
            args=dict(
                page=self._page,
                fig=self.board.figure,
                COOKIE=BROWSER_COOKIE,
                ALERT=ALERT,
                ON_ALERT=ON_COLOUR,
            ),
            code=PAGE_JS,
        )
        self.board.figure.js_on_change("inner_width", page_js)
        self._page.js_on_change("data", page_js)
        self.session.autosave(self._write, key=self._token)
        self.session.param.watch(lambda *_: self.session._schedule_save(), ["lang", "hints"])

    @property
    def game_token(self) -> str:
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
        self._refresh_saved()
        self._page.data = dict(self._page.data, token=[self._token])
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

    def _refresh_saved(self) -> None:
        lang = self.session.lang
        kind, saved = getattr(self, "_saved_kind", ""), self._offer
        if self._store is None or not kind or (saved is None and kind != "saved.copy"):
            self._saved_row.visible = False
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
            self._saved_note.object = f"<b>{esc(text)}</b>" if kind == "saved.offer" else esc(text)
            offer = kind == "saved.offer"
            self._resume.param.update(name=tr(lang, "saved.resume"), visible=offer)
            self._fresh.param.update(name=tr(lang, "saved.new"), visible=offer)
            self._saved_row.visible = True
        if self._store is not None:
            data = dict(self._page.data)
            data.update(lost=[tr(lang, "saved.lost")], back=[tr(lang, "saved.reconnected")])
            self._page.data = data

    @guarded
    def _on_resume(self, *_):
        self.resume_offer()

    def resume_offer(self) -> bool:
        """Take the offered saved game up in this tab (its token too: it is saved from now on)."""
        saved, session = self._offer, self.session
        if saved is None:
            return False
        copy = saved.token in self._live  # open in another tab: this one goes on with a copy
        if not copy:  # taken up as it is now (the offer was read when the page opened)
            getattr(self._live, "settle", lambda token: None)(saved.token)
            saved = self._store.take(saved.token, self._owner)
            if saved is None:  # deleted since (expired)
                return False
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
        self._refresh_saved()
        self._page.data = dict(self._page.data, token=[self._token])
        return True

    @guarded
    def _hide_note(self, *_):
        """The note that the game is back goes at its next move (the offer stays until chosen)."""
        if self._saved_kind in ("saved.back", "saved.copy"):
            self._saved_kind = ""
            self._refresh_saved()

    @guarded
    def _on_fresh(self, *_):
        self._saved_kind = ""
        self._refresh_saved()

    # for tests
    def open_view(self, view: str) -> None:
        """Show one of the views below the board (what a click on its button does)."""
        self.view_picker.value = view

    @property
    def visible_view(self) -> str:
        return next(key for key, box in self.view_boxes.items() if box.visible)


class _LazyViews(Mapping):
    """The Sandbox's views by key, each made by its factory when first looked up."""

    def __init__(self, factories: dict, on_built):
        self._factories = factories
        self._built: dict = {}
        self._on_built = on_built

    def __getitem__(self, key):
        if key not in self._built:
            view = self._built[key] = self._factories[key]()
            self._on_built(key, view)
        return self._built[key]

    def __iter__(self):
        return iter(self._factories)

    def __len__(self) -> int:
        return len(self._factories)

    def built(self, key) -> bool:
        return key in self._built


def make_app() -> pn.viewable.Viewable:
    """A new game and a new Sandbox: serve this function, one game per browser session.

    Returns the Sandbox's layout; the Sandbox itself (and its session) is its ``sandbox``
    attribute.
    """
    # A new game speaks the browser's language; a resumed one its own (saved with it).
    sandbox = Sandbox(GameSession(lang=browser_language()), fit_window=True)
    _connect_saved_games(sandbox)
    app = sandbox.__panel__()
    app.sandbox = sandbox
    return app


def _connect_saved_games(sandbox: Sandbox) -> None:
    """A served session: autosave to the process's store; resume or offer a saved game."""
    from widgets.server.store import get_store

    doc = pn.state.curdoc
    if doc is None or doc.session_context is None:
        return  # not served (a notebook, a test): nothing is saved
    store = get_store()
    if store is None:
        sandbox._saved_note.object = esc(tr(sandbox.session.lang, "saved.off"))
        sandbox._saved_row.visible = True
        return
    args = pn.state.session_args.get("game") or [b""]
    game = args[0].decode("ascii", "replace") if isinstance(args[0], bytes) else str(args[0])
    browser = (pn.state.cookies or {}).get(BROWSER_COOKIE, "")
    sandbox.connect_store(store, browser=browser, game=game, live=OPEN_GAMES)
    # The page's own banner says so when the connection drops (PAGE_JS), in the session's
    # language; Panel's English notification would say it twice. (This session only.)
    pn.config.disconnect_notification = ""
    context = doc.session_context
    OPEN_GAMES.tabs[id(context)] = (sandbox, context)

    def closed(_context):
        sandbox.session.save_now()  # the last changes, before the session is gone
        OPEN_GAMES.tabs.pop(id(context), None)

    pn.state.on_session_destroyed(closed)


class _OpenGames:
    """The games open in this server's tabs: ``token in OPEN_GAMES`` if a tab that is still
    connected plays it (a closed tab's session lingers a while; it does not count)."""

    def __init__(self):
        self.tabs: dict[int, tuple[Sandbox, object]] = {}

    def __contains__(self, token) -> bool:
        return any(
            _connected(context) and sandbox.game_token == token
            for sandbox, context in list(self.tabs.values())
        )

    def settle(self, token: str, timeout: float = 5.0) -> None:
        """Make now the saves still to come of this process's pages that play ``token`` (the
        page a reload left behind), and wait for them: a move made just before a reload is in
        the store when the new page reads it."""
        for sandbox, _context in list(self.tabs.values()):
            if sandbox.game_token == token and sandbox.session.save_pending:
                future = sandbox.session.save_now()
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
