"""The deck's reshuffle (R2.2, R12): its written-out shuffle is ``random.shuffle``, draw for draw."""

import random

import pytest

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.deck import BOTTOM, reshuffled, shuffle_in_place


@pytest.mark.parametrize("size", [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 46, 64, 65, 200])
def test_the_written_out_shuffle_is_random_shuffle_draw_for_draw(size):
    for seed in range(40):
        mine, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(size)), list(range(size))
        shuffle_in_place(a, mine.getrandbits)
        theirs.shuffle(b)
        assert a == b
        assert mine.getstate() == theirs.getstate()  # the same draws: what follows is the same


class _Other(random.Random):
    """A random source of another type: reshuffled falls back to its own ``random.shuffle``."""


def test_reshuffled_orders_as_random_shuffle_with_the_akhenaton_card_among_the_bottom_five():
    """The written-out shuffle and ``random.shuffle`` itself (the fallback) give the same order
    for the same seed; the deck's old order cannot show through (R12); the Akhenaton card goes
    among the bottom five, or keeps a higher place a scenario staged (R2.2)."""
    maker = random.Random(7)
    for seed in range(60):
        deck = [maker.randrange(R.NUM_KINDS) for _ in range(maker.randrange(0, 47))]
        if seed % 3 == 1:  # the Akhenaton card among the bottom five, as dealt
            deck.insert(maker.randrange(min(BOTTOM, len(deck) + 1)), R.AKHENATON)
        elif seed % 3 == 2:  # a scenario staged it on top: it stays there
            deck.append(R.AKHENATON)
        got = reshuffled(deck, random.Random(seed))
        assert got == reshuffled(deck, _Other(seed))
        gifts = [c for c in deck if c != R.AKHENATON]
        maker.shuffle(gifts)
        if R.AKHENATON in deck:
            gifts.insert(deck.index(R.AKHENATON), R.AKHENATON)
        assert reshuffled(gifts, random.Random(seed)) == got  # another order, the same result
        assert sorted(got) == sorted(deck)
        if R.AKHENATON in deck:
            if deck.index(R.AKHENATON) < BOTTOM:
                assert got.index(R.AKHENATON) < min(BOTTOM, len(deck))
            else:
                assert got.index(R.AKHENATON) == deck.index(R.AKHENATON)
