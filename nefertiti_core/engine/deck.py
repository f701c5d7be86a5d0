"""The deck as the players know it: which cards are left, never their order (R2.2, R12).

Bots looking ahead, odds playouts and the OpenSpiel search all imagine a deck order the players
cannot rule out; they share this one function so that none of them peeks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from . import rules as R

BOTTOM = 5  # R2.2: the Akhenaton card is shuffled into the bottom five cards


def reshuffled(deck: Sequence[int], rng: random.Random) -> list[int]:
    """A new order for the cards still in ``deck`` (top = the list's end), as likely as any.

    The gifts are exchangeable: they are sorted first (so that the old order cannot show through
    the random source) and shuffled together. The Akhenaton card, while still in the deck, goes
    to a uniformly chosen place among the bottom five (R2.2), or among the cards left when fewer
    than five remain. A staged position that put it higher (a scenario's ``akhenaton: N``) keeps
    its place: that is what the teacher set up.
    """
    cards = sorted(deck)
    while cards and cards[-1] == R.AKHENATON:  # the highest card number: last when sorted
        cards.pop()
    if type(rng) is random.Random:
        shuffle_in_place(cards, rng.getrandbits)
    else:
        rng.shuffle(cards)
    if R.AKHENATON in deck:
        at = list(deck).index(R.AKHENATON)
        if at < BOTTOM:
            at = rng.randrange(min(BOTTOM, len(deck)))
        cards.insert(at, R.AKHENATON)
    return cards


def shuffle_in_place(cards: list[int], getrandbits) -> None:
    """``random.Random.shuffle`` (CPython 3.8+) written out with its ``_randbelow``: the same
    draws from the source and the same order, in half the time (bots reshuffle the deck
    before most look-aheads). ``tests/test_deck.py`` compares the two."""
    size = len(cards)
    if size < 2:
        return
    k = size.bit_length()  # the bits drawn for a place below ``size``: as many as size has
    low = 1 << (k - 1)  # the smallest size with k bits
    for i in range(size - 1, 0, -1):
        size = i + 1
        if size < low:
            k -= 1
            low >>= 1
        j = getrandbits(k)
        while j >= size:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def unseen(deck: Sequence[int]) -> list[int]:
    """The deck as the players know it, in one repeatable order: :func:`reshuffled` with a
    random source seeded by the deck's size (a preview or an exercise on a copy of the game must
    neither reveal the real order, R12, nor change from one call to the next)."""
    return reshuffled(deck, random.Random(len(deck)))
