"""The teacher's marks (:mod:`.marks`) drawn on a room's board, and the teacher's tools to make
them.

:class:`MarksLayer` adds two layers to a page's :class:`~widgets.game.board.Board` (the
teacher's, each learner's and the projector's table board): a thick outline on each highlighted
square (source ``board-marks``: columns x, y) and an arrow per arrow mark (``board-arrows``:
from x, y to x1, y1). It follows the room itself (``Room.subscribe``: ``"marks"`` and
``"table"``), on its own page's document, so a mark reaches every page at once and goes when
the position changes. A learner who broke away to try steps alone sees no marks (they are
about the table's position).

:class:`MarkTools`, on the teacher's page under the board: a choice of what a click on the
board does (play, highlight a square, draw an arrow: the first click its start, the second its
end) and "Clear marks". Each mark is made through the room, off the event loop
(``TableSession.through_room``); the room checks it (teacher only, a square on the board).
"""

from __future__ import annotations

import panel as pn
from bokeh.models import Arrow, ColumnDataSource, VeeHead
from panel.io.state import set_curdoc

from nefertiti_core.engine import options as O
from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.squares import square_name
from widgets.classroom.marks import visible_squares
from widgets.game import geometry as G
from widgets.game.common import HTML, esc
from widgets.game.session import served_document
from widgets.theme import MARK_LINE, TEXT_NOTE

__all__ = ["MarkTools", "MarksLayer"]

MODES = ("play", "square", "arrow")


class MarksLayer:
    """The room's marks on one page's board (see the module's doc)."""

    def __init__(self, board, room, doc=None):
        self.board, self.room = board, room
        self.doc = doc if doc is not None else served_document()
        self.squares = ColumnDataSource(name="board-marks", data=dict(x=[], y=[]))
        self.arrows = ColumnDataSource(name="board-arrows", data=dict(x=[], y=[], x1=[], y1=[]))
        fig = board.figure
        size = G.SQUARE + 0.22
        fig.rect(
            "x",
            "y",
            size,
            size,
            source=self.squares,
            fill_color=MARK_LINE,
            fill_alpha=0.18,
            line_color=MARK_LINE,
            line_width=5,
            level="overlay",
        )
        fig.add_layout(
            Arrow(
                source=self.arrows,
                x_start="x",
                y_start="y",
                x_end="x1",
                y_end="y1",
                line_color=MARK_LINE,
                line_width=6,
                line_alpha=0.85,
                end=VeeHead(size=22, fill_color=MARK_LINE, line_color=MARK_LINE),
                level="overlay",
            )
        )
        self._scheduled = False
        self._key = room.subscribe(self._on_room)
        board.session.param.watch(lambda *_: self.refresh(), ["board_version"])
        if self.doc is not None:
            self.doc.on_session_destroyed(lambda _context: self.close())
        self.refresh()

    def close(self) -> None:
        self.room.unsubscribe(self._key)

    def _on_room(self, _version: int, what: str) -> None:
        if what not in ("marks", "table") or self._scheduled:
            return
        if self.doc is None:  # not served (tests): at once
            self.refresh()
            return
        self._scheduled = True

        def run() -> None:
            self._scheduled = False
            with set_curdoc(self.doc):
                self.refresh()

        try:
            self.doc.add_next_tick_callback(run)
        except Exception:  # the page is gone
            self.close()

    def data(self) -> tuple[dict, dict]:
        """What the layers draw now: the highlighted squares' and the arrows' places."""
        squares: dict[str, list] = dict(x=[], y=[])
        arrows: dict[str, list] = dict(x=[], y=[], x1=[], y1=[])
        session = self.board.session
        if getattr(session, "away", False):  # a learner's own try-out: not the table's position
            return squares, arrows
        cells = visible_squares(session.state.side)
        for mark in self.room.marks:
            found = [cells.get(n) for n in mark.squares]
            if None in found:  # not on this page's board (yet): drawn when it is
                continue
            if mark.kind == "square":
                squares["x"].append(found[0].x)
                squares["y"].append(found[0].y)
            else:
                start, end = found
                # from the start square's edge to the end square's edge, not centre to centre
                dx, dy = end.x - start.x, end.y - start.y
                length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
                cut = min(0.45, length / 3)
                arrows["x"].append(start.x + dx / length * cut)
                arrows["y"].append(start.y + dy / length * cut)
                arrows["x1"].append(end.x - dx / length * cut)
                arrows["y1"].append(end.y - dy / length * cut)
        return squares, arrows

    def refresh(self) -> None:
        squares, arrows = self.data()
        if dict(self.squares.data) != squares:
            self.squares.data = squares
        if dict(self.arrows.data) != arrows:
            self.arrows.data = arrows


