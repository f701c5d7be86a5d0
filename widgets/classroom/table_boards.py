"""The class's table as BoardGameArena shows it (#28 item 7): every player's board and the
table's log, on the learner's page, the teacher's page and the projector.

- :class:`TablePlayers`: one row per seat: its colour and who holds it (a learner's name, or the
  teacher), whose decision it is (and, when it differs, whose turn), the learner's own seat
  marked; Deben, royal seals, servants in hand, gifts (how many, and on the pages with room for
  it which), and the score each would have if the game ended now (the final score once it has).
  A table: a phone's narrow column keeps its width, the projector a compact strip.
- :class:`TableLog`: every explained step of the table's game, newest first, in a box that
  scrolls, each entry with its turn, its rule ID (its title on hover, its text on click) and the
  actor's colour, as the Sandbox's log words them (``explain.describe_event``).

Every number is the engine's (``state.deben``, ``state.seals``, ``state.hand``,
``state.type_count``, ``scoring.totals``), every sentence the engine's explanation; nothing here
decides a rule.

**Cheap on every page.** A room's pages all show the same position: the players' HTML and the
log's entries are made once per position and language (and per seat names, and "you") and shared
by the pages (``SHARED_POSITIONS``). The log is sent in chunks of :data:`LOG_CHUNK` entries: a
step changes only the newest chunk's text (a few KB to each page, not the whole game's log: up
to 100 KB at a game's end); a chunk's HTML is made once per language (:func:`_chunk_html`);
the older entries go only to a page that asks for them (:class:`TableLog`). Each event is
worded once per language (``_EVENT_WORDS``).
Both views follow the page's :class:`~widgets.game.session.GameSession` (``version``, ``lang``,
``seats``): the classroom's pages call ``session.sync()`` in ``follow()`` on each change of the
room, and the views refresh there.
"""

from __future__ import annotations

import functools

import panel as pn
import param

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.scoring import totals
from nefertiti_core.teaching.explain import SILENT_EVENTS, describe_event, narrate
from nefertiti_core.teaching.words import Words
from widgets.game.common import HTML, esc, guarded
from widgets.game.position_memo import SHARED_POSITIONS, PositionMemo
from widgets.game.rules_view import link_rule_ids
from widgets.game.session import GameSession
from widgets.theme import (
    DECIDING_BACKGROUND,
    GOOD,
    NO_PLAYER,
    ON_COLOUR,
    PAPER,
    PLAYER_COLOURS,
    ROW_LINE,
    RULE_LINE,
    SWATCH_RING,
    TABLE_HEAD_LINE,
    TEXT_FAINT,
    TEXT_HINT,
    TEXT_NOTE,
    TURN_TAG,
    YOUR_TURN,
)

__all__ = ["LOG_CHUNK", "TableLog", "TablePlayers", "log_entries", "player_numbers"]

#: Log entries per chunk (one HTML pane each): a step re-sends only the newest chunk's text
#: (measured in a whole 4-player game: a full chunk of 10 is 13-16 KB with its rules' texts; 25
#: were 28-35 KB).
LOG_CHUNK = 10
#: The newest chunks a page shows at once (30 entries); the older ones are shown on request.
RECENT_CHUNKS = 3


# ---------------------------------------------------------------------- the players
def player_numbers(state, seat: int) -> dict[str, int]:
    """What a player's row shows, from the engine's state: Deben, seals, servants in hand,
    gifts (by the engine's count: a double senet counts 2, R9.1) and the score if the game
    ended now (R9.1; the final score once it has)."""
    return {
        "deben": state.deben[seat],
        "seals": state.seals[seat],
        "hand": state.hand[seat],
        "gifts": sum(state.type_count(seat, t) for t in range(len(R.GIFT_TYPES))),
        "score": totals(state)[seat],
    }


#: On a phone's width (where a projector's small print is too small to read): 14 px at least.
PHONE_CSS = """@media (max-width: 600px) {
  :host { overflow-x: auto; }
  .rp, .rp th, .rp .b, .rp .room-player-gift-names, .room-players-note, .room-players-note .nfs {
    font-size: 14px !important; }
  .rp th { overflow-wrap: anywhere; }
  .room-log-entry, .room-log-count, .room-log-entry .t, .room-log-entry .r,
  .room-log-empty { font-size: 14px !important; }
}"""

