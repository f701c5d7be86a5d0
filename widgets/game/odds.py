"""Odds by playouts for the position on the board (``nefertiti_core.play.odds``).

Choose how many playouts and which bots play the game out, press Run: a progress bar follows the
playouts (Cancel stops them and keeps what was played), then a histogram of the final scores per
player (in the players' colours), each player's chance to win with its 95% interval, which market
closes next, and for Louqsor the exact closing chances (from ``status``, not sampled). The
numbers are the engine's; this view only starts the run and shows the report.

The run happens in a background thread (the engine spreads it over local processes). In a served
app its progress and its report reach the page through the document's next-tick callbacks (the
only thread-safe way into a Bokeh document); in a notebook they are handed to the kernel's asyncio
loop that handled Run (``call_soon_threadsafe``). In a notebook the buttons' work waits for the
loop's next turn, so that a choice sent with the click is applied first (``after_page_message``). A
report belongs to one position: once the game moves on it is marked stale.
"""

from __future__ import annotations

import functools
import math
import threading
import time

import panel as pn
import param
from bokeh.core.properties import value
from bokeh.models import ColumnDataSource, Range1d
from bokeh.plotting import figure

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.errors import NefertitiError
from nefertiti_core.engine.i18n import tr
from nefertiti_core.play.bots import bot_kinds
from nefertiti_core.play.odds import GAME_END, OddsReport, odds
from nefertiti_core.teaching.explain import describe_option
from nefertiti_core.teaching.status import Chances, Message, StallName, format_probability, render
from widgets.game.common import (
    HTML,
    after_page_message,
    esc,
    guarded,
    player_name,
    players_legend,
    running_loop,
    seat_kind_label,
    swatch,
)
from widgets.game.rules_view import link_rule_ids
from widgets.game.session import GameSession, served_document
from widgets.theme import (
    CHART_BACKGROUND,
    CHART_BAR,
    CHART_LINE,
    ERROR_TEXT,
    NO_PLAYER,
    PLAYER_COLOURS,
    TEXT_NOTE,
)

PLAYOUT_CHOICES = (50, 200, 1000, 5000)
DEFAULT_PLAYOUTS = 200
#: Kinds that can play thousands of games: mcts thinks up to a second per move, far too slow.
ODDS_BOTS = tuple(kind for kind in bot_kinds() if kind != "mcts")
#: Random bots answer at once (hundreds of playouts a second); greedy ones play more like people
#: but take about twenty times as long: 624 against 32 playouts a second on one process of a
#: 2-core machine where OpenSpiel's tic-tac-toe takes 47 µs an action (2026-12-05).
DEFAULT_BOTS = "random"
MAX_SEATS = 4
PROGRESS_EVERY = 0.15  # seconds between two progress updates sent to the page
MAX_BARS = 30  # scores are grouped into at most this many bins per player
AS_IT_IS = -1  # the "what if" menu's first entry: no option studied, the position as it is


