"""Previews whose option is followed by a second roll before the next real decision.

When an option leaves Louqsor open and the next player's only legal option is the last empty
square there, the engine takes that placement at once (a forced single option) and rolls again
(R3.7, R3.8). A preview must not roll the game's dice (R4.4, R12): it stops before that roll and
says, in words, who must place where and the roll's probability, taken from the roll's chance node
(:mod:`nefertiti_core.engine.chance`). Before this, such a preview raised ``RuntimeError: preview of
'place louqsor.left#0' rolled a die`` and the decision panel showed nothing for the option.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.chance import ROLL, ChanceNode, chance_node
from nefertiti_core.engine.i18n import LANGUAGES
from nefertiti_core.teaching.status import (
    FollowUpRoll,
    describe_preview,
    louqsor_probability,
    preview,
)

OPTION = "place louqsor.left#0"


def _played(seed: int, moves: int | None = None, players: int = 4):
    """A game of ``players`` after ``moves`` random options (all of them when None), the options
    chosen with ``random.Random(seed)``; with the positions on the way when ``moves`` is None."""
    game = new_game(players, seed=seed, record_events=True)
    rng = random.Random(seed)
    while not game.is_over and (moves is None or moves > 0):
        yield game
        game.apply(rng.choice(game.legal_options()))
        if moves is not None:
            moves -= 1
    yield game


def reproduced():
    """The reported position: seed 9, 133 random options, Red to place on Louqsor's left stall."""
    *_, game = _played(9, 133)
    return game


def _second_roll(game, option) -> ChanceNode:
    """The chance node of the roll that follows ``option``'s roll when that roll leaves Louqsor
    open: found by the chance machinery itself, independently of the preview."""
    node = chance_node(game, option)
    assert node is not None and node.kind == ROLL
    stays_open = next(o.value for o in node.outcomes if not o.closes)
    second = node.apply(stays_open)
    assert isinstance(second, ChanceNode) and second.kind == ROLL, second
    return second


def test_reproduced_case_previews_the_forced_second_roll_r3_7():
    game = reproduced()
    assert game.option_text(game.legal_options()[0]) == OPTION
    p = preview(game, OPTION)  # raised RuntimeError("... rolled a die") before
    assert p.closes is None and p.if_closes is not None and p.if_not is not None
    assert p.if_closes.then_rolls is None  # Louqsor closed: nobody can place there again
    follow = p.if_not.then_rolls
    assert isinstance(follow, FollowUpRoll)
    second = _second_roll(game, game.parse(OPTION))
    # Who rolls, where and with which probability: the chance node's, and louqsor_probability's.
    assert follow.seat == second.seat == (game.decider + 1) % game.n
    assert follow.stall_id == second.stall_id == R.LOUQSOR * 2 + R.LEFT
    assert follow.dice == second.dice == 2
    assert second.mask >> follow.square & 1  # the forced servant is on follow.square
    assert game.owners[R.LOUQSOR][follow.square] < 0  # ... which is empty now
    assert follow.probability == second.closing_probability
    assert follow.probability == louqsor_probability(second.stall_id, second.mask, second.given)
    # The stall is full after the forced placement: every roll closes it (R3.7).
    assert follow.probability == 1
    assert p.if_not.next_decider is None and not p.if_not.game_over
    text = describe_preview(p, game, "en")
    blue = game.colours[follow.seat].capitalize()
    assert (
        f"If it stays open: Then {blue} must place a servant on the 5 of Louqsor's left stall "
        "(the only empty square left), and roll: every possible roll closes Louqsor." in text
    )
    assert "Then Red decides." in text  # the closing branch is as before


def test_the_follow_up_sentence_gives_the_probability_in_every_language():
    game = reproduced()
    p = preview(game, OPTION)
    branch = p.if_not
    follow = replace(branch.then_rolls, probability=Fraction(11, 36))
    texts = {
        lang: describe_preview(replace(p, if_not=replace(branch, then_rolls=follow)), game, lang)
        for lang in LANGUAGES
    }
    for lang, text in texts.items():
        assert "11/36" in text, (lang, text)
        assert "{" not in text, (lang, text)
    assert "and roll: Louqsor closes with probability 11/36 (31%)." in texts["en"]
    assert "und würfeln: Luxor schließt mit Wahrscheinlichkeit 11/36 (31 %)." in texts["de"]
    assert "Louqsor关闭的概率为11/36（31%）。" in texts["zh"]
    never = replace(follow, probability=Fraction(0))
    text = describe_preview(replace(p, if_not=replace(branch, then_rolls=never)), game)
    assert "and roll: no possible roll closes Louqsor." in text


def test_a_preview_rolls_no_die_of_the_game_r4_4():
    game = reproduced()
    rng, log, deck = game.rng.getstate(), list(game.log), list(game.deck)
    before = game.key()
    for option in game.legal_options():
        describe_preview(preview(game, option), game)
    assert game.rng.getstate() == rng
    assert game.log == log and game.deck == deck
    assert game.key() == before
    # The dice to come are the game's own: the next roll is the one it would have been anyway.
    twin = reproduced()
    game.apply(OPTION)
    twin.apply(OPTION)
    assert game.last_roll == twin.last_roll and game.rng.getstate() == twin.rng.getstate()


@pytest.mark.parametrize("seed", range(10))
def test_no_option_preview_raises_over_random_games(seed):
    """Every option of every position of a seeded random game previews, in every language.
    Seeds 2, 4, 8 and 9 have options that raised before (placements on Louqsor)."""
    players = 3 + seed % 2
    follow_ups = 0
    for game in _played(seed, players=players):
        rng = game.rng.getstate()
        for option in game.legal_options():
            p = preview(game, option)
            for branch in (p, p.if_closes, p.if_not):
                follow = getattr(branch, "then_rolls", None)
                if follow is not None:
                    follow_ups += 1
                    assert follow.stall_id >> 1 == R.LOUQSOR
            for lang in LANGUAGES:
                assert describe_preview(p, game, lang)
        assert game.rng.getstate() == rng
    if seed in (2, 4, 8, 9):
        assert follow_ups, "this game has a forced second roll after some option"
