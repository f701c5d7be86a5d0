"""The difficulty calibrated from learners' answers (nefertiti_core/files/calibration.py): the
ratings at their boundaries (no answer, one, all right, all wrong), the file (corrupt, huge,
foreign, written by several threads and stores at once), the scheduler's preference, the
learner's rating in practice.json, the classroom's reveal and the Practice view's level line.

The generated exercises are seed 0's game, played once per process (``practice.shared``).
"""

from __future__ import annotations

import builtins
import errno
import fcntl
import json
import os
import random
import threading

import pytest
from rendered import element_text

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files import calibration as C
from nefertiti_core.files import practice as P
from widgets.classroom.poll import Polls


@pytest.fixture(scope="module")
def supply():
    return P.shared([0])


def _kind(supply, level=None):
    """An exercise of seed 0 (of formula level ``level`` when given)."""
    return next(g for g in supply if level is None or g.difficulty == level)


def test_no_answer_gives_the_formulas_level_and_its_prior(supply):
    cal = C.Calibration()
    for g in supply:
        assert cal.level(g) == (g.difficulty, 0, False)
        assert cal.rating(C.kind_key(g), g.difficulty).value == C.prior_rating(g.difficulty)
    assert [C.level_of(C.prior_rating(level)) for level in range(1, 6)] == [1, 2, 3, 4, 5]
    assert C.expected(0.0, 0.0) == 0.5
    assert C.kind_key(supply[0]).endswith(f"@{supply[0].difficulty}")


def test_one_answer_moves_the_kind_and_the_learner_but_the_level_stays_the_formulas(supply):
    g = _kind(supply, 3)
    for correct in (True, False):
        cal, learner = C.Calibration(), C.LearnerRating()
        p = cal.record(g, correct, learner)
        assert p == pytest.approx(C.expected(0.0, C.prior_rating(3)))
        rating = cal.rating(C.kind_key(g), 3)
        assert rating.answers == 1 and rating.right == int(correct)
        assert (rating.value < 0) if correct else (rating.value > 0)  # right: easier
        assert rating.var < C.ITEM_VAR and learner.var < C.LEARNER_VAR
        assert (learner.value > 0) if correct else (learner.value < 0)
        assert cal.level(g) == (3, 1, False)  # one answer is not enough to say


def test_all_right_brings_a_kind_down_to_level_1_and_all_wrong_up_to_5_and_no_further(supply):
    g = _kind(supply, 3)
    for correct, level in ((True, 1), (False, 5)):
        cal = C.Calibration()
        for _ in range(C.MIN_ANSWERS - 1):
            cal.record(g, correct)
        assert cal.level(g) == (3, C.MIN_ANSWERS - 1, False)
        cal.record(g, correct)
        assert cal.level(g) == (level, C.MIN_ANSWERS, True)
        for _ in range(5000):
            cal.record(g, correct)
        rating = cal.rating(C.kind_key(g), 3)
        assert abs(rating.value) <= C.MAX_RATING and rating.var >= C.MIN_ITEM_VAR
        assert cal.level(g) == (level, C.MIN_ANSWERS + 5000, True)


def test_a_kind_learners_find_harder_than_its_formula_says_moves_up_the_scale(supply):
    """Learners of ratings around 0 who get a level-2 kind right only a quarter of the time (as
    they would a kind of rating 1.1, a level 4): after 40 answers it stands at level 4 or more,
    while a kind they find as its formula says stays at 2."""
    g = _kind(supply, 2)
    rng = random.Random(3)
    hard, fair = C.Calibration(), C.Calibration()
    for _ in range(40):
        theta = rng.gauss(0, 0.5)
        learner = C.LearnerRating(theta)
        hard.record(g, rng.random() < C.expected(theta, 1.1), learner)
        fair.record(g, rng.random() < C.expected(theta, C.prior_rating(2)), C.LearnerRating(theta))
    assert hard.level(g)[0] >= 4 and hard.level(g)[2]
    assert fair.level(g)[0] == 2


