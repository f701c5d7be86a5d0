"""A classroom's room: one shared table, a teacher who leads, learners on their own devices.

No Panel here: a :class:`Room` is plain Python that the pages (``teacher.py``, ``learner.py``), the store
(``room_store.py``) and the tests drive. It holds

* a short **code** (8 characters from an alphabet without look-alikes: 31**8, about
  8.5e11 codes; the server's per-computer session rate makes guessing one hopeless for the
  life of a class): the room's identity (the store's key, the address and cookies of those
  already in), and at first also its **join code**, the one ``/join`` admits newcomers with.
  The teacher may give the room a new join code (a photo of the projector leaked the old one):
  from then on the old one admits no one (``room.refuse.old_code``), while those already in come
  back by the room's identity as before; and a long **teacher secret** (kept in the teacher's
  browser; only its hash is kept here);
* one shared game, the engine's :class:`~nefertiti_core.files.history.History` (every rule is
  the engine's: a step is played through ``History.play``, which refuses an illegal one);
* **participants**: an id, a name (length-limited, no control characters), a language, a
  seat or None, and a private token their browser keeps (only its hash is kept here) so that a
  reload or a restart reconnects them to the same participant;
* per learner, an optional private **break-away** copy of the table, which nobody else sees;
* a read-only **projector link** (its own random token, only its hash kept; the teacher may
  make a new one, which turns the old one away): the projector view (``projector_page.py``)
  shows the table and the class question, never a name, to whoever holds it or the teacher's
  key (:meth:`Room.projector_pass`);
* pause / resume, removal, and expiry;
* its **chapters** (``chapters.py``): chapter 1 the class game, each staged position (a scenario
  of ``nefertiti_core/scenarios`` by name: never a path; the table's position; an uploaded file)
  another; the table shows one of them, the others keep their games;
* the class questions (``Room.polls``, :class:`~widgets.classroom.poll.Polls`): kept in step with
  the room in the same change (a learner who joins is in the class record and the current
  question, a removed one out of it, the rules the table's steps name seen by everyone), and
  each change of them (asked, answered, revealed) is a change of the room (``"polls"``): written
  to the store with the rest of it, shared between processes as a move is.

Every permission is checked here: a learner acts only for their own seat and only when it is
that seat's decision; only the teacher stages, changes seats, pauses, removes, undoes. A refused
action returns a :class:`Refusal` (a sentence in the actor's language, EN/DE/ZH) and changes
nothing; nothing raises into a page for a bad request.

Listeners (:meth:`Room.subscribe`) are called after each change with the room's new version
number (strictly increasing) and what changed (``"table"``, ``"people"``, ``"polls"``,
``"marks"``, ``"private:<id>"``). They are called in the thread that made the change, with the room's lock held: a page's
listener only schedules its own update on its own document.

**Reading never waits for a change.** A change of a room shared between processes is written to
the database while the room's lock is held (compare-and-set, ``room_store.py``), and a database
that hangs holds it that long; the pages read the room on the server's event loop, which must
never wait for it. So the reads a page makes (:meth:`Room.participant`,
:meth:`Room.learner_names`, :meth:`Room.seat_names`, :meth:`Room.private`, subscribing) take no
lock: they read a copy of the participants (one ``dict.copy``, atomic in CPython), and a change
made meanwhile reaches the page through its listener a moment later. The pages make their
changes off the event loop (``widgets.classroom.table.ROOM_WORK``).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import random
import re
import secrets
import threading
import time
from dataclasses import dataclass, field

from nefertiti_core import NefertitiError, new_game
from nefertiti_core.engine.chance import redealt
from nefertiti_core.engine.i18n import LANGUAGES
from nefertiti_core.files.history import History
from nefertiti_core.teaching.refusal import refusal
from widgets.classroom import marks as M
from widgets.classroom import names
from widgets.classroom.chapters import ChapterRoom, Chapters
from widgets.classroom.chapters import scenario_names as scenario_names  # the pages' and tests'
from widgets.classroom.poll import ClassRecord, PollError, Polls
from widgets.classroom.refusal import Refusal
from widgets.classroom.refusal import retried as _retried

log = logging.getLogger("widgets.classroom")

#: Join codes: no 0/O, 1/I/L; 8 characters (31**8 ~ 8.5e11 codes).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
CODE_RE = re.compile(f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
MAX_NAME = names.MAX_NAME
MAX_PARTICIPANTS = 60
MAX_ROOMS = 200
#: A room nobody used for this long is gone (and its code with it); one that nobody ever joined,
#: after two hours (a teacher may open it before the lesson).
ROOM_TTL_S = 12 * 3600
EMPTY_ROOM_TTL_S = 2 * 3600
#: Rooms open at once that one client address may have opened (a teacher needs one or two).
MAX_ROOMS_PER_CLIENT = 3
#: The join codes a room had before its current one that it still recognises (to tell a learner
#: who types one that it no longer admits anyone, rather than that no room has it).
MAX_OLD_CODES = 10
#: The longest text a browser may hand to any room method (a code, a name, an option's text).
MAX_INPUT = names.MAX_INPUT
#: :meth:`Room.projector_pass` for the teacher's own browser (a projector link's pass is its
#: number, 1 and up).
TEACHER_PASS = 0
#: How many times a change of the polls overtaken by another process is made again (a class
#: answering at once through two processes: each try loses only to another's answer).
POLL_TRIES = 20


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_secret() -> str:
    """A teacher's or a participant's secret: 192 random bits, URL-safe (32 characters)."""
    return secrets.token_urlsafe(24)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def normal_code(text) -> str | None:
    """A typed join code as stored (upper case; spaces and dashes dropped), or None if it
    cannot be one."""
    if not isinstance(text, str) or len(text) > 40:
        return None
    code = re.sub(r"[\s-]", "", text).upper()
    return code if CODE_RE.fullmatch(code) else None


def valid_token(text) -> bool:
    return isinstance(text, str) and bool(TOKEN_RE.fullmatch(text))


def clean_name(name) -> tuple[str | None, Refusal | None]:
    """A participant's name as shown, or why it is refused (``widgets.classroom.names``)."""
    shown, why = names.clean_name(name)
    if why is not None:
        return None, Refusal(why, {"n": MAX_NAME} if why.endswith("_long") else {})
    return shown, None


