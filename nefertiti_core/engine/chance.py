"""Chance as a node: Louqsor's dice and the cards drawn from the deck, with exact odds.

The engine has two kinds of chance, and both happen inside :meth:`GameState.apply`:

* **a roll** (``ROLL``): a servant placed in Louqsor rolls two dice on the left stall (R3.7) or
  one on the right stall (R3.8); the dice holder's re-roll rolls them again (R4.2);
* **a draw** (``DRAW``): a market that reopens draws cards from the top of the deck to four
  (R6.7); the Akhenaton card may come out (R6.8).

``apply`` resolves an option in one go: a placement, its roll, the closing it may cause, the
refill of the market that reopens, the forced moves that follow (engine decision E3), even a
second roll. So the engine has no state "between" an option and its dice. The chance point is
therefore **an option chosen whose chance is not yet all known**: :func:`chance_node` takes the
position and the option and returns the first chance event the option meets (a
:class:`ChanceNode`), or None when the option meets none. The node lists its outcomes with
their exact probabilities (:class:`~fractions.Fraction`) and :meth:`ChanceNode.apply` fixes one
outcome: the result is the option's next chance node, or the position after the option once
every chance event is fixed. Nothing is rolled or drawn from the game's random source: each
outcome is fixed the way a teacher fixes one (``force_roll`` / ``force_draw``, R4.4; the
``roll 3 5`` / ``draw harp`` steps of a record), and the option is replayed from the saved
position with everything fixed so far.

The probabilities are those the players can know (R12):

* a roll: every face equally likely, each die on its own (``6`` or ``36`` outcomes, fewer when
  dice of this roll were already fixed with ``force_roll``), each outcome marked with whether it
  closes the stall. :func:`roll_outcomes` is the one place this is counted: the status lines,
  the previews, the odds and the OpenSpiel adapter all read it;
* a draw: the cards still in the deck as the players know them (the box minus every card they
  have seen), never their order (:mod:`nefertiti_core.engine.deck`): a gift kind with ``c`` copies left
  among ``g`` gifts has probability ``c/g`` while the Akhenaton card cannot be on top; the
  Akhenaton card lies uniformly among the bottom five (R2.2), so it is on top with probability
  ``1/k`` once ``k <= 5`` cards are left, and never before. A staged position that put it higher
  (a scenario's ``akhenaton: N``) keeps that known place, as ``deck.reshuffled`` keeps it.

Standard library only; no UI. Rule IDs refer to :mod:`nefertiti_core.teaching.rules_reference`.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from . import options as O
from . import rules as R
from .deck import BOTTOM, reshuffled
from .errors import ArgumentError, IllegalOptionError, NefertitiError, require_state
from .limits import echo
from .state import GameState, fast_copy, own_lists

ROLL, DRAW = "roll", "draw"
#: Who acts at a chance node, as OpenSpiel numbers it (``pyspiel.PlayerId.CHANCE``), for code
#: that shows whose turn it is without importing OpenSpiel (seats are 0-3).
CHANCE_PLAYER = -1
DIE_FACES = R.DIE_FACES
LOUQSOR_LEFT = R.LOUQSOR * 2 + R.LEFT
LOUQSOR_RIGHT = R.LOUQSOR * 2 + R.RIGHT
CARD_NAMES = (*R.CARD_KINDS, "akhenaton")


class Outcome(NamedTuple):
    """One outcome of a chance node: ``value`` is the free dice (a tuple, R3.7/R3.8) or a card
    kind (0-7, 8 = the Akhenaton card); ``closes`` says whether a roll closes Louqsor (None for
    a draw)."""

    value: tuple[int, ...] | int
    probability: Fraction
    closes: bool | None = None


# ====================================================================== the distributions
def dice_of(stall_id: int) -> int:
    """How many dice a roll on Louqsor's stall ``stall_id`` uses: 2 left (R3.7), 1 right (R3.8)."""
    dice = (
        R.dice_rolled(stall_id)
        if isinstance(stall_id, int) and 0 <= stall_id < len(R.STALLS)
        else 0
    )
    if dice:
        return dice
    raise ArgumentError(f"only Louqsor's stalls roll dice (R3.7, R3.8), not stall {echo(stall_id)}")


