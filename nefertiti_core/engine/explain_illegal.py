"""Why an option is refused: a message that names the option, the position and the rule, in any
of the catalogs' languages (``messages/<lang>/refusals.json``).

Only called when :meth:`GameState.apply` refuses an option, so clarity matters more than speed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import options as O
from . import rules as R
from .i18n import DEFAULT_LANGUAGE, tr
from .squares import square_name

if TYPE_CHECKING:
    from .state import GameState

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


def why_illegal(
    state: GameState,
    option: int,
    lang: str = DEFAULT_LANGUAGE,
    *,
    name: Callable[[int], str] | None = None,
    legal_words: Callable[[], str] | None = None,
) -> tuple[str, str]:
    """(message, rule id) explaining why ``option`` is not legal in ``state``, in ``lang``.

    The option and the legal ones are named in move notation (what a player of the command line
    types) unless ``name`` names an option and ``legal_words`` the legal ones in words (what the
    pages show: ``nefertiti_core.teaching.refusal``)."""

    def t(key: str, **params) -> str:
        return tr(lang, key, **params)

    text = state.option_text(option)  # NotationError if no option
    head = t("refuse.head.words", option=name(option)) if name else t("refuse.head", option=text)
    who = t(f"colour.{state.colours[state.decider]}")
    kind, arg = O.OPTION_KIND[option], O.OPTION_ARG[option]
    if legal_words is not None:
        legal = legal_words()
    else:
        legal = ", ".join(state.option_text(o) for o in state.legal_options())
    if kind not in _PHASE_KINDS.get(state.phase, set()):
        task = t(f"refuse.task.{state.phase}")
        return t("refuse.wrong_phase", head=head, player=who, task=task, legal=legal), ""
    key, params, rule = _specific_reason(state, option, kind, arg, state.decider)
    names = {
        name: t(f"colour.{state.colours[value]}") if name in ("player", "owner") else value
        for name, value in params.items()
    }
    for name in ("market", "pile"):
        if name in names:
            names[name] = t(names[name])
    for name in ("side", "visible"):
        if name in names:
            names[name] = t(f"side.{names[name]}")
    if "square" in names:
        names["square"] = square_name(*names["square"], lang)
    reason = t(key, **names)
    cite = t("refuse.cite", rule=rule) if rule else ""
    return t("refuse.specific", head=head, reason=reason, cite=cite, legal=legal), rule


def _specific_reason(state: GameState, option, kind, arg, p) -> tuple[str, dict, str]:
    """(catalog key, its parameters, rule id); seats, markets and sides still as numbers/ids."""
    if kind == O.PLACE:
        stall = R.STALLS[O.SQUARE_STALL[option]]
        m, index = stall.market, O.SQUARE_INDEX[option]
        market = f"market.{R.MARKETS[m]}"
        if state.status[m] != 0:
            return "refuse.market_closed", {"market": market}, "R5.2"
        if state.side[m] != stall.side:
            return (
                "refuse.covered_stall",
                {
                    "market": market,
                    "side": R.SIDES[stall.side],
                    "visible": R.SIDES[state.side[m]],
                },
                "R5.2",
            )
        if not state.hand[p]:
            return "refuse.no_servant", {"player": p}, "R5.4"
        owner = state.owners[m][index]
        if owner >= 0:
            return "refuse.square_taken", {"square": (stall.id, index), "owner": owner}, "R5.2"
    if kind == O.CLOSE:
        if state.hand[p]:
            return "refuse.close_has_servant", {"player": p}, "R5.4"
        return (
            "refuse.close_none_there",
            {"market": f"market.{R.MARKETS[arg]}", "player": p},
            "R5.4",
        )
    if kind == O.RECRUIT:
        if state.recruited:
            return "refuse.one_character", {}, "R5.1"
        if state.phase != "turn":
            return "refuse.recruit_after", {}, "R5.1"
        if not state.seals[p]:
            return "refuse.no_seal", {"player": p}, "R5.1"
        pile = f"pile.{R.PILES[arg]}"
        if not state.piles[arg]:
            return "refuse.pile_empty", {"pile": pile}, "R2.3"
        return "refuse.no_effect", {"pile": pile}, "R10.1"
    simple = {
        O.BUY: ("refuse.buy", "R6.4"),
        O.HALF: ("refuse.half", "R6.4"),
        O.PASS: ("refuse.pass", "R6.4"),
        O.TAKE: ("refuse.take", "R6.2"),
        O.DISCARD: ("refuse.discard", "R6.3"),
        O.EXCHANGE_TAKE: ("refuse.exchange", "R10.3"),
        O.EXCHANGE_GIVE: ("refuse.exchange", "R10.3"),
        O.EXCHANGE_DONE: ("refuse.exchange_done", "R10.3"),
        O.CHIEF_TAKE: ("refuse.chief", "R10.5"),
        O.ROYAL: ("refuse.royal", "R10.6"),
        O.SCRIBE: ("refuse.scribe", "R10.7"),
        O.TREASURER_MARKET: ("refuse.treasurer_market", "R10.8"),
        O.TREASURER_AMOUNT: ("refuse.treasurer_amount", "R10.8"),
    }
    if kind in simple:
        key, rule = simple[kind]
        return key, {"player": p}, rule
    return "refuse.other", {}, ""