@dataclass
class Participant:
    id: int
    name: str
    lang: str
    token_hash: str
    seat: int | None = None
    joined: float = 0.0
    #: the hash of the device's own id (its browser's cookie), "" when it sent none
    device_hash: str = ""
    #: coming back on another device (widgets.classroom.rejoin): the PIN's hash ("" for none)
    #: and the wrong PINs' times and the request to the teacher waiting, if any
    pin_hash: str = ""
    rejoin: dict = field(default_factory=dict)


@dataclass
class Storage:
    """How the room stands with the store: ``room_store.py`` keeps it up to date, the pages show
    it (the teacher is told when the class is not being saved; a learner sees "saving…")."""

    #: ``time.monotonic()`` of the oldest change made here and not yet written (None: all written)
    unsaved_since: float | None = None
    #: why the last write failed ("" once one succeeds)
    failed: str = ""

    def written(self) -> None:
        self.unsaved_since, self.failed = None, ""

    def waiting(self) -> None:
        if self.unsaved_since is None:
            self.unsaved_since = time.monotonic()


class Room(ChapterRoom):
    """One class's table (see the module's doc). Thread-safe: every change holds ``lock``.
    Its chapters (staging, switching, removing, bringing everyone back) are
    :class:`~widgets.classroom.chapters.ChapterRoom`'s."""

    #: ``hook(room, what, steps)`` after each change made in this process (not one read back
    #: from another), the lock held, before the listeners hear it; ``steps``: the table events
    #: the change added. The class record across lessons (widgets.classroom.classes).
    class_hook = None

    def __init__(
        self,
        code: str,
        teacher_hash: str,
        history: History | None = None,
        *,
        clock=time.time,
        ttl_s: float = ROOM_TTL_S,
    ):
        #: The room's identity (never changes): the store's key, the address and the cookies of
        #: the people already in.
        self.code = code
        #: The code newcomers join with (``/join``): the identity until the teacher changes it.
        self.join_code = code
        #: The join codes it had before (newest first, at most ``MAX_OLD_CODES``): they admit no one.
        self.old_codes: list[str] = []
        self.teacher_hash = teacher_hash
        self.table = history if history is not None else History(_start_state())
        self.title = ""  # the shipped position's name the table shows ("" for none)
        #: the positions the class looks at; the table is the current one's game (chapters.py)
        self.chapters = Chapters()
        self.paused = False
        #: Locked: no one new may join (a learner already in comes back with their own link).
        self.locked = False
        #: Closed by the teacher: gone for everyone, its place free for another room.
        self.closed = False
        #: The hash of the address the room was opened from (rooms per client are capped).
        self.opened_by = ""
        #: Removed learners may not join again: their names' skeletons and devices' hashes.
        self.banned_names: set[str] = set()
        self.banned_devices: set[str] = set()
        #: The projector link's token: its hash ("" while none was made) and how many were
        #: made (a projector let in by an older one is turned away: :meth:`projector_admits`).
        self.projector_hash = ""
        self.projector_links = 0
        self.participants: dict[int, Participant] = {}
        self.next_id = 1
        self.private_tables: dict[int, History] = {}
        self._listeners: dict[int, object] = {}
        self._listeners_lock = threading.Lock()
        self._next_listener = 1
        self.version = 0
        self.table_version = 0  # bumped only when the table's position changes
        #: Several processes: the version of the database's record this room mirrors,
        #: and the hook that writes a change there first (``room_store.RoomStore.commit``:
        #: compare-and-set on ``stored_version``; False when another process got there first,
        #: after it has re-read the room).
        self.stored_version = 0
        self.commit = None
        #: whether what the room holds is in the store yet (room_store.py)
        self.storage = Storage()
        self.lock = threading.RLock()
        #: Where a break-away's hidden deck and dice come from (never the table's own source).
        self.deal_rng = random.Random(secrets.randbits(64))
        self.clock = clock
        self.ttl_s = ttl_s
        self.created = self.touched = clock()
        #: The class questions and the class record, kept in step with the room (a learner who
        #: joins is in the record and the current question, a removed one out of it, the rules
        #: the table's steps name are seen by everyone) and stored with it (room_store.py).
        self._polls: Polls | None = None
        self.polls = Polls(ClassRecord())
        self.log_seen = len(self.table.state.log)  # the table's events the record has seen
        #: The teacher's marks on the table's board (marks.py): cleared when its position changes.
        self.marks: tuple[M.Mark, ...] = ()

    @property
    def polls(self) -> Polls:
        return self._polls

    @polls.setter
    def polls(self, polls: Polls) -> None:
        """The room's polls (a store gives back the ones it kept): every change of them is a
        change of the room (:meth:`write_polls`)."""
        if self._polls is not None and self._polls is not polls:
            self._polls.writer = None
        polls.writer = self.write_polls
        self._polls = polls
        with self.lock:
            self._keep_people(polls)

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, code: str | None = None, **kwargs) -> tuple[Room, str]:
        """A new room and its teacher's secret (kept only as a hash in the room)."""
        secret = new_secret()
        return cls(code or new_code(), digest(secret), **kwargs), secret

    # ------------------------------------------------------------------ who is who
    def is_teacher(self, secret) -> bool:
        return valid_token(secret) and hmac.compare_digest(digest(secret), self.teacher_hash)

    def projector_pass(self, secret="", token="") -> int | None:
        """Whether the projector view may be shown, and by what right: :data:`TEACHER_PASS`
        for the teacher's key, the link's number for the current projector token, None for
        anything else (a wrong, old or missing token). The view shows no name and changes
        nothing, whoever opens it."""
        if self.is_teacher(secret):
            return TEACHER_PASS
        with self.lock:
            wanted, number = self.projector_hash, self.projector_links
        if wanted and valid_token(token) and hmac.compare_digest(digest(token), wanted):
            return number
        return None

    def projector_admits(self, projector_pass) -> bool:
        """Whether a projector page let in with ``projector_pass`` may go on showing the room:
        the teacher's always, a link's while no newer one was made; never a closed room's."""
        if projector_pass is None or self.expired():
            return False
        return projector_pass == TEACHER_PASS or projector_pass == self.projector_links

    def participant(self, token) -> Participant | None:
        """The participant whose browser holds ``token`` (None for an unknown or removed one)."""
        if not valid_token(token):
            return None
        wanted = digest(token)
        for person in self.people():
            if hmac.compare_digest(person.token_hash, wanted):
                return person
        return None

    def people(self) -> list[Participant]:
        """The participants now (a copy: read without waiting for a change in progress)."""
        return list(self.participants.copy().values())

    def known_by(self, code: str) -> bool:
        """Whether ``code`` (as stored: :func:`normal_code`) names this room: its identity, its
        join code, or a join code it had before."""
        return code == self.code or code == self.join_code or code in self.old_codes

    def seat_holder(self, seat: int) -> Participant | None:
        return next((p for p in self.people() if p.seat == seat), None)

    @property
    def expires_at(self) -> float:
        return self.touched + self.ttl_s

    def expired(self, now: float | None = None) -> bool:
        """Closed by the teacher, unused for its time to live, or never joined for two hours."""
        now = self.clock() if now is None else now
        if self.closed or now >= self.expires_at:
            return True
        return self.next_id == 1 and now >= self.touched + min(EMPTY_ROOM_TTL_S, self.ttl_s)

    # ------------------------------------------------------------------ listeners
    def subscribe(self, listener) -> int:
        """Call ``listener(version, what)`` after every change; returns an id for
        :meth:`unsubscribe`."""
        with self._listeners_lock:  # not the room's: a page subscribes on the event loop
            key = self._next_listener
            self._next_listener += 1
            self._listeners[key] = listener
            return key

    def unsubscribe(self, key: int) -> None:
        with self._listeners_lock:
            self._listeners.pop(key, None)

    @property
    def listeners(self) -> int:
        return len(self._listeners)

    def _changed(self, what: str) -> Refusal | None:
        """After a change (the lock held): the polls kept in step (:meth:`_keep_polls`, in the
        same change); written to the database first when the room is shared between
        processes; a change another process overtook is refused (``room.refuse.stale``: the
        room then shows the database's record), as a stale move."""
        steps: list = []
        told = self._keep_polls(what, steps)
        if what == "table":  # the marks were for the position before (marks.py)
            self.marks = ()
        if self.commit is not None and not what.startswith("private:"):
            if not self.commit(self, what):
                return Refusal("room.refuse.stale")
        if Room.class_hook is not None:
            Room.class_hook(self, what, steps)
        self.notify(what)
        for kind in told:
            self.polls.changed(kind)
        return None

    #: a change made by a module of the classroom in its own terms (widgets.classroom.rejoin)
    changed = _changed

    # ------------------------------------------------------------------ the polls
    def learner_names(self) -> dict[str, str]:
        """Every participant as the polls know them: ``{str(id): name}``."""
        return {str(p.id): p.name for p in self.people()}

    def _keep_people(self, polls: Polls) -> list[str]:
        """Every participant in the class record and in the current (unrevealed) question; a
        removed one out of it. What changed, for the views."""
        told = []
        people = self.learner_names()
        poll = polls.current
        open_poll = poll is not None and not poll.revealed
        for learner, name in people.items():
            if learner not in polls.record or (open_poll and learner not in poll.learners):
                told.append(polls.include_learner(learner, name)[1])
        if open_poll:
            for learner in [x for x in poll.learners if x not in people]:
                told.append(polls.remove_learner(learner)[1])
        return [kind for kind in told if kind is not None]

    def _keep_polls(self, what: str, steps: list | None = None) -> list[str]:
        """The polls in step with a change of the room (the lock held), made with it: never
        fails the change (the class record is not worth a move). The table's new events are
        added to ``steps``."""
        try:
            if what == "people":
                return self._keep_people(self.polls)
            if what == "table":
                log_ = self.table.state.log
                if len(log_) < self.log_seen:  # a new game or an undo: count from here
                    self.log_seen = len(log_)
                    return []
                new, self.log_seen = list(log_[self.log_seen :]), len(log_)
                if steps is not None:
                    steps.extend(new)
                if new:
                    _rules, kind = self.polls.record_seen(list(self.learner_names()), new)
                    return [kind] if kind else []
        except Exception:  # the class record never stops the table
            log.exception("room %s: the class record failed", self.code)
        return []

    def write_polls(self, change):
        """``Polls.writer``: a change of the polls (a question asked, an answer, the reveal) is
        a change of the room: made under its lock, written (several processes: compare-and-set
        on the database's record) and heard by the room's listeners (``"polls"``); then the
        poll views are told. Overtaken by another process, it is made again on the room as it
        is now (a learner's answer is their wish whatever else changed; ``Polls.answer`` never
        moves it to a question asked since). ``PollError`` when refused (nothing changed)."""
        for attempt in range(POLL_TRIES):
            with self.lock:
                result, what = change()
                if what is None:
                    return result
                why = self._changed("polls")
            if why is None:
                self.polls.changed(what)
                return result
            # another process is writing the room (answers come in bursts): a moment's pause,
            # a little longer each time, so that the two do not keep overtaking each other
            time.sleep(secrets.randbelow(1000) / 1000 * 0.005 * (attempt + 1))
        raise PollError("poll.refused.stale")

    def notify(self, what: str) -> None:
        """Tell the listeners (``what``: see the module's doc); the lock held."""
        self.version += 1
        if what == "table":
            self.table_version += 1
        self.touched = self.clock()
        with self._listeners_lock:
            listeners = list(self._listeners.items())
        for key, listener in listeners:
            try:
                listener(self.version, what)
            except Exception:  # one broken page must not stop the others
                log.exception("room %s: listener %s failed", self.code, key)

    # ------------------------------------------------------------------ joining
    @_retried
    def join(
        self, name, lang="en", device: str = "", code=None
    ) -> tuple[Participant | None, str, Refusal | None]:
        """A new participant: (participant, their browser's token, None) or (None, "", why).

        ``code`` is the code the learner typed (``/join`` always gives it): only the room's
        current join code admits; an earlier one, or the room's identity once the teacher gave
        it a new join code, is refused (``room.refuse.old_code``). ``device`` is the browser's own
        id (a cookie), kept as a hash: a removed learner's device and name stay out of the room.
        A name taken, or one that looks like a present one (another script's look-alike letters,
        marks), is refused: the class must tell learners apart."""
        lang = lang if lang in LANGUAGES else "en"
        name, why = clean_name(name)
        if why is not None:
            return None, "", why
        device_hash = digest(device) if valid_token(device) else ""
        with self.lock:
            if self.expired():
                return None, "", Refusal("room.refuse.expired")
            if code is not None and normal_code(code) != self.join_code:
                return None, "", Refusal("room.refuse.old_code")
            if self.locked:
                return None, "", Refusal("room.refuse.locked")
            if names.skeleton(name) in self.banned_names or (
                device_hash and device_hash in self.banned_devices
            ):
                return None, "", Refusal("room.refuse.removed")
            if len(self.participants) >= MAX_PARTICIPANTS:
                return None, "", Refusal("room.refuse.full", {"n": MAX_PARTICIPANTS})
            folded = name.casefold()
            for other in self.participants.values():
                if other.name.casefold() == folded:
                    return None, "", Refusal("room.refuse.name_taken", {"name": name})
                if names.looks_like(other.name, name):
                    return None, "", Refusal("room.refuse.name_like", {"name": other.name})
            token = new_secret()
            person = Participant(
                self.next_id,
                name,
                lang,
                digest(token),
                joined=self.clock(),
                device_hash=device_hash,
            )
            self.participants[person.id] = person
            self.next_id += 1
            why = self._changed("people")
            if why is not None:
                return None, "", why
            return person, token, None

    @_retried
    def set_language(self, token, lang) -> Refusal | None:
        with self.lock:
            person = self.participant(token)
            if person is None:
                return Refusal("room.refuse.not_in_room")
            if lang not in LANGUAGES:
                return Refusal("room.refuse.bad_language")
            person.lang = lang
            return self._changed("people")

    # ------------------------------------------------------------------ the teacher leads
    def _teacher_only(self, secret) -> Refusal | None:
        if not self.is_teacher(secret):
            return Refusal("room.refuse.teacher_only")
        return None

    @_retried
    def assign_seat(self, secret, participant_id, seat) -> Refusal | None:
        """Give ``seat`` (0..n-1) to participant ``participant_id``, or take their seat away
        (``seat`` None). A seat held by another is taken from them. Teacher only."""
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            person = self.participants.get(participant_id) if _is_int(participant_id) else None
            if person is None:
                return Refusal("room.refuse.no_participant")
            if seat is not None and not (_is_int(seat) and 0 <= seat < self.table.state.n):
                return Refusal("room.refuse.no_seat", {"n": self.table.state.n})
            if seat is not None:
                holder = self.seat_holder(seat)
                if holder is not None and holder is not person:
                    holder.seat = None
            person.seat = seat
            return self._changed("people")

    @_retried
    def free_seat(self, secret, seat) -> Refusal | None:
        """The teacher plays ``seat`` again (whoever held it watches)."""
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            if not (_is_int(seat) and 0 <= seat < self.table.state.n):
                return Refusal("room.refuse.no_seat", {"n": self.table.state.n})
            holder = self.seat_holder(seat)
            if holder is not None:
                holder.seat = None
            return self._changed("people")

    @_retried
    def remove(self, secret, participant_id) -> Refusal | None:
        """Remove a participant: their token no longer opens the room, their seat is free, and
        neither their name (nor one like it) nor their device may join this room again."""
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            if not _is_int(participant_id) or participant_id not in self.participants:
                return Refusal("room.refuse.no_participant")
            person = self.participants.pop(participant_id)
            self.banned_names.add(names.skeleton(person.name))
            if person.device_hash:
                self.banned_devices.add(person.device_hash)
            self.private_tables.pop(participant_id, None)
            return self._changed("people")

    @_retried
    def mark(self, secret, kind, squares) -> Refusal | None:
        """Highlight a square (``kind`` "square", one square number) or draw an arrow ("arrow",
        from a square to another) on the table's board for every page; the same mark again takes
        it away (marks.py). Teacher only; a mark that is not on the board now is refused, with a
        line in the log (a page never sends one)."""
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            try:
                mark = M.check_mark(kind, squares, self.table.state.side)
                self.marks = M.added(self.marks, mark)
            except M.MarkError as error:
                log.warning("room %s: a mark was refused: %s", self.code, error)
                if str(error).startswith("at most"):
                    return Refusal("room.refuse.too_many_marks", {"n": M.MAX_MARKS})
                return Refusal("room.refuse.bad_mark", {"what": str(error)})
            return self._changed("marks")

    @_retried
    def clear_marks(self, secret) -> Refusal | None:
        """Take every mark off the board (teacher only)."""
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            if not self.marks:
                return None
            self.marks = ()
            return self._changed("marks")

    @_retried
    def pause(self, secret, paused: bool = True) -> Refusal | None:
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            self.paused = bool(paused)
            return self._changed("people")

    @_retried
    def close(self, secret) -> Refusal | None:
        """Close the room for good (teacher only): every page is told, the code opens nothing,
        and the server's place for a room is free again."""
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            self.closed = True
            return self._changed("people")

    @_retried
    def renew_projector(self, secret) -> tuple[str, int, Refusal | None]:
        """A new projector link's token (teacher only): ``(token, its number, None)``, or
        ``("", 0, why)``. Only its hash is kept; the link before stops working, and a projector
        page it opened is told so (a change of the room's people: every page hears it)."""
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return "", 0, why
            token = new_secret()
            self.projector_hash, self.projector_links = digest(token), self.projector_links + 1
            why = self._changed("people")
            if why is not None:  # another process wrote first: the room is the database's again
                return "", 0, why
            return token, self.projector_links, None

    @_retried
    def lock_room(self, secret, locked: bool = True) -> Refusal | None:
        """Lock the room (no one new may join) or open it again. Teacher only."""
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            self.locked = bool(locked)
            return self._changed("people")

    @_retried
    def change_join_code(self, secret, taken=lambda _code: False) -> Refusal | None:
        """A fresh random join code (as :func:`new_code`; none this room had, nor one ``taken``
        says another room is known by). The old one admits no one from now on; the people
        already in stay, and come back by the room's identity (their cookie). Teacher only."""
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            code = new_code()
            while self.known_by(code) or taken(code):
                code = new_code()
            if self.join_code != self.code:
                self.old_codes = [self.join_code, *self.old_codes][:MAX_OLD_CODES]
            self.join_code = code
            return self._changed("people")

    # ------------------------------------------------------------------ playing the table
    def play(self, actor, option) -> Refusal | None:
        """Play ``option`` (an id or the notation) on the table for whoever decides now. The
        teacher may play every seat; a learner only their own seat, when it decides (and not
        while the room is paused)."""
        with self.lock:
            teacher = self.is_teacher(actor)
            if not teacher:
                person = self.participant(actor)
                if person is None:
                    return Refusal("room.refuse.not_in_room")
                why = self._learner_may_play(person)
                if why:
                    return why
            return self._play_on(self.table, option, "table", self._lang_of(actor))

    def _learner_may_play(self, person: Participant) -> Refusal | None:
        state = self.table.state
        if self.paused:
            return Refusal("room.refuse.paused")
        if state.is_over:
            return Refusal("room.refuse.over")
        if person.seat is None:
            return Refusal("room.refuse.no_seat_yours")
        if person.seat != state.decider:
            colour = state.colours[state.decider]
            mine = state.colours[person.seat]
            return Refusal("room.refuse.not_your_turn", {"colour": colour, "colour_mine": mine})
        return None

    def _play_on(self, history: History, option, what: str, lang: str) -> Refusal | None:
        if isinstance(option, str) and len(option) > MAX_INPUT:
            return Refusal("room.refuse.bad_option")
        if not isinstance(option, (int, str)) or isinstance(option, bool):
            return Refusal("room.refuse.bad_option")
        state = history.state
        try:
            history.play(option)
        except NefertitiError as error:
            return _engine_refusal(error, state, option, lang)
        except Exception as error:  # never into a page
            log.warning("room %s: a step failed: %s", self.code, error)
            return Refusal("room.refuse.bad_option")
        return self._changed(what)

    def _lang_of(self, actor) -> str:
        person = None if self.is_teacher(actor) else self.participant(actor)
        return person.lang if person is not None else "en"

    def undo(self, secret) -> Refusal | None:
        return self._teacher_move(secret, "undo")

    def redo(self, secret) -> Refusal | None:
        return self._teacher_move(secret, "redo")

    def _teacher_move(self, secret, which: str) -> Refusal | None:
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            try:
                getattr(self.table, which)()
            except NefertitiError as error:
                return Refusal("", text_en=str(error))
            return self._changed("table")

    # ------------------------------------------------------------------ breaking away
    def break_away(self, token) -> Refusal | None:
        """A private copy of the table's position for this learner (only they see it): the same
        position as far as anyone at the table knows it, with the hidden deck order and dice
        drawn anew (``nefertiti_core.engine.chance.redealt``)."""
        with self.lock:
            person = self.participant(token)
            if person is None:
                return Refusal("room.refuse.not_in_room")
            # the hidden deck and dice drawn anew: what the learner plays out alone tells them
            # nothing of what the table will deal
            self.private_tables[person.id] = History(redealt(self.table.state, self.deal_rng))
            return self._changed(f"private:{person.id}")

    def rejoin(self, token) -> Refusal | None:
        """Back to the table's position: the private copy is dropped."""
        with self.lock:
            person = self.participant(token)
            if person is None:
                return Refusal("room.refuse.not_in_room")
            self.private_tables.pop(person.id, None)
            return self._changed(f"private:{person.id}")

    def private(self, token) -> History | None:
        """The caller's own private copy, if they broke away (never another's)."""
        person = self.participant(token)
        return self.private_tables.get(person.id) if person is not None else None

    def play_private(self, token, option) -> Refusal | None:
        """Try a step on the caller's private copy (any seat: it is theirs alone)."""
        with self.lock:
            person = self.participant(token)
            if person is None:
                return Refusal("room.refuse.not_in_room")
            history = self.private_tables.get(person.id)
            if history is None:
                return Refusal("room.refuse.not_away")
            return self._play_on(history, option, f"private:{person.id}", person.lang)

    def undo_private(self, token) -> Refusal | None:
        with self.lock:
            person = self.participant(token)
            history = self.private_tables.get(person.id) if person is not None else None
            if history is None:
                return Refusal("room.refuse.not_away")
            try:
                history.undo()
            except NefertitiError as error:
                return Refusal("", text_en=str(error))
            return self._changed(f"private:{person.id}")

    # ------------------------------------------------------------------ reading
    def seat_names(self) -> list[str | None]:
        """Per seat of the table: the name of the learner who plays it, or None (the teacher)."""
        n = self.table.state.n
        names: list[str | None] = [None] * n
        for person in self.people():
            if person.seat is not None and person.seat < n:
                names[person.seat] = person.name
        return names