_ROLLS: dict[tuple[int, int, tuple[int, ...]], tuple[Outcome, ...]] = {}


def roll_outcomes(stall_id: int, mask: int, given: tuple[int, ...] = ()) -> tuple[Outcome, ...]:
    """Every roll of the free dice on Louqsor's stall ``stall_id`` with the occupancy ``mask``,
    each with its exact probability and whether it closes the stall: on the left stall each die
    must show an occupied value (R3.7); on the right stall the die must be at most the longest
    run of consecutive occupied values (R3.8). ``given``: dice of this roll already fixed
    (``force_roll``, R4.4), used first; only the others are free. Outcomes in the order of the
    faces (first die first)."""
    key = (stall_id, mask, tuple(given))
    out = _ROLLS.get(key)
    if out is not None:
        return out
    dice = dice_of(stall_id)
    stall = R.STALLS[stall_id]
    if (
        isinstance(mask, bool)
        or not isinstance(mask, int)
        or not 0 <= mask < 1 << len(stall.squares)
    ):
        raise ArgumentError(
            f"an occupancy of {stall.name} is a mask of its squares, not {echo(mask)}"
        )
    given = tuple(given[:dice])
    for d in given:
        if type(d) is not int or not 1 <= d <= DIE_FACES:
            raise ArgumentError(f"a die shows 1 to 6, not {echo(d)} (R4.4)")
    free = dice - len(given)
    p = Fraction(1, DIE_FACES**free)
    out = []
    for roll in itertools.product(range(1, DIE_FACES + 1), repeat=free):
        full = given + roll
        out.append(Outcome(roll, p, R.roll_closes(stall_id, mask, full)))
    out = tuple(out)
    if len(_ROLLS) < 4096:
        _ROLLS[key] = out
    return out


def closing_probability(stall_id: int, mask: int, given: tuple[int, ...] = ()) -> Fraction:
    """The exact probability that the roll of :func:`roll_outcomes` closes the stall."""
    return sum(
        (o.probability for o in roll_outcomes(stall_id, mask, given) if o.closes), Fraction(0)
    )


def draw_outcomes(deck) -> tuple[Outcome, ...]:
    """The next card from the top of ``deck`` (the engine's list, top at the end) as the
    players know it: its cards, not their order (R2.2, R12; see the module docstring). Outcomes
    in the order of the card kinds, the Akhenaton card last; only those with a chance."""
    size = len(deck)
    if not size:
        raise NefertitiError("the deck is empty: there is no card to draw (R6.7)")
    counts = [0] * (R.NUM_KINDS + 1)
    for card in deck:
        counts[card] += 1
    if not counts[R.AKHENATON]:
        akhenaton = "none"
    else:
        at = deck.index(R.AKHENATON)
        if at < BOTTOM:  # R2.2: anywhere among the bottom five (or all cards, when fewer)
            akhenaton = "bottom" if size > BOTTOM else "any"
        else:  # a staged position: its place is what the teacher set up
            akhenaton = "top" if at == size - 1 else "below"
    key = (tuple(counts), akhenaton)
    out = _DRAWS.get(key)
    if out is None:
        out = _DRAWS[key] = _draw_outcomes(counts, akhenaton)
        if len(_DRAWS) > 8192:
            _DRAWS.clear()
    return out


_DRAWS: dict[tuple, tuple[Outcome, ...]] = {}


def _draw_outcomes(counts: list[int], akhenaton: str) -> tuple[Outcome, ...]:
    if akhenaton == "top":
        return (Outcome(R.AKHENATON, Fraction(1)),)
    size = sum(counts)
    # "any": the Akhenaton card is one of the cards that may be on top, 1/size each copy;
    # otherwise only the gifts can be, each copy 1/gifts.
    among = size if akhenaton == "any" else size - counts[R.AKHENATON]
    out = [
        Outcome(kind, Fraction(counts[kind], among)) for kind in range(R.NUM_KINDS) if counts[kind]
    ]
    if akhenaton == "any":
        out.append(Outcome(R.AKHENATON, Fraction(1, size)))
    return tuple(out)


