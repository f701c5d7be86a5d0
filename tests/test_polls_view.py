"""Classroom polls' Panel components (widgets/classroom/poll_view.py), driven in Python: the
teacher's panel (its Ask and Reveal buttons pressed through their on_click), two learners'
cards (their choices set as a click sets them), the class view; every text from the catalogs,
every learner name escaped. The browser test is tests/browser/test_polls_browser.py."""

from __future__ import annotations

import html
import re

import pytest

from nefertiti_core import new_game
from nefertiti_core.engine.i18n import tr
from nefertiti_core.files import exercises as E
from widgets.classroom.poll import Polls, lesson_exercises
from widgets.classroom.poll_view import ClassView, LearnerPollCard, TeacherPollPanel
from widgets.classroom.question_push import QUESTION_VIEWS
from widgets.game import geometry as G

WHO = "welcome/who-plays-next"
DEBEN = "setup/one-deben-per-reserve"
SQUARE = "closing-gizeh/four-that-touch"
HOSTILE = "<img src=x onerror=alert(1)>"


def text(html_text: str) -> str:
    """What an HTML pane shows (tags dropped, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", " ", html_text))


def said(sentence: str, html_text: str) -> bool:
    """Whether a pane says ``sentence`` (its rule IDs made links: each piece between them)."""
    shown = " ".join(text(html_text).split())
    pieces = [" ".join(p.split()) for p in re.split(r"R\d+(?:\.\d+)?", sentence)]
    return all(piece in shown for piece in pieces if piece)


def press(button) -> None:
    button.clicks += 1  # what a click in the browser does: on_click runs


@pytest.fixture(scope="module")
def classroom_module():
    """Built once (the teacher's menu reads every lesson and a practice game)."""
    polls = Polls()
    polls.record.join("a", "Ana")
    polls.record.join("b", HOSTILE)
    teacher = TeacherPollPanel(polls)
    ana = LearnerPollCard(polls, "a")
    bo = LearnerPollCard(polls, "b", lang="de")
    table = ClassView(polls)
    return polls, teacher, ana, bo, table


@pytest.fixture()
def classroom(classroom_module):
    polls, teacher, ana, bo, table = classroom_module
    polls.history.clear()
    for view in (teacher, ana, bo, table):
        view.lang = "en"
    bo.lang = "de"
    teacher.select(f"lesson:{WHO}")
    for view in (teacher, ana, bo, table):
        view.refresh()
    return classroom_module


def test_the_teachers_menu_lists_the_lessons_in_order_then_practice(classroom):
    _polls, teacher, *_ = classroom
    groups = teacher.pick.groups
    refs = [ref for group in groups.values() for ref in group.values()]
    lessons = [f"lesson:{ex.id}" for _, ex in lesson_exercises()]
    assert refs[: len(lessons)] == lessons
    assert refs[len(lessons) :] and all(r.startswith("practice:") for r in refs[len(lessons) :])
    first = next(iter(groups))
    assert first == tr("en", "poll.teacher.lesson_group", number=1, topic="Welcome")


def test_ask_answer_and_reveal_through_the_buttons(classroom):
    polls, teacher, ana, bo, table = classroom
    assert polls.current is None
    assert tr("en", "poll.learner.idle") in text(ana.question.object)
    press(teacher.push_button)
    poll = polls.current
    assert poll is not None and poll.exercise is E.EXERCISES[WHO]
    assert set(poll.learners) == {"a", "b"}
    prompt = E.EXERCISES[WHO].prompt("en")
    assert prompt in text(teacher.question.object) and prompt in text(ana.question.object)
    assert E.EXERCISES[WHO].prompt("de") in text(bo.question.object)
    # the choices are the engine's, in each learner's language
    assert ana.choices.options == {label: v for v, label in E.EXERCISES[WHO].choices("en")}
    assert bo.choices.options == {label: v for v, label in E.EXERCISES[WHO].choices("de")}
    staged = E.EXERCISES[WHO].state()  # the card's board shows the question's position
    assert ana.board is not None
    assert ana.session.state.owners == staged.owners and ana.session.state.deben == staged.deben
    assert teacher.board is not None and teacher.session.state.owners == staged.owners

    ana.choices.value = "green"  # Ana clicks Green, then changes her mind
    ana.choices.value = "red"
    bo.choices.value = "blue"
    assert polls.counts()["red"] == 1 and polls.counts()["blue"] == 1
    assert "Red" in text(ana.status.object)
    # until the reveal the class views say who has answered, never what (#28 item 6)
    assert teacher.bars.object == ""
    assert "2 of 2 have answered" in text(teacher.who.object)
    assert "Red" not in text(table.table.object) and "Blue" not in text(table.table.object)
    assert text(table.table.object).count(tr("en", "poll.class.answered")) == 2
    assert teacher.reveal_button.visible and teacher.result.object == ""

    press(teacher.reveal_button)
    bars = text(teacher.bars.object)
    assert re.search(r"Red\s+\u2714\s+\w+\s+1", bars) and re.search(r"Green\s+0", bars)
    assert "Red \u2714" in text(table.table.object)
    assert poll.revealed and not teacher.reveal_button.visible
    engine = E.EXERCISES[WHO].check("red", "en")
    shown = text(teacher.result.object)
    assert tr("en", "poll.right_answer", answer=engine.right_answer) in shown
    assert said(engine.reason, teacher.result.object)  # the engine's own words
    assert "poll-bar-right" in teacher.bars.object and "data-key='red'" in teacher.bars.object
    assert E.EXERCISES[WHO].check("red", "en").headline in text(ana.verdict.object)
    assert E.EXERCISES[WHO].check("blue", "de").headline in text(bo.verdict.object)
    assert ana.choices.disabled
    row = polls.record.row("a")
    assert row.right == (WHO,)


def test_an_answer_after_the_reveal_is_refused_on_the_card_and_the_answer_kept(classroom):
    polls, teacher, ana, _bo, _table = classroom
    press(teacher.push_button)
    ana.choices.value = "red"
    press(teacher.reveal_button)
    ana.choices.value = "green"  # a stale page sends a late click
    assert tr("en", "poll.refused.revealed") in text(ana.error.object)
    assert polls.current.answer_of("a") == "red" and ana.choices.value == "red"


def test_a_late_learner_is_told_the_question_was_before_them(classroom):
    polls, teacher, _ana, _bo, _table = classroom
    press(teacher.push_button)
    polls.record.join("late", "Lu")
    late = LearnerPollCard(polls, "late")
    assert tr("en", "poll.learner.not_asked") in text(late.question.object)
    assert not late.choices.visible and not late.free.visible
    polls.include("late")
    # the card's board (made with it) shows the question's position, the one every page shares
    assert late.choices.visible
    assert late.session.state is QUESTION_VIEWS.get(polls.current, "en").state
    late.detach()


def test_learner_names_are_escaped_everywhere(classroom):
    polls, teacher, ana, bo, table = classroom
    press(teacher.push_button)
    bo.choices.value = "red"
    for pane in (teacher.who, table.table):
        assert "<img" not in pane.object
        assert html.escape(HOSTILE) in pane.object or html.escape(HOSTILE, quote=False) in (
            pane.object
        )
        assert HOSTILE in text(pane.object)


def test_typed_numbers_are_sent_and_a_bad_one_is_refused_in_the_learners_language(classroom):
    polls, teacher, ana, bo, _table = classroom
    teacher.select(f"lesson:{DEBEN}")
    press(teacher.push_button)
    assert ana.free.visible and not ana.choices.visible
    ana.typed.value = "1"
    press(ana.send_button)
    bo.typed.value = "ein paar"
    press(bo.send_button)
    assert polls.counts() == {"+1": 1}
    assert E.EXERCISES[DEBEN].check("ein paar", "de").headline in text(bo.error.object)
    assert "+1" not in text(teacher.bars.object)  # until the reveal
    press(teacher.reveal_button)
    assert "+1" in text(teacher.bars.object)
    assert tr("en", "poll.learner.no_answer") in text(bo.verdict.object) or (
        tr("de", "poll.learner.no_answer") in text(bo.verdict.object)
    )
    assert E.EXERCISES[DEBEN].check("1", "en").headline in text(ana.verdict.object)


def test_a_square_question_is_answered_by_a_button_or_a_click_on_the_board(classroom):
    polls, teacher, ana, bo, _table = classroom
    teacher.select(f"lesson:{SQUARE}")
    press(teacher.push_button)
    ex = E.EXERCISES[SQUARE]
    right = ex.right_answer()[0]
    state = ex.state()
    cell = next(c for c in G.squares(state.side) if c.market == ex.market and c.index == right)
    assert teacher.session.state.owners == state.owners  # the projector shows this question's
    assert teacher.session.state.owners != E.EXERCISES[WHO].state().owners  # not the last one's
    ana.board.click(cell.x, cell.y)  # a click on the board's square answers
    assert polls.current.answer_of("a") == str(right)
    wrong = next(k for k in bo.choices.options.values() if k != str(right))
    bo.choices.value = wrong
    press(teacher.reveal_button)
    assert polls.current.result.correct == {"a": True, "b": False}


def test_a_square_question_is_answered_by_the_keyboard_grid_named_for_answering(classroom):
    """The card's board has the keyboard grid (a learner without a mouse answers with Enter on a
    square), named for what Enter does there, not as the table's grid is."""
    polls, teacher, ana, bo, _table = classroom
    teacher.select(f"lesson:{SQUARE}")
    press(teacher.push_button)
    ex = E.EXERCISES[SQUARE]
    right = ex.right_answer()[0]
    for card, lang in ((ana, "en"), (bo, "de")):
        keys = card.board.board_keys
        assert keys is not None, "the question's board has no keyboard grid"
        assert keys.label == tr(lang, "keys.board.answer") != tr(lang, "keys.board")
    keys = ana.board.board_keys
    at = next(
        i for i, s in enumerate(keys.squares) if s["place"].startswith(f"{ex.market}.{right}.")
    )
    keys.pressed = [at, keys.pressed[1] + 1]  # the page's Enter on that square
    assert polls.current.answer_of("a") == str(right)


def test_the_teacher_with_no_learners_is_told_so_and_nothing_is_asked():
    polls = Polls()
    teacher = TeacherPollPanel(polls, lang="de")
    press(teacher.push_button)
    assert polls.current is None
    assert tr("de", "poll.teacher.no_learners") in text(teacher.error.object)
    teacher.detach()


def test_every_label_follows_the_language(classroom):
    polls, teacher, ana, _bo, table = classroom
    press(teacher.push_button)
    for lang in ("de", "zh", "en"):
        for view in (teacher, ana, table):
            view.lang = lang
        assert teacher.push_button.name == tr(lang, "poll.teacher.push")
        assert teacher.reveal_button.name == tr(lang, "poll.teacher.reveal")
        assert tr(lang, "poll.class.rules") in text(table.table.object)
        assert E.EXERCISES[WHO].prompt(lang) in text(ana.question.object)
        assert set(ana.choices.options) == {label for _, label in E.EXERCISES[WHO].choices(lang)}


def test_the_class_view_shows_rules_seen_right_wrong_and_current_answers():
    polls = Polls()
    polls.record.join("a", "Ana")
    polls.record.join("b", HOSTILE)
    table = ClassView(polls)
    assert "Ana" in text(table.table.object)
    polls.push(E.EXERCISES[WHO], ["a", "b"])
    polls.answer("a", "red")
    polls.reveal()
    polls.push(E.EXERCISES[DEBEN], ["a", "b"])
    polls.answer("b", "1")
    state = new_game(4, seed=2, record_events=True)
    state.apply(state.legal_options()[0])
    rules = polls.saw(["a"], state.log)
    assert rules

    def cells(row: str) -> list[str]:
        return [text(c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]

    rows = re.findall(r"<tr class='poll-class-row'>(.*?)</tr>", table.table.object)
    ana, bo = (cells(r) for r in rows)
    assert ana[0] == "Ana" and bo[0] == HOSTILE
    assert ana[1].split()[0] == str(len(rules)) and all(r in ana[1] for r in rules)
    assert bo[1].split()[0] == "0"
    assert ana[2:5] == ["1", "0", tr("en", "poll.class.not_yet")]
    # not answered the first: neither right nor wrong; the second: answered, not what
    assert bo[2:5] == ["0", "0", tr("en", "poll.class.answered")]
    polls.reveal()
    rows = re.findall(r"<tr class='poll-class-row'>(.*?)</tr>", table.table.object)
    assert cells(rows[1])[2:5] == ["1", "0", "+1 \u2714"]
    assert cells(rows[0])[4] == tr("en", "poll.class.no_answer")  # never "not yet" now
    table.detach()
