"""The board: the four markets as a Bokeh figure you can click.

The figure and its data sources are built once; every change of the game only replaces the
sources' data (no figure is rebuilt, so nothing flickers and the page stays fast). A click on an
empty square places the deciding player's servant when that is a legal option (drawn as soon as
the button is pressed, played when it is released on the same square: CLICKS_JS); a click on a
card buys it, or takes it for the Chief, when that is the decision at hand. Everything shown comes
from the engine: the legal options, each stall's closing status (``nefertiti_core.teaching.status``), the
names in the chosen language.
"""

from __future__ import annotations

import json
import logging
import math
import numbers
import re

import panel as pn
import param
from bokeh.core.properties import value
from bokeh.events import MouseEnter, MouseLeave, MouseMove
from bokeh.models import ColumnDataSource, CustomJS, Label
from bokeh.plotting import figure
from panel.io import hold

from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.squares import square_name
from nefertiti_core.engine.state import OPEN, P_BID, P_CHIEF, P_TAKE
from nefertiti_core.files.announce import last_step_place
from nefertiti_core.teaching.status import DEAD, describe_status, stall_status
from widgets.game import geometry as G
from widgets.game.board_keys import BoardKeys
from widgets.game.position_memo import SHARED_POSITIONS
from widgets.game.session import GameSession
from widgets.theme import (
    BAD,
    BOARD_BACKGROUND,
    CARD_COLOURS,
    CARD_LINE,
    CLOSED_SQUARE,
    CLOSING_LINE,
    EMPTY_FILL,
    FONT_STACK,
    INK,
    INK_DARK,
    NO_PLAYER_SEAL,
    ON_COLOUR,
    PAPER,
    PLAYABLE_LINE,
    PLAYER_COLOURS,
    REGION_FILL,
    REGION_LINE,
    SEAL_FILL,
    SEAL_LINE,
    SQUARE_LINE,
)

log = logging.getLogger("widgets")

#: A click on the board, handled in the browser (installed once per drawn canvas on its events
#: element): a press on a square that the server said is a legal placement draws the decider's
#: servant at once, before the button is even released (as a pressed button shows at once); a
#: release on the same square (or, off the squares, near the press) is the click, sent to the
#: server through ``board-clicks``, which plays it and whose update replaces the drawn data; a
#: release elsewhere, or a cancelled pointer, takes the drawn servant back. The drawn servant is
#: not sent (``sync: false``); a click the server refused is drawn again from its data (see
#: ``Board._redraw``). One placement per list: the list is cleared until the server sends the
#: next. Bokeh's own Tap is not used: it fires only for a press shorter than 0.3 s (a slower
#: press, common on a touch screen or a projector's pointer, was lost) and turns a quick second
#: click into a DoubleTap.
#: What both scripts below need: a source's column, and which square (of the columns xs, ys of
#: square centres) a point in data coordinates falls on, -1 if none.
SQUARES_JS = """
const half = SQUARE / 2;
const col = (src, key) => (src.data instanceof Map ? src.data.get(key) : src.data[key]);
const within = (p, xs, ys) => {
    for (let i = 0; i < xs.length; i++) {
        if (Math.abs(p.x - xs[i]) <= half && Math.abs(p.y - ys[i]) <= half) return i;
    }
    return -1;
};
"""

CLICKS_JS = (
    SQUARES_JS
    + """
// Every view of the figure gets the listeners once. On a pointer move (this runs on each) a
// quick check suffices; when the figure is laid out (cb_obj is the figure), all its views are
// looked at, so a new one gets them too.
const known = fig.__nefertitiEvents ?? [];
if (cb_obj !== fig && known.length > 0 && known.every((el) => el.isConnected)) return;
const views = [...Bokeh.index.find(fig)];
fig.__nefertitiEvents = views.map((view) => view.canvas_view.events_el);
const NEAR = 8;  // px: off the squares, a release this close to the press is a click
const COLUMNS = LEGAL_COLUMNS_JS;  // a drawn servant's columns (the server's LEGAL_COLUMNS)
const copy = (src) => (src.data instanceof Map ? new Map(src.data) : {...src.data});
const put = (data, key, value) => { if (data instanceof Map) data.set(key, value); else data[key] = value; };
for (const view of views) {
    const el = view.canvas_view.events_el;
    if (el.__nefertitiClicks) continue;
    el.__nefertitiClicks = true;
    const at = (ev) => {
        const box = el.getBoundingClientRect();
        const sx = ev.clientX - box.left, sy = ev.clientY - box.top;
        return {sx, sy, x: view.frame.x_scale.invert(sx), y: view.frame.y_scale.invert(sy)};
    };
    let press = null;
    const end = () => {  // the press is over: stop listening for its release
        window.removeEventListener("pointerup", release, true);
        window.removeEventListener("pointercancel", release, true);
        press = null;
    };
    const takeBack = () => {  // not a click after all (unless the server sent new data since)
        if (press.saved !== null && servants.data === press.drawn) {
            servants.setv({data: press.saved[0]}, {sync: false});
            legal.setv({data: press.saved[1]}, {sync: false});
        }
    };
    const release = (ev) => {
        if (press === null || ev.pointerId !== press.id) return;
        if (window.__nefertitiOffline) { takeBack(); end(); return; }  // lost while pressed
        const p = at(ev);
        const square = within(p, col(tips, "x"), col(tips, "y"));
        const same = press.square >= 0 ? square === press.square
            : square < 0 && Math.hypot(p.sx - press.p.sx, p.sy - press.p.sy) <= NEAR;
        if (ev.type === "pointerup" && same) {
            const n = (Array.from(col(clicks, "n"))[0] ?? 0) + 1;
            clicks.data = {x: [p.x], y: [p.y], n: [n]};  // sent: the server plays the click
        } else {
            takeBack();
        }
        end();
    };
    el.addEventListener("pointerdown", (ev) => {
        if (!ev.isPrimary || ev.button !== 0) return;
        // The server's connection is lost (widgets/game/reconnect.py, RECONNECT_JS): nothing is drawn, since
        // nothing would be played.
        if (window.__nefertitiOffline) return;
        if (press !== null) { takeBack(); end(); }  // a release the page never saw
        const p = at(ev);
        press = {id: ev.pointerId, p, square: within(p, col(tips, "x"), col(tips, "y")), saved: null};
        window.addEventListener("pointerup", release, true);
        window.addEventListener("pointercancel", release, true);
        const i = within(p, col(legal, "x"), col(legal, "y"));
        if (i < 0) return;
        press.saved = [copy(servants), copy(legal)];
        const drawn = copy(servants);
        for (const key of COLUMNS) {
            const column = Array.from(col(servants, key));
            column.push(col(legal, key)[i]);
            put(drawn, key, column);
        }
        servants.setv({data: drawn}, {sync: false});
        press.drawn = servants.data;
        const none = copy(legal);
        for (const key of COLUMNS) put(none, key, []);
        legal.setv({data: none}, {sync: false});
    });
}
"""
)

