"""Demonstrations (widgets/lesson/demos.py): folded until asked, their own board, the engine's words."""

from nefertiti_core.engine.scoring import totals
from widgets.lesson.demos import demo, watch_game

SEVEN = "place abou_simbel.left#5"  # Red's 7 makes 14: Abou Simbel closes (R3.5)


def test_a_demonstration_plays_nothing_until_it_is_unfolded():
    d = demo("abou-simbel-left-sums", SEVEN, market="abou_simbel")
    assert d.lesson is None and d.account() == [] and not d.body.visible
    d.show()
    lesson = d.lesson
    assert d.body.visible and lesson.session.history.length() == 1
    d.hide()
    d.show()  # unfolded again: the same board, not played twice
    assert d.lesson is lesson and lesson.session.history.length() == 1


def test_its_account_is_the_engines_and_follows_the_language():
    d = demo("abou-simbel-left-sums", SEVEN, market="abou_simbel")
    d.show()
    english = d.account()
    assert any("R3.5" in line and "14" in line for line in english)
    assert english[-1].startswith("Now:")  # where the market stands after the steps
    d.lang = "de"
    assert d.account()[-1].startswith("Jetzt:") and d.lesson.lang == "de"


def test_a_refused_step_is_told_not_raised():
    d = demo("abou-simbel-left-sums", SEVEN, SEVEN)  # the second is no longer possible
    d.show()
    assert d.refused and "not allowed now" in d.refused
    assert d.account()[-1].startswith("The demonstration stopped")


def test_a_demonstration_board_shows_its_note_and_hints_a_lesson_board_does_not():
    d = demo("abou-simbel-left-sums", SEVEN)
    d.show()
    assert not d.lesson.note_card.collapsed and d.lesson.session.hints
    from widgets.lesson.notebook import Lesson

    mine = Lesson("abou-simbel-left-sums")
    assert mine.note_card.collapsed and not mine.session.hints


def test_watch_game_ends_with_the_engines_scores():
    replay = watch_game(seed=3)
    final = replay.session.history  # rewound to the start for the learner to step through
    assert replay.session.history.step == 0
    replay.session.jump(replay.steps)
    state = replay.session.state
    assert state.is_over and final is replay.session.history
    assert list(replay.final_totals.values()) == totals(state)
