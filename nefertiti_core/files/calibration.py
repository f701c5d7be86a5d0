"""How hard a practice question really is: difficulty calibrated from learners' answers.

The generator gives each exercise a level 1..5 read off the question
(:func:`.practice.difficulty`); nobody checked it against how learners do. Here, as lichess does
for its puzzles, every **kind** of question and every **learner** has a rating, and each first
answer moves both:

- a kind is :func:`.practice_balance.kind_of` refined by the formula's level,
  ``"louqsor_odds/closing_chance@4"`` (:func:`kind_key`): one rating for all the questions the
  generator makes of that kind and level, so the few answers a class gives add up;
- the ratings are on the logit scale: a learner of rating ``θ`` answers a kind of rating ``b``
  right with the chance ``expected(θ, b) = 1 / (1 + exp(b - θ))``;
- the formula's level is the prior: a kind nobody answered yet has the rating
  ``(level - 3) * STEP`` (:func:`prior_rating`; ``STEP`` = 0.8: a learner who gets level 3 right
  half the time gets level 2 right 69 % of the time and level 1 83 %);
- each rating carries its uncertainty (a variance, as Glicko's rating deviation); after an answer
  ``y`` (1 right, 0 wrong) with ``p = expected(θ, b)``, one Newton step of the logistic model
  from the prior (Glickman's update without the deviation's ``g`` factor):
  ``b ← b − v_b (y − p) / (1 + v_b p (1 − p))`` and ``v_b ← 1 / (1 / v_b + p (1 − p))``, the
  learner's ``θ`` and ``v_θ`` the same way with the opposite sign. A new kind starts at
  ``v_b`` = :data:`ITEM_VAR` (1.0: at an even chance its first answer moves it by half a
  level) and settles as answers come in (after 40 answers a wrong one moves it by about a
  tenth of a level); ``v_b`` never drops below :data:`MIN_ITEM_VAR` and a learner's below
  :data:`MIN_LEARNER_VAR`, so a kind whose questions change, and a learner who learns, are
  still followed;
- until a kind is calibrated, a learner is measured against it (their rating's step, and the
  scheduler's expected chance) at its prior, the level the view shows: a few answers on other
  pages never change what this one is offered, only the kind's own rating gathers them;
- the **calibrated level** of a kind is its rating mapped back to the scale by the prior's own
  rule, rounded half up and kept in 1..5: ``level = clamp(1, 5, floor(3 + b / STEP + 0.5))``,
  once the kind has :data:`MIN_ANSWERS` (10) answers; until then it is the formula's level
  (:meth:`Calibration.level`).

Where the answers come from: the Sandbox's and a notebook's Practice (the scheduler in
:mod:`.practice`, the learner's first answer to each exercise served; the learner's rating is
kept in their ``practice.json``), and the classroom's questions on generated exercises (each
learner's answer at the reveal; a class's learners have no saved rating here, so each counts as
a learner of rating 0, and only the kind moves).

The kinds' ratings are kept in one small JSON file next to the learner record
(``$NEFERTITI_HOME/calibration.json``, :data:`FILE`): written atomically (a temporary file,
fsynced, renamed) under a file lock, re-read and merged at each write (several server processes
may write it: each answer is applied once, to what is on disk), at most :data:`MAX_BYTES` and
:data:`MAX_KINDS` kinds (read, locked, written and set aside by :mod:`..teaching.json_file`, as
the learner record is). A file that was read and is damaged, foreign or oversized is set aside as
``calibration.json.broken-<time>`` with a warning that says so, and calibration goes on from the
kinds that could still be read (one bad entry costs that entry only); a file that cannot be read
at all (no permission, too many open files, a failing disk) is left alone, with a warning, and
never overwritten. Thread safe: the served app answers from several sessions at once; with
``background=True`` the file is written by a thread, so a page's answer never waits for the
disk, and a page asking for the latest ratings (:meth:`Calibration.refresh`) never waits for
that thread or another process's lock either. A disk that refuses is tried again with the next
answer, not in a loop. Standard library only.
"""

from __future__ import annotations

import json
import math
import os
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..teaching import json_file
from ..teaching.coverage import default_path
from .practice_balance import kind_of

