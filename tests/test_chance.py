"""Chance as a node (nefertiti_core/engine/chance.py): Louqsor's rolls (R3.7, R3.8, R4.2) and the cards
drawn when a market reopens (R6.7, R6.8, R2.2) as the engine's chance nodes, with exact odds that
the status lines, the previews and the odds read too."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from nefertiti_core.engine import chance as C
from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.errors import ArgumentError, IllegalOptionError
from nefertiti_core.engine.invariants import violations
from nefertiti_core.engine.state import P_REROLL, new_game
from nefertiti_core.files.history import History
from nefertiti_core.play.odds import odds
from nefertiti_core.teaching import status as S

LEFT, RIGHT = C.LOUQSOR_LEFT, C.LOUQSOR_RIGHT


# ---------------------------------------------------------------------- rolls: exact counts
def brute_force_closes(stall_id: int, mask: int, roll: tuple[int, ...]) -> bool:
    """R3.7/R3.8 read straight off the stall's squares, without the engine's tables."""
    values = sorted(sq.value for sq in R.STALLS[stall_id].squares if mask >> sq.index & 1)
    if stall_id == LEFT:
        return all(d in values for d in roll)
    longest = run = 0
    for i, v in enumerate(values):
        run = run + 1 if i and v == values[i - 1] + 1 else 1
        longest = max(longest, run)
    return roll[0] <= longest


@pytest.mark.parametrize("stall_id", [LEFT, RIGHT])
def test_every_roll_node_sums_to_one_and_matches_the_exhaustive_enumeration(stall_id):
    """For every occupancy of both Louqsor stalls (2**7 each), with no die fixed and with each
    first die fixed (R4.4): the outcomes are all rolls of the free dice, each 1/6**free, and
    the closing ones are exactly the brute-force count, which is louqsor_probability."""
    dice = C.dice_of(stall_id)
    assert dice == (2 if stall_id == LEFT else 1)
    squares = len(R.STALLS[stall_id].squares)
    for mask in range(1 << squares):
        for given in [(), *((d,) for d in range(1, 7))]:
            given = given[:dice]
            outcomes = C.roll_outcomes(stall_id, mask, given)
            free = dice - len(given)
            rolls = list(itertools.product(range(1, 7), repeat=free))
            assert [o.value for o in outcomes] == rolls
            assert all(o.probability == Fraction(1, 6**free) for o in outcomes)
            assert sum(o.probability for o in outcomes) == 1
            closing = [r for r in rolls if brute_force_closes(stall_id, mask, given + r)]
            assert [o.value for o in outcomes if o.closes] == closing
            exact = Fraction(len(closing), len(rolls))
            assert C.closing_probability(stall_id, mask, given) == exact
            assert S.louqsor_probability(stall_id, mask, given) == exact
            assert S.louqsor_outcomes(stall_id, mask, given) == [(r, r in closing) for r in rolls]


def test_known_roll_odds_in_rulebook_numbers():
    """R3.7: values 1-3 occupied on the left stall: both dice in 1-3, 9/36. R3.8: a run of
    three on the right stall: a die at most 3, 1/2."""
    left = sum(1 << sq.index for sq in R.STALLS[LEFT].squares if sq.value in (1, 2, 3))
    assert C.closing_probability(LEFT, left) == Fraction(9, 36)
    right = sum(1 << sq.index for sq in R.STALLS[RIGHT].squares if sq.value in (4, 5, 6))
    assert C.closing_probability(RIGHT, right) == Fraction(1, 2)


def test_only_louqsor_rolls_and_bad_dice_are_refused():
    with pytest.raises(ArgumentError, match=r"only Louqsor's stalls roll dice"):
        C.roll_outcomes(0, 0)
    with pytest.raises(ArgumentError, match=r"a die shows 1 to 6, not 7"):
        C.roll_outcomes(LEFT, 0, (7,))
    with pytest.raises(ArgumentError, match=r"a mask of its squares"):
        C.roll_outcomes(RIGHT, 1 << 9)


# ---------------------------------------------------------------------- draws: exact counts
def enumerate_top(deck: list[int]) -> Counter:
    """The top card over every order the players cannot rule out, each equally likely: the
    gifts in any order, the Akhenaton card at any of the bottom five places (R2.2)."""
    gifts = [c for c in deck if c != R.AKHENATON]
    tops: Counter = Counter()
    places = range(min(5, len(deck))) if R.AKHENATON in deck else [None]
    for order in itertools.permutations(range(len(gifts))):
        for place in places:
            full = [gifts[i] for i in order]
            if place is not None:
                full.insert(place, R.AKHENATON)
            tops[full[-1]] += 1
    return tops


@pytest.mark.parametrize(
    "deck",
    [
        [R.AKHENATON, 0, 0, 1, 2, 2, 2],  # 7 cards: the Akhenaton card cannot be on top
        [R.AKHENATON, 3, 3, 4],  # 4 cards: it can, 1 in 4
        [5, R.AKHENATON, 6, 6, 7],  # 5 cards
        [0, 1, 1, 2],  # no Akhenaton card left
    ],
)
def test_draw_odds_match_every_order_the_players_cannot_rule_out(deck):
    outcomes = C.draw_outcomes(deck)
    assert sum(o.probability for o in outcomes) == 1
    tops = enumerate_top(deck)
    total = sum(tops.values())
    assert {o.value: o.probability for o in outcomes} == {
        kind: Fraction(count, total) for kind, count in tops.items()
    }
    # The order of the deck is not read (R12): any order of the same cards, same odds.
    shuffled = deck[:1] + sorted(deck[1:], reverse=True) if deck[0] == R.AKHENATON else deck[::-1]
    assert C.draw_outcomes(shuffled) == outcomes


def test_a_staged_akhenaton_card_above_the_bottom_five_keeps_its_known_place():
    """A scenario can put the Akhenaton card higher (deck.reshuffled keeps it there)."""
    on_top = [0, 1, 2, 3, 4, 5, R.AKHENATON]
    assert C.draw_outcomes(on_top) == (C.Outcome(R.AKHENATON, Fraction(1)),)
    below_top = [0, 1, 2, 3, 4, R.AKHENATON, 5]
    assert R.AKHENATON not in [o.value for o in C.draw_outcomes(below_top)]


# ---------------------------------------------------------------------- nodes in real games
class Tape(list):
    """The engine's chance as it happens: ("roll", face) and ("draw", kind), in order."""


