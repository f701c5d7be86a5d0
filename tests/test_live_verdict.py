"""The verdict's live region (widgets/game/live_verdict.py), driven in Python: what it holds
after an exercise card's answer and after a class question's reveal, in the learner's language;
the same answer again is said again, a language change says the verdict in the new language, a
fresh start empties it. The browser journeys (that a screen reader's tree has it as a status
whose text is the verdict): tests/browser/board_keyboard.py and
tests/browser/test_classroom_poll_controls.py."""

from __future__ import annotations

import pytest

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files import exercises as E
from widgets.classroom.poll import Polls
from widgets.classroom.poll_view import LearnerPollCard, TeacherPollPanel
from widgets.game.exercise import ExerciseCard
from widgets.game.live_verdict import LiveVerdict, verdict_words

SQUARE = "closing-gizeh/four-that-touch"
WHO = "welcome/who-plays-next"


def test_the_region_says_new_words_and_says_again_only_when_asked():
    live = LiveVerdict()
    assert live.text == ""
    live.show("Right: the 5.")
    said = live.said[1]
    live.show("Right: the 5.")  # the same words held: nothing said again
    assert live.said == ["Right: the 5.", said]
    live.say("Right: the 5.")  # asked: said again
    assert live.said == ["Right: the 5.", said + 1]
    live.show("")
    assert live.text == ""


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_an_exercise_cards_answer_puts_its_verdict_in_the_region(lang):
    ex = E.EXERCISES[SQUARE]
    card = ExerciseCard(ex, lang=lang)
    assert card.verdict_live.text == ""  # in the page, empty, before any answer
    right = ex.right_answer()[0]
    feedback = card.answer((ex.market, right))
    assert card.verdict_live.text == verdict_words(feedback) == feedback.explanation
    assert feedback.headline in card.verdict_live.text
    said = card.verdict_live.said[1]
    card.answer((ex.market, right))  # the same answer again: said again
    assert card.verdict_live.said[1] == said + 1
    other = "zh" if lang != "zh" else "de"
    card.lang = other
    assert card.verdict_live.text == ex.check((ex.market, right), other).explanation
    card.reset()
    assert card.verdict_live.text == ""


def test_a_class_questions_verdict_reaches_the_region_at_the_reveal():
    polls = Polls()
    polls.record.join("a", "Ana")
    polls.record.join("b", "Bo")
    teacher = TeacherPollPanel(polls)
    ana = LearnerPollCard(polls, "a", lang="zh")
    bo = LearnerPollCard(polls, "b", lang="de")
    teacher.select(f"lesson:{WHO}")
    teacher.push_button.clicks += 1  # what the Ask button's click does
    ana.answer("red")
    assert ana.verdict_live.text == bo.verdict_live.text == ""  # nothing said before the reveal
    teacher.reveal_button.clicks += 1
    assert ana.verdict_live.text == E.EXERCISES[WHO].check("red", "zh").explanation
    assert bo.verdict_live.text == tr("de", "poll.learner.no_answer")
    said = ana.verdict_live.said[1]
    ana.refresh()  # a page's refresh with the same verdict: not said again
    assert ana.verdict_live.said[1] == said
    for view in (teacher, ana, bo):
        view.detach()
