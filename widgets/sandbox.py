"""The Sandbox: a whole game in one page, for a teacher and a group at one screen.

The board in the middle, the decision panel beside it, and around them the players, scores,
characters, the log and the timeline (one at a time, chosen with a row of buttons), a new game
with its options, each seat human (hot seat) or a bot, files in and out, the hints toggle and the
language. Serve :func:`make_app`: it builds a new session and a new Sandbox for every browser
session, so every visitor has their own game.
"""

from __future__ import annotations

import io

import panel as pn
import param

from nefertiti_core.i18n import tr
from nefertiti_core.rules import COLOURS

from ._common import HTML, after_page_message, esc, guarded, md_escape, seat_kind_label
from .board import Board
from .characters import Characters
from .decision import DecisionPanel
from .hints import HintsView
from .language import LanguageSelector
from .log import Log
from .odds import OddsView
from .players import Players
from .scores import Scores
from .session import SEAT_KINDS, GameSession
from .timeline import Timeline

MAX_SEATS = 4
RANDOM_FIRST = -1
VIEWS = ("characters", "log", "scores", "timeline", "odds", "setup")
BOARD_WIDTH = 860
SIDE_WIDTH = 490
#: Below this width (the board's column and the side column side by side, with margins) the
#: Sandbox is one column: the board's column lets its parts (board, view buttons, views) take
#: their places among the side column by their ``order`` (board, side, buttons, views).
NARROW_CSS = f"""
@container (max-width: {BOARD_WIDTH + SIDE_WIDTH + 40}px) {{
  div[id^="flexbox"] {{ flex-direction: column !important; }}
  .nefertiti-main {{ display: contents !important; }}
}}
"""
#: The parts' places in that one column (the board's is 0, the first).
ORDER = {"side": {"order": "2"}, "buttons": {"order": "3"}, "views": {"order": "4"}}
CARD_STYLE = {"background": "#fffdf7", "border": "1px solid #e0d6bd", "border-radius": "6px"}