class MarkTools(pn.viewable.Viewer):
    """The teacher's marking tools under the board (see the module's doc). Public parts for a
    test to drive: ``mode`` (what a click on the board does), ``clear_button``, ``hint``;
    :meth:`click_square` is what a click on a square does in a marking mode."""

    def __init__(self, room, key: str, board, session):
        self.room, self.key, self.board, self.session = room, key, board, session
        self.start: int | None = None  # an arrow's first square, waiting for its end
        self.mode = pn.widgets.RadioButtonGroup(
            options={}, color="default", css_classes=["room-mark-mode"]
        )
        self.clear_button = pn.widgets.Button(width=150, css_classes=["room-marks-clear"])
        self.clear_button.on_click(self._on_clear)
        self.hint = HTML("", sizing_mode="stretch_width", css_classes=["room-mark-hint"])
        self._layout = pn.Column(
            pn.Row(self.mode, self.clear_button, styles={"flex-wrap": "wrap"}),
            self.hint,
            sizing_mode="stretch_width",
            css_classes=["room-marks"],
        )
        self.mode.param.watch(self._on_mode, "value")
        session.param.watch(lambda *_: self.label(), ["lang"])
        self.label()
        self.mode.value = "play"

    def __panel__(self):
        return self._layout

    def label(self) -> None:
        lang = self.session.lang
        options = {tr(lang, f"marks.mode.{mode}"): mode for mode in MODES}
        if self.mode.options != options:
            value = self.mode.value
            self.mode.options = options
            self.mode.value = value or "play"
        self.clear_button.name = tr(lang, "marks.clear")
        self._say()

    def _say(self) -> None:
        lang = self.session.lang
        if self.start is not None:
            name = _square_words(self.start, lang)
            words = tr(lang, "marks.arrow_from", square=name)
        elif self.mode.value in ("square", "arrow"):
            words = tr(lang, f"marks.hint.{self.mode.value}")
        else:
            words = tr(lang, "marks.hint.play")
        self.hint.object = f"<span style='color:{TEXT_NOTE};font-size:14px'>{esc(words)}</span>"

    def _on_mode(self, event) -> None:
        self.start = None
        self.board.on_square = self.click_square if event.new in ("square", "arrow") else None
        self._say()

    def click_square(self, cell) -> bool:
        """A click on ``cell`` in a marking mode: a highlight, an arrow's start, or its end
        (the arrow made). True when a mark was sent to the room."""
        room, key = self.room, self.key
        if self.mode.value == "square":
            square = cell.option
            return self.session.through_room(lambda: room.mark(key, "square", [square]))
        if self.mode.value != "arrow":
            return False
        if self.start is None or self.start == cell.option:
            self.start = cell.option
            self._say()
            return False
        start, end, self.start = self.start, cell.option, None
        self._say()
        return self.session.through_room(lambda: room.mark(key, "arrow", [start, end]))

    def _on_clear(self, _event=None) -> None:
        self.clear()

    def clear(self) -> bool:
        """What "Clear marks" does."""
        room, key = self.room, self.key
        self.start = None
        self._say()
        return self.session.through_room(lambda: room.clear_marks(key))


def _square_words(square: int, lang: str) -> str:
    """The square's name, declined by the catalog's template (German "Pfeil von {square:dat}")."""
    stall = O.SQUARE_STALL[square]
    return square_name(stall, O.SQUARE_INDEX[square], lang)
