"""The OddsView in a notebook, without a browser: a page message goes through Panel's own notebook
handler (the one a Jupyter comm calls), with the kernel's asyncio loop running.

The browser sends a choice and a click in one message when they come close together or while the
kernel has not yet acknowledged its previous message (Panel's page-side debounce). Panel 1.9 runs
the click's callbacks while that message's property changes are still held; Run used to play the
old number of playouts, and the Playouts menu never got the choice on the kernel's side (the
browser check tests/browser/test_odds_in_jupyterlab.py failed that way about one run in three).
"""

from __future__ import annotations

import asyncio

from helpers_notebook import chosen, clicked, shown_in_a_notebook

from widgets import GameSession, OddsView


def test_a_playouts_choice_sent_with_the_run_click_is_the_one_played():
    view = OddsView(GameSession(), workers=1)
    # greedy bots: the run lasts minutes, so Cancel always comes before its end (5000 random
    # playouts took 4 s on a quiet machine, and the kernel loop, sharing the GIL with the
    # playouts' thread, ran the Stop click's callback 0.2-2 s after it arrived)
    view.bot_select.value = "greedy"
    deliver, ref, _comm = shown_in_a_notebook(view)

    async def in_the_kernel():
        loop = asyncio.get_running_loop()
        deliver(chosen(view.playouts, ref, "5000"), clicked(view.run_button, ref))
        await asyncio.sleep(0.05)  # the kernel loop's next turns
        try:
            assert view.playouts.value == 5000
            assert view.running and view.progress.max == 5000
            assert "of 5000 playouts" in view.status.object
        finally:
            deliver(clicked(view.stop_button, ref))
            await asyncio.sleep(0.05)
            await loop.run_in_executor(None, view.join, 60)
            await asyncio.sleep(0.05)  # the report is shown on the loop's turn
        assert not view.running and view.report.requested == 5000
        assert view.report.cancelled and "Cancelled" in view.status.object

    asyncio.run(in_the_kernel())


def test_a_choice_sent_alone_then_a_click():
    view = OddsView(GameSession(), workers=1)
    deliver, ref, _comm = shown_in_a_notebook(view)

    async def in_the_kernel():
        loop = asyncio.get_running_loop()
        deliver(chosen(view.playouts, ref, "50"))
        assert view.playouts.value == 50
        deliver(clicked(view.run_button, ref))
        await asyncio.sleep(0.05)
        assert view.progress.max == 50
        await loop.run_in_executor(None, view.join, 60)
        await asyncio.sleep(0.05)
        assert view.report.playouts == 50 and not view.run_button.disabled

    asyncio.run(in_the_kernel())
