"""The greedy bot is deterministic: for the same seeds it chooses exactly what it chose before
its evaluation was made incremental (#15). ``tests/data/greedy_choices.json`` holds every choice
of 20 seeded greedy-only games, recorded on the code before the change (its commit is in the
file); any change of the bot's judgement shows here as the first decision that differs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nefertiti_core.bots import GreedyBot
from nefertiti_core.state import new_game

GOLDEN = json.loads((Path(__file__).parent / "data" / "greedy_choices.json").read_text())


def test_the_recording_covers_what_it_claims():
    games = GOLDEN["games"]
    assert len(games) == 20
    assert {g["players"] for g in games} == {3, 4}
    assert all(len(g["choices"]) > 50 for g in games)


@pytest.mark.parametrize("game", GOLDEN["games"], ids=lambda g: f"{g['players']}p-seed{g['seed']}")
def test_greedy_chooses_as_recorded(game):
    state = new_game(game["players"], game["seed"], **game["options"])
    bots = [GreedyBot(seed=game["seed"] * 10 + i) for i in range(game["players"])]
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