#: The players' table's look, sent once with its pane (each step sends only the table's text).
PLAYERS_CSS = f"""
.rp {{ border-collapse: collapse; width: 100%; }}
.rp thead tr {{ border-bottom: 2px solid {TABLE_HEAD_LINE}; }}
.rp th {{ text-align: right; padding: 2px 4px; font-weight: 600; color: {TEXT_NOTE};
  font-size: 0.85em; line-height: 1.15; }}
.rp th.w {{ text-align: left; padding: 2px 6px; }}
.rp td {{ text-align: right; padding: 3px 4px; font-variant-numeric: tabular-nums; }}
.rp td.room-player-who {{ text-align: left; padding: 3px 6px; overflow-wrap: anywhere;
  border-left: 5px solid {NO_PLAYER}; }}
.rp td.room-player-score {{ font-weight: 700; }}
.rp tr.room-player {{ border-bottom: 1px solid {ROW_LINE}; }}
.rp tr.room-player-deciding {{ background: {DECIDING_BACKGROUND}; }}
.rp tr.room-player-me td.room-player-who {{ font-weight: 700; }}
.rp .b {{ color: {ON_COLOUR}; border-radius: 8px; padding: 0 6px; font-size: 0.8em;
  margin-left: 4px; white-space: nowrap; font-weight: 600; }}
.rp .room-player-decides {{ background: {GOOD}; }}
.rp .room-player-turn {{ background: {TURN_TAG}; }}
.rp .room-player-you {{ background: {YOUR_TURN}; }}
.rp .dot {{ display: inline-block; width: 0.8em; height: 0.8em; border-radius: 50%;
  vertical-align: middle; margin-right: 4px; border: 1px solid {ON_COLOUR};
  box-shadow: 0 0 0 1px {SWATCH_RING}; }}
.rp.compact td.room-player-who {{ white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; width: 100%; max-width: 0; }}
.rp .mark {{ color: {GOOD}; margin-right: 3px; }}
.rp .room-player-gift-names {{ color: {TEXT_HINT}; font-size: 0.85em; line-height: 1.2;
  font-weight: 400; }}
{PHONE_CSS}
"""


def _gift_words(state, seat: int, lang: str) -> str:
    """The gifts a player holds, by type ("2 necklaces · 1 harp"); "" for none."""
    w = Words(lang, state.colours)
    parts = []
    for t in range(len(R.GIFT_TYPES)):
        count = state.type_count(seat, t)
        if count:
            double = t == R.SENET and bool(state.gifts[seat][R.K_DOUBLE_SENET])
            parts.append(w.count(t, count, double_senet=double))
    return " · ".join(parts)


