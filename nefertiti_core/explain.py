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

from . import options as O
from . import rules as R
from .i18n import DEFAULT_LANGUAGE, tr
from .scoring import POINTS_PER_SEAL, score_breakdown, totals, winners
from .squares import square_name

if TYPE_CHECKING:
    from .state import GameState

#: Events that are pure bookkeeping: the option chosen is explained by the events it causes.
SILENT_EVENTS = frozenset({"decision"})

_STALL_BY_NAME = {stall.name: stall for stall in R.STALLS}


# ---------------------------------------------------------------------------------------------
# Wording helpers
# ---------------------------------------------------------------------------------------------
def _cap(text: str) -> str:
    """The first letter upper-case (a sentence may start with a name that is lower-case)."""
    return text[:1].upper() + text[1:] if text else text


class _Words:
    """Catalog look-ups for one language and one game's colours."""

    def __init__(self, lang: str, colours):
        self.lang = lang
        self.colours = tuple(colours)

    def __call__(self, key: str, **params) -> str:
        return tr(self.lang, key, **params)

    def s(self, key: str, **params) -> str:
        """A whole sentence: its first letter upper-case."""
        return _cap(tr(self.lang, key, **params))

    def sentences(self, *parts: str | None) -> str:
        text = ""
        for part in parts:
            if part:
                text = part if not text else self("join.sentences", first=text, second=part)
        return text

    def join(self, items) -> str:
        items = [str(i) for i in items]
        if not items:
            return ""
        if len(items) == 1:
            return items[0]
        head = self("list.sep").join(items[:-1])
        return self("list.last", head=head, last=items[-1])

    def semi(self, items) -> str:
        return self("list.semi").join(items)

    # pieces
    def player(self, seat: int) -> str:
        return self(f"colour.{self.colours[seat]}")

    def players(self, seats) -> str:
        return self.join(self.player(p) for p in seats)

    def market(self, m: int) -> str:
        return self(f"market.{R.MARKETS[m]}")

    def stall(self, stall: R.Stall) -> str:
        return self(
            "stall.name", market=self.market(stall.market), side=self(f"side.{R.SIDES[stall.side]}")
        )

    def card(self, kind: int) -> str:
        if kind == R.AKHENATON:
            return self("card.akhenaton")
        return self(f"card.{R.CARD_KINDS[kind]}")

    def cards(self, kinds) -> str:
        return self.join(self.card(k) for k in kinds)

    def slot(self, slot: int) -> str:
        return self(f"slot.{R.SLOTS[slot]}")

    def gift(self, gift_type: int, count: int = 2) -> str:
        """A gift type's name: singular for one gift, plural otherwise."""
        name = R.GIFT_TYPES[gift_type]
        return self(f"card.{name}") if count == 1 else self(f"gift.{name}")

    def count(self, gift_type: int, count: int) -> str:
        return self("count.gift", n=count, gift=self.gift(gift_type, count))

    def holders(self, holders: int) -> str:
        return self("holders.one") if holders == 1 else self("holders.many", n=holders)

    def seals(self, seals: int) -> str:
        return self("count.seal.one") if seals == 1 else self("count.seal.many", n=seals)

    def character(self, card: str) -> str:
        return self(f"character.{card}")

    def ref(self, section: str, rule: str) -> str:
        return self("ref", section=self(f"section.{section}"), rule=rule)

    def estimate(self, gift_type: int, holders: int, value: int) -> str | None:
        """A note when a gift value comes from no printed card (R8's estimates)."""
        name = R.GIFT_TYPES[gift_type]
        if (
            holders
            and holders in R.ESTIMATED_VALUES[name]
            and value == R.GIFT_VALUES[gift_type][holders - 1]
        ):
            return self.s(
                "note.estimate",
                value=value,
                gift=self.gift(gift_type),
                holders=self.holders(holders),
            )
        return None


def _values(stall: R.Stall, squares) -> list[int]:
    return sorted(stall.squares[i].value for i in squares)


def _dash(values) -> str:
    return "-".join(str(v) for v in values)


