"""The rules as data: gifts, markets and their stalls, characters, setup numbers.

Everything the engine knows about the printed game lives here, in tables, so that a correction
(a stall layout, a gift value) is one edit. The rule IDs (R2.1, R3.5, ...) refer to
the rules reference, :mod:`nefertiti_core.teaching.rules_reference` (``nefertiti rules``); the rulebook is the authority behind them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

# --- Seats and colours (R1) ---------------------------------------------------------------------
COLOURS = ("green", "red", "blue", "black")
SERVANTS_PER_PLAYER = 4  # R1.2
STARTING_DEBEN = {4: (8, 9, 9, 10), 3: (9, 10, 10)}  # R2.6, from the first player clockwise
TOTAL_DEBEN = {4: 40, 3: 33}  # R12: coins in play for the whole game
RESERVE_START = 1  # R2.5
SEALS = 12  # R2.4

# --- Gifts (R2.1, R8) ---------------------------------------------------------------------------
# Gift *types* score; card *kinds* are what lies on the table. A double senet is its own kind
# that counts as two senets of the senet type.
GIFT_TYPES = ("senet", "harp", "chair", "mirror", "statuette", "necklace", "gold")
SENET, HARP, CHAIR, MIRROR, STATUETTE, NECKLACE, GOLD = range(7)

CARD_KINDS = (
    "senet",
    "double_senet",
    "harp",
    "chair",
    "mirror",
    "statuette",
    "necklace",
    "gold",
)
K_SENET, K_DOUBLE_SENET, K_HARP, K_CHAIR, K_MIRROR, K_STATUETTE, K_NECKLACE, K_GOLD = range(8)
AKHENATON = 8  # the Akhenaton card, shuffled into the bottom five of the deck (R2.2)
NUM_KINDS = 8

KIND_TYPE = (SENET, SENET, HARP, CHAIR, MIRROR, STATUETTE, NECKLACE, GOLD)
KIND_WEIGHT = (1, 2, 1, 1, 1, 1, 1, 1)  # a double senet counts as two senets (R9.1, R10.7)
KINDS_OF_TYPE = ((K_SENET, K_DOUBLE_SENET),) + tuple((k,) for k in range(K_HARP, NUM_KINDS))

# Cards in the box per kind (R2.1): 5 single + 3 double senets, then the others.
CARDS_PER_KIND = (5, 3, 8, 8, 6, 6, 5, 5)
TOTAL_GIFTS = {4: 46, 3: 38}  # with 3 players the 8 senet cards stay in the box


def _load_gift_values() -> tuple[tuple[tuple[int, int, int, int], ...], dict[str, list[int]]]:
    raw = json.loads(
        resources.files("nefertiti_core").joinpath("data/gift_values.json").read_text()
    )
    table = []
    estimated = {}
    for name in GIFT_TYPES:
        entry = raw["types"][name]
        table.append(tuple(entry["values"]))
        estimated[name] = list(entry["estimated"])
    return tuple(table), estimated


#: GIFT_VALUES[type][holders - 1] = prestige per gift of that type (R8).
GIFT_VALUES, ESTIMATED_VALUES = _load_gift_values()


def max_value(kind: int, values=GIFT_VALUES) -> int:
    """A card's "maximum value" for the Merchant (R8, R10.3): its 1-holder value, per card."""
    return values[KIND_TYPE[kind]][0] * KIND_WEIGHT[kind]


# --- Markets and stalls (R3) --------------------------------------------------------------------
MARKETS = ("gizeh", "akhet_aton", "abou_simbel", "louqsor")
GIZEH, AKHET_ATON, ABOU_SIMBEL, LOUQSOR = range(4)
SIDES = ("left", "right")
LEFT, RIGHT = 0, 1
MARKET_LABELS = {
    "gizeh": "Gizeh",
    "akhet_aton": "Akhet-Aton",
    "abou_simbel": "Abou Simbel",
    "louqsor": "Louqsor",
}

