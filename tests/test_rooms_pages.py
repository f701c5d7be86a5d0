"""The classroom's pages under a move's fan-out (#16, the load goal): a learner's page that
cannot act now keeps its decision panel hidden and does not rebuild it on every move (its
words, previews and buttons would be computed for nobody); once the learner can act (their
seat decides, or they broke away), the panel is there, up to date and the same as one built
afresh."""

from __future__ import annotations

import pytest
from rendered import html, seen, source

from nefertiti_core.engine.i18n import tr
from widgets.classroom.learner import LearnerPage
from widgets.classroom.room import Rooms
from widgets.classroom.teacher import TeacherPage
from widgets.game.decision import DecisionPanel


@pytest.fixture()
def klass():
    rooms = Rooms()
    teacher = TeacherPage(rooms)
    assert teacher.open_room()
    ana, ben = LearnerPage(rooms), LearnerPage(rooms)
    assert ana.join(teacher.room.code, "Ana")
    assert ben.join(teacher.room.code, "Ben")
    return teacher, ana, ben


def person_id(page) -> int:
    return page.room.participant(page.token).id


def play_first(teacher) -> None:
    state = teacher.room.table.state
    assert teacher.room.play(teacher.key, state.legal_options()[0]) is None


def same_as_fresh(page) -> None:
    """What the browser shows of the page's decision panel (read from what it lays out, not
    through the properties that bring a hidden panel up to date) is what a panel built afresh
    shows."""
    fresh = DecisionPanel(page.session, show_who=False)
    assert seen(page.decision) == seen(fresh)


def later_seat(state) -> tuple[int, int]:
    """A seat that first decides after at least two moves of "the first legal option", and
    after how many moves."""
    copy, first = state.copy(), {state.decider: 0}
    for move in range(1, 60):
        copy.apply(copy.legal_options()[0])
        first.setdefault(copy.decider, move)
    seat, moves = max(first.items(), key=lambda item: item[1])
    assert moves >= 2
    return seat, moves


def test_a_hidden_panel_is_not_rebuilt_per_move_and_is_right_once_the_learner_can_act(klass):
    teacher, ana, ben = klass
    room = teacher.room
    seat, moves = later_seat(room.table.state)
    assert teacher.give_seat(seat, person_id(ana))
    assert not ana.decision_box.visible and not ana.decision.shown
    before_ana, before_ben = ana.decision.refreshes, ben.decision.refreshes
    ana.session.lang = "de"  # changed while hidden: the panel is in German once shown
    for _ in range(moves - 1):
        play_first(teacher)
        assert room.table.state.decider != seat
        assert not ana.decision_box.visible
        assert ana.decision.refreshes == before_ana  # hidden: not rebuilt on this move
    play_first(teacher)
    assert room.table.state.decider == seat
    # Ana's seat decides: the panel is shown, brought up to date once, in her language
    assert ana.decision_box.visible and ana.decision.shown
    assert ana.decision.refreshes == before_ana + 1
    assert tr("de", "panel.decision.title") in html(ana.decision)
    same_as_fresh(ana)
    assert ana.decision.button_options or ana.decision.placement_options
    # and it plays: her option goes through the room
    option = (ana.decision.button_options or ana.decision.placement_options)[0]
    step = room.table.step
    assert ana.decision.click(option)
    assert room.table.step > step and ana.session.error == ""
    # Ben watches (no seat): his panel was never built, whatever the table did
    assert not ben.decision_box.visible
    assert ben.decision.refreshes == before_ben == 0


def test_break_away_shows_an_up_to_date_panel_and_rejoin_hides_it(klass):
    teacher, ana, _ben = klass
    room = teacher.room
    for _ in range(3):
        play_first(teacher)
    refreshes = ana.decision.refreshes
    assert refreshes == 0 and not ana.decision_box.visible
    assert ana.toggle_away()  # a private copy: every seat hers
    assert ana.session.away and ana.decision_box.visible
    assert ana.decision.refreshes == refreshes + 1
    same_as_fresh(ana)
    option = (ana.decision.button_options or ana.decision.placement_options)[0]
    table_step = room.table.step
    assert ana.decision.click(option)  # on her copy, not the table
    assert room.table.step == table_step
    same_as_fresh(ana)
    assert ana.toggle_away()  # rejoin: the table's position, the panel hidden again
    assert not ana.session.away and not ana.decision_box.visible
    shown_at = ana.decision.refreshes
    play_first(teacher)
    assert ana.decision.refreshes == shown_at


def test_the_teachers_panel_waits_while_a_learner_decides(klass):
    teacher, ana, _ben = klass
    state = teacher.room.table.state
    assert teacher.give_seat(state.decider, person_id(ana))  # Ana decides now
    assert not teacher.decision_box.visible and ana.decision_box.visible
    refreshes = teacher.decision.refreshes
    ana.decision.click((ana.decision.button_options or ana.decision.placement_options)[0])
    if teacher.room.table.state.decider == ana.room.participant(ana.token).seat:
        assert teacher.decision.refreshes == refreshes  # still Ana's decision: not rebuilt
    else:
        assert teacher.decision_box.visible
        same_as_fresh(teacher)