def _largest_group(stall: R.Stall, squares) -> list[int]:
    """The largest connected group of occupied squares (R3.1), as square indices."""
    occupied = set(squares)
    neighbours: dict[int, set[int]] = {i: set() for i in occupied}
    for a, b in stall.groups:
        if a in occupied and b in occupied:
            neighbours[a].add(b)
            neighbours[b].add(a)
    best: list[int] = []
    seen: set[int] = set()
    for start in sorted(occupied):
        if start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            sq = stack.pop()
            group.append(sq)
            for nb in neighbours[sq]:
                if nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        if len(group) > len(best):
            best = group
    return best


# ---------------------------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------------------------
def _ev_setup(w: _Words, d: dict) -> str:
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
        ref=w.ref("setup", "R2.6-R2.8"),
    )


def _ev_reroll(w: _Words, d: dict) -> str:
    return w.s("ev.reroll", player=w.player(d["seat"]), ref=w.ref("markets", "R4.2"))


def _ev_turn(w: _Words, d: dict) -> str:
    return w.s("ev.turn", turn=d["turn"], player=w.player(d["seat"]))


def _ev_place(w: _Words, d: dict) -> str:
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
            ref=w.ref("place", "R5.2"),
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
            ref=w.ref("place", "R5.3"),
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


def _ev_roll(w: _Words, d: dict) -> str:
    two = d["rule"] == R.stall_of(R.LOUQSOR, R.LEFT).rule_id
    stall = R.stall_of(R.LOUQSOR, R.LEFT if two else R.RIGHT)
    dice = list(d["dice"])
    occupied = sorted(d.get("occupied") or [])
    player = w.player(d["seat"])
    head = w.s("ev.roll", player=player, dice=w.join(dice), stall=w.stall(stall))
    if two:
        ref = w.ref("markets", "R3.7" if d["closes"] else "R3.7, R4.1")
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
        ref = w.ref("markets", "R3.8" if d["closes"] else "R3.8, R4.1")
        params = dict(
            player=player, die=dice[0], run=run, squares=_dash(run_values) or "-", ref=ref
        )
        tail = w.s("ev.roll.one_closes" if d["closes"] else "ev.roll.one_stays", **params)
    return w.sentences(head, tail)


def _closing_reason(w: _Words, stall: R.Stall, d: dict) -> str:
    squares = d["squares"]
    rule = stall.rule
    if rule == R.CONNECTED4:
        group = _largest_group(stall, squares)
        return w("ev.why.connected4", count=len(group), squares=_dash(_values(stall, group)))
    if rule == R.COLOURS3_OR_4:
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


def _ev_market_closes(w: _Words, d: dict) -> str:
    stall = _STALL_BY_NAME[d["stall"]]
    if d["cause"] == "no_servant":
        head = w.s(
            "ev.market_closes.no_servant",
            market=w.market(d["market"]),
            player=w.player(d["seat"]),
            ref=w.ref("place", "R5.4"),
        )
    else:
        head = w.s(
            "ev.market_closes",
            stall=w.stall(stall),
            reason=_closing_reason(w, stall, d),
            ref=w.ref("markets", stall.rule_id),
        )
    bids = d["bids"]
    if not bids:
        return head
    values = [v for _, v in bids]
    items = [w("ev.bid_item", player=w.player(seat), value=v) for seat, v in bids]
    if len(set(values)) < len(values):
        order = w.s("ev.order.ties", bids=w.join(items), ref=w.ref("closing", "R6.1, R3.9"))
    else:
        order = w.s("ev.order", bids=w.join(items), ref=w.ref("closing", "R6.1"))
    return w.sentences(head, order)


def _ev_close_by_choice(w: _Words, d: dict) -> str:
    return w.s(
        "ev.close_by_choice",
        player=w.player(d["seat"]),
        market=w.market(d["market"]),
        ref=w.ref("place", "R5.4"),
    )


def _ev_pay(w: _Words, d: dict) -> str:
    return w.s(
        "ev.pay",
        player=w.player(d["seat"]),
        amount=d["amount"],
        market=w.market(d["market"]),
        ref=w.ref("closing", "R6.2"),
    )


def _ev_no_cards(w: _Words, d: dict) -> str:
    return w.s(
        "ev.no_cards",
        player=w.player(d["seat"]),
        market=w.market(d["market"]),
        ref=w.ref("closing", "R6.2"),
    )


