"""Helpers for the character, scoring, bad-input and notation tests (owned by those files).

Positions are staged with :mod:`nefertiti_core.files.staging`; money moved by hand is balanced against
another player so that the R12 Deben total (40 with 4 players) still holds and
``violations(g) == []`` can be asserted.
"""

from __future__ import annotations

import random

from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.files import staging as S

GREEN, RED, BLUE, BLACK = range(4)


def fresh_game(players: int = 4, empty_markets: bool = True, **options):
    """A new game, the first seat to move, events recorded.

    With ``empty_markets`` the cards of the three open markets go back to the deck (and their
    seals to the supply), so that any gift can be staged and a market closing on no cards is
    resolved without decisions (the highest bidder pays and takes nothing; the others can only
    take half the reserve or pass, which is forced).
    """
    options.setdefault("seed", 0)
    options.setdefault("first_player", 0)
    options.setdefault("record_events", True)
    g = new_game(players=players, **options)
    if empty_markets:
        for m in (R.GIZEH, R.AKHET_ATON, R.ABOU_SIMBEL):
            S.set_cards(g, m, None, [], seal=False)
    return g


def set_deben_balanced(g, seat: int, amount: int, bank: int) -> None:
    """``seat`` gets exactly ``amount`` Deben; the difference comes from (or goes to) ``bank``."""
    diff = amount - g.deben[seat]
    S.set_deben(g, bank, g.deben[bank] - diff)
    S.set_deben(g, seat, amount)
    assert g.deben[bank] >= 0, "the bank seat cannot cover this"


def set_reserve_balanced(g, market: int, amount: int, bank: int) -> None:
    """A reserve gets exactly ``amount`` Deben; the difference comes from (or goes to) ``bank``."""
    diff = amount - g.reserve[market]
    S.set_deben(g, bank, g.deben[bank] - diff)
    S.set_reserve(g, market, amount)
    assert g.deben[bank] >= 0, "the bank seat cannot cover this"


def use_top_card(g, pile: int) -> int:
    """Take the top card of a character pile out of the game, as if recruited earlier."""
    card = g.piles[pile].pop(0)
    g.used_characters.append(card)
    return card


def events(g, name: str) -> list[dict]:
    return [data for event, data in g.log if event == name]


def option_texts(g) -> set[str]:
    return {g.option_text(o) for o in g.legal_options()}


def recruit_texts(g) -> set[str]:
    return {t for t in option_texts(g) if t.startswith("recruit ")}


def snapshot(g) -> tuple:
    return g.state_hash(), g.legal_options()


def play_random_to_end(g, seed: int = 0, limit: int = 5000) -> None:
    rng = random.Random(seed)
    for _ in range(limit):
        legal = g.legal_options()
        if not legal:
            return
        g.apply(rng.choice(legal))
    raise AssertionError("the game did not end")
