"""Coming back on another device: a learner's seat moves to a new browser, by PIN or by the
teacher's leave.

A learner's browser holds the token that opens their participant (an HttpOnly cookie). A phone
that died, or a move to a laptop, leaves that token behind: typing the same code and name on the
new device would otherwise meet "name taken" (the name is held by their own participant). So:

* **A PIN.** When a learner joins they are given a 4-digit PIN (:func:`new_pin`), shown once on
  their page; only its hash is kept (``Participant.pin_hash``, salted with the room and the
  participant, stored in ``classroom_participants.pin_hash``). On ``/join`` a name that is a
  present participant's asks for that PIN instead of refusing (:func:`claimant`); the right PIN
  (:func:`with_pin`) moves the participant (the same id, seat, language, answers) to the new
  device: a new token (the old one opens nothing any more: that page says the seat moved and
  its buttons go inert) and a new PIN (a PIN moves a seat once).
* **Guessing is bounded.** 10,000 PINs: a participant takes at most :data:`MAX_WRONG` wrong PINs
  in :data:`WINDOW_S` seconds, counted on the participant in the room (so in the store: every
  process of a shared deployment counts the same tries); past that only the teacher's leave
  opens the seat. The page also counts a learner's tries (``MAX_JOIN_TRIES``). And one computer
  takes at most :data:`MAX_WRONG_PER_CLIENT` wrong PINs in a room in :data:`WINDOW_S`, whichever
  names it tries (:class:`ClientGuesses`; counted in this process: someone trying five wrong PINs
  on every learner of a class is stopped after two learners, not thirty).
* **Or the teacher's leave.** The new device asks (:func:`ask`): it holds a fresh random request
  token whose hash waits on the participant; the teacher's page shows "Anna asks to come back on
  a new device — Let in / Refuse" (:func:`asking`, :func:`answer`). Letting in makes the request
  token the participant's token (the waiting page finds itself in, :func:`request_state`);
  refusing tells the waiting page. One request per participant waits at a time (a second is
  refused while the first is younger than :data:`ASK_TTL_S`).

Removed learners stay out (their name's skeleton and their device are banned: ``room.refuse.
removed`` before any PIN is looked at); a name nobody present has is a newcomer's (``Room.join``).
Every refusal is a :class:`~widgets.classroom.room.Refusal` (a sentence in the learner's
language). Each change is a change of the room (``Room.changed``: written to the store before
anyone is told, compare-and-set between processes; overtaken by another process, it is made again
on the room as it is now).
"""

from __future__ import annotations

import collections
import hmac
import re
import secrets
import threading

from widgets.classroom import names
from widgets.classroom.room import (
    Participant,
    Refusal,
    Room,
    clean_name,
    digest,
    new_secret,
    normal_code,
    valid_token,
)

PIN_DIGITS = 4
PIN_RE = re.compile(rf"^[0-9]{{{PIN_DIGITS}}}$")
#: Wrong PINs a participant takes in WINDOW_S seconds; then only the teacher lets them in.
MAX_WRONG = 5
WINDOW_S = 600.0
#: Wrong PINs one client address takes in a room in WINDOW_S seconds, over all names it tries.
MAX_WRONG_PER_CLIENT = 10
#: A request to the teacher waits this long at most (a second one is refused meanwhile).
ASK_TTL_S = 600.0
#: How often a change overtaken by another process is made again.
TRIES = 4


def pin_hash(room: Room, person_id: int, pin: str) -> str:
    """What the room keeps of a PIN: its hash, salted with the room and the participant."""
    return digest(f"{room.code}:{person_id}:{pin}")


def _retried(change):
    """``change()`` made again on the room as it now is when another process overtook it."""
    for _ in range(TRIES):
        result = change()
        why = result[-1] if isinstance(result, tuple) else result
        if why is None or why.key != "room.refuse.stale":
            return result
    return result


def _recent(person: Participant, now: float) -> list[float]:
    failed = person.rejoin.get("failed", [])
    return [t for t in failed if isinstance(t, (int, float)) and now - t < WINDOW_S]


def wrong_left(person: Participant, now: float) -> int:
    """How many wrong PINs the participant may still take now."""
    return max(0, MAX_WRONG - len(_recent(person, now)))


