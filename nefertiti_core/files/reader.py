"""Reading a position file's values: each is checked as it is read, and a wrong one raises
:class:`ScenarioError` naming the file, the line, the field's path and the problem.

:mod:`.scenario` reads a position with it, :mod:`.exercise_block` the file's ``exercises:`` block
and :mod:`.exercises.lessons` the lessons file; it sits below all three.
"""

from __future__ import annotations

import difflib

from ..engine.errors import NefertitiError
from ..engine.limits import MAX_COUNT, MAX_MOVE_CHARS, MAX_STEPS, echo
from .yaml_subset import Document


class ScenarioError(NefertitiError):
    """A scenario file that cannot be loaded: names the file, line, field path and the problem."""

    def __init__(self, source: str, path: tuple, message: str, line: int | None = None):
        self.source, self.path, self.line, self.problem = source, tuple(path), line, message
        where = source + (f": line {line}" if line else "")
        field_path = ".".join(str(p) for p in path)
        super().__init__(f"{where}: {field_path + ': ' if field_path else ''}{message}")


class Reader:
    """Checks values and raises ScenarioError with the path and line of the offending field."""

    def __init__(self, source: str, doc: Document):
        self.source, self.doc = source, doc

    def fail(self, path, message):
        raise ScenarioError(self.source, path, message, self.doc.line_of(tuple(path)))

    def mapping(self, value, path, allowed) -> dict:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.fail(
                path, f"expected a mapping of {', '.join(map(str, allowed))}, found {echo(value)}"
            )
        for key in value:
            if key not in allowed:
                hint = _closest(str(key), allowed)
                self.fail(
                    tuple(path) + (key,),
                    f"unknown field {echo(key)}"
                    + (f" (did you mean {hint!r}?)" if hint else "")
                    + f"; fields here: {', '.join(map(str, allowed))}",
                )
        return value

    def integer(self, value, path, low=None, high=MAX_COUNT) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"expected a whole number, found {echo(value)}")
        if low is not None and value < low:
            self.fail(path, f"{value} is below the smallest allowed, {low}")
        if high is not None and value > high:
            self.fail(path, f"{value} is above the largest allowed, {high}")
        return value

    def boolean(self, value, path) -> bool:
        if not isinstance(value, bool):
            self.fail(path, f"expected true or false, found {echo(value)}")
        return value

    def choice(self, value, path, choices, what) -> str:
        if isinstance(value, (list, dict)) or value not in choices:
            hint = _closest(str(value), choices)
            self.fail(
                path,
                f"unknown {what} {echo(value)}"
                + (f" (did you mean {hint!r}?)" if hint else "")
                + f"; one of {', '.join(map(str, choices))}",
            )
        return value

    def sequence(self, value, path) -> list:
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail(path, f"expected a list, found {echo(value)}")
        return value


def _closest(word: str, choices) -> str | None:
    found = difflib.get_close_matches(word, [str(c) for c in choices], n=1, cutoff=0.7)
    return found[0] if found else None


def read_moves(rd: Reader, value, path=("moves",)) -> list[str]:
    """A list of steps in the move notation: at most MAX_STEPS, each a short text."""
    moves = rd.sequence(value, path)
    if len(moves) > MAX_STEPS:
        rd.fail(path, f"{len(moves):,} steps; a file has at most {MAX_STEPS:,}")
    out = []
    for j, move in enumerate(moves):
        if isinstance(move, (list, dict)):
            rd.fail(path + (j,), f"a step is a text like 'place gizeh.left#0', not {echo(move)}")
        text = "null" if move is None else str(move)
        if len(text) > MAX_MOVE_CHARS:
            rd.fail(path + (j,), f"a step of {len(text):,} characters: {echo(text)}")
        out.append(text)
    return out
