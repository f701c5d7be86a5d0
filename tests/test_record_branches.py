"""Whole game records (format 2): every branch, the current branch and step, the seats.

A history with branches is written with ``History.whole_record()`` and read back with
``record_from_data(...).replay()``: the same branches in the same order, each with the same steps
and the same states, at the same branch and step. Old one-line records still load.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nefertiti_core import new_game
from nefertiti_core.files.history import History, HistoryError, record_from_data
from nefertiti_core.files.scenario import ScenarioError
from nefertiti_core.files.yaml_subset import loads


def random_history(seed: int, actions: int = 60, players: int = 4) -> History:
    """Random play with what a learner does around it: undo, jump back and play something else
    (a new branch by itself), name a branch at a step, switch, rename, delete."""
    rng = random.Random(seed)
    history = History(new_game(players, seed % 7, record_events=True))
    names = 0
    for _ in range(actions):
        roll = rng.random()
        try:
            if roll < 0.6 or history.step == 0:
                if history.state.is_over:
                    history.undo()
                    continue
                history.play(rng.choice(history.state.legal_options()))
            elif roll < 0.72:
                history.jump(rng.randrange(history.length() + 1))
            elif roll < 0.8:
                names += 1
                history.new_branch(f"idea {names}", at=rng.randrange(history.length() + 1))
            elif roll < 0.88:
                history.switch(rng.choice(history.branches))
            elif roll < 0.92:
                names += 1
                history.rename(rng.choice(history.branches), f"renamed {names}")
            elif roll < 0.95 and len(history.branches) > 1:
                history.delete(rng.choice(history.branches))
            else:
                history.undo()
        except HistoryError:
            pass
    return history


def round_trip(history: History, **extra) -> tuple[History, object]:
    text = history.whole_record(**extra).dumps()
    doc = loads(text)
    record = record_from_data(doc.data, "game.yaml", doc)
    return record.replay(source="game.yaml"), record


def assert_same(a: History, b: History) -> None:
    assert b.branches == a.branches
    assert (b.branch, b.step) == (a.branch, a.step)
    assert b.state.public_key() == a.state.public_key()
    assert b.state.state_hash() == a.state.state_hash()
    for name in a.branches:
        assert b.steps(name) == a.steps(name), name
        for (_, before_a, after_a, _), (_, before_b, after_b, _) in zip(
            a.transitions(name), b.transitions(name), strict=True
        ):
            assert before_b.public_key() == before_a.public_key()
            assert after_b.public_key() == after_a.public_key()
    # the tree itself: the steps two branches share are the same nodes after loading too
    for x in a.branches:
        for y in a.branches:
            shared_a = len(set(a.line(x)) & set(a.line(y)))
            assert len(set(b.line(x)) & set(b.line(y))) == shared_a, (x, y)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(10, 90))
def test_whole_record_gives_back_every_branch_and_the_current_position(seed, actions):
    history = random_history(seed, actions, players=3 + seed % 2)
    loaded, _ = round_trip(history)
    assert_same(history, loaded)


@pytest.mark.slow  # many games
def test_many_random_games_with_many_branches_round_trip():
    branched = 0
    for seed in range(40):
        history = random_history(seed, 120)
        branched += len(history.branches) > 2
        loaded, _ = round_trip(history)
        assert_same(history, loaded)
        # the loaded history goes on like the original: the same step plays the same way
        if not history.state.is_over:
            option = history.state.legal_options()[0]
            assert loaded.play(option).public_key() == history.play(option).public_key()
            assert (loaded.branch, loaded.branches) == (history.branch, history.branches)
    assert branched >= 20  # the games really had branches


def test_seats_and_bot_seed_are_kept():
    history = random_history(3, 40)
    loaded, record = round_trip(history, seats=["human", "greedy", "random", "human"], bot_seed=7)
    assert record.seats == ["human", "greedy", "random", "human"]
    assert record.bot_seed == 7
    assert_same(history, loaded)


def test_record_steps_are_the_current_branch_for_the_command_line():
    history = random_history(11, 80)
    _, record = round_trip(history)
    assert record.steps == history.steps()


def test_a_branch_made_at_an_existing_step_shares_all_its_steps():
    history = History(new_game(4, 0))
    for _ in range(6):
        history.play(history.state.legal_options()[0])
    history.new_branch("what if", at=3)
    text = history.whole_record().dumps()
    assert "from: {branch: main, step: 3}" in text
    loaded, _ = round_trip(history)
    assert_same(history, loaded)
    assert (loaded.branch, loaded.step) == ("what if", 3)


def test_one_line_records_still_load_as_format_1():
    history = random_history(5, 50)
    text = history.record().dumps()
    assert "nefertiti_record: 1" in text and "branches" not in text
    doc = loads(text)
    record = record_from_data(doc.data, "old.yaml", doc)
    assert record.branches is None
    assert record.replay().steps() == history.steps()


BASE = """nefertiti_record: 2
start:
  nefertiti: 1
  seed: 1
  players: [{colour: green}, {colour: red}, {colour: blue}, {colour: black}]
"""


@pytest.mark.parametrize(
    "tail, where, says",
    [
        ("branches: []\n", "branches", "list of"),
        ("branches:\n  - {name: main, moves: [nonsense]}\n", "branches.0.moves.0", "nonsense"),
        (
            "branches:\n  - {name: a, moves: []}\n  - {name: b, from: {branch: zz, step: 0}}\n",
            "branches.1.from.branch",
            "not a branch listed before",
        ),
        (
            "branches:\n  - {name: a, moves: []}\n  - {name: b, from: {branch: a, step: 3}}\n",
            "branches.1.from.step",
            "steps 0 to 0",
        ),
        (
            "branches:\n  - {name: a, moves: []}\n  - {name: a, from: {branch: a, step: 0}}\n",
            "branches.1.name",
            "already listed",
        ),
        ("moves: []\ncurrent: {branch: side, step: 0}\n", "current.branch", "no branch"),
        ("moves: []\ncurrent: {branch: main, step: 4}\n", "current.step", "steps 0 to 0"),
        ("seats: [human, human]\n", "seats", "list of 4"),
        ("seats: [human, human, wizard, human]\n", "seats.2", "not a seat kind"),
        ("bot_seed: -1\n", "bot_seed", "whole number"),
        ("moves: []\nbranches:\n  - {name: a}\n", "moves", "not both"),
        ("colour: red\n", "colour", "unknown field"),
    ],
)
def test_broken_whole_records_are_refused_with_their_place(tail, where, says):
    text = BASE + tail
    doc = loads(text)
    with pytest.raises(ScenarioError) as caught:
        record_from_data(doc.data, "bad.yaml", doc).replay(source="bad.yaml")
    message = str(caught.value)
    assert where in message and says in message and "\n" not in message


def test_format_3_is_refused():
    doc = loads(BASE.replace("record: 2", "record: 3"))
    with pytest.raises(ScenarioError, match="record format 3 is not 1 or 2"):
        record_from_data(doc.data, "new.yaml", doc)
