"""Checks shared by the German and Chinese claims: what both translations state with a count in
words ("je eine Statuette", "各一张", "einen Deben", "拿 1 Deben") where the English prose says
the same with an article ("a statuette", "a Deben"), which counts as no number there and so has
no English claim to borrow a check from (``claims.translated``)."""

from __future__ import annotations

from nefertiti_core.engine import rules as R

from .engine import deben, position, seat


def holds(name: str, colour: str, *steps: str) -> dict[int, int]:
    """``colour``'s gift cards after ``steps``: {card kind: count}, kinds held only."""
    state = position(name, *steps)
    return {kind: n for kind, n in enumerate(state.gifts[seat(state, colour)]) if n}


def one_each(*kinds: int) -> dict[int, int]:
    return dict.fromkeys(kinds, 1)


def black_holds_five_kinds() -> bool:
    """Before the Vizier: Black holds a senet, a double senet, a statuette, a mirror and a
    necklace, one of each (R10.2)."""
    kinds = (R.K_SENET, R.K_DOUBLE_SENET, R.K_STATUETTE, R.K_MIRROR, R.K_NECKLACE)
    return holds("vizier", "black") == one_each(*kinds)


def merchant_hands() -> bool:
    """Before the First Merchant: Red holds a harp, a necklace and a statuette; Green and Blue a
    statuette each (R10.3)."""
    return (
        holds("merchant", "red") == one_each(R.K_HARP, R.K_NECKLACE, R.K_STATUETTE)
        and holds("merchant", "green") == one_each(R.K_STATUETTE)
        and holds("merchant", "blue") == one_each(R.K_STATUETTE)
    )


def chief_market() -> bool:
    """The market under the tile when the Chief is recruited: three unsold cards, a gold work
    with a seal on top, a chair and a mirror below (R10.5)."""
    state = position("chief")
    return (
        state.tile == R.GIZEH
        and state.market_cards(R.GIZEH) == (R.K_GOLD, R.K_CHAIR, -1, R.K_MIRROR)
        and state.market_seal(R.GIZEH)
    )


def scribe_leaves_one_holder_fewer() -> bool:
    """Blue cashes in the senets with the Scribe: one holder of the type fewer (R10.6)."""
    before = position("scribe").holders(R.SENET)
    return before - position("scribe", "recruit scribe", "scribe senet").holders(R.SENET) == 1


def arrival_and_deben_square() -> bool:
    """On an empty stall whose reserve holds 3 Deben: a plain square pays 1 Deben (the first
    servant's), the Deben 2 pays 2 (the first servant's and the square's, both at once; R5.3)."""
    plain = deben("markets-bonuses", "green", "place abou_simbel.left#0")
    both = deben("markets-bonuses", "green", "place abou_simbel.left#2")
    before = deben("markets-bonuses", "green")
    return position("markets-bonuses").reserve[R.ABOU_SIMBEL] == 3 and (
        plain - before,
        both - before,
    ) == (1, 2)
