"""Classroom polls (#16 item 3): widgets/classroom/poll.py, the model without Panel.

A poll asks one exercise of a set of learners, keeps one answer per learner (changeable until the
reveal, never after), counts them, and on the reveal gives the engine's right answer and its own
explanation; the class record keeps, per learner, the rules seen (from a game's events, as
coverage.rules_in reads them) and the exercises answered right and wrong. Bad input is refused
with one sentence and changes nothing.
"""

from __future__ import annotations

import json
import random
import weakref
from fractions import Fraction

import pytest

from nefertiti_core import new_game
from nefertiti_core.engine.i18n import LANGUAGES
from nefertiti_core.files import exercises as E
from nefertiti_core.teaching.coverage import rules_in
from widgets.classroom.poll import (
    MAX_ANSWER_CHARS,
    ClassRecord,
    Poll,
    PollError,
    Polls,
    exercise_ref,
    find_exercise,
    lesson_exercises,
    practice_exercises,
)

WHO = "welcome/who-plays-next"  # who decides after Green's placement: Red (R5.5)
DEBEN = "setup/one-deben-per-reserve"  # Green's purse: +1 (the reserve holds only 1, R5.3)
SQUARE = "closing-gizeh/four-that-touch"
CHANCE = "closing-louqsor/two-dice-chance"  # 4/36 (R3.7)


def exercise(ident: str):
    return E.EXERCISES[ident]


def three() -> Polls:
    polls = Polls()
    for ident, name in (("a", "Ana"), ("b", "Bo"), ("c", "Cy")):
        polls.record.join(ident, name)
    return polls


def refused(call, *args, key: str) -> PollError:
    with pytest.raises(PollError) as info:
        call(*args)
    assert info.value.key == key, str(info.value)
    return info.value


def snapshot(poll: Poll) -> tuple:
    return (poll.counts(), poll.answered(), poll.waiting(), poll.revealed, poll.as_dict())


# --- answers ----------------------------------------------------------------------------------
def test_first_answer_is_counted_and_the_others_wait():
    polls = three()
    poll = polls.push(exercise(WHO), ["a", "b", "c"])
    assert poll.counts() == {"green": 0, "red": 0, "blue": 0, "black": 0, "nobody": 0}
    assert poll.answered() == () and poll.waiting() == ("a", "b", "c")
    assert polls.answer("b", "red") == "red"
    assert poll.counts()["red"] == 1 and sum(poll.counts().values()) == 1
    assert poll.answered() == ("b",) and poll.waiting() == ("a", "c")
    assert poll.answer_of("b") == "red" and poll.answer_of("a") is None


def test_last_answer_leaves_nobody_waiting():
    polls = three()
    poll = polls.push(exercise(WHO), ["a", "b", "c"])
    for learner, choice in (("c", "blue"), ("a", "red"), ("b", "red")):
        polls.answer(learner, choice)
    assert poll.waiting() == ()
    assert poll.answered() == ("c", "a", "b")  # in the order they first answered
    assert poll.counts() == {"green": 0, "red": 2, "blue": 1, "black": 0, "nobody": 0}


def test_a_learner_may_change_their_answer_before_the_reveal_and_counts_once():
    polls = three()
    poll = polls.push(exercise(WHO), ["a", "b"])
    polls.answer("a", "green")
    polls.answer("b", "blue")
    polls.answer("a", "red")
    assert poll.counts()["green"] == 0 and poll.counts()["red"] == 1
    assert poll.answered() == ("a", "b")  # a's place kept: the first answer's
    assert sum(poll.counts().values()) == len(poll.answered()) == 2


def test_an_answer_after_the_reveal_is_refused_and_changes_nothing():
    polls = three()
    poll = polls.push(exercise(WHO), ["a", "b", "c"])
    polls.answer("a", "green")
    polls.reveal()
    before = snapshot(poll)
    error = refused(polls.answer, "a", "red", key="poll.refused.revealed")
    assert "revealed" in str(error)
    refused(polls.answer, "b", "red", key="poll.refused.revealed")  # a first answer too
    assert snapshot(poll) == before
    assert polls.record.row("a").wrong == (WHO,)  # recorded once, as it was