class Ticks:
    """A served document's next ticks, run when the test says (as the event loop would)."""

    def __init__(self):
        self.callbacks = []

    def add_next_tick_callback(self, callback):
        self.callbacks.append(callback)

    def add_timeout_callback(self, callback, _ms):
        pass

    def run(self):
        while self.callbacks:
            self.callbacks.pop(0)()


def test_served_the_move_reaches_the_page_first_and_the_panel_on_the_next_tick(klass, monkeypatch):
    """As served: the room's notice brings the table (status line, board) at once; the
    version's update on the next tick brings the bar's words and, for the learner who can act
    now, the decision panel, up to date and refreshed once."""
    teacher, ana, _ben = klass
    room = teacher.room
    seat, moves = later_seat(room.table.state)
    assert teacher.give_seat(seat, person_id(ana))
    ticks = Ticks()
    monkeypatch.setattr("widgets.game.session.served_document", lambda: ticks)
    before = ana.decision.refreshes
    for _ in range(moves):
        play_first(teacher)
        ticks.run()
        assert ana.decision.refreshes == before or room.table.state.decider == seat
    assert room.table.state.decider == seat
    assert ana.decision_box.visible and ana.decision.refreshes == before + 1
    same_as_fresh(ana)
    # her move: the panel hides at once (the table's notice), before the next tick
    option = (ana.decision.button_options or ana.decision.placement_options)[0]
    assert ana.decision.click(option)
    if room.table.state.decider != seat:
        assert not ana.decision_box.visible
        refreshes = ana.decision.refreshes
        ticks.run()
        assert not ana.decision_box.visible and ana.decision.refreshes == refreshes


SOURCES = (
    "regions",
    "squares",
    "playable",
    "closing",
    "tips",
    "servants",
    "cards",
    "seals",
    "texts",
    "titles",
    "legal",
    "last",
)


def test_the_shared_board_and_words_are_what_each_page_would_draw_alone(klass):
    """The board's data and the bar's words are made once per position (and language, and
    who the page may play) and shared: each page still shows exactly what it would have drawn
    by itself: its language, its seat's legal squares, the names it gives the seats."""
    from widgets.classroom.table import BOARD_MAX_HEIGHT, last_words_html
    from widgets.game.board import Board
    from widgets.game.projector import banner_html
    from widgets.game.rules_view import link_rule_ids

    teacher, ana, ben = klass
    ben.session.lang = "zh"
    assert teacher.give_seat(teacher.room.table.state.decider, person_id(ana))
    for move in range(6):
        state = teacher.room.table.state
        actor = ana if ana.session.can_act_now() else teacher
        option = state.legal_options()[move % len(state.legal_options())]
        assert teacher.room.play(actor.token if actor is ana else teacher.key, option) is None
        for page in (teacher, ana, ben):
            session, lang = page.session, page.session.lang
            alone = Board(session, fit=True, max_height=BOARD_MAX_HEIGHT, fit_window=True)
            assert not alone.shared and page.board.shared
            for name in SOURCES:
                drawn, own = source(page.board, f"board-{name}"), source(alone, f"board-{name}")
                assert dict(drawn.data) == dict(own.data)
            assert page.bar.banner == link_rule_ids(banner_html(session), lang)
            assert page.bar.last_move == last_words_html(session, lang)
    # the pages do not share the lists they were handed
    source(ana.board, "board-servants").data["x"].append(99.0)
    assert 99.0 not in source(ben.board, "board-servants").data["x"]


def test_the_teachers_new_join_code_is_shown_and_only_it_lets_newcomers_in(klass):
    """New join code on the teacher's page: the card, the QR's link and the title show the new
    code; a learner typing the old one is refused in their language; the new one admits."""
    teacher, ana, _ben = klass
    old = teacher.room.join_code
    teacher.code_button.clicks += 1
    new = teacher.room.join_code
    assert new != old and teacher.room.code == old
    shown = html(teacher)
    assert f"{new[:4]} {new[4:]}" in shown and f"{old[:4]} {old[4:]}" not in shown
    assert teacher.learner_link.endswith(f"/join?code={new}")
    german = LearnerPage(teacher.rooms, lang="de")
    assert not german.join(old, "Dora")
    assert tr("de", "room.refuse.old_code") in html(german)
    assert german.join(new, "Dora")
    assert ana.room.participant(ana.token) is not None  # those already in stay in
    again = LearnerPage(teacher.rooms, code=old, tokens={old: ana.token})
    assert again.room is teacher.room and again.token == ana.token  # a reload: still in
