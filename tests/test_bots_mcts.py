"""The mcts bot (nefertiti_core/play/openspiel.py): legal, reproducible, blind to the deck order, on
time, and a clear error without OpenSpiel. Small iteration budgets keep these fast."""

from __future__ import annotations

import random
import sys
import time

import pytest

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.errors import NefertitiError
from nefertiti_core.engine.state import new_game
from nefertiti_core.play import bots
from nefertiti_core.play.bots import make_bot


def positions(players: int, count: int, seed: int):
    """Random positions with a real choice (two or more legal options), of every phase."""
    rng = random.Random(seed)
    found = []
    game = new_game(players, seed)
    while len(found) < count:
        if game.is_over:
            game = new_game(players, rng.randrange(10**6))
            continue
        if len(game.legal_options()) > 1 and rng.random() < 0.3:
            found.append(game.copy())
        game.apply_unchecked(rng.choice(game.legal_options()))
    return found


@pytest.mark.parametrize("players", [3, 4])
def test_mcts_only_chooses_legal_options_and_leaves_the_state_alone(players):
    """With either opponent model (the greedy one costs a few greedy decisions a simulation)."""
    greedy = make_bot("mcts", seed=players, iterations=4)
    uct = make_bot("mcts", seed=players, iterations=12, opponents="uct")
    phases = set()
    for state in positions(players, 40, seed=players):
        key = state.key()
        for bot in (greedy, uct):
            option = bot.choose(state)
            assert option in state.legal_options()
            assert state.key() == key
        phases.add(state.phase)
    assert {"turn", "bid"} <= phases


@pytest.mark.slow  # two MCTS searches
def test_mcts_is_reproducible_with_a_seed_and_an_iteration_budget():
    states = positions(4, 6, seed=21)
    first = [make_bot("mcts", seed=5, iterations=20).choose(s) for s in states]
    bot = make_bot("mcts", seed=5, iterations=20)
    again = [make_bot("mcts", seed=5, iterations=20).choose(s) for s in states]
    assert first == again
    # One bot reused gives the same first choice as a fresh one.
    assert bot.choose(states[0]) == first[0]


def test_mcts_does_not_read_the_hidden_deck_order():
    """Two positions that differ only in the order of the deck (R2.2, R12) get the same choice
    from bots with the same seed."""
    rng = random.Random(4)
    checked = 0
    for state in positions(4, 6, seed=33):
        other = state.copy()
        gifts = [c for c in other.deck if c != R.AKHENATON]
        rng.shuffle(gifts)
        if len(gifts) < len(other.deck):
            gifts.insert(rng.randrange(min(5, len(other.deck))), R.AKHENATON)
        other.deck = gifts
        if other.deck == state.deck:
            continue
        a = make_bot("mcts", seed=8, iterations=60).choose(state)
        b = make_bot("mcts", seed=8, iterations=60).choose(other)
        assert a == b
        checked += 1
    assert checked >= 4


def test_mcts_keeps_to_its_time_budget(monkeypatch):
    """The search reads a clock the test drives (each reading 10 ms after the one before), so
    the budget is checked whatever the machine's load: it starts no simulation that would end
    after the deadline, and it uses the time it has."""
    import types

    from nefertiti_core.play import openspiel

    now = [0.0]

    def clock():
        now[0] += 0.01
        return now[0]

    monkeypatch.setattr(openspiel, "time", types.SimpleNamespace(perf_counter=clock))
    state = positions(4, 1, seed=2)[0]
    bot = make_bot("mcts", seed=1, time_limit=0.25)
    option = bot.choose(state)
    assert option in state.legal_options()
    assert now[0] <= 0.25 + 0.03  # the deadline, and the readings that end the search
    assert bot.last_simulations > 10  # one reading a simulation: most of the budget used


def test_when_the_time_is_up_before_any_option_was_tried_the_greedy_favourite_is_played():
    # a budget shorter than one simulation (as for a process starved by a loaded machine): the
    # first simulation only scores the root, no option has a visit
    state = next(s for s in positions(4, 20, seed=3) if len(s.legal_options()) > 3)
    bot = make_bot("mcts", seed=1, time_limit=1e-9, iterations=None)
    option = bot.choose(state)
    assert bot.last_simulations == 1
    assert option in state.legal_options()


