"""Odds by playouts (nefertiti_core.play.odds): the hidden deck, reproducibility, parallel runs, Dask,
cancelling, bad arguments, and the sampled Louqsor closings against the exact probability
(R3.7, R3.8, R2.2). Process pools use 2 workers at most (the machine has 2 cores)."""

from __future__ import annotations

import math
import random
import sys
import threading
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from nefertiti_core import NefertitiError, new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.files.scenario import loads_scenario
from nefertiti_core.play.bots import make_bot
from nefertiti_core.play.odds import (
    GAME_END,
    OUTCOMES,
    odds,
    playout_start,
    resample_deck,
    wilson_interval,
)
from nefertiti_core.teaching.status import stall_status

SCENARIOS = Path(__file__).resolve().parent.parent / "nefertiti_core" / "scenarios"


def louqsor_position(name: str):
    """A Louqsor stall from the scenarios, with the dice left free (no forced roll, no moves)."""
    text = (SCENARIOS / name).read_text(encoding="utf-8")
    kept = []
    skip = False
    for line in text.splitlines():
        if line.startswith(("forced:", "moves:")):
            skip = line.startswith("forced:")
            continue
        if skip and line.startswith("  "):
            continue
        skip = False
        kept.append(line)
    return loads_scenario("\n".join(kept) + "\n", name).state


def within(sampled: float, exact: float, n: int, sigmas: float = 4.0) -> bool:
    se = math.sqrt(exact * (1 - exact) / n)
    return abs(sampled - exact) <= sigmas * se


# --- the hidden deck (R2.2, R12) --------------------------------------------------------------------
def test_resampled_deck_keeps_the_cards_and_akhenaton_in_the_bottom_five():
    deck = new_game(4, 0).deck
    assert R.AKHENATON in deck[:5]
    places = Counter()
    orders = set()
    for i in range(400):
        new = resample_deck(deck, random.Random(i))
        assert sorted(new) == sorted(deck)
        places[new.index(R.AKHENATON)] += 1
        orders.add(tuple(new))
    assert set(places) == {0, 1, 2, 3, 4}  # every place of the bottom five, never higher
    assert len(orders) == 400


def test_resampled_short_deck_keeps_akhenaton_among_the_cards_left():
    deck = [3, R.AKHENATON, 5]  # two of the bottom five were drawn
    seen = {resample_deck(deck, random.Random(i)).index(R.AKHENATON) for i in range(100)}
    assert seen == {0, 1, 2}
    assert resample_deck([4, 2, 2], random.Random(0)).count(2) == 2  # Akhenaton already drawn


def test_playouts_draw_different_cards_and_dice():
    state = new_game(4, 0)
    a, _ = playout_start(state, 7, 0)
    b, _ = playout_start(state, 7, 1)
    assert a.deck != b.deck and sorted(a.deck) == sorted(b.deck) == sorted(state.deck)
    assert a.rng.getstate() != b.rng.getstate()
    drawn = []
    for game in (a, b):
        game.log = []
        bot = make_bot("random", seed=3)  # the same choices' source: only the deck differs
        while not game.is_over:
            game.apply_unchecked(bot.choose(game))
            assert R.AKHENATON in game.deck[:5] or game.akhenaton_drawn
        drawn.append([tuple(d["drawn"]) for name, d in game.log if name in ("reopen", "akhenaton")])
    assert drawn[0] != drawn[1]
    assert state.deck == new_game(4, 0).deck  # the position itself is untouched


# --- the Louqsor roll: sampled against exact (R3.7, R3.8) -------------------------------------------
@pytest.mark.slow  # thousands of playouts a case
@pytest.mark.parametrize(
    ("scenario", "option", "square", "exact"),
    [
        ("louqsor-left-dice.yaml", "place louqsor.left#2", 2, Fraction(4, 36)),
        ("louqsor-right-run.yaml", "place louqsor.right#3", 3, Fraction(1, 2)),
    ],
)
def test_sampled_louqsor_closings_match_the_exact_probability(scenario, option, square, exact):
    state = louqsor_position(scenario)
    assert stall_status(state, "louqsor").chance(square) == exact
    n = 3000
    closed = 0
    for i in range(n):
        game = state.copy()
        game.rng = random.Random(f"dice-{i}")
        game.log = []
        game.apply(option)
        closed += any(name == "market_closes" and d["market"] == R.LOUQSOR for name, d in game.log)
    assert within(closed / n, float(exact), n), (closed, n, exact)

    report = odds(state, playouts=400, bots="random", seed=1, workers=1, option=option)
    assert report.louqsor_exact == exact
    assert report.louqsor_stall == R.STALLS[R.LOUQSOR * 2 + state.side[R.LOUQSOR]].name
    assert within(report.louqsor_sampled, float(exact), 400)
    assert report.first_close["louqsor"] >= report.louqsor_rolls_closed
    assert report.as_dict()["louqsor_exact"]["fraction"] == str(exact)