def players_html(state, lang: str, holders, *, me: int | None = None, compact: bool = False) -> str:
    """Every seat's row (see the module's doc) as an HTML table (styled by
    :data:`PLAYERS_CSS`); ``holders``: who holds each seat, in words; ``me``: the page's own
    seat (marked); ``compact``: the projector's strip (one line a seat: no gift names, the
    deciding seat marked by its row alone)."""
    over = state.is_over
    heads = "".join(
        f"<th class='room-players-{key}'>{esc(tr(lang, f'room.boards.{key}'))}</th>"
        for key in ("deben", "seals", "hand", "gifts", "score")
    )
    rows = []
    for seat in range(state.n):
        colour = state.colours[seat]
        tint = PLAYER_COLOURS.get(colour, NO_PLAYER)
        deciding = not over and seat == state.decider
        badges = []
        if deciding:
            if not compact:  # the strip marks the row (the banner says who decides)
                badges.append(("panel.players.decides", "room-player-decides"))
        elif not over and seat == state.turn_player:
            badges.append(("panel.players.turn", "room-player-turn"))
        if seat == me:
            badges.append(("room.boards.you", "room-player-you"))
        holder = holders[seat] if seat < len(holders) and holders[seat] else ""
        tags = "".join(f"<span class='b {css}'>{esc(tr(lang, key))}</span>" for key, css in badges)
        held = f" · <span class='room-player-holder'>{esc(holder)}</span>" if holder else ""
        # on the strip's one line the marks come first: a long name is cut, not them
        who = (
            ("<span class='mark'>\u25b6</span>" if deciding and compact else "")
            + f"<span class='dot' style='background:{tint}'></span>"
            + f"<b>{esc(tr(lang, f'colour.{colour}'))}</b>"
            + (tags + held if compact else held + tags)
        )
        gifts = "" if compact else _gift_words(state, seat, lang)
        if gifts:
            who += f"<div class='room-player-gift-names'>{esc(gifts)}</div>"
        numbers = player_numbers(state, seat)
        cells = "".join(
            f"<td class='room-player-{key}'>{value}</td>" for key, value in numbers.items()
        )
        data = " ".join(f"data-{key}='{value}'" for key, value in numbers.items())
        marks = " room-player-deciding" if deciding else ""
        marks += " room-player-me" if seat == me else ""
        rows.append(
            f"<tr class='room-player{marks}' data-seat='{seat}' data-colour='{esc(colour)}' "
            f"{data}><td class='room-player-who' style='border-left-color:{tint}'>{who}</td>"
            f"{cells}</tr>"
        )
    title = esc(tr(lang, "panel.players.title"))
    return (
        f"<table class='rp{' compact' if compact else ''}' style='font-size:{14 if compact else 13}px'"
        f" aria-label='{title}'>"
        f"<thead><tr><th class='w'>{title}</th>{heads}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


@functools.lru_cache(maxsize=16)
def _score_note(lang: str, over: bool) -> str:
    """What the score column counts, with its rule (R9.1: its text on click)."""
    key = "room.boards.note_final" if over else "room.boards.note"
    return link_rule_ids(
        f"<div class='room-players-note' style='color:{TEXT_FAINT};font-size:11px'>"
        f"{esc(tr(lang, key))}</div>",
        lang,
    )


class TablePlayers(pn.viewable.Viewer):
    """Every player's board at the table (:func:`players_html`), following the page's session.

    ``compact``: the projector's strip (and no note under it). The learner's own seat is marked
    (a :class:`~widgets.classroom.table.TableSession`'s ``person()``). The pane ``pane`` shows
    it (``.room-players``; each row ``.room-player[data-colour]`` carries its numbers as data);
    ``note`` what the score counts (its rule linked: sent again only with the language)."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(self, session: GameSession, *, compact: bool = False, **params):
        super().__init__(session=session, **params)
        self.compact = compact
        self.pane = HTML(
            "",
            sizing_mode="stretch_width",
            margin=(4, 5, 0, 5),
            css_classes=["room-players"],
            stylesheets=[PLAYERS_CSS],
        )
        self.note = HTML(
            "",
            sizing_mode="stretch_width",
            margin=(0, 5),
            visible=not compact,
            stylesheets=[PHONE_CSS],
        )
        self._layout = pn.Column(self.pane, self.note, sizing_mode="stretch_width", margin=0)
        self.refresh()
        session.param.watch(self._on_change, ["version", "lang", "seats"])

    def __panel__(self):
        return self._layout

    def _me(self) -> int | None:
        person_of = getattr(self.session, "person", None)
        person = person_of() if person_of is not None else None
        return getattr(person, "seat", None)

    @guarded
    def _on_change(self, *_):
        self.refresh()

    def refresh(self) -> None:
        session = self.session
        state, lang, me = session.state, session.lang, self._me()
        holders = tuple(session.seats)
        key = ("class-players", lang, holders, me, self.compact)
        text = SHARED_POSITIONS.get(
            state,
            key,
            lambda: players_html(state, lang, holders, me=me, compact=self.compact),
        )
        if self.pane.object != text:
            self.pane.object = text
        note = "" if self.compact else _score_note(lang, state.is_over)
        if self.note.object != note:
            self.note.object = note


# ---------------------------------------------------------------------- the log
def log_entries(state, lang: str) -> tuple[tuple[int, str, str, int], ...]:
    """The explained steps of ``state``'s game, oldest first: (turn, rule ID, text, actor seat
    or -1), the engine's words (as the Sandbox's log: ``describe_event``; the end with the
    winner line, ``narrate``)."""
    events = state.log or []
    colours = tuple(state.colours)
    out = []
    for index, event in enumerate(events):
        name, data = event
        if name in SILENT_EVENTS:
            continue
        if name == "game_over" and state.is_over:
            text = narrate(state, lang, start=index)[0]
            entry = (data.get("turn", 0), data.get("rule", ""), text, data.get("seat", -1))
        else:  # an event is worded once (each position's log holds the earlier ones' objects)
            entry = _EVENT_WORDS.get(
                event, (lang, colours), lambda e=event: _entry(e, colours, lang)
            )
        if entry[2]:
            out.append(entry)
    return tuple(out)


def _entry(event, colours, lang: str) -> tuple[int, str, str, int]:
    name, data = event
    text = describe_event(name, data, colours, lang) or ""
    return (data.get("turn", 0), data.get("rule", ""), text, data.get("seat", -1))


#: Each event's words, by the event object (a game's states share their earlier events: the
#: log is copied, its events never change) and language: a step words only its new events.
_EVENT_WORDS = PositionMemo(size=8192)


#: A log entry's look, sent once with each chunk's pane.
LOG_CSS = f"""
.room-log-entry {{ padding: 4px 6px; border-bottom: 1px solid {ROW_LINE}; font-size: 13px;
  line-height: 1.35; }}