#: Per option id: whether choosing it rolls Louqsor's dice, a placement on a dice stall (R3.7,
#: R3.8) or the dice holder's re-roll (R4.2). The option alone decides it; ``roll_at`` adds
#: where the roll happens.
MAY_ROLL = tuple(
    (O.OPTION_KIND[o] == O.PLACE and R.STALLS[O.SQUARE_STALL[o]].rule in R.DICE_RULES)
    or O.OPTION_KIND[o] == O.REROLL
    for o in range(O.NUM_OPTIONS)
)


def roll_at(state: GameState, option: int) -> tuple[int, int] | None:
    """(stall id, occupancy at the roll) when ``option`` makes its player roll Louqsor's dice
    (``MAY_ROLL``); else None. The one place that says which options roll (status, exercises,
    bots and hints ask it)."""
    if not MAY_ROLL[option]:
        return None
    if O.OPTION_KIND[option] == O.PLACE:
        stall_id = O.SQUARE_STALL[option]
        return stall_id, state.mask[R.LOUQSOR] | 1 << O.SQUARE_INDEX[option]
    return R.LOUQSOR * 2 + state.side[R.LOUQSOR], state.mask[R.LOUQSOR]


# ====================================================================== the chance point
class _Need(NefertitiError):
    """Raised inside a replay when the engine asks for chance that nothing has fixed (caught
    there); outside one, when a state whose random source is ``NO_DICE`` is asked to roll."""

    def __init__(self, kind: str):
        super().__init__(
            f"this state's chance comes from chance nodes (nefertiti_core.engine.chance): a {kind} was "
            f"asked of it; use chance_node/advance, or fix it first (force_roll/force_draw, R4.4)"
        )
        self.kind = kind


class _NoDice(random.Random):
    """A random source that gives no dice: every die must have been fixed (``GameState._roll``
    asks the random source only for a die nobody fixed). It has no state to copy."""

    def random(self):
        raise _Need(ROLL)


#: The random source of replays, and of states whose every die is a chance node (the OpenSpiel
#: game's): a state holding it needs no clone of a random source when copied here.
NO_DICE = _NoDice(0)


class _Deck(list):
    """The deck during a replay: the engine draws an unfixed card with ``pop()`` from the top
    (a fixed one is removed by index), so a pop is a draw nobody fixed."""

    def pop(self, *index):
        raise _Need(DRAW)


Step = tuple[str, object]  # ("roll", (d1, ...)) or ("draw", kind): the steps of a record


