"""The game state and its steps: setup, turns, placements, market closings, characters, the end.

One mutable :class:`GameState` holds everything; it always knows who must decide next
(:attr:`GameState.decider`) and that decision's legal options (:meth:`GameState.legal_options`).
A decision with a single legal option is taken automatically (a bidder who can only pass, a
player whose only possible action is closing one market), so every remaining decision is a real
choice. :meth:`GameState.apply` checks an option and explains a refusal; :meth:`apply_unchecked`
is the fast path for bots and self-play.

Rule IDs refer to the rules reference,
:mod:`nefertiti_core.teaching.rules_reference` (``nefertiti rules``).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import NamedTuple

from . import options as O
from . import rules as R
from .errors import (
    GameOverError,
    GameStateBase,
    IllegalOptionError,
    NotationError,
    SetupError,
    require_int,
)
from .limits import MAX_DICE_PER_ROLL, MAX_FORCED_ROLLS, MAX_MOVE_CHARS, echo
from .said_text import Said

# Market status.
OPEN, CLOSED = 0, 1

# Phases: what kind of decision is pending.
P_TURN = "turn"  # recruit a character, or place (R5.1, R5.2)
P_PLACE = "place"  # place a servant or close a market (R5.2-R5.4)
P_TAKE = "take"  # the highest bidder's cards (R6.2)
P_SHAME = "shame"  # the highest bidder cannot pay: discard a gift (R6.3)
P_BID = "bid"  # another bidder: buy, half or pass (R6.4)
P_EXCHANGE_TAKE = "exchange_take"  # Merchant (R10.3)
P_EXCHANGE_GIVE = "exchange_give"
P_CHIEF = "chief"  # R10.5
P_ROYAL = "royal"  # R10.6
P_SCRIBE = "scribe"  # R10.7
P_TREASURER_MARKET = "treasurer_market"  # R10.8
P_TREASURER_AMOUNT = "treasurer_amount"
P_REROLL = "reroll"  # R4.2
P_OVER = "over"

# What happens once a market closing is resolved.
AFTER_ACTION, AFTER_REROLL = 0, 1

_GIFT_TYPE_COUNT = len(R.GIFT_TYPES)
_STALL_VALUES = tuple(tuple(sq.value for sq in st.squares) for st in R.STALLS)
_STALL_SYMBOLS = tuple(tuple(sq.symbol for sq in st.squares) for st in R.STALLS)
_STALL_SIZE = tuple(len(st.squares) for st in R.STALLS)
_STALL_CLOSES = R.stall_closes  # per placement: a module name, not an attribute
_LOUQSOR_LEFT = R.LOUQSOR * 2 + R.LEFT
# _EMPTY[stall][mask]: PLACE ids of the empty squares for an occupancy mask (speed: no loop).
_EMPTY = tuple(
    tuple(
        tuple(R.SQUARE_BASE[st.id] + i for i in range(len(st.squares)) if not mask >> i & 1)
        for mask in range(1 << len(st.squares))
    )
    for st in R.STALLS
)


@dataclass(frozen=True)
class Config:
    """What a teacher chooses before a game (R2): players, seed, layout, characters, variants.

    ``layout``: ``"first"`` (R2.8's first-game layout), ``"random"`` (each market's visible
    stall drawn with the seed), or four sides (``"left"``/``"right"``, Gizeh first; Louqsor's is
    the stall the Market Closed tile lies on).
    """

    players: int = 4
    seed: int | None = 0
    layout: str | tuple[str, ...] = "first"
    characters: bool = True
    first_player: int | None = None
    colours: tuple[str, ...] | None = None
    gift_values: tuple[tuple[int, ...], ...] = R.GIFT_VALUES
    variants: tuple[str, ...] = ()
    auto_forced: bool = True
    record_events: bool = False

    def validated(self) -> Config:
        if type(self.players) is not int or self.players not in (3, 4):
            raise SetupError(f"players must be 3 or 4 (R1.1), not {echo(self.players)}")
        if self.seed is not None and (
            isinstance(self.seed, bool) or not isinstance(self.seed, (int, str))
        ):
            raise SetupError(f"seed must be a whole number, a text or None, not {echo(self.seed)}")
        for flag in ("characters", "auto_forced", "record_events"):
            if not isinstance(getattr(self, flag), bool):
                raise SetupError(f"{flag} must be True or False, not {echo(getattr(self, flag))}")
        if not isinstance(self.layout, (str, tuple, list)):
            raise SetupError(
                f"layout must be 'first', 'random' or four sides, not {echo(self.layout)}"
            )
        if self.first_player is not None and not (
            type(self.first_player) is int and 0 <= self.first_player < self.players
        ):
            raise SetupError(
                f"first_player must be a seat from 0 to {self.players - 1}, "
                f"not {echo(self.first_player)}"
            )
        if isinstance(self.layout, str):
            if self.layout not in ("first", "random"):
                raise SetupError(
                    f"layout must be 'first', 'random' or four sides, not {echo(self.layout)}"
                )
        elif len(self.layout) != 4 or any(s not in R.SIDES for s in self.layout):
            raise SetupError(
                f"a layout of sides needs four of 'left'/'right' (Gizeh, Akhet-Aton, "
                f"Abou Simbel, Louqsor), not {echo(self.layout)}"
            )
        colours = self.colours
        if colours is not None:
            if len(colours) != self.players or len(set(colours)) != self.players:
                raise SetupError(f"colours must name {self.players} different colours")
            if any(c not in R.COLOURS for c in colours):
                raise SetupError(
                    f"colours must be among {', '.join(R.COLOURS)}, not {echo(colours)}"
                )
        if len(self.gift_values) != len(R.GIFT_TYPES) or any(
            len(row) != 4 or any(not isinstance(v, int) or v < 0 for v in row)
            for row in self.gift_values
        ):
            raise SetupError("gift_values needs 7 rows of 4 non-negative integers (R8)")
        unknown = [v for v in self.variants if v not in R.VARIANTS]
        if unknown:
            raise SetupError(
                f"unknown variant(s) {', '.join(map(repr, unknown))}; known: "
                + ", ".join(R.VARIANTS)
            )
        return self


# ------------------------------------------------------------------ the fields, declared once
# Every field of a GameState, in one list. Each says how a copy treats it and how it shows in
# ``public_key`` (what every player can see, R12). ``__slots__``, ``copy``, ``public_key`` and the
# bots' look-ahead copy (``fast_copy``) are all made from this list, so a field added here is
# copied and keyed (or declared hidden, with its reason) everywhere at once.

# How a copy treats a field.
IMMUTABLE = "immutable"  # an int, str, bool, None, tuple, frozenset or frozen dataclass: shared
FLAT = "flat list"  # a list of immutables: copied with [:]
NESTED = "nested list"  # a list of flat lists: each inner list copied
RANDOM = "random source"  # copy(): an independent clone; fast_copy: the source it is given
EVENTS = "event log"  # None or a list: copy() makes a new list of the same (never changed)
# events; fast_copy keeps no log

# How a field shows in public_key.
PUBLIC = "public"  # as it is (a list as a tuple, a list of lists as a tuple of tuples)
PUBLIC_SORTED = "public, sorted"  # as a sorted tuple: the order carries no information
PUBLIC_SIZE = "public, its size only"  # the number of items, not which or in what order
HIDDEN = "hidden"  # not in public_key; the field's ``why`` says why


@dataclass(frozen=True)
class Field:
    """One field of :class:`GameState`: its name, how it is copied and how it is keyed."""

    name: str
    copy: str
    key: str
    why: str = ""  # for every field not shown as it is: the reason
    # A list the engine never changes in place: every change puts a new list in its place (a
    # closing, a recruit, a die fixed ahead: rare next to copies). The look-ahead's fast_copy
    # shares it (a third of a copy's time); copy() still copies it. tests/test_state_fields.py
    # checks that no code changes one in place and that play on a fast copy leaves the original
    # as it was.
    replaced: bool = False


def with_item(items: list, i: int, value) -> list:
    """A new list: ``items`` with item ``i`` set to ``value``. How a field the engine only
    replaces (``Field.replaced``) is changed, by the engine, staging and position files alike."""
    items = items[:]
    items[i] = value
    return items


FIELDS: tuple[Field, ...] = (
    Field(
        "config",
        IMMUTABLE,
        HIDDEN,
        "the setup chosen, with the seed that orders the deck and "
        "rolls the dice (R12); what the players see of it is in colours, values and variants",
    ),
    Field("n", IMMUTABLE, PUBLIC),
    Field("colours", IMMUTABLE, PUBLIC),
    Field("values", IMMUTABLE, PUBLIC),
    Field("max_values", IMMUTABLE, HIDDEN, "derived from values"),
    Field("variants", IMMUTABLE, PUBLIC_SORTED, "a set of names"),
    Field("rng", RANDOM, HIDDEN, "the random source decides the dice to come (R4, R12)"),
    Field("auto_forced", IMMUTABLE, HIDDEN, "how the engine steps, not the position"),
    Field("log", EVENTS, HIDDEN, "how the game came here, not where it is"),
    # players
    Field("deben", FLAT, PUBLIC),
    Field("seals", FLAT, PUBLIC),
    Field("prestige", FLAT, PUBLIC),
    Field("hand", FLAT, PUBLIC),
    Field("gifts", NESTED, PUBLIC),
    # supplies
    Field("seal_supply", IMMUTABLE, PUBLIC),
    Field(
        "deck",
        FLAT,
        PUBLIC_SIZE,
        "the order of the deck is hidden information (R2.2, R12): "
        "the players know which cards are left, not which comes next",
    ),
    Field("akhenaton_drawn", IMMUTABLE, PUBLIC),
    Field("dead_market", IMMUTABLE, PUBLIC),
    Field("out_of_game", FLAT, PUBLIC),
    Field("characters_set_aside", IMMUTABLE, PUBLIC),
    Field("piles", NESTED, PUBLIC, replaced=True),
    Field(
        "used_characters",
        FLAT,
        PUBLIC_SORTED,
        "which characters were used, not in what order",
        replaced=True,
    ),
    # markets
    Field("side", FLAT, PUBLIC, replaced=True),
    Field("status", FLAT, PUBLIC, replaced=True),
    Field("owners", NESTED, PUBLIC),
    Field("mask", FLAT, HIDDEN, "derived from owners (a bit per occupied square)"),
    Field("reserve", FLAT, PUBLIC),
    Field("cards", NESTED, PUBLIC),
    Field("seal_on_upper", FLAT, PUBLIC),
    Field("tile", IMMUTABLE, PUBLIC),
    # Louqsor's dice (R4)
    Field("holder", IMMUTABLE, PUBLIC),
    Field("holder_turn", IMMUTABLE, PUBLIC),
    Field("last_roll", IMMUTABLE, PUBLIC),
    Field(
        "forced_rolls", FLAT, HIDDEN, "dice fixed ahead (R4.4) are chance to come", replaced=True
    ),
    Field(
        "forced_draws",
        FLAT,
        HIDDEN,
        "cards fixed ahead (R4.4) are the deck's hidden order",
        replaced=True,
    ),
    # the turn
    Field("turn_player", IMMUTABLE, PUBLIC),
    Field("turn_no", IMMUTABLE, PUBLIC),
    Field("placements_left", IMMUTABLE, PUBLIC),
    Field("recruited", IMMUTABLE, PUBLIC),
    Field("phase", IMMUTABLE, PUBLIC),
    Field("decider", IMMUTABLE, PUBLIC),
    # a market being resolved
    Field("res_market", IMMUTABLE, PUBLIC),
    Field("res_queue", FLAT, PUBLIC, replaced=True),
    Field("res_pos", IMMUTABLE, PUBLIC),
    Field("res_after", IMMUTABLE, PUBLIC),
    # a character being played
    Field("character", IMMUTABLE, PUBLIC),
    Field("exchanges_done", IMMUTABLE, PUBLIC),
    Field("exchange_partners", FLAT, PUBLIC, replaced=True),
    Field("exchange_take", IMMUTABLE, PUBLIC),
    Field("treasurer_market", IMMUTABLE, PUBLIC),
    # bookkeeping
    Field(
        "closings",
        IMMUTABLE,
        HIDDEN,
        "a count of the past (markets closed so far, for closed_since), not the position",
    ),
    Field("decisions", IMMUTABLE, HIDDEN, "a count of the past, not the position"),
    Field("final", IMMUTABLE, HIDDEN, "derived: the final scores once the game is over"),
    Field("_legal", IMMUTABLE, HIDDEN, "derived: the pending decision's options (legal_options)"),
)


class Resolution(NamedTuple):
    """A market closing in progress (R6): the market and its bids still to resolve, as square
    indexes of its stall in resolution order, the pending one first (R6.1)."""

    market: int
    squares: tuple[int, ...]


class GameState(GameStateBase):
    """A game of Nefertiti in progress. Create one with :func:`new_game`."""

    __slots__ = tuple(f.name for f in FIELDS)

    # ------------------------------------------------------------------ setup (R2)
    def __init__(self, config: Config):
        cfg = config.validated()
        n = cfg.players
        self.config = cfg
        self.n = n
        self.colours = tuple(cfg.colours) if cfg.colours else R.COLOURS[:n]
        self.values = tuple(tuple(row) for row in cfg.gift_values)
        self.max_values = tuple(R.max_value(k, self.values) for k in range(R.NUM_KINDS))
        self.variants = frozenset(cfg.variants)
        self.rng = random.Random(cfg.seed)
        self.auto_forced = cfg.auto_forced
        self.log = [] if cfg.record_events else None

        self.seals = [0] * n
        self.prestige = [0] * n
        self.hand = [R.SERVANTS_PER_PLAYER] * n
        self.gifts = [[0] * R.NUM_KINDS for _ in range(n)]
        self.seal_supply = R.SEALS
        self.out_of_game = [0] * R.NUM_KINDS
        self.akhenaton_drawn = False
        self.dead_market = -1
        if cfg.characters:
            self.piles = R.starting_piles(n)
            self.characters_set_aside = 0
        else:
            self.piles = [[] for _ in R.PILES]
            self.characters_set_aside = R.TOTAL_CHARACTERS[n]
        self.used_characters = []

        rng = self.rng
        # R2.7: first player by the highest roll of two dice (re-roll ties among the highest).
        if cfg.first_player is None:
            contenders = list(range(n))
            while len(contenders) > 1:
                rolls = {p: rng.randint(1, 6) + rng.randint(1, 6) for p in contenders}
                best = max(rolls.values())
                contenders = [p for p in contenders if rolls[p] == best]
            first = contenders[0]
        else:
            first = cfg.first_player
        # R2.6: starting Deben by position from the first player.
        self.deben = [0] * n
        for k, amount in enumerate(R.STARTING_DEBEN[n]):
            self.deben[(first + k) % n] = amount

        # R2.8: stall layout.
        if cfg.layout == "first":
            self.side = list(R.FIRST_GAME_SIDES)
        elif cfg.layout == "random":
            self.side = [rng.randrange(2) for _ in R.MARKETS]
        else:
            self.side = [R.SIDES.index(s) for s in cfg.layout]
        self.status = [OPEN, OPEN, OPEN, CLOSED]  # R2 step 3: Louqsor starts closed
        self.tile = R.LOUQSOR
        self.owners = [[-1] * _STALL_SIZE[m * 2 + self.side[m]] for m in range(4)]
        self.mask = [0, 0, 0, 0]
        self.reserve = [R.RESERVE_START] * 4  # R2.5
        self.cards = [[-1] * R.MARKET_CARDS for _ in range(4)]
        self.seal_on_upper = [False] * 4

        # R2.2: the deck, the Akhenaton card among the bottom five. The top is the list's end.
        deck = []
        for kind, count in enumerate(R.CARDS_PER_KIND):
            if n == 3 and R.KIND_TYPE[kind] == R.SENET:
                continue  # R2.1: no senets with 3 players
            deck.extend([kind] * count)
        rng.shuffle(deck)
        bottom = [deck.pop() for _ in range(4)] + [R.AKHENATON]
        rng.shuffle(bottom)
        self.deck = bottom + deck

        # R2.9: fill the open markets, Gizeh, Akhet-Aton, Abou Simbel; a seal on each upper card.
        for m in (R.GIZEH, R.AKHET_ATON, R.ABOU_SIMBEL):
            for slot in range(R.MARKET_CARDS):
                self.cards[m][slot] = self.deck.pop()
            self.seal_on_upper[m] = True
            self.seal_supply -= 1

        self.holder = -1
        self.holder_turn = 0
        self.last_roll = ()
        self.forced_rolls = []
        self.forced_draws = []
        self.res_market = -1
        self.res_queue = []
        self.res_pos = 0
        self.res_after = AFTER_ACTION
        self.character = -1
        self.exchanges_done = 0
        self.exchange_partners = []
        self.exchange_take = None
        self.treasurer_market = -1
        self.closings = (0, 0, 0, 0)
        self.decisions = 0
        self.final = None
        self.turn_no = 0
        if self.log is not None:
            self._emit("setup", first=first, layout=[R.SIDES[s] for s in self.side], rule="R2")
        self._start_turn(first)
        self._settle()

    # ------------------------------------------------------------------ reading the state
    @property
    def is_over(self) -> bool:
        return self.phase == P_OVER

    def legal_options(self) -> tuple[int, ...]:
        """The legal option ids of the pending decision, sorted; empty once the game is over."""
        return self._legal

    @property
    def legal(self) -> tuple[int, ...]:
        """The same as :meth:`legal_options`, as a property (for self-play's inner loops)."""
        return self._legal

    def is_legal(self, option: int) -> bool:
        return type(option) is int and option in self._legal

    def market_cards(self, market: int) -> tuple[int, ...]:
        """The card kinds on a market's four places, the upper card first; -1 for an empty place
        (R2.9, R6.7)."""
        require_int(market, "a market", 0, 3)
        return tuple(self.cards[market])

    def market_seal(self, market: int) -> bool:
        """Whether a seal lies on the market's upper card (R2.9, R6.7)."""
        require_int(market, "a market", 0, 3)
        return self.seal_on_upper[market]

    def square_owners(self, market: int) -> tuple[int, ...]:
        """Per square of the market's visible stall (in the stall's order), the seat whose servant
        stands there; -1 for an empty square (R5.2)."""
        require_int(market, "a market", 0, 3)
        return tuple(self.owners[market])

    def resolution(self) -> Resolution | None:
        """The market closing being resolved now (R6), or None between closings."""
        if self.res_market < 0:
            return None
        return Resolution(self.res_market, tuple(self.res_queue[self.res_pos :]))

    def closed_since(self, before: GameState, market: int) -> bool:
        """Whether ``market`` began to close (R3, R5.4) after the position ``before`` of the same
        game: "did this step close market m" (``before`` taken just before the step)."""
        require_int(market, "a market", 0, 3)
        return self.closings[market] > before.closings[market]

    def option_text(self, option: int) -> str:
        return O.option_text(require_int(option, "an option id"), self.colours)

    def parse(self, text: str) -> int:
        if not isinstance(text, str):
            raise NotationError(Said("notation.option_not_text", value=echo(text)))
        if len(text) > MAX_MOVE_CHARS:
            raise NotationError(Said("notation.not_option_plain", move=echo(text)))
        return O.parse_option(text, self.colours)

    def holders(self, gift_type: int) -> int:
        """How many players hold at least one gift of this type (R8)."""
        if type(gift_type) is not int or not 0 <= gift_type < _GIFT_TYPE_COUNT:
            require_int(gift_type, "a gift type", 0, _GIFT_TYPE_COUNT - 1)
        if gift_type == R.SENET:
            return sum(1 for g in self.gifts if g[0] or g[1])
        k = gift_type + 1  # after the two senet kinds, one card kind per type
        return sum(1 for g in self.gifts if g[k])

    def type_count(self, seat: int, gift_type: int) -> int:
        """Gifts of a type a player holds, a double senet counting 2 (R9.1)."""
        if type(seat) is not int or not 0 <= seat < self.n:
            require_int(seat, "a seat", 0, self.n - 1)
        if type(gift_type) is not int or not 0 <= gift_type < _GIFT_TYPE_COUNT:
            require_int(gift_type, "a gift type", 0, _GIFT_TYPE_COUNT - 1)
        g = self.gifts[seat]
        return g[0] + 2 * g[1] if gift_type == R.SENET else g[gift_type + 1]

    def gift_value(self, gift_type: int, holders: int | None = None) -> int:
        """Prestige per gift of a type for a number of holders (now, by default) (R8)."""
        if holders is not None:
            require_int(holders, "a number of holders", 0, 4)
        if holders is None:
            holders = self.holders(gift_type)
        return self.values[gift_type][holders - 1] if holders else 0

    def current_bid(self) -> int:
        """The bid of the servant being resolved now (its square's value, R6.1); 0 if none."""
        m = self.res_market
        if m < 0 or self.res_pos >= len(self.res_queue):
            return 0
        return _STALL_VALUES[m * 2 + self.side[m]][self.res_queue[self.res_pos]]

    def open_markets(self) -> list[int]:
        return [m for m in range(4) if self.status[m] == OPEN]

    def visible_stall(self, market: int) -> R.Stall:
        require_int(market, "a market", 0, 3)
        return R.STALLS[market * 2 + self.side[market]]

    # ------------------------------------------------------------------ applying options
    def apply(self, option: int | str) -> None:
        """Apply one option after checking it; an illegal one raises and changes nothing."""
        if isinstance(option, str):
            option = self.parse(option)
        elif isinstance(option, bool) or not isinstance(option, int):
            raise IllegalOptionError(
                f"an option is an id (an int) or its text, like 'place gizeh.left#0'; "
                f"not {echo(option)}"
            )
        if self.phase == P_OVER:
            raise GameOverError(
                f"the game is over; {self.option_text(option)!r} cannot be played (R7.1)",
                option,
                "R7.1",
            )
        if option not in self._legal:
            message, rule = self._why_illegal(option)
            raise IllegalOptionError(message, option, rule)
        self.apply_unchecked(option)

    def apply_unchecked(self, option: int) -> None:
        """Apply a legal option without checking it (the fast path for bots)."""
        self.decisions += 1
        if self.log is not None:
            self._emit("decision", seat=self.decider, option=self.option_text(option))
        _HANDLER_OF[option](self, option)
        self._settle()

    def refresh(self) -> None:
        """Recompute the pending decision's options after the state was edited by hand."""
        self._settle()

    def _settle(self) -> None:
        """Compute the pending decision's options, taking forced single options (see module)."""
        while True:
            legal = self._compute_legal()
            if len(legal) != 1 or not self.auto_forced:
                self._legal = legal
                return
            option = legal[0]
            if self.log is not None:
                self._emit(
                    "forced",
                    seat=self.decider,
                    option=self.option_text(option),
                    phase=self.phase,
                    deben=self.deben[self.decider],
                    bid=_STALL_VALUES[self.res_market * 2 + self.side[self.res_market]][
                        self.res_queue[self.res_pos]
                    ]
                    if self.res_market >= 0 and self.res_pos < len(self.res_queue)
                    else None,
                    cards=sum(c >= 0 for c in self.cards[self.res_market])
                    if self.res_market >= 0
                    else None,
                )
            _HANDLER_OF[option](self, option)

    # ------------------------------------------------------------------ chance (R4.4)
    def force_roll(self, *dice: int) -> None:
        """Fix the outcome of the next die or dice rolled (R4.4); values 1 to 6."""
        if len(dice) > MAX_DICE_PER_ROLL:
            raise IllegalOptionError(
                f"at most {MAX_DICE_PER_ROLL} dice at once, not {len(dice):,} (R4.4)", rule="R4.4"
            )
        for d in dice:  # booleans are not dice: True is not a 1
            if type(d) is not int or not 1 <= d <= 6:
                raise IllegalOptionError(f"a die shows 1 to 6, not {echo(d)} (R4.4)", rule="R4.4")
        if len(self.forced_rolls) + len(dice) > MAX_FORCED_ROLLS:
            raise IllegalOptionError(
                f"at most {MAX_FORCED_ROLLS} dice can be fixed ahead; "
                f"{len(self.forced_rolls)} already are (R4.4)",
                rule="R4.4",
            )
        self.forced_rolls = [*self.forced_rolls, *dice]  # replaced, never changed (FIELDS)

    def force_draw(self, kind: int | str) -> None:
        """Fix the next card drawn from the deck (R4.4): a card kind or 'akhenaton'."""
        names = list(R.CARD_KINDS) + ["akhenaton"]
        if isinstance(kind, str):
            if kind not in names:
                raise IllegalOptionError(
                    f"{echo(kind)} is not a card: one of {', '.join(names)}", rule="R4.4"
                )
            kind = names.index(kind)
        elif isinstance(kind, bool) or not isinstance(kind, int) or not 0 <= kind < len(names):
            raise IllegalOptionError(
                f"{echo(kind)} is not a card: a kind from 0 to {len(names) - 1} or one of "
                f"{', '.join(names)}",
                rule="R4.4",
            )
        left = self.deck.count(kind) - self.forced_draws.count(kind)
        if left <= 0:
            name = R.CARD_KINDS[kind] if kind < R.NUM_KINDS else "akhenaton"
            raise IllegalOptionError(
                f"no {name} card is left in the deck to draw next (R4.4)", rule="R4.4"
            )
        self.forced_draws = [*self.forced_draws, kind]  # replaced, never changed (FIELDS)

    def _roll(self) -> int:
        rolls = self.forced_rolls
        if rolls:
            self.forced_rolls = rolls[1:]
            return rolls[0]
        return int(self.rng.random() * 6) + 1

    def _draw(self) -> int:
        if self.forced_draws:
            kind = self.forced_draws[0]
            self.forced_draws = self.forced_draws[1:]
            deck = self.deck
            # Take the forced card from nearest the top, so the rest of the order is kept.
            for i in range(len(deck) - 1, -1, -1):
                if deck[i] == kind:
                    del deck[i]
                    return kind
        return self.deck.pop()

    # ------------------------------------------------------------------ events
    def _emit(self, event: str, **data) -> None:
        if self.log is not None:
            data["turn"] = self.turn_no
            self.log.append((event, data))

    # ------------------------------------------------------------------ the turn (R5)
    def _start_turn(self, seat: int) -> None:
        self.turn_player = seat
        self.turn_no += 1
        self.placements_left = 1
        self.recruited = False
        self.phase = P_TURN
        self.decider = seat
        if self.log is not None:
            self._emit("turn", seat=seat, rule="R5.5")

    def _continue_turn(self) -> None:
        """After a placement or closing action (and its resolution): next placement, or end."""
        if self.phase == P_OVER:
            return
        if self.placements_left > 0:
            self.phase = P_PLACE
            self.decider = self.turn_player
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        p = self.turn_player
        # R4.2: the dice holder may roll again if no servant entered Louqsor since their roll.
        if self.holder == p and self.holder_turn < self.turn_no and self.status[R.LOUQSOR] == OPEN:
            self.phase = P_REROLL
            self.decider = p
            return
        self._start_turn((p + 1) % self.n)

    def _placement_options(self, p: int) -> list[int]:
        """Sorted PLACE ids (square ids grow market by market), or CLOSE ids (R5.4)."""
        status, side, mask = self.status, self.side, self.mask
        out: list[int] = []
        if self.hand[p]:
            for m in range(4):
                if status[m] == OPEN:
                    out += _EMPTY[m * 2 + side[m]][mask[m]]
        else:  # R5.4
            owners = self.owners
            for m in range(4):
                if status[m] == OPEN and p in owners[m]:
                    out.append(O.CLOSE_BASE + m)
        return out

    def _do_place(self, option: int) -> None:
        stall = O.SQUARE_STALL[option]
        m = stall >> 1
        i = O.SQUARE_INDEX[option]
        p = self.decider
        first_here = self.mask[m] == 0
        self.owners[m][i] = p
        self.mask[m] |= 1 << i
        self.hand[p] -= 1
        self.placements_left -= 1
        # R5.3: up to two bonuses, each only while the reserve has money.
        due = first_here + (_STALL_SYMBOLS[stall][i] == R.DEBEN)
        paid = min(due, self.reserve[m])
        if paid:
            self.reserve[m] -= paid
            self.deben[p] += paid
        if self.log is not None:
            self._emit(
                "place",
                seat=p,
                market=m,
                stall=R.STALLS[stall].name,
                square=i,
                value=_STALL_VALUES[stall][i],
                first_here=first_here,
                deben_square=_STALL_SYMBOLS[stall][i] == R.DEBEN,
                bonus_due=due,
                bonus_paid=paid,
                rule="R5.3" if due else "R5.2",
            )
        if self._placement_closes(m, stall, p):
            self._begin_closing(m, AFTER_ACTION, "placement")
        else:
            self._continue_turn()

    def _placement_closes(self, m: int, stall: int, p: int) -> bool:
        closes = _STALL_CLOSES(stall, self.mask[m], self.owners[m])
        if closes is not None:  # the servants decide (R3.1-R3.6)
            return closes
        # Louqsor (R3.7, R3.8): the placer rolls and becomes the dice holder (R4.3).
        closes = self._roll_louqsor(stall, p)
        if not closes:
            self.holder = p
            self.holder_turn = self.turn_no
        return closes

    def _roll_louqsor(self, stall: int, p: int) -> bool:
        mask = self.mask[R.LOUQSOR]
        if stall == _LOUQSOR_LEFT:  # R3.7: two dice
            self.last_roll = (self._roll(), self._roll())
        else:  # R3.8: one die
            self.last_roll = (self._roll(),)
        closes = R.roll_closes(stall, mask, self.last_roll)
        if self.log is not None:
            self._emit(
                "roll",
                seat=p,
                dice=self.last_roll,
                closes=closes,
                run=R.RUN_TABLE[stall][mask] if stall != _LOUQSOR_LEFT else None,
                occupied=[
                    v
                    for v, o in zip(_STALL_VALUES[stall], self.owners[R.LOUQSOR], strict=True)
                    if o >= 0
                ],
                rule=R.STALLS[stall].rule_id,
            )
        return closes

    def _do_close(self, option: int) -> None:  # R5.4
        m = option - O.CLOSE_BASE
        self.placements_left -= 1
        if self.log is not None:
            self._emit("close_by_choice", seat=self.decider, market=m, rule="R5.4")
        self._begin_closing(m, AFTER_ACTION, "no_servant")

    def _do_reroll(self, option: int) -> None:  # R4.2
        p = self.decider
        self.holder_turn = self.turn_no
        stall = R.LOUQSOR * 2 + self.side[R.LOUQSOR]
        if self.log is not None:
            self._emit("reroll", seat=p, rule="R4.2")
        if self._roll_louqsor(stall, p):
            self._begin_closing(R.LOUQSOR, AFTER_REROLL, "reroll")
        else:
            self._start_turn((self.turn_player + 1) % self.n)

    def _do_keep(self, option: int) -> None:
        self._start_turn((self.turn_player + 1) % self.n)

    # ------------------------------------------------------------------ closing a market (R6)
    def _begin_closing(self, m: int, after: int, cause: str) -> None:
        if m == R.LOUQSOR:
            self.holder = -1  # R4.3: closing clears the dice holder
            self.holder_turn = 0
        stall = m * 2 + self.side[m]
        owners = self.owners[m]
        closings = list(self.closings)
        closings[m] += 1
        self.closings = tuple(closings)
        self.res_market = m
        self.res_queue = [i for i in R.RESOLUTION_ORDER[stall] if owners[i] >= 0]
        self.res_pos = 0
        self.res_after = after
        if self.log is not None:
            vals = _STALL_VALUES[stall]
            self._emit(
                "market_closes",
                seat=self.decider,
                market=m,
                stall=R.STALLS[stall].name,
                cause=cause,
                bids=[(owners[i], vals[i]) for i in self.res_queue],
                squares=list(self.res_queue),
                dice=self.last_roll if m == R.LOUQSOR and cause != "no_servant" else None,
                rule=R.STALLS[stall].rule_id if cause != "no_servant" else "R5.4",
            )
        self._next_bidder()

    def _next_bidder(self) -> None:
        m = self.res_market
        stall = m * 2 + self.side[m]
        queue = self.res_queue
        while self.res_pos < len(queue):
            i = queue[self.res_pos]
            p = self.owners[m][i]
            bid = _STALL_VALUES[stall][i]
            self.decider = p
            if self.res_pos > 0:
                self.phase = P_BID  # R6.4
                return
            if self.deben[p] >= bid:  # R6.2: pay first, then choose cards
                self.deben[p] -= bid
                self.reserve[m] += bid
                if self.log is not None:
                    self._emit("pay", seat=p, market=m, amount=bid, rule="R6.2")
                if any(c >= 0 for c in self.cards[m]):
                    self.phase = P_TAKE
                    return
                if self.log is not None:
                    self._emit("no_cards", seat=p, market=m, rule="R6.2")
            elif any(self.gifts[p]):  # R6.3
                if self.log is not None:
                    self._emit(
                        "cannot_pay", seat=p, market=m, bid=bid, deben=self.deben[p], rule="R6.3"
                    )
                self.phase = P_SHAME
                return
            else:
                if self.log is not None:
                    self._emit(
                        "cannot_pay_no_gift",
                        seat=p,
                        market=m,
                        bid=bid,
                        deben=self.deben[p],
                        rule="R6.3",
                    )
            self._servant_home()
        self._finish_closing()

    def _servant_home(self) -> None:
        """R6.5: the resolved servant goes back to its owner; on to the next bid."""
        m = self.res_market
        i = self.res_queue[self.res_pos]
        p = self.owners[m][i]
        self.owners[m][i] = -1
        self.mask[m] &= ~(1 << i)
        self.hand[p] += 1
        self.res_pos += 1

    def _take_card(self, p: int, m: int, slot: int) -> int:
        cards = self.cards[m]
        kind = cards[slot]
        cards[slot] = -1
        self.gifts[p][kind] += 1
        seal = slot == R.UPPER and self.seal_on_upper[m]
        if seal:
            self.seal_on_upper[m] = False
            self.seals[p] += 1
        if self.log is not None:
            self._emit("gift_taken", seat=p, market=m, slot=slot, card=kind, seal=seal)
        return kind

    def _take_options(self) -> list[int]:
        """R6.2: the highest bidder's card sets, by the symbol of the winning square."""
        m = self.res_market
        stall = m * 2 + self.side[m]
        symbol = _STALL_SYMBOLS[stall][self.res_queue[0]]
        cards = self.cards[m]
        upper = 1 if cards[0] >= 0 else 0
        lower = [s for s in (1, 2, 3) if cards[s] >= 0]
        masks = set()
        if symbol == R.SINGLE:
            masks.update(1 << s for s in range(4) if cards[s] >= 0)
        elif symbol == R.EXTRA:
            if lower:
                masks.add(sum(1 << s for s in lower))
                for s in lower:
                    masks.add(upper | 1 << s)
            elif upper:
                masks.add(1)
        else:
            if upper:
                masks.add(1)
            if len(lower) <= 2:
                if lower:
                    masks.add(sum(1 << s for s in lower))
            else:
                for a in range(3):
                    for b in range(a + 1, 3):
                        masks.add(1 << lower[a] | 1 << lower[b])
        return sorted(O.TAKE_BASE + mk for mk in masks)

    def _do_take(self, option: int) -> None:
        p, m = self.decider, self.res_market
        for slot in O.take_slots(option):
            self._take_card(p, m, slot)
        self._servant_home()
        self._next_bidder()

    def _do_discard(self, option: int) -> None:  # R6.3, the shame discard
        kind = option - O.DISCARD_BASE
        p = self.decider
        self.gifts[p][kind] -= 1
        self.out_of_game[kind] += 1
        if self.log is not None:
            self._emit("shame_discard", seat=p, card=kind, rule="R6.3")
        self._servant_home()
        self._next_bidder()

    def _bid_options(self) -> list[int]:  # R6.4
        m = self.res_market
        p = self.decider
        bid = self.current_bid()
        out = []
        if self.deben[p] >= bid:
            cards = self.cards[m]
            out.extend(O.BUY_BASE + s for s in range(4) if cards[s] >= 0)
        out.append(O.HALF_ID if self.reserve[m] else O.PASS_ID)
        return out

    def _do_buy(self, option: int) -> None:
        p, m = self.decider, self.res_market
        bid = self.current_bid()
        self.deben[p] -= bid
        self.reserve[m] += bid
        if self.log is not None:
            self._emit("buy", seat=p, market=m, amount=bid, rule="R6.4")
        self._take_card(p, m, option - O.BUY_BASE)
        self._servant_home()
        self._next_bidder()

    def _do_half(self, option: int) -> None:
        p, m = self.decider, self.res_market
        amount = R.half_reserve(self.reserve[m])  # R6.4: half, rounded up
        self.reserve[m] -= amount
        self.deben[p] += amount
        if self.log is not None:
            self._emit("half", seat=p, market=m, amount=amount, left=self.reserve[m], rule="R6.4")
        self._servant_home()
        self._next_bidder()

    def _do_pass(self, option: int) -> None:
        if self.log is not None:
            self._emit("pass", seat=self.decider, market=self.res_market, rule="R6.4")
        self._servant_home()
        self._next_bidder()

    def _finish_closing(self) -> None:
        """R6.6-R6.8: switch the stall, move the tile, reopen the previous tile holder."""
        m = self.res_market
        after = self.res_after
        self.res_market = -1
        self.res_queue = []
        self.res_pos = 0
        self.res_after = AFTER_ACTION
        # side and status are replaced, never changed in place (FIELDS: fast copies share them)
        self.side = with_item(self.side, m, self.side[m] ^ 1)
        self.status = with_item(self.status, m, CLOSED)
        self.owners[m] = [-1] * _STALL_SIZE[m * 2 + self.side[m]]
        self.mask[m] = 0
        previous, self.tile = self.tile, m
        if self.log is not None:
            self._emit("market_closed", market=m, next_stall=R.SIDES[self.side[m]], rule="R6.6")
        if previous >= 0 and previous != m:
            if self.akhenaton_drawn:
                if self.log is not None:
                    self._emit("stays_closed", market=previous, rule="R6.8")
            else:
                self._reopen(previous)
        if self.akhenaton_drawn and (
            OPEN not in self.status or "akhenaton_ends_game" in self.variants
        ):
            self.end_game()
            return
        if after == AFTER_REROLL:
            self._start_turn((self.turn_player + 1) % self.n)
        else:
            self._continue_turn()

    def _reopen(self, m: int) -> None:
        """R6.7: move a lower card up, slide left, draw to four, seal the upper card."""
        cards = self.cards[m]
        lower = [c for c in cards[1:] if c >= 0]
        if cards[0] < 0 and lower:
            cards[0] = lower.pop(0)
        cards[1:] = lower + [-1] * (3 - len(lower))
        drawn = []
        for slot in range(R.MARKET_CARDS):
            if cards[slot] < 0:
                card = self._draw()
                if card == R.AKHENATON:  # R6.8
                    self.akhenaton_drawn = True
                    self.dead_market = m
                    if self.log is not None:
                        self._emit("akhenaton", market=m, drawn=drawn, rule="R6.8")
                    return
                cards[slot] = card
                drawn.append(card)
        if not self.seal_on_upper[m] and self.seal_supply > 0:
            self.seal_on_upper[m] = True
            self.seal_supply -= 1
        self.status = with_item(self.status, m, OPEN)  # replaced, never changed (FIELDS)
        if self.log is not None:
            self._emit("reopen", market=m, drawn=drawn, seal=self.seal_on_upper[m], rule="R6.7")

    def end_game(self) -> None:
        """End the game now (R7.1): final scores, no decider, the ``game_over`` event. The engine
        calls it when the game ends; a variant reading that ends it earlier calls it too."""
        from .scoring import final_scores, winners

        self.phase = P_OVER
        self.decider = -1
        self.final = final_scores(self)
        early = "akhenaton_ends_game" in self.variants and OPEN in self.status
        if self.log is not None:
            self._emit("game_over", winners=winners(self), variant_end=early, rule="R7.1")

    # ------------------------------------------------------------------ characters (R10)
    def _recruitable(self, pile: int, p: int) -> bool:
        """R10.1: a character can be recruited only if its effect can be carried out."""
        if pile == R.VIZIER or pile == R.HIGH_PRIEST:
            return True
        if pile == R.MERCHANT:
            return self._any_exchange(p)
        if pile == R.CHIEF:
            return self.tile >= 0 and any(c >= 0 for c in self.cards[self.tile])
        if pile == R.ROYAL_SERVANT:
            if "royal_servant_own_type" in self.variants:
                return any(self.gifts[p])
            return any(any(g) for g in self.gifts)
        if pile == R.SCRIBE:
            return any(self.gifts[p])
        return any(self.reserve)  # Treasurer

    def _do_recruit(self, option: int) -> None:  # R5.1
        pile = option - O.RECRUIT_BASE
        p = self.decider
        # piles and used_characters are replaced, never changed in place (FIELDS)
        card = self.piles[pile][0]
        self.piles = with_item(self.piles, pile, self.piles[pile][1:])
        self.used_characters = [*self.used_characters, card]
        self.seals[p] -= 1
        self.seal_supply += 1  # R2.4: spent seals return to the supply
        self.recruited = True
        # Only characters with further decisions stay pending (Merchant, Chief, ...).
        self.character = card if pile not in (R.VIZIER, R.HIGH_PRIEST) else -1
        if self.log is not None:
            self._emit("recruit", seat=p, card=R.CHARACTER_CARDS[card], rule="R5.1")
        if pile == R.VIZIER:  # R10.2
            types = sum(1 for t in range(len(R.GIFT_TYPES)) if self.type_count(p, t))
            points = R.VIZIER_POINTS_PER_TYPE * types
            self.prestige[p] += points
            held = [t for t in range(len(R.GIFT_TYPES)) if self.type_count(p, t)]
            if self.log is not None:
                self._emit("vizier", seat=p, types=types, held=held, points=points, rule="R10.2")
            self.phase = P_PLACE
        elif pile == R.MERCHANT:  # R10.3
            self.exchanges_done = 0
            self.exchange_partners = []
            self.phase = P_EXCHANGE_TAKE
        elif pile == R.HIGH_PRIEST:  # R10.4
            self.placements_left = 2
            if self.log is not None:
                self._emit("high_priest", seat=p, rule="R10.4")
            self.phase = P_PLACE
        elif pile == R.CHIEF:
            self.phase = P_CHIEF
        elif pile == R.ROYAL_SERVANT:
            self.phase = P_ROYAL
        elif pile == R.SCRIBE:
            self.phase = P_SCRIBE
        else:
            self.phase = P_TREASURER_MARKET

    def _after_character(self) -> None:
        self.character = -1
        self.exchanges_done = 0
        self.exchange_partners = []
        self.phase = P_PLACE
        self.decider = self.turn_player

    def _any_exchange(self, p: int) -> bool:
        """R10.1: whether the Merchant has at least one legal exchange (no list built)."""
        mine, max_values = self.gifts[p], self.max_values
        best_given = max((max_values[k] for k in range(R.NUM_KINDS) if mine[k]), default=None)
        if best_given is None:
            return False
        money = self.deben[p]
        held = [mine[k] or (k <= R.K_DOUBLE_SENET and (mine[0] or mine[1])) for k in range(8)]
        for q in range(self.n):
            if q != p:
                theirs = self.gifts[q]
                for k in range(R.NUM_KINDS):
                    if theirs[k] and held[k] and max_values[k] - best_given <= money:
                        return True
        return False

    def _exchange_take_options(self, p: int) -> list[int]:
        """R10.3: gifts of opponents that p may take: p holds that type and can pay."""
        mine, max_values = self.gifts[p], self.max_values
        best_given = max((max_values[k] for k in range(R.NUM_KINDS) if mine[k]), default=None)
        if best_given is None:
            return []
        money = self.deben[p]
        out = []
        for q in range(self.n):
            if q == p or q in self.exchange_partners:
                continue
            theirs = self.gifts[q]
            for k in range(R.NUM_KINDS):
                if not theirs[k]:
                    continue
                t = R.KIND_TYPE[k]
                if t == R.SENET:
                    holds = mine[R.K_SENET] or mine[R.K_DOUBLE_SENET]
                else:
                    holds = mine[k]
                if holds and max_values[k] - best_given <= money:
                    out.append(O.EXCHANGE_TAKE_BASE + q * R.NUM_KINDS + k)
        return out

    def _exchange_give_options(self) -> list[int]:
        p = self.decider
        _, taken = self.exchange_take
        mine, money, max_values = self.gifts[p], self.deben[p], self.max_values
        return [
            O.EXCHANGE_GIVE_BASE + k
            for k in range(R.NUM_KINDS)
            if mine[k] and max_values[taken] - max_values[k] <= money
        ]

    def _do_exchange_take(self, option: int) -> None:
        self.exchange_take = O.OPTION_ARG[option]
        self.phase = P_EXCHANGE_GIVE

    def _do_exchange_give(self, option: int) -> None:
        p = self.decider
        q, taken = self.exchange_take
        given = option - O.EXCHANGE_GIVE_BASE
        max_values = self.max_values
        pay = max(0, max_values[taken] - max_values[given])  # R10.3: to the opponent
        self.gifts[p][given] -= 1
        self.gifts[q][given] += 1
        self.gifts[q][taken] -= 1
        self.gifts[p][taken] += 1
        self.deben[p] -= pay
        if "merchant_pays_reserve" in self.variants and self.tile >= 0:
            self.reserve[self.tile] += pay  # variant: into the tile market's reserve
        else:
            self.deben[q] += pay
        self.exchanges_done += 1
        self.exchange_partners = [*self.exchange_partners, q]  # replaced (FIELDS)
        self.exchange_take = None
        if self.log is not None:
            self._emit(
                "exchange",
                seat=p,
                partner=q,
                given=given,
                taken=taken,
                paid=pay,
                given_max=max_values[given],
                taken_max=max_values[taken],
                rule="R10.3",
            )
        allowed = 2 if self.character == R.C_FIRST_MERCHANT else 1
        if self.exchanges_done < allowed and self._exchange_take_options(p):
            self.phase = P_EXCHANGE_TAKE
        else:
            self._after_character()

    def _do_exchange_done(self, option: int) -> None:
        self._after_character()

    def _do_chief(self, option: int) -> None:  # R10.5
        p = self.decider
        self._take_card(p, self.tile, option - O.CHIEF_BASE)
        if self.log is not None:
            self._emit("chief", seat=p, market=self.tile, rule="R10.5")
        self._after_character()

    def _do_royal(self, option: int) -> None:  # R10.6
        t = option - O.ROYAL_BASE
        holders = self.holders(t)
        value = self.gift_value(t, holders)
        scored = []
        for q in range(self.n):
            g = self.gifts[q]
            if t == R.SENET:
                if g[R.K_SENET]:
                    kind = R.K_SENET
                elif g[R.K_DOUBLE_SENET]:
                    kind = R.K_DOUBLE_SENET
                else:
                    continue
            elif g[t + 1]:
                kind = t + 1  # card kinds after the senets are one per type
            else:
                continue
            g[kind] -= 1
            self.out_of_game[kind] += 1
            points = value * R.KIND_WEIGHT[kind]
            self.prestige[q] += points
            scored.append((q, kind, points))
        if self.log is not None:
            self._emit(
                "royal_servant",
                seat=self.decider,
                gift_type=t,
                holders=holders,
                value=value,
                scored=scored,
                rule="R10.6",
            )
        self._after_character()

    def _do_scribe(self, option: int) -> None:  # R10.7
        t = option - O.SCRIBE_BASE
        p = self.decider
        bonus = R.SCRIBE_BONUS[self.character]
        holders = self.holders(t)
        value = self.gift_value(t, holders)
        count = self.type_count(p, t)
        points = (value + bonus) * count
        self.prestige[p] += points
        for kind in R.KINDS_OF_TYPE[t]:
            self.out_of_game[kind] += self.gifts[p][kind]
            self.gifts[p][kind] = 0
        if self.log is not None:
            self._emit(
                "scribe",
                seat=p,
                gift_type=t,
                count=count,
                value=value,
                holders=holders,
                bonus=bonus,
                points=points,
                rule="R10.7",
            )
        self._after_character()

    def _do_treasurer_market(self, option: int) -> None:  # R10.8
        self.treasurer_market = option - O.TREASURER_MARKET_BASE
        self.phase = P_TREASURER_AMOUNT

    def _do_treasurer_amount(self, option: int) -> None:
        amount = O.OPTION_ARG[option]
        m = self.treasurer_market
        self.reserve[m] -= amount
        self.deben[self.decider] += amount
        self.treasurer_market = -1
        if self.log is not None:
            self._emit("treasurer", seat=self.decider, market=m, amount=amount, rule="R10.8")
        self._after_character()

    # ------------------------------------------------------------------ legal options
    def _compute_legal(self) -> tuple[int, ...]:
        phase = self.phase
        p = self.decider
        if phase == P_TURN or phase == P_PLACE:
            out = self._placement_options(p)
            # RECRUIT ids come after every PLACE and CLOSE id, so the list stays sorted.
            if phase == P_TURN and self.seals[p] and not self.recruited:
                for pile, cards in enumerate(self.piles):
                    if cards and self._recruitable(pile, p):
                        out.append(O.RECRUIT_BASE + pile)
            return tuple(out)
        if phase == P_BID:
            return tuple(self._bid_options())
        if phase == P_TAKE:
            return tuple(self._take_options())
        if phase == P_SHAME:
            g = self.gifts[p]
            return tuple(O.DISCARD_BASE + k for k in range(R.NUM_KINDS) if g[k])
        if phase == P_REROLL:
            return (O.REROLL_ID, O.KEEP_ID)
        if phase == P_EXCHANGE_TAKE:
            out = self._exchange_take_options(p)
            if self.exchanges_done:
                out.append(O.EXCHANGE_DONE_ID)
            return tuple(sorted(out))
        if phase == P_EXCHANGE_GIVE:
            return tuple(self._exchange_give_options())
        if phase == P_CHIEF:
            cards = self.cards[self.tile]
            return tuple(O.CHIEF_BASE + s for s in range(4) if cards[s] >= 0)
        if phase == P_ROYAL:
            if "royal_servant_own_type" in self.variants:
                return tuple(
                    O.ROYAL_BASE + t for t in range(len(R.GIFT_TYPES)) if self.type_count(p, t)
                )
            return tuple(O.ROYAL_BASE + t for t in range(len(R.GIFT_TYPES)) if self.holders(t))
        if phase == P_SCRIBE:
            return tuple(
                O.SCRIBE_BASE + t for t in range(len(R.GIFT_TYPES)) if self.type_count(p, t)
            )
        if phase == P_TREASURER_MARKET:
            return tuple(O.TREASURER_MARKET_BASE + m for m in range(4) if self.reserve[m])
        if phase == P_TREASURER_AMOUNT:
            top = min(R.TREASURER_MAX, self.reserve[self.treasurer_market])
            return tuple(O.TREASURER_AMOUNT_BASE + a - 1 for a in range(1, top + 1))
        return ()

    # ------------------------------------------------------------------ why an option is illegal
    def _why_illegal(self, option: int) -> tuple[str, str]:
        from .explain_illegal import why_illegal

        return why_illegal(self, option)

    # ------------------------------------------------------------------ copies and identity
    def key(self) -> tuple:
        """Everything that decides the game from here, as plain data (the random source too)."""
        return (
            self.public_key(),
            tuple(self.deck),
            tuple(self.forced_rolls),
            tuple(self.forced_draws),
            self.rng.getstate(),
        )

    def state_hash(self) -> str:
        """A short hash of :meth:`key`: equal hashes, identical games from here on."""
        return hashlib.sha256(repr(self.key()).encode()).hexdigest()[:16]

    def __repr__(self) -> str:
        who = self.colours[self.decider] if self.decider >= 0 else "-"
        return (
            f"<GameState {self.n}p turn {self.turn_no} {self.phase} decider={who} "
            f"hash={self.state_hash()}>"
        )


# ------------------------------------------------------------------ made from FIELDS
def _clone_random(rng: random.Random) -> random.Random:
    clone = random.Random()
    clone.setstate(rng.getstate())
    return clone


_COPY_EXPR = {  # (copy(), fast_copy()) of field ``s.<name>``, by copy kind
    IMMUTABLE: ("{a}", "{a}"),
    FLAT: ("{a}[:]", "{a}[:]"),
    NESTED: ("_list(_map(_copy_list, {a}))", "_list(_map(_copy_list, {a}))"),
    RANDOM: ("_clone_random({a})", "rng"),
    EVENTS: ("None if {a} is None else {a}[:]", "None"),
}
_KEY_EXPR = {  # public_key's item for field ``s.<name>``, by key kind and copy kind
    PUBLIC: {IMMUTABLE: "{a}", FLAT: "tuple({a})", NESTED: "tuple(map(tuple, {a}))"},
    PUBLIC_SORTED: "tuple(sorted({a}))",
    PUBLIC_SIZE: "len({a})",
}


def _fields_source(fields: tuple[Field, ...] = FIELDS) -> str:
    """The source of ``copy``, ``fast_copy`` and ``public_key``: one line per field, no loop (a
    copy is the inner step of every look-ahead; straight-line code is the fastest in Python)."""
    copy_lines, fast_lines, own_lines, key_items = [], [], [], []
    for f in fields:
        a = f"s.{f.name}"
        slow, fast = _COPY_EXPR[f.copy]
        copy_lines.append(f"    n.{f.name} = {slow.format(a=a)}")
        fast_lines.append(f"    n.{f.name} = {a if f.replaced else fast.format(a=a)}")
        if f.replaced:
            own_lines.append(f"    s.{f.name} = {slow.format(a=a)}")
        if f.key == PUBLIC:
            key_items.append(_KEY_EXPR[PUBLIC][f.copy].format(a=a))
        elif f.key != HIDDEN:
            key_items.append(_KEY_EXPR[f.key].format(a=a))
    return "\n".join(
        [
            "def copy(s):",
            "    n = _new(_GameState)",
            *copy_lines,
            "    return n",
            "",
            "def fast_copy(s, rng):",
            "    n = _new(_GameState)",
            *fast_lines,
            "    return n",
            "",
            "def own_lists(s):",
            *own_lines,
            "    return s",
            "",
            "def public_key(s):",
            "    return (",
            *(f"        {item}," for item in key_items),
            "    )",
        ]
    )


def check_fields(fields: tuple[Field, ...]) -> None:
    """Raise AssertionError unless every field is declared once, with a known copy and key kind,
    and a reason for any key other than PUBLIC (run on ``FIELDS`` at import)."""
    names = [f.name for f in fields]
    if len(set(names)) != len(names):
        raise AssertionError(f"a field is declared twice: {names}")
    for f in fields:
        if f.copy not in _COPY_EXPR or f.key not in (PUBLIC, PUBLIC_SORTED, PUBLIC_SIZE, HIDDEN):
            raise AssertionError(f"field {f.name}: unknown kind {f.copy!r} / {f.key!r}")
        if f.key == PUBLIC and f.copy not in _KEY_EXPR[PUBLIC]:
            raise AssertionError(f"field {f.name}: a {f.copy} cannot be public as it is")
        if f.key != PUBLIC and not f.why:
            raise AssertionError(f"field {f.name} is {f.key}: say why")
        if f.replaced and f.copy not in (FLAT, NESTED):
            raise AssertionError(f"field {f.name}: only a list can be shared as replaced")


check_fields(FIELDS)
_made: dict = {
    "_new": object.__new__,
    "_GameState": GameState,
    "_clone_random": _clone_random,
    "_list": list,
    "_map": map,
    "_copy_list": list.copy,
}
exec(compile(_fields_source(), "<GameState fields>", "exec"), _made)  # noqa: S102

fast_copy = _made["fast_copy"]
fast_copy.__doc__ = """A copy for look-ahead that shares ``rng`` as its random source and keeps no
event log (``GameState.copy`` clones the random source, which costs more than the rest). It also
shares the lists the engine only ever replaces (``Field.replaced``): playing on the copy leaves
the original as it was; a copy kept beyond the look-ahead calls ``own_lists`` on it."""
own_lists = _made["own_lists"]
own_lists.__doc__ = """Give a ``fast_copy`` its own copies of the lists it shares with its original
(``Field.replaced``), for a copy that outlives the look-ahead (a chance node's outcome, an OpenSpiel
state): then no change by hand to either state can reach the other. Returns the state."""
GameState.fast_copy = fast_copy
_made["copy"].__doc__ = """An independent copy (the random source too), for what-if and search.

Nothing mutable is shared with the original except the event log's events, which are never
changed once emitted (the log itself is a new list)."""
GameState.copy = _made["copy"]
_made["public_key"].__doc__ = """Everything every player can see, as plain data (R12):
:meth:`key` without the order of the deck (its size only), the chance fixed ahead (R4.4) and the
random source (see ``FIELDS``, each hidden field with its reason). Search and observations use
it, so that they cannot tell two deck orders apart."""
GameState.public_key = _made["public_key"]
for _name in ("copy", "fast_copy", "own_lists", "public_key"):
    _made[_name].__qualname__ = f"GameState.{_name}"
    _made[_name].__module__ = __name__


# The class's own handlers, read in the module that defines the class (not from outside).
# ruff: disable[SLF001]
_HANDLERS = {
    O.PLACE: GameState._do_place,
    O.CLOSE: GameState._do_close,
    O.RECRUIT: GameState._do_recruit,
    O.TAKE: GameState._do_take,
    O.DISCARD: GameState._do_discard,
    O.BUY: GameState._do_buy,
    O.HALF: GameState._do_half,
    O.PASS: GameState._do_pass,
    O.EXCHANGE_TAKE: GameState._do_exchange_take,
    O.EXCHANGE_GIVE: GameState._do_exchange_give,
    O.EXCHANGE_DONE: GameState._do_exchange_done,
    O.CHIEF_TAKE: GameState._do_chief,
    O.ROYAL: GameState._do_royal,
    O.SCRIBE: GameState._do_scribe,
    O.TREASURER_MARKET: GameState._do_treasurer_market,
    O.TREASURER_AMOUNT: GameState._do_treasurer_amount,
    O.REROLL: GameState._do_reroll,
    O.KEEP: GameState._do_keep,
}
# ruff: enable[SLF001]

# One handler per option id, so applying an option is a single index.
_HANDLER_OF = tuple(_HANDLERS[kind] for kind in O.OPTION_KIND)


def new_game(players: int = 4, seed: int | None = 0, **options) -> GameState:
    """Set up a new game (R2). ``options`` are :class:`Config` fields (layout, characters, ...)."""
    unknown = set(options) - set(Config.__dataclass_fields__)
    if unknown:
        raise SetupError(
            f"unknown game option(s): {', '.join(sorted(unknown))}; known: "
            + ", ".join(sorted(f for f in Config.__dataclass_fields__ if f != "extra"))
        )
    return GameState(Config(players=players, seed=seed, **options))