def test_an_unknown_learner_is_refused_and_changes_nothing():
    polls = three()
    poll = polls.push(exercise(WHO), ["a", "b"])
    before = snapshot(poll)
    error = refused(polls.answer, "c", "red", key="poll.refused.unknown_learner")
    assert "'c'" in str(error)  # known to the class, but not asked this question
    refused(polls.answer, "zz", "red", key="poll.refused.unknown_learner")
    assert snapshot(poll) == before


def test_a_choice_that_is_not_one_of_the_choices_is_refused_in_the_learners_language():
    polls = three()
    poll = polls.push(exercise(WHO), ["a"])
    before = snapshot(poll)
    for bad in ("purple", "Red", "red ", "yes", 0):
        if bad == "red ":  # surrounding blanks are not a different answer
            continue
        error = refused(polls.answer, "a", bad, key="poll.refused.not_a_choice")
    assert "Green, Red, Blue, Black, nobody" in str(error)  # as the buttons say them
    assert error.text("de").endswith("(Grün, Rot, Blau, Schwarz, niemand: das Spiel ist vorbei).")
    assert "不是选项之一" in error.text("zh") and "绿方、红方、蓝方" in error.text("zh")
    assert snapshot(poll) == before
    square = polls.push(exercise(SQUARE), ["a"])  # the squares as numbered on the board
    assert square.choices("de")[0] == ("0", "die 1")
    error = refused(polls.answer, "a", "9", key="poll.refused.not_a_choice")
    assert "(die 1, die 2, die 3, die 5)" in error.text("de"), error.text("de")
    assert "标有1的方块、标有2的方块" in error.text("zh"), error.text("zh")


@pytest.mark.parametrize(
    "bad,key",
    [
        ("x" * (MAX_ANSWER_CHARS + 1), "poll.refused.too_long"),
        ("r" * 10**6, "poll.refused.too_long"),
        ("red\x00", "poll.refused.not_text"),
        ("re\u202ed", "poll.refused.not_text"),  # a bidi override
        ("", "poll.refused.empty"),
        ("   ", "poll.refused.empty"),
        (None, "poll.refused.not_text"),
        (True, "poll.refused.not_text"),
        ({"red": 1}, "poll.refused.not_text"),
        (["red"], "poll.refused.not_text"),
        (10**30, "poll.refused.too_long"),
        ("<script>alert(1)</script>", "poll.refused.not_a_choice"),
    ],
)
def test_oversized_or_hostile_answers_are_refused_and_change_nothing(bad, key):
    polls = three()
    poll = polls.push(exercise(WHO), ["a"])
    polls.answer("a", "red")
    before = snapshot(poll)
    error = refused(polls.answer, "a", bad, key=key)
    assert len(str(error)) < 200 and "\n" not in str(error)
    assert snapshot(poll) == before


@pytest.mark.parametrize("bad", ["", "x" * 65, "a\nb", "a\x1bb", None, 1.5, True, ["a"], {"a": 1}])
def test_a_hostile_learner_id_is_refused(bad):
    polls = three()
    poll = polls.push(exercise(WHO), ["a"])
    before = snapshot(poll)
    refused(polls.answer, bad, "red", key="poll.refused.learner_id")
    assert snapshot(poll) == before


def test_counts_always_add_up_to_who_has_answered():
    rng = random.Random(16)
    polls = Polls()
    learners = [f"l{i}" for i in range(12)]
    poll = polls.push(exercise(WHO), learners)
    keys = [k for k, _ in poll.choices()]
    for _ in range(200):
        learner = rng.choice(learners + ["stranger"])
        choice = rng.choice(keys + ["purple", ""])
        try:
            polls.answer(learner, choice)
        except PollError:
            pass
        assert sum(poll.counts().values()) == len(poll.answered())
        assert set(poll.answered()) | set(poll.waiting()) == set(learners)
        assert not set(poll.answered()) & set(poll.waiting())
        counted = {k: 0 for k in keys}
        for who in poll.answered():
            counted[poll.answer_of(who)] += 1
        assert counted == poll.counts()