@dataclass(frozen=True, eq=False)
class ChanceNode:
    """The first chance event not yet fixed when ``option`` is applied to ``before`` with the
    outcomes ``fixed`` (in order) fixed: a roll or a draw, its outcomes and their exact
    probabilities (summing to 1). ``before`` is never changed.

    A roll (``kind == ROLL``): ``seat`` rolls on ``stall_id`` with the occupancy ``mask``;
    ``given`` are dice of this roll fixed beforehand (``force_roll``); an outcome's value is the
    tuple of the free dice. A draw (``kind == DRAW``): ``market`` is refilled (R6.7) from a deck
    of ``deck_size`` cards; an outcome's value is a card kind.
    """

    kind: str
    outcomes: tuple[Outcome, ...]
    before: GameState
    option: int
    fixed: tuple[Step, ...]
    seat: int = -1
    stall_id: int = -1
    mask: int = 0
    given: tuple[int, ...] = ()
    market: int = -1
    deck_size: int = 0

    @property
    def dice(self) -> int:
        """The number of dice of the roll (0 for a draw)."""
        return dice_of(self.stall_id) if self.kind == ROLL else 0

    @property
    def rule(self) -> str:
        if self.kind == DRAW:
            return "R6.7"
        return R.STALLS[self.stall_id].rule_id

    @property
    def closing_probability(self) -> Fraction | None:
        """For a roll, the exact probability that it closes Louqsor (None for a draw)."""
        if self.kind != ROLL:
            return None
        return sum((o.probability for o in self.outcomes if o.closes), Fraction(0))

    def probability(self, value) -> Fraction:
        """The exact probability of the outcome ``value`` (0 if it cannot happen)."""
        value = self._value(value)
        return next((o.probability for o in self.outcomes if o.value == value), Fraction(0))

    def step(self, value) -> Step:
        """The record step that fixes ``value``: ``("roll", dice)`` or ``("draw", kind)``;
        for a roll with ``given`` dice, the whole roll."""
        value = self._value(value)
        return (ROLL, self.given + value) if self.kind == ROLL else (DRAW, value)

    def text(self, value) -> str:
        """``value`` in the move notation of a record: ``roll 3 5``, ``draw harp``."""
        kind, v = self.step(value)
        if kind == ROLL:
            return "roll " + " ".join(map(str, v))
        return f"draw {CARD_NAMES[v]}"

    def apply(self, value) -> ChanceNode | GameState:
        """Fix the outcome ``value``: the option's next chance node, or the position after the
        option once no chance is left unfixed (a new state; ``before`` is unchanged). An
        outcome that cannot happen is refused (IllegalOptionError, R4.4)."""
        value = self._value(value)
        if not self.probability(value):
            if self.kind == ROLL:
                why = "a die shows 1 to 6"
            else:
                why = "the cards that can come out are " + ", ".join(
                    CARD_NAMES[o.value] for o in self.outcomes
                )
            raise IllegalOptionError(
                f"{self._describe(value)} cannot happen here: {why} (R4.4)", rule="R4.4"
            )
        return advance(self.before, self.option, (*self.fixed, (self.kind, value)))

    def _value(self, value):
        if self.kind == ROLL:
            if isinstance(value, int) and not isinstance(value, bool):
                value = (value,)
            if not isinstance(value, tuple) or len(value) != len(self.outcomes[0].value):
                raise ArgumentError(
                    f"an outcome of this roll is a tuple of {len(self.outcomes[0].value)} "
                    f"dice, not {echo(value)}"
                )
            return value
        if isinstance(value, str) and value in CARD_NAMES:
            return CARD_NAMES.index(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ArgumentError(f"an outcome of a draw is a card kind, not {echo(value)}")
        return value

    def _describe(self, value) -> str:
        if self.kind == ROLL:
            return " ".join(map(str, value))
        return CARD_NAMES[value] if 0 <= value < len(CARD_NAMES) else echo(value)

    def __repr__(self) -> str:
        where = (
            f"{R.STALLS[self.stall_id].name} mask {self.mask:#x}"
            if self.kind == ROLL
            else f"{R.MARKETS[self.market]} from {self.deck_size} cards"
        )
        return f"<ChanceNode {self.kind} {where}: {len(self.outcomes)} outcomes>"


def chance_node(state: GameState, option: int | str) -> ChanceNode | None:
    """The first chance event that ``option`` (legal now) meets, or None when applying it
    involves no chance left unfixed (a roll or draw fixed with ``force_roll``/``force_draw``
    is not chance). ``state`` is not changed. See the module docstring."""
    require_state(state)
    if isinstance(option, str):
        option = state.parse(option)
    elif isinstance(option, bool) or not isinstance(option, int):
        raise ArgumentError(f"an option is an id (an int) or its text, not {echo(option)}")
    if not state.is_legal(option):
        state.apply(option)  # raises the engine's own refusal (R7.1, ...) and changes nothing
        raise IllegalOptionError(f"{echo(option)} is not a legal option now", option)
    found = advance(state, option, ())
    return found if isinstance(found, ChanceNode) else None


def _replay(before: GameState, option: int, fixed: tuple[Step, ...], log: bool):
    """Apply ``option`` on a copy of ``before`` with ``fixed`` forced after whatever was fixed
    already; returns (the copy, None) when done or (the copy as it stood, _Need) when stopped."""
    copy = fast_copy(before, NO_DICE)  # no log, the random source given: set below
    copy.log = [] if log else (None if before.log is None else before.log[:])
    copy.deck = _Deck(before.deck)
    own_lists(copy)  # an outcome outlives the look-ahead: nothing shared with ``before``
    for kind, value in fixed:
        if kind == ROLL:
            copy.forced_rolls = [*copy.forced_rolls, *value]
        else:
            copy.forced_draws = [*copy.forced_draws, value]
    try:
        copy.apply_unchecked(option)
    except _Need as need:
        return copy, need
    copy.rng = _clone(before.rng)  # as GameState.copy: an independent source in the same state
    copy.deck = list(copy.deck)
    return copy, None


def _clone(rng: random.Random) -> random.Random:
    """A plain ``random.Random`` in ``rng``'s state, without seeding one first (a quarter of the
    time of ``Random()`` and ``setstate``); ``NO_DICE`` itself, which has no state."""
    if type(rng) is _NoDice:
        return rng
    clone = random.Random.__new__(random.Random)
    clone.setstate(rng.getstate())
    return clone


def advance(before: GameState, option: int, fixed: tuple[Step, ...] = ()) -> ChanceNode | GameState:
    """Apply ``option`` (legal in ``before``; not checked) with the chance outcomes ``fixed`` up
    to the first chance event nothing fixes: its node, or the position after the option when
    there is none (a new state either way; ``before`` is unchanged). The fast path of
    :func:`chance_node` and :meth:`ChanceNode.apply` for callers that checked the option."""
    after, need = _replay(before, option, fixed, log=False)
    if need is None:
        return after
    if need.kind == DRAW:
        deck = list(after.deck)
        # The market reopening (R6.7): the closed one that does not hold the tile (R6.6).
        market = next(m for m in range(len(R.MARKETS)) if after.status[m] and m != after.tile)
        return ChanceNode(
            DRAW,
            draw_outcomes(deck),
            before,
            option,
            fixed,
            seat=after.decider,
            market=market,
            deck_size=len(deck),
        )
    stall_id = R.LOUQSOR * 2 + after.side[R.LOUQSOR]
    mask = after.mask[R.LOUQSOR]
    given: tuple[int, ...] = ()
    forced = [*before.forced_rolls, *(d for kind, v in fixed if kind == ROLL for d in v)]
    if stall_id == LOUQSOR_LEFT and forced:
        # Dice fixed beforehand may have started this roll: the dice used so far, less those of
        # the rolls already reported in the copy's log, are this roll's.
        logged, _ = _replay(before, option, fixed, log=True)
        used = len(forced) - len(logged.forced_rolls)
        done = sum(len(data["dice"]) for name, data in logged.log if name == "roll")
        given = tuple(forced[done:used])
    return ChanceNode(
        ROLL,
        roll_outcomes(stall_id, mask, given),
        before,
        option,
        fixed,
        seat=after.decider,
        stall_id=stall_id,
        mask=mask,
        given=given,
    )


def walk(state: GameState, option: int, choose) -> GameState:
    """Apply ``option``, each chance node's outcome picked by ``choose(node)``: the position
    after it. With ``choose`` sampling by the probabilities this is a game's own step."""
    found = advance(state, option, ())
    while isinstance(found, ChanceNode):
        found = found.apply(choose(found))
    return found


def sample(node: ChanceNode, rng: random.Random):
    """An outcome of ``node`` drawn with its probabilities from ``rng``."""
    return sample_value(node.outcomes, rng)


def sample_value(outcomes: tuple[Outcome, ...], rng: random.Random):
    """The value of one of ``outcomes`` drawn with their probabilities from ``rng``."""
    return rng.choices([o.value for o in outcomes], [o.probability for o in outcomes])[0]


def redealt(state: GameState, rng: random.Random) -> GameState:
    """A copy of ``state`` whose hidden information is drawn anew from ``rng``: the order of the
    deck (the players know which cards are left, never which comes next, R12; the Akhenaton card
    stays among the bottom five, R2.2), the dice to come, and any dice or cards fixed ahead
    (R4.4). What a player may explore on their own, such as a learner breaking away from the
    class table, without learning what the game itself will deal."""
    require_state(state)
    game = state.copy()
    game.deck = reshuffled(state.deck, rng)
    game.rng = random.Random(rng.getrandbits(64))
    game.forced_rolls = []
    game.forced_draws = []
    return game
