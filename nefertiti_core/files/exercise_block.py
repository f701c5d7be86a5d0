"""The ``exercises:`` block of a position file, read as data when the file loads.

:func:`read_block` checks each entry against the kinds of question (:data:`KIND_FIELDS`: the
fields each kind needs and may have) and the position (its players' colours), and makes an
:class:`ExerciseEntry` of it; the engine is not asked yet. :mod:`.scenario` calls it while loading
a file, below the exercises themselves (:mod:`.exercises`), which load position files: the
exercises turn entries into questions and have the engine check them. Standard library only.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..engine import rules as R
from ..engine.i18n import DEFAULT_LANGUAGE, LANGUAGES, catalog
from ..engine.limits import MAX_MOVE_CHARS, MAX_TEXT_CHARS, echo
from ..engine.said import said
from ..teaching.rules_reference import ids as rule_ids
from .reader import ScenarioError, read_moves

if TYPE_CHECKING:
    from ..engine.state import GameState


#: The kinds of question an ``exercises:`` block may ask: the name a file writes in ``kind:``
#: -> (the fields that kind needs, the fields it may have). The classes that ask them are
#: :data:`.exercises.KINDS`.
KIND_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "will-it-close": (("option",), ()),
    "click-closing-square": (("market",), ()),
    "how-many-points": (("option",), ("seat",)),
    "how-much-deben": (("option",), ()),
    "who-decides-next": (("option",), ()),
    "gift-value": (("seat", "gift"), ()),
    "closing-chance": (("square",), ()),
    "is-legal": (("option",), ()),
    "game-ends": (("option",), ()),
    "final-score": (("seat",), ()),
}
#: The fields every exercise may have, besides its kind's own (``id`` and ``kind`` required).
ENTRY_FIELDS = (
    "id",
    "kind",
    "before",
    "variants",
    "note",
    "question",
    "answer",
    "explanation",
    "rules",
)
#: A kind's field -> the argument of its class that the field's value is given as.
ARGUMENTS = {
    "option": "option",
    "seat": "seat",
    "gift": "gift_type",
    "market": "market",
    "square": "square",
}
_WHAT = {
    "option": said("file.ex.what.option"),
    "seat": said("file.ex.what.seat"),
    "gift": said("file.ex.what.gift", choices=", ".join(R.GIFT_TYPES)),
    "market": said("file.ex.what.market", choices=", ".join(R.MARKETS)),
    "square": said("file.ex.what.square"),
}
_NAME = r"[a-z0-9]+(?:-[a-z0-9]+)*"
#: An exercise's id, "topic/name", and a topic: lower-case words and digits joined by "-".
ID_PATTERN = re.compile(rf"{_NAME}(?:/{_NAME})?")
TOPIC_PATTERN = re.compile(_NAME)
MAX_ID_CHARS = 120
_LARGEST_SQUARE = max(len(stall.squares) for stall in R.STALLS) - 1


@dataclass(frozen=True)
class ExerciseEntry:
    """One exercise of a position file's ``exercises:`` block, checked as data.

    :func:`.exercises.build_exercise` makes the exercise; :func:`.exercises.check_entry` asks the
    engine whether it can be asked (the option legal, the ``before`` moves playable, the file's
    ``answer`` right).
    """

    index: int  # its place in the block (exercises.<index>)
    id: str
    kind: str  # a key of KIND_FIELDS
    arguments: dict  # the kind's own fields, as the class's arguments
    before: tuple[str, ...] = ()
    variants: tuple[str, ...] | None = None
    note: str | None = None
    questions: dict = field(default_factory=dict)
    explanations: dict = field(default_factory=dict)
    rules: tuple[str, ...] = ()
    answer: object = None
    has_answer: bool = False
    source: str = "<text>"
    lines: dict = field(default_factory=dict)  # field path inside the entry -> line

    @property
    def topic(self) -> str:
        """The part of the id before its ``/`` (the lesson's topic), or ``""``."""
        return self.id.split("/", 1)[0] if "/" in self.id else ""

    def line(self, path=()) -> int | None:
        """The line of ``path`` inside the entry, or of its nearest parent."""
        path = tuple(path)
        while path and path not in self.lines:
            path = path[:-1]
        return self.lines.get(path)

    def error(self, path, message: str) -> ScenarioError:
        """The error for ``path`` inside the entry: file, line, field path, message."""
        return ScenarioError(
            self.source, ("exercises", self.index, *path), message, self.line(path)
        )


def _notes() -> tuple[str, ...]:
    prefix = "exercise.note."
    return tuple(key[len(prefix) :] for key in catalog(DEFAULT_LANGUAGE) if key.startswith(prefix))


def read_block(rd, value, state: GameState) -> list[ExerciseEntry]:
    """The ``exercises:`` block of a position file (``rd``: the file's :class:`.reader.Reader`),
    checked as data: known kinds and fields, the fields each kind needs, colours of the file's
    players, known markets, gift types, variants, notes and rule IDs, unique ids. Raises a
    :class:`.reader.ScenarioError` naming the file, the line and the field."""
    items = rd.sequence(value, ("exercises",))
    entries: list[ExerciseEntry] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(items):
        path = ("exercises", i)
        if not isinstance(item, dict):
            rd.fail(path, said("file.ex.not_mapping", value=echo(item)))
        if "kind" not in item:
            rd.fail(path, said("file.ex.needs_kind", kinds=", ".join(KIND_FIELDS)))
        kind = rd.choice(item["kind"], path + ("kind",), tuple(KIND_FIELDS), "exercise kind")
        needs, may = KIND_FIELDS[kind]
        rd.mapping(item, path, ENTRY_FIELDS[:2] + needs + may + ENTRY_FIELDS[2:])
        if "id" not in item:
            rd.fail(path, said("file.ex.needs_id"))
        ident = item["id"]
        if (
            not isinstance(ident, str)
            or len(ident) > MAX_ID_CHARS
            or not ID_PATTERN.fullmatch(ident)
        ):
            rd.fail(
                path + ("id",),
                said("file.ex.bad_id", value=echo(ident)),
            )
        if ident in seen:
            rd.fail(
                path + ("id",), said("file.ex.id_taken", id=repr(ident), other=str(seen[ident]))
            )
        seen[ident] = i
        arguments = {}
        for name in needs:
            if name not in item:
                rd.fail(path, said("file.ex.needs_field", kind=kind, field=name, what=_WHAT[name]))
        for name in needs + may:
            if name in item:
                arguments[ARGUMENTS[name]] = _read_field(rd, name, item[name], path, state)
        before = tuple(read_moves(rd, item.get("before"), path + ("before",)))
        variants = None
        if "variants" in item:
            listed = rd.sequence(item["variants"], path + ("variants",))
            variants = tuple(
                rd.choice(v, path + ("variants", j), tuple(R.VARIANTS), "variant")
                for j, v in enumerate(listed)
            )
        note = None
        if item.get("note") is not None:
            note = rd.choice(item["note"], path + ("note",), _notes(), "note")
        answer = item.get("answer")
        if "answer" in item:
            _read_answer(rd, answer, path + ("answer",))
        lines = {key[2:]: line for key, line in rd.doc.lines.items() if key[:2] == path}
        entries.append(
            ExerciseEntry(
                index=i,
                id=ident,
                kind=kind,
                arguments=arguments,
                before=before,
                variants=variants,
                note=note,
                questions=_read_texts(rd, item.get("question"), path + ("question",)),
                explanations=_read_texts(rd, item.get("explanation"), path + ("explanation",)),
                rules=_read_rules(rd, item.get("rules"), path + ("rules",)),
                answer=answer,
                has_answer="answer" in item,
                source=rd.source,
                lines=lines,
            )
        )
    return entries


def _read_field(rd, name: str, value, path, state: GameState):
    path = path + (name,)
    if name == "option":
        if not isinstance(value, str) or not value.strip():
            rd.fail(path, said("file.ex.expected", what=_WHAT[name], value=echo(value)))
        if len(value) > MAX_MOVE_CHARS:
            rd.fail(path, said("file.step_too_long", count=f"{len(value):,}", value=echo(value)))
        return value
    if name == "seat":
        return rd.choice(value, path, state.colours, "player colour")
    if name == "gift":
        return rd.choice(value, path, R.GIFT_TYPES, "gift type")
    if name == "market":
        return rd.choice(value, path, R.MARKETS, "market")
    return rd.integer(value, path, 0, _LARGEST_SQUARE)  # square


def _read_texts(rd, value, path) -> dict[str, str]:
    """A teacher's text: one text (English), or one per language (``en:`` required)."""
    if value is None:
        return {}
    if isinstance(value, str):
        texts = {DEFAULT_LANGUAGE: value}
    elif isinstance(value, dict):
        texts = rd.mapping(value, path, LANGUAGES)
        if DEFAULT_LANGUAGE not in texts:
            rd.fail(path, said("file.ex.text_needs_en"))
    else:
        rd.fail(path, said("file.ex.text_or_languages", value=echo(value)))
    for lang, text in texts.items():
        where = path + (lang,) if isinstance(value, dict) else path
        if not isinstance(text, str) or not text.strip():
            rd.fail(where, said("file.ex.expected_text", value=echo(text)))
        if len(text) > MAX_TEXT_CHARS:
            rd.fail(
                where,
                said("file.ex.text_too_long", count=f"{len(text):,}", most=f"{MAX_TEXT_CHARS:,}"),
            )
    return dict(texts)


def _read_rules(rd, value, path) -> tuple[str, ...]:
    """Rule IDs of the rules reference (``nefertiti rules`` lists them)."""
    if value is None:
        return ()
    items = [value] if isinstance(value, str) else rd.sequence(value, path)
    known = rule_ids()
    out = []
    for j, item in enumerate(items):
        where = path if isinstance(value, str) else path + (j,)
        if item not in known:
            hint = difflib.get_close_matches(str(item), known, n=1, cutoff=0.6)
            rd.fail(
                where,
                said(
                    "file.ex.unknown_rule",
                    rule=echo(item),
                    hint=said("file.did_you_mean", word=repr(hint[0])) if hint else "",
                    first=known[0],
                    last=known[-1],
                ),
            )
        out.append(item)
    return tuple(out)


def _read_answer(rd, value, path) -> None:
    ok = isinstance(value, (str, int)) and len(str(value)) <= 40
    if isinstance(value, list):
        ok = bool(value) and all(type(v) is int for v in value)
    if not ok:
        rd.fail(
            path,
            said("file.ex.bad_answer", value=echo(value)),
        )
