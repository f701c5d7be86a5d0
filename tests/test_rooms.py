"""The classroom's room model (widgets/classroom/room.py): who may do what, hostile input,
expiry and the listeners' version numbers. Every refusal is a sentence, never an exception,
and leaves the room as it was."""

from __future__ import annotations

import random
import sys

import pytest

from nefertiti_core.engine.i18n import LANGUAGES
from widgets.classroom.room import (
    CODE_ALPHABET,
    CODE_LENGTH,
    EMPTY_ROOM_TTL_S,
    MAX_NAME,
    MAX_ROOMS_PER_CLIENT,
    Refusal,
    Room,
    Rooms,
    normal_code,
    scenario_names,
)


class Clock:
    def __init__(self, now=1000.0):
        self.now = now

    def __call__(self):
        return self.now


@pytest.fixture()
def room():
    room, secret = Room.open(clock=Clock())
    room.secret = secret  # for the tests only: the room itself keeps its hash
    return room


def join(room, name, lang="en"):
    person, token, why = room.join(name, lang)
    assert why is None, why
    return person, token


def snapshot(room):
    return (
        room.table.step,
        room.table.state.decider,
        room.paused,
        room.title,
        {p.id: (p.name, p.seat, p.lang) for p in room.participants.values()},
        room.version,
    )


def refused(result, *langs):
    """A refusal with a sentence in every language."""
    assert isinstance(result, Refusal), result
    for lang in langs or LANGUAGES:
        text = result.text(lang)
        assert isinstance(text, str) and len(text) >= 8 and "{" not in text
    return result


def test_room_model_imports_no_panel():
    assert "widgets.classroom.room" in sys.modules
    import subprocess

    code = "import sys, widgets.classroom.room; print('panel' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_codes_are_long_unambiguous_and_distinct():
    rooms = Rooms()
    codes = set()
    for _ in range(50):
        room, secret, why = rooms.open()
        assert why is None
        assert len(room.code) == CODE_LENGTH >= 8
        assert set(room.code) <= set(CODE_ALPHABET)
        assert not set(room.code) & set("01OIL")
        assert len(secret) >= 32 and secret not in room.teacher_hash
        codes.add(room.code)
    assert len(codes) == 50
    # typed as people type it
    code = next(iter(codes))
    assert rooms.find(code.lower()) is not None
    assert rooms.find(code[:4] + "-" + code[4:]) is not None
    assert rooms.find(code[:-1]) is None
    assert rooms.find("<script>") is None and rooms.find(None) is None


def test_a_learner_plays_only_their_own_seat_when_it_decides(room):
    anna, anna_token = join(room, "Anna")
    ben, ben_token = join(room, "Ben")
    decider = room.table.state.decider
    other = (decider + 1) % room.table.state.n
    assert room.assign_seat(room.secret, anna.id, decider) is None
    assert room.assign_seat(room.secret, ben.id, other) is None
    option = room.table.state.legal_options()[0]
    before = snapshot(room)
    # Ben's seat does not decide now; a learner without a seat never plays
    why = refused(room.play(ben_token, option))
    assert "Ben" not in why.text("en") and "decision" in why.text("en")
    carl, carl_token = join(room, "Carl")
    before = snapshot(room)
    refused(room.play(carl_token, option))
    refused(room.play("x" * 32, option))  # an unknown token
    assert snapshot(room) == before
    # Anna's seat decides: she plays it
    assert room.play(anna_token, option) is None
    assert room.table.step == 1