# Square symbols (R3): Deben bonus, single card, extra card.
PLAIN, DEBEN, SINGLE, EXTRA = "", "D", "S", "X"

# Closing-condition kinds (R3.1-R3.8).
CONNECTED4 = "connected4"  # R3.1
COLOURS3_OR_4 = "colours3_or_4"  # R3.2
ALL_LEVELS = "all_levels"  # R3.3
LINE3 = "line3"  # R3.4
SUM_11_14_17 = "sum_11_14_17"  # R3.5
SUM_17 = "sum_17"  # R3.6
TWO_DICE = "two_dice"  # R3.7
ONE_DIE_RUN = "one_die_run"  # R3.8


@dataclass(frozen=True)
class Square:
    index: int  # 0-based position in the stall's listing, rows top to bottom (R3)
    value: int
    symbol: str
    row: int  # 0 = top row
    col: int  # 0 = leftmost square of its row


@dataclass(frozen=True)
class Stall:
    market: int
    side: int
    rule: str
    squares: tuple[Square, ...]
    groups: tuple[tuple[int, ...], ...] = ()  # levels (R3.3), lines (R3.4) or edges (R3.1)
    rule_id: str = ""

    @property
    def name(self) -> str:
        return f"{MARKETS[self.market]}.{SIDES[self.side]}"

    @property
    def id(self) -> int:
        return self.market * 2 + self.side


def _rows(*rows: str) -> tuple[Square, ...]:
    """Squares from rows written like the markets sheet: ``"2D 2"`` is a Deben 2 and a plain 2."""
    squares = []
    for r, row in enumerate(rows):
        for c, token in enumerate(row.split()):
            symbol = token[-1] if token[-1] in "DSX" else PLAIN
            value = int(token[:-1] if symbol else token)
            squares.append(Square(len(squares), value, symbol, r, c))
    return tuple(squares)


def _by_value(squares: tuple[Square, ...], *pairs: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
    """Translate value pairs into index pairs (only for stalls whose values are unique)."""
    index = {s.value: s.index for s in squares}
    return tuple(tuple(index[v] for v in pair) for pair in pairs)


_GIZEH_LEFT = _rows("1", "2 3", "4D 5 6", "7")
_AKHET_LEFT = _rows("0", "1 2", "3 4D 5", "6 7 8 10X")
_AKHET_RIGHT = _rows("0 1 2", "3 4 5D", "6 7 8")

STALLS: tuple[Stall, ...] = (
    # R3.1 brick pyramid; the edge list is RULINGS' reconstruction (both rulebook examples connect).
    Stall(
        GIZEH,
        LEFT,
        CONNECTED4,
        _GIZEH_LEFT,
        _by_value(
            _GIZEH_LEFT,
            (1, 2),
            (1, 3),
            (2, 3),
            (2, 4),
            (2, 5),
            (3, 5),
            (3, 6),
            (4, 5),
            (5, 6),
            (5, 7),
        ),
        "R3.1",
    ),
    Stall(GIZEH, RIGHT, COLOURS3_OR_4, _rows("1 2 3 4D", "5 6 7 8"), (), "R3.2"),
    Stall(
        AKHET_ATON,
        LEFT,
        ALL_LEVELS,
        _AKHET_LEFT,
        ((0,), (1, 2), (3, 4, 5), (6, 7, 8, 9)),
        "R3.3",
    ),
    Stall(
        AKHET_ATON,
        RIGHT,
        LINE3,
        _AKHET_RIGHT,
        ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)),
        "R3.4",
    ),
    Stall(ABOU_SIMBEL, LEFT, SUM_11_14_17, _rows("1 1", "2D 2", "5 7 8"), (), "R3.5"),
    Stall(ABOU_SIMBEL, RIGHT, SUM_17, _rows("1 1", "2 2 3D", "3 6 7 12X"), (), "R3.6"),
    Stall(LOUQSOR, LEFT, TWO_DICE, _rows("1S 2S 3S 4S", "5 6 7"), (), "R3.7"),
    Stall(LOUQSOR, RIGHT, ONE_DIE_RUN, _rows("2S 3S 4S 5S", "6 7 8"), (), "R3.8"),
)