def test_placement_chances_on_louqsor_are_exact_in_the_report():
    state = louqsor_position("louqsor-left-dice.yaml")
    report = odds(state, playouts=5, bots="random", seed=0, workers=1)
    assert report.louqsor_chances == dict(stall_status(state, "louqsor").closing_chances)
    assert report.louqsor_exact is None and report.louqsor_sampled is None


# --- the report ------------------------------------------------------------------------------------
def test_report_adds_up():
    state = new_game(4, 2)
    report = odds(state, playouts=40, bots="random", seed=3, workers=1)
    assert report.playouts == 40 and not report.cancelled
    assert sum(report.wins) == pytest.approx(40)
    assert all(len(s) == 40 for s in report.scores)
    assert sum(report.first_close.values()) == 40
    assert set(report.next_close_frequency()) == set(OUTCOMES)
    assert report.first_close.get("louqsor", 0) == 0  # Louqsor starts closed (R2)
    for seat in range(4):
        low, high = report.win_interval(seat)
        assert low <= report.win_probability(seat) <= high
        assert sum(report.histogram(seat).values()) == 40
    data = report.as_dict()
    assert data["playouts"] == 40 and len(data["win_interval_95"]) == 4
    assert state.state_hash() == new_game(4, 2).state_hash()  # never played on


def test_wilson_interval():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_per_seat_bots_and_a_game_ending_in_the_position():
    state = new_game(3, 1)
    report = odds(state, playouts=10, bots=["random", "random", "random"], seed=0, workers=1)
    assert report.bots == ("random",) * 3
    assert GAME_END in report.as_dict()["first_close"]


# --- reproducible, whatever runs it -----------------------------------------------------------------
def test_same_seed_same_report_with_one_or_two_workers():
    state = new_game(4, 5)
    one = odds(state, playouts=48, bots="random", seed=11, workers=1)
    two = odds(state, playouts=48, bots="random", seed=11, workers=2, chunk_size=5)
    assert two.backend == "processes" and two.workers == 2
    assert one.same_results(two)
    assert one.scores == two.scores
    other = odds(state, playouts=48, bots="random", seed=12, workers=1)
    assert other.scores != one.scores