class RecordingRandom(random.Random):
    def __init__(self, seed, tape):
        super().__init__(seed)
        self.tape = tape

    def random(self):
        value = super().random()
        self.tape.append((C.ROLL, int(value * 6) + 1))  # GameState._roll
        return value


class RecordingDeck(list):
    def __init__(self, cards, tape):
        super().__init__(cards)
        self.tape = tape

    def pop(self, *index):
        card = super().pop(*index)
        self.tape.append((C.DRAW, card))
        return card


def recorded(state, option):
    """``option`` applied on a copy with the engine's own chance: (the copy, the chance used)."""
    tape = Tape()
    copy = state.copy()
    copy.rng = RecordingRandom(0, tape)
    copy.rng.setstate(state.rng.getstate())
    copy.deck = RecordingDeck(copy.deck, tape)
    copy.apply(option)
    return copy, tape


@pytest.mark.parametrize("players", [3, 4])
def test_a_chance_node_comes_exactly_where_a_seeded_game_rolls_or_draws(players):
    """In seeded games, each option applied with the engine's own dice and deck: chance_node
    is None exactly when the option used no chance; otherwise the nodes come in the order of
    the rolls (one node per roll, its dice together) and draws (one per card) and fixing the
    engine's outcomes gives the engine's very position, deck order included (only the random
    source differs: the nodes fixed the dice, the engine drew them from it)."""
    kinds = Counter()
    for seed in range(6):
        state = new_game(players, seed)
        rng = random.Random(seed)
        while not state.is_over:
            option = rng.choice(state.legal_options())
            after, tape = recorded(state, option)
            node = C.chance_node(state, option)
            assert (node is None) == (not tape)
            found = node if node is not None else C.advance(state, option)
            while isinstance(found, C.ChanceNode):
                kinds[found.kind, found.dice] += 1
                if found.kind == C.ROLL:
                    value = tuple(tape.pop(0)[1] for _ in range(found.dice))
                    assert found.stall_id == R.LOUQSOR * 2 + state.side[R.LOUQSOR]
                else:
                    kind, value = tape.pop(0)
                    assert kind == C.DRAW
                assert found.probability(value) > 0
                found = found.apply(value)
            assert tape == []
            assert found.key()[:4] == after.key()[:4]
            state = after
    assert kinds[C.ROLL, 1] and kinds[C.ROLL, 2] and kinds[C.DRAW, 0]