def _ev_cannot_pay(w: _Words, d: dict) -> str:
    return w.s(
        "ev.cannot_pay",
        player=w.player(d["seat"]),
        bid=d["bid"],
        deben=d["deben"],
        ref=w.ref("closing", "R6.3"),
    )


def _ev_cannot_pay_no_gift(w: _Words, d: dict) -> str:
    return w.s(
        "ev.cannot_pay_no_gift",
        player=w.player(d["seat"]),
        bid=d["bid"],
        deben=d["deben"],
        ref=w.ref("closing", "R6.3"),
    )


def _ev_gift_taken(w: _Words, d: dict) -> str:
    key = "ev.gift_taken.seal" if d["seal"] else "ev.gift_taken"
    return w.s(
        key,
        player=w.player(d["seat"]),
        card=w.card(d["card"]),
        slot=w.slot(d["slot"]),
        market=w.market(d["market"]),
    )


def _ev_shame_discard(w: _Words, d: dict) -> str:
    return w.s(
        "ev.shame_discard",
        player=w.player(d["seat"]),
        card=w.card(d["card"]),
        ref=w.ref("closing", "R6.3"),
    )


def _ev_buy(w: _Words, d: dict) -> str:
    return w.s(
        "ev.buy",
        player=w.player(d["seat"]),
        amount=d["amount"],
        market=w.market(d["market"]),
        ref=w.ref("closing", "R6.4"),
    )


def _ev_half(w: _Words, d: dict) -> str:
    left = d.get("left", 0)
    return w.s(
        "ev.half",
        player=w.player(d["seat"]),
        amount=d["amount"],
        before=d["amount"] + left,
        left=left,
        market=w.market(d["market"]),
        ref=w.ref("closing", "R6.4"),
    )


def _ev_pass(w: _Words, d: dict) -> str:
    return w.s(
        "ev.pass",
        player=w.player(d["seat"]),
        market=w.market(d["market"]),
        ref=w.ref("closing", "R6.4"),
    )


def _ev_market_closed(w: _Words, d: dict) -> str:
    return w.s(
        "ev.market_closed",
        market=w.market(d["market"]),
        side=w(f"side.{d['next_stall']}"),
        ref=w.ref("closing", "R6.5, R6.6"),
    )


def _ev_stays_closed(w: _Words, d: dict) -> str:
    return w.s("ev.stays_closed", market=w.market(d["market"]), ref=w.ref("closing", "R6.8"))


def _ev_akhenaton(w: _Words, d: dict) -> str:
    market = w.market(d["market"])
    ref = w.ref("closing", "R6.8, R7.1")
    if d["drawn"]:
        return w.s("ev.akhenaton.after", market=market, cards=w.cards(d["drawn"]), ref=ref)
    return w.s("ev.akhenaton", market=market, ref=ref)


def _ev_reopen(w: _Words, d: dict) -> str:
    market = w.market(d["market"])
    ref = w.ref("closing", "R6.7")
    if d["drawn"]:
        head = w.s(
            "ev.reopen", market=market, count=len(d["drawn"]), cards=w.cards(d["drawn"]), ref=ref
        )
    else:
        head = w.s("ev.reopen.nodraw", market=market, ref=ref)
    return w.sentences(head, w.s("ev.reopen.seal" if d["seal"] else "ev.reopen.noseal"))


def _game_over_head(w: _Words, d: dict) -> str:
    if d.get("variant_end"):
        return w.s("ev.game_over.variant", ref=w.ref("scoring", "R13"))
    return w.s("ev.game_over", ref=w.ref("scoring", "R7.1, R9"))


def _ev_game_over(w: _Words, d: dict) -> str:
    won = list(d["winners"])
    key = "ev.game_over.winner" if len(won) == 1 else "ev.game_over.shared"
    return w.sentences(_game_over_head(w, d), w.s(key, players=w.players(won)))


def _ev_recruit(w: _Words, d: dict) -> str:
    return w.s(
        "ev.recruit",
        player=w.player(d["seat"]),
        character=w.character(d["card"]),
        ref=w.ref("character", "R5.1"),
    )


