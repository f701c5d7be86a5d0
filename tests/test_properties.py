"""Property tests (hypothesis): random complete games always end, keep every R12 invariant after
every step, and replay identically from their seed and list of decisions."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nefertiti_core import new_game, violations
from nefertiti_core.engine.state import FIELDS, P_OVER, RANDOM

MAX_DECISIONS = 2_000  # a random game takes about 130; far more would mean a loop

games = st.fixed_dictionaries(
    {
        "players": st.sampled_from([3, 4]),
        "seed": st.integers(0, 2**32 - 1),
        "choices": st.integers(0, 2**32 - 1),
        "layout": st.sampled_from(["first", "random"]),
        "characters": st.booleans(),
    }
)


def play(spec, check=True):
    """Play one random game; return the state and the decisions taken."""
    game = new_game(
        spec["players"], spec["seed"], layout=spec["layout"], characters=spec["characters"]
    )
    rng = random.Random(spec["choices"])
    taken = []
    assert violations(game) == []
    while not game.is_over:
        legal = game.legal_options()
        assert legal, f"no legal option but the game is not over: {game!r}"
        assert list(legal) == sorted(set(legal))
        option = rng.choice(legal)
        taken.append(option)
        game.apply(option)
        if check:
            assert violations(game) == [], f"after {game.option_text(option)}"
        assert len(taken) < MAX_DECISIONS
    return game, taken


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_r12_random_games_end_with_every_invariant_holding(spec):
    game, taken = play(spec)
    assert game.phase == P_OVER
    assert game.akhenaton_drawn  # R7.1: the game ends only after the Akhenaton card
    assert game.final is not None and len(game.final) == spec["players"]
    assert game.legal_options() == ()


@settings(max_examples=30, deadline=None)
@given(games)
def test_same_seed_and_decisions_replay_to_the_same_state(spec):
    game, taken = play(spec, check=False)
    again = new_game(
        spec["players"], spec["seed"], layout=spec["layout"], characters=spec["characters"]
    )
    for option in taken:
        again.apply(option)
    assert again.is_over
    assert again.state_hash() == game.state_hash()
    assert [b.total for b in again.final] == [b.total for b in game.final]


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 200))
def test_a_copy_plays_on_exactly_like_the_original(spec, cut):
    """copy() is complete: the random source and every field come along (what-if needs it)."""
    game, taken = play(spec, check=False)
    replay = new_game(
        spec["players"], spec["seed"], layout=spec["layout"], characters=spec["characters"]
    )
    cut = min(cut, len(taken))
    for option in taken[:cut]:
        replay.apply(option)
    before = whole_state(replay)
    twin = replay.copy()
    assert twin.state_hash() == replay.state_hash()
    for option in taken[cut:]:
        twin.apply(option)
    assert twin.state_hash() == game.state_hash()
    # The original it was copied from did not move: not a field, not its random source.
    assert whole_state(replay) == before


def whole_state(state) -> dict:
    """Every field of ``state`` (FIELDS) as an independent snapshot, its random source as its
    internal state, with the public key and the full key: equal snapshots, the same state."""
    fields = {
        f.name: getattr(state, f.name).getstate()
        if f.copy == RANDOM
        else copy.deepcopy(getattr(state, f.name))
        for f in FIELDS
    }
    return {"public_key": state.public_key(), "key": state.key(), "fields": fields}


def test_different_seeds_give_different_games():
    hashes = {new_game(4, seed).state_hash() for seed in range(20)}
    assert len(hashes) == 20


@pytest.mark.slow  # 300 games checked every step
def test_many_seeds_in_both_player_counts_without_a_violation():
    """A broader sweep than hypothesis runs: 150 games per player count, checked every step."""
    for players in (3, 4):
        for seed in range(150):
            spec = {
                "players": players,
                "seed": seed,
                "choices": seed * 7 + 1,
                "layout": "random" if seed % 2 else "first",
                "characters": seed % 5 != 0,
            }
            game, _ = play(spec)
            assert game.is_over
