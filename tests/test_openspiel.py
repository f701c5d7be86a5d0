"""The OpenSpiel game ``python_nefertiti`` (nefertiti_core/openspiel.py): OpenSpiel's own checks,
the chance distributions (R2.2, R2.7, R4), the hidden deck order, and agreement with the engine.

``make test`` installs the bots extra, so nothing here skips."""

from __future__ import annotations

import random
from collections import Counter

import pyspiel
import pytest

import nefertiti_core.openspiel as NO
from nefertiti_core import rules as R
from nefertiti_core.errors import NefertitiError, SetupError
from nefertiti_core.state import new_game


def load(players: int = 4):
    return pyspiel.load_game(NO.GAME_NAME, {"players": players})


def sample(state, rng: random.Random) -> int:
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    return rng.choices(outcomes, probs)[0]


def play_random(state, rng: random.Random, decisions: int | None = None):
    """Random actions (chance by its distribution) until the end or ``decisions`` decisions."""
    done = 0
    while not state.is_terminal() and (decisions is None or done < decisions):
        if state.is_chance_node():
            state.apply_action(sample(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return state


def deal(state, rng: random.Random):
    while state.is_chance_node():
        state.apply_action(sample(state, rng))
    return state


@pytest.mark.parametrize("players", [3, 4])
def test_openspiel_random_sim_test_with_serialization(players):
    game = load(players)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=12, serialize=True, verbose=False)


def test_the_default_is_four_players_and_the_game_type_is_honest():
    game = pyspiel.load_game(NO.GAME_NAME)
    assert game.num_players() == 4
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.num_distinct_actions() == 174
    assert game.max_chance_outcomes() == 9


@pytest.mark.parametrize("players", [2, 5, 0])
def test_a_wrong_players_parameter_is_refused_with_a_clear_message(players):
    with pytest.raises(SetupError, match=r"players must be 3 or 4 \(R1.1\), not " + str(players)):
        load(players)


def test_the_declared_bounds_hold_with_a_margin_over_random_games():
    """max_game_length counts decisions, max_chance_nodes_in_history the chance nodes."""
    rng = random.Random(7)
    for players in (3, 4):
        game = load(players)
        for _ in range(3):
            state = play_random(game.new_initial_state(), rng)
            decisions = sum(1 for item in state.full_history() if item.player >= 0)
            chance = len(state.history()) - decisions
            assert decisions * 2 < game.max_game_length()
            assert chance < game.max_chance_nodes_in_history()
            assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("players", [3, 4])
def test_the_first_player_is_uniform_and_the_deal_respects_the_bottom_five(players):
    """R2.7: each seat 1/n. R2.2: every chance node sums to 1 and, over thousands of sampled
    setups, the Akhenaton card is never dealt while more than five cards are left, and comes
    out at each of the last five places about as often."""
    game = load(players)
    deck = NO._DECK_SIZE[players]
    assert deck == R.TOTAL_GIFTS[players] + 1
    first = game.new_initial_state()
    assert first.chance_outcomes() == [(s, pytest.approx(1 / players)) for s in range(players)]
    rng = random.Random(players)
    place = Counter()
    setups = 2000
    for _ in range(setups):
        order = []
        for _ in range(deck):
            outcomes = NO._deal_outcomes(players, tuple(order))
            assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
            assert all(p > 0 for _, p in outcomes)
            kinds, probs = zip(*outcomes, strict=True)
            order.append(rng.choices(kinds, probs)[0])
        left_when_dealt = deck - order.index(R.AKHENATON)
        assert left_when_dealt <= 5
        place[left_when_dealt] += 1
        assert Counter(order) == Counter(
            {k: c for k, c in enumerate(NO._BOX[players]) if c}
        )  # the whole box, and with 3 players no senet (R2.1)
    assert sorted(place) == [1, 2, 3, 4, 5]
    assert all(abs(count / setups - 0.2) < 0.04 for count in place.values())


def test_a_die_is_a_chance_node_with_six_equal_faces_and_the_action_completes():
    rng = random.Random(3)
    game = load(4)
    seen = 0
    for _ in range(20):
        state = deal(game.new_initial_state(), rng)
        while not state.is_terminal() and seen < 5:
            if state.is_chance_node():
                assert state.chance_outcomes() == [(f, pytest.approx(1 / 6)) for f in range(6)]
                assert state._c.pending is not None
                assert "rolling for" in state.observation_string(0)
                seen += 1
                state.apply_action(sample(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if seen >= 5:
            break
    assert seen >= 5


class RecordingRandom(random.Random):
    """The engine's random source, recording the dice it rolls after setup."""

    def __init__(self, seed):
        super().__init__(seed)
        self.dice = []

    def random(self):
        value = super().random()
        self.dice.append(int(value * 6) + 1)  # GameState._roll
        return value


def public_key(engine):
    key = list(engine.key())
    del key[-1]  # the random source
    return key


@pytest.mark.parametrize("players", [3, 4])
def test_legal_actions_and_positions_equal_the_engines(players):
    """An engine game and the adapter fed the same deal, dice and choices stay identical: the
    deal fills the markets as R2.9 does and the dice come in the engine's order."""
    for seed in range(4):
        engine = new_game(players, seed)
        first = engine.turn_player
        order = [c for m in (R.GIZEH, R.AKHET_ATON, R.ABOU_SIMBEL) for c in engine.cards[m]]
        order += engine.deck[::-1]
        engine.rng = RecordingRandom(seed)
        state = load(players).new_initial_state()
        state.apply_action(first)
        for card in order:
            state.apply_action(card)
        rng = random.Random(seed)
        while True:
            assert not state.is_chance_node()
            assert public_key(state.engine()) == public_key(engine)
            if engine.is_over:
                assert state.is_terminal()
                break
            assert state.current_player() == engine.decider
            assert state.legal_actions() == list(engine.legal_options())
            option = rng.choice(engine.legal_options())
            engine.apply(option)
            state.apply_action(option)
            for die in engine.rng.dice:
                state.apply_action(die - 1)
            engine.rng.dice.clear()
        winners = set(NO.winners(engine))
        assert state.returns() == [
            1 / len(winners) if p in winners else 0.0 for p in range(players)
        ]


def test_action_strings_use_the_move_notation():
    state = deal(load(4).new_initial_state(), random.Random(1))
    for action in state.legal_actions():
        assert state.action_to_string(state.current_player(), action) == (
            state.engine().option_text(action)
        )
    fresh = load(4).new_initial_state()
    assert fresh.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "first player blue"


def test_observation_and_information_state_do_not_show_the_deck_order():
    rng = random.Random(5)
    game = load(4)
    state = play_random(game.new_initial_state(), rng, decisions=25)
    while state.is_chance_node():
        state.apply_action(sample(state, rng))
    deck = list(state.engine().deck)
    other = state.resample_from_infostate(
        state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0)
    )
    assert other.engine().deck != deck  # a new order (47 cards: equal by chance never)
    assert sorted(other.engine().deck) == sorted(deck)
    assert state.engine().deck == deck  # the original is untouched
    for p in range(4):
        assert other.observation_string(p) == state.observation_string(p)
        assert other.information_state_string(p) == state.information_state_string(p)
    assert other.legal_actions() == state.legal_actions()
    assert other.current_player() == state.current_player()
    # The resample's history is a real one: replaying it gives the resampled deck.
    replay = game.new_initial_state()
    for action in other.history():
        replay.apply_action(action)
    assert replay.engine().deck == other.engine().deck
    assert " ".join(str(c) for c in deck[::-1]) not in state.observation_string(0)


def test_clones_are_independent_and_serialization_round_trips():
    rng = random.Random(9)
    game = load(3)
    state = play_random(game.new_initial_state(), rng, decisions=30)
    clone = state.clone()
    before = str(state)
    play_random(clone, rng, decisions=10)
    assert str(state) == before
    assert clone.history()[: len(state.history())] == state.history()
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state)
    assert game2.num_players() == 3


def test_state_from_engine_redraws_the_hidden_order():
    engine = new_game(4, 11)
    rng = random.Random(0)
    for _ in range(20):
        engine.apply_unchecked(rng.choice(engine.legal_options()))
    key = engine.key()
    game = load(4)
    a = game.state_from_engine(engine, random.Random(1))
    assert engine.key() == key  # the real state is not changed
    assert sorted(a.engine().deck) == sorted(engine.deck)
    assert a.engine().deck != engine.deck
    assert a.engine().deck.index(R.AKHENATON) < 5  # still among the bottom five (R2.2)
    assert a.legal_actions() == list(engine.legal_options())
    assert a._public_key() == game.state_from_engine(engine, random.Random(2))._public_key()
    with pytest.raises(NefertitiError, match="3-player position"):
        game.state_from_engine(new_game(3, 1), rng)


def test_only_the_openspiel_module_imports_pyspiel():
    """Importing the engine does not import OpenSpiel; the adapter registers the game."""
    import subprocess
    import sys

    code = (
        "import sys, nefertiti_core, nefertiti_core.bots, nefertiti_core.simulate;"
        "assert 'pyspiel' not in sys.modules and 'numpy' not in sys.modules;"
        "import nefertiti_core.openspiel, pyspiel;"
        "assert 'python_nefertiti' in pyspiel.registered_names()"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
