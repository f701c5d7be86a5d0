"""The deck's reshuffle (R2.2, R12): its written-out shuffle is ``random.shuffle``, draw for draw."""

import random

import pytest

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.deck import BOTTOM, _shuffle, reshuffled


@pytest.mark.parametrize("size", [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 46, 64, 65, 200])
def test_the_written_out_shuffle_is_random_shuffle_draw_for_draw(size):
    for seed in range(40):
        mine, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(size)), list(range(size))
        _shuffle(a, mine.getrandbits)
        theirs.shuffle(b)
        assert a == b
        assert mine.getstate() == theirs.getstate()  # the same draws: what follows is the same


class _Other(random.Random):
    """A random source of another type: reshuffled falls back to its own ``shuffle``."""


def _by_the_book(deck, rng):
    """``reshuffled`` as it was written before the shuffle was written out (R2.2)."""
    cards = sorted(c for c in deck if c != R.AKHENATON)
    rng.shuffle(cards)
    if R.AKHENATON in deck:
        at = list(deck).index(R.AKHENATON)
        if at < BOTTOM:
            at = rng.randrange(min(BOTTOM, len(deck)))
        cards.insert(at, R.AKHENATON)
    return cards


@pytest.mark.parametrize("rng_type", [random.Random, _Other])
def test_reshuffled_orders_as_before_with_the_akhenaton_card_among_the_bottom_five(rng_type):
    maker = random.Random(7)
    for seed in range(60):
        deck = [maker.randrange(R.NUM_KINDS) for _ in range(maker.randrange(0, 47))]
        if seed % 3 == 1:  # the Akhenaton card among the bottom five, as dealt
            deck.insert(maker.randrange(min(BOTTOM, len(deck) + 1)), R.AKHENATON)
        elif seed % 3 == 2:  # a scenario staged it on top: it stays there
            deck.append(R.AKHENATON)
        mine, theirs = rng_type(seed), random.Random(seed)
        got = reshuffled(deck, mine)
        assert got == _by_the_book(deck, theirs)
        assert sorted(got) == sorted(deck)
        if R.AKHENATON in deck and deck.index(R.AKHENATON) < BOTTOM:
            assert got.index(R.AKHENATON) < min(BOTTOM, len(deck))
