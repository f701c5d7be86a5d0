"""The OpenSpiel game ``python_nefertiti`` (nefertiti_core/play/openspiel.py): OpenSpiel's own checks,
the chance distributions (R2.2, R2.7, R3.7, R3.8, R4, R6.7) read from the engine's chance nodes
(nefertiti_core/engine/chance.py), nothing hidden, and agreement with the engine.

``make test`` installs the bots extra, so nothing here skips."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pyspiel
import pytest

import nefertiti_core.play.openspiel as NO
from nefertiti_core.engine import chance as C
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.errors import NefertitiError, SetupError
from nefertiti_core.engine.invariants import violations
from nefertiti_core.engine.state import new_game
from nefertiti_core.teaching import status as S


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


def test_random_sim_test_checks_every_state_against_the_invariants():
    """OpenSpiel's harness with a state checker: every position it reaches (chance sampled by
    the engine's nodes) holds the R12 invariants and offers the engine's own options."""
    checked = []

    def check(state):
        eng = state.engine()
        if eng is not None and not state.is_chance_node():
            assert violations(eng) == []
            if not state.is_terminal():
                assert state.legal_actions() == list(eng.legal_options())
            checked.append(1)

    pyspiel.random_sim_test(
        load(4), num_sims=3, serialize=False, verbose=False, state_checker_fn=check
    )
    assert len(checked) > 100


def test_random_sim_test_from_a_position_of_a_real_game():
    """OpenSpiel's harness started at an engine position (state_from_engine), its rolls and
    draws then the engine's chance nodes."""
    engine = new_game(4, 3)
    rng = random.Random(0)
    for _ in range(30):
        engine.apply(rng.choice(engine.legal_options()))
    game = load(4)
    start = game.state_from_engine(engine, random.Random(1))
    pyspiel.random_sim_test_with_specific_initial_state(game, 3, start, serialize=False)


def test_the_default_is_four_players_and_the_game_type_is_honest():
    game = pyspiel.load_game(NO.GAME_NAME)
    assert game.num_players() == 4
    kind = game.get_type()
    # Every card is a chance node when it is drawn: no state holds an order nobody has seen.
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.num_distinct_actions() == 174
    assert game.max_chance_outcomes() == 36  # a roll of two dice (R3.7)
    assert int(pyspiel.PlayerId.CHANCE) == C.CHANCE_PLAYER  # the engine's name for it
    assert game.new_initial_state().current_player() == pyspiel.PlayerId.CHANCE


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
    """R2.7: each seat 1/n. R2.2: the cards come out of the box as chance.draw_outcomes deals
    them (the adapter deals the first twelve to the markets, R2.9, and draws the rest when a
    market reopens): every node sums to 1, the whole box comes out, the Akhenaton card never
    while more than five cards are left, and exactly 1/5 at each of the last five places."""
    game = load(players)
    deck = NO.DECK_SIZE[players]
    assert deck == R.TOTAL_GIFTS[players] + 1
    first = game.new_initial_state()
    assert first.chance_outcomes() == [(s, pytest.approx(1 / players)) for s in range(players)]
    rng = random.Random(players)
    for _ in range(200):
        order = []
        still_in = Fraction(1)  # the probability that the Akhenaton card is still in the deck
        for _ in range(deck):
            left = deck - len(order)
            outcomes = C.draw_outcomes(NO.undealt(players, tuple(order)))
            assert sum(o.probability for o in outcomes) == 1
            assert all(o.probability > 0 for o in outcomes)
            akhenaton = sum(o.probability for o in outcomes if o.value == R.AKHENATON)
            if R.AKHENATON not in order:
                assert akhenaton == (Fraction(1, left) if left <= 5 else 0)
                if left <= 5:
                    assert still_in * akhenaton == Fraction(1, 5)  # exactly 1/5 per place
                still_in *= 1 - akhenaton
            order.append(C.sample_value(outcomes, rng))
        assert deck - order.index(R.AKHENATON) <= 5
        assert Counter(order) == Counter(
            {k: c for k, c in enumerate(NO.BOX[players]) if c}
        )  # the whole box, and with 3 players no senet (R2.1)
    state = game.new_initial_state()
    state.apply_action(0)
    for _ in range(NO.MARKET_DEAL):
        assert state.is_chance_node()
        state.apply_action(sample(state, rng))
    assert not state.is_chance_node()  # twelve cards dealt (R2.9); the rest waits in the deck
    assert len(state.engine().deck) == deck - NO.MARKET_DEAL


