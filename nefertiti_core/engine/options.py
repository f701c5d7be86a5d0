"""Options: every choice a player can make, as a stable small integer and a readable text.

The id space is fixed for the whole game (like OpenSpiel's actions): ``OPTION_KIND[o]`` and
``OPTION_ARG[o]`` decode an id without any search, and :func:`option_text` / :func:`parse_option`
are each other's inverse. Seats appear in texts by colour, so both take the game's colours.

Notation (one option per line in a game record)::

    place gizeh.left#4        put a servant on square 4 (0-based, R3) of Gizeh's left stall
    close abou_simbel         no servant left: close a market holding one of yours (R5.4)
    recruit scribe            spend a seal on the top card of a character pile (R5.1)
    take upper | take lower1+lower3 | take upper+lower2 | take lower1+lower2+lower3
                              the highest bidder's cards (R6.2)
    discard harp              the highest bidder cannot pay: the gift given up (R6.3)
    buy lower2 | half | pass  another bidder's choice (R6.4)
    exchange red:chair        Merchant: the gift taken from an opponent (R10.3)
    give harp | exchange done Merchant: the gift given in return; stop after one exchange
    chief lower1              Chief: the card taken from the market with the tile (R10.5)
    royal chair               Royal Servant: the gift type named (R10.6)
    scribe senet              Scribe: the gift type scored (R10.7)
    treasurer gizeh | treasurer 3   Treasurer: the reserve, then the amount (R10.8)
    reroll | keep             the Louqsor dice holder's choice at the end of a turn (R4.2)
"""

from __future__ import annotations

import re

from . import rules as R
from .errors import NotationError
from .said_text import Said

# Option kinds.
PLACE = "place"
CLOSE = "close"
RECRUIT = "recruit"
TAKE = "take"
DISCARD = "discard"
BUY = "buy"
HALF = "half"
PASS = "pass"
EXCHANGE_TAKE = "exchange"
EXCHANGE_GIVE = "give"
EXCHANGE_DONE = "exchange done"
CHIEF_TAKE = "chief"
ROYAL = "royal"
SCRIBE = "scribe"
TREASURER_MARKET = "treasurer_market"
TREASURER_AMOUNT = "treasurer_amount"
REROLL = "reroll"
KEEP = "keep"

_TABLE: list[tuple[str, object]] = []  # (kind, argument) per id, filled block by block below


def _block(kind: str, args) -> int:
    first = len(_TABLE)
    _TABLE.extend((kind, a) for a in args)
    return first


# Global square numbers (rules.SQUARE_BASE) double as PLACE ids, so PLACE_BASE must be 0.
PLACE_BASE = _block(PLACE, range(R.NUM_SQUARES))
CLOSE_BASE = _block(CLOSE, range(len(R.MARKETS)))
RECRUIT_BASE = _block(RECRUIT, range(len(R.PILES)))
TAKE_BASE = _block(TAKE, range(16))  # a bit set of slots: bit 0 upper, bits 1-3 lower1-3
DISCARD_BASE = _block(DISCARD, range(R.NUM_KINDS))
BUY_BASE = _block(BUY, range(R.MARKET_CARDS))
HALF_ID = _block(HALF, [None])
PASS_ID = _block(PASS, [None])
EXCHANGE_TAKE_BASE = _block(
    EXCHANGE_TAKE, [(seat, kind) for seat in range(4) for kind in range(R.NUM_KINDS)]
)
EXCHANGE_GIVE_BASE = _block(EXCHANGE_GIVE, range(R.NUM_KINDS))
EXCHANGE_DONE_ID = _block(EXCHANGE_DONE, [None])
CHIEF_BASE = _block(CHIEF_TAKE, range(R.MARKET_CARDS))
ROYAL_BASE = _block(ROYAL, range(len(R.GIFT_TYPES)))
SCRIBE_BASE = _block(SCRIBE, range(len(R.GIFT_TYPES)))
TREASURER_MARKET_BASE = _block(TREASURER_MARKET, range(len(R.MARKETS)))
TREASURER_AMOUNT_BASE = _block(TREASURER_AMOUNT, range(1, R.TREASURER_MAX + 1))
REROLL_ID = _block(REROLL, [None])
KEEP_ID = _block(KEEP, [None])

NUM_OPTIONS = len(_TABLE)
OPTION_KIND: tuple[str, ...] = tuple(kind for kind, _ in _TABLE)
OPTION_ARG: tuple[object, ...] = tuple(arg for _, arg in _TABLE)

# Square id -> (stall id, index in stall).
SQUARE_STALL = tuple(stall.id for stall in R.STALLS for _ in stall.squares)
SQUARE_INDEX = tuple(sq.index for stall in R.STALLS for sq in stall.squares)


def take_id(slots: tuple[int, ...] | list[int]) -> int:
    mask = 0
    for s in slots:
        mask |= 1 << s
    return TAKE_BASE + mask


def take_slots(option: int) -> tuple[int, ...]:
    mask = option - TAKE_BASE
    return tuple(s for s in range(R.MARKET_CARDS) if mask >> s & 1)


def place_id(market: int, side: int, index: int) -> int:
    return R.SQUARE_BASE[market * 2 + side] + index