def test_the_default_budget_is_one_second_at_most():
    bot = make_bot("mcts", seed=0)
    assert bot.time_limit is not None and bot.time_limit <= 1.0
    assert bot.iterations == 2000  # whichever ends first
    assert bot.opponents == "greedy"


def test_a_single_option_is_returned_at_once():
    game = new_game(4, 3, auto_forced=False)
    rng = random.Random(0)
    while len(game.legal_options()) != 1:
        game.apply_unchecked(rng.choice(game.legal_options()))
    bot = make_bot("mcts", seed=0, iterations=10**9)
    start = time.perf_counter()
    assert bot.choose(game) == game.legal_options()[0]
    assert time.perf_counter() - start < 0.05


def test_bad_budgets_and_finished_games_are_refused():
    with pytest.raises(NefertitiError, match="iterations"):
        make_bot("mcts", iterations=0)
    with pytest.raises(NefertitiError, match="time_limit"):
        make_bot("mcts", time_limit=-1)
    game = new_game(3, 1)
    rng = random.Random(1)
    while not game.is_over:
        game.apply_unchecked(rng.choice(game.legal_options()))
    with pytest.raises(NefertitiError, match="over"):
        make_bot("mcts", iterations=5).choose(game)


def test_mcts_is_listed_among_the_bot_kinds():
    assert "mcts" in bots.bot_kinds()


def test_without_openspiel_make_bot_mcts_says_what_is_missing(monkeypatch):
    """As if the bots extra were not installed: importing pyspiel fails."""
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # `import pyspiel` raises ImportError
    monkeypatch.delitem(sys.modules, "nefertiti_core.play.openspiel", raising=False)
    monkeypatch.delitem(bots.FACTORIES, "mcts", raising=False)
    with pytest.raises(NefertitiError, match=r"bots extra.*open_spiel"):
        make_bot("mcts", seed=1)
    assert make_bot("random", seed=1).kind == "random"  # the other kinds still work


def test_mcts_searches_only_among_the_greedy_bots_best_options(monkeypatch):
    """``top_k``: the root keeps the k options the greedy evaluation ranks best."""
    from nefertiti_core.play import openspiel

    states = [s for s in positions(4, 30, seed=12) if len(s.legal_options()) >= 4][:5]
    assert states
    for state in states:
        legal = state.legal_options()
        favourites = legal[-2:]  # pretend the greedy bot likes the last two options best
        fake = {o: (10.0 if o == legal[-1] else 9.0 if o == legal[-2] else 0.0) for o in legal}

        def option_values(self, s, legal=None, v=fake):  # the opponents' too: 0 if not faked
            return {o: v.get(o, 0.0) for o in (legal or s.legal_options())}

        monkeypatch.setattr(openspiel.GreedyBot, "option_values", option_values)
        assert make_bot("mcts", seed=3, iterations=30, top_k=1).choose(state) == legal[-1]
        assert make_bot("mcts", seed=3, iterations=60, top_k=2).choose(state) in favourites


def test_the_leaf_temperature_may_follow_the_deck():
    """A (end, start) temperature: flatter shares early in the game than at its end."""
    from nefertiti_core.play import openspiel

    state = positions(4, 1, seed=5)[0]
    assert state.deck and not state.akhenaton_drawn
    late = state.copy()
    late.deck = late.deck[:1]
    ev = openspiel.MctsBot(seed=0, rollout_depth=0, temperature=(5.0, 30.0)).evaluator
    early_shares = ev.evaluate_engine(state, private=False)
    late_shares = ev.evaluate_engine(late, private=False)
    for shares in (early_shares, late_shares):
        assert abs(sum(shares) - 1.0) < 1e-9 and min(shares) > 0
    assert max(early_shares) - min(early_shares) < max(late_shares) - min(late_shares) or (
        max(late_shares) == min(late_shares)
    )


