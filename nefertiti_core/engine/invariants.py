"""R12: what must hold after every step. Tests and ``nefertiti simulate`` call this."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import rules as R
from .errors import require_state
from .i18n import LANGUAGES
from .said import Worded, said
from .stall_names import stall_name

if TYPE_CHECKING:
    from .state import GameState


def _market(m: int):
    """A market's name as a message parameter, worded in the message's language."""
    return said(f"market.{R.MARKETS[m]}")


def _stall(stall: int):
    """A stall's name ("Gizeh's left stall") in every language, as a message parameter."""
    return Worded({lang: stall_name(stall, lang) for lang in LANGUAGES})


def violations(state: GameState) -> list[str]:
    """Every R12 invariant that does not hold, in words; empty when all hold. Each is a
    :class:`.said.Said` (English as a str), so a file's warnings can say it in any language."""
    require_state(state)
    from .state import OPEN, P_OVER, P_PLACE, P_TURN

    out: list[str] = []
    n = state.n

    money = sum(state.deben) + sum(state.reserve)
    if money != R.TOTAL_DEBEN[n]:
        out.append(said("file.check.deben", money=str(money), total=str(R.TOTAL_DEBEN[n])))
    if any(d < 0 for d in state.deben) or any(r < 0 for r in state.reserve):
        out.append(said("file.check.negative_deben"))

    on_markets = sum(1 for cards in state.cards for c in cards if c >= 0)
    held = sum(sum(g) for g in state.gifts)
    in_deck = sum(1 for c in state.deck if c != R.AKHENATON)
    gifts = in_deck + on_markets + held + sum(state.out_of_game)
    if gifts != R.TOTAL_GIFTS[n]:
        out.append(
            said(
                "file.check.gifts",
                deck=str(in_deck),
                markets=str(on_markets),
                held=str(held),
                out=str(sum(state.out_of_game)),
                gifts=str(gifts),
                total=str(R.TOTAL_GIFTS[n]),
            )
        )
    for kind in range(R.NUM_KINDS):
        count = (
            state.deck.count(kind)
            + sum(cards.count(kind) for cards in state.cards)
            + sum(g[kind] for g in state.gifts)
            + state.out_of_game[kind]
        )
        box = 0 if n == 3 and R.KIND_TYPE[kind] == R.SENET else R.CARDS_PER_KIND[kind]
        if count != box:
            out.append(
                said("file.check.kind", count=str(count), card=R.CARD_KINDS[kind], box=str(box))
            )
    if any(c < 0 for g in state.gifts for c in g):
        out.append(said("file.check.negative_gifts"))
    akh = state.deck.count(R.AKHENATON)
    if akh + state.akhenaton_drawn != 1:
        out.append(said("file.check.akhenaton", count=str(akh), drawn=str(state.akhenaton_drawn)))

    seals = sum(state.seals) + sum(state.seal_on_upper) + state.seal_supply
    if seals != R.SEALS:
        out.append(said("file.check.seals", seals=str(seals), total=str(R.SEALS)))
    for m in range(4):
        if state.seal_on_upper[m] and state.cards[m][0] < 0:
            out.append(said("file.check.seal_on_empty", market=_market(m)))

    for p in range(n):
        placed = sum(owners.count(p) for owners in state.owners)
        if placed + state.hand[p] != R.SERVANTS_PER_PLAYER:
            out.append(
                said(
                    "file.check.servants",
                    colour=state.colours[p],
                    placed=str(placed),
                    hand=str(state.hand[p]),
                    total=str(R.SERVANTS_PER_PLAYER),
                )
            )

    chars = sum(len(pl) for pl in state.piles) + len(state.used_characters)
    chars += state.characters_set_aside
    if chars != R.TOTAL_CHARACTERS[n]:
        out.append(
            said("file.check.characters", count=str(chars), total=str(R.TOTAL_CHARACTERS[n]))
        )

    between_turns = state.phase in (P_TURN, P_PLACE) and state.res_market < 0
    for m in range(4):
        if (
            state.status[m] != OPEN
            and m != state.res_market
            and any(o >= 0 for o in state.owners[m])
        ):
            out.append(said("file.check.servants_on_closed", market=_market(m)))
        if state.status[m] == OPEN and between_turns:
            stall = m * 2 + state.side[m]
            if R.stall_closes(stall, state.mask[m], state.owners[m]):
                if R.CLOSED_BY[stall] == R.BY_COLOURS:
                    on = R.seats_on(state.owners[m])
                    out.append(
                        said("file.check.open_by_colours", stall=_stall(stall), count=str(len(on)))
                    )
                else:
                    out.append(said("file.check.open_closing", stall=_stall(stall)))
            if all(o >= 0 for o in state.owners[m]):
                out.append(said("file.check.open_full", stall=_stall(stall)))
        expected = sum(1 << i for i, o in enumerate(state.owners[m]) if o >= 0)
        if expected != state.mask[m]:
            out.append(said("file.check.mask", market=_market(m)))
    if between_turns and not state.akhenaton_drawn:
        opened = state.status.count(OPEN)
        if opened != 3 or state.status[state.tile] == OPEN:
            out.append(said("file.check.open_markets", opened=str(opened)))
    if (
        state.phase == P_OVER
        and OPEN in state.status
        and "akhenaton_ends_game" not in state.variants
    ):
        out.append(said("file.check.over_open"))
    if state.phase != P_OVER and OPEN not in state.status and state.res_market < 0:
        out.append(said("file.check.none_open"))
    return out