def _ev_vizier(w: _Words, d: dict) -> str:
    held = d.get("held") or []
    return w.s(
        "ev.vizier",
        player=w.player(d["seat"]),
        types=d["types"],
        names=w.join(w.gift(t) for t in held) if held else "-",
        per=R.VIZIER_POINTS_PER_TYPE,
        points=d["points"],
        ref=w.ref("characters", "R10.2"),
    )


def _ev_high_priest(w: _Words, d: dict) -> str:
    return w.s("ev.high_priest", player=w.player(d["seat"]), ref=w.ref("characters", "R10.4"))


def _ev_exchange(w: _Words, d: dict) -> str:
    player, partner = w.player(d["seat"]), w.player(d["partner"])
    given, taken = w.card(d["given"]), w.card(d["taken"])
    head = w.s(
        "ev.exchange",
        player=player,
        partner=partner,
        given=given,
        taken=taken,
        ref=w.ref("characters", "R10.3"),
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


def _ev_chief(w: _Words, d: dict) -> str:
    return w.s(
        "ev.chief",
        player=w.player(d["seat"]),
        market=w.market(d["market"]),
        ref=w.ref("characters", "R10.5"),
    )


def _ev_royal_servant(w: _Words, d: dict) -> str:
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
        ref=w.ref("characters", "R10.6"),
    )
    return w.sentences(head, w.estimate(t, d["holders"], d["value"]))


def _ev_scribe(w: _Words, d: dict) -> str:
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
        ref=w.ref("characters", "R10.7"),
    )
    return w.sentences(head, w.estimate(t, d["holders"], d["value"]))


def _ev_treasurer(w: _Words, d: dict) -> str:
    return w.s(
        "ev.treasurer",
        player=w.player(d["seat"]),
        amount=d["amount"],
        market=w.market(d["market"]),
        ref=w.ref("characters", "R10.8"),
    )


def _ev_forced(w: _Words, d: dict) -> str:
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
        return w.s(key, player=player, why=why, ref=w.ref("closing", "R6.4"))
    if kind == O.TAKE:
        slots = w.join(w.slot(s) for s in O.take_slots(option))
        return w.s("ev.forced.take", player=player, slots=slots, ref=w.ref("closing", "R6.2"))
    if kind == O.DISCARD:
        return w.s(
            "ev.forced.discard", player=player, card=w.card(arg), ref=w.ref("closing", "R6.3")
        )
    if kind == O.CLOSE:
        return w.s(
            "ev.forced.close", player=player, market=w.market(arg), ref=w.ref("place", "R5.4")
        )
    if kind == O.PLACE:
        stall = R.STALLS[O.SQUARE_STALL[option]]
        return w.s(
            "ev.forced.place",
            player=player,
            stall=w.stall(stall),
            square=square_name(stall, O.SQUARE_INDEX[option], w.lang),
            ref=w.ref("place", "R5.2"),
        )
    if kind == O.BUY:
        return w.s("ev.forced.buy", player=player, slot=w.slot(arg), ref=w.ref("closing", "R6.4"))
    if kind == O.CHIEF_TAKE:
        return w.s(
            "ev.forced.chief", player=player, slot=w.slot(arg), ref=w.ref("characters", "R10.5")
        )
    if kind == O.ROYAL:
        return w.s(
            "ev.forced.royal", player=player, gift=w.gift(arg), ref=w.ref("characters", "R10.6")
        )
    if kind == O.SCRIBE:
        return w.s(
            "ev.forced.scribe", player=player, gift=w.gift(arg), ref=w.ref("characters", "R10.7")
        )
    if kind == O.TREASURER_MARKET:
        return w.s(
            "ev.forced.treasurer_market",
            player=player,
            market=w.market(arg),
            ref=w.ref("characters", "R10.8"),
        )
    if kind == O.TREASURER_AMOUNT:
        return w.s(
            "ev.forced.treasurer_amount",
            player=player,
            amount=arg,
            ref=w.ref("characters", "R10.8"),
        )
    if kind == O.EXCHANGE_TAKE:
        seat, card = arg
        return w.s(
            "ev.forced.exchange",
            player=player,
            partner=w.player(seat),
            card=w.card(card),
            ref=w.ref("characters", "R10.3"),
        )
    if kind == O.EXCHANGE_GIVE:
        return w.s(
            "ev.forced.give", player=player, card=w.card(arg), ref=w.ref("characters", "R10.3")
        )
    if kind == O.EXCHANGE_DONE:
        return w.s("ev.forced.exchange_done", player=player, ref=w.ref("characters", "R10.3"))
    return w.s("ev.forced", player=player, option=d["option"])