# --- the reveal -------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_reveal_is_the_engines_right_answer_and_its_own_explanation(lang):
    ex = exercise(WHO)
    polls = three()
    polls.push(ex, ["a", "b", "c"])
    polls.answer("a", "red")
    polls.answer("b", "green")
    result = polls.reveal()
    truth = ex.right_answer()
    assert truth == "red"  # R5.5: play passes to the left
    assert result.right_keys == {truth}
    engine = ex.check(truth, lang)
    assert result.right_answer(lang) == engine.right_answer
    assert result.explanation(lang) == engine.reason  # the engine's words, not ours
    assert "R5.5" in result.explanation(lang)
    assert result.correct == {"a": True, "b": False}  # c did not answer: no verdict
    assert result.verdict("b", lang) == ex.check("green", lang)
    assert result.verdict("c", lang) is None
    assert polls.reveal() is result  # a second reveal is the same and records nothing more
    assert polls.record.row("a").right == (WHO,) and polls.record.row("b").wrong == (WHO,)
    assert polls.record.row("c").right == polls.record.row("c").wrong == ()


def test_typed_numbers_are_read_by_the_engine_and_bars_are_its_readings():
    ex = exercise(DEBEN)
    polls = three()
    poll = polls.push(ex, ["a", "b", "c"])
    assert poll.free and poll.choices() == []
    assert polls.answer("a", "1") == "+1"  # the engine's own way of writing a Deben change
    assert polls.answer("b", "+1") == "+1"
    assert polls.answer("c", -2) == "-2"
    assert poll.counts() == {"+1": 2, "-2": 1}
    error = refused(polls.answer, "c", "a few", key="poll.refused.invalid")
    assert ex.check("a few").headline in str(error)  # the engine's reason, quoted
    assert ex.check("a few", "de").headline in error.text("de")
    refused(polls.answer, "c", "99999", key="poll.refused.invalid")  # out of the engine's range
    assert poll.answer_of("c") == "-2"
    result = polls.reveal()
    assert ex.right_answer() == 1
    assert result.right_keys == {"+1"}
    assert result.correct == {"a": True, "b": True, "c": False}
    assert "R5.3" in result.explanation("en")


def test_a_probability_written_two_ways_is_right_both_ways():
    ex = exercise(CHANCE)
    assert ex.right_answer() == Fraction(1, 9)
    polls = three()
    polls.push(ex, ["a", "b", "c"])
    polls.answer("a", "4/36")
    polls.answer("b", "1/9")
    polls.answer("c", "50%")
    result = polls.reveal()
    assert {"4/36", "1/9"} <= result.right_keys and "50%" not in result.right_keys
    assert result.correct == {"a": True, "b": True, "c": False}


def test_a_square_question_offers_the_empty_squares_and_the_engine_names_the_right_ones():
    ex = exercise(SQUARE)
    polls = three()
    poll = polls.push(ex, ["a", "b"])
    keys = [k for k, _ in poll.choices()]
    state = ex.state()
    empty = [str(i) for i, owner in enumerate(state.owners[ex.market]) if owner < 0]
    assert keys == empty[: len(keys)] and set(keys) <= set(empty) and keys
    right = [str(i) for i in ex.right_answer()]
    wrong = next(k for k in keys if k not in right)
    polls.answer("a", right[0])
    polls.answer("b", int(wrong))  # a square's index as a number is the same key
    assert poll.answer_of("b") == wrong
    result = polls.reveal()
    assert result.right_keys == set(right)
    assert result.correct == {"a": True, "b": False}
    assert poll.label(right[0], "en").startswith("the ")


def test_every_lessons_exercise_can_be_asked_and_revealed():
    polls = Polls()
    for _topic, ex in lesson_exercises():
        poll = polls.push(ex, ["a"])
        if ex.answer_kind == "choice":
            assert [k for k, _ in poll.choices()] == [v for v, _ in ex.choices()]
        if ex.answer_kind in ("choice", "square"):
            polls.answer("a", poll.choices()[0][0])
        result = polls.reveal()
        assert result.explanation("en") and result.right_answer("zh")


def test_the_lessons_come_in_the_order_of_lessons_yaml():
    listed = [ex.id for _, ex in lesson_exercises()]
    assert listed == list(E.EXERCISES)
    assert [t for t, _ in lesson_exercises()][0] == E.TOPICS[0]


# --- pushing, learners, refs ------------------------------------------------------------------
def test_a_new_push_ends_the_poll_before_it_without_recording_it():
    polls = three()
    first = polls.push(exercise(WHO), ["a", "b"])
    polls.answer("a", "red")
    second = polls.push(exercise(DEBEN), {"a": "Ana", "b": "Bo"})
    assert polls.current is second and second.number == 2 and polls.history == [first, second]
    assert polls.counts() == {}
    assert polls.record.row("a").right == ()  # the first was never revealed
    polls.answer("a", "1")
    assert first.counts()["red"] == 1  # the old poll is untouched