@pytest.mark.parametrize(("playouts", "workers"), [(1, 2), (7, 2), (120, 2), (600, 2), (5000, 8)])
def test_chunks_cover_every_playout_once_and_shrink_towards_the_end(playouts, workers):
    from nefertiti_core.play.odds import MAX_CHUNK, playout_chunks

    chunks = playout_chunks(playouts, workers, None)
    assert [i for a, b in chunks for i in range(a, b)] == list(range(playouts))
    sizes = [b - a for a, b in chunks]
    assert all(1 <= s <= MAX_CHUNK for s in sizes)
    assert sizes == sorted(sizes, reverse=True)  # the large ones first, the small ones last
    assert sizes[-1] == 1
    if playouts >= 120:  # the last quarter of the work in chunks of a few playouts each
        assert max(sizes[len(sizes) * 3 // 4 :]) <= 4
    assert playout_chunks(10, 2, 4) == [(0, 4), (4, 8), (8, 10)]  # a chunk size given is kept


def test_worker_processes_are_kept_between_runs_and_a_lost_one_is_replaced():
    """The second run plays on the first run's workers (no start-up paid again); a worker that
    died between runs (killed) costs the next run nothing but a new pool: the same report."""
    import os
    import signal

    from nefertiti_core.play import odds as odds_module

    state = new_game(4, 5)
    one = odds(state, playouts=24, bots="random", seed=3, workers=1)
    first = odds(state, playouts=24, bots="random", seed=3, workers=2, chunk_size=4)
    pool = odds_module.POOLS.take(2)
    try:
        pid = pool.submit(os.getpid).result(timeout=60)
    finally:
        odds_module.POOLS.give_back(2, pool, broken=False)
    again = odds(state, playouts=24, bots="random", seed=3, workers=2, chunk_size=4)
    assert odds_module.POOLS.kept(2) is pool  # the same processes
    os.kill(pid, signal.SIGKILL)
    after = odds(state, playouts=24, bots="random", seed=3, workers=2, chunk_size=4)
    assert one.same_results(first) and one.same_results(again) and one.same_results(after)
    assert odds_module.POOLS.kept(2) is not pool  # the broken pool was dropped


def test_two_runs_at_once_share_the_workers_chunk_by_chunk():
    """Two learners' Odds on one server: the second, short run is not queued behind the whole
    of the first, long one (it ends while the first is still playing), and both are right."""
    state = new_game(4, 2)
    seen: list[int] = []
    long_run: dict = {}

    def first():
        long_run["report"] = odds(
            state, 4000, "random", 0, workers=2, chunk_size=10,
            progress=lambda done, total: seen.append(done),
        )  # fmt: skip

    thread = threading.Thread(target=first)
    thread.start()
    deadline = time.monotonic() + 60
    while not seen and time.monotonic() < deadline:  # the long run is under way
        time.sleep(0.01)
    short = odds(state, 20, "random", 5, workers=2, chunk_size=10)
    done_then = seen[-1]
    thread.join(300)
    assert done_then < 4000, "the short run waited for the whole of the long one"
    assert short.same_results(odds(state, 20, "random", 5, workers=1))
    assert long_run["report"].playouts == 4000


def test_a_worker_lost_mid_run_is_replaced_and_the_run_gives_the_same_report():
    """A worker killed while the run has results already (out of memory, say): the chunks it
    had not finished are played on new workers, and the report is the same as one process's."""
    import os
    import signal

    from nefertiti_core.play import odds as odds_module

    state = new_game(4, 4)
    killed: list[int] = []

    def progress(done, total):
        if done and not killed:  # the run has results: a worker dies now
            pid = odds_module.POOLS.kept(2).submit(os.getpid).result(timeout=60)  # a worker's
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    report = odds(state, 200, "random", 0, workers=2, chunk_size=5, progress=progress)
    assert killed and report.playouts == 200
    assert report.same_results(odds(state, 200, "random", 0, workers=1))


def test_a_worker_lost_twice_in_one_run_is_a_clear_error_and_the_next_run_gets_new_ones():
    import os
    import signal

    from nefertiti_core.play import odds as odds_module

    state = new_game(4, 4)
    killed: dict = {}  # pool -> the worker killed in it

    def progress(done, total):
        pool = odds_module.POOLS.kept(2)
        if pool is not None and pool not in killed:  # each pool the run gets loses a worker
            pid = pool.submit(os.getpid).result(timeout=60)
            os.kill(pid, signal.SIGKILL)
            killed[pool] = pid

    with pytest.raises(NefertitiError, match="a worker process of the odds died during the run"):
        odds(state, 4000, "random", 0, workers=2, chunk_size=5, progress=progress)
    assert len(killed) == 2
    after = odds(state, 20, "random", 0, workers=2, chunk_size=5)
    assert after.same_results(odds(state, 20, "random", 0, workers=1))


def test_idle_worker_processes_are_shut_down(monkeypatch):
    from nefertiti_core.play import odds as odds_module

    monkeypatch.setattr(odds_module, "POOL_IDLE_S", 0.2)
    odds(new_game(4, 1), playouts=8, bots="random", seed=0, workers=2, chunk_size=2)
    assert odds_module.POOLS.kept(2) is not None  # kept after the run...
    deadline = time.monotonic() + 30
    while odds_module.POOLS.kept(2) is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert odds_module.POOLS.kept(2) is None  # ...and shut down when nobody used it for a while


def test_greedy_bots_run_in_playouts():
    report = odds(
        new_game(4, 0), playouts=2, bots=("greedy", "random", "random", "random"), seed=0, workers=1
    )
    assert report.playouts == 2


def test_dask_cluster_gives_the_same_report():
    distributed = pytest.importorskip("distributed")
    state = new_game(4, 6)
    local = odds(state, playouts=30, bots="random", seed=4, workers=2, chunk_size=4)
    with distributed.Client(
        processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
    ) as client:
        on_dask = odds(state, playouts=30, bots="random", seed=4, cluster=client, chunk_size=7)
    assert on_dask.backend == "dask"
    assert on_dask.same_results(local)


def test_missing_distributed_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(NefertitiError, match="distributed"):
        odds(new_game(4, 0), playouts=2, bots="random", cluster="tcp://127.0.0.1:1")


# --- cancelling ------------------------------------------------------------------------------------
@pytest.mark.parametrize("workers", [1, 2])
def test_cancel_returns_a_partial_report(workers):
    cancel = threading.Event()
    seen = []

    def progress(done, total):
        seen.append((done, total))
        if done >= 10:
            cancel.set()

    report = odds(
        new_game(4, 0),
        playouts=2000,
        bots="random",
        seed=0,
        workers=workers,
        chunk_size=5,
        progress=progress,
        cancel=cancel,
    )
    assert report.cancelled
    assert 10 <= report.playouts < 2000
    assert sum(report.first_close.values()) == report.playouts
    assert seen[0][1] == 2000 and all(
        a <= b for (a, _), (b, _) in zip(seen, seen[1:], strict=False)
    )


def test_cancel_before_start():
    cancel = threading.Event()
    cancel.set()
    report = odds(new_game(4, 0), playouts=50, bots="random", workers=1, cancel=cancel)
    assert report.cancelled and report.playouts == 0
    assert report.win_probability(0) == 0.0 and report.as_dict()["playouts"] == 0


# --- bad arguments ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"playouts": 0}, "playouts"),
        ({"playouts": -3}, "playouts"),
        ({"playouts": True}, "playouts"),
        ({"playouts": "100"}, "playouts"),
        ({"bots": "nobot"}, "not a bot"),
        ({"bots": "human"}, "not a bot"),
        ({"bots": ("random", "random")}, "one per seat"),
        ({"bots": 3}, "bot kind"),
        ({"workers": 0}, "workers"),
        ({"seed": "x"}, "seed"),
        ({"option": "place louqsor.left#0"}, "not a legal option"),
        ({"option": "fly away"}, "fly away"),
        ({"cluster": 42}, "cluster"),
    ],
)
def test_bad_arguments(kwargs, match):
    args = {"playouts": 5, "bots": "random", "workers": 1, **kwargs}
    with pytest.raises(NefertitiError, match=match):
        odds(new_game(4, 0), **args)