def stall_of(market: int, side: int) -> Stall:
    return STALLS[market * 2 + side]


# Global square numbers: every square of every stall gets one integer, stall by stall.
SQUARE_BASE = []
_base = 0
for _stall in STALLS:
    SQUARE_BASE.append(_base)
    _base += len(_stall.squares)
NUM_SQUARES = _base
SQUARE_BASE = tuple(SQUARE_BASE)
del _base, _stall


def resolution_order(stall: Stall) -> tuple[int, ...]:
    """Square indices in the order their bids resolve (R6.1, R3.9).

    Highest value first; equal values: the lower row first, then the square further right.
    """
    return tuple(s.index for s in sorted(stall.squares, key=lambda s: (-s.value, -s.row, -s.col)))


def bids_total(stall: Stall, mask: int) -> int:
    """The sum of the bids on the occupied squares (``mask``: a bit per square) of ``stall``."""
    return sum(s.value for s in stall.squares if mask >> s.index & 1)


def connected_groups(stall: Stall, mask: int) -> list[list[int]]:
    """The groups of occupied squares (``mask``: a bit per square) joined by the edges of the
    brick pyramid (R3.1; ``stall.groups`` are its edges): each group as its square indices,
    smallest first, the groups in the order of their smallest square."""
    neighbours: dict[int, list[int]] = {s.index: [] for s in stall.squares}
    for a, b in stall.groups:
        neighbours[a].append(b)
        neighbours[b].append(a)
    seen: set[int] = set()
    groups = []
    for start in range(len(stall.squares)):
        if not mask >> start & 1 or start in seen:
            continue
        group, stack = [start], [start]
        seen.add(start)
        while stack:
            sq = stack.pop()
            for nb in neighbours[sq]:
                if mask >> nb & 1 and nb not in seen:
                    seen.add(nb)
                    group.append(nb)
                    stack.append(nb)
        groups.append(sorted(group))
    return groups


def connected_component_sizes(stall: Stall, mask: int) -> list[int]:
    """The sizes of :func:`connected_groups` (R3.1: the stall closes once one reaches four)."""
    return [len(group) for group in connected_groups(stall, mask)]


def occupied_values(stall: Stall, mask: int) -> list[int]:
    """The values of the squares in ``mask``, smallest first."""
    return sorted(s.value for s in stall.squares if mask >> s.index & 1)


def longest_run_values(values) -> tuple[int, ...]:
    """The longest run of consecutive values among ``values`` (R3.8), the first (lowest) one if
    several are as long: ``(2, 3, 4)`` for 2, 3, 4, 7."""
    best: list[int] = []
    run: list[int] = []
    for v in sorted(set(values)):
        run = run + [v] if run and v == run[-1] + 1 else [v]
        if len(run) > len(best):
            best = run
    return tuple(best)


def longest_run(stall: Stall, mask: int) -> int:
    """Length of the longest run of occupied squares with consecutive values (R3.8)."""
    return len(longest_run_values(occupied_values(stall, mask)))


# Gizeh right (R3.2): the stall closes once its servants show this many colours, or number this
# many, whoever placed them.
COLOURS_TO_CLOSE = 3
SERVANTS_TO_CLOSE = 4


def colours_close(seats) -> bool:
    """Whether servants of ``seats`` (one entry per servant on the stall) close Gizeh right (R3.2)."""
    return len(seats) >= SERVANTS_TO_CLOSE or len(set(seats)) >= COLOURS_TO_CLOSE