def test_only_the_teacher_stages_seats_pauses_removes_undoes(room):
    anna, anna_token = join(room, "Anna")
    before = snapshot(room)
    for attempt in (
        lambda key: room.stage(key, "scribe"),
        lambda key: room.assign_seat(key, anna.id, 0),
        lambda key: room.free_seat(key, 0),
        lambda key: room.pause(key),
        lambda key: room.remove(key, anna.id),
        lambda key: room.undo(key),
        lambda key: room.redo(key),
    ):
        # one character changed (never the same: "A" unless the secret already ends in "A")
        near = room.secret[:-1] + ("B" if room.secret.endswith("A") else "A")
        for key in (anna_token, "", None, room.teacher_hash, near, 42):
            why = refused(attempt(key))
            assert why.key == "room.refuse.teacher_only"
    assert snapshot(room) == before
    assert room.stage(room.secret, "scribe") is None
    assert room.title == "scribe"


def test_the_teacher_plays_every_seat_and_pause_stops_learners(room):
    anna, anna_token = join(room, "Anna")
    state = room.table.state
    room.assign_seat(room.secret, anna.id, state.decider)
    assert room.pause(room.secret) is None
    before = snapshot(room)
    why = refused(room.play(anna_token, state.legal_options()[0]))
    assert why.key == "room.refuse.paused"
    assert snapshot(room) == before
    # the teacher plays on while paused (to show something), for any seat
    assert room.play(room.secret, room.table.state.legal_options()[0]) is None
    assert room.pause(room.secret, False) is None
    assert not room.paused


def test_illegal_and_hostile_steps_change_nothing(room):
    anna, anna_token = join(room, "Anna", "de")
    room.assign_seat(room.secret, anna.id, room.table.state.decider)
    before = snapshot(room)
    for option in (
        -1, 10**9, 3.5, True, None, [], {"a": 1}, "", "place nowhere", "x" * 10_000, "\x00",
        "<script>alert(1)</script>",
    ):  # fmt: skip
        why = refused(room.play(anna_token, option))
        assert "<script>" not in why.text("en") or "alert" in why.text("en")  # quoted, not run
    assert snapshot(room) == before
    # an engine refusal of an illegal option comes in the learner's language
    state = room.table.state
    illegal = next(o for o in range(200) if not state.is_legal(o))
    why = refused(room.play(anna_token, illegal))
    assert why.text("de") != why.text("en")


@pytest.mark.parametrize(
    "name",
    ["", "   ", "\n", "a\x00b", "Ann\u202eA", "zero\u200bwidth", "x" * (MAX_NAME + 1), "y" * 5000,
     None, 7, ["Anna"]],
)  # fmt: skip
def test_hostile_names_are_refused(room, name):
    before = snapshot(room)
    refused(room.join(name)[2])
    assert snapshot(room) == before


def test_names_are_tidied_and_unique_markup_kept_as_text(room):
    person, _ = join(room, "  Anna   Lee ")
    assert person.name == "Anna Lee"
    refused(room.join("anna lee")[2])
    person, _ = join(room, "<b>Bob</b> & 'Co'")
    assert person.name == "<b>Bob</b> & 'Co'"  # escaped by the pages, kept as typed here
    person, _ = join(room, "李明")
    assert person.lang == "en"
    person, _ = join(room, "Dora", lang="xx")  # an unknown language: English
    assert person.lang == "en"


@pytest.mark.parametrize(
    ("present", "imitation"),
    [
        ("Anna", "\u0410nna"),  # a Cyrillic capital A
        ("Anna", "Ann\u0430"),  # a Cyrillic small a
        ("Anna", "Anna\u0336"),  # a combining stroke over the last letter
        ("Bill", "B\u0456ll"),  # a Cyrillic i
        ("Oskar", "0skar"),  # a zero for an O
        ("Zoe", "Zo\u00eb"),  # an accent is not enough to tell two learners apart
    ],
)
def test_a_name_that_looks_like_a_present_one_is_refused(room, present, imitation):
    join(room, present)
    before = snapshot(room)
    why = refused(room.join(imitation)[2])
    assert why.key == "room.refuse.name_like" and present in why.text("en")
    assert snapshot(room) == before