def test_finished_game_has_no_odds():
    state = new_game(4, 0)
    bot = make_bot("random", seed=0)
    while not state.is_over:
        state.apply_unchecked(bot.choose(state))
    with pytest.raises(NefertitiError, match="over"):
        odds(state, playouts=5, bots="random")


def test_a_roll_fixed_by_the_teacher_is_kept_in_every_playout():
    # The scenario fixes the roll at 3 and 2 (R4.4): the placement closes Louqsor for certain.
    from nefertiti_core.files.scenario import load

    state = load(SCENARIOS / "louqsor-left-dice.yaml").state
    report = odds(state, 20, "random", seed=0, workers=1, option="place louqsor.left#2")
    assert report.louqsor_exact == 1 and report.louqsor_sampled == 1.0


def test_a_pool_that_refuses_the_next_chunk_loses_none_of_them(monkeypatch):
    """A worker killed between two submits: the pool refuses the next chunk at once (broken);
    that chunk is played on the new workers too, none is lost (the report stays the same)."""
    from concurrent.futures.process import BrokenProcessPool

    from nefertiti_core.play import odds as odds_module

    state = new_game(4, 6)
    one = odds(state, playouts=40, bots="random", seed=2, workers=1)
    odds(state, playouts=8, bots="random", seed=2, workers=2, chunk_size=4)  # a kept pool
    broken = odds_module.POOLS.kept(2)
    real_submit = type(broken).submit
    calls = []

    def submit(self, *args, **kwargs):
        calls.append(self)
        if self is broken and len(calls) == 3:  # the third chunk: the pool is found broken
            raise BrokenProcessPool("a worker died")
        return real_submit(self, *args, **kwargs)

    monkeypatch.setattr(type(broken), "submit", submit)
    report = odds(state, playouts=40, bots="random", seed=2, workers=2, chunk_size=4)
    assert not report.cancelled and report.same_results(one)
    assert odds_module.POOLS.kept(2) is not broken