#: A square's note (its number and value, "closes here" when it would close the stall) beside the
#: pointer, drawn on the canvas's overlay layer. Bokeh's HoverTool does the same with an HTML
#: tooltip, but it re-inspects and re-positions it (a forced layout of the whole page) on every
#: repaint and pointer move: 10-20 ms that a click on the board waited behind.
HOVER_JS = (
    SQUARES_JS
    + """
const xs = col(tips, "x"), ys = col(tips, "y"), notes = col(tips, "tip");
const hit = cb_obj.event_name === "mousemove" ? within(cb_obj, xs, ys) : -1;
if (hit < 0) {
    if (label.visible) label.setv({visible: false}, {sync: false});
    return;
}
const left = xs[hit] > WIDTH - 6;  // near the right edge: open to the left
const x = left ? xs[hit] - half : xs[hit] + half;
const anchor = left ? "bottom_right" : "bottom_left";
if (label.visible && label.text === notes[hit] && label.x === x && label.y === ys[hit] + half) return;
label.setv({x, y: ys[hit] + half, text: notes[hit], anchor, visible: true}, {sync: false});
"""
)

#: A board that fits its container (``fit=True``, the served Sandbox): the browser tells the
#: server the width it drew the canvas at, when it differs from the last one told by more than a
#: few pixels (a window resized, a projector's screen), so that texts are wrapped and sized for
#: that width.
SIZE_JS = """
const w = Math.round(fig.inner_width);
const col = (src, key) => (src.data instanceof Map ? src.data.get(key) : src.data[key]);
const told = Array.from(col(size, "w") ?? [])[0] ?? 0;
if (w > 0 && Math.abs(w - told) > 6) size.data = {w: [w]};
"""
#: fit with ``max_height``: the board's box is kept no higher than the window below where the
#: board starts (what is above it, the banner and the last step, grows and shrinks as the game
#: goes), so that the whole board is in view without scrolling. Installed once per drawn board;
#: it watches the window's size and the parts above the board (their heights). Where the board
#: starts below the first screen (a notebook), the CSS limit (``max_height``) alone applies.
HEIGHT_JS = """
const RATIO = ratio, GAP = 8, LEAST = 320;
for (const view of Bokeh.index.find(fig)) {
    let box = view.el;  // up to the board's own box (across shadow roots)
    while (box && !(box.classList && box.classList.contains("nefertiti-board"))) {
        box = box.parentElement ?? box.getRootNode().host;
    }
    if (!box || box.__nefertitiFits) continue;
    box.__nefertitiFits = true;
    const fit = () => {
        const top = box.getBoundingClientRect().top + window.scrollY;
        const room = window.innerHeight - top - GAP;
        const limit = room >= LEAST ? `${Math.floor(room * RATIO)}px` : "";
        if (box.style.maxWidth !== limit) box.style.maxWidth = limit;
    };
    window.addEventListener("resize", fit);
    const watch = new ResizeObserver(fit);
    for (let el = box.previousElementSibling; el; el = el.previousElementSibling) watch.observe(el);
    fit();
}
"""
#: The width the board's fonts are drawn for (at another width they scale with it, within
#: FONT_SCALE).
FONT_BASE_WIDTH = 860
FONT_SCALE = (0.8, 1.6)
LAST_LINE_WIDTH = 4  # the outline of the last step's square or market

#: A drawn servant: where, its player's colour and letter, and the bid of the square it is on.
LEGAL_COLUMNS = ("x", "y", "colour", "who", "letter", "bid")
#: The status lines under each market (and the board's other texts: a reserve, a market closed,
#: the dice): never smaller than 12 px on a board drawn at least BOARD_TEXT_MIN_WIDTH wide (a
#: desktop, a projector's 1024 pixels), so that they can be read from a projector's back row;
#: they scale with the board's width above that. A narrower board (a phone, held close) scales
#: them down with it, as before: at 12 px they would not fit its markets.
HINT_FONT_PX = 12
HINT_MIN_PX = 12
BOARD_TEXT_MIN_WIDTH = 600
#: A market's outline is drawn this far (board units) inside its region, so that the outer
#: markets' outlines are not cut in half at the canvas's edges.
REGION_INSET = 0.06
#: A servant's disc covers most of its square (and the square's own number): the square's bid is
#: written on the disc instead, under the letter, in white (4.5:1 or more on every player's
#: colour: tests/test_theme_contrast.py), so that the bids under the servants can be added up.
SERVANT_RADIUS = 0.41
#: A servant's letter (its player's initial, ``colour.mark.*``), in board units: colour is never
#: the only sign of whose it is (WCAG 1.4.1; tests/browser/test_colour_vision.py).
SERVANT_LETTER = 0.3
#: The square's bid on the servant, in board units, and how far the letter sits above the
#: disc's centre and the bid below it.
SERVANT_BID = 0.34
SERVANT_LINE_OFFSET = 0.17
#: The outlines of the squares a placement may take (solid) and of those that would close their
#: market (dashed, and thicker): they differ in pattern as well as in hue.
PLAYABLE_DASH = "solid"
CLOSING_DASH = [6, 3]