__all__ = [
    "FILE",
    "ITEM_VAR",
    "LEARNER_VAR",
    "MAX_BYTES",
    "MAX_KINDS",
    "MIN_ANSWERS",
    "STEP",
    "TARGET",
    "Calibration",
    "LearnerRating",
    "Rating",
    "calibration_path",
    "expected",
    "kind_key",
    "level_of",
    "prior_rating",
    "shared",
]

FILE = "calibration.json"
VERSION = 1
STEP = 0.8  # logits between two levels
ITEM_VAR = 1.0  # a kind's uncertainty before any answer (variance, in logits squared)
MIN_ITEM_VAR = 0.02
LEARNER_VAR = 1.5  # a new learner: we know little of them
MIN_LEARNER_VAR = 0.1
MIN_ANSWERS = 10  # answers before a kind's level is its calibrated one
#: The chance of a right answer the scheduler aims at (lichess's puzzles aim near here too).
TARGET = (0.70, 0.85)
MAX_BYTES = 128 * 1024
MAX_KINDS = 400  # the generator makes ~20 kinds x 5 levels: room to spare, never unbounded
MAX_PENDING = 10_000  # answers kept for a file that cannot be written, the latest
MAX_RATING = 10.0  # a rating beyond this is no rating (a hand-edited file)
#: The longest a write waits for another process's lock on the file (then it is tried again
#: with the next answer).
LOCK_SECONDS = 5.0
_KEY = re.compile(r"[a-z_]{1,30}/[a-z_]{1,40}@[1-5]")


def prior_rating(level: int) -> float:
    """The rating a kind of formula level ``level`` starts from."""
    return (int(level) - 3) * STEP


def level_of(rating: float) -> int:
    """The level 1..5 a rating stands for: ``floor(3 + rating / STEP + 0.5)``, kept in 1..5."""
    return max(1, min(5, math.floor(3 + rating / STEP + 0.5)))


def expected(learner: float, item: float) -> float:
    """The chance that a learner of rating ``learner`` answers a kind of rating ``item`` right."""
    x = max(-30.0, min(30.0, learner - item))
    return 1.0 / (1.0 + math.exp(-x))


def kind_key(g) -> str:
    """The kind a generated exercise counts for: its theme and kind, and the formula's level."""
    return f"{kind_of(g)}@{g.difficulty}"


def _number(value, name: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name}: a number expected")
    value = float(value)
    if not math.isfinite(value) or not low <= value <= high:
        raise ValueError(f"{name}: {value} is not between {low} and {high}")
    return value