def on_event_loop() -> bool:
    """Whether this thread runs an asyncio event loop (the server's: pages are served there)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _start_state():
    return new_game(4, 0, record_events=True)


def _engine_refusal(error, state, option, lang: str) -> Refusal:
    """The engine's refusal, in the actor's language where the engine can say it, the options
    named in words (the engine raises in English, in move notation)."""
    texts = {"en": str(error)}
    opt = getattr(error, "option", None)
    if isinstance(opt, int) and not state.is_legal(opt):
        try:
            for each in {"en", lang}:
                texts[each] = refusal(state, opt, each)[0]
        except NefertitiError:
            pass
    return Refusal("", text_en=str(error), text_by_lang=texts)


class Rooms:
    """Every open room of a server, by its code (identity), found by any code it is known by
    (thread-safe)."""

    def __init__(self, clock=time.time, ttl_s: float = ROOM_TTL_S, max_rooms: int = MAX_ROOMS):
        self._rooms: dict[str, Room] = {}
        self._lock = threading.Lock()
        self.clock = clock
        self.ttl_s = ttl_s
        self.max_rooms = max_rooms
        self.on_open = None  # called with each new room (the store: room_store.py)
        #: Several processes: ``loader(code)`` reads a room this process does not hold
        #: from the database (another process opened it), or None.
        self.loader = None

    def open(self, client: str = "") -> tuple[Room | None, str, Refusal | None]:
        """A new room with a code no open room has: (room, teacher secret, None) or why not
        (the server's rooms, or those opened from ``client``'s address, at their cap)."""
        opened_by = digest(client) if client else ""
        with self._lock:
            self._expire_locked()
            if len(self._rooms) >= self.max_rooms:
                return None, "", Refusal("room.refuse.too_many_rooms", {"n": self.max_rooms})
            mine = sum(1 for r in self._rooms.values() if opened_by and r.opened_by == opened_by)
            if mine >= MAX_ROOMS_PER_CLIENT:
                return None, "", Refusal("room.refuse.rooms_here", {"n": MAX_ROOMS_PER_CLIENT})
            code = new_code()
            while self._taken_locked(code):
                code = new_code()
            room, secret = Room.open(code, clock=self.clock, ttl_s=self.ttl_s)
            room.opened_by = opened_by
            self._rooms[code] = room
        if self.on_open is not None:
            self.on_open(room)
        return room, secret, None

    def add(self, room: Room) -> None:
        """A room read back from the store."""
        with self._lock:
            self._rooms[room.code] = room

    def find(self, code) -> Room | None:
        """The open room known by this code (typed as people type it), or None: by its identity
        (the address and cookie of someone already in, the teacher's), its current join code, or
        an earlier one (``Room.join`` then refuses a newcomer who typed anything but the
        current join code)."""
        code = normal_code(code)
        if code is None:
            return None
        with self._lock:
            room = self._rooms.get(code) or next(
                (r for r in self._rooms.values() if r.known_by(code)), None
            )
            if room is not None and room.expired():
                del self._rooms[room.code]
                return None
        if room is None and self.loader is not None:
            if on_event_loop():
                # a page never waits for the store on the server's event loop: its load read
                # the room first, off the loop (the classroom pages' ``prepare``)
                return None
            loaded = self.loader(code)
            if loaded is not None:
                with self._lock:  # two pages asking at once keep the first one read
                    room = self._rooms.setdefault(loaded.code, loaded)
        return room

    def taken(self, code: str) -> bool:
        """Whether a room this process holds is known by ``code`` (a new code must not be)."""
        with self._lock:
            return self._taken_locked(code)

    def _taken_locked(self, code: str) -> bool:
        return code in self._rooms or any(r.known_by(code) for r in self._rooms.values())

    def held(self, code: str) -> Room | None:
        """The room this process holds with this code (never read from the store)."""
        with self._lock:
            return self._rooms.get(code)

    def expire(self) -> list[str]:
        with self._lock:
            return self._expire_locked()

    def _expire_locked(self) -> list[str]:
        gone = [code for code, room in self._rooms.items() if room.expired()]
        for code in gone:
            del self._rooms[code]
        return gone

    def __len__(self) -> int:
        return len(self._rooms)

    def __iter__(self):
        return iter(list(self._rooms.values()))