def test_the_file_is_written_and_read_back_by_another_store(supply, tmp_path):
    path = tmp_path / C.FILE
    g = _kind(supply)
    cal = C.Calibration(path)
    for _ in range(3):
        cal.record(g, False)
    data = json.loads(path.read_text())
    assert data["version"] == 1
    assert data["kinds"][C.kind_key(g)]["answers"] == 3
    again = C.Calibration(path)
    assert again.kinds() == cal.kinds() and again.warning is None
    cal.record(g, True)
    again.refresh()  # another process wrote it: read again
    assert again.rating(C.kind_key(g), g.difficulty).answers == 4


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"{not json", "Expecting"),
        (b'{"version": 2, "kinds": {}}', "version 1"),
        (b"[1, 2]", "version 1"),
        (b'{"version": 1, "kinds": {"../etc": {}}}', "not a kind of question"),
        (
            b'{"version": 1, "kinds": {"a/b@3": {"rating": 1e300, "var": 1, "answers": 1, '
            b'"right": 0}}}',
            "rating",
        ),
        (
            b'{"version": 1, "kinds": {"a/b@3": {"rating": 0, "var": 1, "answers": 1, '
            b'"right": 2}}}',
            "more right answers than answers",
        ),
        (b"[" * 100_000, "maximum recursion"),
        (b"\xff\xfe", "codec"),
    ],
)
def test_a_damaged_file_is_set_aside_with_a_clear_warning_and_calibration_starts_afresh(
    supply, tmp_path, content, why
):
    path = tmp_path / C.FILE
    path.write_bytes(content)
    cal = C.Calibration(path)
    assert cal.warning is not None and str(path) in cal.warning and "starts afresh" in cal.warning
    assert why in cal.warning or why == "maximum recursion"
    assert cal.kinds() == {}
    (aside,) = tmp_path.glob(C.FILE + ".broken-*")  # kept, under a name of its own
    assert aside.read_bytes() == content and aside.name in cal.warning
    g = _kind(supply)
    cal.record(g, True)  # and practice goes on, with a good file
    assert json.loads(path.read_text())["kinds"][C.kind_key(g)]["answers"] == 1