def _count(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10**9:
        raise ValueError(f"{name}: a count expected")
    return value


def _step(var: float, y: float, p: float) -> tuple[float, float]:
    """One answer's Newton step: the move of the rating (towards ``y - p``) and the new variance."""
    info = p * (1 - p)
    return var * (y - p) / (1 + var * info), 1 / (1 / var + info)


@dataclass
class Rating:
    """A kind's rating: ``value`` (logits), ``var`` (its uncertainty), answers and right ones."""

    value: float
    var: float = ITEM_VAR
    answers: int = 0
    right: int = 0

    @classmethod
    def prior(cls, level: int) -> Rating:
        return cls(prior_rating(level))

    def answered(self, learner: float, correct: bool) -> float:
        """Move by one answer of a learner of rating ``learner``; returns the expected chance."""
        p = expected(learner, self.value)
        move, var = _step(self.var, 1.0 if correct else 0.0, p)
        self.value = max(-MAX_RATING, min(MAX_RATING, self.value - move))
        self.var = max(MIN_ITEM_VAR, var)
        self.answers += 1
        self.right += bool(correct)
        return p

    def as_dict(self) -> dict:
        return {
            "rating": self.value,
            "var": self.var,
            "answers": self.answers,
            "right": self.right,
        }

    @classmethod
    def from_dict(cls, data, name: str) -> Rating:
        if not isinstance(data, dict):
            raise ValueError(f"{name}: a table expected")
        rating = cls(
            _number(data.get("rating"), f"{name}.rating", -MAX_RATING, MAX_RATING),
            _number(data.get("var"), f"{name}.var", MIN_ITEM_VAR, ITEM_VAR),
            _count(data.get("answers"), f"{name}.answers"),
            _count(data.get("right"), f"{name}.right"),
        )
        if rating.right > rating.answers:
            raise ValueError(f"{name}: more right answers than answers")
        return rating


@dataclass
class LearnerRating:
    """A learner's rating (kept in their ``practice.json``): ``value``, ``var``, answers."""

    value: float = 0.0
    var: float = LEARNER_VAR
    answers: int = 0

    def answered(self, item: float, correct: bool) -> None:
        p = expected(self.value, item)
        move, var = _step(self.var, 1.0 if correct else 0.0, p)
        self.value = max(-MAX_RATING, min(MAX_RATING, self.value + move))
        self.var = max(MIN_LEARNER_VAR, var)
        self.answers += 1

    def as_dict(self) -> dict:
        return {"rating": self.value, "var": self.var, "answers": self.answers}

    @classmethod
    def from_dict(cls, data) -> LearnerRating:
        """Read a saved rating; raises ValueError for anything that is not one."""
        if not isinstance(data, dict):
            raise ValueError("'learner': a table expected")
        return cls(
            _number(data.get("rating"), "learner.rating", -MAX_RATING, MAX_RATING),
            _number(data.get("var"), "learner.var", MIN_LEARNER_VAR, LEARNER_VAR),
            _count(data.get("answers"), "learner.answers"),
        )


def calibration_path() -> Path:
    """``calibration.json`` in the learner record's folder (``$NEFERTITI_HOME``)."""
    return default_path().with_name(FILE)


def _read_table(data) -> dict[str, Rating]:
    """The kinds of a calibration file's JSON. Raises ValueError for a file that is not one, and
    :class:`.json_file.Damaged` with the good kinds as ``salvage`` when some entries are bad (a
    name that is no kind, a rating out of bounds): one bad entry costs that entry only."""
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise ValueError(f"not a calibration file of version {VERSION}")
    kinds = data.get("kinds")
    if not isinstance(kinds, dict) or len(kinds) > MAX_KINDS:
        raise ValueError(f"'kinds' is not a table of at most {MAX_KINDS} kinds")
    out, bad = {}, []
    for key, entry in kinds.items():
        try:
            if not isinstance(key, str) or not _KEY.fullmatch(key):
                raise ValueError(f"kinds.{str(key)[:60]!r}: not a kind of question")
            out[key] = Rating.from_dict(entry, f"kinds.{key}")
        except ValueError as error:
            bad.append(str(error))
    if bad:
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise json_file.Damaged(bad[0] + more, out)
    return out


@dataclass(frozen=True)
class _Answer:
    key: str
    level: int
    learner: float
    correct: bool


class Calibration:
    """The kinds' ratings, read from and written to ``path`` (None: in memory only).

    :meth:`record` takes one learner's answer, :meth:`record_class` a class's answers to one
    question; :meth:`level` says a kind's level now and whether it is calibrated; :meth:`chance`
    a learner's expected chance on an exercise. ``warning``: why the file could not be read or
    written (None when all went well): a learner is never stopped by it.
    """

    def __init__(self, path: str | Path | None = None, *, background: bool = False):
        self.path = Path(path) if path is not None else None
        self.background = background
        self.warning: str | None = None
        self._kinds: dict[str, Rating] = {}
        self._pending: list[_Answer] = []
        self._lock = threading.Lock()  # the table in memory and the pending answers
        self._io = threading.Lock()  # one write at a time from this process
        self._seen: tuple | None = None  # the file's (mtime, size) when last read
        self._writer: threading.Thread | None = None
        if self.path is not None:
            self.refresh()

    # --------------------------------------------------------------- reading
    def rating(self, key: str, level: int) -> Rating:
        """A copy of the kind's rating (its prior when nobody answered it yet)."""
        with self._lock:
            r = self._kinds.get(key)
            return Rating(r.value, r.var, r.answers, r.right) if r else Rating.prior(level)

    def level(self, g) -> tuple[int, int, bool]:
        """``(level, answers, calibrated)`` of generated exercise ``g``'s kind: the calibrated
        level once the kind has :data:`MIN_ANSWERS` answers, else the formula's."""
        r = self.rating(kind_key(g), g.difficulty)
        if r.answers >= MIN_ANSWERS:
            return level_of(r.value), r.answers, True
        return g.difficulty, r.answers, False

    def chance(self, g, learner: LearnerRating) -> float:
        """The chance that ``learner`` answers ``g`` right: by the kind's rating once it is
        calibrated (:data:`MIN_ANSWERS`), by its prior until then (the level the view shows:
        a few answers elsewhere do not yet change what a learner is offered)."""
        return expected(learner.value, self.shown_rating(g))

    def shown_rating(self, g) -> float:
        """The rating a learner is measured against on ``g``: its kind's once calibrated
        (:data:`MIN_ANSWERS`), its formula level's prior until then."""
        r = self.rating(kind_key(g), g.difficulty)
        return r.value if r.answers >= MIN_ANSWERS else prior_rating(g.difficulty)

    def kinds(self) -> dict[str, Rating]:
        """A copy of every kind's rating."""
        with self._lock:
            return {k: Rating(r.value, r.var, r.answers, r.right) for k, r in self._kinds.items()}

    def refresh(self) -> None:
        """Read the file again if another process changed it (a ``stat`` when it did not)."""
        if self.path is None:
            return
        try:
            info = self.path.stat()
        except FileNotFoundError:
            return
        except OSError as error:
            self.warning = f"{self.path}: {error.strerror or error}"
            return
        if (info.st_mtime_ns, info.st_size) == self._seen:
            return
        # never wait here (a served page's event loop calls this): a write in progress, ours or
        # another process's, adopts the file's table when it is done
        if not self._io.acquire(blocking=False):
            return
        try:
            table = self._load()
            if table is not None:
                with self._lock:
                    self._adopt(table)
        finally:
            self._io.release()

    def _load(self) -> dict[str, Rating] | None:
        """The table on disk (empty when there is none; a damaged file is set aside, keeping
        the kinds that could be read; None, with a warning, when the file cannot be read: it is
        left alone). Called with ``_io`` held."""
        target = self.path
        try:
            info = target.stat()
            raw = json_file.read_bytes(target, MAX_BYTES)
            if raw is None:
                self._seen = None
                return {}
            try:
                table = _read_table(json.loads(raw.decode("utf-8")))
            except (ValueError, RecursionError) as error:
                raise json_file.Damaged(error) from None
            self._seen = (info.st_mtime_ns, info.st_size)
            return table
        except FileNotFoundError:
            self._seen = None
            return {}
        except (OSError, json_file.Unreadable) as error:
            reason = getattr(error, "reason", error)
            if isinstance(reason, OSError):
                reason = reason.strerror or reason
            self.warning = f"{target}: {reason}; the file is left as it is"
            return None
        except json_file.Damaged as damaged:
            try:
                aside = json_file.move_aside(target).name
            except OSError as error:
                self.warning = f"{target}: {damaged.reason}; {error.strerror or error}"
                return None
            salvage = damaged.salvage or {}
            then = (
                f"the difficulty calibration goes on with the {len(salvage)} kinds that could "
                "be read"
                if salvage
                else "the difficulty calibration starts afresh"
            )
            self.warning = f"{target}: {damaged.reason}; {then} (the old file is kept as {aside})"
            self._seen = None
            return dict(salvage)

    def _adopt(self, table: dict[str, Rating]) -> None:
        """The file's table, with the answers not yet written applied on top (``_lock`` held)."""
        self._kinds = table
        for answer in self._pending:
            self._apply(self._kinds, answer)

    @staticmethod
    def _apply(table: dict[str, Rating], answer: _Answer) -> bool:
        rating = table.get(answer.key)
        if rating is None:
            if len(table) >= MAX_KINDS:
                return False
            rating = table[answer.key] = Rating.prior(answer.level)
        rating.answered(answer.learner, answer.correct)
        return True

    # --------------------------------------------------------------- answers
    def record(self, g, correct: bool, learner: LearnerRating | None = None) -> float:
        """One learner's first answer to ``g``: the kind's rating moves, and ``learner``'s (in
        place; None: a learner of rating 0 who is not followed). Returns the chance the learner
        had of answering right."""
        theta = learner.value if learner is not None else 0.0
        answer = _Answer(kind_key(g), int(g.difficulty), theta, bool(correct))
        with self._lock:
            item = self._kinds.get(answer.key)
            # the learner is measured against the kind as the view shows it: calibrated, or its
            # formula's level until then (so a page's answers do not change another's ratings)
            calibrated = item is not None and item.answers >= MIN_ANSWERS
            before = item.value if calibrated else prior_rating(answer.level)
            p = expected(theta, before)
            if not self._apply(self._kinds, answer):
                self.warning = f"more than {MAX_KINDS} kinds of question: {answer.key} not counted"
                return p
            if self.path is not None:
                self._pending.append(answer)
        if learner is not None:
            learner.answered(before, correct)
        self._persist()
        return p

    def record_class(self, g, outcomes: Iterable[bool]) -> int:
        """A class's answers to ``g`` at a question's reveal (right or wrong, one per learner),
        each as a learner of rating 0. Returns how many were counted."""
        counted = 0
        for correct in outcomes:
            answer = _Answer(kind_key(g), int(g.difficulty), 0.0, bool(correct))
            with self._lock:
                if not self._apply(self._kinds, answer):
                    self.warning = (
                        f"more than {MAX_KINDS} kinds of question: {answer.key} not counted"
                    )
                    break
                if self.path is not None:
                    self._pending.append(answer)
            counted += 1
        if counted:
            self._persist()
        return counted

    # --------------------------------------------------------------- writing
    def _persist(self) -> None:
        if self.path is None:
            return
        if not self.background:
            self.flush()
            return
        with self._lock:
            if self._writer is not None and self._writer.is_alive():
                return  # the running writer takes these answers too
            self._writer = threading.Thread(target=self._drain, name="calibration", daemon=True)
            self._writer.start()

    def _drain(self) -> None:
        """The background writer: write while answers come in; when the disk refuses, stop and
        leave the answers for the next answer's writer (never retry in a loop)."""
        while True:
            failed = self.flush() is not None
            with self._lock:
                if failed or not self._pending:
                    self._writer = None
                    return

    def flush(self) -> str | None:
        """Write the answers not yet written: under the file lock, read the file as another
        process may have left it, apply them, write it atomically and take it as the table.
        Returns a warning instead of raising when the disk refuses."""
        if self.path is None:
            return None
        with self._io:
            with self._lock:
                batch, self._pending = self._pending, []
            if not batch:
                return None
            table = None
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with json_file.locked(self.path, LOCK_SECONDS) as locked:
                    if locked is None:
                        self.warning = f"{self.path}: locked by another program"
                    else:
                        table = self._load()  # None: unreadable, never overwritten
                    if table is not None:
                        for answer in batch:
                            self._apply(table, answer)
                        self._write(table)
            except OSError as error:
                self.warning = f"{self.path}: {error.strerror or error}"
                table = None
            if table is None:
                with self._lock:  # kept in memory; tried again with the next answer
                    self._pending[:0] = batch
                    del self._pending[:-MAX_PENDING]  # a disk that never takes them: the latest
                return self.warning
            with self._lock:
                self._adopt(table)
        return None

    def _write(self, table: dict[str, Rating]) -> None:
        data = {"version": VERSION, "kinds": {k: table[k].as_dict() for k in sorted(table)}}
        text = json.dumps(data, indent=0, separators=(",", ":")) + "\n"
        json_file.write_atomic(self.path, text, ".calibration-")
        info = self.path.stat()
        self._seen = (info.st_mtime_ns, info.st_size)


_SHARED: dict[str, Calibration] = {}
_SHARED_LOCK = threading.Lock()


def shared(path: str | Path | None = None) -> Calibration:
    """The process's calibration kept at ``path`` (default :func:`calibration_path`), written
    in the background: every Practice view and classroom question of a server records here."""
    target = Path(path) if path is not None else calibration_path()
    key = os.path.realpath(target)
    with _SHARED_LOCK:
        store = _SHARED.get(key)
        if store is None:
            store = _SHARED[key] = Calibration(target, background=True)
        return store
