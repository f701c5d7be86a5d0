"""In a notebook, a button whose callback reads another widget acts on what the same page message
chose (``widgets.game.common.after_page_message``): Panel 1.9 runs a click's callbacks before it
applies the message's other changes, so "Place" used to put the servant on the square chosen
before. Driven through Panel's own notebook message handler, with the kernel's loop running."""

from __future__ import annotations

import asyncio

from helpers_notebook import chosen, clicked, shown_in_a_notebook

from nefertiti_core.engine import rules as R
from widgets import GameSession
from widgets.game.decision import DecisionPanel
from widgets.game.timeline import Timeline
from widgets.sandbox.app import Sandbox


def in_the_kernel(steps):
    async def run():
        steps()
        await asyncio.sleep(0.05)  # the kernel loop's next turns

    asyncio.run(run())


def test_a_square_chosen_in_the_same_message_as_place_is_the_one_placed():
    session = GameSession()
    panel = DecisionPanel(session)
    deliver, ref, _comm = shown_in_a_notebook(panel)
    assert panel.place_select.value != 3  # the menu shows another square first
    in_the_kernel(
        lambda: deliver(chosen(panel.place_select, ref, "3"), clicked(panel.place_button, ref))
    )
    state = session.state
    assert state.decisions == 1
    assert state.owners[R.GIZEH][3] >= 0  # square #3 of Gizeh, the one chosen
    assert state.owners[R.GIZEH][0] < 0


def test_a_new_game_started_in_the_same_message_as_its_player_count_has_that_count():
    sandbox = Sandbox()
    sandbox.open_view("setup")  # the views are built when first shown: the learner opened it
    deliver, ref, _comm = shown_in_a_notebook(sandbox)
    assert sandbox.session.state.n == 4
    in_the_kernel(
        lambda: deliver(chosen(sandbox.players_count, ref, "3"), clicked(sandbox.start_button, ref))
    )
    assert sandbox.session.state.n == 3


def test_a_branch_named_in_the_same_message_as_its_button_gets_that_name():
    session = GameSession()
    session.play(session.state.legal_options()[0])
    timeline = Timeline(session)
    deliver, ref, _comm = shown_in_a_notebook(timeline)
    in_the_kernel(
        lambda: deliver(
            chosen(timeline.new_name, ref, "what if"), clicked(timeline.new_button, ref)
        )
    )
    assert "what if" in session.history.branches