def test_a_late_learner_is_included_and_a_removed_one_leaves_with_their_answer():
    polls = three()
    poll = polls.push(exercise(WHO), ["a", "b"])
    polls.answer("b", "red")
    refused(polls.answer, "d", "red", key="poll.refused.unknown_learner")
    assert polls.include("d", "Di") is True
    polls.answer("d", "blue")
    assert polls.remove("b") is True
    assert poll.counts()["red"] == 0 and poll.answered() == ("d",) and poll.waiting() == ("a",)
    refused(polls.answer, "b", "red", key="poll.refused.unknown_learner")
    polls.reveal()
    assert polls.include("e") is False  # nothing to answer any more
    refused(poll.include, "e", key="poll.refused.revealed")


def test_practice_exercises_can_be_pushed_and_found_again_by_their_ref():
    generated = practice_exercises()
    assert generated, "the practice supply of seed 0 is empty"
    g = generated[0]
    poll = Polls().push(g, ["a"])
    assert poll.ref == f"practice:{g.key}"
    assert find_exercise(poll.ref) is g.exercise
    assert exercise_ref(exercise(WHO)) == f"lesson:{WHO}"
    assert find_exercise(f"lesson:{WHO}") is exercise(WHO)


@pytest.mark.parametrize(
    "ref",
    [
        "lesson:nope/none",
        "file:/etc/passwd",
        "lesson:../../etc/passwd",
        "practice:s9999999-p1-x",
        "practice:s0-p1-not-there",
        "x" * 500,
        None,
        42,
    ],
)
def test_a_bad_exercise_ref_is_refused(ref):
    polls = three()
    key = "poll.refused.ref" if isinstance(ref, str) else "poll.refused.exercise"
    refused(polls.push, ref, ["a"], key=key)
    assert polls.current is None


def test_reveal_or_answer_without_a_poll_is_refused():
    polls = three()
    refused(polls.reveal, key="poll.refused.no_poll")
    refused(polls.answer, "a", "red", key="poll.refused.no_poll")
    refused(polls.push, object(), ["a"], key="poll.refused.exercise")


# --- listeners ---------------------------------------------------------------------------------
def test_listeners_hear_every_change_and_a_broken_one_stops_nothing():
    polls = three()
    heard = []
    polls.on_change(lambda _p, what: heard.append(what))
    polls.on_change(lambda _p, what: 1 / 0)
    polls.push(exercise(WHO), ["a"])
    polls.answer("a", "red")
    with pytest.raises(PollError):
        polls.answer("a", "purple")  # a refusal is no change
    polls.reveal()
    assert heard == ["push", "answer", "reveal"]
    assert polls.current.answer_of("a") == "red"


def test_a_bound_listener_is_held_weakly_and_can_be_stopped():
    polls = three()

    class View:
        def __init__(self):
            self.heard = 0

        def on(self, _p, _what):
            self.heard += 1

    kept, dropped = View(), View()
    stop = polls.on_change(kept.on)
    polls.on_change(dropped.on)
    gone = weakref.ref(dropped)
    del dropped
    assert gone() is None  # the polls did not keep the dropped view alive
    polls.push(exercise(WHO), ["a"])  # and telling the views skips it
    assert kept.heard == 1
    stop()
    polls.answer("a", "red")
    assert kept.heard == 1


# --- the class record ---------------------------------------------------------------------------
def test_rules_seen_are_the_rules_a_games_events_name():
    record = ClassRecord()
    record.join("a", "Ana")
    record.join("b", "Bo")
    state = new_game(4, seed=3, record_events=True)
    rng = random.Random(3)
    for _ in range(12):
        state.apply(rng.choice(state.legal_options()))
    expected = rules_in(state.log)
    assert expected  # twelve steps name some rules
    assert record.saw(["a", "stranger"], state.log) == expected
    assert set(record.row("a").rules_seen) == expected
    assert record.row("b").rules_seen == ()  # not watching
    assert "stranger" not in record
    ids = record.row("a").rules_seen
    assert list(ids) == sorted(ids, key=lambda r: tuple(int(x) for x in r[1:].split(".")))