.room-log-count {{ color: {TEXT_HINT}; font-size: 12px; padding: 2px 6px; }}
.room-log-entry .t {{ color: {TEXT_FAINT}; font-size: 11px; margin-right: 6px; }}
.room-log-entry .r {{ background: {TURN_TAG}; color: {ON_COLOUR}; border-radius: 4px;
  padding: 0 5px; font-size: 11px; margin-right: 4px; }}
.room-log-entry .dot {{ display: inline-block; width: 10px; height: 10px; border-radius: 50%;
  vertical-align: middle; margin-right: 4px; border: 1px solid {ON_COLOUR};
  box-shadow: 0 0 0 1px {SWATCH_RING}; }}
{PHONE_CSS}
"""


@functools.lru_cache(maxsize=512)
def _chunk_html(lang: str, colours: tuple, first: int, entries: tuple) -> str:
    """One chunk of the log, newest first (``first``: the index of its oldest entry)."""
    rows = []
    for offset in range(len(entries) - 1, -1, -1):
        turn, rule, text, actor = entries[offset]
        tint = PLAYER_COLOURS.get(colours[actor], NO_PLAYER) if 0 <= actor < len(colours) else ""
        dot = f"<span class='dot' style='background:{tint}'></span>" if tint else ""
        badge = f"<span class='r'>{esc(rule)}</span>" if rule else ""
        when = esc(tr(lang, "panel.log.turn", turn=turn))
        rows.append(
            f"<div class='room-log-entry' data-index='{first + offset}'>"
            f"<span class='t'>{when}</span>{badge}{dot}{esc(text)}</div>"
        )
    return link_rule_ids("".join(rows), lang)


def _log_chunks(state, lang: str) -> tuple[tuple[int, str], ...]:
    """The log's chunks, oldest first: (how many entries, HTML); the newest (shown on top) opens
    with how many entries the log holds (it changes with every step anyway: no other pane's
    text needs sending for the count)."""
    entries = log_entries(state, lang)
    colours = tuple(state.colours)
    chunks = [
        (len(entries[i : i + LOG_CHUNK]), _chunk_html(lang, colours, i, entries[i : i + LOG_CHUNK]))
        for i in range(0, len(entries), LOG_CHUNK)
    ]
    if chunks:
        n, text = chunks[-1]
        count = esc(tr(lang, "panel.log.count", total=len(entries)))
        chunks[-1] = (
            n,
            f"<div class='room-log-count' data-count='{len(entries)}'>{count}</div>{text}",
        )
    return tuple(chunks)


class TableLog(pn.viewable.Viewer):
    """The table's log (see the module's doc): a title, and the entries newest first in a box
    that scrolls: the newest :data:`RECENT_CHUNKS` chunks in ``recent`` (the top one opens with
    how many entries the log holds), then, on the pages that may ask for them, the button
    ``earlier_button`` ("Earlier steps (N)") that shows every older entry in ``earlier``.

    The panes are made with the view, never later: a step sets the top pane's text; when a
    chunk is full the texts move down one pane (a new model in a page's document would make
    Bokeh walk all its models, and making a pane costs a millisecond: 30 pages of a class each
    making one per chunk cost more than the rest of the log). The older entries are sent only to
    a page that asked for them.

    ``max_height``: the box's (CSS); ``fill``: the log takes what room its column has left
    (the column has a height; the box scrolls in what is left, down to nothing); ``earlier``:
    offer the older entries (False: the projector, which has no control); ``visible``: shown at
    first (then :attr:`visible`)."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(
        self,
        session: GameSession,
        *,
        max_height: str = "320px",
        fill: bool = False,
        earlier: bool = True,
        visible: bool = True,
        **params,
    ):
        super().__init__(session=session, **params)
        filling = {"flex": "1 1 0", "min-height": "0"}
        self.title = HTML(
            "", sizing_mode="stretch_width", margin=(2, 5), css_classes=["room-log-title"]
        )
        self.recent = [
            HTML("", sizing_mode="stretch_width", margin=0, visible=False, stylesheets=[LOG_CSS])
            for _ in range(RECENT_CHUNKS)
        ]
        self.earlier_button = pn.widgets.Toggle(
            color="light",
            sizing_mode="stretch_width",
            margin=(4, 5),
            visible=False,
            css_classes=["room-log-earlier-button"],
        )
        self.earlier = HTML(
            "",
            sizing_mode="stretch_width",
            margin=0,
            visible=False,
            stylesheets=[LOG_CSS],
            css_classes=["room-log-earlier"],
        )
        self._offer_earlier = earlier
        self.box = pn.Column(
            *self.recent,
            *((self.earlier_button, self.earlier) if earlier else ()),
            sizing_mode="stretch_width",
            margin=(0, 5),
            css_classes=["room-log"],
            styles={
                "overflow-y": "auto",
                "border": f"1px solid {RULE_LINE}",
                "background": PAPER,
                "border-radius": "4px",
                **(filling if fill else {"max-height": max_height}),
            },
        )
        self._layout = pn.Column(
            self.title,
            self.box,
            sizing_mode="stretch_width",
            margin=(4, 0),
            styles=filling if fill else {},
            css_classes=["room-log-section"],
            visible=visible,
        )
        self.refresh()
        session.param.watch(self._on_change, ["version", "lang"])
        self.earlier_button.param.watch(self._on_change, ["value"])

    def __panel__(self):
        return self._layout

    @guarded
    def _on_change(self, *_):
        self.refresh()

    @property
    def visible(self) -> bool:
        """Whether the page shows the log (the projector hides it while a question is up)."""
        return self._layout.visible

    @visible.setter
    def visible(self, shown: bool) -> None:
        if self._layout.visible != shown:
            self._layout.visible = shown

    @property
    def count(self) -> int:
        """How many entries the log holds."""
        return sum(n for n, _ in self._last)

    def show_earlier(self, shown: bool = True) -> None:
        """What the "Earlier steps" button does."""
        self.earlier_button.value = shown

    def refresh(self) -> None:
        state, lang = self.session.state, self.session.lang
        chunks = SHARED_POSITIONS.get(state, ("class-log", lang), lambda: _log_chunks(state, lang))
        self._last = chunks
        empty = "" if chunks else f" · {tr(lang, 'panel.log.empty')}"
        title = (
            f"<b style='font-size:15px'>{esc(tr(lang, 'panel.log.title'))}</b>"
            f"<span style='color:{TEXT_HINT};font-size:12px'>{esc(empty)}</span>"
        )
        if self.title.object != title:  # the language (how many: in the newest chunk)
            self.title.object = title
        for k, pane in enumerate(self.recent):  # the newest chunk on top
            index = len(chunks) - 1 - k
            _set(pane, chunks[index][1] if index >= 0 else "")
        older = chunks[: max(0, len(chunks) - RECENT_CHUNKS)]
        if self._offer_earlier:
            n = sum(count for count, _ in older)
            if n:
                opened = self.earlier_button.value
                name = ("\u25be " if opened else "\u25b8 ") + tr(lang, "room.boards.earlier", n=n)
                if self.earlier_button.name != name or not self.earlier_button.visible:
                    self.earlier_button.param.update(name=name, visible=True)
            else:  # hidden, and named in the page's language (axe's button-name rule)
                name = tr(lang, "room.boards.earlier", n=0)
                if self.earlier_button.name != name or self.earlier_button.visible:
                    self.earlier_button.param.update(name=name, visible=False)
            text = ""
            if older and self.earlier_button.value:  # sent only to a page that asked
                text = SHARED_POSITIONS.get(
                    state,
                    ("class-log-earlier", lang),
                    lambda: "".join(html for _, html in reversed(older)),
                )
            _set(self.earlier, text)
        if self.box.visible != bool(chunks):
            self.box.visible = bool(chunks)


def _set(pane: HTML, text: str) -> None:
    """A pane's text, and shown when it has one (set only what changed: each is sent)."""
    if pane.object != text:
        pane.object = text
    if pane.visible != bool(text):
        pane.visible = bool(text)