class ClientGuesses:
    """Wrong PINs by client address and room, in this process: the times of the last ones,
    forgotten after :data:`WINDOW_S`; at most ``max_keys`` addresses remembered (the oldest
    forgotten first), so that a flood of addresses cannot fill the memory. Thread-safe."""

    def __init__(self, limit: int = MAX_WRONG_PER_CLIENT, max_keys: int = 20_000):
        self.limit, self.max_keys = limit, max_keys
        self._times: collections.OrderedDict[str, list[float]] = collections.OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def _key(room: Room, client: str) -> str:
        return digest(f"{room.code}|{client}")

    def left(self, room: Room, client: str, now: float) -> int:
        """How many wrong PINs ``client`` may still take in ``room`` now."""
        with self._lock:
            times = [t for t in self._times.get(self._key(room, client), []) if now - t < WINDOW_S]
        return max(0, self.limit - len(times))

    def wrong(self, room: Room, client: str, now: float) -> None:
        key = self._key(room, client)
        with self._lock:
            times = [t for t in self._times.pop(key, []) if now - t < WINDOW_S]
            self._times[key] = [*times, now]
            while len(self._times) > self.max_keys:
                self._times.popitem(last=False)


#: The server's count of wrong PINs per client address (:func:`with_pin`).
CLIENT_GUESSES = ClientGuesses()


def new_pin(room: Room, token) -> tuple[str, Refusal | None]:
    """A fresh PIN for the caller's own participant (shown once; only its hash is kept):
    ``(pin, None)`` or ``("", why)``."""

    def change():
        with room.lock:
            person = room.participant(token)
            if person is None:
                return "", Refusal("room.refuse.not_in_room")
            pin = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
            person.pin_hash = pin_hash(room, person.id, pin)
            why = room.changed("people")
            return ("", why) if why is not None else (pin, None)

    return _retried(change)


def claimant(room: Room, name) -> Participant | None:
    """The present participant called ``name`` (as typed: case aside), or None. Read only: the
    page asks for this participant's PIN instead of refusing the name."""
    shown, why = clean_name(name)
    if why is not None:
        return None
    folded = shown.casefold()
    return next((p for p in room.people() if p.name.casefold() == folded), None)


def _admits(room: Room, name, device: str, code) -> tuple[Participant | None, Refusal | None]:
    """The participant a new device claims, or why not (the room's lock held)."""
    shown, why = clean_name(name)
    if why is not None:
        return None, why
    if room.expired():
        return None, Refusal("room.refuse.expired")
    if code is not None and normal_code(code) != room.join_code:
        return None, Refusal("room.refuse.old_code")
    device_hash = digest(device) if valid_token(device) else ""
    if names.skeleton(shown) in room.banned_names or (
        device_hash and device_hash in room.banned_devices
    ):
        return None, Refusal("room.refuse.removed")
    folded = shown.casefold()
    person = next((p for p in room.participants.values() if p.name.casefold() == folded), None)
    if person is None:
        return None, Refusal("room.refuse.rejoin_nobody", {"name": shown})
    return person, None


def _moved(person: Participant, token_hash: str, device: str) -> None:
    """The participant now opens with ``token_hash`` (the old token: nothing), from the new
    device (its id's hash, when it sent one); the request and the tries are done. The id, the
    seat, the language and the answers stay."""
    person.token_hash = token_hash
    if valid_token(device):
        person.device_hash = digest(device)
    person.rejoin = {}
    person.pin_hash = ""