@pytest.mark.parametrize(
    "name",
    ["\u3164", "\u2800", "\u2800Bob", "\u115f\u1160", "B\u0301\u0302\u0303ob", "...", "\u200b"],
)
def test_a_name_that_shows_as_nothing_or_a_smear_is_refused(room, name):
    refused(room.join(name)[2])


def test_names_are_normalised_so_full_width_letters_are_the_same_name(room):
    join(room, "Anna")
    why = refused(room.join("\uff21\uff4e\uff4e\uff41")[2])  # full-width Anna
    assert why.key == "room.refuse.name_taken"
    person, _ = join(room, "\ufb01ona")  # the "fi" ligature
    assert person.name == "fiona"


def test_a_removed_learner_cannot_join_again_by_name_look_alike_or_device(room):
    device, other_device = "d" * 32, "e" * 32
    ben, _, why = room.join("Ben", device=device)
    assert why is None
    assert room.remove(room.secret, ben.id) is None
    for name, from_device in [
        ("Ben", ""),
        ("ben", other_device),
        ("B\u0435n", ""),
        ("Carl", device),
    ]:
        why = refused(room.join(name, device=from_device)[2])
        assert why.key == "room.refuse.removed", name
    carl, _, why = room.join("Carl", device=other_device)
    assert why is None and carl is not None


def test_a_locked_room_takes_no_one_new_and_keeps_those_in_it(room):
    anna, token = join(room, "Anna")
    refused(room.lock_room(token))  # a learner cannot lock it
    assert room.lock_room(room.secret) is None and room.locked
    why = refused(room.join("Ben")[2])
    assert why.key == "room.refuse.locked"
    assert room.participant(token) is anna  # Anna's own link still opens the room
    assert room.lock_room(room.secret, False) is None
    join(room, "Ben")


def test_a_new_join_code_lets_newcomers_in_and_the_old_one_no_one():
    """The teacher's New join code: the code that got out (a photo of the projector) admits no
    one, in the learner's own language; the new one does; those already in are still found by
    the room's identity (their address and cookie) with their token."""
    rooms = Rooms()
    room, secret, _ = rooms.open()
    other, _, _ = rooms.open()
    first = room.code
    anna, token, why = room.join("Anna", code=first)
    assert why is None
    refused(room.change_join_code(token))  # a learner cannot change it
    assert room.change_join_code(secret, taken=rooms.taken) is None
    second = room.join_code
    assert second != first and room.code == first  # the identity stays
    assert len(second) == CODE_LENGTH and set(second) <= set(CODE_ALPHABET)
    assert not other.known_by(second)
    why = refused(room.join("Ben", code=first)[2])
    assert why.key == "room.refuse.old_code"
    assert "no longer lets anyone in" in why.text("en")
    assert "kommt niemand mehr herein" in why.text("de") and "不能再加入" in why.text("zh")
    # typed as people type it
    ben, _, why = room.join("Ben", "zh", code=second[:4].lower() + " " + second[4:])
    assert why is None and ben.lang == "zh"
    # those already in: found by the identity and their token; newcomers by the new code
    assert rooms.find(first) is room and room.participant(token) is anna
    assert rooms.find(second) is room
    # changed again: both earlier codes admit no one (and are still known, to say so)
    assert room.change_join_code(secret, taken=rooms.taken) is None
    for old in (first, second):
        assert rooms.find(old) is room
        assert refused(room.join("Carl", code=old)[2]).key == "room.refuse.old_code"
    assert room.join("Carl", code=room.join_code)[2] is None
    assert rooms.find(other.code) is other  # the other room keeps its own code


def test_a_new_join_code_is_none_another_room_is_known_by(monkeypatch):
    rooms = Rooms()
    room, secret, _ = rooms.open()
    other, _, _ = rooms.open()
    drawn = iter([room.code, other.code, "ABCDEFGH"])
    monkeypatch.setattr("widgets.classroom.room.new_code", lambda: next(drawn))
    assert room.change_join_code(secret, taken=rooms.taken) is None
    assert room.join_code == "ABCDEFGH"