def test_a_reroll_is_a_roll_node_on_the_stall_as_it_stands():
    """R4.2: the dice holder's re-roll rolls with the servants as they stand (no new one)."""
    rng = random.Random(2)
    seen = 0
    for seed in range(40):
        state = new_game(4, seed)
        while not state.is_over and seen < 5:
            if state.phase == P_REROLL:
                node = C.chance_node(state, O.REROLL)
                assert node.kind == C.ROLL and node.fixed == ()
                assert node.mask == state.mask[R.LOUQSOR]
                status = S.stall_status(state, R.LOUQSOR)
                assert node.closing_probability == status.louqsor_next_roll_probability
                seen += 1
            state = C.walk(state, rng.choice(state.legal_options()), lambda n: C.sample(n, rng))
        if seen >= 5:
            break
    assert seen >= 5


@pytest.mark.parametrize("players", [3, 4])
def test_sampled_chance_gives_legal_states_that_keep_every_invariant(players):
    """Many games played with every chance node sampled by its probabilities: each position
    holds the R12 invariants and has legal options until the end; every node sums to 1."""
    rng = random.Random(players)
    nodes = 0
    for seed in range(12):
        state = new_game(players, seed)

        def choose(node):
            nonlocal nodes
            nodes += 1
            assert sum(o.probability for o in node.outcomes) == 1
            assert all(o.probability > 0 for o in node.outcomes)
            return C.sample(node, rng)

        while not state.is_over:
            assert violations(state) == []
            assert state.legal_options()
            state = C.walk(state, rng.choice(state.legal_options()), choose)
        assert violations(state) == []
    assert nodes > 100


def test_status_previews_and_odds_read_the_roll_node():
    """The closing chance of each Louqsor square in the status lines, the preview's probability
    and the odds' exact probability are the roll node's."""
    rng = random.Random(11)
    checked = 0
    for seed in range(30):
        state = new_game(4, seed)
        while not state.is_over and checked < 12:
            placing = [
                o
                for o in state.legal_options()
                if O.OPTION_KIND[o] == O.PLACE and O.SQUARE_STALL[o] >> 1 == R.LOUQSOR
            ]
            if placing:
                status = S.stall_status(state, R.LOUQSOR, state.decider)
                for option in placing:
                    node = C.chance_node(state, option)
                    exact = node.closing_probability
                    assert status.chance(O.SQUARE_INDEX[option]) == exact
                    assert S.preview(state, option).closing_probability == exact
                checked += 1
                if checked % 4 == 0:
                    report = odds(
                        state, playouts=2, bots="random", seed=1, workers=1, option=placing[0]
                    )
                    node = C.chance_node(state, placing[0])
                    assert report.louqsor_exact == node.closing_probability
            option = rng.choice(state.legal_options())
            state = C.walk(state, option, lambda n: C.sample(n, rng))
    assert checked >= 12


# ---------------------------------------------------------------------- fixed chance (R4.4)
def louqsor_game():
    """A game whose first player is about to place, with Louqsor's left stall open and the tile
    on an emptied Gizeh (set by hand: the tile starts on Louqsor, R2)."""
    state = new_game(4, 5, layout=("left", "left", "left", "left"))
    state.status[R.LOUQSOR], state.status[R.GIZEH] = 0, 1  # as if Gizeh had just closed
    state.cards[R.LOUQSOR], state.cards[R.GIZEH] = state.cards[R.GIZEH], [-1] * 4
    state.seal_on_upper[R.LOUQSOR], state.seal_on_upper[R.GIZEH] = state.seal_on_upper[0], False
    state.tile = R.GIZEH
    state.refresh()
    assert violations(state) == []
    return state, R.SQUARE_BASE[LEFT] + 0  # place louqsor.left#0 (value 1)


