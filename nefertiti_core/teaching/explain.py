"""Explanations: every engine event, option and score line in plain words, naming its rule.

The learner clicks through a game and, after each step, reads what happened and why, with the
rulebook section and the rule ID (:mod:`.rules_reference` has each rule's text). Every sentence comes from the
message catalogs (``messages/<lang>/events.json``, ``options.json``, ``scoring.json``, and the
piece names of ``names.json``); this module only picks the message and fills in names and numbers.

- :func:`describe_event` explains one event of ``GameState.log`` (``record_events=True``).
- :func:`narrate` explains a game's log from a position on.
- :func:`describe_option` words one legal option for a button.
- :func:`score_lines`, :func:`score_table` and :func:`winner_line` explain the scores (R8, R9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine import options as O
from ..engine import rules as R
from ..engine.i18n import DEFAULT_LANGUAGE
from ..engine.scoring import POINTS_PER_SEAL, score_breakdown, totals, winners
from ..engine.squares import square_name
from ..engine.state import (
    P_BID,
    P_CHIEF,
    P_EXCHANGE_GIVE,
    P_EXCHANGE_TAKE,
    P_PLACE,
    P_SCRIBE,
    P_SHAME,
    P_TAKE,
    P_TREASURER_AMOUNT,
    P_TURN,
)
from .words import Words

if TYPE_CHECKING:
    from ..engine.state import GameState

#: Events that are pure bookkeeping: the option chosen is explained by the events it causes.
SILENT_EVENTS = frozenset({"decision"})

_STALL_BY_NAME = {stall.name: stall for stall in R.STALLS}


def _values(stall: R.Stall, squares) -> list[int]:
    return sorted(stall.squares[i].value for i in squares)


def _dash(values) -> str:
    return "-".join(str(v) for v in values)


# ---------------------------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------------------------
def _params(w: Words, d: dict) -> dict:
    """An event's fields in words, by their names: ``seat`` and ``partner`` are players,
    ``market`` a market, ``slot`` a card's place, ``card`` a card (a character's name when it is
    text), ``rule`` the reference ``ref`` (its rulebook section from the rule ID the engine put
    in the event); other fields (amounts, bids, the turn) as they are."""
    params = dict(d)
    for field, to in (("seat", "player"), ("partner", "partner")):
        if field in d:
            params[to] = w.player(d[field])
    if "market" in d:
        params["market"] = w.market(d["market"])
    if "slot" in d:
        params["slot"] = w.slot(d["slot"])
    card = d.get("card")
    if isinstance(card, str):
        params["character"] = w.character(card)
    elif card is not None:
        params["card"] = w.card(card)
    if d.get("rule"):
        params["ref"] = w.ref_to(d["rule"])
    return params


def _generic(name: str, key=None, extra=None):
    """The handler of an event whose message says no more than its fields: ``ev.<name>`` (or
    ``key(data)``) filled with :func:`_params` (and ``extra(data)``)."""

    def handler(w: Words, d: dict) -> str:
        params = _params(w, d)
        if extra is not None:
            params.update(extra(d))
        return w.s(key(d) if key is not None else f"ev.{name}", **params)

    return handler


def _half_left(d: dict) -> dict:
    left = d.get("left", 0)
    return {"left": left, "before": d["amount"] + left}


#: Events worded generically (the message and the event's own fields are enough).
_GENERIC = {
    name: _generic(name)
    for name in (
        "turn",
        "reroll",
        "close_by_choice",
        "pay",
        "no_cards",
        "cannot_pay",
        "cannot_pay_no_gift",
        "shame_discard",
        "buy",
        "pass",
        "stays_closed",
        "recruit",
        "high_priest",
        "chief",
        "treasurer",
    )
}
_GENERIC["half"] = _generic("half", extra=_half_left)
_GENERIC["gift_taken"] = _generic(
    "gift_taken", key=lambda d: "ev.gift_taken.seal" if d["seal"] else "ev.gift_taken"
)


def _ev_setup(w: Words, d: dict) -> str:
    n = len(w.colours)
    layout = d["layout"]
    open_stalls = [
        w.stall(R.stall_of(m, R.SIDES.index(layout[m])))
        for m in (R.GIZEH, R.AKHET_ATON, R.ABOU_SIMBEL)
    ]
    return w.s(
        "ev.setup",
        player=w.player(d["first"]),
        amounts=w.join(R.STARTING_DEBEN[n]),
        stalls=w.join(open_stalls),
        closed=w.market(R.LOUQSOR),
        side=w(f"side.{layout[R.LOUQSOR]}"),
        ref=w.ref_to("R2.6-R2.8"),
    )


def _ev_place(w: Words, d: dict) -> str:
    stall = _STALL_BY_NAME[d["stall"]]
    square = stall.squares[d["square"]]
    player, market = w.player(d["seat"]), w.market(d["market"])
    parts = [
        w.s(
            "ev.place",
            player=player,
            stall=w.stall(stall),
            square=square_name(stall, d["square"], w.lang),
            value=d["value"],
            ref=w.ref_to("R5.2"),
        )
    ]
    due, paid = d["bonus_due"], d["bonus_paid"]
    if due:
        reasons = []
        if d["first_here"]:
            reasons.append(w("ev.place.reason_first"))
        if d["deben_square"]:
            reasons.append(w("ev.place.reason_deben"))
        params = dict(
            player=player,
            market=market,
            reasons=w.join(reasons),
            paid=paid,
            due=due,
            ref=w.ref_to(d["rule"]),
        )
        if paid == due:
            parts.append(w.s("ev.place.bonus", **params))
        elif paid == 0:
            parts.append(w.s("ev.place.bonus_none", **params))
        else:
            parts.append(w.s("ev.place.bonus_short", **params))
    if square.symbol == R.SINGLE:
        parts.append(w.s("ev.place.single", ref=w.ref("markets", "R6.2")))
    elif square.symbol == R.EXTRA:
        parts.append(w.s("ev.place.extra", ref=w.ref("markets", "R6.2")))
    return w.sentences(*parts)


def _ev_roll(w: Words, d: dict) -> str:
    two = d["rule"] == R.stall_of(R.LOUQSOR, R.LEFT).rule_id
    stall = R.stall_of(R.LOUQSOR, R.LEFT if two else R.RIGHT)
    dice = list(d["dice"])
    occupied = sorted(d.get("occupied") or [])
    player = w.player(d["seat"])
    head = w.s("ev.roll", player=player, dice=w.join(dice), stall=w.stall(stall))
    # the stall's rule (R3.7, R3.8) from the event; a roll that fails makes a dice holder (R4.1)
    ref = w.ref_to(d["rule"] if d["closes"] else d["rule"] + ", R4.1")
    if two:
        if d["closes"]:
            tail = w.s("ev.roll.two_closes", occupied=w.join(occupied), ref=ref)
        else:
            missing = sorted({v for v in dice if v not in occupied})
            tail = w.s(
                "ev.roll.two_stays",
                player=player,
                missing=w.join(missing),
                occupied=w.join(occupied),
                ref=ref,
            )
    else:
        run = d["run"] or 0
        run_values = R.longest_run_values(occupied)
        params = dict(
            player=player, die=dice[0], run=run, squares=_dash(run_values) or "-", ref=ref
        )
        tail = w.s("ev.roll.one_closes" if d["closes"] else "ev.roll.one_stays", **params)
    return w.sentences(head, tail)


def _closing_reason(w: Words, stall: R.Stall, d: dict) -> str:
    squares = d["squares"]
    rule = stall.rule
    if rule == R.CONNECTED4:
        groups = R.connected_groups(stall, sum(1 << i for i in set(squares)))
        group = max(groups, key=len, default=[])  # the first of the largest, by its squares
        return w("ev.why.connected4", count=len(group), squares=_dash(_values(stall, group)))
    if R.CLOSED_BY[stall.id] == R.BY_COLOURS:
        seats = sorted({seat for seat, _ in d["bids"]})
        return w(
            "ev.why.colours",
            servants=len(d["bids"]),
            ncolours=len(seats),
            colours=w.players(seats),
        )
    if rule == R.ALL_LEVELS:
        levels = [
            w("ev.why.level", level=n + 1, values=w.join(_values(stall, set(lv) & set(squares))))
            for n, lv in enumerate(stall.groups)
        ]
        return w("ev.why.all_levels", levels=w.semi(levels))
    if rule == R.LINE3:
        occupied = set(squares)
        for k, line in enumerate(stall.groups):
            if all(i in occupied for i in line):
                if k < 3:
                    name = w("ev.line.row", n=k + 1)
                elif k < 6:
                    name = w("ev.line.column", n=k - 2)
                else:
                    name = w("ev.line.diagonal")
                return w("ev.why.line3", line=name, squares=_dash(_values(stall, line)))
    if rule in (R.SUM_11_14_17, R.SUM_17):
        values = _values(stall, squares)
        key = "ev.why.sum_11_14_17" if rule == R.SUM_11_14_17 else "ev.why.sum_17"
        return w(key, total=sum(values), addends=" + ".join(map(str, values)))
    dice = list(d.get("dice") or ())
    occupied = _values(stall, squares)
    if rule == R.TWO_DICE and len(dice) == 2:
        return w("ev.why.two_dice", dice=w.join(dice), occupied=w.join(occupied))
    if rule == R.ONE_DIE_RUN and len(dice) == 1:
        run = R.longest_run_values(occupied)
        return w("ev.why.one_die", die=dice[0], run=len(run), squares=_dash(run))
    return w("ev.why.other")


def _ev_market_closes(w: Words, d: dict) -> str:
    stall = _STALL_BY_NAME[d["stall"]]
    if d["cause"] == "no_servant":
        head = w.s(
            "ev.market_closes.no_servant",
            market=w.market(d["market"]),
            player=w.player(d["seat"]),
            ref=w.ref_to(d["rule"]),
        )
    else:
        head = w.s(
            "ev.market_closes",
            stall=w.stall(stall),
            reason=_closing_reason(w, stall, d),
            ref=w.ref_to(d["rule"]),
        )
    bids = d["bids"]
    if not bids:
        return head
    values = [v for _, v in bids]
    items = [w("ev.bid_item", player=w.player(seat), value=v) for seat, v in bids]
    if len(set(values)) < len(values):
        order = w.s("ev.order.ties", bids=w.join(items), ref=w.ref_to("R6.1, R3.9"))
    else:
        order = w.s("ev.order", bids=w.join(items), ref=w.ref_to("R6.1"))
    return w.sentences(head, order)


def _ev_market_closed(w: Words, d: dict) -> str:
    return w.s(
        "ev.market_closed",
        market=w.market(d["market"]),
        side=w(f"side.{d['next_stall']}"),
        ref=w.ref_to("R6.5, R6.6"),
    )


def count_key(key: str, count: int) -> str:
    """``key`` or, for exactly one, its singular sentence ``key.one`` ("1 new card is drawn"):
    the catalogues word a count of one apart."""
    return f"{key}.one" if count == 1 else key


def _ev_akhenaton(w: Words, d: dict) -> str:
    market = w.market(d["market"])
    ref = w.ref_to("R6.8, R7.1")
    if d["drawn"] and d.get("hidden"):  # drawn on a copy: the deck's order is no one's to tell
        key = count_key("ev.akhenaton.after_hidden", len(d["drawn"]))
        return w.s(key, market=market, count=len(d["drawn"]), ref=ref)
    if d["drawn"]:
        return w.s("ev.akhenaton.after", market=market, cards=w.cards(d["drawn"]), ref=ref)
    return w.s("ev.akhenaton", market=market, ref=ref)


def _ev_reopen(w: Words, d: dict) -> str:
    market = w.market(d["market"])
    ref = w.ref_to(d["rule"])
    if d["drawn"] and d.get("hidden"):  # an exercise's copy: which cards come up is unknown (R12)
        key = count_key("ev.reopen.hidden", len(d["drawn"]))
        head = w.s(key, market=market, count=len(d["drawn"]), ref=ref)
    elif d["drawn"]:
        head = w.s(
            count_key("ev.reopen", len(d["drawn"])),
            market=market,
            count=len(d["drawn"]),
            cards=w.cards(d["drawn"]),
            ref=ref,
        )
    else:
        head = w.s("ev.reopen.nodraw", market=market, ref=ref)
    return w.sentences(head, w.s("ev.reopen.seal" if d["seal"] else "ev.reopen.noseal"))


def _game_over_head(w: Words, d: dict) -> str:
    if d.get("variant_end"):
        return w.s("ev.game_over.variant", ref=w.ref_to("R13"))
    return w.s("ev.game_over", ref=w.ref_to("R7.1, R9"))


def _ev_game_over(w: Words, d: dict) -> str:
    won = list(d["winners"])
    key = "ev.game_over.winner" if len(won) == 1 else "ev.game_over.shared"
    return w.sentences(_game_over_head(w, d), w.s(key, players=w.players(won)))


def _ev_vizier(w: Words, d: dict) -> str:
    held = d.get("held") or []
    return w.s(
        "ev.vizier",
        player=w.player(d["seat"]),
        types=d["types"],
        names=w.join(w.gift(t) for t in held) if held else "-",
        per=R.VIZIER_POINTS_PER_TYPE,
        points=d["points"],
        ref=w.ref_to(d["rule"]),
    )


def _ev_exchange(w: Words, d: dict) -> str:
    player, partner = w.player(d["seat"]), w.player(d["partner"])
    given, taken = w.card(d["given"]), w.card(d["taken"])
    head = w.s(
        "ev.exchange",
        player=player,
        partner=partner,
        given=given,
        taken=taken,
        ref=w.ref_to(d["rule"]),
    )
    params = dict(
        player=player,
        partner=partner,
        given=given,
        taken=taken,
        given_max=d["given_max"],
        taken_max=d["taken_max"],
        paid=d["paid"],
    )
    money = w.s("ev.exchange.pay" if d["paid"] else "ev.exchange.nopay", **params)
    notes = []
    for kind, value in ((d["given"], d["given_max"]), (d["taken"], d["taken_max"])):
        t = R.KIND_TYPE[kind]
        if value == R.GIFT_VALUES[t][0] * R.KIND_WEIGHT[kind]:
            note = w.estimate(t, 1, R.GIFT_VALUES[t][0])
            if note and note not in notes:
                notes.append(note)
    return w.sentences(head, money, *notes)


def _ev_royal_servant(w: Words, d: dict) -> str:
    items = []
    for seat, kind, points in d["scored"]:
        key = "ev.royal.item_double" if kind == R.K_DOUBLE_SENET else "ev.royal.item"
        items.append(w(key, player=w.player(seat), points=points))
    t = d["gift_type"]
    head = w.s(
        "ev.royal_servant",
        player=w.player(d["seat"]),
        gift=w.gift(t),
        holders=w.holders(d["holders"]),
        value=d["value"],
        scored=w.join(items),
        ref=w.ref_to(d["rule"]),
    )
    return w.sentences(head, w.estimate(t, d["holders"], d["value"]))


def _ev_scribe(w: Words, d: dict) -> str:
    t = d["gift_type"]
    head = w.s(
        "ev.scribe",
        player=w.player(d["seat"]),
        points=d["points"],
        character=w.character(f"scribe+{d['bonus']}"),
        count=w.count(t, d["count"]),
        value=d["value"],
        holders=w.holders(d["holders"]),
        bonus=d["bonus"],
        ref=w.ref_to(d["rule"]),
    )
    return w.sentences(head, w.estimate(t, d["holders"], d["value"]))


def _ev_forced(w: Words, d: dict) -> str:
    """Why a decision had a single legal option (the engine took it at once, E3)."""
    player = w.player(d["seat"])
    try:
        option = O.parse_option(d["option"], w.colours)
    except ValueError:
        return w.s("ev.forced", player=player, option=d["option"])
    kind, arg = O.OPTION_KIND[option], O.OPTION_ARG[option]
    if kind in (O.PASS, O.HALF) and d.get("cards") is not None:
        if d["cards"] == 0:
            why = w("ev.forced.why.no_cards")
        else:
            why = w("ev.forced.why.too_poor", player=player, bid=d["bid"], deben=d["deben"])
        key = "ev.forced.pass" if kind == O.PASS else "ev.forced.half"
        return w.s(key, player=player, why=why, ref=w.ref_to("R6.4"))
    if kind == O.TAKE:
        slots = w.join(w.slot(s) for s in O.take_slots(option))
        return w.s("ev.forced.take", player=player, slots=slots, ref=w.ref_to("R6.2"))
    if kind == O.DISCARD:
        return w.s("ev.forced.discard", player=player, card=w.card(arg), ref=w.ref_to("R6.3"))
    if kind == O.CLOSE:
        return w.s("ev.forced.close", player=player, market=w.market(arg), ref=w.ref_to("R5.4"))
    if kind == O.PLACE:
        stall = R.STALLS[O.SQUARE_STALL[option]]
        return w.s(
            "ev.forced.place",
            player=player,
            stall=w.stall(stall),
            square=square_name(stall, O.SQUARE_INDEX[option], w.lang),
            ref=w.ref_to("R5.2"),
        )
    if kind == O.BUY:
        return w.s("ev.forced.buy", player=player, slot=w.slot(arg), ref=w.ref_to("R6.4"))
    if kind == O.CHIEF_TAKE:
        return w.s("ev.forced.chief", player=player, slot=w.slot(arg), ref=w.ref_to("R10.5"))
    if kind == O.ROYAL:
        return w.s("ev.forced.royal", player=player, gift=w.gift(arg), ref=w.ref_to("R10.6"))
    if kind == O.SCRIBE:
        return w.s("ev.forced.scribe", player=player, gift=w.gift(arg), ref=w.ref_to("R10.7"))
    if kind == O.TREASURER_MARKET:
        return w.s(
            "ev.forced.treasurer_market",
            player=player,
            market=w.market(arg),
            ref=w.ref_to("R10.8"),
        )
    if kind == O.TREASURER_AMOUNT:
        return w.s(
            "ev.forced.treasurer_amount",
            player=player,
            amount=arg,
            ref=w.ref_to("R10.8"),
        )
    if kind == O.EXCHANGE_TAKE:
        seat, card = arg
        return w.s(
            "ev.forced.exchange",
            player=player,
            partner=w.player(seat),
            card=w.card(card),
            ref=w.ref_to("R10.3"),
        )
    if kind == O.EXCHANGE_GIVE:
        return w.s("ev.forced.give", player=player, card=w.card(arg), ref=w.ref_to("R10.3"))
    if kind == O.EXCHANGE_DONE:
        return w.s("ev.forced.exchange_done", player=player, ref=w.ref_to("R10.3"))
    return w.s("ev.forced", player=player, option=d["option"])


_EVENTS = {
    **_GENERIC,
    "setup": _ev_setup,
    "place": _ev_place,
    "roll": _ev_roll,
    "market_closes": _ev_market_closes,
    "market_closed": _ev_market_closed,
    "akhenaton": _ev_akhenaton,
    "reopen": _ev_reopen,
    "game_over": _ev_game_over,
    "vizier": _ev_vizier,
    "exchange": _ev_exchange,
    "royal_servant": _ev_royal_servant,
    "scribe": _ev_scribe,
    "forced": _ev_forced,
}

#: Every event this module explains (each has the message ``ev.<name>`` in every catalog).
EXPLAINED_EVENTS = frozenset(_EVENTS)
#: The events worded generically: the message and the event's own fields, its rule the one the
#: engine put in the event.
GENERIC_EVENTS = frozenset(_GENERIC)


def describe_event(name: str, data: dict, colours, lang: str = DEFAULT_LANGUAGE) -> str | None:
    """One event of ``GameState.log`` in plain words, naming its rule; None for bookkeeping.

    ``colours`` are the game's colours by seat (``state.colours``). An event this module does
    not know raises KeyError, so that a new engine event cannot go unexplained unnoticed.
    """
    if name in SILENT_EVENTS:
        return None
    handler = _EVENTS.get(name)
    if handler is None:
        raise KeyError(f"no explanation for the event {name!r}")
    return handler(Words(lang, colours), data)


def narrate(state: GameState, lang: str = DEFAULT_LANGUAGE, start: int = 0) -> list[str]:
    """The explanations of ``state.log[start:]``, in order (bookkeeping events skipped).

    The end of the game is followed by the winner and the tie-break, if any (R9.2).
    """
    if state.log is None:
        raise ValueError("this game records no events: create it with record_events=True")
    w = Words(lang, state.colours)
    out = []
    for name, data in state.log[start:]:
        if name == "game_over" and state.is_over:
            out.append(w.sentences(_game_over_head(w, data), winner_line(state, lang)))
            continue
        text = describe_event(name, data, state.colours, lang)
        if text:
            out.append(text)
    return out


# ---------------------------------------------------------------------------------------------
# The pending decision
# ---------------------------------------------------------------------------------------------
_PHASES_WITH_BID = (P_TAKE, P_SHAME, P_BID)
_PHASES_WITH_CHARACTER = (P_EXCHANGE_TAKE, P_EXCHANGE_GIVE, P_SCRIBE)


def why_deciding(state: GameState, lang: str = DEFAULT_LANGUAGE) -> str:
    """Why the decider decides now, in words: the step of the turn (R5), of a market's
    settling (R6, with the bid being settled) or of a character (R10) the game is at."""
    w = Words(lang, state.colours)
    phase = state.phase
    params = dict(player=w.player(state.decider))
    if state.res_market >= 0 and phase in _PHASES_WITH_BID:
        params.update(market=w.market(state.res_market), bid=state.current_bid())
    if phase in _PHASES_WITH_CHARACTER and state.character >= 0:
        params["character"] = w.character(R.CHARACTER_CARDS[state.character])
    if phase == P_CHIEF:
        params["market"] = w.market(state.tile)
    if phase == P_TREASURER_AMOUNT:
        params["market"] = w.market(state.treasurer_market)
    if phase in (P_TURN, P_PLACE):
        legal = state.legal_options()
        if legal and O.OPTION_KIND[legal[0]] == O.CLOSE:
            return w("panel.why.close", **params)
        # No character can be recruited now (the basic game, no seal, empty piles): the turn is
        # just the placement, so do not offer what is not on offer.
        recruits = any(O.OPTION_KIND[o] == O.RECRUIT for o in legal)
        text = w(f"panel.why.{phase if recruits else P_PLACE}", **params)
        if phase == P_PLACE and state.placements_left > 1:
            text += " " + w("panel.why.placements_left", left=state.placements_left)
        return text
    return w(f"panel.why.{phase}", **params)


# ---------------------------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------------------------
def _card_phrase(w: Words, state: GameState, market: int, slot: int) -> str:
    kind = state.cards[market][slot]
    if kind < 0:
        return w.slot(slot)  # an empty slot (only for an option that is not legal now)
    card = w.card(kind)
    if slot == R.UPPER and state.seal_on_upper[market]:
        return w("opt.card_seal", slot=w.slot(slot), card=card)
    return w("opt.card", slot=w.slot(slot), card=card)


def _current_bid(state: GameState) -> int:
    m = state.res_market
    stall = state.visible_stall(m)
    return stall.squares[state.res_queue[state.res_pos]].value


def _place_details(w: Words, state: GameState, option: int) -> list[str]:
    stall = R.STALLS[O.SQUARE_STALL[option]]
    index = O.SQUARE_INDEX[option]
    square = stall.squares[index]
    m = stall.market
    p = state.decider
    details = [w("opt.d.bid", value=square.value)]
    if square.symbol == R.DEBEN:
        details.append(w("opt.d.deben_square"))
    elif square.symbol == R.SINGLE:
        details.append(w("opt.d.single"))
    elif square.symbol == R.EXTRA:
        details.append(w("opt.d.extra"))
    first = state.mask[m] == 0
    if first:
        details.append(w("opt.d.first"))
    due = first + (square.symbol == R.DEBEN)
    paid = min(due, state.reserve[m])
    if due and paid == due:
        details.append(w("opt.d.bonus", paid=paid))
    elif due and paid:
        details.append(w("opt.d.bonus_short", paid=paid, due=due))
    elif due:
        details.append(w("opt.d.bonus_none"))
    mask = state.mask[m] | 1 << index
    if stall.rule == R.TWO_DICE:
        details.append(w("opt.d.roll_two"))
    elif stall.rule == R.ONE_DIE_RUN:
        details.append(w("opt.d.roll_one", run=R.RUN_TABLE[stall.id][mask]))
    if R.placement_closes(stall.id, state.mask[m], state.owners[m], index, p):
        details.append(w("opt.d.closes", ref=stall.rule_id))
    return details


def _recruit_hint(w: Words, state: GameState, pile: int, card: int) -> str:
    p = state.decider
    if pile == R.VIZIER:
        types = sum(1 for t in range(len(R.GIFT_TYPES)) if state.type_count(p, t))
        return w("opt.hint.vizier", points=R.VIZIER_POINTS_PER_TYPE * types, types=types)
    if pile == R.MERCHANT:
        return w("opt.hint.first_merchant" if card == R.C_FIRST_MERCHANT else "opt.hint.merchant")
    if pile == R.CHIEF:
        return w("opt.hint.chief", market=w.market(state.tile) if state.tile >= 0 else "-")
    if pile == R.SCRIBE:
        return w("opt.hint.scribe", bonus=R.SCRIBE_BONUS[card])
    if pile == R.TREASURER:
        return w("opt.hint.treasurer", most=R.TREASURER_MAX)
    return w(f"opt.hint.{R.PILES[pile]}")


def describe_option(
    state: GameState, option: int, lang: str = DEFAULT_LANGUAGE, short: bool = False
) -> str:
    """One option of the pending decision in words, for a button (translated). ``short``: only
    what the option is, without what it brings (for a list of options in a sentence)."""
    w = Words(lang, state.colours)
    kind, arg = O.OPTION_KIND[option], O.OPTION_ARG[option]
    p = state.decider
    if short and kind == O.PLACE:
        stall = R.STALLS[O.SQUARE_STALL[option]]
        square = square_name(stall, O.SQUARE_INDEX[option], w.lang)
        return w.s("opt.short.place", stall=w.stall(stall), square=square)
    if short and kind == O.TAKE and not O.take_slots(option):
        return w.s("opt.short.take_none")
    if short and kind == O.CLOSE:
        return w.s("opt.short.close", market=w.market(arg))
    if short and kind == O.RECRUIT:  # the pile's top card; an empty pile by its name
        pile = state.piles[arg]
        who = w.character(R.CHARACTER_CARDS[pile[0]]) if pile else w(f"pile.{R.PILES[arg]}")
        return w.s("opt.short.recruit", character=who)
    if short and kind == O.ROYAL:
        return w.s("opt.short.royal", gift=w.gift(arg))
    if short and kind == O.SCRIBE:
        return w.s("opt.short.scribe", gift=w.gift(arg))
    if short and kind in (O.EXCHANGE_TAKE, O.EXCHANGE_GIVE):
        seat, card = arg if kind == O.EXCHANGE_TAKE else (state.exchange_take[0], arg)
        key = "opt.short.exchange" if kind == O.EXCHANGE_TAKE else "opt.short.give"
        return w.s(key, partner=w.player(seat), card=w.card(card))
    if kind == O.PLACE:
        stall = R.STALLS[O.SQUARE_STALL[option]]
        return w.s(
            "opt.place",
            stall=w.stall(stall),
            square=square_name(stall, O.SQUARE_INDEX[option], w.lang),
            details=w.semi(_place_details(w, state, option)),
        )
    if kind == O.CLOSE:
        return w.s("opt.close", market=w.market(arg))
    if kind == O.RECRUIT:
        card = state.piles[arg][0]  # only the top card of a pile is recruited (R2.3)
        return w.s(
            "opt.recruit",
            character=w.character(R.CHARACTER_CARDS[card]),
            hint=_recruit_hint(w, state, arg, card),
        )
    if kind == O.TAKE:
        m = state.res_market
        cards = [_card_phrase(w, state, m, s) for s in O.take_slots(option)]
        return w.s("opt.take", cards=w.join(cards))
    if kind == O.DISCARD:
        return w.s("opt.discard", card=w.card(arg))
    if kind == O.BUY:
        m = state.res_market
        return w.s("opt.buy", card=_card_phrase(w, state, m, arg), bid=_current_bid(state))
    if kind == O.HALF:
        reserve = state.reserve[state.res_market]
        return w.s("opt.half", amount=R.half_reserve(reserve), reserve=reserve)
    if kind == O.PASS:
        return w.s("opt.pass")
    if kind == O.EXCHANGE_TAKE:
        seat, card = arg
        return w.s(
            "opt.exchange",
            partner=w.player(seat),
            card=w.card(card),
            value=state.max_values[card],
        )
    if kind == O.EXCHANGE_GIVE:
        seat, taken = state.exchange_take
        pay = max(0, state.max_values[taken] - state.max_values[arg])
        params = dict(
            card=w.card(arg),
            partner=w.player(seat),
            pay=pay,
            given_max=state.max_values[arg],
            taken_max=state.max_values[taken],
        )
        return w.s("opt.give_pay" if pay else "opt.give", **params)
    if kind == O.EXCHANGE_DONE:
        return w.s("opt.exchange_done")
    if kind == O.CHIEF_TAKE:
        return w.s(
            "opt.chief", card=_card_phrase(w, state, state.tile, arg), market=w.market(state.tile)
        )
    if kind == O.ROYAL:
        holders = state.holders(arg)
        return w.s(
            "opt.royal",
            gift=w.gift(arg),
            holders=w.holders(holders),
            value=state.gift_value(arg, holders),
            mine=state.type_count(p, arg),
        )
    if kind == O.SCRIBE:
        bonus = R.SCRIBE_BONUS.get(state.character, 0)
        count = state.type_count(p, arg)
        value = state.gift_value(arg)
        return w.s(
            "opt.scribe",
            count=w.count(arg, count),
            n=count,
            value=value,
            bonus=bonus,
            points=(value + bonus) * count,
        )
    if kind == O.TREASURER_MARKET:
        return w.s("opt.treasurer_market", market=w.market(arg), reserve=state.reserve[arg])
    if kind == O.TREASURER_AMOUNT:
        m = state.treasurer_market
        return w.s("opt.treasurer_amount", amount=arg, market=w.market(m) if m >= 0 else "-")
    if kind == O.REROLL:
        return w.s("opt.reroll", market=w.market(R.LOUQSOR))
    return w.s("opt.keep")


# ---------------------------------------------------------------------------------------------
# Scores
# ---------------------------------------------------------------------------------------------
def score_lines(state: GameState, seat: int, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """``seat``'s score as R9.1 adds it up, one line per part, the total last."""
    w = Words(lang, state.colours)
    b = score_breakdown(state, seat)
    lines = []
    for line in b.gifts:
        t = R.GIFT_TYPES.index(line.gift_type)
        double = t == R.SENET and bool(state.gifts[seat][R.K_DOUBLE_SENET])
        count = w.count(t, line.count, double_senet=double)
        estimated = (
            state.values[t] == R.GIFT_VALUES[t]
            and line.holders in (R.ESTIMATED_VALUES[line.gift_type])
        )
        lines.append(
            w.s(
                "score.gift.estimated" if estimated else "score.gift",
                count=count,
                value=line.value,
                holders=w.holders(line.holders),
                points=line.points,
            )
        )
    lines.append(w.s("score.deben", deben=b.deben, points=b.deben_points))
    lines.append(
        w.s("score.seals", seals=w.seals(b.seals), per=POINTS_PER_SEAL, points=b.seal_points)
    )
    lines.append(w.s("score.prestige", points=b.prestige))
    lines.append(w.s("score.total", player=w.player(seat), total=b.total))
    return lines


