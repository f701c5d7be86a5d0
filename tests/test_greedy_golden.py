"""The greedy bot is deterministic: for the same seeds it chooses exactly what it chose before
its evaluation was made incremental (#15). ``tests/data/greedy_choices.json`` holds every choice
of 20 seeded greedy-only games, recorded on the code before the change (its commit is in the
file); any change of the bot's judgement shows here as the first decision that differs."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from nefertiti_core.engine.state import new_game
from nefertiti_core.play.bots import GreedyBot

GOLDEN = json.loads((Path(__file__).parent / "data" / "greedy_choices.json").read_text())


def test_the_recording_covers_what_it_claims():
    games = GOLDEN["games"]
    assert len(games) == 20
    assert {g["players"] for g in games} == {3, 4}
    assert all(len(g["choices"]) > 50 for g in games)


@pytest.mark.parametrize("game", GOLDEN["games"], ids=lambda g: f"{g['players']}p-seed{g['seed']}")
def test_greedy_chooses_as_recorded(game):
    state = new_game(game["players"], game["seed"], **game["options"])
    bots = [GreedyBot(seed=game["seed"] * 10 + i, exact=True) for i in range(game["players"])]
    for step, recorded in enumerate(game["choices"]):
        assert not state.is_over, f"the game ended early, before decision {step}"
        chosen = bots[state.decider].choose(state)
        assert chosen == recorded, (
            f"decision {step}: chose {state.option_text(chosen)!r}, "
            f"recorded {state.option_text(recorded)!r}"
        )
        state.apply(chosen)
    assert state.is_over
    assert [b.total for b in state.final] == game["final"]
    assert state.state_hash() == game["hash"]


def _placing_positions():
    out = []
    for seed in (7, 8, 9):
        state = new_game(4 - seed % 2, seed, layout="random")
        bots = [GreedyBot(seed=seed + i, exact=True) for i in range(state.n)]
        while not state.is_over:
            if state.phase in ("turn", "place") and state.decisions % 12 == 0:
                out.append(state.copy())
            state.apply(bots[state.decider].choose(state))
    return out


def test_a_placement_scored_in_place_equals_the_one_played_on_a_copy(monkeypatch):
    """The look-ahead's shortcut (a placement that closes nothing is scored on the position and
    undone, only its market evaluated again) gives the very values of applying it to a copy."""
    from nefertiti_core.engine import options as O
    from nefertiti_core.play import bots as B

    shortcut = 0
    for state in _placing_positions():
        places = [o for o in state.legal if O.OPTION_KIND[o] == O.PLACE]
        for depth in (1, 2):
            base = B.public_copy(state, random.Random(1))
            before = base.key()
            search = B.Search(B.Evaluator(base), state.decider, depth, exact=True)
            fast = {o: search.option(base, o, depth) for o in places}
            assert base.key() == before  # the position is left as it was
            shortcut += sum(
                search.placement(base, o, depth, None) is not None
                for o in places
                if B.chances(base, o) is B.NO_ROLL
            )
            with monkeypatch.context() as m:
                m.setattr(B.Search, "placement", lambda *a, **k: None)
                slow_search = B.Search(B.Evaluator(base), state.decider, depth, exact=True)
                slow = {o: slow_search.option(base, o, depth) for o in places}
            assert fast == slow
    assert shortcut > 80  # the shortcut was taken, not only the copies


def test_the_worth_table_holds_card_worth_exactly():
    from nefertiti_core.play.bots import Evaluator

    for state in _placing_positions()[::4]:
        counts = Evaluator.counts(state)
        holders = [sum(map(bool, column)) for column in zip(*counts, strict=True)]
        table = Evaluator.worth_table(state, holders, counts)
        for seat in range(state.n):
            for kind in range(8):
                expected = Evaluator.card_worth(state, holders, counts, seat, kind)
                assert table[seat][kind] == expected and type(table[seat][kind]) is type(expected)


def test_the_look_ahead_dice_source_is_random_seeded_when_first_used():
    from nefertiti_core.play.bots import SeededLater

    lazy, real = SeededLater(12345), random.Random(12345)
    assert [lazy.random() for _ in range(5)] == [real.random() for _ in range(5)]
    assert lazy.getstate() == real.getstate()  # any other method reaches the real source
