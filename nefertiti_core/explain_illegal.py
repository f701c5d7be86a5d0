"""Why an option is refused: a message that names the option, the position and the rule.

Only called when :meth:`GameState.apply` refuses an option, so clarity matters more than speed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import options as O
from . import rules as R

if TYPE_CHECKING:
    from .state import GameState

_PHASE_WORDS = {
    "turn": "recruit a character or place a servant (R5.1, R5.2)",
    "place": "place a servant (R5.2)",
    "take": "choose the cards they buy as the highest bidder (R6.2)",
    "shame": "discard a gift, having bid more than they hold (R6.3)",
    "bid": "buy a card, take half the reserve or pass (R6.4)",
    "exchange_take": "choose the gift to take with the Merchant (R10.3)",
    "exchange_give": "choose the gift to give with the Merchant (R10.3)",
    "chief": "choose the card the Chief takes (R10.5)",
    "royal": "name the gift type for the Royal Servant (R10.6)",
    "scribe": "choose the gift type the Scribe scores (R10.7)",
    "treasurer_market": "choose the reserve the Treasurer empties (R10.8)",
    "treasurer_amount": "choose how many Deben the Treasurer takes (R10.8)",
    "reroll": "roll Louqsor's dice again or keep them (R4.2)",
}

_PHASE_KINDS = {
    "turn": {O.RECRUIT, O.PLACE, O.CLOSE},
    "place": {O.PLACE, O.CLOSE, O.RECRUIT},
    "take": {O.TAKE},
    "shame": {O.DISCARD},
    "bid": {O.BUY, O.HALF, O.PASS},
    "exchange_take": {O.EXCHANGE_TAKE, O.EXCHANGE_DONE},
    "exchange_give": {O.EXCHANGE_GIVE},
    "chief": {O.CHIEF_TAKE},
    "royal": {O.ROYAL},
    "scribe": {O.SCRIBE},
    "treasurer_market": {O.TREASURER_MARKET},
    "treasurer_amount": {O.TREASURER_AMOUNT},
    "reroll": {O.REROLL, O.KEEP},
}


def why_illegal(state: GameState, option: int) -> tuple[str, str]:
    """(message, rule id) explaining why ``option`` is not legal in ``state``."""
    text = state.option_text(option)
    who = state.colours[state.decider]
    kind, arg = O.OPTION_KIND[option], O.OPTION_ARG[option]
    legal = ", ".join(state.option_text(o) for o in state.legal_options())
    head = f"{text!r} is not allowed now"
    if kind not in _PHASE_KINDS.get(state.phase, set()):
        return (
            f"{head}: {who} must {_PHASE_WORDS.get(state.phase, state.phase)}; "
            f"the options are: {legal}",
            "",
        )
    p = state.decider
    reason, rule = _specific_reason(state, option, kind, arg, p)
    cite = f" ({rule})" if rule else ""
    return f"{head}: {reason}{cite}. The options are: {legal}", rule


def _specific_reason(state: GameState, option, kind, arg, p) -> tuple[str, str]:
    who = state.colours[p]
    if kind == O.PLACE:
        stall = R.STALLS[O.SQUARE_STALL[option]]
        m, index = stall.market, O.SQUARE_INDEX[option]
        name = R.MARKET_LABELS[R.MARKETS[m]]
        if state.status[m] != 0:
            return f"{name} is closed; servants go only to open markets", "R5.2"
        if state.side[m] != stall.side:
            visible = R.SIDES[state.side[m]]
            return (
                f"{name}'s {R.SIDES[stall.side]} stall is covered by its reserve; "
                f"the {visible} stall is the one in play",
                "R5.2",
            )
        if not state.hand[p]:
            return (
                f"{who} has no servant left and must close a market holding one of theirs",
                "R5.4",
            )
        owner = state.owners[m][index]
        if owner >= 0:
            return f"square {index} already holds {state.colours[owner]}'s servant", "R5.2"
    if kind == O.CLOSE:
        if state.hand[p]:
            return f"{who} still has a servant to place; closing is only for no servants", "R5.4"
        return f"{R.MARKETS[arg]} holds none of {who}'s servants, or is not open", "R5.4"
    if kind == O.RECRUIT:
        if state.recruited:
            return "only one character may be recruited per turn", "R5.1"
        if state.phase != "turn":
            return "a character is recruited before placing, not after", "R5.1"
        if not state.seals[p]:
            return f"{who} has no Royal Seal to spend", "R5.1"
        if not state.piles[arg]:
            return f"no {R.PILES[arg]} card is left", "R2.3"
        return f"the {R.PILES[arg]}'s effect cannot be carried out now", "R10.1"
    if kind == O.BUY:
        return f"{who} cannot pay this bid, or that slot holds no card", "R6.4"
    if kind == O.HALF:
        return "the reserve is empty", "R6.4"
    if kind == O.PASS:
        return "passing is only allowed when the reserve is empty", "R6.4"
    if kind == O.TAKE:
        return "that is not one of the card sets the winning square allows", "R6.2"
    if kind == O.DISCARD:
        return f"{who} holds no such gift", "R6.3"
    if kind in (O.EXCHANGE_TAKE, O.EXCHANGE_GIVE):
        return (
            "a Merchant takes a gift of a type the player already holds, from an opponent "
            "not yet traded with, and pays any difference in maximum value",
            "R10.3",
        )
    if kind == O.EXCHANGE_DONE:
        return "at least one exchange is made before stopping", "R10.3"
    if kind == O.CHIEF_TAKE:
        return "that slot of the market with the Market Closed tile holds no card", "R10.5"
    if kind == O.ROYAL:
        return "nobody holds that gift type", "R10.6"
    if kind == O.SCRIBE:
        return f"{who} holds no gift of that type", "R10.7"
    if kind == O.TREASURER_MARKET:
        return "that reserve is empty", "R10.8"
    if kind == O.TREASURER_AMOUNT:
        return "the Treasurer takes 1 to 4 Deben, at most what the reserve holds", "R10.8"
    return "it is not one of the options", ""