def test_reconnect_by_token_and_removal(room):
    anna, token = join(room, "Anna")
    room.assign_seat(room.secret, anna.id, 2)
    assert room.participant(token) is anna and anna.seat == 2
    assert room.participant(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    assert room.remove(room.secret, anna.id) is None
    assert room.participant(token) is None
    assert room.seat_names()[2] is None
    refused(room.play(token, 0))
    refused(room.remove(room.secret, anna.id))


def test_a_seat_given_to_another_is_taken_from_the_first(room):
    anna, _ = join(room, "Anna")
    ben, _ = join(room, "Ben")
    room.assign_seat(room.secret, anna.id, 1)
    room.assign_seat(room.secret, ben.id, 1)
    assert anna.seat is None and ben.seat == 1
    refused(room.assign_seat(room.secret, ben.id, 4))
    refused(room.assign_seat(room.secret, ben.id, -1))
    refused(room.assign_seat(room.secret, ben.id, "1"))
    refused(room.assign_seat(room.secret, 999, 1))
    assert room.seat_names() == [None, "Ben", None, None]
    assert room.free_seat(room.secret, 1) is None
    assert ben.seat is None


def test_break_away_is_private_and_rejoin_returns_to_the_table(room):
    anna, anna_token = join(room, "Anna")
    ben, ben_token = join(room, "Ben")
    step = room.table.step
    refused(room.play_private(anna_token, 0))  # not away yet
    assert room.break_away(anna_token) is None
    mine = room.private(anna_token)
    assert mine is not None and mine is not room.table
    assert room.private(ben_token) is None  # Ben sees no copy, not Anna's
    assert room.play_private(anna_token, mine.state.legal_options()[0]) is None
    assert mine.step == 1 and room.table.step == step  # the table did not move
    assert room.undo_private(anna_token) is None and mine.step == 0
    room.play(room.secret, room.table.state.legal_options()[0])
    assert room.rejoin(anna_token) is None
    assert room.private(anna_token) is None
    # back at the table's position
    assert room.table.step == step + 1


def _dealt_and_rolled(history, options) -> list:
    """The cards that reopening markets drew and the dice rolled while ``options`` (indices into
    the legal options, the same at each step) are played on ``history``."""
    seen = []
    for pick in options:
        state = history.state
        if state.is_over:
            break
        start = len(state.log)
        legal = state.legal_options()
        history.play(legal[pick % len(legal)])
        for name, data in history.state.log[start:]:
            if name == "reopen":
                seen.append(("reopen", data["market"], tuple(data["drawn"])))
            elif name == "roll":
                seen.append(("roll", tuple(data["dice"])))
    return seen


def test_a_break_away_deals_its_own_cards_and_dice_not_the_tables(room):
    """A learner who breaks away sees the table's position as anyone at the table knows it, but
    what they play out alone is dealt from a deck order and dice of its own: playing ahead there
    tells nothing of what the table will draw (the attack: 14 moves played privately, then the
    same 14 at the table, drew the same cards)."""
    anna, token = join(room, "Anna")
    room.table.state.force_roll(4, 5)  # a teacher's dice fixed ahead: hidden from the learner
    room.deal_rng = random.Random(7)
    assert room.break_away(token) is None
    mine = room.private(token)
    table = room.table.state
    assert mine.state.public_key() == table.public_key()  # the same position, as known
    assert sorted(mine.state.deck) == sorted(table.deck)  # the same cards left ...
    assert mine.state.deck != table.deck  # ... in an order of its own
    assert mine.state.forced_rolls == [] and table.forced_rolls == [4, 5]
    moves = [0, 3, 1, 2] * 12
    private = _dealt_and_rolled(mine, moves)
    at_the_table = _dealt_and_rolled(room.table, moves)
    assert any(kind == "reopen" for kind, *_ in at_the_table), "no market reopened: a longer game"
    assert private != at_the_table


def test_stage_only_shipped_positions(room):
    names = scenario_names()
    assert "scribe" in names
    before = snapshot(room)
    for name in ("../../etc/passwd", "/etc/passwd", "scribe.yaml", "", None, 3, "x" * 500):
        refused(room.stage(room.secret, name))
    assert snapshot(room) == before
    anna, token = join(room, "Anna")
    room.break_away(token)
    assert room.stage(room.secret, "tie-break") is None
    assert room.private(token) is None  # a staged position drops private copies
    assert room.stage(room.secret, "new") is None and room.title == ""


def test_listeners_get_increasing_versions_and_what_changed(room):
    seen = []
    key = room.subscribe(lambda version, what: seen.append((version, what)))
    anna, token = join(room, "Anna")
    room.assign_seat(room.secret, anna.id, room.table.state.decider)
    room.play(token, room.table.state.legal_options()[0])
    room.play(token, 10**6)  # refused: no notification
    room.break_away(token)
    room.stage(room.secret, "scribe")
    versions = [v for v, _ in seen]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    assert versions[-1] == room.version
    assert [w for _, w in seen] == ["people", "people", "table", f"private:{anna.id}", "table"]
    room.unsubscribe(key)
    room.pause(room.secret)
    assert len(seen) == 5


def test_a_broken_listener_does_not_stop_the_others(room):
    seen = []

    def broken(*_):
        raise RuntimeError("a closed page")

    room.subscribe(broken)
    room.subscribe(lambda v, w: seen.append(v))
    join(room, "Anna")
    assert seen == [room.version]


def test_rooms_expire_when_unused():
    clock = Clock()
    rooms = Rooms(clock=clock, ttl_s=3600)
    room, secret, _ = rooms.open()
    clock.now += 3000
    person, token, _ = room.join("Anna")  # activity keeps it open
    clock.now += 3000
    assert rooms.find(room.code) is room
    clock.now += 3601
    assert rooms.find(room.code) is None
    why = refused(room.join("Ben")[2])
    assert why.key == "room.refuse.expired"


def test_too_many_rooms_is_refused():
    rooms = Rooms(max_rooms=2)
    rooms.open()
    rooms.open()
    room, secret, why = rooms.open()
    assert room is None and secret == ""
    refused(why)


def test_one_address_opens_at_most_a_few_rooms_while_another_still_opens_one():
    rooms = Rooms(max_rooms=10)
    for _ in range(MAX_ROOMS_PER_CLIENT):
        assert rooms.open(client="10.0.0.9")[2] is None
    room, secret, why = rooms.open(client="10.0.0.9")
    assert room is None and why.key == "room.refuse.rooms_here"
    assert rooms.open(client="10.0.0.10")[2] is None  # the next teacher's computer


def test_a_closed_room_is_gone_for_everyone_and_frees_its_place():
    rooms = Rooms(max_rooms=1)
    room, secret, _ = rooms.open(client="10.0.0.9")
    anna, token = join(room, "Anna")
    refused(room.close(token))  # a learner cannot close it
    assert refused(rooms.open()[2]).key == "room.refuse.too_many_rooms"
    assert room.close(secret) is None
    assert rooms.find(room.code) is None
    assert refused(room.join("Ben")[2]).key == "room.refuse.expired"
    assert rooms.open(client="10.0.0.9")[2] is None  # its place is free again


def test_a_room_nobody_joined_expires_early_and_frees_its_place():
    clock = Clock()
    rooms = Rooms(clock=clock)
    empty, _, _ = rooms.open()
    used, _, _ = rooms.open()
    used.join("Anna")
    clock.now += EMPTY_ROOM_TTL_S + 1
    assert rooms.find(empty.code) is None
    assert rooms.find(used.code) is used


def test_normal_code():
    assert normal_code("abcd efgh") == "ABCDEFGH"
    assert normal_code("ABCD-EFG1") is None  # 1 is not in the alphabet
    assert normal_code("x" * 100) is None
