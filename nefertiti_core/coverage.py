"""Rule coverage: which rulings a learner has seen at work, kept from one session to the next.

Every engine event that a ruling decides names it in its ``rule`` data (``"R3.5"``,
``"R3.7, R4.1"``; see ``shared/rules/RULINGS.md``). :func:`rules_in` reads those IDs from a list of
events; a :class:`Coverage` adds the IDs of a game's log as the learner plays (:meth:`Coverage.record`)
and keeps them in a small JSON file, by default ``$NEFERTITI_HOME/coverage.json`` or else
``~/.nefertiti/coverage.json``. :data:`ALL_RULE_IDS` are the RULINGS IDs the engine's events can
name, so ``coverage.missing()`` is what is still to be seen, and ``coverage.by_section()`` groups
it by RULINGS section (R1 to R13).

A file that cannot be read or written never stops the tutor: the record starts empty (or stays in
memory only) and :attr:`Coverage.warning` says why, in the learner's language. Standard library only.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import rules as R
from .i18n import DEFAULT_LANGUAGE, LANGUAGES, tr

if TYPE_CHECKING:
    from .state import GameState

__all__ = [
    "ALL_RULE_IDS",
    "SECTIONS",
    "Coverage",
    "Section",
    "default_path",
    "load_coverage",
    "normalise",
    "rule_key",
    "rules_in",
    "section_of",
]

FILE_VERSION = 1
HOME_VARIABLE = "NEFERTITI_HOME"
FILE_NAME = "coverage.json"

#: The sections of RULINGS.md.
SECTIONS = tuple(f"R{n}" for n in range(1, 14))

_ID = re.compile(r"R(\d+)(?:\.(\d+))?")

# The IDs named by the ``rule`` data of the events state.py emits (``_emit(..., rule=...)``), apart
# from the stalls' closing rules, which come from rules.STALLS. tests/test_coverage.py reads
# state.py and fails when this list and the engine drift apart.
# Rules that no event names in its data but rules_in() reads off an event's outcome.
DERIVED_RULES = ("R4.1",)  # a Louqsor roll that does not close: the dice stay with the roller

_EVENT_RULES = DERIVED_RULES + (
    "R2",  # setup
    "R4.2",  # reroll
    "R5.5",  # turn
    "R5.1",  # recruit
    "R5.2",  # place (no bonus due)
    "R5.3",  # place (a bonus due)
    "R5.4",  # close_by_choice, market_closes with no servant left
    "R6.2",  # pay, no_cards
    "R6.3",  # shame_discard
    "R6.4",  # buy, half, pass
    "R6.6",  # market_closed
    "R6.7",  # reopen
    "R6.8",  # akhenaton, stays_closed
    "R7.1",  # game_over
    "R10.2",  # vizier
    "R10.3",  # exchange
    "R10.4",  # high_priest
    "R10.5",  # chief
    "R10.6",  # royal_servant
    "R10.7",  # scribe
    "R10.8",  # treasurer
)


def rule_key(rule_id: str) -> tuple[int, int]:
    """Sort key in RULINGS order: R2 < R2.1 < R3.1 < R10.2 (a section before its rulings)."""
    match = _ID.fullmatch(rule_id)
    if not match:
        return (10**6, 0)
    return (int(match.group(1)), int(match.group(2) or 0))


#: Every RULINGS ID the engine's events can name, in RULINGS order.
ALL_RULE_IDS: tuple[str, ...] = tuple(
    sorted(set(_EVENT_RULES) | {stall.rule_id for stall in R.STALLS}, key=rule_key)
)


def normalise(token) -> str | None:
    """``" r3.5 "`` -> ``"R3.5"``, ``"R03.05"`` -> ``"R3.5"``; None if it is not a rule ID."""
    if not isinstance(token, str):
        return None
    text = token.strip().rstrip(".").replace(" ", "")
    if text[:1] == "r":
        text = "R" + text[1:]
    match = _ID.fullmatch(text)
    if not match:
        return None
    section = int(match.group(1))
    if section == 0:
        return None
    if match.group(2) is None:
        return f"R{section}"
    return f"R{section}.{int(match.group(2))}"


def section_of(rule_id: str) -> str:
    """The RULINGS section of an ID: ``"R3.5"`` -> ``"R3"``."""
    return rule_id.split(".", 1)[0]


def _ids(text) -> set[str]:
    """The IDs in one ``rule`` value: comma- or semicolon-separated, ranges (R6.5-R6.7) expanded."""
    out: set[str] = set()
    if not isinstance(text, str):
        return out
    for part in re.split(r"[,;/]", text):
        if "-" in part or "\u2013" in part:
            first, _, last = part.replace("\u2013", "-").partition("-")
            a, b = normalise(first), normalise(last)
            if a and b and section_of(a) == section_of(b) and "." in a and "." in b:
                low, high = rule_key(a)[1], rule_key(b)[1]
                out.update(f"{section_of(a)}.{n}" for n in range(low, high + 1))
                continue
        one = normalise(part)
        if one:
            out.add(one)
    return out


def rules_in(events: Iterable) -> set[str]:
    """The RULINGS IDs named by the ``rule`` data of ``events`` (``GameState.log`` entries)."""
    out: set[str] = set()
    for event in events or ():
        try:
            _, data = event
        except (TypeError, ValueError):
            continue
        if isinstance(data, dict):
            out |= _ids(data.get("rule"))
            if event[0] == "roll" and data.get("closes") is False:
                out.add("R4.1")  # a roll that does not close leaves the dice with the roller
    return out


def default_path() -> Path:
    """``$NEFERTITI_HOME/coverage.json``, or ``~/.nefertiti/coverage.json``."""
    home = os.environ.get(HOME_VARIABLE)
    folder = Path(home).expanduser() if home else Path.home() / ".nefertiti"
    return folder / FILE_NAME


@dataclass(frozen=True)
class Section:
    """One RULINGS section of a coverage record."""

    section: str  # "R3"
    seen: tuple[str, ...]  # IDs of the section seen (those of ``all_ids`` and any others)
    missing: tuple[str, ...]  # IDs of ``all_ids`` in the section not seen yet

    @property
    def total(self) -> int:
        return len(set(self.seen) | set(self.missing))

    @property
    def complete(self) -> bool:
        return not self.missing


class Coverage:
    """The rules a learner has seen at work, saved in a JSON file after every new one.

    ``path``: the file (default :func:`default_path`); ``lang``: the language of the warnings.
    :attr:`warning` holds the latest problem with the file (None when all is well).
    """

    _MARKS = 64  # games whose log position is remembered (the oldest is forgotten first)

    def __init__(self, path: str | Path | None = None, lang: str = DEFAULT_LANGUAGE):
        self.path = Path(path) if path is not None else default_path()
        self.lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
        self.warning: str | None = None
        self._seen: set[str] = set()
        # id(state) -> (its log list, how many events were recorded): "since the last record".
        self._marks: OrderedDict[int, tuple[list, int]] = OrderedDict()
        self._load()

    def __repr__(self) -> str:
        return f"<Coverage {len(self._seen)} rules seen, {self.path}>"

    # --- the file
    def _warn(self, key: str, error) -> str:
        message = tr(self.lang, key, path=str(self.path), error=_reason(error))
        self.warning = message
        return message

    def _load(self) -> None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return  # nothing recorded yet
        except (OSError, UnicodeDecodeError) as error:
            self._warn("exercise.coverage.unreadable", error)
            return
        try:
            data = json.loads(text)
        except ValueError as error:
            self._warn("exercise.coverage.corrupt", error)
            return
        seen = data.get("seen") if isinstance(data, dict) else None
        if not isinstance(seen, list):
            self._warn("exercise.coverage.corrupt", "no list of rules under 'seen'")
            return
        ids = [normalise(item) for item in seen]
        if None in ids:
            self._warn("exercise.coverage.corrupt", "entries that are not rule IDs were dropped")
        self._seen = set(ids) - {None}

    def save(self) -> str | None:
        """Write the record (atomically); returns a warning instead of raising if it cannot."""
        data = {"version": FILE_VERSION, "seen": sorted(self._seen, key=rule_key)}
        tmp = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".coverage-", suffix=".tmp", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=1)
                handle.write("\n")
            os.replace(tmp, self.path)
            tmp = None
        except OSError as error:
            return self._warn("exercise.coverage.unwritable", error)
        finally:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
        return None

    # --- recording
    def add(self, rule_ids: Iterable[str]) -> set[str]:
        """Record rule IDs directly; returns those that are new (and saves if there are any)."""
        ids = {normalise(r) for r in rule_ids} - {None}
        new = ids - self._seen
        if new:
            self._seen |= new
            self.save()
        return new

    def record(self, state: GameState) -> set[str]:
        """Add the rules named by ``state``'s log since the last record of that state.

        Returns the rule IDs seen for the first time. A state without a log (``record_events``
        off) adds nothing. After an undo (a shorter log) the whole log is read again.
        """
        log = getattr(state, "log", None)
        if not isinstance(log, list):
            return set()
        key = id(state)
        start = 0
        mark = self._marks.pop(key, None)
        if mark is not None and mark[0] is log and mark[1] <= len(log):
            start = mark[1]
        self._marks[key] = (log, len(log))
        while len(self._marks) > self._MARKS:
            self._marks.popitem(last=False)
        return self.add(rules_in(log[start:]))

    def reset(self) -> str | None:
        """Forget everything seen (and save the empty record)."""
        self._seen.clear()
        self._marks.clear()
        return self.save()

    # --- reading
    def seen(self) -> set[str]:
        return set(self._seen)

    def missing(self, all_ids: Iterable[str] = ALL_RULE_IDS) -> list[str]:
        """The IDs of ``all_ids`` not seen yet, in RULINGS order."""
        wanted = {normalise(r) for r in all_ids} - {None}
        return sorted(wanted - self._seen, key=rule_key)

    def by_section(self, all_ids: Iterable[str] = ALL_RULE_IDS) -> dict[str, Section]:
        """Seen and missing IDs for each RULINGS section, R1 to R13 (every section present)."""
        wanted = {normalise(r) for r in all_ids} - {None}
        missing = self.missing(wanted)
        out = {}
        for section in SECTIONS:
            out[section] = Section(
                section,
                tuple(sorted((r for r in self._seen if section_of(r) == section), key=rule_key)),
                tuple(r for r in missing if section_of(r) == section),
            )
        return out

    def summary(self, all_ids: Iterable[str] = ALL_RULE_IDS) -> list[str]:
        """One line per section that has rules to see: "R3: 5 of 8 rules seen"."""
        wanted = {normalise(r) for r in all_ids} - {None}
        lines = []
        for section, part in self.by_section(wanted).items():
            total = len([r for r in wanted if section_of(r) == section])
            if total:
                seen = total - len(part.missing)
                lines.append(
                    tr(
                        self.lang,
                        "exercise.coverage.section",
                        section=section,
                        seen=seen,
                        total=total,
                    )
                )
        return lines


def _reason(error) -> str:
    if isinstance(error, OSError):
        return error.strerror or type(error).__name__
    return str(error)


def load_coverage(
    path: str | Path | None = None, lang: str = DEFAULT_LANGUAGE
) -> tuple[Coverage, str | None]:
    """A :class:`Coverage` and the warning about its file (None when it loaded cleanly)."""
    coverage = Coverage(path, lang)
    return coverage, coverage.warning