def _wide(char: str) -> bool:
    return "\u2e80" <= char <= "\uffef"  # CJK and full-width forms: about one em wide


def text_width(text: str, font_px: float) -> float:
    """About how wide ``text`` is drawn at ``font_px`` (Latin letters about 0.56 em)."""
    return sum(font_px if _wide(c) else 0.56 * font_px for c in text)


def _fit(word: str, room: float, font_px: float) -> int:
    """How many leading characters of ``word`` fit in ``room`` pixels (at least one)."""
    used, count = 0.0, 0
    for char in word:
        used += font_px if _wide(char) else 0.56 * font_px
        if used > room:
            break
        count += 1
    return max(1, count)


#: A soft hyphen (U+00AD) in a catalog's card name: where the word breaks first on a board.
SOFT_HYPHEN = "\u00ad"
_VOWELS = set("aeiouyäöüAEIOUYÄÖÜéè")
#: Letters a break never splits; a syllable starts before them ("Zu-cker", "Bü-cher").
_KEPT_TOGETHER = ("ch", "ck", "ph", "th", "qu")


def _break_before(word: str, fits: int) -> int | None:
    """Where to break a Latin-script ``word`` too long for a line, between syllables: the
    last place within the first ``fits`` characters (one kept for the hyphen) just after a
    hyphen, or before the consonant that starts a syllable (the last consonant before a vowel;
    "sch", "ch", "ck", "ph", "th" kept whole; the word's own hyphen preferred), with at least
    two letters on each side:
    "Hals-ket-te", "Spie-gel", "Sta-tu-et-te", "neck-lace", "mir-ror". None if there is no
    such place (the caller then cuts the word in even pieces)."""
    best = hyphen = None
    for j in range(2, len(word) - 1):
        if word[j - 1] in ("-", SOFT_HYPHEN):
            if j < fits:
                hyphen = j  # the word's own hyphen first: "Doppel-/Senet"
            continue
        if word[j].isalpha() and word[j] not in _VOWELS and word[j + 1] in _VOWELS:
            at = j
            if word[j - 2 : j + 1].lower() == "sch":
                at = j - 2
            elif word[j - 3 : j].lower() == "sch" and word[j] in "lmnrw":
                at = j - 3  # "Gold-schmie-de": schl, schm, schn, schr, schw begin a syllable
            elif word[j - 1 : j + 1].lower() in _KEPT_TOGETHER:
                at = j - 1
        else:
            continue
        if 2 <= at < fits and len(word) - at >= 2:
            best = at
    return hyphen if hyphen is not None else best


#: The pieces a word with Chinese characters breaks between: each Chinese character alone, a
#: run of Latin letters or digits whole (Chinese has no spaces, a Latin word inside it does).
_UNITS = re.compile(r"[\u2e80-\uffef]|[^\u2e80-\uffef]+")