def test_a_roll_is_one_chance_node_of_6_or_36_faces_read_from_the_engine():
    """R3.7: two dice, 36 outcomes of 1/36; R3.8: one die, 6 of 1/6. The node is the engine's
    (chance.py): its closing outcomes are status.louqsor_probability's, and the action
    completes once the roll is applied."""
    rng = random.Random(3)
    game = load(4)
    seen = Counter()
    for _ in range(40):
        state = deal(game.new_initial_state(), rng)
        while not state.is_terminal() and min(seen[1], seen[2]) < 4:
            node = state.core.pending
            if node is not None and node.kind == C.ROLL:
                dice = node.dice
                outcomes = state.chance_outcomes()
                assert [a for a, _ in outcomes] == list(range(6**dice))
                assert all(p == pytest.approx(6.0**-dice) for _, p in outcomes)
                closing = sum(o.probability for o in node.outcomes if o.closes)
                assert closing == S.louqsor_probability(node.stall_id, node.mask)
                assert node.mask  # a servant stands in Louqsor: the placer's, or the holder's
                assert "rolling after" in state.observation_string(0)
                seen[dice] += 1
                state.apply_action(sample(state, rng))
            elif state.is_chance_node():
                state.apply_action(sample(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if min(seen[1], seen[2]) >= 4:
            break
    assert seen[1] >= 4 and seen[2] >= 4


def test_a_refill_draws_card_by_card_as_chance_nodes_from_the_cards_left():
    """R6.7: a market reopening draws to four, each card a chance node over the cards left
    (R2.2, R12: the box minus every card seen; the Akhenaton card only among the last five)."""
    rng = random.Random(8)
    game = load(4)
    draws = akhenaton = 0
    for _ in range(10):
        state = deal(game.new_initial_state(), rng)
        while not state.is_terminal():
            node = state.core.pending
            if node is not None and node.kind == C.DRAW:
                left = Counter(state.engine().deck)  # the cards, before the action
                for kind, value in node.fixed:  # less the cards this action drew already
                    if kind == C.DRAW:
                        left[value] -= 1
                assert sum(left.values()) == node.deck_size
                outcomes = dict(state.chance_outcomes())
                assert sum(outcomes.values()) == pytest.approx(1.0, abs=1e-12)
                gifts = node.deck_size - left[R.AKHENATON]
                if node.deck_size > 5:
                    assert R.AKHENATON not in outcomes
                    assert outcomes == {
                        k: pytest.approx(left[k] / gifts) for k in range(R.NUM_KINDS) if left[k]
                    }
                elif left[R.AKHENATON]:
                    assert outcomes[R.AKHENATON] == pytest.approx(1 / node.deck_size)
                    akhenaton += 1
                action = sample(state, rng)
                text = state.action_to_string(pyspiel.PlayerId.CHANCE, action)
                assert text == "draw " + C.CARD_NAMES[action]
                draws += 1
                state.apply_action(action)
            elif state.is_chance_node():
                state.apply_action(sample(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert draws > 30 and akhenaton > 0


class Tape(list):
    """The engine's chance as it happens: ("die", face) and ("card", kind), in order."""


class RecordingRandom(random.Random):
    """The engine's random source, recording the dice it rolls after setup."""

    def __init__(self, seed, tape: Tape):
        super().__init__(seed)
        self.tape = tape

    def random(self):
        value = super().random()
        self.tape.append(("die", int(value * 6) + 1))  # GameState._roll
        return value


class RecordingDeck(list):
    """The engine's deck, recording the cards drawn from its top."""

    def __init__(self, cards, tape: Tape):
        super().__init__(cards)
        self.tape = tape

    def pop(self, *index):
        card = super().pop(*index)
        self.tape.append(("card", card))
        return card


@pytest.mark.parametrize("players", [3, 4])
def test_chance_nodes_come_exactly_where_the_seeded_engine_rolls_and_draws(players):
    """An engine game with its own seeded dice and deck, and the adapter fed the same market
    deal, dice, cards and choices, stay identical (the public position and the cards left); a
    chance node comes exactly where the engine rolled (one node per roll: R3.7, R3.8, R4.2) or
    drew (one per card: R6.7, R6.8), and nowhere else."""
    for seed in range(4):
        engine = new_game(players, seed)
        first = engine.turn_player
        order = [c for m in (R.GIZEH, R.AKHET_ATON, R.ABOU_SIMBEL) for c in engine.cards[m]]
        tape = Tape()
        engine.rng = RecordingRandom(seed, tape)
        engine.deck = RecordingDeck(engine.deck, tape)
        state = load(players).new_initial_state()
        state.apply_action(first)
        for card in order:
            state.apply_action(card)
        rng = random.Random(seed)
        rolls = draws = 0
        while True:
            assert not state.is_chance_node()
            assert state.engine().public_key() == engine.public_key()
            assert Counter(state.engine().deck) == Counter(engine.deck)
            if engine.is_over:
                assert state.is_terminal()
                break
            assert state.current_player() == engine.decider
            assert state.legal_actions() == list(engine.legal_options())
            option = rng.choice(engine.legal_options())
            engine.apply(option)
            state.apply_action(option)
            while tape:
                assert state.current_player() == pyspiel.PlayerId.CHANCE
                node = state.core.pending
                if tape[0][0] == "card":
                    assert node.kind == C.DRAW
                    action = tape.pop(0)[1]
                    draws += 1
                else:
                    assert node.kind == C.ROLL
                    dice = [tape.pop(0) for _ in range(node.dice)]
                    assert {kind for kind, _ in dice} == {"die"}
                    action = NO.roll_action(tuple(face for _, face in dice))
                    rolls += 1
                assert action in dict(state.chance_outcomes())
                state.apply_action(action)
        assert rolls > 0 and draws > 0
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


def test_nothing_is_hidden_and_no_deck_order_reaches_the_game():
    """R12: everything on the table is public, and the deck's order is drawn card by card as
    chance nodes, so a state is its own resample, and two engine positions that differ only in
    their deck order give the same observations, chance nodes and probabilities."""
    rng = random.Random(5)
    game = load(4)
    state = play_random(game.new_initial_state(), rng, decisions=25)
    while state.is_chance_node():
        state.apply_action(sample(state, rng))
    other = state.resample_from_infostate(
        state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0)
    )
    assert other.history() == state.history() and str(other) == str(state)
    engine = new_game(4, 11)
    play = random.Random(0)
    while True:  # on until an option meets a draw (a market reopens, R6.7)
        option = play.choice(engine.legal_options())
        node = C.chance_node(engine, option)
        while node is not None and node.kind == C.ROLL:
            node = C.chance_node(engine, option)  # the roll: fixed below by force_roll
            engine.force_roll(*node.outcomes[0].value)
            node = C.chance_node(engine, option)
        if node is not None:
            break
        engine.apply(option)
    a, b = (game.state_from_engine(engine, random.Random(seed)) for seed in (1, 2))
    assert a.engine().deck != b.engine().deck  # two orders of the same cards
    assert sorted(a.engine().deck) == sorted(engine.deck)
    for s in (a, b):
        s.apply_action(option)
        while s.core.pending.kind == C.ROLL:
            s.apply_action(s.chance_outcomes()[0][0])
        assert s.core.pending.kind == C.DRAW
    assert a.chance_outcomes() == b.chance_outcomes()
    assert a.observation_string(0) == b.observation_string(0)
    assert a.public_key() == b.public_key()
    assert str(a) == str(b)  # the deck order is in no string


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


def test_state_from_engine_keeps_the_position_not_the_deck_order():
    engine = new_game(4, 11)
    rng = random.Random(0)
    for _ in range(20):
        engine.apply_unchecked(rng.choice(engine.legal_options()))
    engine.force_roll(3)  # a teacher's fixed chance (R4.4) is not the game's business
    key = engine.key()
    game = load(4)
    a = game.state_from_engine(engine, random.Random(1))
    assert engine.key() == key  # the real state is not changed
    assert sorted(a.engine().deck) == sorted(engine.deck)
    assert a.engine().deck != engine.deck
    assert a.engine().forced_rolls == []
    assert a.legal_actions() == list(engine.legal_options())
    assert a.public_key() == game.state_from_engine(engine, random.Random(2)).public_key()
    with pytest.raises(NefertitiError, match="3-player position"):
        game.state_from_engine(new_game(3, 1), rng)


def test_only_the_openspiel_module_imports_pyspiel():
    """Importing the engine does not import OpenSpiel; the adapter registers the game."""
    import subprocess
    import sys

    code = (
        "import sys, nefertiti_core, nefertiti_core.play.bots, nefertiti_core.play.simulate;"
        "assert 'pyspiel' not in sys.modules and 'numpy' not in sys.modules;"
        "import nefertiti_core.play.openspiel, pyspiel;"
        "assert 'python_nefertiti' in pyspiel.registered_names()"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("players", [3, 4])
def test_sampled_chance_gives_legal_positions_that_keep_every_invariant(players):
    """Many games with every chance node sampled by its probabilities: every position reached
    holds the R12 invariants, its legal actions are the engine's, and every action a chance
    node lists can be applied (each outcome of the node tried on a clone)."""
    rng = random.Random(100 + players)
    game = load(players)
    for _ in range(8):
        state = deal(game.new_initial_state(), rng)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
                for action, _ in outcomes[:: max(1, len(outcomes) // 6)]:
                    clone = state.clone()
                    clone.apply_action(action)
                    if not clone.is_chance_node():
                        assert violations(clone.engine()) == []
                state.apply_action(sample(state, rng))
            else:
                assert violations(state.engine()) == []
                assert state.legal_actions() == list(state.engine().legal_options())
                state.apply_action(rng.choice(state.legal_actions()))
        assert violations(state.engine()) == []
        assert sum(state.returns()) == pytest.approx(1.0)
