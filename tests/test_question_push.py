"""A class question reaches every learner's page of a process without each page building it in
turn: what the pages show of it (the position, the words, the choices) is built once per
question and language (widgets/classroom/question_push.py), on the thread that made the change
(off the event loop when served), and each page is handed it; its card keeps the board it was
made with (no new widget per question). Counted, never timed."""

from __future__ import annotations

from bokeh.document import Document

from widgets.classroom.learner import LearnerPage
from widgets.classroom.question_push import QUESTION_VIEWS, QuestionViews
from widgets.classroom.room import Rooms
from widgets.classroom.teacher import TeacherPage

WHO = "welcome/who-plays-next"


def _class(langs):
    rooms = Rooms()
    teacher = TeacherPage(rooms)
    assert teacher.open_room()
    pages = []
    for n, lang in enumerate(langs):
        page = LearnerPage(rooms, lang=lang)
        assert page.join(teacher.room.code, f"L{n}")
        pages.append(page)
    return teacher, pages


def test_asking_builds_the_question_once_per_language_not_once_per_page():
    teacher, pages = _class(["en"] * 5 + ["de"] * 3 + ["zh"])
    before = QUESTION_VIEWS.builds
    poll = teacher.poll_panel.push(f"lesson:{WHO}")
    assert QUESTION_VIEWS.builds - before == 3  # en, de, zh: not 9
    views = {lang: QUESTION_VIEWS.get(poll, lang) for lang in ("en", "de", "zh")}
    assert QUESTION_VIEWS.builds - before == 3  # asked again: the same
    for page in pages:
        card = page.poll_card
        view = views[page.lang]
        assert page.poll_box.visible
        assert card.question.object == view.question_html
        # every page shows the one position object (its board's data is computed once)
        assert card.session.state is view.state
    assert len({id(v.state) for v in views.values()}) == 1


def test_a_card_keeps_its_board_from_question_to_question():
    teacher, pages = _class(["en", "de"])
    boards = [page.poll_card.board for page in pages]
    assert all(board is not None for board in boards)  # made with the card, before a question
    first = teacher.poll_panel.push(f"lesson:{WHO}")
    teacher.poll_panel.close()
    assert not any(page.poll_box.visible for page in pages)  # the card hid its box
    refs = [r for group in teacher.poll_panel.pick.groups.values() for r in group.values()]
    second = teacher.poll_panel.push(refs[3])
    assert second is not first and second.number == first.number + 1
    for page, board in zip(pages, boards, strict=True):
        assert page.poll_card.board is board
        assert page.poll_card.session.state is QUESTION_VIEWS.get(second, page.lang).state
        assert page.poll_box.visible


def test_each_served_page_gets_the_question_in_a_next_tick_callback_of_its_own():
    """Served, a page's update is a callback on its own document: one page's slow update never
    holds the others' (each is its own tornado callback), and the question is built before."""
    teacher, pages = _class(["en", "en", "de"])

    class Doc(Document):  # a served page's document: its next-tick callbacks kept to run
        def __init__(self):
            super().__init__()
            self.ticks = []

        def add_next_tick_callback(self, callback):
            self.ticks.append(callback)

    docs = []
    for page in pages:
        card = page.poll_card
        doc = Doc()
        card._doc = doc  # private: a served page's document, without a server
        docs.append(doc)
    before = QUESTION_VIEWS.builds
    poll = teacher.poll_panel.push(f"lesson:{WHO}")
    assert QUESTION_VIEWS.builds - before == 2  # built when the change was made, before any tick
    assert [len(doc.ticks) for doc in docs] == [1, 1, 1]  # one callback per page's document
    assert not any(page.poll_box.visible for page in pages)  # nothing done on the change's thread
    docs[1].ticks[0]()  # one page's tick
    assert pages[1].poll_box.visible and not pages[0].poll_box.visible
    for doc in (docs[0], docs[2]):
        doc.ticks[0]()
    assert all(page.poll_box.visible for page in pages)
    assert QUESTION_VIEWS.builds - before == 2
    assert pages[2].poll_card.question.object == QUESTION_VIEWS.get(poll, "de").question_html


def test_the_views_keep_only_the_newest_questions():
    views = QuestionViews(size=2)
    teacher, _pages = _class(["en"])
    polls = []
    refs = [r for group in teacher.poll_panel.pick.groups.values() for r in group.values()]
    for ref in refs[:3]:
        polls.append(teacher.poll_panel.push(ref))
        views.get(polls[-1], "en")
    assert views.builds == 3
    views.get(polls[-1], "en")
    assert views.builds == 3
    views.get(polls[0], "en")  # dropped: built again
    assert views.builds == 4