def wrap_text(text: str, room: float, font_px: float, max_lines: int) -> list[str]:
    """``text`` in lines no wider than ``room`` pixels: broken between words, a word too long
    for a line hyphenated (Chinese, which has no spaces, is broken between its characters, a
    Latin word inside it kept whole: "双/senet", never "双se/net"; a soft hyphen in a
    word is where it breaks first, and is not shown where it does not); at most
    ``max_lines``, the last one ending in "…" when something is left out."""
    if SOFT_HYPHEN in text and text_width(text.replace(SOFT_HYPHEN, ""), font_px) <= room:
        return [text.replace(SOFT_HYPHEN, "")]
    words = text.split() if " " in text.strip() else [text.strip()]
    lines: list[str] = []
    line = ""
    while words:
        word = words.pop(0)
        candidate = f"{line} {word}" if line else word
        if text_width(candidate, font_px) <= room:
            line = candidate
            continue
        if line:
            lines.append(line)
            line = ""
            words.insert(0, word)
            continue
        # a word wider than a whole line: break it
        cjk = any(_wide(c) for c in word)
        units = _UNITS.findall(word) if cjk else []
        if len(units) > 1:  # Chinese with a Latin word inside ("双senet"): never inside "senet"
            head = ""
            while units and text_width(head + units[0], font_px) <= room:
                head += units.pop(0)
            if head:
                lines.append(head)
                words.insert(0, "".join(units))
            else:  # a Latin word alone wider than the line: broken as Latin words are
                words[0:0] = [units[0], "".join(units[1:])]
            continue
        keep = _fit(word, room - (0 if cjk else 0.56 * font_px), font_px)
        at = None if cjk else _break_before(word, keep)
        if at is not None:  # between syllables: "Hals-kette", "Spie-gel", "neck-lace"
            head = word[:at].removesuffix(SOFT_HYPHEN)
            lines.append(head + ("" if head.endswith("-") else "-"))
            words.insert(0, word[at:])
            continue
        pieces = -(-len(word) // keep)
        keep = -(-len(word) // pieces)  # even pieces: "neck-lace", not "neckla-ce"
        if word[keep - 1 : keep] == "-" or word[keep : keep + 1] == "-":
            keep += word[keep : keep + 1] == "-"  # the word's own hyphen ends the line
            lines.append(word[:keep])
        else:
            lines.append(word[:keep] + ("" if cjk else "-"))
        words.insert(0, word[keep:])
    if line:
        lines.append(line)
    lines = [each.replace(SOFT_HYPHEN, "") for each in lines]
    if len(lines) > max_lines:
        last = lines[max_lines - 1]
        keep = _fit(last, room - font_px, font_px)
        lines = lines[: max_lines - 1] + [last[:keep].rstrip("-") + "\u2026"]
    return lines


def _hint_line(words: str, lang: str) -> str:
    """The status sentence that says what closes the stall now.

    The status reads: which stall, its rule, how far it is, which squares close it, ...; the
    second-to-last sentence is the one about squares (wrapped to the market's width when drawn).
    """
    sentences = [s for s in re.split(r"(?<=[.。])\s*", words) if s.strip()]
    line = sentences[-2] if len(sentences) >= 2 else words
    return line.rstrip(".")


#: A card whose name is too long for a card on the board, even over three lines, carries a
#: shorter one there ("Goldschmiedearbeit" came out as "Gold-/schmi-/edear…"); its full name is
#: in every text and hover.
BOARD_LABELS = {"gold": "card.board.gold"}


class Board(pn.viewable.Viewer):
    """The live board of one :class:`GameSession`."""

    session = param.ClassSelector(class_=GameSession)
    width = param.Integer(default=900)
    on_square = param.Callable(
        default=None,
        doc="If set, a click on a square calls this with the square (an exercise's answer) "
        "instead of playing it",
    )
    fit = param.Boolean(
        default=False,
        doc="Scale to the container's width (and at most ``max_height`` CSS high), texts "
        "sized for the width drawn; else exactly ``width`` pixels wide",
    )
    max_height = param.String(
        default="", doc="With fit: a CSS height the board never exceeds, e.g. '100vh - 200px'"
    )
    fit_window = param.Boolean(
        default=False,
        doc="With fit: keep the whole board in the window below where it starts (HEIGHT_JS)",
    )
    names = param.String(
        default="board",
        doc="Its data sources' names' start ('board-servants', ...): a second board on a page "
        "(a class question's) has names of its own, for a page's script to find each",
    )
    keys = param.Boolean(
        default=False,
        doc="Lay the keyboard grid over the board (board_keys.py): its squares focusable, "
        "named for screen readers, played by Enter or Space (the boards something is played or "
        "answered on: the Sandbox's, a classroom table's, a lesson's, an exercise's answered by "
        "a square)",
    )
    shared = param.Boolean(
        default=False,
        doc="Share the drawn data with every other shared board showing the same position "
        "(a classroom's pages: computed once per move and language, not once per page)",
    )

    def __init__(self, session: GameSession, **params):
        super().__init__(session=session, **params)
        self._regions = ColumnDataSource(
            name=f"{self.names}-regions", data=dict(x=[], y=[], w=[], h=[], fill=[])
        )
        # What changes on most clicks is drawn on Bokeh's overlay layer (servants, the outlines
        # of playable and closing squares, the texts), so a placement repaints only that layer;
        # the squares, cards and regions below change only when a market closes or the
        # language changes.
        self._squares = ColumnDataSource(
            name=f"{self.names}-squares", data=dict(x=[], y=[], fill=[], label=[])
        )
        # outlined on the overlay: the squares a placement may take now, and (hints) those that
        # would close their stall
        self._playable = ColumnDataSource(name=f"{self.names}-playable", data=dict(x=[], y=[]))
        self._closing = ColumnDataSource(name=f"{self.names}-closing", data=dict(x=[], y=[]))
        # each square's note under the pointer (HOVER_JS); not drawn itself
        self._tips = ColumnDataSource(name=f"{self.names}-tips", data=dict(x=[], y=[], tip=[]))
        self._servants = ColumnDataSource(
            name=f"{self.names}-servants", data={k: [] for k in LEGAL_COLUMNS}
        )
        self._cards = ColumnDataSource(
            name=f"{self.names}-cards", data=dict(x=[], y=[], fill=[], label=[], alpha=[], size=[])
        )
        self._seals = ColumnDataSource(name=f"{self.names}-seals", data=dict(x=[], y=[]))
        self._texts = ColumnDataSource(
            name=f"{self.names}-texts", data=dict(x=[], y=[], text=[], size=[], colour=[], style=[])
        )
        # the markets' titles, drawn below (the texts above are drawn on the overlay: reserves,
        # closing hints and dice change during play)
        self._titles = ColumnDataSource(name=f"{self.names}-titles", data=dict(x=[], y=[], text=[]))
        # The squares where a click places the decider's servant now (drawn at once in the
        # browser, CLICKS_JS); not drawn itself.
        self._legal = ColumnDataSource(
            name=f"{self.names}-legal", data={k: [] for k in LEGAL_COLUMNS}
        )
        # The browser's clicks (CLICKS_JS): where, and a count so that two clicks on one spot
        # are two changes.
        self._clicks = ColumnDataSource(name=f"{self.names}-clicks", data=dict(x=[], y=[], n=[]))
        self._clicks.on_change("data", self._on_click)
        self._clicks_seen = 0  # the browser's count of the last click played
        # The last step: its square (or its market) outlined in the player's colour.
        self._last = ColumnDataSource(
            name=f"{self.names}-last", data=dict(x=[], y=[], w=[], h=[], colour=[], who=[])
        )
        # fit: the width the browser drew the board at (SIZE_JS)
        self._drawn_width = 0
        self._size = ColumnDataSource(name=f"{self.names}-size", data=dict(w=[0]))
        self._size.on_change("data", self._on_size)
        #: The Bokeh figure drawn.
        self.figure = self._build_figure()
        if self.fit:
            # The board's box keeps the board's proportions and fits the container's width and,
            # if given, a height (a projector: the decision beside it stays in view).
            ratio = G.WIDTH / G.HEIGHT
            limit = f"calc(({self.max_height}) * {ratio:.4f})" if self.max_height else "none"
            self._pane = pn.Column(
                pn.pane.Bokeh(self.figure, sizing_mode="stretch_width"),
                sizing_mode="stretch_width",
                margin=0,
                styles={"width": "100%", "max-width": limit, "margin": "0 auto"},
                css_classes=["nefertiti-board"],
            )
        else:
            self._pane = pn.pane.Bokeh(self.figure, sizing_mode="fixed")
        #: The keyboard grid over the squares (board_keys.py), None without ``keys``.
        self.board_keys = BoardKeys(self, name=f"{self.names}-keys") if self.keys else None
        if self.board_keys is not None:
            if self.fit:
                self._pane.append(self.board_keys)
                self._pane.styles = {**self._pane.styles, "position": "relative"}
            else:
                self._pane = pn.Column(
                    self._pane, self.board_keys, margin=0, styles={"position": "relative"}
                )
        #: The board's squares (geometry cells: where each is drawn, what it plays).
        self.cells: list[G.SquareCell] = []
        self._card_cells = G.cards()
        self.refresh()
        # seats: a bot's squares are not drawn at once on a click (see CLICKS_JS)
        session.param.watch(self._on_change, ["board_version", "lang", "hints", "seats"])
        self.param.watch(self._on_change, ["on_square"])

    def __panel__(self):
        return self._pane

    @property
    def sources(self) -> dict[str, ColumnDataSource]:
        """The data the browser draws, by layer name ("tips", "servants", "cards", "legal",
        "last"...), as sent to the page; the page writes a click on the board into "clicks"."""
        layers = (self._regions, self._squares, self._playable, self._closing, self._tips)
        layers += (self._servants, self._cards, self._seals, self._texts, self._titles)
        layers += (self._legal, self._clicks, self._last)
        return {source.name.removeprefix(f"{self.names}-"): source for source in layers}

    # ------------------------------------------------------------------ building (once)
    def _build_figure(self):
        height = int(self.width * G.HEIGHT / G.WIDTH)
        fig = figure(
            width=self.width,
            height=height,
            x_range=(0, G.WIDTH),
            y_range=(0, G.HEIGHT),
            toolbar_location=None,
            tools="",
            min_border=0,
            outline_line_color=None,
            background_fill_color=BOARD_BACKGROUND,
            **({"sizing_mode": "scale_width"} if self.fit else {}),
        )
        fig.axis.visible = False
        fig.grid.visible = False
        fig.rect(
            "x", "y", "w", "h", source=self._regions, fill_color="fill", line_color=REGION_LINE
        )
        fig.rect(
            "x",
            "y",
            G.SQUARE,
            G.SQUARE,
            source=self._squares,
            fill_color="fill",
            line_color=SQUARE_LINE,
        )
        fig.text(
            "x",
            "y",
            text="label",
            source=self._squares,
            text_align="center",
            text_baseline="middle",
            text_font=value(FONT_STACK),
            text_font_size="11px",
            text_color=INK,
        )
        self._square_labels = fig.renderers[-1].glyph
        fig.rect(
            "x",
            "y",
            G.CARD_W,
            G.CARD_H,
            source=self._cards,
            fill_color="fill",
            fill_alpha="alpha",
            line_color=CARD_LINE,
        )
        fig.text(
            "x",
            "y",
            text="label",
            source=self._cards,
            text_align="center",
            text_baseline="middle",
            text_font=value(FONT_STACK),
            text_font_size="size",
            text_line_height=1.05,
            text_color=INK_DARK,
        )
        fig.circle(
            "x", "y", radius=0.22, source=self._seals, fill_color=SEAL_FILL, line_color=SEAL_LINE
        )
        fig.text(
            "x",
            "y",
            text="text",
            source=self._titles,
            text_font_size="15px",
            text_color=INK,
            text_font_style="bold",
            text_baseline="middle",
            text_font=value(FONT_STACK),
        )
        self._title_glyph = fig.renderers[-1].glyph
        # --- the overlay layer: what a placement changes
        for source, colour, width, dash in (
            (self._playable, PLAYABLE_LINE, 2, PLAYABLE_DASH),
            (self._closing, CLOSING_LINE, 3, CLOSING_DASH),
        ):
            fig.rect(
                "x",
                "y",
                G.SQUARE,
                G.SQUARE,
                source=source,
                fill_color=None,
                line_color=colour,
                line_width=width,
                line_dash=dash,
                level="overlay",
            )
        fig.rect(
            "x",
            "y",
            "w",
            "h",
            source=self._last,
            fill_color=None,
            line_color="colour",
            line_width=LAST_LINE_WIDTH,
            line_dash="solid",
            level="overlay",
        )
        fig.circle(
            "x",
            "y",
            radius=SERVANT_RADIUS,
            source=self._servants,
            fill_color="colour",
            line_color="white",
            level="overlay",
        )
        fig.text(
            "x",
            "y",
            text="letter",
            source=self._servants,
            text_color=ON_COLOUR,
            text_font_style="bold",
            text_align="center",
            text_baseline="middle",
            text_font=value(FONT_STACK),
            level="overlay",
        )
        self._servant_letters = fig.renderers[-1].glyph
        fig.text(
            "x",
            "y",
            text="bid",
            source=self._servants,
            text_color=ON_COLOUR,
            text_font_style="bold",
            text_align="center",
            text_baseline="middle",
            text_font=value(FONT_STACK),
            level="overlay",
        )
        self._servant_bids = fig.renderers[-1].glyph
        self._size_servants()
        fig.text(
            "x",
            "y",
            text="text",
            source=self._texts,
            text_font_size="size",
            text_color="colour",
            text_font_style="style",
            text_baseline="middle",
            text_font=value(FONT_STACK),
            level="overlay",
        )
        self._hover = Label(
            name=f"{self.names}-hover",
            x=0,
            y=0,
            text="",
            visible=False,
            level="overlay",
            text_font_size="12px",
            text_font=FONT_STACK,
            text_color=INK_DARK,
            background_fill_color=PAPER,
            background_fill_alpha=0.95,
            border_line_color=SQUARE_LINE,
            padding=4,
            border_radius=3,
        )
        fig.add_layout(self._hover)
        hover = CustomJS(
            args=dict(tips=self._tips, label=self._hover, SQUARE=G.SQUARE, WIDTH=G.WIDTH),
            code=HOVER_JS,
        )
        fig.js_on_event(MouseMove, hover)
        fig.js_on_event(MouseLeave, hover)
        clicks = CustomJS(
            args=dict(
                fig=fig,
                legal=self._legal,
                servants=self._servants,
                tips=self._tips,
                clicks=self._clicks,
                SQUARE=G.SQUARE,
            ),
            code=CLICKS_JS.replace("LEGAL_COLUMNS_JS", json.dumps(list(LEGAL_COLUMNS))),
        )
        # Installed when the canvas is laid out, and again (it is idempotent) when the pointer
        # enters it: a canvas drawn again gets its listeners again.
        fig.js_on_change("inner_width", clicks)
        for event in (MouseEnter, MouseMove):
            fig.js_on_event(event, clicks)
        if self.fit:
            fig.js_on_change(
                "inner_width", CustomJS(args=dict(fig=fig, size=self._size), code=SIZE_JS)
            )
            if self.fit_window:
                fit = CustomJS(args=dict(fig=fig, ratio=G.WIDTH / G.HEIGHT), code=HEIGHT_JS)
                fig.js_on_change("inner_width", fit)
        return fig

    # ------------------------------------------------------------------ updating (data only)
    def _on_change(self, *_):
        self.refresh()

    def refresh(self) -> None:
        state = self.session.state
        lang = self.session.lang
        self.cells = G.squares(state.side)
        seat = state.decider if state.decider >= 0 else state.turn_player
        # Drawn at once in the browser only when a click would play it for a person at the board.
        if self.on_square is None and not state.is_over and not self.session.is_bot(seat):
            decider_colour = state.colours[seat]
        else:
            decider_colour = None
        if self.shared:
            # everything the data depends on besides the position (its state object)
            key = (
                "board",
                lang,
                self.session.hints,
                self.fit,
                self.drawn_width,
                decider_colour,
                self.on_square is None,
            )
            shared = SHARED_POSITIONS.get(
                state, key, lambda: self._data(state, lang, seat, decider_colour)
            )
            data = [{column: list(values) for column, values in d.items()} for d in shared]
        else:
            data = self._data(state, lang, seat, decider_colour)

        # Only what changed goes to the browser (a placement changes the servants, the outlines,
        # the notes, the texts and the legal squares, all drawn on the overlay or not drawn), as
        # one message: in a served app each message costs a pass over the whole document's
        # models.
        sources = (
            self._regions,
            self._squares,
            self._playable,
            self._closing,
            self._tips,
            self._servants,
            self._cards,
            self._seals,
            self._texts,
            self._titles,
            self._legal,
            self._last,
        )
        with hold():
            for source, new in zip(sources, data, strict=True):
                if dict(source.data) != new:
                    source.data = new
            title_px = f"{self._title_px(data[sources.index(self._titles)]['text'])}px"
            if self._title_glyph.text_font_size != title_px:
                self._title_glyph.text_font_size = title_px
            if self.board_keys is not None:
                self.board_keys.refresh()

    def _data(self, state, lang: str, seat: int, decider_colour) -> tuple[dict, ...]:
        """The sources' data for ``state``, in the order :meth:`refresh` sends them."""
        colours = state.colours
        legal = set(state.legal_options())
        statuses = [stall_status(state, m, seat) for m in range(4)]

        regions = dict(x=[], y=[], w=[], h=[], fill=[])
        for m in range(4):
            ox, oy = G.ORIGINS[m]
            regions["x"].append(ox + G.REGION_W / 2)
            regions["y"].append(oy + G.REGION_H / 2)
            regions["w"].append(G.REGION_W - 2 * REGION_INSET)
            regions["h"].append(G.REGION_H - 2 * REGION_INSET)
            kind = "open" if state.status[m] == OPEN else "closed"
            if statuses[m].condition == DEAD:
                kind = "dead"
            regions["fill"].append(REGION_FILL[kind])

        squares = dict(x=[], y=[], fill=[], label=[])
        outlined: dict[str, dict[str, list]] = {
            "playable": dict(x=[], y=[]),
            "closing": dict(x=[], y=[]),
        }
        tips: dict[str, list] = dict(x=[], y=[], tip=[])
        servants: dict[str, list] = {k: [] for k in LEGAL_COLUMNS}
        marks = {colour: tr(lang, f"colour.mark.{colour}") for colour in PLAYER_COLOURS}
        drawn_legal: dict[str, list] = {k: [] for k in LEGAL_COLUMNS}
        for cell in self.cells:
            m = cell.market
            is_open = state.status[m] == OPEN
            owner = state.owners[m][cell.index] if is_open else -1
            closes = self.session.hints and cell.index in statuses[m].would_close and is_open
            playable = cell.option in legal
            squares["x"].append(cell.x)
            squares["y"].append(cell.y)
            squares["fill"].append(EMPTY_FILL if is_open else CLOSED_SQUARE)
            # an occupied square keeps its label under the servant, whose disc repeats it (the
            # squares' data, drawn below, then does not change on a placement)
            bid = f"{cell.value}{cell.symbol}"
            squares["label"].append(bid)
            if closes or playable:
                outline = outlined["closing" if closes else "playable"]
                outline["x"].append(cell.x)
                outline["y"].append(cell.y)
            tips["x"].append(cell.x)
            tips["y"].append(cell.y)
            name = square_name(O.SQUARE_STALL[cell.option], cell.index, lang, marked=True)
            tip = name[:1].upper() + name[1:]  # by its bid and mark, never its index
            if closes:
                tip += " — " + tr(lang, "board.closes_here")
            tips["tip"].append(tip)
            if playable and decider_colour is not None:
                drawn_legal["x"].append(cell.x)
                drawn_legal["y"].append(cell.y)
                drawn_legal["colour"].append(PLAYER_COLOURS[decider_colour])
                drawn_legal["who"].append(decider_colour)
                drawn_legal["letter"].append(marks[decider_colour])
                drawn_legal["bid"].append(bid)
            if owner >= 0:
                servants["x"].append(cell.x)
                servants["y"].append(cell.y)
                servants["colour"].append(PLAYER_COLOURS[colours[owner]])
                servants["who"].append(colours[owner])
                servants["letter"].append(marks[colours[owner]])
                servants["bid"].append(bid)

        cards = dict(x=[], y=[], fill=[], label=[], alpha=[], size=[])
        seals = dict(x=[], y=[])
        for cell in self._card_cells:
            kind = state.cards[cell.market][cell.slot]
            if kind < 0:
                continue
            name = R.CARD_KINDS[kind]
            cards["x"].append(cell.x)
            cards["y"].append(cell.y)
            cards["fill"].append(CARD_COLOURS[name])
            label, size = self._card_label(tr(lang, BOARD_LABELS.get(name, f"card.{name}")))
            cards["label"].append(label)
            cards["size"].append(size)
            cards["alpha"].append(1.0 if state.status[cell.market] == OPEN else 0.55)
            if cell.slot == 0 and state.seal_on_upper[cell.market]:
                seals["x"].append(cell.x + 0.45)
                seals["y"].append(cell.y + 0.65)

        texts = dict(x=[], y=[], text=[], size=[], colour=[], style=[])
        titles: dict[str, list] = dict(x=[], y=[], text=[])
        font = self._font_px

        least = HINT_MIN_PX if self.drawn_width >= BOARD_TEXT_MIN_WIDTH else 7

        def text(x, y, words, size="13px", colour=INK, style="normal"):
            texts["x"].append(x)
            texts["y"].append(y)
            texts["text"].append(words)
            texts["size"].append(f"{max(least, font(int(size[:-2])))}px")
            texts["colour"].append(colour)
            texts["style"].append(style)

        for m, name in enumerate(R.MARKETS):
            x, y = G.title_xy(m)
            side = tr(lang, f"side.{R.SIDES[state.side[m]]}")
            titles["x"].append(x)
            titles["y"].append(y)
            # "Gizeh — left", "Gizeh — linke Preistabelle" (an adjective needs its noun)
            titles["text"].append(
                tr(lang, "board.market_title", market=tr(lang, f"market.{name}"), side=side)
            )
            rx, ry = G.reserve_xy(m)
            reserve = tr(lang, "board.reserve", deben=state.reserve[m])
            reserve_lines = self._reserve_lines(reserve, m, rx - 1.9, max(least, font(13)))
            step = (max(least, font(13)) + 2) / self._pixels_per_unit()
            for k, line in enumerate(reserve_lines):  # the first at ry, the next below it
                text(rx - 1.9, ry - k * step, line, "13px")
            sx, sy = G.status_xy(m)
            if statuses[m].condition == DEAD:
                text(sx, sy + 0.9, tr(lang, "board.closed_for_good"), "14px", BAD, "bold")
            elif m == state.tile and state.status[m] != OPEN:
                text(sx, sy + 0.9, tr(lang, "board.market_closed"), "14px", BAD, "bold")
            elif state.status[m] != OPEN:
                text(sx, sy + 0.9, tr(lang, "board.closed"), "14px", BAD, "bold")
            if m == R.LOUQSOR and state.holder >= 0:
                dice = "-".join(map(str, state.last_roll))
                who = tr(lang, f"colour.{colours[state.holder]}")
                text(sx, sy + 1.8, tr(lang, "board.dice", player=who, dice=dice), "13px")
            if self.session.hints and state.status[m] == OPEN:
                hint = _hint_line(describe_status(statuses[m], colours, lang), lang)
                hint_px = max(least, font(HINT_FONT_PX))
                lines = wrap_text(hint, self._status_room(), hint_px, 3)
                step = (hint_px + 2) / self._pixels_per_unit()
                for k, line in enumerate(lines):  # the first line on top
                    y = sy + (len(lines) - 1 - k) * step
                    text(sx, y, line, f"{HINT_FONT_PX}px")
        last = self._last_step_outline(colours)
        return (
            regions,
            squares,
            outlined["playable"],
            outlined["closing"],
            tips,
            servants,
            cards,
            seals,
            texts,
            titles,
            drawn_legal,
            last,
        )

    def _last_step_outline(self, colours) -> dict:
        """The last step's square (a placement) or market (anything else about a market),
        outlined in the colour of who took it; nothing at the start or for a step about no
        market (announce.last_step_place: the engine's events of the step)."""
        out: dict[str, list] = dict(x=[], y=[], w=[], h=[], colour=[], who=[])
        if self.on_square is not None:  # an exercise's board: no game is being played
            return out
        place = last_step_place(self.session.history)
        if place is None:
            return out
        seat, square, market = place
        colour = colours[seat] if 0 <= seat < len(colours) else ""
        fill = PLAYER_COLOURS.get(colour, NO_PLAYER_SEAL)
        if square is not None:
            stall, index = square
            cell = next(
                (c for c in self.cells if O.SQUARE_STALL[c.option] == stall and c.index == index),
                None,
            )
            if cell is not None:
                size = G.SQUARE + 0.28
                for key, item in zip(out, (cell.x, cell.y, size, size, fill, colour), strict=True):
                    out[key].append(item)
                return out
        if 0 <= market < 4:
            ox, oy = G.ORIGINS[market]
            for key, item in zip(
                out,
                (ox + G.REGION_W / 2, oy + G.REGION_H / 2, G.REGION_W - 0.1, G.REGION_H - 0.1,
                 fill, colour),
                strict=True,
            ):  # fmt: skip
                out[key].append(item)
        return out

    # ------------------------------------------------------------------ sizes
    def _on_size(self, _attr, _old, new) -> None:
        widths = new.get("w") or [0]
        width = _number(widths[-1])
        if width is None:  # not a width (a forged message): the board stays as drawn
            return
        width = int(width)
        if width > 0 and abs(width - self._drawn_width) > 6:
            self._drawn_width = width
            self._apply_fonts()
            self.refresh()

    def _apply_fonts(self) -> None:
        self._square_labels.text_font_size = f"{self._font_px(11)}px"
        self._hover.text_font_size = f"{self._font_px(12)}px"
        self._size_servants()

    def _size_servants(self) -> None:
        """The letter above the disc's centre, the square's bid below it, sized for the width."""
        unit = self._pixels_per_unit()
        offset = round(SERVANT_LINE_OFFSET * unit)
        self._servant_letters.text_font_size = f"{max(7, round(SERVANT_LETTER * unit))}px"
        self._servant_letters.y_offset = -offset  # screen pixels: up
        self._servant_bids.text_font_size = f"{max(8, round(SERVANT_BID * unit))}px"
        self._servant_bids.y_offset = offset

    @property
    def drawn_width(self) -> int:
        """The width the board is drawn at (fit: as the browser said; else ``width``)."""
        return self._drawn_width if self.fit and self._drawn_width > 0 else self.width

    def _font_px(self, px: int) -> int:
        """A font size for the drawn width (a fit board's texts grow and shrink with it)."""
        if not self.fit:
            return px
        low, high = FONT_SCALE
        scale = min(high, max(low, self.drawn_width / FONT_BASE_WIDTH))
        return max(7, round(px * scale))

    def _pixels_per_unit(self) -> float:
        return self.drawn_width / G.WIDTH

    def _status_room(self) -> float:
        """Pixels across a market for its status lines (from the status's x to the edge)."""
        return (G.REGION_W - 0.5) * self._pixels_per_unit()

    def _title_px(self, titles: list[str]) -> int:
        """The markets' titles' type: the width's size, smaller where the longest title would
        run past its market ("Abu Simbel — linke Preistabelle" on a phone ran into the next
        market); the same size for all four, never below 8 px. (Bold Latin letters are about
        12 % wider than :func:`text_width`'s estimate.)"""
        room = (G.REGION_W - 0.4) * self._pixels_per_unit()
        px = self._font_px(15)
        while px > 8 and max((1.12 * text_width(t, px) for t in titles), default=0) > room:
            px -= 1
        return px

    def _reserve_lines(self, words: str, market: int, x: float, font_px: float) -> list[str]:
        """A market's reserve ("Reserve: 1 Deben") in one line, or where that would run past the
        market's right edge (a phone's narrow board) in two, broken after the colon: "Reserve:" /
        "1 Deben", not "Reserve: 1" / "Deben"."""
        room = (G.ORIGINS[market][0] + G.REGION_W - 0.2 - x) * self._pixels_per_unit()
        if text_width(words, font_px) <= room:
            return [words]
        for colon in ("：", ":"):
            head, found, rest = words.partition(colon)
            if found and rest.strip():
                return [head + found, rest.strip()]
        return wrap_text(words, room, font_px, 2)

    def _card_font_px(self) -> int:
        return self._font_px(10) if self.drawn_width >= 800 else 9

    def _card_label(self, name: str) -> tuple[str, str]:
        """A card's name in lines that fit the drawn card (at most three), and its font size:
        smaller type before a word is broken ("statuette" on a narrow board)."""
        room = G.CARD_W * self._pixels_per_unit() - 4
        sizes = range(self._card_font_px(), 6, -1)
        options = [(size, wrap_text(name, room, size, 3)) for size in sizes]
        whole = [o for o in options if not any(line.endswith(("-", "\u2026")) for line in o[1])]
        complete = [o for o in options if not o[1][-1].endswith("\u2026")]
        # whole words at the largest size; else the fewest broken lines
        size, lines = (whole or sorted(complete, key=lambda o: len(o[1])) or options[-1:])[0]
        return "\n".join(lines), f"{size}px"

    def _redraw(self) -> None:
        """Send the servants and the legal squares again, changed or not.

        After a refused click on a square: the browser may have drawn a servant there already
        (CLICKS_JS) and cleared its list, while the server's data did not change,
        so an ordinary update would send nothing.
        """
        with hold():
            for source in (self._servants, self._legal):
                data = dict(source.data)
                source.trigger("data", data, data)

    # ------------------------------------------------------------------ clicks
    def _on_click(self, _attr, _old, new) -> None:
        # Each click carries the browser's count: one click is played once, even where the
        # same change arrives twice (seen in Voila: a click on the 8 placed Red's servant, and
        # the same click, delivered again, was refused as "the 8 already holds Red's servant").
        counts = new.get("n")
        if counts is not None and len(counts):
            n = _number(counts[-1])
            if n is None:
                self._refuse_click(counts[-1])
                return
            if n <= self._clicks_seen:
                return
            self._clicks_seen = int(n)
        xs, ys = new.get("x"), new.get("y")
        if xs is not None and ys is not None and len(xs) and len(ys):
            x, y = _number(xs[-1]), _number(ys[-1])
            if x is None or y is None:
                self._refuse_click((xs[-1], ys[-1]))
                return
            self.click(x, y)

    def _refuse_click(self, sent) -> None:
        """A click whose place or count is not a number (a forged message): refused in words,
        one line in the log, nothing played."""
        log.warning("a page sent a board click that is not a number: %s", repr(sent)[:60])
        self.session.error = tr(self.session.lang, "board.bad_click")

    def click(self, x: float, y: float) -> bool:
        """What a click at (x, y) does: place on a square, or buy/take a card. True if played."""
        cell = G.square_at(self.cells, x, y)
        if cell is not None:
            if self.on_square is not None:
                self.on_square(cell)
                return False
            # held: a refusal's words and the removal of the servant the browser drew at the
            # click reach the page together (not the words with the servant still there)
            with hold():
                played = self.session.play(cell.option, by_learner=True)
                if not played:
                    self._redraw()
            return played
        card = G.card_at(self._card_cells, x, y)
        if card is None:
            return False
        option = self._card_option(card)
        if option is None:
            self.session.error = tr(self.session.lang, "board.card_not_now")
            return False
        return self.session.play(option, by_learner=True)

    def _card_option(self, card: G.CardCell) -> int | None:
        state = self.session.state
        legal = state.legal_options()
        if state.phase == P_BID and card.market == state.res_market:
            candidate = O.BUY_BASE + card.slot
        elif state.phase == P_CHIEF and card.market == state.tile:
            candidate = O.CHIEF_BASE + card.slot
        elif state.phase == P_TAKE and card.market == state.res_market:
            candidate = O.take_id([card.slot])  # only a single card is a whole set (R6.2)
        else:
            return None
        return candidate if candidate in legal else None


def _number(value) -> float | None:
    """A number the browser sent (a click's place or count, a width) as a finite float, or None
    when it is not one (text, a list, NaN, infinite, too large)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    try:
        number = float(value)
    except (OverflowError, ValueError):
        return None
    return number if math.isfinite(number) else None
