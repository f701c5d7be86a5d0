"""The log: what happened and why, newest first, each entry with its turn and its rule ID.

The entries are the engine's explanations (``explain.describe_event`` over ``state.log``, as
``explain.narrate`` does). The filters work on the events' own data (``seat``, ``partner``, the
bidders of a closing, ``market``), and only the newest entries are put into words, so the log stays
fast in a long game.
"""

from __future__ import annotations

import panel as pn
import param

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.teaching.explain import SILENT_EVENTS, describe_event, narrate
from widgets.game.common import HTML, DeferredView, esc, guarded, swatch
from widgets.game.rules_view import link_rule_ids
from widgets.game.session import GameSession
from widgets.theme import PAPER, ROW_LINE, RULE_LINE, TEXT_FAINT, TEXT_HINT, TURN_TAG

MAX_ENTRIES = 200
ALL = -1


def involves(data: dict, seat: int) -> bool:
    """Whether an event concerns ``seat``: its actor, an exchange partner, a bidder, a scorer."""
    if data.get("seat") == seat or data.get("partner") == seat:
        return True
    if any(bidder == seat for bidder, _ in data.get("bids") or ()):
        return True
    return any(entry[0] == seat for entry in data.get("scored") or ())


def event_market(name: str, data: dict) -> int | None:
    """The market an event is about; a roll is always of Louqsor's dice (R3.7, R3.8)."""
    if name == "roll":
        return R.LOUQSOR
    return data.get("market")


def matches(name: str, data: dict, seat: int = ALL, market: int = ALL) -> bool:
    if seat != ALL and not involves(data, seat):
        return False
    return market == ALL or event_market(name, data) == market


class Log(DeferredView):
    """Every explained step of the game, newest first, filtered by player and market."""

    session = param.ClassSelector(class_=GameSession)
    max_entries = param.Integer(default=MAX_ENTRIES)
    height = param.Integer(default=420)

    def __init__(self, session: GameSession, **params):
        super().__init__(session=session, **params)
        self._title = HTML("", margin=(0, 5))
        self._player = pn.widgets.Select(width=160)
        self._market = pn.widgets.Select(width=200)
        #: How many entries are shown of how many.
        self.count = HTML("", margin=(0, 5))
        #: The entries as shown, newest first (entries gives them as data).
        self.entries_pane = HTML(
            "",
            sizing_mode="stretch_width",
            height=self.height,
            styles={"overflow-y": "auto", "border": f"1px solid {RULE_LINE}", "background": PAPER},
        )
        self._updating = False
        self._player.param.watch(self._on_filter, "value")
        self._market.param.watch(self._on_filter, "value")
        self._layout = pn.Column(
            self._title,
            pn.Row(self._player, self._market),
            self.count,
            self.entries_pane,
            sizing_mode="stretch_width",
        )
        self.refresh()
        session.param.watch(self._on_change, ["version", "lang"])

    def __panel__(self):
        return self._layout

    # for tests
    @property
    def entries(self) -> list[tuple[int, str, str]]:
        """The entries shown: (turn, rule ID, text), newest first."""
        return list(self._shown)

    def set_filter(self, seat: int = ALL, market: int = ALL) -> None:
        self._player.value = seat
        self._market.value = market

    @guarded
    def _on_filter(self, *_):
        if not self._updating:
            self._render()

    def refresh(self) -> None:
        self._stale = False  # see DeferredView
        state, lang = self.session.state, self.session.lang
        self._title.object = f"<h3 style='margin:4px 0'>{esc(tr(lang, 'panel.log.title'))}</h3>"
        everyone = tr(lang, "panel.log.all")
        players = {everyone: ALL}
        players.update({tr(lang, f"colour.{c}"): seat for seat, c in enumerate(state.colours)})
        markets = {everyone: ALL}
        markets.update({tr(lang, f"market.{name}"): m for m, name in enumerate(R.MARKETS)})
        self._updating = True
        try:
            seat, market = self._player.value, self._market.value
            self._player.name = tr(lang, "panel.log.player")
            self._market.name = tr(lang, "panel.log.market")
            self._player.options = players
            self._market.options = markets
            self._player.value = seat if seat in players.values() else ALL
            self._market.value = market if market in markets.values() else ALL
        finally:
            self._updating = False
        self._render()

    def _render(self) -> None:
        state, lang = self.session.state, self.session.lang
        seat = ALL if self._player.value is None else self._player.value
        market = ALL if self._market.value is None else self._market.value
        events = state.log or []
        shown: list[tuple[int, str, str, int]] = []
        total = 0
        for index in range(len(events) - 1, -1, -1):
            name, data = events[index]
            if name in SILENT_EVENTS or not matches(name, data, seat, market):
                continue
            total += 1
            if len(shown) >= self.max_entries:
                continue
            if name == "game_over" and state.is_over:
                # narrate() words the end with the winner line (R9.2); the end is the last event.
                text = narrate(state, lang, start=index)[0]
            else:
                text = describe_event(name, data, state.colours, lang)
            if not text:
                total -= 1
                continue
            shown.append((data.get("turn", 0), data.get("rule", ""), text, data.get("seat", -1)))
        self._shown = [(turn, rule, text) for turn, rule, text, _ in shown]
        if not total:
            count = tr(lang, "panel.log.empty")
        elif total > len(shown):
            count = tr(lang, "panel.log.some", shown=len(shown), total=total)
        else:
            count = tr(lang, "panel.log.count", total=total)
        self.count.object = f"<div style='color:{TEXT_HINT};font-size:12px'>{esc(count)}</div>"
        rows = []
        for turn, rule, text, actor in shown:
            dot = swatch(state.colours[actor], 10) if 0 <= actor < state.n else ""
            badge = (
                f"<span style='background:{TURN_TAG};color:white;border-radius:4px;"
                f"padding:0 5px;font-size:11px;margin-right:4px'>{esc(rule)}</span>"
                if rule
                else ""
            )
            when = tr(lang, "panel.log.turn", turn=turn)
            rows.append(
                f"<div style='padding:4px 6px;border-bottom:1px solid {ROW_LINE};font-size:13px'>"
                f"<span style='color:{TEXT_FAINT};font-size:11px;margin-right:6px'>{esc(when)}</span>"
                f"{badge}{dot}{esc(text)}</div>"
            )
        # every rule ID (badge and text): its title on hover, its text on click
        self.entries_pane.object = link_rule_ids("".join(rows), lang)
