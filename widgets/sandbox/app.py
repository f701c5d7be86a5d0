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

import panel as pn
import param

from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.limits import MAX_FILE_BYTES
from nefertiti_core.engine.rules import COLOURS
from nefertiti_core.engine.said import in_lang, too_large
from widgets.game.accessible import LabelledCheckbox, name_for_readers
from widgets.game.board import Board
from widgets.game.board_text import BoardText
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
from widgets.game.session import SEAT_KINDS, GameSession, served_document
from widgets.game.timeline import Timeline
from widgets.sandbox.autosave import SavedGames, connect_served
from widgets.sandbox.practice import Practice
from widgets.theme import HEADING, INK_MUTED, PAGE_BACKGROUND, PAPER, RULE_LINE

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
            keys=True,
        )
        self.projector = ProjectorBar(session)
        self.position_note = PositionNote(session)
        self.decision = DecisionPanel(session, show_who=False)  # the banner says it
        self.players = Players(session)
        self.hints_view = HintsView(session)
        self.language = LanguageSelector(session)
        #: The board in words, each step announced (board_text.py; the board's keys: board_keys.py).
        self.board_text = BoardText(session)

        # --- header
        self._heading = HTML("", margin=(4, 10))
        #: Which bot is thinking now, in words.
        self.bot_status = HTML("", margin=(14, 10))
        #: Turns the learner's hints on or off.
        self.hints_checkbox = LabelledCheckbox(value=session.hints, margin=(14, 10))
        self.hints_checkbox.param.watch(self._on_hints, "value")
        self._download = pn.widgets.FileDownload(
            callback=self.save_file, filename="nefertiti-game.yaml", color="default"
        )
        #: Saved games: the note and the resume offer above the board, the page's address.
        self.saved = SavedGames(session, self.board)

        # --- new game
        self._setup_title = HTML("")
        #: Setup: how many players.
        self.players_count = pn.widgets.Select(options=[3, 4], value=session.state.n, width=120)
        #: Setup: the seed of the shuffle.
        # typed (arrow keys step it); Bokeh's up and down arrows are buttons without a name
        # (axe: button-name, critical), so they are not shown
        self.seed = pn.widgets.IntInput(
            value=0, start=0, width=120, stylesheets=[".bk-spin-btn { display: none !important; }"]
        )
        #: Setup: the board's layout.
        self.layout_choice = pn.widgets.Select(width=220)
        #: Setup: play with the character cards.
        self.with_characters = LabelledCheckbox(value=True)
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
            color="primary",
            value=VIEWS[0],
            styles=ORDER["buttons"],
            stylesheets=[".bk-btn-group { flex-wrap: wrap; }"],  # a phone: on several lines
        )
        self.view_picker.param.watch(self._on_view, "value")

        #: The hidden text box a click on "Open in the Rules view" under any rule ID of the page
        #: writes (``"<ID>|<time>"``): the Rules view then shows that rule.
        self.rules_bridge = rules_bridge()
        self.rules_bridge.param.watch(self._on_rules_bridge, "value")
        header = pn.Row(
            self._heading,
            self.bot_status,
            pn.layout.HSpacer(),
            self.language,
            self.hints_checkbox,
            self.rules_bridge,
            sizing_mode="stretch_width",
            styles={"flex-wrap": "wrap"},  # a phone: the language under the title
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
            self.board_text,
            css_classes=["nefertiti-main"],
            styles={"flex": "1 1 0", "min-width": f"{MIN_BOARD}px"},
        )
        self._layout = pn.Column(
            header,
            self.saved.row,
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
        self.saved.refresh()
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
        name_for_readers(self._file, tr(lang, "panel.file.load"))  # the line above it
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
            doc = served_document()
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
            upload = load_checked(data, name, self.session.lang)
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
            too_big = in_lang(too_large(len(data), MAX_FILE_BYTES), lang)
            self.session.error = f"{name}{tr(lang, 'file.sep')}{too_big}"
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


def make_app(request=None, found=None) -> pn.viewable.Viewable:
    """A new game and a new Sandbox: serve this function, one game per browser session.

    Returns the Sandbox's layout; the Sandbox itself (and its session) is its ``sandbox``
    attribute. ``request``, ``found``: the page's store reads, made before off the event loop
    (``widgets.sandbox.autosave.served_request``, ``read_served``); made here otherwise.
    """
    # A new game speaks the browser's language; a resumed one its own (saved with it).
    sandbox = Sandbox(GameSession(lang=browser_language()), fit_window=True)
    connect_served(sandbox, request, found)
    app = sandbox.__panel__()
    app.sandbox = sandbox
    return app