class Sandbox(pn.viewable.Viewer):
    """Every component of the tutor around one live board."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(self, session: GameSession | None = None, **params):
        super().__init__(session=session if session is not None else GameSession(), **params)
        session = self.session
        self.board = Board(session, width=BOARD_WIDTH)
        self.decision = DecisionPanel(session)
        self.players = Players(session)
        self.characters = Characters(session)
        self.log = Log(session)
        self.scores = Scores(session, width=BOARD_WIDTH - 20, height=340)
        self.timeline = Timeline(session)
        self.hints_view = HintsView(session)
        self.odds = OddsView(session, width=BOARD_WIDTH - 10)
        self.language = LanguageSelector(session)

        # --- header
        self._heading = HTML("", margin=(4, 10))
        self._bot_status = HTML("", margin=(14, 10))
        self._hints = pn.widgets.Checkbox(value=session.hints, margin=(14, 10))
        self._hints.param.watch(self._on_hints, "value")
        self._download = pn.widgets.FileDownload(
            callback=self._save_file, filename="nefertiti-position.yaml", color="default"
        )

        # --- new game
        self._setup_title = HTML("")
        self._players_count = pn.widgets.Select(options=[3, 4], value=session.state.n, width=120)
        self._seed = pn.widgets.IntInput(value=0, start=0, width=120)
        self._layout_choice = pn.widgets.Select(width=220)
        self._with_characters = pn.widgets.Checkbox(value=True)
        self._first_player = pn.widgets.Select(width=220)
        self._start = pn.widgets.Button(color="primary", width=200)
        self._start.on_click(self._on_new_game)
        self._players_count.param.watch(self._on_players_count, "value")

        self._seats_title = HTML("")
        self._seat_selects = [pn.widgets.Select(width=190) for _ in range(MAX_SEATS)]
        for select in self._seat_selects:
            select.param.watch(self._on_seat, "value")
        self._updating = False

        self._files_title = HTML("")
        self._file_label = HTML("", margin=(0, 10))
        self._file = pn.widgets.FileInput(accept=".yaml,.yml,.txt", multiple=False)
        self._file.param.watch(self._on_file, "value")
        self._file_status = pn.pane.Alert("", alert_type="info", visible=False)

        setup = pn.Column(
            self._setup_title,
            pn.Row(self._players_count, self._seed),
            pn.Row(self._layout_choice, self._first_player),
            self._with_characters,
            self._start,
            self._seats_title,
            pn.Row(*self._seat_selects[:2]),
            pn.Row(*self._seat_selects[2:]),
            self._files_title,
            self._file_label,
            self._file,
            self._file_status,
            self._download,
            sizing_mode="stretch_width",
        )

        # --- the views around the board, one at a time
        self._views = {
            "characters": self.characters,
            "log": self.log,
            "scores": self.scores,
            "timeline": self.timeline,
            "odds": self.odds,
            "setup": setup,
        }
        self._view_boxes = {
            key: pn.Column(
                view, visible=key == VIEWS[0], sizing_mode="stretch_width", styles=ORDER["views"]
            )
            for key, view in self._views.items()
        }
        self._view_picker = pn.widgets.RadioButtonGroup(
            color="primary", value=VIEWS[0], styles=ORDER["buttons"]
        )
        self._view_picker.param.watch(self._on_view, "value")

        header = pn.Row(
            self._heading,
            self._bot_status,
            pn.layout.HSpacer(),
            self.language,
            self._hints,
            sizing_mode="stretch_width",
        )
        side = pn.Column(
            pn.Column(self.decision, styles=CARD_STYLE, sizing_mode="stretch_width"),
            pn.Column(self.hints_view, styles=CARD_STYLE, sizing_mode="stretch_width"),
            self.players,
            width=SIDE_WIDTH,
            margin=(5, 5),
            styles=ORDER["side"],
        )
        # Wide (a served app on a big screen): the board and the views below it on the left, the
        # decision and the players on the right. Narrower than both (a notebook's column, a
        # projector's 1024 pixels): one column, board, decision and players, then the views;
        # nothing is cut off. NARROW_CSS switches by the layout's own width (a container
        # query), since a notebook's column is much narrower than the browser's window.
        main = pn.Column(
            self.board,
            self._view_picker,
            *self._view_boxes.values(),
            width=BOARD_WIDTH + 10,
            css_classes=["nefertiti-main"],
        )
        self._layout = pn.Column(
            header,
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
            styles={"background": "#f7f1e3", "container-type": "inline-size"},
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
            f"<h2 style='margin:6px 0;color:#5a4220'>{esc(tr(lang, 'panel.title'))}</h2>"
        )
        self._hints.name = tr(lang, "panel.hints")
        self._download.label = tr(lang, "panel.file.save")
        self._view_picker.param.update(
            options={tr(lang, f"panel.view.{key}"): key for key in VIEWS},
            value=self._view_picker.value or VIEWS[0],
        )
        self._setup_title.object = (
            f"<h3 style='margin:4px 0'>{esc(tr(lang, 'panel.setup.title'))}</h3>"
        )
        self._players_count.name = tr(lang, "panel.setup.players")
        self._seed.name = tr(lang, "panel.setup.seed")
        self._layout_choice.name = tr(lang, "panel.setup.layout")
        self._layout_choice.param.update(
            options={
                tr(lang, "panel.setup.layout_first"): "first",
                tr(lang, "panel.setup.layout_random"): "random",
            },
            value=self._layout_choice.value or "first",
        )
        self._with_characters.name = tr(lang, "panel.setup.characters")
        self._start.name = tr(lang, "panel.setup.start")
        self._seats_title.object = f"<b>{esc(tr(lang, 'panel.setup.seats'))}</b>"
        self._files_title.object = f"<b>{esc(tr(lang, 'panel.file.title'))}</b>"
        self._file_label.object = esc(tr(lang, "panel.file.load"))
        self._refresh_first_player()

    def _refresh_first_player(self) -> None:
        lang = self.session.lang
        n = self._players_count.value
        options = {tr(lang, "panel.setup.first_random"): RANDOM_FIRST}
        options.update({tr(lang, f"colour.{COLOURS[seat]}"): seat for seat in range(n)})
        value = self._first_player.value
        self._first_player.name = tr(lang, "panel.setup.first_player")
        self._first_player.param.update(
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
            self._bot_status.object = f"<i style='color:#6b4f2a'>{esc(text)}</i>"
        else:
            self._bot_status.object = ""

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
            for seat, select in enumerate(self._seat_selects):
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
        self.session.seats = [select.value for select in self._seat_selects[:n]]

    # ------------------------------------------------------------------ actions
    @guarded
    def _on_hints(self, event):
        self.session.hints = bool(event.new)

    @guarded
    def _on_session_hints(self, event):
        self._hints.value = event.new

    @guarded
    def _on_view(self, event):
        self._show_view(event.new)

    def _show_view(self, shown: str) -> None:
        """Show one view; the hidden ones stop following the game until shown again (speed)."""
        for key, box in self._view_boxes.items():
            box.visible = key == shown
            view = self._views[key]
            if "active" in view.param:
                view.active = key == shown

    @guarded
    def _on_players_count(self, *_):
        self._refresh_first_player()

    @after_page_message  # the options chosen in the same message as the click
    @guarded
    def _on_new_game(self, *_):
        self.new_game()

    def new_game(self) -> bool:
        """Start a game with the options chosen in the "New game" view."""
        first = self._first_player.value
        options = dict(
            layout=self._layout_choice.value or "first",
            characters=bool(self._with_characters.value),
            first_player=None if first in (None, RANDOM_FIRST) else first,
        )
        seed = self._seed.value if self._seed.value is not None else 0
        started = self.session.new_game(self._players_count.value, seed, **options)
        if started:
            self._file_status.visible = False
        return started

    @guarded
    def _on_file(self, *_):
        data = self._file.value
        if data:
            self.load_file(data, self._file.filename or "scenario.yaml")

    def load_file(self, data: bytes, name: str) -> bool:
        """Load a scenario or a game record; show its warnings or why it was refused."""
        lang = self.session.lang
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
        if self.session.history is before:  # refused: the game is as it was
            self._show_file_status(md_escape(self.session.error), "danger")
            return False
        text = md_escape(tr(lang, "panel.file.loaded", name=name))
        if warnings:
            text += "\n\n" + md_escape(tr(lang, "panel.file.warnings")) + "\n\n"
            text += "\n".join(f"- {md_escape(warning)}" for warning in warnings)
        self._show_file_status(text, "warning" if warnings else "success")
        self._players_count.value = self.session.state.n
        return True

    def _show_file_status(self, text: str, kind: str) -> None:
        self._file_status.param.update(object=text, alert_type=kind, visible=bool(text))

    def _save_file(self):
        try:
            return io.StringIO(self.session.save_text())
        except Exception as error:  # never into the page
            self.session.error = tr(self.session.lang, "panel.error.unexpected", error=str(error))
            return io.StringIO("")

    # for tests
    def open_view(self, view: str) -> None:
        """Show one of the views below the board (what a click on its button does)."""
        self._view_picker.value = view

    @property
    def visible_view(self) -> str:
        return next(key for key, box in self._view_boxes.items() if box.visible)


def make_app() -> pn.viewable.Viewable:
    """A new game and a new Sandbox: serve this function, one game per browser session.

    Returns the Sandbox's layout; the Sandbox itself (and its session) is its ``sandbox``
    attribute.
    """
    sandbox = Sandbox(GameSession())
    app = sandbox.__panel__()
    app.sandbox = sandbox
    return app