def test_with_greedy_opponents_the_tree_makes_the_opponents_moves_by_the_greedy_bot(monkeypatch):
    """``opponents="greedy"``: in the search, every decision of another player is the greedy
    bot's choice (asked once per position), never a UCT pick; the searcher's own are searched."""
    from nefertiti_core.play import openspiel

    asked = []

    def spy(self, state):
        asked.append((state.decider, state.public_key()))
        return state.legal_options()[-1]

    monkeypatch.setattr(openspiel.GreedyBot, "choose", spy)
    state = next(s for s in positions(4, 20, seed=8) if s.phase == "turn")
    me = state.decider
    bot = make_bot("mcts", seed=2, iterations=50, opponents="greedy")
    assert bot.choose(state) in state.legal_options()
    assert asked, "the opponents' replies were never asked of the model"
    assert all(decider != me for decider, _ in asked)
    assert len(asked) == len(set(asked))  # one question per opponent position and search


def test_an_unknown_opponent_model_is_refused():
    with pytest.raises(NefertitiError, match="opponents must be one of greedy, uct"):
        make_bot("mcts", opponents="minimax")
    with pytest.raises(NefertitiError, match="lazy_replies must be True or False, not 'yes'"):
        make_bot("mcts", lazy_replies="yes")


def test_no_simulation_is_started_that_would_end_after_the_deadline(monkeypatch):
    """A simulation with greedy opponents can take a tenth of a second: none is started that
    would end after the deadline if it took as long as the longest so far. Here each takes 0.2 s
    and the budget is 0.5 s: two run (0.4 s); a third would end at 0.6 s."""
    from nefertiti_core.play import openspiel

    def slow(self, eng):
        time.sleep(0.2)
        return [0.25] * eng.n

    monkeypatch.setattr(openspiel.TreeSearch, "simulate", slow)
    state = next(s for s in positions(4, 20, seed=2) if len(s.legal_options()) > 1)
    bot = make_bot("mcts", seed=1, time_limit=0.5, top_k=None)
    start = time.perf_counter()
    assert bot.choose(state) in state.legal_options()
    took = time.perf_counter() - start
    assert bot.last_simulations == 2
    assert took < 0.5


def test_with_lazy_replies_a_simulation_learns_one_new_thing(monkeypatch):
    """``lazy_replies=True``: a simulation asks the greedy model at most one reply it did not
    have, or tries at most one option of the searcher's not tried before, and is scored where
    the next unknown would begin; the default (eager) search asks every reply up to the
    searcher's next decision."""
    from open_spiel.python.algorithms import ismcts  # the search the adapter builds on

    from nefertiti_core.play import openspiel

    asked, tried = [], []

    class Counted(ismcts.ChildInfo):
        def __init__(self, *args):
            super().__init__(*args)
            tried[-1] += 1

    real_choose, real_simulate = openspiel.GreedyBot.choose, openspiel.TreeSearch.simulate

    def choose(self, state):
        asked[-1] += 1
        return real_choose(self, state)

    def simulate(self, eng):
        asked.append(0)
        tried.append(0)
        return real_simulate(self, eng)

    monkeypatch.setattr(ismcts, "ChildInfo", Counted)
    monkeypatch.setattr(openspiel.GreedyBot, "choose", choose)
    monkeypatch.setattr(openspiel.TreeSearch, "simulate", simulate)
    state = next(s for s in positions(4, 20, seed=8) if s.phase == "turn")
    lazy = make_bot("mcts", seed=2, iterations=40, lazy_replies=True)
    assert lazy.choose(state) in state.legal_options()
    assert len(asked) == 40
    assert all(a + t <= 1 for a, t in zip(asked, tried, strict=True))
    assert sum(asked) > 0 and sum(tried) > 0
    asked.clear()
    tried.clear()
    eager = make_bot("mcts", seed=2, iterations=40)
    assert eager.choose(state) in state.legal_options()
    assert max(asked) >= 2  # a simulation went through several replies it did not have