def with_pin(
    room: Room, name, pin, device: str = "", code=None, client: str = ""
) -> tuple[Participant | None, str, str, Refusal | None]:
    """Move the participant called ``name`` to this device by their PIN: ``(participant, the new
    device's token, a new PIN, None)``, or ``(None, "", "", why)``. A wrong PIN counts against
    the participant (:data:`MAX_WRONG` in :data:`WINDOW_S`) and against the client address
    ``client`` (:data:`MAX_WRONG_PER_CLIENT` in the room, whichever names it tries); a PIN that
    is not 4 digits counts against neither (it is a typing slip, said so)."""

    def change():
        with room.lock:
            person, why = _admits(room, name, device, code)
            if why is not None:
                return None, "", "", why
            now = room.clock()
            if wrong_left(person, now) == 0:
                return None, "", "", Refusal("room.refuse.pin_locked", {"name": person.name})
            if CLIENT_GUESSES.left(room, client, now) == 0:
                return None, "", "", Refusal("room.refuse.pin_client_locked")
            if not person.pin_hash:
                return None, "", "", Refusal("room.refuse.pin_none", {"name": person.name})
            typed = re.sub(r"\s", "", pin) if isinstance(pin, str) and len(pin) < 40 else ""
            if not PIN_RE.fullmatch(typed):
                return None, "", "", Refusal("room.refuse.pin_form", {"n": PIN_DIGITS})
            if not hmac.compare_digest(pin_hash(room, person.id, typed), person.pin_hash):
                CLIENT_GUESSES.wrong(room, client, now)
                failed = [*_recent(person, now), now]
                person.rejoin = {**person.rejoin, "failed": failed}
                why = room.changed("people")
                if why is not None:
                    return None, "", "", why
                left = wrong_left(person, now)
                if left == 0:
                    return None, "", "", Refusal("room.refuse.pin_locked", {"name": person.name})
                return None, "", "", Refusal("room.refuse.pin_wrong", {"n": left})
            token = new_secret()
            _moved(person, digest(token), device)
            fresh = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
            person.pin_hash = pin_hash(room, person.id, fresh)
            why = room.changed("people")
            if why is not None:
                return None, "", "", why
            return person, token, fresh, None

    return _retried(change)


def ask(room: Room, name, device: str = "", code=None) -> tuple[int, str, Refusal | None]:
    """Ask the teacher to let this device in as the participant called ``name``: ``(their id,
    the request's token, None)`` (the page keeps the token; only its hash waits on the
    participant), or ``(0, "", why)``."""

    def change():
        with room.lock:
            person, why = _admits(room, name, device, code)
            if why is not None:
                return 0, "", why
            asked = person.rejoin.get("asked", 0)
            if person.rejoin.get("ask") and room.clock() - asked < ASK_TTL_S:
                return 0, "", Refusal("room.refuse.asked_already", {"name": person.name})
            token = new_secret()
            rest = {k: v for k, v in person.rejoin.items() if k == "failed"}
            person.rejoin = {**rest, "ask": digest(token), "asked": room.clock()}
            if valid_token(device):  # the device let in is the one a removal would ban
                person.rejoin["device"] = digest(device)
            why = room.changed("people")
            if why is not None:
                return 0, "", why
            return person.id, token, None

    return _retried(change)


def asking(room: Room) -> list[Participant]:
    """The participants whose new device waits for the teacher's leave now (oldest first)."""
    now = room.clock()
    waiting = [
        p
        for p in room.people()
        if p.rejoin.get("ask") and now - p.rejoin.get("asked", 0) < ASK_TTL_S
    ]
    return sorted(waiting, key=lambda p: p.rejoin.get("asked", 0))


def answer(room: Room, secret, person_id, let_in: bool) -> Refusal | None:
    """The teacher lets the waiting device in as participant ``person_id`` (the same move as a
    right PIN; the device's page finds itself in) or refuses it (its page is told). Teacher only;
    a request no longer waiting: ``room.refuse.ask_gone``."""

    def change():
        with room.lock:
            if not room.is_teacher(secret):
                return Refusal("room.refuse.teacher_only")
            person = room.participants.get(person_id) if isinstance(person_id, int) else None
            if person is None or person.id not in {p.id for p in asking(room)}:
                return Refusal("room.refuse.ask_gone")
            wanted, device_hash = person.rejoin["ask"], person.rejoin.get("device", "")
            if let_in:
                _moved(person, wanted, "")
                if isinstance(device_hash, str) and len(device_hash) == 64:
                    person.device_hash = device_hash
            else:
                rest = {k: v for k, v in person.rejoin.items() if k == "failed"}
                person.rejoin = {**rest, "refused": wanted}
            return room.changed("people")

    return _retried(change)


def request_state(room: Room, person_id: int, token) -> str:
    """Where a waiting device's request stands: ``"in"`` (let in: its token opens the
    participant), ``"waiting"``, ``"refused"``, or ``"gone"`` (expired, replaced, or the
    participant removed)."""
    person = room.participants.get(person_id)
    if person is None or not valid_token(token):
        return "gone"
    wanted = digest(token)
    if hmac.compare_digest(person.token_hash, wanted):
        return "in"
    if person.rejoin.get("refused") == wanted:
        return "refused"
    if person.rejoin.get("ask") == wanted and person.id in {p.id for p in asking(room)}:
        return "waiting"
    return "gone"
