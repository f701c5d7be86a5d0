"""The board by keyboard: a grid of focusable squares laid over the board's canvas.

The board is a Bokeh canvas, which neither a keyboard nor a screen reader can enter. This layer
puts one real element (``role="gridcell"``) over each square of the visible stalls, at the
square's place on the canvas (percentages of the board's box, from ``geometry``), invisible
until focused and transparent to the mouse (``pointer-events: none``: a click still reaches the
canvas). One square is in the page's Tab order at a time (a roving tabindex); the keys:

- **Left / Right**: the previous / next square in reading order: market by market (Gizeh,
  Akhet-Aton, Abou Simbel, Louqsor), row by row from the top, square by square from the left;
  past a row's end into the next row, past the last square back to the first.
- **Up / Down**: the square nearest below / above in the row above / below; past the stall's
  top or bottom row into the previous / next market's last / first row.
- **Home / End**: the first / last square of the market.
- **Enter / Space**: place there, through :meth:`Board.click` at the square's centre: exactly
  what a click on the canvas does (legality, a refusal in words, the account, an exercise's
  answer).
- **Escape**: leaves the board (the square loses the focus; Tab goes on after the board).

The focused square is outlined on the board (a dark ring with a light inner ring, visible on
every square's colour: WCAG 2.4.7, 2.4.11), and its accessible name says market, stall, value
and mark, who stands there or that it is empty, and whether the deciding player may place there
now (:func:`nefertiti_core.teaching.board_words.square_words`). Tests:
tests/test_board_keys.py (order, neighbours, names), tests/browser/test_keyboard_board.py.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import param
from panel.reactive import ReactiveHTML

from nefertiti_core.engine.i18n import tr
from nefertiti_core.teaching.board_words import all_square_words, row_words
from widgets.game import geometry as G
from widgets.game.position_memo import SHARED_POSITIONS
from widgets.theme import INK_DARK, PAPER

log = logging.getLogger("widgets")

__all__ = ["BoardKeys", "KeySquare", "key_squares"]


@dataclass(frozen=True)
class KeySquare:
    """One square of the keyboard grid: its cell, its row (``row``: the market's row, from 0;
    ``line``: the row's number over the whole board) and the squares each key moves to."""

    cell: G.SquareCell
    row: int
    line: int
    left: int
    right: int
    up: int
    down: int
    home: int
    end: int


def key_squares(cells: list[G.SquareCell]) -> list[KeySquare]:
    """The board's squares in keyboard order with their neighbours (see the module's doc).
    ``cells``: ``geometry.squares`` (market by market, row by row, left to right)."""
    order = sorted(range(len(cells)), key=lambda i: (cells[i].market, -cells[i].y, cells[i].x))
    cells = [cells[i] for i in order]
    lines: list[list[int]] = []  # each row of each market: its squares' positions in ``cells``
    for i, cell in enumerate(cells):
        if lines and cells[lines[-1][0]].market == cell.market and cells[lines[-1][0]].y == cell.y:
            lines[-1].append(i)
        else:
            lines.append([i])
    line_of = {i: n for n, line in enumerate(lines) for i in line}
    first_line = {}
    for n, line in enumerate(lines):
        first_line.setdefault(cells[line[0]].market, n)
    count = len(cells)

    def nearest(line: list[int], x: float) -> int:
        return min(line, key=lambda j: (abs(cells[j].x - x), cells[j].x))

    out = []
    for i, cell in enumerate(cells):
        n = line_of[i]
        market_squares = [j for j, c in enumerate(cells) if c.market == cell.market]
        out.append(
            KeySquare(
                cell=cell,
                row=n - first_line[cell.market],
                line=n,
                left=(i - 1) % count,
                right=(i + 1) % count,
                up=nearest(lines[(n - 1) % len(lines)], cell.x),
                down=nearest(lines[(n + 1) % len(lines)], cell.x),
                home=market_squares[0],
                end=market_squares[-1],
            )
        )
    return out


#: The grid's look: nothing shown but the focused square's ring; the mouse goes through.
KEYS_CSS = f"""
:host {{ pointer-events: none; }}
.keys {{ position: absolute; inset: 0; pointer-events: none; }}
.keys [role=row] {{ display: contents; }}
.keys [role=gridcell] {{
    position: absolute; box-sizing: border-box; pointer-events: none; border-radius: 3px;
    background: transparent; outline: none;
}}
.keys [role=gridcell]:focus {{
    outline: 3px solid {INK_DARK}; outline-offset: 2px; box-shadow: 0 0 0 2px {PAPER};
}}
"""

#: Builds the grid from ``data.squares`` (again only when the squares move: a new stall shown,
#: else only the names change, so a focused square keeps the focus). The key handler and the
#: roving tabindex are functions kept in ``state`` (a ReactiveHTML script takes no arguments).
BUILD_JS = """
if (!state.rove) {
    state.rove = (i) => {
        if (!state.cells || !state.cells[i]) return;
        state.current = i;
        state.cells.forEach((c, j) => c.setAttribute("tabindex", j === i ? "0" : "-1"));
    };
    state.key = (ev, i) => {
        const s = data.squares[i];
        const to = {ArrowLeft: s.left, ArrowRight: s.right, ArrowUp: s.up, ArrowDown: s.down,
                    Home: s.home, End: s.end}[ev.key];
        if (to !== undefined) {
            ev.preventDefault();
            state.rove(to);
            state.cells[to].focus();
        } else if (ev.key === "Enter" || ev.key === " ") {
            ev.preventDefault();
            if (window.__nefertitiOffline) return;  // nothing would be played (reconnect.py)
            data.pressed = [i, (data.pressed[1] || 0) + 1];
        } else if (ev.key === "Escape") {
            ev.preventDefault();
            state.cells[i].blur();
        }
    };
}
const squares = data.squares || [];
const same = state.cells && state.cells.length === squares.length &&
    squares.every((s, i) => state.cells[i].dataset.place === s.place);
if (!same) {
    const had = state.cells ? state.cells.indexOf(grid.getRootNode().activeElement) : -1;
    grid.replaceChildren();
    state.cells = [];
    let row = null, line = -1;
    squares.forEach((s, i) => {
        if (s.line !== line) {
            line = s.line;
            row = document.createElement("div");
            row.setAttribute("role", "row");
            grid.appendChild(row);
        }
        const c = document.createElement("div");
        c.setAttribute("role", "gridcell");
        c.dataset.place = s.place;
        c.style.left = s.x + "%"; c.style.top = s.y + "%";
        c.style.width = s.w + "%"; c.style.height = s.h + "%";
        c.addEventListener("keydown", (ev) => state.key(ev, i));
        c.addEventListener("focus", () => state.rove(i));
        row.appendChild(c);
        state.cells.push(c);
    });
    if (state.current === undefined || state.current >= squares.length) state.current = 0;
    if (had >= 0 && had < state.cells.length) state.cells[had].focus();
}
let row = null;
squares.forEach((s, i) => {
    const c = state.cells[i];
    if (c.getAttribute("aria-label") !== s.name) c.setAttribute("aria-label", s.name);
    if (c.parentElement !== row) {
        row = c.parentElement;
        if (row.getAttribute("aria-label") !== s.row) row.setAttribute("aria-label", s.row);
    }
});
state.rove(state.current);
"""


class BoardKeys(ReactiveHTML):
    """The keyboard grid over one board (see the module's doc). ``squares``: what the browser
    draws, one dict per square in keyboard order; ``pressed``: the browser's last Enter or
    Space, [square's position in ``squares``, count]."""

    squares = param.List(default=[])
    label = param.String(default="")
    pressed = param.List(default=[-1, 0])

    _template = '<div id="grid" class="keys" role="grid" aria-label="${label}"></div>'
    # No "after_layout" script: in Voilà it can run before "render" has made the grid's node
    # ("DOM node 'grid' could not be found"), and a board built by a press (a demonstration
    # unfolded) then failed to get a view at all ("Could not create a view for model").
    _scripts = {
        "render": "self.build()",
        "squares": "self.build()",
        "build": BUILD_JS,
    }

    def __init__(self, board, **params):
        params.setdefault("stylesheets", [KEYS_CSS])
        params.setdefault("margin", 0)
        params.setdefault("sizing_mode", "fixed")
        params.setdefault(
            "styles",
            {"position": "absolute", "top": "0", "left": "0", "width": "100%", "height": "100%"},
        )
        super().__init__(**params)
        self._board = board
        self._keys: list[KeySquare] = []
        self._seen = 0
        self.param.watch(self._on_pressed, "pressed")

    def refresh(self) -> None:
        """The squares and their names for the board's position now."""
        board = self._board
        state, lang, hints = board.session.state, board.session.lang, board.session.hints
        self._keys = key_squares(board.cells)
        words = SHARED_POSITIONS.get(
            state, ("keys", lang, hints), lambda: all_square_words(state, lang, hints)
        )
        squares = []
        for k in self._keys:
            cell = k.cell
            squares.append(
                dict(
                    place=f"{cell.market}.{cell.index}.{cell.x:.2f}.{cell.y:.2f}",
                    x=round((cell.x - G.SQUARE / 2) / G.WIDTH * 100, 3),
                    y=round((G.HEIGHT - cell.y - G.SQUARE / 2) / G.HEIGHT * 100, 3),
                    w=round(G.SQUARE / G.WIDTH * 100, 3),
                    h=round(G.SQUARE / G.HEIGHT * 100, 3),
                    name=words.get((cell.market, cell.index), ""),
                    row=row_words(state, cell.market, k.row, lang),
                    line=k.line,
                    left=k.left,
                    right=k.right,
                    up=k.up,
                    down=k.down,
                    home=k.home,
                    end=k.end,
                )
            )
        # The grid's name says what Enter does there: a board that answers with the square (an
        # exercise's, with ``on_square``) places nothing.
        label = tr(lang, "keys.board" if board.on_square is None else "keys.board.answer")
        if squares != self.squares or label != self.label:
            self.param.update(squares=squares, label=label)

    def _on_pressed(self, event) -> None:
        pressed = event.new
        ok = isinstance(pressed, list) and len(pressed) == 2
        ok = ok and all(isinstance(v, int) and not isinstance(v, bool) for v in pressed)
        if not ok:  # not what the page's script sends (a forged message): nothing played
            log.warning("a page sent a board key that is not a square: %s", repr(pressed)[:60])
            return
        index, count = pressed
        if count <= self._seen or not 0 <= index < len(self._keys):
            return
        self._seen = count
        cell = self._keys[index].cell
        self._board.click(cell.x, cell.y)  # as a click there (Board._on_click)