def colours_needed(seats) -> int:
    """The fewest further servants that close Gizeh right holding ``seats`` (R3.2)."""
    return max(0, min(SERVANTS_TO_CLOSE - len(seats), COLOURS_TO_CLOSE - len(set(seats))))


# Abou Simbel (R3.5, R3.6): the left stall closes on a total of exactly 11 or 14 or on at least
# 17; the right stall on at least 17.
SUM_EXACT = {SUM_11_14_17: (11, 14), SUM_17: ()}
SUM_AT_LEAST = 17


def sum_closes(rule: str, total: int) -> bool:
    """Whether bids adding up to ``total`` close an Abou Simbel stall of ``rule`` (R3.5, R3.6)."""
    return total in SUM_EXACT[rule] or total >= SUM_AT_LEAST


def sum_targets(rule: str) -> tuple[int, ...]:
    """The totals that close an Abou Simbel stall of ``rule``, the open-ended one last."""
    return (*SUM_EXACT[rule], SUM_AT_LEAST)


# Louqsor (R3.7, R3.8, R4.2): the dice rolled after a placement (and by a re-roll).
DIE_FACES = 6
DICE_OF_RULE = {TWO_DICE: 2, ONE_DIE_RUN: 1}
DICE_RULES = frozenset(DICE_OF_RULE)


def dice_rolled(stall_id: int) -> int:
    """How many dice a placement on stall ``stall_id`` rolls: 2 (R3.7), 1 (R3.8), else 0."""
    return DICE_OF_RULE.get(STALLS[stall_id].rule, 0)


def roll_count(dice: int) -> int:
    """How many equally likely rolls ``dice`` dice have: 36 for two, 6 for one."""
    return DIE_FACES**dice


def roll_closes(stall_id: int, mask: int, dice) -> bool:
    """Whether the roll ``dice`` closes Louqsor's stall ``stall_id`` with the occupancy ``mask``:
    on the left stall each die must show an occupied value (R3.7), on the right stall the die
    must be at most the longest run of consecutive occupied values (R3.8)."""
    if STALLS[stall_id].rule == TWO_DICE:
        bits = _VALUE_BITS[stall_id]
        return all(mask & bits.get(d, 0) for d in dice)
    return dice[0] <= RUN_TABLE[stall_id][mask]


def closes_by_shape(stall: Stall, mask: int) -> bool:
    """Whether occupying exactly the squares in ``mask`` closes the stall (R3.1, R3.3-R3.6).

    Colour (R3.2) and dice (R3.7, R3.8) stalls are not decided by the mask alone: False.
    """
    rule = stall.rule
    if rule == CONNECTED4:
        return max(connected_component_sizes(stall, mask), default=0) >= 4
    if rule == ALL_LEVELS:
        return all(any(mask >> i & 1 for i in level) for level in stall.groups)
    if rule == LINE3:
        return any(all(mask >> i & 1 for i in line) for line in stall.groups)
    if rule in SUM_EXACT:
        return sum_closes(rule, bids_total(stall, mask))
    return False


# Lookup tables over every occupancy mask, built once: closing is then one index (speed goal).
CLOSES_TABLE: tuple[tuple[bool, ...], ...] = tuple(
    tuple(closes_by_shape(st, m) for m in range(1 << len(st.squares))) for st in STALLS
)
RUN_TABLE: tuple[tuple[int, ...], ...] = tuple(
    tuple(longest_run(st, m) for m in range(1 << len(st.squares))) if st.rule == ONE_DIE_RUN else ()
    for st in STALLS
)
RESOLUTION_ORDER = tuple(resolution_order(st) for st in STALLS)
# Per stall, per square value: the mask of the squares showing it (a die's face on R3.7).
_VALUE_BITS: tuple[dict[int, int], ...] = tuple(
    {
        v: sum(1 << s.index for s in st.squares if s.value == v)
        for v in {s.value for s in st.squares}
    }
    for st in STALLS
)


