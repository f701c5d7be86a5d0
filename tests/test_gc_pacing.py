"""widgets/server/gc_pacing.py: the served app's full garbage collections wait for a quiet moment
(no websocket message for IDLE_S); a collection of what is new comes at most every SHORTEST_S
and freezes what survived; a deep one (everything unfrozen, collected, frozen again) comes every
LONGEST_S at a quiet moment, and after twice that on a server that is never quiet."""

from __future__ import annotations

from widgets.server import gc_pacing as G


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def pacer(young_collections=G.DUE_AFTER):
    clock, calls, counts = Clock(), [], [0, 0, young_collections]
    p = G.Pacer(
        clock=clock,
        collect=lambda generation: calls.append(f"collect{generation}"),
        count=lambda: counts,
        freeze=lambda: calls.append("freeze"),
        unfreeze=lambda: calls.append("unfreeze"),
    )
    return p, clock, calls, counts


def busy(p, clock, seconds):
    """Messages every 100 ms for ``seconds``: nothing may run."""
    for _ in range(int(seconds / 0.1)):
        clock.now += 0.1
        p.message()
        assert p.tick() is None


def test_a_busy_server_collects_nothing_until_the_deep_collection_is_overdue():
    p, clock, calls, _ = pacer()
    start = clock.now
    busy(p, clock, 2 * G.LONGEST_S - 1)
    clock.now = start + 2 * G.LONGEST_S
    p.message()
    assert p.tick() == "deep" and calls == ["unfreeze", "collect2", "freeze"]


def test_a_quiet_moment_after_the_shortest_gap_collects_what_is_new_and_freezes_it():
    p, clock, calls, _ = pacer()
    clock.now += G.SHORTEST_S - 1
    assert p.tick() is None  # quiet, but too soon after the last
    clock.now += 1
    p.message()
    assert p.tick() is None  # a message just arrived
    clock.now += G.IDLE_S
    assert p.tick() == "new" and calls == ["collect2", "freeze"]
    clock.now += 1
    assert p.tick() is None  # not again until the shortest gap has passed


def test_the_deep_collection_waits_for_a_quiet_moment_when_it_is_not_overdue():
    p, clock, calls, _ = pacer()
    busy(p, clock, G.LONGEST_S + 10)
    clock.now += G.IDLE_S
    assert p.tick() == "deep" and calls[0] == "unfreeze"
    assert p.last_deep == clock.now


def test_nothing_new_to_collect_before_pythons_own_threshold():
    p, clock, calls, counts = pacer(young_collections=G.DUE_AFTER - 1)
    clock.now += G.SHORTEST_S * 2
    assert p.tick() is None and calls == []
    counts[2] = G.DUE_AFTER
    assert p.tick() == "new"


def test_start_turns_pythons_full_collections_off_and_the_served_app_tells_it_of_messages():
    import gc

    from tornado.ioloop import IOLoop

    from widgets.server.state import ServedApp

    class Socket:  # a websocket handler, as the websocket patch reports it
        pass

    before = gc.get_threshold()
    loop = IOLoop(make_current=False)
    served = ServedApp()
    try:
        p = loop.run_sync(_started)
        assert gc.get_threshold()[2] == G.NEVER
        assert gc.get_freeze_count() > 0
        served.pacer = p
        seen = p.last_message
        p.clock = lambda: seen + 5
        served.message(Socket())  # a page spoke: not a quiet moment
        assert p.last_message == seen + 5
        p.callback.stop()
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
        loop.close()


async def _started():
    return G.start()