def square_name(square_id: int) -> str:
    return f"{R.STALLS[SQUARE_STALL[square_id]].name}#{SQUARE_INDEX[square_id]}"


def option_text(option: int, colours: tuple[str, ...] = R.COLOURS) -> str:
    """The notation of one option id (see the module docstring)."""
    if type(option) is not int or not 0 <= option < NUM_OPTIONS:  # not a bool, not a float
        shown = repr(option) if type(option) is not int or abs(option) < 10**40 else "(40+ digits)"
        raise NotationError(Said("notation.option_id", value=shown[:40], last=NUM_OPTIONS - 1))
    kind, arg = OPTION_KIND[option], OPTION_ARG[option]
    if kind == PLACE:
        return f"place {square_name(arg)}"
    if kind == CLOSE:
        return f"close {R.MARKETS[arg]}"
    if kind == RECRUIT:
        return f"recruit {R.PILES[arg]}"
    if kind == TAKE:
        slots = take_slots(option)
        return "take " + "+".join(R.SLOTS[s] for s in slots) if slots else "take nothing"
    if kind in (DISCARD, EXCHANGE_GIVE):
        return f"{kind} {R.CARD_KINDS[arg]}"
    if kind in (BUY, CHIEF_TAKE):
        return f"{kind} {R.SLOTS[arg]}"
    if kind == EXCHANGE_TAKE:
        seat, card = arg
        who = colours[seat] if seat < len(colours) else f"seat{seat}"
        return f"exchange {who}:{R.CARD_KINDS[card]}"
    if kind in (ROYAL, SCRIBE):
        return f"{kind} {R.GIFT_TYPES[arg]}"
    if kind == TREASURER_MARKET:
        return f"treasurer {R.MARKETS[arg]}"
    if kind == TREASURER_AMOUNT:
        return f"treasurer {arg}"
    return kind  # half, pass, exchange done, reroll, keep


_TEXT_CACHE: dict[tuple[str, ...], dict[str, int]] = {}


def _text_index(colours: tuple[str, ...]) -> dict[str, int]:
    index = _TEXT_CACHE.get(colours)
    if index is None:
        index = {option_text(o, colours): o for o in range(NUM_OPTIONS)}
        _TEXT_CACHE[colours] = index
    return index


def parse_option(text: str, colours: tuple[str, ...] = R.COLOURS) -> int:
    """The id of an option written in the notation; spacing and case are forgiven.

    A text that is none raises a :class:`NotationError` whose message is a catalogue message
    (``messages/<lang>/move_notation.json``), said in the reader's language: the text as written
    and either a close option ("did you mean 'place gizeh.left#1'?") or how such an option is
    written."""
    normal = " ".join(str(text).lower().split())
    normal = re.sub(r"\s*([+:])\s*", r"\1", normal)
    index = _text_index(tuple(colours))
    option = index.get(normal)
    if option is None:
        shown = repr(text) if len(repr(text)) <= 40 else repr(text)[:39] + "…"
        near = _near(normal, index)
        if near:
            raise NotationError(Said("notation.not_option_near", move=shown, near=repr(near)))
        raise NotationError(Said("notation.not_option", move=shown, hint=_hint(normal)))
    return option


def _near(normal: str, index: dict[str, int]) -> str | None:
    """A notation text close to ``normal`` (a mistyped word: ``plaec``, ``gizeh.lefty``), or
    None. A square number out of range gets no guess (the hint says how squares count)."""
    from difflib import get_close_matches

    word, _, rest = normal.partition(" ")
    firsts = sorted({text.split(" ", 1)[0] for text in index})
    if word not in firsts:
        close = get_close_matches(word, firsts, n=1, cutoff=0.6)
        if not close:
            return None
        fixed = f"{close[0]} {rest}".strip()
        return fixed if fixed in index else close[0]
    if word == "place":
        stall = rest.partition("#")[0]
        if stall in {text[6:].partition("#")[0] for text in index if text.startswith("place ")}:
            return None  # a known stall: the square is out of range
    same = [text for text in index if text.split(" ", 1)[0] == word]
    close = get_close_matches(normal, same, n=1, cutoff=0.85)
    return close[0] if close else None


def _hint(normal: str) -> Said:
    word = normal.split(" ", 1)[0] if normal else ""
    slots = Said("notation.hint.slots")
    kinds = Said("notation.hint.card_kinds", names=", ".join(R.CARD_KINDS))
    gifts = Said("notation.hint.gift_types", names=", ".join(R.GIFT_TYPES))
    examples = {
        "place": Said("notation.hint.place"),
        "close": Said("notation.hint.close"),
        "recruit": Said("notation.hint.piles", names=", ".join(R.PILES)),
        "take": Said("notation.hint.take"),
        "buy": slots,
        "discard": kinds,
        "give": kinds,
        "exchange": Said("notation.hint.exchange"),
        "royal": gifts,
        "scribe": gifts,
        "treasurer": Said("notation.hint.treasurer"),
        "chief": slots,
    }
    starts = "place, close, recruit, take, discard, buy, half, pass, exchange, give, chief, royal, "
    return examples.get(word) or Said(
        "notation.hint.start", words=starts + "scribe, treasurer, reroll", last="keep"
    )