# --- Does a stall close? (R3) -------------------------------------------------------------------
# The questions every layer asks of a stall, answered here only: who is on it, whether its
# servants close it, how many more it takes. What decides depends on the stall: the squares its
# servants occupy (R3.1, R3.3-R3.6), the colours of those servants (R3.2), or the dice rolled
# after a placement (R3.7, R3.8).
BY_SQUARES, BY_COLOURS, BY_DICE = "squares", "colours", "dice"
#: CLOSED_BY[stall id]: what decides whether that stall closes (BY_SQUARES, BY_COLOURS, BY_DICE).
CLOSED_BY: tuple[str, ...] = tuple(
    BY_COLOURS if st.rule == COLOURS3_OR_4 else BY_DICE if st.rule in DICE_RULES else BY_SQUARES
    for st in STALLS
)


def seats_on(owners) -> list[int]:
    """Who is on a stall: the seat of each servant in ``owners`` (a seat per square, -1 where the
    square is empty), in square order; a seat placing several servants is there several times."""
    return [o for o in owners if o >= 0]


def _needed_by_squares(stall_id: int) -> tuple[int | None, ...]:
    """Per occupancy mask: the fewest further servants whose squares close a stall the squares
    decide (0: it closes already; None: no squares left close it)."""
    closes = CLOSES_TABLE[stall_id]
    size = len(STALLS[stall_id].squares)
    needed: list[int | None] = [None] * (1 << size)
    for mask in range((1 << size) - 1, -1, -1):  # from the full stall down: supersets first
        if closes[mask]:
            needed[mask] = 0
            continue
        after = [needed[mask | 1 << i] for i in range(size) if not mask >> i & 1]
        reachable = [n for n in after if n is not None]
        needed[mask] = min(reachable) + 1 if reachable else None
    return tuple(needed)


# Per stall where the squares decide, per occupancy mask: its verdict and the servants still
# needed (None on the other stalls), so that answering is one index.
_CLOSES_BY_MASK = tuple(
    CLOSES_TABLE[st.id] if CLOSED_BY[st.id] == BY_SQUARES else None for st in STALLS
)
_NEEDED_BY_MASK = tuple(
    _needed_by_squares(st.id) if CLOSED_BY[st.id] == BY_SQUARES else None for st in STALLS
)


def _seats(stall_id: int, owners) -> list[int]:
    if owners is None:
        raise ValueError(f"{STALLS[stall_id].name} closes by colours (R3.2): give its owners")
    return seats_on(owners)


def stall_closes(stall_id: int, mask: int, owners=None) -> bool | None:
    """Whether the servants on stall ``stall_id`` close it: ``mask`` has a bit per occupied
    square, ``owners`` the seat on each square (-1 where empty; needed only where the colours
    decide, R3.2). True or False on the stalls the servants decide (R3.1-R3.6); None on Louqsor's
    stalls, where the dice rolled after a placement decide (:func:`roll_closes`, R3.7, R3.8)."""
    table = _CLOSES_BY_MASK[stall_id]
    if table is not None:
        return table[mask]
    if CLOSED_BY[stall_id] == BY_DICE:
        return None
    return colours_close(_seats(stall_id, owners))


def placement_closes(stall_id: int, mask: int, owners, square: int, seat: int) -> bool | None:
    """:func:`stall_closes` once ``seat`` has placed a servant on the empty ``square`` of the
    stall that ``mask`` and ``owners`` show before it (R5.2)."""
    placed = list(owners)
    placed[square] = seat
    return stall_closes(stall_id, mask | 1 << square, placed)


def servants_needed(stall_id: int, mask: int, owners=None) -> int | None:
    """The fewest further servants that close stall ``stall_id`` (``mask``, ``owners``: as for
    :func:`stall_closes`): 0 where its servants close it already; None where no more servants
    would, and on Louqsor's stalls, where the dice decide (R3.7, R3.8)."""
    table = _NEEDED_BY_MASK[stall_id]
    if table is not None:
        return table[mask]
    if CLOSED_BY[stall_id] == BY_DICE:
        return None
    return colours_needed(_seats(stall_id, owners))


