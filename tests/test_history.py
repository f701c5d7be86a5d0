"""History and what-if: undo, redo, jump, branches, comparisons, records that replay exactly."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nefertiti_core import IllegalOptionError, new_game
from nefertiti_core.files import staging as S
from nefertiti_core.files.history import GameRecord, History, HistoryError, record_from_data
from nefertiti_core.files.scenario import ScenarioError
from nefertiti_core.files.yaml_subset import loads


def played(steps=30, seed=4, players=4):
    history = History(new_game(players, seed))
    rng = random.Random(seed)
    for _ in range(steps):
        history.play(rng.choice(history.state.legal_options()))
    return history, rng


def test_undo_and_redo_walk_back_and_forth_exactly():
    history, _ = played(25)
    hashes = [history.jump(i).state_hash() for i in range(26)]
    history.jump(25)
    for i in range(24, -1, -1):
        assert history.undo().state_hash() == hashes[i]
    with pytest.raises(HistoryError, match="nothing to undo"):
        history.undo()
    for i in range(1, 26):
        assert history.redo().state_hash() == hashes[i]
    with pytest.raises(HistoryError, match="nothing to redo"):
        history.redo()


def test_jump_to_any_step_and_back():
    history, _ = played(30)
    tip = history.state.state_hash()
    tenth = history.jump(10).state_hash()
    assert history.step == 10
    assert history.jump(-1).state_hash() == tip
    assert history.jump(10).state_hash() == tenth
    with pytest.raises(HistoryError, match="steps 0 to 30"):
        history.jump(31)


def test_a_different_step_behind_the_tip_starts_a_branch_and_keeps_the_old_line():
    history, rng = played(20)
    old_steps = history.steps()
    history.jump(10)
    replay_same = history.play(old_steps[10])  # the same step: just a redo
    assert history.branch == "main" and history.step == 11
    history.jump(10)
    options = [
        o for o in history.state.legal_options() if history.state.option_text(o) != old_steps[10]
    ]
    history.play(options[0])
    assert history.branch == "main-2"
    assert history.steps("main") == old_steps  # nothing thrown away
    assert history.steps("main-2")[:10] == old_steps[:10]
    assert history.length("main-2") == 11
    assert replay_same is not None


def test_named_branches_switch_rename_delete():
    history, rng = played(12)
    history.new_branch("what if red skips", at=5)
    assert history.step == 5 and history.branch == "what if red skips"
    history.play(history.state.legal_options()[0])
    history.switch("main")
    assert history.step == 12
    history.rename("what if red skips", "skip")
    assert set(history.branches) == {"main", "skip"}
    with pytest.raises(HistoryError, match="already exists"):
        history.new_branch("skip")
    with pytest.raises(HistoryError, match="no branch called 'nope'; the branches are: main, skip"):
        history.switch("nope")
    history.delete("skip")
    assert history.branches == ["main"]
    with pytest.raises(HistoryError, match="last branch"):
        history.delete("main")


def test_an_illegal_step_is_refused_and_the_history_is_unchanged():
    history, _ = played(5)
    before = (history.state.state_hash(), history.step, history.length(), history.branches)
    with pytest.raises(IllegalOptionError):
        history.play("close gizeh")
    with pytest.raises(Exception, match="dice show 1 to 6"):
        history.play("roll 9")
    assert (history.state.state_hash(), history.step, history.length(), history.branches) == before


def test_forcing_a_roll_is_a_step_of_the_history():  # R4.4
    game = new_game(4, 1, first_player=0)
    S.set_tile(game, "gizeh")
    S.set_stall(game, "louqsor", "left", "open")
    S.put_servant(game, 1, "louqsor", 1)  # the 2
    S.start_turn(game, 0)
    history = History(game)
    history.play("roll 2 2")
    history.play("place louqsor.left#2")
    assert history.state.status[3] == 1  # closed: both dice show the occupied 2 (R3.7)
    history.jump(0)
    history.play("roll 5 6")
    history.play("place louqsor.left#2")
    assert history.branch == "main-2" and history.state.status[3] == 0  # 5 and 6: still open
    assert history.steps("main") == ["roll 2 2", "place louqsor.left#2"]


def test_compare_two_branches_scores_deben_gifts_and_leaders():
    history, rng = played(40, seed=9)
    history.new_branch("alt", at=20)
    for _ in range(20):
        history.play(rng.choice(history.state.legal_options()))
    comparison = history.compare("main", "alt")
    assert comparison.branches == ("main", "alt") and comparison.steps == (40, 40)
    main_state = history.switch("main")
    from nefertiti_core.engine.scoring import totals

    assert [p.scores[0] for p in comparison.players] == totals(main_state)
    assert [p.deben[0] for p in comparison.players] == main_state.deben
    assert all(isinstance(p.gifts[1], dict) for p in comparison.players)
    assert len(comparison.leaders[0]) >= 1


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([3, 4]), st.integers(0, 150))
def test_a_record_written_and_read_back_replays_to_the_same_state(seed, players, steps):
    history = History(new_game(players, seed, layout="random"))
    rng = random.Random(seed)
    for i in range(steps):
        if history.state.is_over:
            break
        if i % 17 == 5 and history.state.status[3] == 0:
            history.play(f"roll {rng.randint(1, 6)} {rng.randint(1, 6)}")
        history.play(rng.choice(history.state.legal_options()))
    text = history.record().dumps()
    doc = loads(text)
    replayed = record_from_data(doc.data, "game.yaml", doc).replay()
    assert replayed.state.state_hash() == history.state.state_hash()


def test_a_record_with_an_illegal_move_names_the_move():
    record = GameRecord(new_game(4, 2), ["place gizeh.left#0", "place gizeh.left#0"])
    with pytest.raises(ScenarioError, match=r"game.yaml: moves.1: 'place gizeh.left#0' is not"):
        record.replay(source="game.yaml")


def test_a_broken_record_start_names_the_nested_path():
    text = "nefertiti_record: 1\nstart:\n  nefertiti: 1\n  players: [{colour: red}]\nmoves: []\n"
    doc = loads(text)
    with pytest.raises(ScenarioError) as refused:
        record_from_data(doc.data, "game.yaml", doc)
    assert refused.value.path == ("start", "players")
    assert "line 4" in str(refused.value)
