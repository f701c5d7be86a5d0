"""The classroom's pages under a move's fan-out (#16, the load goal): a learner's page that
cannot act now keeps its decision panel hidden and does not rebuild it on every move (its
words, previews and buttons would be computed for nobody); once the learner can act (their
seat decides, or they broke away), the panel is there, up to date and the same as one built
afresh."""

from __future__ import annotations

import pytest

from nefertiti_core.engine.i18n import tr
from widgets.classroom.pages import LearnerPage, TeacherPage
from widgets.classroom.room import Rooms
from widgets.decision import DecisionPanel


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


def seen(panel: DecisionPanel) -> dict:
    """What the browser shows of a decision panel (read from its widgets, not through the
    properties that bring a hidden panel up to date)."""
    return {
        "title": panel._title.object,
        "who": panel._who.object,
        "buttons": [(b.name, b.description.content) for b in panel._buttons if b.visible],
        "button_options": list(panel._button_options),
        "place_box": panel._place_box.visible,
        "place_groups": panel._place_select.groups if panel._place_box.visible else None,
        "place_value": panel._place_select.value if panel._place_box.visible else None,
        "place_preview": panel._place_preview.object if panel._place_box.visible else None,
        "options_label": (panel._options_label.visible, panel._options_label.object),
        "over": panel._over.visible,
    }


def same_as_fresh(page) -> None:
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
    assert not ana._decision_box.visible and not ana.decision.shown
    before_ana, before_ben = ana.decision.refreshes, ben.decision.refreshes
    ana.session.lang = "de"  # changed while hidden: the panel is in German once shown
    for _ in range(moves - 1):
        play_first(teacher)
        assert room.table.state.decider != seat
        assert not ana._decision_box.visible
        assert ana.decision.refreshes == before_ana  # hidden: not rebuilt on this move
    play_first(teacher)
    assert room.table.state.decider == seat
    # Ana's seat decides: the panel is shown, brought up to date once, in her language
    assert ana._decision_box.visible and ana.decision.shown
    assert ana.decision.refreshes == before_ana + 1
    assert tr("de", "panel.decision.title") in ana.decision._title.object
    same_as_fresh(ana)
    assert ana.decision.button_options or ana.decision.placement_options
    # and it plays: her option goes through the room
    option = (ana.decision.button_options or ana.decision.placement_options)[0]
    step = room.table.step
    assert ana.decision.click(option)
    assert room.table.step > step and ana.session.error == ""
    # Ben watches (no seat): his panel was never built, whatever the table did
    assert not ben._decision_box.visible
    assert ben.decision.refreshes == before_ben == 0


def test_break_away_shows_an_up_to_date_panel_and_rejoin_hides_it(klass):
    teacher, ana, _ben = klass
    room = teacher.room
    for _ in range(3):
        play_first(teacher)
    refreshes = ana.decision.refreshes
    assert refreshes == 0 and not ana._decision_box.visible
    assert ana.toggle_away()  # a private copy: every seat hers
    assert ana.session.away and ana._decision_box.visible
    assert ana.decision.refreshes == refreshes + 1
    same_as_fresh(ana)
    option = (ana.decision.button_options or ana.decision.placement_options)[0]
    table_step = room.table.step
    assert ana.decision.click(option)  # on her copy, not the table
    assert room.table.step == table_step
    same_as_fresh(ana)
    assert ana.toggle_away()  # rejoin: the table's position, the panel hidden again
    assert not ana.session.away and not ana._decision_box.visible
    shown_at = ana.decision.refreshes
    play_first(teacher)
    assert ana.decision.refreshes == shown_at


def test_the_teachers_panel_waits_while_a_learner_decides(klass):
    teacher, ana, _ben = klass
    state = teacher.room.table.state
    assert teacher.give_seat(state.decider, person_id(ana))  # Ana decides now
    assert not teacher._decision_box.visible and ana._decision_box.visible
    refreshes = teacher.decision.refreshes
    ana.decision.click((ana.decision.button_options or ana.decision.placement_options)[0])
    if teacher.room.table.state.decider == ana.room.participant(ana.token).seat:
        assert teacher.decision.refreshes == refreshes  # still Ana's decision: not rebuilt
    else:
        assert teacher._decision_box.visible
        same_as_fresh(teacher)