class OddsView(pn.viewable.Viewer):
    """Run playouts from the position on the board and show what they found."""

    session = param.ClassSelector(class_=GameSession)
    width = param.Integer(default=820)
    workers = param.Integer(default=None, allow_None=True, doc="Local processes (None: all cores)")
    active = param.Boolean(default=True, doc="Shown (the Sandbox hides it behind a button)")

    def __init__(self, session: GameSession, **params):
        super().__init__(session=session, **params)
        self.report: OddsReport | None = None
        self._state = None  # the position of the report (or of the run going on)
        self._thread: threading.Thread | None = None
        self._loop = None
        self._cancel: threading.Event | None = None
        self._last_progress = 0.0
        self._error = ""
        self._stale_menu = False  # the "what if" menu waits for the view to be shown
        self._watching_session = False

        self._title = HTML("", margin=(0, 5))
        self._explain = HTML("", sizing_mode="stretch_width", margin=(0, 5))
        #: How many playouts to run.
        self.playouts = pn.widgets.Select(
            options=list(PLAYOUT_CHOICES), value=DEFAULT_PLAYOUTS, width=100
        )
        #: Which bots play the playouts out.
        self.bot_select = pn.widgets.Select(width=190)
        #: The option to look at, or the position as it is.
        self.what_if = pn.widgets.Select(width=290)
        #: Starts the playouts.
        self.run_button = pn.widgets.Button(color="primary", width=90, margin=(22, 5, 5, 5))
        self.run_button.on_click(self._on_run)
        #: Cancels the playouts running.
        self.stop_button = pn.widgets.Button(
            color="warning", width=90, margin=(22, 5, 5, 5), disabled=True
        )
        self.stop_button.on_click(self._on_cancel)
        #: The playouts done so far.
        self.progress = pn.indicators.Progress(
            value=0, max=DEFAULT_PLAYOUTS, width=self.width - 40, visible=False, bar_color="info"
        )
        #: What the odds say now, in words.
        self.status = HTML("", sizing_mode="stretch_width", margin=(0, 5))
        #: Each seat's chance to win, in words.
        self.wins = HTML("", sizing_mode="stretch_width", margin=(0, 5))
        #: When each market may close, in words.
        self.closes = HTML("", sizing_mode="stretch_width", margin=(0, 5))
        #: The odds of Louqsor's dice, in words (exact, from the rules, not the playouts).
        self.louqsor = HTML("", sizing_mode="stretch_width", margin=(0, 5))
        #: The chart's data, one per seat.
        self.sources = [
            ColumnDataSource(data=dict(x=[], top=[], width=[], tip=[]), name=f"odds-hist-{seat}")
            for seat in range(MAX_SEATS)
        ]
        self._figure = self._build_figure()
        #: The chart of the chances (shown once there is a result).
        self.chart = pn.pane.Bokeh(self._figure, sizing_mode="fixed", visible=False)
        self._layout = pn.Column(
            self._title,
            self._explain,
            pn.Row(self.playouts, self.bot_select, self.what_if, self.run_button, self.stop_button),
            self.progress,
            self.status,
            self.wins,
            self.chart,
            self.closes,
            self.louqsor,
            width=self.width,
        )
        self._refresh_labels()
        self._show_status("odds.empty")
        session.param.watch(self._on_change, ["version"])
        session.param.watch(self._on_lang, ["lang"])

    def __panel__(self):
        return self._layout

    # ------------------------------------------------------------------ building (once)
    def _build_figure(self):
        fig = figure(
            width=self.width - 20,
            height=260,
            x_range=Range1d(0, 10),
            y_range=Range1d(0, 10),
            toolbar_location=None,
            tools="hover",
            tooltips="@tip",
            background_fill_color=CHART_BACKGROUND,
            border_fill_color=CHART_BACKGROUND,
        )
        fig.outline_line_color = None
        fig.xgrid.visible = False
        #: The chart's bars, one per seat.
        self.bars = [
            fig.vbar(
                x="x",
                top="top",
                width="width",
                source=source,
                fill_color=CHART_BAR,
                line_color=CHART_LINE,
                line_width=0.5,
                fill_alpha=0.85,
            )
            for source in self.sources
        ]
        self._legend_items = players_legend(fig, self.bars)
        return fig

    # ------------------------------------------------------------------ running
    @after_page_message
    @guarded
    def _on_run(self, *_):
        self.run()

    @after_page_message
    @guarded
    def _on_cancel(self, *_):
        self.cancel()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def run(
        self, playouts: int | None = None, bots: str | None = None, option: int | None = None
    ) -> bool:
        """Start the playouts (the widgets' choices unless given; ``option``: what if the decider
        chose it, ``AS_IT_IS`` for none); False if it cannot start."""
        if self.running:
            return False
        state = self.session.state
        if state.is_over:
            self._show_status("odds.game_over")
            return False
        if playouts is not None:
            self.playouts.value = playouts
        if bots is not None:
            self.bot_select.value = bots
        if option is not None:
            self.what_if.value = option
        total = int(self.playouts.value)
        kind = self.bot_select.value
        studied = self.what_if.value
        studied = None if studied in (None, AS_IT_IS) else studied
        self._state = state
        self._loop = running_loop()  # where the page may be changed from (notebooks)
        self._cancel = threading.Event()
        self._last_progress = 0.0
        self.run_button.disabled = True
        self.stop_button.disabled = False
        self.progress.param.update(value=0, max=total, visible=True)
        self._show_status("odds.running", done=0, total=total)
        doc = served_document()
        if doc is not None and not self._watching_session:
            # A closed browser tab stops its playouts (the thread would run on for nothing).
            self._watching_session = True
            doc.on_session_destroyed(lambda _context: self.cancel())
        seed = self.session.bot_seed
        copy = state.copy()
        copy.log = None  # the playouts never need the game's event log

        def work():
            try:
                report = odds(
                    copy,
                    playouts=total,
                    bots=kind,
                    seed=seed,
                    workers=self.workers,
                    progress=functools.partial(self._progress_from_thread, doc),
                    cancel=self._cancel,
                    option=studied,
                )
                if (
                    doc is None
                ):  # a notebook: readable after view.join(), shown on the kernel's turn
                    self.report = report
                self._to_page(doc, self._finish, state, report, None)
            except Exception as error:  # shown on the page, never raised into it
                message = str(error) if isinstance(error, NefertitiError) else repr(error)
                try:
                    self._to_page(doc, self._finish, state, None, message)
                except Exception:  # the page is gone (its session was destroyed)
                    pass

        self._thread = threading.Thread(target=work, name="odds", daemon=True)
        self._thread.start()
        return True

    def cancel(self) -> None:
        """Stop the playouts soon; the report counts those already played."""
        if self._cancel is not None:
            self._cancel.set()
            self.stop_button.disabled = True

    def join(self, timeout: float | None = None) -> None:
        """Wait until the run has finished (tests, notebooks)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _progress_from_thread(self, doc, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self._last_progress < PROGRESS_EVERY:
            return  # at most a few updates a second: each is a message to the browser
        self._last_progress = now
        self._to_page(doc, self._show_progress, done, total)

    def _to_page(self, doc, function, *args) -> None:
        """Run ``function`` where it may change the page: on the served document's next tick,
        in a notebook on the kernel's own thread (Bokeh models are not safe to change from the
        playouts' thread while the kernel handles the page's messages), else here. With
        JupyterLab's comms over subshells a kernel has several such threads: this is the one
        that handled Run, and the page's next messages may be handled on another one."""
        if doc is None:
            loop = self._loop
            if loop is not None and loop.is_running() and not loop.is_closed():
                loop.call_soon_threadsafe(function, *args)  # runs on the kernel's own thread
            else:
                function(*args)
            return

        def callback():
            from panel.io.state import set_curdoc

            with set_curdoc(doc):
                function(*args)

        doc.add_next_tick_callback(callback)

    @guarded
    def _show_progress(self, done: int, total: int) -> None:
        self.progress.value = min(done, total)
        self._show_status("odds.running", done=done, total=total)

    @guarded
    def _finish(self, state, report: OddsReport | None, error: str | None) -> None:
        self.run_button.disabled = False
        self.stop_button.disabled = True
        self.progress.visible = False
        self._error = error or ""
        if report is not None:
            self.report = report
        self._state = state
        self._show()

    # ------------------------------------------------------------------ showing
    def _show(self) -> None:
        lang = self.session.lang
        if self._error:
            self.status.object = self._note(tr(lang, "odds.error", error=self._error), ERROR_TEXT)
        report = self.report
        if report is None:
            for pane in (self.wins, self.closes, self.louqsor):
                pane.object = ""
            self.chart.visible = False
            if not self._error:
                self._show_status("odds.empty")
            return
        colours = report.colours
        if not self._error:
            if report.cancelled:
                text = tr(lang, "odds.cancelled", done=report.playouts, total=report.requested)
            else:
                text = tr(
                    lang,
                    "odds.done",
                    done=report.playouts,
                    bots=seat_kind_label(lang, report.bots[0]),
                    seconds=f"{report.seconds:.1f}",
                    rate=f"{report.playouts_per_second or 0:.0f}",
                )
            if self._state is not self.session.state:
                text += " " + tr(lang, "odds.stale")
            self.status.object = self._note(text)

        rows = []
        for seat in range(report.players):
            low, high = report.win_interval(seat)
            rows.append(
                "<li style='list-style:none'>"
                + swatch(colours[seat])
                + esc(
                    tr(
                        lang,
                        "odds.win.row",
                        player=player_name(lang, colours, seat),
                        percent=_percent(report.win_probability(seat)),
                        low=_percent(low),
                        high=_percent(high),
                        mean=f"{report.mean_score(seat):.1f}",
                    )
                )
                + "</li>"
            )
        self.wins.object = link_rule_ids(  # R9.2 in the title: its text on click
            f"<b>{esc(tr(lang, 'odds.win.title'))}</b>"
            f"<ul style='margin:2px 0;padding:0;font-size:13px'>{''.join(rows)}</ul>",
            lang,
        )
        self._show_histogram(report, lang)

        frequencies = report.next_close_frequency()
        items = []
        for key, share in sorted(frequencies.items(), key=lambda kv: -kv[1]):
            if not share:
                continue
            if key == GAME_END:
                text = tr(lang, "odds.close.game_end") + f": {_percent(share)}%"
            else:
                text = tr(
                    lang,
                    "odds.close.row",
                    market=tr(lang, f"market.{key}"),
                    percent=_percent(share),
                )
            items.append(f"<li>{esc(text)}</li>")
        self.closes.object = (
            f"<b>{esc(tr(lang, 'odds.close.title'))}</b>"
            f"<ul style='margin:2px 0 2px 18px;padding:0;font-size:13px'>{''.join(items)}</ul>"
            if items
            else ""
        )
        self.louqsor.object = self._louqsor_text(report, lang)

    def _show_histogram(self, report: OddsReport, lang: str) -> None:
        n = report.players
        if not report.playouts:
            self.chart.visible = False
            return
        everything = [s for seat in range(n) for s in report.scores[seat]]
        low, high = min(everything), max(everything)
        step = max(1, math.ceil((high - low + 1) / MAX_BARS))
        start = low - low % step
        width = step * 0.84 / n
        top = 1
        for seat in range(MAX_SEATS):
            source = self.sources[seat]
            if seat >= n:
                source.data = dict(x=[], top=[], width=[], tip=[])
                self.bars[seat].visible = False
                continue
            counts: dict[int, int] = {}
            for score in report.scores[seat]:
                b = (score - start) // step
                counts[b] = counts.get(b, 0) + 1
            name = player_name(lang, report.colours, seat)
            xs, tops, tips = [], [], []
            for b, count in sorted(counts.items()):
                left = start + b * step
                xs.append(left + step * 0.08 + width * (seat + 0.5))
                tops.append(count)
                span = str(left) if step == 1 else f"{left}–{left + step - 1}"
                tips.append(f"{name}: {span} → {count}")
                top = max(top, count)
            source.data = dict(x=xs, top=tops, width=[width] * len(xs), tip=tips)
            bar = self.bars[seat]
            bar.visible = True
            colour = PLAYER_COLOURS.get(report.colours[seat], NO_PLAYER)
            bar.glyph.fill_color = colour
            self._legend_items[seat].label = value(name)
            self._legend_items[seat].visible = True
        for seat in range(n, MAX_SEATS):
            self._legend_items[seat].visible = False
        fig = self._figure
        fig.x_range.start = start - step * 0.5
        fig.x_range.end = start + (high - start) // step * step + step * 1.5
        fig.y_range.end = top * 1.15
        fig.xaxis.axis_label = tr(lang, "odds.hist.x")
        fig.yaxis.axis_label = tr(lang, "odds.hist.y")
        fig.title.text = tr(lang, "odds.hist.title")
        self.chart.visible = True

    def _louqsor_text(self, report: OddsReport, lang: str) -> str:
        if report.louqsor_stall is None:
            return ""
        stall_id = next(st.id for st in R.STALLS if st.name == report.louqsor_stall)
        denominator = R.roll_count(R.dice_rolled(stall_id))
        colours = report.colours
        parts = []
        if report.louqsor_chances:
            chances = Chances(stall_id, tuple(sorted(report.louqsor_chances.items())), denominator)
            message = Message.of("odds.louqsor.chances", stall=StallName(stall_id), chances=chances)
            parts.append(render(message, colours, lang))
        if report.louqsor_exact is not None and report.louqsor_sampled is not None:
            parts.append(
                tr(
                    lang,
                    "odds.louqsor.option",
                    option=report.option,
                    exact=format_probability(report.louqsor_exact, denominator, lang),
                    sampled=_percent(report.louqsor_sampled),
                )
            )
        shown = "".join(f"<div style='font-size:13px;margin:2px 0'>{esc(p)}</div>" for p in parts)
        return link_rule_ids(shown, lang)

    def _note(self, text: str, colour: str = TEXT_NOTE) -> str:
        note = f"<div style='font-size:12px;color:{colour}'>{esc(text)}</div>"
        return link_rule_ids(note, self.session.lang)

    def _show_status(self, key: str, **params) -> None:
        self.status.object = self._note(tr(self.session.lang, key, **params))

    def _refresh_labels(self) -> None:
        lang = self.session.lang
        self._title.object = f"<h3 style='margin:4px 0'>{esc(tr(lang, 'odds.title'))}</h3>"
        self._explain.object = self._note(tr(lang, "odds.explain"))
        self.playouts.name = tr(lang, "odds.playouts")
        self.bot_select.name = tr(lang, "odds.bots")
        self.bot_select.param.update(
            options={seat_kind_label(lang, kind): kind for kind in ODDS_BOTS},
            value=self.bot_select.value or DEFAULT_BOTS,
        )
        self.run_button.name = tr(lang, "odds.run")
        self.stop_button.name = tr(lang, "odds.cancel")
        self._refresh_what_if()

    def _refresh_what_if(self) -> None:
        """The "what if" menu: the position as it is, or one of the decider's options."""
        state, lang = self.session.state, self.session.lang
        options = {tr(lang, "odds.what_if.none"): AS_IT_IS}
        for option in state.legal_options():
            options[describe_option(state, option, lang)] = option
        value = self.what_if.value
        self.what_if.name = tr(lang, "odds.what_if")
        self.what_if.param.update(
            options=options, value=value if value in options.values() else AS_IT_IS
        )

    # ------------------------------------------------------------------ following the game
    @guarded
    def _on_change(self, *_):
        if not self.active:
            self._stale_menu = True
            return
        self._refresh_what_if()
        if self.report is not None and not self.running:
            self._show()  # marks the report stale once the game has moved on

    @param.depends("active", watch=True)
    @guarded
    def _on_active(self):
        if self.active and self._stale_menu:
            self._stale_menu = False
            self._refresh_what_if()
        if self.active and self.report is not None and not self.running:
            self._show()

    @guarded
    def _on_lang(self, *_):
        self._refresh_labels()
        if not self.running:
            self._show()

    # for tests
    @property
    def stale(self) -> bool:
        return self.report is not None and self._state is not self.session.state


def _percent(share: float) -> str:
    value = share * 100
    return f"{value:.1f}" if 0 < value < 10 else f"{value:.0f}"