_EVENTS = {
    "setup": _ev_setup,
    "turn": _ev_turn,
    "reroll": _ev_reroll,
    "place": _ev_place,
    "roll": _ev_roll,
    "close_by_choice": _ev_close_by_choice,
    "market_closes": _ev_market_closes,
    "pay": _ev_pay,
    "no_cards": _ev_no_cards,
    "cannot_pay": _ev_cannot_pay,
    "cannot_pay_no_gift": _ev_cannot_pay_no_gift,
    "gift_taken": _ev_gift_taken,
    "shame_discard": _ev_shame_discard,
    "buy": _ev_buy,
    "half": _ev_half,
    "pass": _ev_pass,
    "market_closed": _ev_market_closed,
    "stays_closed": _ev_stays_closed,
    "akhenaton": _ev_akhenaton,
    "reopen": _ev_reopen,
    "game_over": _ev_game_over,
    "recruit": _ev_recruit,
    "vizier": _ev_vizier,
    "high_priest": _ev_high_priest,
    "exchange": _ev_exchange,
    "chief": _ev_chief,
    "royal_servant": _ev_royal_servant,
    "scribe": _ev_scribe,
    "treasurer": _ev_treasurer,
    "forced": _ev_forced,
}

#: Every event this module explains (each has the message ``ev.<name>`` in every catalog).
EXPLAINED_EVENTS = frozenset(_EVENTS)


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
    return handler(_Words(lang, colours), data)


def narrate(state: GameState, lang: str = DEFAULT_LANGUAGE, start: int = 0) -> list[str]:
    """The explanations of ``state.log[start:]``, in order (bookkeeping events skipped).

    The end of the game is followed by the winner and the tie-break, if any (R9.2).
    """
    if state.log is None:
        raise ValueError("this game records no events: create it with record_events=True")
    w = _Words(lang, state.colours)
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
# Options
# ---------------------------------------------------------------------------------------------
def _card_phrase(w: _Words, state: GameState, market: int, slot: int) -> str:
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


def _place_details(w: _Words, state: GameState, option: int) -> list[str]:
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
    if stall.rule == R.COLOURS3_OR_4:
        closes = R.colours_close([o for o in state.owners[m] if o >= 0] + [p])
    elif stall.rule == R.TWO_DICE:
        closes = False
        details.append(w("opt.d.roll_two"))
    elif stall.rule == R.ONE_DIE_RUN:
        closes = False
        details.append(w("opt.d.roll_one", run=R.RUN_TABLE[stall.id][mask]))
    else:
        closes = R.CLOSES_TABLE[stall.id][mask]
    if closes:
        details.append(w("opt.d.closes", ref=stall.rule_id))
    return details


def _recruit_hint(w: _Words, state: GameState, pile: int, card: int) -> str:
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


def describe_option(state: GameState, option: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """One option of the pending decision in words, for a button (translated)."""
    w = _Words(lang, state.colours)
    kind, arg = O.OPTION_KIND[option], O.OPTION_ARG[option]
    p = state.decider
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
        return w.s("opt.half", amount=(reserve + 1) // 2, reserve=reserve)
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
    w = _Words(lang, state.colours)
    b = score_breakdown(state, seat)
    lines = []
    for line in b.gifts:
        t = R.GIFT_TYPES.index(line.gift_type)
        if t == R.SENET and state.gifts[seat][R.K_DOUBLE_SENET]:
            count = w("count.senet_double", n=line.count, gift=w.gift(t, line.count))
        else:
            count = w.count(t, line.count)
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
    w = _Words(lang, state.colours)
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
    w = _Words(lang, state.colours)
    out = [w.s("score.table.final" if state.is_over else "score.table.now")]
    for seat in range(state.n):
        out.append(w.s("score.player", player=w.player(seat)))
        out.extend("  " + line for line in score_lines(state, seat, lang))
    out.append(winner_line(state, lang))
    return out