def winner_line(state: GameState, lang: str = DEFAULT_LANGUAGE) -> str:
    """Who wins (or leads, before the end), with the tie-break on Deben (R9.2)."""
    w = Words(lang, state.colours)
    scores = totals(state)
    best = max(scores)
    tied = [p for p in range(state.n) if scores[p] == best]
    won = list(winners(state))
    lead = "" if state.is_over else ".lead"
    if len(tied) == 1:
        return w.s("score.winner" + lead, player=w.player(won[0]), points=best)
    deben = state.deben[won[0]]
    if len(won) == 1:
        others = [
            w("ev.bid_item", player=w.player(p), value=state.deben[p]) for p in tied if p != won[0]
        ]
        return w.s(
            "score.winner.tiebreak" + lead,
            players=w.players(tied),
            points=best,
            player=w.player(won[0]),
            deben=deben,
            others=w.join(others),
        )
    if len(won) == len(tied):
        return w.s("score.winner.shared" + lead, players=w.players(won), points=best, deben=deben)
    return w.s(
        "score.winner.shared_some" + lead,
        tied=w.players(tied),
        players=w.players(won),
        points=best,
        deben=deben,
    )


def score_table(state: GameState, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """Every player's score breakdown (R9.1), then the winner line with its tie-break (R9.2)."""
    w = Words(lang, state.colours)
    out = [w.s("score.table.final" if state.is_over else "score.table.now")]
    for seat in range(state.n):
        out.append(w.s("score.player", player=w.player(seat)))
        out.extend("  " + line for line in score_lines(state, seat, lang))
    out.append(winner_line(state, lang))
    return out
