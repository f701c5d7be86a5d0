"""The learner's record: which rulings they have seen at work, practised themselves and answered,
kept from one session to the next.

Every engine event that a ruling decides names it in its ``rule`` data (``"R3.5"``,
``"R3.7, R4.1"``); :func:`rules_in` reads those IDs from a list of events. For each rule ID a
:class:`Coverage` counts

- **seen**: it happened on a board the learner watched (a move played by a notebook cell counts);
- **practised**: the learner's own step caused it (a click on a board, a choice in the decision
  panel): only the events the caller marks as the learner's (``record(state, learner=...)``);
- **right** / **wrong**: answers to exercises that test the rule (:meth:`Coverage.answered`).

:data:`ALL_RULE_IDS` are the RULINGS IDs the engine's events can name, so ``coverage.missing()``
is what is still to be seen, and ``coverage.by_section()`` groups it by RULINGS section (R1 to
R13).

The record lives in a small JSON file, by default ``$NEFERTITI_HOME/coverage.json`` or else
``~/.nefertiti/coverage.json``, and is never lost:

- every save is a read-modify-write under a lock (``fcntl.flock`` on ``<file>.lock``; where there
  is no ``fcntl`` the lock is skipped): what this record added since its last save is added to
  what the file holds *now*, so two kernels recording at once both keep their updates;
- the file is replaced atomically (a temporary file in the same folder, flushed and fsynced, then
  ``os.replace``); a symlink is followed and its target written, the link itself stays;
- a file that cannot be understood (bad JSON, wrong shape, nested too deep, over
  :data:`MAX_BYTES`) is moved aside as ``coverage.json.broken-<time>`` (kept) and a new record
  started; a file that cannot be read at all (no permission, not a regular file, written by a
  newer version) is left alone and the record kept in memory only;
- nothing in the file, and no failing disk, raises: :attr:`Coverage.warning` says what happened,
  in the learner's language.

Files written by the first version (``{"version": 1, "seen": [...]}``) load as rules seen.
Standard library only.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine import rules as R
from ..engine.i18n import DEFAULT_LANGUAGE, LANGUAGES, tr
from . import json_file

try:  # POSIX; elsewhere the record is written without a lock (still atomically)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

if TYPE_CHECKING:
    from ..engine.state import GameState

__all__ = [
    "ALL_RULE_IDS",
    "KINDS",
    "SECTIONS",
    "SHOWN_ONLY",
    "Coverage",
    "Marks",
    "Section",
    "answer_rules",
    "default_path",
    "load_coverage",
    "normalise",
    "rule_key",
    "rules_in",
    "rules_shown",
    "section_of",
]

FILE_VERSION = 2
HOME_VARIABLE = "NEFERTITI_HOME"
FILE_NAME = "coverage.json"
MAX_BYTES = 2 * 1024 * 1024  # a record of every rule is a few KB; anything bigger is not ours
MAX_COUNT = 10**9  # per rule and kind; a bigger number in the file is damage
LOCK_SECONDS = json_file.LOCK_SECONDS  # how long a save waits for another writer

#: What is counted per rule ID, in the order shown.
KINDS = ("seen", "practised", "right", "wrong")

#: The sections of the rules (R1 to R13; ``nefertiti rules`` lists them).
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
    if not isinstance(token, str) or len(token) > 40:
        return None
    text = token.strip().rstrip(".").replace(" ", "")
    if text[:1] == "r":
        text = "R" + text[1:]
    match = _ID.fullmatch(text)
    if not match or len(match.group(1)) > 3 or len(match.group(2) or "") > 3:
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


def _event_rules(event) -> set[str]:
    try:
        name, data = event
    except (TypeError, ValueError):
        return set()
    if not isinstance(data, dict):
        return set()
    out = _ids(data.get("rule"))
    if name == "roll" and data.get("closes") is False:
        out.add("R4.1")  # a roll that does not close leaves the dice with the roller
    return out


def rules_in(events: Iterable) -> set[str]:
    """The RULINGS IDs named by the ``rule`` data of ``events`` (``GameState.log`` entries)."""
    out: set[str] = set()
    for event in events or ():
        out |= _event_rules(event)
    return out


def steps_in(events: Iterable) -> list[tuple[int, set[str]]]:
    """Who made each step of ``events`` (``GameState.log`` entries) and the RULINGS IDs that
    step applied: ``[(seat, rules)]``, one per ``decision`` event, with the rules named by the
    events after it up to the next decision (what the step caused: a placement, the market it
    closed, the turn passing on). Events before the first decision (a setup, a roll between two
    decisions' logs) are no one's step and are left out; so is a decision without a seat."""
    steps: list[tuple[int, set[str]]] = []
    current: set[str] | None = None
    for event in events or ():
        try:
            name, data = event
        except (TypeError, ValueError):
            continue
        if name == "decision":
            seat = data.get("seat") if isinstance(data, dict) else None
            if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < 8:
                current = set()
                steps.append((seat, current))
            else:
                current = None
            continue
        if current is not None:
            current |= _event_rules(event)
    return steps


def rules_shown(state: GameState) -> set[str]:
    """The rules a position shows by being on the screen: ``{"R2"}`` for a game as setup leaves
    it (R2: every servant in hand, one Deben on each reserve (R2.5), the starting Deben from the
    first player (R2.6), no seal, gift or point yet, Louqsor closed), else nothing."""
    try:
        n = state.n
        first = state.decider
        fresh = (
            all(h == R.SERVANTS_PER_PLAYER for h in state.hand)
            and all(r == R.RESERVE_START for r in state.reserve)
            and not any(state.seals)
            and not any(state.prestige)
            and not any(any(g) for g in state.gifts)
            and [state.deben[(first + k) % n] for k in range(n)] == list(R.STARTING_DEBEN[n])
            and list(state.status) == [0, 0, 0, 1]
            and state.tile == R.LOUQSOR
        )
    except (AttributeError, TypeError, IndexError, KeyError):
        return set()
    return {"R2"} if fresh else set()


#: Rules a position shows by being on the screen (:func:`rules_shown`), never a step's doing.
SHOWN_ONLY = ("R2",)

_CITED = re.compile(r"\bR\d{1,2}(?:\.\d{1,2})?\b")


def answer_rules(exercise, feedback=None) -> set[str]:
    """The rule IDs an exercise tests: its own list (``rule_ids`` or ``rules``) if it has one,
    else the IDs the explanation of its right answer cites (the same for every answer), else
    those ``feedback``'s explanation cites."""
    for name in ("rule_ids", "rules"):
        own = getattr(exercise, name, None)
        if isinstance(own, str):
            own = [own]
        if isinstance(own, (list, tuple, set, frozenset)) and own:
            found = set()
            for item in own:
                found |= _ids(item) if isinstance(item, str) else set()
            if found:
                return found
    text = ""
    try:
        right = exercise.right_answer()
        if isinstance(right, (list, tuple)) and right:
            right = right[0]
        verdict = exercise.check(right)
        if verdict.valid and verdict.correct:
            text = verdict.explanation
    except Exception:  # no engine answer to read: the feedback given is all there is
        text = ""
    text = text or getattr(feedback, "explanation", "") or ""
    return {normalise(token) for token in _CITED.findall(text)} - {None}


def default_path() -> Path:
    """``$NEFERTITI_HOME/coverage.json``, or ``~/.nefertiti/coverage.json``."""
    home = os.environ.get(HOME_VARIABLE)
    folder = Path(home).expanduser() if home else Path.home() / ".nefertiti"
    return folder / FILE_NAME


@dataclass(frozen=True)
class Marks:
    """The counts of one rule ID."""

    seen: int = 0
    practised: int = 0
    right: int = 0
    wrong: int = 0

    def plus(self, other: Marks) -> Marks:
        return Marks(
            *(min(MAX_COUNT, a + b) for a, b in zip(self._values(), other._values(), strict=True))
        )

    def _values(self) -> tuple[int, int, int, int]:
        return (self.seen, self.practised, self.right, self.wrong)

    def __bool__(self) -> bool:
        return any(self._values())

    def as_dict(self) -> dict[str, int]:
        return {kind: value for kind, value in zip(KINDS, self._values(), strict=True) if value}


@dataclass(frozen=True)
class Section:
    """One RULINGS section of a coverage record (IDs in RULINGS order)."""

    section: str  # "R3"
    seen: tuple[str, ...]  # IDs of the section seen (those of ``all_ids`` and any others)
    missing: tuple[str, ...]  # IDs of ``all_ids`` in the section not seen yet
    practised: tuple[str, ...] = ()  # IDs the learner's own steps caused
    right: tuple[str, ...] = ()  # IDs of exercises answered right at least once
    wrong: tuple[str, ...] = ()  # IDs of exercises answered wrong at least once

    @property
    def total(self) -> int:
        return len(set(self.seen) | set(self.missing))

    @property
    def complete(self) -> bool:
        return not self.missing


_Unreadable = json_file.Unreadable  # the file is there but cannot be read: leave it alone
_Damaged = json_file.Damaged  # the file was read but is not a record: move it aside


class Coverage:
    """A learner's record of rules seen, practised and answered, kept in a JSON file.

    ``path``: the file (default :func:`default_path`); ``lang``: the language of the warnings;
    ``background``: save in a background thread (a page's click never waits for the disk; the
    tutorials' record does), every pending save done by :meth:`flush` and at exit. Otherwise
    every change is saved before the call returns.
    :attr:`warning` holds the latest problem with the file (None when all is well);
    :attr:`moved_to` the place a damaged file was moved to, if one was.
    """

    _MARKS = 64  # games whose log position is remembered (the oldest is forgotten first)

    def __init__(
        self,
        path: str | Path | None = None,
        lang: str = DEFAULT_LANGUAGE,
        *,
        background: bool = False,
    ):
        self.lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
        self.warning: str | None = None
        self.moved_to: Path | None = None
        self._base: dict[str, Marks] = {}  # what the file held at the last read or write
        self._delta: dict[str, Marks] = {}  # what this record added since its last save
        self._sending: dict[str, Marks] = {}  # what a save is writing now
        self._writable = True  # False: the file is there but unreadable, never overwrite it
        self._guard = threading.RLock()  # the marks in memory (held briefly, never during I/O)
        self._io = threading.Lock()  # one save or read of the file at a time in this process
        self._background = background
        self._writer: threading.Thread | None = None
        self._save_wanted = False
        if background:
            _BACKGROUND.add(self)
        # source key -> the last log recorded for it: only events after it count again.
        self._marks: OrderedDict[int, list] = OrderedDict()
        self._listeners: list = []  # called after every change (views that redraw)
        try:
            self.path = Path(path) if path is not None else default_path()
            self._load()
        except Exception as error:  # nothing in a file may stop the tutor
            self.path = Path(str(path)) if path is not None else Path(FILE_NAME)
            self._writable = False
            self._warn("coverage.unreadable", error)

    def __repr__(self) -> str:
        return f"<Coverage {len(self.seen())} rules seen, {self.path}>"

    # ------------------------------------------------------------------ the file
    def _warn(self, key: str, error, **params) -> str:
        message = tr(self.lang, key, path=str(self.path), error=_reason(error), **params)
        self.warning = message
        return message

    def _target(self) -> Path:
        """The file to read and write: a symlink's final target (the link itself is kept)."""
        return Path(os.path.realpath(self.path))

    def _locked(self, target: Path):
        """:func:`.json_file.locked` on ``target``, waiting at most :data:`LOCK_SECONDS`."""
        return json_file.locked(target, LOCK_SECONDS, fcntl if fcntl is not None else False)

    def _read(self, target: Path) -> dict[str, Marks] | None:
        """The record in ``target`` (None if there is no file). Raises _Unreadable or _Damaged."""
        try:
            raw = json_file.read_bytes(target, MAX_BYTES)
        except _Damaged:
            raise _Damaged(f"larger than {MAX_BYTES // (1024 * 1024)} MiB") from None
        return None if raw is None else _parse(raw)

    def _write(self, target: Path, record: dict[str, Marks]) -> None:
        """Replace ``target`` atomically with ``record`` (raises OSError)."""
        data = {
            "version": FILE_VERSION,
            "rules": {
                rule: marks.as_dict()
                for rule, marks in sorted(record.items(), key=lambda item: rule_key(item[0]))
                if marks
            },
        }
        json_file.write_atomic(target, json.dumps(data, indent=1) + "\n", ".coverage-")

    def _move_aside(self, target: Path) -> Path:
        """Rename a damaged file to ``<name>.broken-<UTC time>`` next to it (raises OSError)."""
        return json_file.move_aside(target)

    def _sync(self, *, loading: bool = False) -> str | None:
        """Under the lock: read the file, move it aside if damaged, add this record's new marks
        to it and write it back. Returns a warning (and keeps the marks) if it cannot. The
        marks in memory stay readable meanwhile (the file is not read or written under
        ``_guard``)."""
        with self._io:
            target = self._target()
            with self._guard:
                if loading and not self._delta and not os.path.lexists(target):
                    self._base = {}  # nothing recorded yet (no folder or file made by looking)
                    return None
                self._sending, self._delta = self._delta, {}
            try:
                return self._exchange(target, loading)
            finally:
                with self._guard:  # what was not written goes back to be written later
                    for rule, marks in self._sending.items():
                        self._delta[rule] = marks.plus(self._delta.get(rule, Marks()))
                    self._sending = {}

    def _exchange(self, target: Path, loading: bool) -> str | None:
        """The read-modify-write of :meth:`_sync`; clears ``_sending`` once it is written."""
        with self._locked(target) as locked:
            if locked is None:
                return self._warn("coverage.busy", "locked by another program")
            try:
                disk = self._read(target)
            except _Unreadable as problem:
                self._writable = False
                return self._warn(problem.key, problem.reason)
            except _Damaged as problem:
                try:
                    self.moved_to = self._move_aside(target)
                except OSError as error:
                    self._writable = False
                    return self._warn("coverage.stuck", problem.reason, why=_reason(error))
                self._warn("coverage.moved", problem.reason, kept=str(self.moved_to))
                with self._guard:
                    for rule, marks in problem.salvage.items():
                        self._sending[rule] = self._sending.get(rule, Marks()).plus(marks)
                disk = {}
            self._writable = True
            disk = disk or {}
            with self._guard:
                sending = dict(self._sending)
            if not sending:  # nothing to add (no file is made until there is)
                with self._guard:
                    self._base = disk
                return None
            merged = dict(disk)
            for rule, marks in sending.items():
                merged[rule] = merged.get(rule, Marks()).plus(marks)
            try:
                self._write(target, merged)
            except OSError as error:
                with self._guard:
                    self._base = disk
                return self._warn("coverage.unwritable", error)
            with self._guard:
                self._base = merged
                self._sending = {}
            if not loading and self.warning and self.moved_to is None:
                self.warning = None  # an earlier problem is over
            return None

    def _load(self) -> None:
        self._sync(loading=True)

    def save(self) -> str | None:
        """Add what this record gained since its last save to the file (read-modify-write under
        the lock, atomic replace). Returns a warning instead of raising if it cannot; the marks
        are then kept and written by a later save."""
        try:
            if not self._writable:
                # never overwrite a file that could not be read: try reading it again
                self._sync(loading=True)
                if not self._writable:
                    return self.warning
            return self._sync()
        except Exception as error:  # a disk that fails in an unexpected way
            return self._warn("coverage.unwritable", error)

    def refresh(self) -> str | None:
        """Read the file again (another kernel's marks show up); returns the warning, if any."""
        try:
            self._sync(loading=True)
        except Exception as error:  # a disk that fails in an unexpected way
            self._warn("coverage.unreadable", error)
        return self.warning

    # ------------------------------------------------------------------ listening
    _LISTENERS = 32  # views kept informed (the oldest is dropped first)

    def on_change(self, callback) -> None:
        """Call ``callback()`` after every change of the record (a view that redraws itself)."""
        self._listeners.append(callback)
        del self._listeners[: -self._LISTENERS]

    def _changed(self) -> None:
        for callback in list(self._listeners):
            try:
                callback()
            except Exception:  # a broken view must not stop the recording
                self._listeners.remove(callback)

    # ------------------------------------------------------------------ recording
    def _bump(self, rules: dict[str, Marks]) -> set[str]:
        """Add marks; returns the rule IDs seen for the first time; saves."""
        rules = {r: m for r, m in rules.items() if m}
        if not rules:
            return set()
        with self._guard:
            before = self.seen()
            for rule, marks in rules.items():
                self._delta[rule] = self._delta.get(rule, Marks()).plus(marks)
            new = self.seen() - before
        if self._background:
            self._save_later()
        else:
            self.save()
        self._changed()
        return new

    def _save_later(self) -> None:
        """Background mode: one thread saves whatever is pending, again while more comes."""
        with self._guard:
            self._save_wanted = True
            if self._writer is not None:
                return
            self._writer = threading.Thread(
                target=self._write_pending, name="coverage-save", daemon=True
            )
            self._writer.start()

    def _write_pending(self) -> None:
        while True:
            with self._guard:
                if not self._save_wanted:
                    self._writer = None
                    return
                self._save_wanted = False
            self.save()

    def flush(self, timeout: float | None = 30.0) -> str | None:
        """Wait for a background save and write anything still pending; returns the warning."""
        writer = self._writer
        if writer is not None and writer is not threading.current_thread():
            writer.join(timeout)
        with self._guard:
            pending = bool(self._delta)
        if pending:
            self.save()
        return self.warning

    def add(self, rule_ids: Iterable[str]) -> set[str]:
        """Mark rule IDs as seen; returns those that are new (and saves)."""
        ids = {normalise(r) for r in rule_ids or ()} - {None}
        return self._bump({r: Marks(seen=1) for r in ids})

    def record(self, state: GameState, *, learner: Iterable = (), source=None) -> set[str]:
        """Add the rules named by ``state``'s log since the last record of the same ``source``
        (default: the state itself) as seen, and those named by events in ``learner`` (the
        events the learner's own steps emitted, compared by identity) as practised too.

        Returns the rule IDs seen for the first time. A state without a log (``record_events``
        off) adds nothing. After an undo (a shorter log) nothing is counted again.
        """
        log = getattr(state, "log", None)
        if not isinstance(log, list):
            return set()
        key = id(source if source is not None else state)
        with self._guard:
            old = self._marks.pop(key, None)
            start = 0
            if old is not None:
                limit = min(len(old), len(log))
                while start < limit and old[start] is log[start]:
                    start += 1
            self._marks[key] = list(log)
            while len(self._marks) > self._MARKS:
                self._marks.popitem(last=False)
        mine = {id(event) for event in learner or ()}
        counts: dict[str, list[int]] = {}
        for event in log[start:]:
            by_learner = id(event) in mine
            for rule in _event_rules(event):
                seen_practised = counts.setdefault(rule, [0, 0])
                seen_practised[0] += 1
                seen_practised[1] += by_learner
        return self._bump({r: Marks(seen=s, practised=p) for r, (s, p) in counts.items()})

    def answered(self, rule_ids: Iterable[str], correct: bool) -> None:
        """An exercise testing ``rule_ids`` was answered (right or wrong)."""
        ids = {normalise(r) for r in rule_ids or ()} - {None}
        marks = Marks(right=1) if correct else Marks(wrong=1)
        self._bump(dict.fromkeys(ids, marks))

    def reset(self) -> str | None:
        """Forget everything (the file becomes an empty record; other writers' later marks
        still add to it)."""
        if not self._writable:  # never overwrite a file that could not be read
            return self.warning
        self.flush()
        with self._io:
            with self._guard:
                self._delta.clear()
                self._base = {}
                self._marks.clear()
            target = self._target()
            with self._locked(target) as locked:
                if locked is None:
                    return self._warn("coverage.busy", "locked by another program")
                try:
                    self._write(target, {})
                except OSError as error:
                    return self._warn("coverage.unwritable", error)
        self._changed()
        return None

    # ------------------------------------------------------------------ reading
    def marks(self) -> dict[str, Marks]:
        """Every rule ID with its counts (what the file held at the last save, plus what this
        record added since)."""
        with self._guard:
            out = dict(self._base)
            for pending in (self._sending, self._delta):
                for rule, marks in pending.items():
                    out[rule] = out.get(rule, Marks()).plus(marks)
        return {r: m for r, m in out.items() if m}

    def counts(self, rule_id: str) -> Marks:
        return self.marks().get(normalise(rule_id) or "", Marks())

    def _having(self, kind: str) -> set[str]:
        return {r for r, m in self.marks().items() if getattr(m, kind)}

    def seen(self) -> set[str]:
        return self._having("seen")

    def practised(self) -> set[str]:
        return self._having("practised")

    def right(self) -> set[str]:
        return self._having("right")

    def wrong(self) -> set[str]:
        return self._having("wrong")

    def missing(self, all_ids: Iterable[str] = ALL_RULE_IDS) -> list[str]:
        """The IDs of ``all_ids`` not seen yet, in RULINGS order."""
        wanted = {normalise(r) for r in all_ids} - {None}
        return sorted(wanted - self.seen(), key=rule_key)

    def by_section(self, all_ids: Iterable[str] = ALL_RULE_IDS) -> dict[str, Section]:
        """Seen, missing, practised, right and wrong IDs for each RULINGS section, R1 to R13
        (every section present)."""
        wanted = {normalise(r) for r in all_ids} - {None}
        marks = self.marks()
        missing = sorted(wanted - {r for r, m in marks.items() if m.seen}, key=rule_key)

        def having(kind: str, section: str) -> tuple[str, ...]:
            return tuple(
                sorted(
                    (r for r, m in marks.items() if getattr(m, kind) and section_of(r) == section),
                    key=rule_key,
                )
            )

        return {
            section: Section(
                section,
                having("seen", section),
                tuple(r for r in missing if section_of(r) == section),
                having("practised", section),
                having("right", section),
                having("wrong", section),
            )
            for section in SECTIONS
        }

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


#: Records saving in the background: their pending saves are done when the interpreter exits.
_BACKGROUND: weakref.WeakSet = weakref.WeakSet()


@atexit.register
def _flush_at_exit() -> None:
    for coverage in list(_BACKGROUND):
        with contextlib.suppress(Exception):
            coverage.flush(timeout=10.0)


def _parse(raw: bytes) -> dict[str, Marks]:
    """A record from the file's bytes (version 2, or version 1's list of rules seen). Raises
    _Damaged (with what could be salvaged) or _Unreadable (a newer version's file)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        data = json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise _Damaged("nested too deeply") from None
    except (ValueError, UnicodeDecodeError, MemoryError) as error:
        raise _Damaged(_short(error)) from None
    if not isinstance(data, dict):
        raise _Damaged("not a record (a JSON object is expected)")
    version = data.get("version", 1)
    if type(version) is not int or version < 1:
        raise _Damaged("no valid 'version'")
    if version > FILE_VERSION:
        raise _Unreadable(f"written by a newer version ({version})", "coverage.newer")
    if "rules" not in data and "seen" in data:  # version 1: {"seen": ["R3.5", ...]}
        seen = data["seen"]
        if not isinstance(seen, list):
            raise _Damaged("no list of rules under 'seen'")
        ids = [normalise(item) for item in seen]
        salvage = {r: Marks(seen=1) for r in ids if r}
        if None in ids:
            raise _Damaged("entries that are not rule IDs", salvage)
        return salvage
    rules = data.get("rules")
    if not isinstance(rules, dict):
        raise _Damaged("no table of rules under 'rules'")
    out: dict[str, Marks] = {}
    bad = False
    for key, value in rules.items():
        rule = normalise(key)
        marks = _marks(value)
        if rule is None or marks is None:
            bad = True
            continue
        out[rule] = out.get(rule, Marks()).plus(marks)
    if bad:
        raise _Damaged("entries that are not rule IDs with counts", out)
    return out


def _marks(value) -> Marks | None:
    if not isinstance(value, dict) or not set(value) <= set(KINDS):
        return None
    counts = []
    for kind in KINDS:
        n = value.get(kind, 0)
        if type(n) is not int or not 0 <= n <= MAX_COUNT:
            return None
        counts.append(n)
    return Marks(*counts)


def _short(error) -> str:
    text = str(error)
    return text if len(text) <= 120 else text[:117] + "..."


def _reason(error) -> str:
    if isinstance(error, OSError):
        return error.strerror or type(error).__name__
    return _short(error)


def load_coverage(
    path: str | Path | None = None, lang: str = DEFAULT_LANGUAGE
) -> tuple[Coverage, str | None]:
    """A :class:`Coverage` and the warning about its file (None when it loaded cleanly)."""
    coverage = Coverage(path, lang)
    return coverage, coverage.warning