def test_the_record_counts_right_and_wrong_across_polls():
    polls = three()
    for ident, answers in ((WHO, {"a": "red", "b": "blue"}), (DEBEN, {"a": "2", "b": "1"})):
        polls.push(exercise(ident), ["a", "b", "c"])
        for learner, choice in answers.items():
            polls.answer(learner, choice)
        polls.reveal()
    rows = {row.learner_id: row for row in polls.record.rows()}
    assert rows["a"].right == (WHO,) and rows["a"].wrong == (DEBEN,)
    assert rows["b"].right == (DEBEN,) and rows["b"].wrong == (WHO,)
    assert rows["c"].right == rows["c"].wrong == ()
    assert [row.name for row in polls.record.rows()] == ["Ana", "Bo", "Cy"]


@pytest.mark.parametrize("name", ["", " ", "x" * 61, "a\x00b", 42, ["Ana"]])
def test_a_bad_name_is_refused_and_the_record_keeps_its_learners(name):
    record = ClassRecord()
    record.join("a", "Ana")
    refused(record.join, "a", name, key="poll.refused.name")
    refused(record.join, "b", name, key="poll.refused.name")
    assert record.learners() == ("a",) and record.name("a") == "Ana"


def test_a_name_may_hold_markup_and_is_kept_as_text():
    record = ClassRecord()
    record.join("a", "<img src=x onerror=alert(1)>")
    assert record.name("a") == "<img src=x onerror=alert(1)>"  # the views escape it


def test_polls_and_record_store_as_json_and_come_back_the_same():
    polls = three()
    polls.push(exercise(WHO), ["a", "b"])
    polls.answer("a", "red")
    polls.reveal()
    polls.push(practice_exercises()[0], ["a", "b", "c"])
    key = polls.current.choices()[0][0]
    polls.answer("c", key)
    state = new_game(4, seed=1, record_events=True)
    state.apply(state.legal_options()[0])
    polls.saw(["a"], state.log)
    data = json.loads(json.dumps(polls.as_dict()))
    back = Polls.from_dict(data)
    assert back.as_dict() == polls.as_dict()
    assert back.current.answer_of("c") == key and not back.current.revealed
    assert back.history[0].revealed and back.record.row("a").right == (WHO,)
    assert back.record.rows() == polls.record.rows()


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"polls": [{"ref": "lesson:nope/x"}]},
        {"polls": [{"ref": f"lesson:{WHO}", "learners": ["a"], "answers": [["a", "x", "purple"]]}]},
        {"record": {"a": "not a mapping"}},
        {"record": {"a\n": {"name": "A"}}},
    ],
)
def test_broken_stored_polls_are_refused_with_a_sentence(data):
    with pytest.raises(PollError) as info:
        Polls.from_dict(data)
    assert str(info.value) and "\n" not in str(info.value)


def test_load_takes_another_copys_polls_in_place_keeping_each_questions_object():
    """Polls.load (the store's copy, another server process's change): the listeners and each
    Poll of the same question stay (a card keeps its board); its answers and reveal are the
    copy's; a question stored as it is here is not judged again; bad data changes nothing."""
    here, there = Polls(), Polls()
    for polls in (here, there):
        polls.push(f"lesson:{WHO}", {"a": "Ana", "b": "Ben"})
        polls.answer("a", "red")
        polls.reveal()
        polls.push(f"lesson:{DEBEN}", {"a": "Ana", "b": "Ben"})
    heard = []
    here.on_change(lambda _polls, what: heard.append(what))
    first, current = here.history
    there.answer("b", "+1")
    there.reveal()
    data = json.loads(json.dumps(there.as_dict()))
    judged = []
    real = Poll.from_dict
    Poll.from_dict = classmethod(lambda cls, d: judged.append(d["number"]) or real(d))
    try:
        here.load(data)
    finally:
        Poll.from_dict = real
    assert judged == [2]  # the first question was stored as it is here: not read again
    assert here.history == [first, current] and here.current is current
    assert current.revealed and current.given("b") == "+1" and current.result.correct == {"b": True}
    assert here.record.row("b").right == (DEBEN,) and here.as_dict() == there.as_dict()
    assert heard == []  # the caller tells the views
    there.push(f"lesson:{WHO}", {"a": "Ana"})
    here.load(there.as_dict())
    assert here.current.number == 3 and here.history[:2] == [first, current]
    before = here.as_dict()
    for bad in ({"polls": 5}, {"polls": [{"ref": "lesson:nope"}]}, [1], {"record": {"a": 1}}):
        with pytest.raises(PollError):
            here.load(bad)
        assert here.as_dict() == before