def test_a_huge_file_is_not_read_and_too_many_kinds_are_not_kept(supply, tmp_path):
    path = tmp_path / C.FILE
    path.write_bytes(b" " * (C.MAX_BYTES + 1))
    cal = C.Calibration(path)
    assert f"more than {C.MAX_BYTES}" in cal.warning and cal.kinds() == {}
    names = ("".join(chr(97 + i // 26**k % 26) for k in range(3)) for i in range(C.MAX_KINDS))
    full = {f"t/{name}@3": C.Rating(0.0).as_dict() for name in names}
    path.write_text(json.dumps({"version": 1, "kinds": full}))
    cal = C.Calibration(path)
    assert len(cal.kinds()) == C.MAX_KINDS and cal.warning is None
    g = _kind(supply)
    cal.record(g, True)
    assert "kinds of question" in cal.warning and C.kind_key(g) not in cal.kinds()
    assert cal.level(g) == (g.difficulty, 0, False)
    assert path.stat().st_size <= C.MAX_BYTES


def test_a_folder_in_place_of_the_file_is_a_warning_never_a_traceback(supply, tmp_path):
    path = tmp_path / C.FILE
    path.mkdir()
    cal = C.Calibration(path)
    assert "not a regular file" in cal.warning
    cal.record(_kind(supply), True)  # cannot be written: said, and kept in memory
    assert cal.warning and cal.rating(C.kind_key(_kind(supply)), 1).answers == 1


def test_concurrent_answers_from_threads_and_two_stores_are_each_counted_once(supply, tmp_path):
    """Eight threads answer through two stores on one file (two server processes); background
    writers, so answers arrive while files are written: every answer is in the file once."""
    path = tmp_path / C.FILE
    stores = [C.Calibration(path, background=True), C.Calibration(path, background=True)]
    kinds = [g for g in supply][:6]
    per_thread = 40
    start = threading.Barrier(8)

    def answer(n):
        start.wait()
        rng = random.Random(n)
        for _ in range(per_thread):
            stores[n % 2].record(rng.choice(kinds), rng.random() < 0.6, C.LearnerRating())

    threads = [threading.Thread(target=answer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for store in stores:  # a batch a background writer holds is written before this returns
        assert store.flush() is None and store.warning is None
    data = json.loads(path.read_text())
    assert sum(entry["answers"] for entry in data["kinds"].values()) == 8 * per_thread
    fresh = C.Calibration(path)
    assert sum(r.answers for r in fresh.kinds().values()) == 8 * per_thread


def test_the_scheduler_prefers_among_new_rules_the_exercise_the_learner_should_mostly_get_right(
    supply,
):
    """Two exercises on rules never met: a new learner (rating 0) has about 83 % on a level 1
    and 50 % on a level 3: the level 1 comes first; once that kind is calibrated as hard (every
    answer wrong), the level 3 does."""
    easy = _kind(supply, 1)
    hard = next(
        g for g in supply if g.difficulty == 3 and set(g.rule_ids).isdisjoint(easy.rule_ids)
    )
    cal = C.Calibration()
    s = P.Scheduler([hard, easy], persist=False, calibration=cal, refill_below=0)
    assert s.fit(easy) == 0 and s.fit(hard) > 0
    assert s.next() is easy
    for _ in range(C.MIN_ANSWERS):
        cal.record(easy, False)
    s = P.Scheduler([hard, easy], persist=False, calibration=cal, refill_below=0)
    assert cal.level(easy)[0] >= 3 and s.fit(easy) > s.fit(hard)
    assert s.next() is hard


def test_only_the_first_answer_to_an_exercise_served_counts(supply):
    cal = C.Calibration()
    s = P.Scheduler(list(supply[:8]), persist=False, calibration=cal)
    g = s.next()
    s.answered(g, False)
    s.answered(g, True)  # the second try: for the boxes, not for the difficulty
    assert cal.rating(C.kind_key(g), g.difficulty).answers == 1
    assert s.state.learner.answers == 1 and s.state.learner.value < 0


def test_the_learners_rating_is_kept_in_practice_json_and_an_old_file_still_reads(supply, tmp_path):
    path = tmp_path / "practice.json"
    s = P.Scheduler(list(supply[:8]), path=path, calibration=C.Calibration())
    g = s.next()
    s.answered(g, True)
    saved = json.loads(path.read_text())
    assert saved["learner"]["answers"] == 1 and saved["learner"]["rating"] > 0
    again, warning = P.load_state(path)
    assert warning is None and again.learner == s.state.learner
    del saved["learner"]  # a file saved before the calibration
    path.write_text(json.dumps(saved))
    old, warning = P.load_state(path)
    assert warning is None and old.learner == C.LearnerRating() and old.step == 1
    saved["learner"] = {"rating": "high", "var": 1, "answers": 0}
    path.write_text(json.dumps(saved))
    bad, warning = P.load_state(path)
    assert "learner.rating" in warning and "the rest is kept" in warning


def test_a_revealed_class_question_counts_each_learners_answer_once(supply, monkeypatch):
    cal = C.Calibration()
    monkeypatch.setattr(C, "shared", lambda path=None: cal)
    g = next(g for g in supply if g.exercise.answer_kind == "choice")
    truth = g.exercise.right_answer()
    wrong = next(v for v, _ in g.exercise.choices() if v != truth)
    polls = Polls()
    polls.push(g, ["ann", "bob", "cem"])
    polls.answer("ann", truth)
    polls.answer("bob", wrong)
    polls.reveal()
    polls.reveal()  # shown again: counted once
    rating = cal.rating(C.kind_key(g), g.difficulty)
    assert (rating.answers, rating.right) == (2, 1)  # cem did not answer
    from widgets.classroom.poll import lesson_exercises

    _topic, exercise = lesson_exercises()[0]
    assert P.generated_of(exercise) is None  # a lesson's: no kind here
    assert P.generated_of(g.exercise) is g


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_the_practice_view_shows_the_formulas_level_then_the_calibrated_one(
    supply, tmp_path, monkeypatch, lang
):
    monkeypatch.setenv("NEFERTITI_HOME", str(tmp_path))
    from widgets import Practice

    cal = C.Calibration()
    scheduler = P.Scheduler(list(supply), persist=False, calibration=cal)
    view = Practice(lang=lang, coverage=None, scheduler=scheduler, persist=False)
    g = view.current
    formula = tr(
        lang, "calibration.level.formula", level=g.difficulty, answers=0, needed=C.MIN_ANSWERS
    )
    assert element_text(view, "practice-level") == formula
    for _ in range(C.MIN_ANSWERS - 1):
        cal.record(g, False)
    truth = g.exercise.right_answer()
    view.card.answer((g.exercise.market, truth[0]) if isinstance(truth, list) else truth)
    level = cal.level(g)[0]
    assert level > g.difficulty  # nine wrong answers and one right: harder than it said
    assert element_text(view, "practice-level") == tr(
        lang, "calibration.level.answers", level=level, answers=C.MIN_ANSWERS
    )


def _writers(before: set) -> list[threading.Thread]:
    """The calibration writer threads started since ``before`` (threading.enumerate())."""
    return [t for t in threading.enumerate() if t.name == "calibration" and t not in before]


def test_a_disk_that_refuses_is_tried_again_with_the_next_answer_not_in_a_loop(supply, tmp_path):
    """A home that cannot be written (here a file where its folder should be): the background
    writer tries once per answer and ends; the answers wait in memory and reach the file once
    it can be written."""
    home = tmp_path / "home"
    home.write_text("a file where the folder should be")
    cal = C.Calibration(home / C.FILE, background=True)
    attempts = []
    real_flush = cal.flush

    def counting_flush():
        attempts.append(1)
        return real_flush()

    cal.flush = counting_flush
    g = _kind(supply)
    for n in (1, 2):
        before = set(threading.enumerate())
        cal.record(g, True)
        for writer in _writers(before):
            writer.join(timeout=30)
            assert not writer.is_alive(), f"the writer still retries ({len(attempts)} attempts)"
        assert len(attempts) <= n and cal.warning and str(home) in cal.warning
    assert cal.rating(C.kind_key(g), g.difficulty).answers == 2  # kept in memory
    home.unlink()
    home.mkdir()
    cal.record(g, False)
    assert real_flush() is None
    assert json.loads((home / C.FILE).read_text())["kinds"][C.kind_key(g)]["answers"] == 3


@pytest.fixture
def unreadable(monkeypatch):
    """``unreadable(path)``: opening ``path`` fails as when a process has too many files open."""
    paths: set[str] = set()
    real_open, real_os_open = builtins.open, os.open

    def refuse(name):
        if os.fspath(name) in paths:
            raise OSError(errno.EMFILE, os.strerror(errno.EMFILE))

    def fake_open(name, *args, **kwargs):
        if isinstance(name, (str, os.PathLike)):
            refuse(name)
        return real_open(name, *args, **kwargs)

    def fake_os_open(name, *args, **kwargs):
        refuse(name)
        return real_os_open(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", fake_open)
    monkeypatch.setattr(os, "open", fake_os_open)
    return lambda path: paths.add(os.fspath(path))


def test_a_file_that_cannot_be_read_is_kept_and_never_overwritten(supply, tmp_path, unreadable):
    path = tmp_path / C.FILE
    g = _kind(supply)
    C.Calibration(path).record(g, True)
    good = path.read_bytes()
    unreadable(path)
    cal = C.Calibration(path)
    assert os.strerror(errno.EMFILE) in cal.warning and "left as it is" in cal.warning
    cal.record(g, False)  # kept in memory, the file untouched
    assert path.read_bytes() == good and not list(tmp_path.glob(C.FILE + ".broken*"))


def test_one_bad_kind_costs_that_kind_only_and_the_file_is_kept_aside(supply, tmp_path):
    path = tmp_path / C.FILE
    good = C.Rating(0.5, 0.5, 12, 4).as_dict()
    content = json.dumps({"version": 1, "kinds": {"a/b@3": good, "../etc@3": good}})
    path.write_text(content)
    cal = C.Calibration(path)
    assert cal.kinds() == {"a/b@3": C.Rating(0.5, 0.5, 12, 4)}
    assert "not a kind of question" in cal.warning and "1 kinds that could be read" in cal.warning
    (aside,) = tmp_path.glob(C.FILE + ".broken-*")
    assert aside.read_text() == content


def test_a_bad_learner_rating_in_practice_json_keeps_every_box(supply, tmp_path):
    path = tmp_path / "practice.json"
    s = P.Scheduler(list(supply[:8]), path=path, calibration=C.Calibration())
    for _ in range(3):
        s.answered(s.next(), False)
    saved = json.loads(path.read_text())
    saved["learner"]["var"] = C.LEARNER_VAR * 10  # above its bound
    path.write_text(json.dumps(saved))
    state, warning = P.load_state(path)
    assert "learner.var" in warning and state.learner == C.LearnerRating()
    assert state.boxes == s.state.boxes and state.step == 3 and state.boxes


def test_a_practice_json_that_cannot_be_read_is_never_overwritten(supply, tmp_path, unreadable):
    path = tmp_path / "practice.json"
    s = P.Scheduler(list(supply[:8]), path=path, calibration=C.Calibration())
    s.answered(s.next(), False)
    good = path.read_bytes()
    unreadable(path)
    again = P.Scheduler(list(supply[:8]), path=path, calibration=C.Calibration())
    assert os.strerror(errno.EMFILE) in again.warning
    again.answered(again.next(), True)
    assert path.read_bytes() == good and not list(tmp_path.glob("practice.json.broken*"))


def test_a_page_asking_for_the_latest_ratings_never_waits_for_another_programs_lock(
    supply, tmp_path, monkeypatch
):
    """Another process holds the file's lock while this one's writer waits for it: refresh()
    (called by the Practice page on its event loop) returns meanwhile; once the lock is let go
    the writer writes the answer on top of what the other process wrote."""
    path = tmp_path / C.FILE
    g = _kind(supply)
    monkeypatch.setattr(C, "LOCK_SECONDS", 120.0)  # longer than this test waits for anything
    cal = C.Calibration(path, background=True)
    trying = threading.Event()
    real_flock = fcntl.flock

    def watched_flock(fd, operation):
        if operation & fcntl.LOCK_EX and threading.current_thread().name == "calibration":
            trying.set()
        return real_flock(fd, operation)

    monkeypatch.setattr(fcntl, "flock", watched_flock)
    with open(str(path) + ".lock", "a") as other:  # another program's lock
        real_flock(other.fileno(), fcntl.LOCK_EX)
        other_kinds = {"t/other@2": C.Rating(0.0, 0.5, 3, 1).as_dict()}
        path.write_text(json.dumps({"version": 1, "kinds": other_kinds}))  # it wrote before
        before = set(threading.enumerate())
        cal.record(g, True)
        assert trying.wait(timeout=30)  # our writer waits for the lock now
        page = threading.Thread(target=cal.refresh)
        page.start()
        page.join(timeout=30)
        waited = page.is_alive()
        real_flock(other.fileno(), fcntl.LOCK_UN)
    assert not waited, "refresh() waited for the file lock"
    for writer in _writers(before):
        writer.join(timeout=60)
    assert cal.flush() is None
    kinds = json.loads(path.read_text())["kinds"]
    assert kinds[C.kind_key(g)]["answers"] == 1 and kinds["t/other@2"]["answers"] == 3


def test_a_lock_held_too_long_by_another_program_delays_the_write_and_loses_nothing(
    supply, tmp_path, monkeypatch
):
    path = tmp_path / C.FILE
    g = _kind(supply)
    monkeypatch.setattr(C, "LOCK_SECONDS", 0.2)
    cal = C.Calibration(path)
    with open(str(path) + ".lock", "a") as other:  # another program's lock
        fcntl.flock(other.fileno(), fcntl.LOCK_EX)
        answer = threading.Thread(target=cal.record, args=(g, True))
        answer.start()
        answer.join(timeout=30)
        waited = answer.is_alive()
        fcntl.flock(other.fileno(), fcntl.LOCK_UN)
    assert not waited, "the write waited for the lock without end"
    assert "locked by another program" in cal.warning and not path.exists()
    assert cal.flush() is None
    assert json.loads(path.read_text())["kinds"][C.kind_key(g)]["answers"] == 1


def test_one_page_moves_the_shared_calibration_by_a_bounded_number_of_answers(supply):
    cal = C.Calibration()
    s = P.Scheduler(list(supply[:12]), persist=False, calibration=cal, refill_below=0)
    for _ in range(P.MAX_CALIBRATING_ANSWERS + 15):
        s.answered(s.next(), False)
    assert sum(r.answers for r in cal.kinds().values()) == P.MAX_CALIBRATING_ANSWERS
    assert s.calibrating_answers == P.MAX_CALIBRATING_ANSWERS
    assert s.state.learner.answers == P.MAX_CALIBRATING_ANSWERS + 15  # the learner goes on


def test_a_generated_key_of_a_seed_over_max_seed_plays_no_game(supply, monkeypatch):
    import copy

    from widgets.classroom.poll import PollError, find_exercise

    g = supply[0]
    assert P.generated_by_key(g.key) is g and P.is_generated_key(g.key)

    def no_game(*_args, **_kwargs):
        raise AssertionError("a game was played for a key over MAX_SEED")

    monkeypatch.setattr(P, "generate", no_game)
    far = f"s{P.MAX_SEED + 1}-p3-closing-x"
    assert not P.is_generated_key(far) and P.generated_by_key(far) is None
    assert P.generated_by_key(None) is None and P.generated_by_key("s1-p1-" + "x" * 90) is None
    exercise = copy.copy(g.exercise)
    exercise.id = far
    assert P.generated_of(exercise) is None
    with pytest.raises(PollError):
        find_exercise(f"practice:{far}")
