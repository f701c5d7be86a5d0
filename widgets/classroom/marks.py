"""The teacher's marks on the shared table's board, as data (no view here): highlighted squares
and arrows from one square to another, which every page of the room draws on its board
(:mod:`.marks_layer`).

A mark names squares by their global number (``rules.SQUARE_BASE``, the same number as the
square's placement option) and is checked against the table's position when it is made: the
square must be on the board now (its stall's side up). A room holds at most :data:`MAX_MARKS`;
a second identical mark takes the first away (a highlight clicked again goes). The marks belong
to a position: **they are cleared whenever the table's position changes** (a step, an undo or
redo, a staged position; ``Room._changed("table")``), as a teacher's chalk is wiped for the
next move; a teacher who wants one again draws it again. They are kept in the room's store row
(``classroom_rooms.marks``, schema 6) as JSON text and read back checked; anything else in it
is left out with a log line.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from nefertiti_core.engine import rules as R
from widgets.game import geometry as G

__all__ = ["KINDS", "MAX_MARKS", "Mark", "MarkError", "added", "check_mark", "marks_from_text"]

log = logging.getLogger("widgets.classroom")

#: At most this many marks at once (more would hide the board they explain).
MAX_MARKS = 24
#: What a mark is: one highlighted square, or an arrow from a square to another.
KINDS = {"square": 1, "arrow": 2}
#: The longest stored marks' text read back.
MAX_MARKS_CHARS = 4000


class MarkError(ValueError):
    """A mark that cannot be on the board now (a forged value): ``str(error)`` says what."""


@dataclass(frozen=True)
class Mark:
    kind: str  # "square" or "arrow"
    squares: tuple[int, ...]  # global square numbers: one, or the arrow's start and end


def visible_squares(sides) -> dict[int, G.SquareCell]:
    """The squares on the board for the markets' sides up (``state.side``), by number."""
    return {cell.option: cell for cell in G.squares(sides)}


def check_mark(kind, squares, sides) -> Mark:
    """A mark made of what a page sent, checked against the board (``sides``: the table's
    ``state.side``); :class:`MarkError` naming what is wrong otherwise."""
    if not isinstance(kind, str) or kind not in KINDS:
        raise MarkError(f"not a kind of mark: {str(kind)[:20]!r}")
    if not isinstance(squares, list | tuple) or len(squares) != KINDS[kind]:
        raise MarkError(f"a {kind} mark names {KINDS[kind]} square(s), not {str(squares)[:40]!r}")
    shown = visible_squares(sides)
    numbers = []
    for square in squares:
        if isinstance(square, bool) or not isinstance(square, int):
            raise MarkError(f"not a square number: {str(square)[:20]!r}")
        if not 0 <= square < R.NUM_SQUARES:
            raise MarkError(f"no square {square} (squares are 0 to {R.NUM_SQUARES - 1})")
        if square not in shown:
            raise MarkError(f"square {square} is not on the board now (its stall is face down)")
        numbers.append(square)
    if kind == "arrow" and numbers[0] == numbers[1]:
        raise MarkError("an arrow goes from a square to another")
    return Mark(kind, tuple(numbers))


def added(marks: tuple[Mark, ...], mark: Mark) -> tuple[Mark, ...]:
    """``marks`` with ``mark`` (or without it, when it was there: a second click takes it away);
    :class:`MarkError` past :data:`MAX_MARKS`."""
    if mark in marks:
        return tuple(m for m in marks if m != mark)
    if len(marks) >= MAX_MARKS:
        raise MarkError(f"at most {MAX_MARKS} marks")
    return (*marks, mark)


def marks_text(marks: tuple[Mark, ...]) -> str:
    """The marks as stored ("" for none)."""
    if not marks:
        return ""
    return json.dumps([{"kind": m.kind, "squares": list(m.squares)} for m in marks])


def marks_from_text(code: str, text, sides) -> tuple[Mark, ...]:
    """Stored marks read back, each checked against the board (``sides``); a value that is
    not a mark is left out, said in the log."""
    if not text:
        return ()
    try:
        if not isinstance(text, str) or len(text) > MAX_MARKS_CHARS:
            raise MarkError("too long")
        data = json.loads(text)
        if not isinstance(data, list):
            raise MarkError("not a list")
        marks: tuple[Mark, ...] = ()
        for item in data[:MAX_MARKS]:
            if not isinstance(item, dict):
                raise MarkError("not a mark")
            marks = added(marks, check_mark(item.get("kind"), item.get("squares"), sides))
        return marks
    except (MarkError, ValueError) as error:
        log.warning("room %s: its stored marks were left out: %s", code, str(error)[:120])
        return ()
