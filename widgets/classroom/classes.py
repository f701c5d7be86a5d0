"""Classes: a roster that outlives a room, and what each learner understood, rule by rule.

A room lives for a lesson (12 hours at most, ``room.py``); a **class** lives as long as the
teacher uses it (:data:`CLASS_TTL_DAYS` unused and it is gone). A teacher makes a class by name
and gets its own secret (kept like a room's teacher key: only its hash is stored here; the
browser keeps the secret in an HttpOnly cookie the server sets, ``widgets.server.cookies.CLASS``;
never in an address). A room is then kept for a class (:meth:`ClassBook.link`, once: a room
feeds one class), and what happens in it feeds the class's record:

* **who**: a learner is the same roster entry in every room of the class when they join with
  the same name, compared by its skeleton (``widgets.classroom.names.skeleton``: case, accents,
  spaces and look-alike letters set aside, as a room tells two names apart);
* **practised**: every step a learner made at the table (the seat they held decided it) and on
  their own break-away copy, with the rules that step applied — which rules those are is the
  engine's (``nefertiti_core.teaching.coverage.steps_in``), this module only counts;
* **answered**: each class question's answer once the teacher revealed it, right or wrong (the
  engine's verdict, ``widgets.classroom.poll.Reveal``), counted for every rule the exercise
  tests (``coverage.answer_rules``), and kept as a line of the learner's history (the question,
  when, their answer, right or not).

Where: five tables on the store's ``metadata`` (schema 8, ``widgets.server.store``), SQLite or
PostgreSQL: ``classroom_classes`` (id, name, the secret's hash, created, last used),
``classroom_class_rooms`` (which class a room feeds), ``classroom_roster`` (per class: a
number, the name as first given, its skeleton), ``classroom_record`` (per class, learner and
rule: practised, right, wrong) and ``classroom_history`` (per class, learner, room and question:
the question's ref and words, when, the answer, right or not, the rules). A question's line is
written once (its key is the room and the question's number): a reveal seen again (another
change of the room, a restart) counts nothing twice.

Written when the room's change is made (``Room.class_hook``, called with the room's lock held,
off the event loop, before the pages hear of the change), by the process that made it: a change
another process read back is that process's to record. A write that fails (the database away)
is logged and left out: the class record is never worth a move.

Bounded: :data:`MAX_ROSTER` learners a class, :data:`MAX_HISTORY` question lines a learner
(the oldest go), :data:`MAX_CLASSES` classes a server, names :data:`MAX_CLASS_NAME`
characters; the rules are the engine's few dozen IDs.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import logging
import secrets
import threading
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Integer,
    String,
    Table,
    Text,
    and_,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from nefertiti_core.engine.i18n import LANGUAGES, tr
from nefertiti_core.teaching import rules_reference
from nefertiti_core.teaching.coverage import answer_rules, rule_key, steps_in
from widgets.classroom import names
from widgets.classroom.room import CODE_RE, Room, new_code
from widgets.server.store import error_line, get_store, metadata

log = logging.getLogger("widgets.classroom.classes")

#: A class nobody used (no room opened for it, no move, no answer, no look at its record) for
#: this long is deleted with its record: a school year and a summer.
CLASS_TTL_DAYS = 400
MAX_CLASS_NAME = 40
MAX_ROSTER = 200
MAX_HISTORY = 500
MAX_CLASSES = 5000
#: A question's words as kept in the history (the export reads them again in the teacher's
#: language when the exercise is still the tutor's).
MAX_QUESTION_CHARS = 300
#: Entries of each of a process's caches (the rooms' classes, the questions recorded): past it
#: the cache starts again (the store has it all: a cache only saves a read).
MAX_MEMO = 10_000
#: What the record counts per learner and rule.
COUNTS = ("practised", "right", "wrong")

classes_table = Table(
    "classroom_classes",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(MAX_CLASS_NAME * 4), nullable=False),
    Column("teacher_hash", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("touched", DateTime(timezone=True), nullable=False, index=True),
)
class_rooms_table = Table(
    "classroom_class_rooms",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("class_id", String(16), nullable=False, index=True),
    Column("linked", DateTime(timezone=True), nullable=False),
)
roster_table = Table(
    "classroom_roster",
    metadata,
    Column("class_id", String(16), primary_key=True),
    Column("learner", Integer, primary_key=True, autoincrement=False),
    Column("name", String(100), nullable=False),
    Column("name_key", String(200), nullable=False),
    Column("joined", DateTime(timezone=True), nullable=False),
)
record_table = Table(
    "classroom_record",
    metadata,
    Column("class_id", String(16), primary_key=True),
    Column("learner", Integer, primary_key=True, autoincrement=False),
    Column("rule", String(16), primary_key=True),
    Column("practised", Integer, nullable=False, default=0),
    Column("right", Integer, nullable=False, default=0),
    Column("wrong", Integer, nullable=False, default=0),
)
history_table = Table(
    "classroom_history",
    metadata,
    Column("class_id", String(16), primary_key=True),
    Column("learner", Integer, primary_key=True, autoincrement=False),
    Column("room", String(16), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("ref", String(120), nullable=False, default=""),
    Column("question", Text, nullable=False, default=""),
    Column("answered", DateTime(timezone=True), nullable=False, index=True),
    Column("answer", String(100), nullable=False, default=""),
    Column("correct", Boolean, nullable=False),
    Column("rules", String(200), nullable=False, default=""),
)
TABLES = [classes_table, class_rooms_table, roster_table, record_table, history_table]


class ClassError(ValueError):
    """A class refused (a bad name, too many, unknown): ``key`` is a message of the catalog."""

    def __init__(self, key: str, **params):
        self.key, self.params = key, params
        super().__init__(tr("en", key, **params))

    def text(self, lang: str = "en") -> str:
        return tr(lang if lang in LANGUAGES else "en", self.key, **self.params)


@dataclass(frozen=True)
class ClassInfo:
    id: str
    name: str


@dataclass(frozen=True)
class RuleRow:
    """One rule of a class's record: per learner (roster number) ``(practised, right, wrong)``."""

    rule: str
    title: str
    learners: dict[int, tuple[int, int, int]]

    @property
    def practised(self) -> int:
        return sum(p for p, _, _ in self.learners.values())

    @property
    def right(self) -> int:
        return sum(r for _, r, _ in self.learners.values())

    @property
    def wrong(self) -> int:
        return sum(w for _, _, w in self.learners.values())


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def clean_class_name(name) -> str:
    """A class's name as kept (NFKC, spaces folded, printable, at most :data:`MAX_CLASS_NAME`
    characters); :class:`ClassError` naming what is wrong otherwise."""
    if not isinstance(name, str) or len(name) > names.MAX_INPUT:
        raise ClassError("class.refuse.name_long", n=MAX_CLASS_NAME)
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    if not any(unicodedata.category(c)[0] in "LN" for c in text):
        raise ClassError("class.refuse.name_empty")
    if any(unicodedata.category(c) in names.REFUSED_CATEGORIES for c in text):
        raise ClassError("class.refuse.name_control")
    if len(text) > MAX_CLASS_NAME:
        raise ClassError("class.refuse.name_long", n=MAX_CLASS_NAME)
    return text


