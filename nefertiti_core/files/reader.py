"""Reading a position file's values: each is checked as it is read, and a wrong one raises
:class:`ScenarioError` naming the file, the line, the field's path and the problem.

:mod:`.scenario` reads a position with it, :mod:`.exercise_block` the file's ``exercises:`` block
and :mod:`.exercises.lessons` the lessons file; it sits below all three.
"""

from __future__ import annotations

import difflib

from ..engine.errors import NefertitiError
from ..engine.i18n import DEFAULT_LANGUAGE, tr
from ..engine.limits import MAX_COUNT, MAX_MOVE_CHARS, MAX_STEPS, echo
from ..engine.said import in_lang, said
from .yaml_subset import Document


class ScenarioError(NefertitiError):
    """A scenario file that cannot be loaded: names the file, line, field path and the problem."""

    def __init__(self, source: str, path: tuple, message: str, line: int | None = None):
        self.source, self.path, self.line, self.problem = source, tuple(path), line, message
        super().__init__(self.message(DEFAULT_LANGUAGE))

    def message(self, lang: str) -> str:
        """The same sentence in ``lang``: the file, line and field path as written, the problem
        worded in that language (a problem that is not a :class:`.said.Said` stays English)."""
        where = self.source + (tr(lang, "file.at_line", line=self.line) if self.line else "")
        return f"{where}{tr(lang, 'file.sep')}{self.detail(lang)}"

    def detail(self, lang: str) -> str:
        """What is wrong, without the file and the line: the field path and the problem worded
        in ``lang``, for a page that says the file and the line in its own sentence."""
        field_path = ".".join(str(p) for p in self.path)
        sep = tr(lang, "file.sep")
        return f"{field_path + sep if field_path else ''}{in_lang(self.problem, lang)}"


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
                path,
                said(
                    "file.expected_mapping", fields=", ".join(map(str, allowed)), value=echo(value)
                ),
            )
        for key in value:
            if key not in allowed:
                hint = _closest(str(key), allowed)
                self.fail(
                    tuple(path) + (key,),
                    said(
                        "file.unknown_field",
                        field=echo(key),
                        hint=_hint(hint),
                        fields=", ".join(map(str, allowed)),
                    ),
                )
        return value

    def integer(self, value, path, low=None, high=MAX_COUNT) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, said("file.expected_integer", value=echo(value)))
        if low is not None and value < low:
            self.fail(path, said("file.below", value=str(value), low=str(low)))
        if high is not None and value > high:
            self.fail(path, said("file.above", value=str(value), high=str(high)))
        return value

    def boolean(self, value, path) -> bool:
        if not isinstance(value, bool):
            self.fail(path, said("file.expected_boolean", value=echo(value)))
        return value

    def choice(self, value, path, choices, what) -> str:
        if isinstance(value, (list, dict)) or value not in choices:
            hint = _closest(str(value), choices)
            self.fail(
                path,
                said(
                    "file.unknown_choice",
                    what=said(f"file.what.{what.replace(' ', '_')}"),
                    value=echo(value),
                    hint=_hint(hint),
                    choices=", ".join(map(str, choices)),
                ),
            )
        return value

    def sequence(self, value, path) -> list:
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail(path, said("file.expected_list", value=echo(value)))
        return value


def _closest(word: str, choices) -> str | None:
    found = difflib.get_close_matches(word, [str(c) for c in choices], n=1, cutoff=0.7)
    return found[0] if found else None


def _hint(word: str | None) -> str:
    """ " (did you mean 'word'?)" in the message's language, or nothing."""
    return said("file.did_you_mean", word=repr(word)) if word else ""


def read_moves(rd: Reader, value, path=("moves",)) -> list[str]:
    """A list of steps in the move notation: at most MAX_STEPS, each a short text."""
    moves = rd.sequence(value, path)
    if len(moves) > MAX_STEPS:
        rd.fail(path, said("file.too_many_steps", count=f"{len(moves):,}", most=f"{MAX_STEPS:,}"))
    out = []
    for j, move in enumerate(moves):
        if isinstance(move, (list, dict)):
            rd.fail(path + (j,), said("file.step_not_text", value=echo(move)))
        text = "null" if move is None else str(move)
        if len(text) > MAX_MOVE_CHARS:
            rd.fail(
                path + (j,), said("file.step_too_long", count=f"{len(text):,}", value=echo(text))
            )
        out.append(text)
    return out