def test_a_roll_fixed_ahead_is_no_chance_and_a_half_fixed_roll_has_six_outcomes():
    state, option = louqsor_game()
    node = C.chance_node(state, option)
    assert node.kind == C.ROLL and node.dice == 2 and len(node.outcomes) == 36
    assert node.closing_probability == Fraction(1, 36)  # only 1-1 closes on one servant (R3.7)
    fixed = state.copy()
    fixed.force_roll(1, 1)
    assert C.chance_node(fixed, option) is None  # 1-1 closes; the placer then takes cards
    half = state.copy()
    half.force_roll(1)
    node = C.chance_node(half, option)
    assert node.given == (1,) and [o.value for o in node.outcomes] == [(d,) for d in range(1, 7)]
    assert node.closing_probability == Fraction(1, 6)
    assert node.closing_probability == S.louqsor_probability(LEFT, 1, (1,))
    assert node.step((4,)) == (C.ROLL, (1, 4))
    assert node.text((4,)) == "roll 1 4"


def test_fixing_an_outcome_equals_the_records_roll_and_draw_steps():
    """Applying a node's outcomes gives the position a record reaches with the same ``roll``
    and ``draw`` steps before the option (history.py, R4.4), deck order and all."""
    rng = random.Random(4)
    compared = 0
    for seed in range(20):
        state = new_game(4, seed)
        while not state.is_over and compared < 8:
            option = rng.choice(state.legal_options())
            node = C.chance_node(state, option)
            steps = []
            found = node if node is not None else C.advance(state, option)
            while isinstance(found, C.ChanceNode):
                value = C.sample(found, rng)
                steps.append(found.text(value))
                found = found.apply(value)
            if steps:
                history = History(state)
                rolls = [s for s in steps if s.startswith("roll")]
                draws = [s for s in steps if s.startswith("draw")]
                for step in rolls + draws:  # two queues: dice and cards are fixed apart
                    history.play(step)
                history.play(option)
                assert history.state.key() == found.key()
                compared += 1
            state = found
    assert compared >= 8


def test_impossible_or_malformed_outcomes_are_refused_and_nothing_changes():
    state, option = louqsor_game()
    key = state.key()
    node = C.chance_node(state, option)
    with pytest.raises(IllegalOptionError, match=r"^7 1 cannot happen here: a die shows 1 to 6"):
        node.apply((7, 1))
    with pytest.raises(ArgumentError, match=r"a tuple of 2 dice, not \(3,\)"):
        node.apply((3,))
    with pytest.raises(ArgumentError, match=r"a tuple of 2 dice"):
        node.apply("3 5")
    assert state.key() == key
    # A draw node refuses a card that is not left.
    rng = random.Random(1)
    for seed in range(30):
        game = new_game(4, seed)
        while not game.is_over:
            option = rng.choice(game.legal_options())
            found = C.advance(game, option)
            while isinstance(found, C.ChanceNode) and found.kind == C.ROLL:
                found = found.apply(C.sample(found, rng))
            if isinstance(found, C.ChanceNode):
                assert found.probability(R.AKHENATON) == 0  # more than five cards are left
                with pytest.raises(IllegalOptionError, match=r"akhenaton cannot happen here"):
                    found.apply("akhenaton")
                with pytest.raises(ArgumentError, match=r"a card kind, not 2.5"):
                    found.apply(2.5)
                return
            game = found
    pytest.fail("no draw met in 30 games")


def test_chance_node_refuses_an_illegal_option_with_the_engines_message():
    state, _ = louqsor_game()
    key = state.key()
    with pytest.raises(IllegalOptionError):
        C.chance_node(state, O.REROLL)  # nobody holds the dice yet (R4.2)
    with pytest.raises(ArgumentError, match=r"an option is an id"):
        C.chance_node(state, 2.0)
    with pytest.raises(ArgumentError, match=r"a GameState"):
        C.chance_node("state", 1)
    assert state.key() == key


def test_redealt_keeps_what_the_players_know_and_draws_the_hidden_anew():
    """R12: the copy is the same position as far as the players know it; the deck's order, the
    dice to come and the dice fixed ahead (R4.4) are its own."""
    game = new_game(4, seed=3)
    game.force_roll(6, 6)
    copy = C.redealt(game, random.Random(1))
    assert copy.public_key() == game.public_key()
    assert sorted(copy.deck) == sorted(game.deck) and copy.deck != game.deck
    assert copy.forced_rolls == [] and game.forced_rolls == [6, 6]
    assert copy.rng.getstate() != game.rng.getstate()
    assert game.deck == new_game(4, seed=3).deck  # the original is untouched