# --- Settling a market (R6) --------------------------------------------------------------------
def half_reserve(reserve: int) -> int:
    """What a bidder who buys no card takes from the market's reserve: half, rounded up (R6.4)."""
    return (reserve + 1) // 2


# --- Characters (R2.3, R10) ---------------------------------------------------------------------
# Piles in their order beside the board; within a pile the first card is on top.
PILES = ("vizier", "merchant", "high_priest", "chief", "royal_servant", "scribe", "treasurer")
VIZIER, MERCHANT, HIGH_PRIEST, CHIEF, ROYAL_SERVANT, SCRIBE, TREASURER = range(7)

CHARACTER_CARDS = (
    "vizier",
    "first_merchant",
    "merchant",
    "high_priest",
    "chief",
    "royal_servant",
    "scribe+3",
    "scribe+2",
    "scribe+1",
    "treasurer",
)
(
    C_VIZIER,
    C_FIRST_MERCHANT,
    C_MERCHANT,
    C_HIGH_PRIEST,
    C_CHIEF,
    C_ROYAL_SERVANT,
    C_SCRIBE3,
    C_SCRIBE2,
    C_SCRIBE1,
    C_TREASURER,
) = range(10)
SCRIBE_BONUS = {C_SCRIBE3: 3, C_SCRIBE2: 2, C_SCRIBE1: 1}
CARD_PILE = (
    VIZIER,
    MERCHANT,
    MERCHANT,
    HIGH_PRIEST,
    CHIEF,
    ROYAL_SERVANT,
    SCRIBE,
    SCRIBE,
    SCRIBE,
    TREASURER,
)


def starting_piles(players: int) -> list[list[int]]:
    """The character piles at setup (R2.3); with 3 players one Scribe +2 is removed."""
    scribes = [C_SCRIBE3, C_SCRIBE2, C_SCRIBE2, C_SCRIBE1]
    if players == 3:
        scribes.remove(C_SCRIBE2)
    return [
        [C_VIZIER],
        [C_FIRST_MERCHANT, C_MERCHANT, C_MERCHANT],
        [C_HIGH_PRIEST],
        [C_CHIEF],
        [C_ROYAL_SERVANT, C_ROYAL_SERVANT],
        scribes,
        [C_TREASURER],
    ]


TOTAL_CHARACTERS = {4: 13, 3: 12}
TREASURER_MAX = 4  # R10.8
VIZIER_POINTS_PER_TYPE = 2  # R10.2

# --- Card slots in a market (R6.2) --------------------------------------------------------------
SLOTS = ("upper", "lower1", "lower2", "lower3")
UPPER = 0
MARKET_CARDS = 4  # one upper card and three lower ones

# --- First-game layout (R2.8) -------------------------------------------------------------------
FIRST_GAME_SIDES = (LEFT, LEFT, LEFT, LEFT)  # Louqsor: closed, the tile on its left stall

# --- Variants a teacher can switch on to compare with the rules as printed ----------------------
# name -> (what changes, the rule it departs from). Used by Config.variants; explained in the tutor.
VARIANTS = {
    "akhenaton_ends_game": (
        "The game ends as soon as the Akhenaton card is drawn, with the open markets unplayed "
        "(the German play report's reading; R13 says it is wrong).",
        "R7.1",
    ),
    "royal_servant_own_type": (
        "The Royal Servant may only name a gift type its recruiter holds (a common house rule).",
        "R10.6",
    ),
    "merchant_pays_reserve": (
        "A Merchant's difference in value is paid into the reserve of the market with the "
        "Market Closed tile instead of to the opponent.",
        "R10.3",
    ),
}