def name_key(name: str) -> str:
    """How a learner's name is compared across the rooms of a class (its skeleton, or the name
    folded when it has no letter the skeleton keeps)."""
    return (names.skeleton(name) or name.casefold())[:200]


def rule_title(rule: str, lang: str) -> str:
    """The rule's title in ``lang`` from the engine's rules reference ("" when it has none)."""
    entry = rules_reference.lookup(rule, lang if lang in LANGUAGES else "en")
    return entry.title if entry is not None else ""


def safe_cell(value) -> str:
    """A spreadsheet cell that cannot run as a formula: a text beginning with ``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return gets a leading apostrophe (OWASP's advice for CSV
    injection); the rest is the text as it is."""
    text = "" if value is None else str(value)
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + text
    return text


def _delta(row: dict) -> dict:
    """The parameters of :meth:`ClassBook._adding` for one row of counts."""
    return {"k_learner": row["k_learner"], "k_rule": row["k_rule"]} | {
        f"d_{c}": row[c] for c in COUNTS
    }


def _csv(rows: list[list]) -> str:
    """UTF-8 CSV text with a byte order mark (Excel then reads Chinese and German names), every
    text cell made safe (:func:`safe_cell`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([v if isinstance(v, int) else safe_cell(v) for v in row])
    return "\ufeff" + out.getvalue()


class ClassBook:
    """The classes of a store (see the module's doc); thread-safe."""

    def __init__(self, engine):
        self.engine = engine
        with engine.begin() as db:
            metadata.create_all(db, tables=TABLES)
        self._lock = threading.Lock()
        #: room code -> class id, for rooms known to feed a class (a room never changes class)
        self._linked: dict[str, str] = {}
        #: (room code, question number) whose answers this process recorded
        self._recorded: set[tuple[str, int]] = set()
        #: a learner's break-away copy -> how many of its events were recorded
        self._private_seen: dict[tuple[str, int], tuple[int, int]] = {}
        self.expire()

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """One write transaction; on the store's SQLite it takes the write lock at its start
        (``widgets.server.store``: BEGIN IMMEDIATE), so it waits for another writer rather than
        failing half-way."""
        with self.engine.connect() as db:
            db.execution_options(nefertiti_write=True)
            with db.begin():
                yield db

    def _remember(self, memo, item) -> None:
        """``memo`` (a cache of this process's) holds ``item``; emptied past :data:`MAX_MEMO`."""
        if len(memo) >= MAX_MEMO:
            memo.clear()
        if isinstance(memo, dict):
            memo.update([item])
        else:
            memo.add(item)

    # ------------------------------------------------------------------ classes
    def create(self, name) -> tuple[ClassInfo, str]:
        """A new class named ``name`` and its secret (only the hash is kept)."""
        shown = clean_class_name(name)
        secret = secrets.token_urlsafe(24)
        now = _now()
        with self._write() as db:
            count = db.execute(select(func.count()).select_from(classes_table)).scalar_one()
            if count >= MAX_CLASSES:
                raise ClassError("class.refuse.too_many", n=MAX_CLASSES)
            code = new_code()
            while db.execute(select(classes_table.c.id).where(classes_table.c.id == code)).first():
                code = new_code()
            db.execute(
                insert(classes_table).values(
                    id=code, name=shown, teacher_hash=digest(secret), created=now, touched=now
                )
            )
        return ClassInfo(code, shown), secret

    def get(self, class_id) -> ClassInfo | None:
        if not isinstance(class_id, str) or not CODE_RE.fullmatch(class_id):
            return None
        with self.engine.connect() as db:
            row = db.execute(
                select(classes_table.c.id, classes_table.c.name).where(
                    classes_table.c.id == class_id
                )
            ).first()
        return ClassInfo(row.id, row.name) if row is not None else None

    def is_teacher(self, class_id, secret) -> bool:
        """Whether ``secret`` is the class's (its teacher's browser holds it)."""
        if not isinstance(secret, str) or not 16 <= len(secret) <= 64:
            return False
        if not isinstance(class_id, str) or not CODE_RE.fullmatch(class_id):
            return False
        with self.engine.connect() as db:
            wanted = db.execute(
                select(classes_table.c.teacher_hash).where(classes_table.c.id == class_id)
            ).scalar()
        return wanted is not None and hmac.compare_digest(digest(secret), wanted)

    def mine(self, kept: dict[str, str]) -> list[ClassInfo]:
        """The classes whose secret ``kept`` (``{class id: secret}``, a browser's cookie) holds,
        in its order."""
        out = []
        for class_id, secret in kept.items():
            info = self.get(class_id)
            if info is not None and self.is_teacher(class_id, secret):
                out.append(info)
        return out

    def link(self, room: Room, class_id: str) -> bool:
        """Keep ``room``'s record in the class from now on (the caller checked that whoever asks
        is the room's teacher and the class's). The questions it revealed already are recorded
        now. False if the room feeds another class already (it stays with that one)."""
        now = _now()
        with self._write() as db:
            have = db.execute(
                select(class_rooms_table.c.class_id).where(class_rooms_table.c.room == room.code)
            ).scalar()
            if have is None:
                try:
                    with db.begin_nested():
                        db.execute(
                            insert(class_rooms_table).values(
                                room=room.code, class_id=class_id, linked=now
                            )
                        )
                    have = class_id
                except IntegrityError:  # another process linked it at this moment
                    have = db.execute(
                        select(class_rooms_table.c.class_id).where(
                            class_rooms_table.c.room == room.code
                        )
                    ).scalar()
            db.execute(
                update(classes_table).where(classes_table.c.id == class_id).values(touched=now)
            )
        with self._lock:
            self._remember(self._linked, (room.code, have))
        if have != class_id:
            return False
        with room.lock:
            self._roster(class_id, [p.name for p in room.people()])
            self._answers(room, class_id)
        return True

    def class_of(self, room_code: str) -> str | None:
        """The class a room feeds, or None."""
        with self._lock:
            known = self._linked.get(room_code)
        if known is not None:
            return known
        with self.engine.connect() as db:
            found = db.execute(
                select(class_rooms_table.c.class_id).where(class_rooms_table.c.room == room_code)
            ).scalar()
        if found is not None:
            with self._lock:
                self._remember(self._linked, (room_code, found))
        return found

    # ------------------------------------------------------------------ recording
    def on_room_change(self, room: Room, what: str, steps: list) -> None:
        """``Room.class_hook``: a change of ``room`` made in this process (its lock held, off
        the event loop; ``steps``: the table events it added). Never raises into the room."""
        try:
            class_id = self.class_of(room.code)
            if class_id is None:
                return
            if what == "people":
                self._roster(class_id, [p.name for p in room.people()])
            elif what == "table" and steps:
                self._practised(class_id, room, steps)
            elif what.startswith("private:"):
                self._private(class_id, room, what)
            elif what == "polls":
                self._answers(room, class_id)
        except (SQLAlchemyError, OSError) as error:
            log.warning(
                "room %s: the class record was not written: %s", room.code, error_line(error)
            )
        except Exception:  # the class record never stops a room
            log.exception("room %s: the class record failed", room.code)

    def _roster_ids(self, db, class_id: str, names_: list[str]) -> dict[str, int]:
        """Each name's roster number in the class (new entries made; past :data:`MAX_ROSTER`
        a name is left out)."""
        rows = db.execute(
            select(roster_table.c.learner, roster_table.c.name_key).where(
                roster_table.c.class_id == class_id
            )
        ).all()
        by_key = {row.name_key: row.learner for row in rows}
        next_id = max(by_key.values(), default=0) + 1
        out = {}
        for name in names_:
            key = name_key(name)
            if key not in by_key:
                if len(by_key) >= MAX_ROSTER:
                    continue
                try:
                    with db.begin_nested():
                        db.execute(
                            insert(roster_table).values(
                                class_id=class_id,
                                learner=next_id,
                                name=name[:100],
                                name_key=key,
                                joined=_now(),
                            )  # fmt: skip
                        )
                except IntegrityError:  # another process added one: read again
                    return self._roster_ids(db, class_id, names_)
                by_key[key] = next_id
                next_id += 1
            out[name] = by_key[key]
        return out

    def _roster(self, class_id: str, names_: list[str]) -> None:
        if not names_:
            return
        with self._write() as db:
            self._roster_ids(db, class_id, names_)

    def _add(self, db, class_id: str, counts: dict) -> None:
        """Add ``counts`` (``{(learner, rule): {"practised"|"right"|"wrong": n}}``) to the
        record in a few statements: one read of the rows there, one update of those, one insert
        of the new ones (a row another process made at this moment: row by row instead)."""
        if not counts:
            return
        learners = sorted({learner for learner, _ in counts})
        have = {
            (row.learner, row.rule)
            for row in db.execute(
                select(record_table.c.learner, record_table.c.rule).where(
                    record_table.c.class_id == class_id, record_table.c.learner.in_(learners)
                )
            )
        }
        rows = [
            {"k_learner": learner, "k_rule": rule, **{c: n.get(c, 0) for c in COUNTS}}
            for (learner, rule), n in sorted(counts.items())
        ]
        old = [row for row in rows if (row["k_learner"], row["k_rule"]) in have]
        new = [row for row in rows if (row["k_learner"], row["k_rule"]) not in have]
        if old:
            db.execute(self._adding(class_id), [_delta(r) for r in old])
        if not new:
            return
        made = [
            dict(
                class_id=class_id,
                learner=r["k_learner"],
                rule=r["k_rule"],
                **{c: r[c] for c in COUNTS},
            )
            for r in new
        ]
        try:
            with db.begin_nested():
                db.execute(insert(record_table), made)
        except IntegrityError:  # another process made one of the rows at this moment
            for r, row in zip(new, made, strict=True):
                try:
                    with db.begin_nested():
                        db.execute(insert(record_table).values(**row))
                except IntegrityError:
                    db.execute(self._adding(class_id), [_delta(r)])

    @staticmethod
    def _adding(class_id: str):
        """The update that adds ``d_<count>`` to the row ``k_learner``, ``k_rule``."""
        t = record_table.c
        return (
            update(record_table)
            .where(
                t.class_id == class_id,
                t.learner == bindparam("k_learner"),
                t.rule == bindparam("k_rule"),
            )
            .values({c: t[c] + bindparam(f"d_{c}") for c in COUNTS})
        )

    def _touch(self, db, class_id: str) -> None:
        db.execute(
            update(classes_table).where(classes_table.c.id == class_id).values(touched=_now())
        )

    def _practised(self, class_id: str, room: Room, events: list) -> None:
        steps = [(seat, rules) for seat, rules in steps_in(events) if rules]
        holders = {}
        for seat, _rules in steps:
            holder = room.seat_holder(seat)
            if holder is not None:
                holders[seat] = holder.name
        if not holders:
            return
        with self._write() as db:
            ids = self._roster_ids(db, class_id, sorted(set(holders.values())))
            counts: dict = {}
            for seat, rules in steps:
                learner = ids.get(holders.get(seat, ""))
                for rule in rules if learner is not None else ():
                    n = counts.setdefault((learner, rule), {})
                    n["practised"] = n.get("practised", 0) + 1
            self._add(db, class_id, counts)
            self._touch(db, class_id)

    def _private(self, class_id: str, room: Room, what: str) -> None:
        """A learner's steps on their own break-away copy: all theirs, whatever seat."""
        try:
            person_id = int(what.split(":", 1)[1])
        except ValueError:
            return
        person = room.participants.get(person_id)
        history = room.private_tables.get(person_id)
        key = (room.code, person_id)
        if person is None or history is None:
            with self._lock:
                self._private_seen.pop(key, None)
            return
        log_ = history.state.log
        copy, seen = self._private_seen.get(key, (id(history), len(log_)))
        if copy != id(history) or seen > len(log_):  # a new copy, or an undo: from here
            seen = len(log_)
        with self._lock:
            self._remember(self._private_seen, (key, (id(history), len(log_))))
        steps = [rules for _seat, rules in steps_in(log_[seen:]) if rules]
        if not steps:
            return
        with self._write() as db:
            learner = self._roster_ids(db, class_id, [person.name]).get(person.name)
            if learner is None:
                return
            counts: dict = {}
            for rules in steps:
                for rule in rules:
                    n = counts.setdefault((learner, rule), {})
                    n["practised"] = n.get("practised", 0) + 1
            self._add(db, class_id, counts)
            self._touch(db, class_id)

    def _answers(self, room: Room, class_id: str) -> None:
        """Every revealed question of the room not recorded yet: a history line per learner who
        answered (once: its key is the room and the question's number) and their verdict
        counted for the rules the exercise tests."""
        for poll in list(room.polls.history):
            result = poll.result
            if result is None or (room.code, poll.number) in self._recorded:
                continue
            rules = sorted(answer_rules(poll.exercise), key=rule_key)
            names_by_id = {str(p.id): p.name for p in room.people()}
            answers = []
            for learner_id, correct in result.correct.items():
                name = names_by_id.get(learner_id) or poll.names.get(learner_id)
                if name is None:
                    name = room.polls.record.name(learner_id)
                answers.append((name, poll.answer_of(learner_id) or "", bool(correct)))
            question = poll.prompt("en")[:MAX_QUESTION_CHARS]
            now = _now()
            with self._write() as db:
                ids = self._roster_ids(db, class_id, sorted({n for n, _, _ in answers}))
                this = (
                    history_table.c.class_id == class_id,
                    history_table.c.room == room.code,
                    history_table.c.number == poll.number,
                )
                done = set(db.scalars(select(history_table.c.learner).where(*this)))
                lines = {}
                for name, given, correct in answers:
                    learner = ids.get(name)
                    if learner is not None and learner not in done:
                        lines[learner] = dict(
                            class_id=class_id, learner=learner, room=room.code,
                            number=poll.number, ref=(poll.ref or "")[:120], question=question,
                            answered=now, answer=given[:100], correct=correct,
                            rules=",".join(rules)[:200],
                        )  # fmt: skip
                written = self._lines(db, list(lines.values()))
                counts: dict = {}
                for line in written:
                    column = "right" if line["correct"] else "wrong"
                    for rule in rules:
                        counts[(line["learner"], rule)] = {column: 1}
                self._add(db, class_id, counts)
                self._prune(db, class_id, [line["learner"] for line in written])
                self._touch(db, class_id)
            with self._lock:
                self._remember(self._recorded, (room.code, poll.number))

    def _lines(self, db, lines: list[dict]) -> list[dict]:
        """Insert the history ``lines``; the ones written (a line another process wrote at
        this moment is left out)."""
        if not lines:
            return []
        try:
            with db.begin_nested():
                db.execute(insert(history_table), lines)
            return lines
        except IntegrityError:  # another process recorded the reveal at this moment
            written = []
            for line in lines:
                try:
                    with db.begin_nested():
                        db.execute(insert(history_table).values(**line))
                    written.append(line)
                except IntegrityError:
                    continue
            return written

    def _prune(self, db, class_id: str, learners: list[int]) -> None:
        """The learners' history past :data:`MAX_HISTORY` lines each: the oldest go."""
        if not learners:
            return
        t = history_table.c
        over = db.execute(
            select(t.learner, func.count())
            .where(t.class_id == class_id, t.learner.in_(learners))
            .group_by(t.learner)
            .having(func.count() > MAX_HISTORY)
        ).all()
        for learner, count in over:
            mine = and_(t.class_id == class_id, t.learner == learner)
            old = db.execute(
                select(t.room, t.number)
                .where(mine)
                .order_by(t.answered, t.number)
                .limit(count - MAX_HISTORY)
            ).all()
            for row in old:
                db.execute(
                    delete(history_table).where(mine, t.room == row.room, t.number == row.number)
                )

    # ------------------------------------------------------------------ reading
    def roster(self, class_id: str) -> dict[int, str]:
        """``{roster number: name}`` in the order they first came."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(roster_table.c.learner, roster_table.c.name)
                .where(roster_table.c.class_id == class_id)
                .order_by(roster_table.c.learner)
            ).all()
        return {row.learner: row.name for row in rows}

    def rules(self, class_id: str, lang: str = "en") -> list[RuleRow]:
        """The class's record per rule, the weakest first: the rules answered with the smallest
        share right first (more wrong answers first among equals), then the rules only practised
        (the least practised first); titles in ``lang``."""
        with self.engine.connect() as db:
            rows = db.execute(select(record_table).where(record_table.c.class_id == class_id)).all()
        by_rule: dict[str, dict[int, tuple[int, int, int]]] = {}
        for row in rows:
            by_rule.setdefault(row.rule, {})[row.learner] = (row.practised, row.right, row.wrong)
        out = [RuleRow(rule, rule_title(rule, lang), cells) for rule, cells in by_rule.items()]

        def weakness(row: RuleRow):
            answered = row.right + row.wrong
            if answered:
                return (0, row.right / answered, -row.wrong, rule_key(row.rule))
            return (1, row.practised, 0, rule_key(row.rule))

        return sorted(out, key=weakness)

    def history(self, class_id: str) -> list:
        """Every question line of the class: (learner number, room, number, ref, question,
        answered, answer, correct, rules), learner by learner, oldest first."""
        with self.engine.connect() as db:
            return db.execute(
                select(history_table)
                .where(history_table.c.class_id == class_id)
                .order_by(history_table.c.learner, history_table.c.answered, history_table.c.number)
            ).all()

    def seen(self, class_id: str) -> None:
        """The teacher looked at the class's record: it counts as used."""
        with self._write() as db:
            self._touch(db, class_id)

    # ------------------------------------------------------------------ exporting
    def rules_csv(self, class_id: str, lang: str = "en") -> str:
        """One row per learner and rule the class met (0s where a learner did not): the learner,
        the rule, its title in ``lang``, practised, right, wrong (:func:`_csv`: UTF-8 with a BOM, formula cells escaped)."""
        lang = lang if lang in LANGUAGES else "en"
        roster = self.roster(class_id)
        rows = [[tr(lang, f"class.csv.{c}") for c in ("learner", "rule", "title", "practised",
                                                       "right", "wrong")]]  # fmt: skip
        rules = sorted(self.rules(class_id, lang), key=lambda r: rule_key(r.rule))
        for learner, name in roster.items():  # every learner with every rule the class met
            for row in rules:
                practised, right, wrong = row.learners.get(learner, (0, 0, 0))
                rows.append([name, row.rule, row.title, practised, right, wrong])
        return _csv(rows)

    def questions_csv(self, class_id: str, lang: str = "en") -> str:
        """One row per learner and question answered: the learner, when (UTC), the room, the
        question (in ``lang`` when the exercise is still the tutor's), their answer, right or
        not, its rules."""
        from widgets.classroom.poll import Poll

        lang = lang if lang in LANGUAGES else "en"
        roster = self.roster(class_id)
        header = ("learner", "when", "room", "question", "answer", "correct", "rules")
        rows = [[tr(lang, f"class.csv.{c}") for c in header]]
        asked: dict[str, Poll | None] = {}
        yes, no = tr(lang, "class.csv.yes"), tr(lang, "class.csv.no")
        for line in self.history(class_id):
            question, answer = line.question, line.answer
            if line.ref and line.ref not in asked:
                try:  # the question again, to say it and its answers in the teacher's words
                    asked[line.ref] = Poll(line.ref, [])
                except Exception:  # an exercise the tutor no longer has: as it was kept
                    asked[line.ref] = None
            poll = asked.get(line.ref) if line.ref else None
            if poll is not None:
                question, answer = poll.prompt(lang), poll.label(answer, lang)
            when = _utc(line.answered).strftime("%Y-%m-%d %H:%M")
            rows.append([
                roster.get(line.learner, str(line.learner)), when, line.room, question, answer,
                yes if line.correct else no, line.rules,
            ])  # fmt: skip
        return _csv(rows)

    # ------------------------------------------------------------------ expiry
    def expire(self, days: float = CLASS_TTL_DAYS) -> int:
        """Delete the classes unused for ``days`` with their rooms' links, roster, record and
        history; returns how many."""
        cutoff = _now() - timedelta(days=days)
        with self._write() as db:
            gone = [
                row.id
                for row in db.execute(
                    select(classes_table.c.id).where(classes_table.c.touched < cutoff)
                ).all()
            ]
            if gone:
                for table, column in (
                    (class_rooms_table, class_rooms_table.c.class_id),
                    (roster_table, roster_table.c.class_id),
                    (record_table, record_table.c.class_id),
                    (history_table, history_table.c.class_id),
                    (classes_table, classes_table.c.id),
                ):
                    db.execute(delete(table).where(column.in_(gone)))
        if gone:
            log.info("expired %d classes unused for %s days", len(gone), days)
        return len(gone)


_book: ClassBook | None = None
_book_store: object = None  # the store the book is in (a test's own book: "pinned")
_book_lock = threading.Lock()


def class_book() -> ClassBook | None:
    """The process's classes, in its store as it is now (``widgets.server.store.get_store``: a
    store opened again elsewhere gets a new book), or None when there is no store."""
    global _book, _book_store
    with _book_lock:
        if _book_store == "pinned":
            return _book
    store = get_store()
    with _book_lock:
        if store is None:
            return None
        if _book is None or _book_store is not store:
            try:
                _book, _book_store = ClassBook(store.engine), store
            except SQLAlchemyError as error:
                log.error("classes are not kept: %s", error_line(error))
                return None
        return _book


def _room_changed(room: Room, what: str, steps: list) -> None:
    """``Room.class_hook``: the change goes to the class book of the store as it is now."""
    if what == "people" or what == "table" or what == "polls" or what.startswith("private:"):
        try:
            book = class_book()
            if book is not None:
                book.on_room_change(room, what, steps)
        except Exception:  # the class record never stops a room
            log.exception("room %s: the class record failed", room.code)


def connect() -> ClassBook | None:
    """Every room's changes made in this process feed its class's record (``Room.class_hook``)."""
    Room.class_hook = _room_changed
    return class_book()


def use(book: ClassBook | None) -> None:
    """Tests: this book is the process's (None: back to the store's)."""
    global _book, _book_store
    with _book_lock:
        _book, _book_store = book, ("pinned" if book is not None else None)
    Room.class_hook = _room_changed if book is not None else None
