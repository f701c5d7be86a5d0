"""Nefertiti as an OpenSpiel game (``python_nefertiti``) and the ``mcts`` bot that searches it.

    >>> import pyspiel, nefertiti_core.play.openspiel          # importing registers the game
    >>> game = pyspiel.load_game("python_nefertiti", {"players": 3})
    >>> pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    >>> from nefertiti_core.play.bots import make_bot
    >>> make_bot("mcts", seed=1, time_limit=0.5).choose(engine_state)

The only engine module that imports OpenSpiel or numpy (the ``bots`` extra): ``make_bot("mcts")``
imports it only when asked for one, so the rest of the engine stays standard library only.

**The game.** Actions are the engine's option ids, so an action, an option and a line of the
move notation are one thing, and the adapter never re-implements a rule. Chance is explicit:
the first player (one uniform node: the same distribution as the engine's rolls and re-rolls,
R2.7), each card when it comes out (R2.2, R2.9, R6.7, R6.8) and each roll of Louqsor's dice
(R3.7, R3.8, R4.2); draws and rolls during play are the engine's own chance nodes
(:mod:`nefertiti_core.engine.chance`). The deck's order is never drawn ahead, so no state hides
anything: perfect information. Returns are win shares (1/k to each of k winners, R9.2), so the
game is constant-sum. ``MAX_GAME_LENGTH`` is an empirical bound (nothing in the rules caps a
game's length). An engine state is never changed once stored, so a clone shares it and costs a
few microseconds.

**The bot.** OpenSpiel's information-set MCTS, with its simulation loop re-implemented on plain
engine copies (``TreeSearch``) instead of OpenSpiel states. Every simulation deals the unseen cards
again (the real order can never influence it); the root keeps the ``top_k`` options the greedy
bot ranks best; where another player decides, the tree plays the greedy bot's answer
(``opponents="greedy"``), so the simulations go to the searcher's own options, the deck and the
dice; leaves are scored as soft win shares of the greedy evaluator's estimated final scores.
The budget is ``time_limit`` and/or ``iterations``, whichever ends first (default 1 s and
``DEFAULT_ITERATIONS``); ``iterations`` alone gives the same choices on any machine.
``opponents="uct"`` and ``lazy_replies=True`` remain as options: both play worse.

Why each choice, and how strong the bot is: docs/bots.md; the measurements: docs/benchmarks.md.
"""

from __future__ import annotations

import math
import random
import time

from ..engine import chance as C
from ..engine import options as O
from ..engine import rules as R
from ..engine.deck import reshuffled
from ..engine.errors import NefertitiError, SetupError
from .bots import Evaluator as Estimator
from .bots import (
    GreedyBot,
    collector_paused,
    fast_copy,
    game_progress,
    legal_or_raise,
    register,
)

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts as _ismcts
    from open_spiel.python.algorithms import mcts as _mcts
except ImportError as error:  # the bots extra is not installed
    raise NefertitiError(
        f"the OpenSpiel game and the mcts bot need the bots extra (open_spiel, numpy): "
        f"pip install -e '.[bots]' ({error})"
    ) from error
from ..engine.scoring import winners
from ..engine.state import P_BID, P_TAKE, GameState, new_game, own_lists

GAME_NAME = "python_nefertiti"
DEFAULT_PLAYERS = 4

#: Chance outcomes: a seat when choosing the first player; a card kind (0-7, 8 = the Akhenaton
#: card) when dealing or drawing; when rolling, the dice read as a number in base 6 (one die:
#: face - 1; two dice: 6 * (first - 1) + second - 1), so 36 is the most a node has.
NUM_CHANCE_OUTCOMES = C.DIE_FACES**2
#: Bounds OpenSpiel asks for. Nothing in the rules caps a game's length (markets can close
#: without taking cards), so these are empirical: over three times the most decisions, and five
#: times the most rolls, seen in 20,000 random games per player count (docs/benchmarks.md).
MAX_GAME_LENGTH = 600  # decisions (chance nodes not counted)
MAX_ROLLS = 250  # roll nodes in one game
MARKET_DEAL = 3 * R.MARKET_CARDS  # R2.9: the first 12 cards fill three markets
#: The mcts bot's default budget: 1 s, and at most this many simulations.
DEFAULT_ITERATIONS = 2000
#: How the search chooses for the opponents: "greedy", the greedy bot's choice; "uct", by UCT
#: over all their options, as for the searcher's own decisions.
OPPONENT_MODELS = ("greedy", "uct")

_CHANCE, _TERMINAL = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL
_CARD_NAMES = C.CARD_NAMES


def _box(players: int) -> tuple[int, ...]:
    """Copies per card kind in the deck at setup (R2.1, R2.2), the Akhenaton card last."""
    counts = [
        0 if players == 3 and R.KIND_TYPE[k] == R.SENET else c
        for k, c in enumerate(R.CARDS_PER_KIND)
    ]
    return (*counts, 1)


BOX = {n: _box(n) for n in (3, 4)}  # copies per card kind in the box, by number of players
DECK_SIZE = {n: sum(box) for n, box in BOX.items()}  # 47 with 4 players, 39 with 3


def _players(params) -> int:
    players = (params or {}).get("players", DEFAULT_PLAYERS)
    if isinstance(players, bool) or not isinstance(players, int) or players not in (3, 4):
        raise SetupError(
            f"{GAME_NAME}: the parameter players must be 3 or 4 (R1.1), not {players!r}"
        )
    return players


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Nefertiti (Python, nefertiti_core engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"players": DEFAULT_PLAYERS},
)


class NefertitiGame(pyspiel.Game):
    """The static facts: the number of players (the ``players`` parameter, 3 or 4)."""

    def __init__(self, params=None):
        players = _players(params)
        self.players = players
        self.deck_size = DECK_SIZE[players]
        info = pyspiel.GameInfo(
            num_distinct_actions=O.NUM_OPTIONS,
            max_chance_outcomes=NUM_CHANCE_OUTCOMES,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, {"players": players})

    def new_initial_state(self):
        return NefertitiState(self)

    def max_chance_nodes_in_history(self):
        return 1 + self.deck_size + MAX_ROLLS

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise SetupError(f"{GAME_NAME}: observation parameters are not supported: {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return NefertitiObserver(perfect_recall=recall)

    def state_from_engine(self, engine: GameState, rng: random.Random) -> NefertitiState:
        """An adapter state at ``engine``'s position. Its history is empty: it starts there.
        The engine's deck order is not kept (it is drawn again from ``rng``): in the adapter
        every card drawn is a chance node, so that order is never read, and it does not leave
        the engine it came from."""
        if engine.n != self.players:
            raise NefertitiError(
                f"a {engine.n}-player position needs the {engine.n}-player game, "
                f"not the {self.players}-player one"
            )
        state = NefertitiState(self)
        core = state.core
        eng = own_lists(fast_copy(engine, C.NO_DICE))  # every die is a chance node; kept
        eng.forced_rolls = []  # a teacher's forced outcomes are not the search's business
        eng.forced_draws = []
        eng.deck = _shuffled_deck(eng.deck, eng.akhenaton_drawn, rng)
        core.first = engine.turn_player  # unknown from a position; only a label here
        core.order = ()
        core.engine = eng
        core.moves_from = 0
        return state


class _Core:
    """Everything a state holds; copied by ``__deepcopy__`` so that OpenSpiel's clone is cheap."""

    __slots__ = ("n", "first", "order", "engine", "pending", "moves_from")

    def __init__(self, n: int):
        self.n = n
        self.first = -1  # R2.7, chosen by the first chance node
        self.order: tuple[int, ...] = ()  # the deal, top of the deck first
        self.engine: GameState | None = None  # built once the deal is complete
        # An action waiting for chance: the engine's chance node (chance.py), which holds the
        # action, the engine before it and the outcomes fixed so far.
        self.pending: C.ChanceNode | None = None
        self.moves_from = 1  # where the moves after the deal start in history()

    def __deepcopy__(self, memo):
        new = _Core.__new__(_Core)
        new.n, new.first, new.order = self.n, self.first, self.order
        # Engines are never changed once stored (every action applies to a fresh copy), so a
        # clone shares them; whoever edits one (a resampled deck) copies it first.
        new.engine = self.engine
        new.pending = self.pending
        new.moves_from = self.moves_from
        return new


class NefertitiState(pyspiel.State):
    """A position: the deal, then the engine's state; a roll or a draw pending as a chance
    node."""

    def __init__(self, game: NefertitiGame):
        super().__init__(game)
        self.core = _Core(game.players)  # the engine state, or the deal so far (``_Core``)
        self.core.moves_from = 1 + MARKET_DEAL

    # ------------------------------------------------------------------ OpenSpiel's State API
    def current_player(self):
        c = self.core
        eng = c.engine
        if eng is None or c.pending is not None:
            return _CHANCE
        return _TERMINAL if eng.legal == () else eng.decider

    def _legal_actions(self, player):
        return list(self.core.engine.legal)

    def chance_outcomes(self):
        c = self.core
        if c.first < 0:
            p = 1.0 / c.n
            return [(seat, p) for seat in range(c.n)]
        if c.engine is None:
            return _deal_outcomes(c.n, c.order)
        return _chance_actions(c.pending)

    def _apply_action(self, action):
        c = self.core
        if c.first < 0:
            c.first = action
        elif c.engine is None:
            c.order = (*c.order, action)
            if len(c.order) == MARKET_DEAL:
                c.engine = _engine_from_deal(c.n, c.first, c.order)
        elif c.pending is not None:
            node = c.pending
            self._settle(node.apply(_outcome(node, action)))
        else:
            self._settle(C.advance(c.engine, action))

    def _settle(self, found) -> None:
        """The engine's answer to an action or an outcome: the next chance node, or the
        position once the action has met all its chance."""
        c = self.core
        if isinstance(found, C.ChanceNode):
            c.pending = found
        else:
            c.engine = found
            c.pending = None

    def _action_to_string(self, player, action):
        c = self.core
        if player == _CHANCE:
            if c.first < 0:
                return f"first player {R.COLOURS[action]}"
            if c.engine is None:
                return f"deal {_CARD_NAMES[action]}"
            if c.pending is not None:
                return c.pending.text(_outcome(c.pending, action))
            return f"chance {action}"
        return O.option_text(action, R.COLOURS[: c.n])

    def is_terminal(self):
        c = self.core
        return c.engine is not None and c.pending is None and c.engine.legal == ()

    def returns(self):
        c = self.core
        if not self.is_terminal():
            return [0.0] * c.n
        return _win_shares(c.engine)

    def __str__(self):
        c = self.core
        if c.engine is None:
            return _setup_text(c) + " | deal " + " ".join(map(str, c.order))
        return _observation_text(c)

    # ------------------------------------------------------------------ information
    def resample_from_infostate(self, player_id, probability_sampler):
        """A clone: nothing is hidden (every card drawn is a chance node when it is drawn), so
        the only state consistent with what a player knows is this one."""
        return self.clone()

    # ------------------------------------------------------------------ for the bot
    def engine(self) -> GameState | None:
        """The engine state (a reference: do not change it); None while dealing."""
        return self.core.engine

    def public_key(self) -> tuple:
        """What every player can see here, as plain data: the search's information-state key."""
        c = self.core
        if c.engine is None:
            return (c.first, c.order[:MARKET_DEAL], len(c.order))
        node = c.pending
        pending = None if node is None else (node.option, node.fixed)
        return (pending, _public(c.engine))


def _deal_outcomes(n: int, order: tuple[int, ...]) -> list[tuple[int, float]]:
    """R2.2, R2.9: the next card dealt to the markets, given the cards dealt so far: a draw
    from the box (``chance.draw_outcomes``; the Akhenaton card lies in the bottom five, so it
    is never among the first twelve)."""
    return [(o.value, float(o.probability)) for o in C.draw_outcomes(undealt(n, order))]


def undealt(n: int, order: tuple[int, ...]) -> list[int]:
    """The cards not dealt yet, as a deck (top at the end): the gifts in a fixed order over the
    Akhenaton card at the bottom. In the adapter no order is ever read: every card is a chance
    node when it is drawn (``chance.draw_outcomes`` reads only the cards and the bottom five)."""
    left = list(BOX[n])
    for card in order:
        left[card] -= 1
    gifts = [kind for kind in range(R.NUM_KINDS) for _ in range(left[kind])]
    return [R.AKHENATON] * left[R.AKHENATON] + gifts


def _engine_from_deal(n: int, first: int, order: tuple[int, ...]) -> GameState:
    """The engine's state after setup (R2), with this first player and these market cards."""
    eng = new_game(n, seed=0, first_player=first)
    for i, m in enumerate((R.GIZEH, R.AKHET_ATON, R.ABOU_SIMBEL)):  # R2.9
        eng.cards[m] = list(order[i * R.MARKET_CARDS : (i + 1) * R.MARKET_CARDS])
    eng.deck = undealt(n, order)
    eng.rng = C.NO_DICE  # every die is a chance node
    eng.refresh()
    return eng


def _shuffled_deck(deck: list[int], akhenaton_drawn: bool, rng: random.Random) -> list[int]:
    """The same cards in a new order (top at the end), the Akhenaton card among the bottom
    five (R2.2): ``deck.reshuffled``, shared with the greedy look-ahead and the odds."""
    return reshuffled(deck, rng)


def _win_shares(eng: GameState) -> list[float]:
    won = winners(eng)
    share = 1.0 / len(won)
    return [share if p in won else 0.0 for p in range(eng.n)]


#: Everything about the position that every player can see (R12): no deck order. The engine's
#: own method, not a function calling it (a search computes one per step it plays).
_public = GameState.public_key


def _setup_text(c: _Core) -> str:
    first = R.COLOURS[c.first] if c.first >= 0 else "?"
    shown = c.order[:MARKET_DEAL]
    markets = [
        f"{R.MARKETS[i]} " + " ".join(_CARD_NAMES[k] for k in shown[i * 4 : i * 4 + 4])
        for i in range((len(shown) + 3) // 4)
    ]
    deck = DECK_SIZE[c.n] - len(c.order)
    return f"setup: first player {first}; " + "; ".join(markets) + f"; deck {deck}"


def _observation_text(c: _Core) -> str:
    """The public position in one line (no deck order)."""
    eng = c.engine
    col = eng.colours
    name = _CARD_NAMES
    who = col[eng.decider] if eng.decider >= 0 else "-"
    parts = [f"turn {eng.turn_no} of {col[eng.turn_player]}: {eng.phase} by {who}"]
    for p in range(eng.n):
        gifts = ",".join(f"{name[k]}x{v}" for k, v in enumerate(eng.gifts[p]) if v)
        parts.append(
            f"{col[p]} deben {eng.deben[p]} seals {eng.seals[p]} prestige {eng.prestige[p]} "
            f"servants {eng.hand[p]} gifts {gifts or '-'}"
        )
    for m in range(4):
        stall = eng.visible_stall(m)
        squares = ",".join(col[o][0] if o >= 0 else "." for o in eng.owners[m])
        cards = ",".join(name[k] if k >= 0 else "-" for k in eng.cards[m])
        state = "open" if eng.status[m] == 0 else "closed"
        seal = " sealed" if eng.seal_on_upper[m] else ""
        parts.append(
            f"{stall.name} {state} reserve {eng.reserve[m]} [{squares}] cards {cards}{seal}"
        )
    piles = " ".join(str(len(p)) for p in eng.piles)
    tile = R.MARKETS[eng.tile] if eng.tile >= 0 else "-"
    holder = col[eng.holder] if eng.holder >= 0 else "-"
    parts.append(
        f"tile {tile} dice holder {holder} last roll {eng.last_roll} characters {piles} "
        f"seal supply {eng.seal_supply} deck {len(eng.deck)}"
        + (" akhenaton drawn" if eng.akhenaton_drawn else "")
    )
    if eng.res_market >= 0:
        parts.append(
            f"resolving {R.MARKETS[eng.res_market]} bids {list(eng.res_queue)} at {eng.res_pos}"
        )
    if eng.character >= 0:
        parts.append(
            f"character {R.CHARACTER_CARDS[eng.character]} exchanges {eng.exchanges_done} "
            f"{list(eng.exchange_partners)} {eng.exchange_take} treasurer {eng.treasurer_market}"
        )
    node = c.pending
    if node is not None:
        so_far = ", ".join(_fixed_text(step) for step in node.fixed) or "-"
        doing = "rolling" if node.kind == C.ROLL else f"drawing for {R.MARKETS[node.market]}"
        parts.append(f"{doing} after {O.option_text(node.option, col)}, so far {so_far}")
    return " | ".join(parts)


def _fixed_text(step: C.Step) -> str:
    kind, value = step
    if kind == C.ROLL:
        return "roll " + " ".join(map(str, value))
    return f"draw {_CARD_NAMES[value]}"


_ACTIONS: dict[int, tuple[tuple, list[tuple[int, float]]]] = {}


def _chance_actions(node: C.ChanceNode) -> list[tuple[int, float]]:
    """(action, probability) of a chance node's outcomes. The engine keeps one outcomes tuple
    per distribution, so the list is made once per tuple (kept with it: its id stays valid)."""
    outcomes = node.outcomes
    entry = _ACTIONS.get(id(outcomes))
    if entry is None or entry[0] is not outcomes:
        if len(_ACTIONS) > 8192:
            _ACTIONS.clear()
        if node.kind == C.DRAW:
            actions = [(o.value, float(o.probability)) for o in outcomes]
        else:
            actions = [(roll_action(o.value), float(o.probability)) for o in outcomes]
        entry = _ACTIONS[id(outcomes)] = (outcomes, actions)
    return list(entry[1])


def roll_action(dice: tuple[int, ...]) -> int:
    """A roll's chance action: its dice as a number in base 6 (see NUM_CHANCE_OUTCOMES)."""
    action = 0
    for die in dice:
        action = action * C.DIE_FACES + die - 1
    return action


def _outcome(node: C.ChanceNode, action: int):
    """The engine's outcome for a chance action at ``node``: a card kind, or the dice."""
    if node.kind == C.DRAW:
        return action
    dice = len(node.outcomes[0].value)
    out = []
    for _ in range(dice):
        action, face = divmod(action, C.DIE_FACES)
        out.append(face + 1)
    return tuple(out[::-1])


class NefertitiObserver:
    """OpenSpiel's Python observer interface: strings only (``tensor`` is None)."""

    def __init__(self, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.tensor = None
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        c = state.core
        now = _setup_text(c) if c.engine is None else _observation_text(c)
        if not self.perfect_recall or c.engine is None:
            return f"p{player} {now}"
        if c.moves_from == 0:  # a state made from an engine position: its past is not known
            past = "from a given position"
        else:
            past = " ".join(map(str, state.history()[c.moves_from :]))
        first = R.COLOURS[c.first]
        return f"p{player} first {first} | moves {past} | {now}"


pyspiel.register_game(_GAME_TYPE, NefertitiGame)


# ====================================================================== the mcts bot
def _rollout_choice(eng: GameState, legal: tuple[int, ...], rnd) -> int:
    """A cheap rollout policy: a bidder takes the first card set / buys the first card it can
    (the engine lists them) more often than it passes; otherwise uniformly random."""
    phase = eng.phase
    if phase == P_BID and len(legal) > 1 and rnd() < 0.5:
        return legal[0]
    if phase == P_TAKE:
        return legal[-1]
    return legal[int(rnd() * len(legal))]


class _Evaluator(_mcts.Evaluator):
    """Leaves scored as soft win shares, on the scale of the game's returns (0 to 1, summing to
    1): ``rollout_depth`` steps of the rollout policy on a plain engine copy (to the end when
    None: then the true win shares), then each player's estimated final score (the greedy bot's
    ``Evaluator.estimates``: gifts at today's values, Deben, seals, the bids on the board) turned
    into shares by a softmax with ``temperature`` points."""

    def __init__(
        self,
        rng: random.Random,
        rollout_depth: int | None,
        temperature: float | tuple[float, float],
    ):
        self.rng = rng
        self.rollout_depth = rollout_depth
        self.temperature = temperature
        self.estimators: dict[tuple, Estimator] = {}  # emptied before every search

    def evaluate(self, state):
        return self.evaluate_engine(state.engine(), private=False)

    def evaluate_engine(self, eng: GameState, private: bool) -> list[float]:
        """The leaf value of ``eng``; a ``private`` engine may be played on in place."""
        steps = self.rollout_depth if self.rollout_depth is not None else 1 << 30
        if steps > 0:
            if not private:
                eng = fast_copy(eng, self.rng)
            rnd = self.rng.random
            while eng.legal and steps > 0:
                eng.apply_unchecked(_rollout_choice(eng, eng.legal, rnd))
                steps -= 1
        if not eng.legal:
            return _win_shares(eng)
        # One estimator per value of Deben and seals (they depend on the deck left and the
        # characters, R9.1): its cache of market gains then serves many leaves of a search.
        key = (len(eng.deck), eng.akhenaton_drawn, any(eng.piles))
        estimator = self.estimators.get(key)
        if estimator is None:
            if len(self.estimators) > 64:
                self.estimators.clear()
            estimator = self.estimators[key] = Estimator(eng)
        scores = estimator.estimates(eng)
        best = max(scores)
        t = self.temperature
        if not isinstance(t, int | float):  # (at the end, at the start): by the deck left
            t = t[0] + (t[1] - t[0]) * game_progress(eng)
        weights = [math.exp((s - best) / t) for s in scores]
        total = sum(weights)
        return [w / total for w in weights]

    def prior(self, state):
        legal = state.legal_actions()
        p = 1.0 / len(legal)
        return [(a, p) for a in legal]


class TreeSearch(_ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTS with a time budget, keys from the public position, and worlds
    resampled by the bot's own random source."""

    def get_state_key(self, state):
        return state.current_player(), state.public_key()

    root_actions: tuple[int, ...] | None = None  # the root's options the search may consider
    opponent_model = None  # a bot whose choices the opponents make in the tree (None: UCT)
    me = -1
    _replies: dict | None = None  # the model's choice per opponent node, within a search
    lazy_replies = False  # one new option or reply per simulation (see ``simulate``)

    def run_simulation(self, state):
        """OpenSpiel's ``run_simulation`` (select, expand one child, evaluate, back up) in a new
        world: ``state``'s engine copied with its deck reshuffled and dice from ``world_rng``
        (``search`` does the same without re-sorting the deck every time)."""
        c = state.core
        if c.engine is None or c.pending is not None:
            raise NefertitiError("the search starts from a decision, not from a chance node")
        eng = fast_copy(c.engine, self.world_rng)
        eng.deck = _shuffled_deck(eng.deck, eng.akhenaton_drawn, self.world_rng)
        return self.simulate(eng)

    def simulate(self, eng: GameState) -> list[float]:
        """One simulation on ``eng``, this simulation's own world, played on in place with
        ``apply_unchecked`` (its dice come from its own random source: their outcome shows in
        the next node's key, as a chance node's would), without recursion or C++ round trips;
        a node's key is computed once, UCT values once per child, ties and expansions drawn
        from ``py_rng``. With an ``opponent_model``, the other players' decisions are its
        choices (asked once per position and search), not UCT's, and create no node; with
        ``lazy_replies`` too, a simulation learns one new thing, as MCTS adds one node: once it
        has tried an option of the searcher's not tried before or asked the model a reply, it
        ends where the next unknown would begin (a reply not asked yet, an option not tried
        yet) and is scored there."""
        nodes = self._nodes
        root = self._root_node
        rnd = self.py_rng.random
        c_uct = self._uct_c
        log, sqrt = math.log, math.sqrt
        unexpanded_count = _ismcts.UNEXPANDED_VISIT_COUNT
        tie = _ismcts.TIE_TOLERANCE
        model = self.opponent_model
        me = self.me
        replies = self._replies
        lazy = self.lazy_replies and model is not None
        learnt = False  # this simulation tried a new option or asked a new reply
        path = []
        while True:
            legal = eng.legal
            if not legal:
                returns = _win_shares(eng)
                break
            player = eng.decider
            key = (player, (None, _public(eng)))  # as get_state_key: (player, public_key())
            if model is not None and player != me:
                action = replies.get(key)
                if action is None:
                    if len(legal) == 1:
                        action = legal[0]
                    elif learnt:
                        returns = self._evaluator.evaluate_engine(eng, private=True)
                        break
                    else:
                        action = model.choose(eng)
                        learnt = lazy
                    replies[key] = action
                eng.apply_unchecked(action)
                continue
            node = nodes.get(key)
            if node is None:
                node = nodes[key] = _ismcts.ISMCTSNode()
                node.total_visits = unexpanded_count
            if node.total_visits == unexpanded_count:
                node.total_visits = 0
                returns = self._evaluator.evaluate_engine(eng, private=True)
                break
            if node is root and self.root_actions is not None:
                legal = self.root_actions
            children = node.child_info
            if len(children) < len(legal):
                if learnt:
                    returns = self._evaluator.evaluate_engine(eng, private=True)
                    break
                learnt = lazy
                unexpanded = [a for a in legal if a not in children]
                action = unexpanded[int(rnd() * len(unexpanded))]
                child = children[action] = _ismcts.ChildInfo(0.0, 0.0, 0.0)
            else:
                logn = log(node.total_visits)
                best, ties = -1e300, []
                for a, ch in children.items():
                    v = ch.return_sum / ch.visits + c_uct * sqrt(logn / ch.visits)
                    if v > best + tie:
                        best, ties = v, [a]
                    elif v > best - tie:
                        ties.append(a)
                action = ties[0] if len(ties) == 1 else ties[int(rnd() * len(ties))]
                child = children[action]
            node.total_visits += 1
            child.visits += 1
            path.append((child, player))
            eng.apply_unchecked(action)
        for child, player in path:
            child.return_sum += returns[player]
        return returns

    def search(self, state, iterations: int | None, deadline: float | None) -> dict[int, int]:
        """Visits per action at the root after the budget (adapted from ``run_search``): every
        simulation runs in a new world, the root's engine with its deck reshuffled by
        ``world_rng`` (R2.2) and its dice drawn from ``world_rng``."""
        self.reset()
        self._root_node = self.create_new_node(state)
        self._replies = {}
        self.me = state.current_player()
        base = state.core.engine
        world_rng = self.world_rng
        uniform, randrange = world_rng.random, world_rng.randrange
        # As _shuffled_deck, sorted once: the same cards in every world, only their order drawn.
        gifts = sorted(card for card in base.deck if card != R.AKHENATON)
        bottom = min(5, len(base.deck)) if len(gifts) < len(base.deck) else 0
        if base.akhenaton_drawn:
            bottom = 0
        done = 0
        # No simulation is started that would end after the deadline if it took as long as the
        # longest one so far (with the greedy opponents a simulation can take 0.1 s).
        longest = 0.0
        now = time.perf_counter()
        while iterations is None or done < iterations:
            if deadline is not None and done and now + longest >= deadline:
                break
            eng = fast_copy(base, world_rng)
            # A uniformly random order, as random.shuffle's but in a third of its time.
            deck = sorted(gifts, key=lambda _: uniform())
            if bottom:
                deck.insert(randrange(bottom), R.AKHENATON)
            eng.deck = deck
            self.simulate(eng)
            done += 1
            then, now = now, time.perf_counter()
            longest = max(longest, now - then)
        self.simulations = done
        return {a: child.visits for a, child in self._root_node.child_info.items()}


class MctsBot:
    """Information-set MCTS over resampled deck orders (see the module docstring)."""

    kind = "mcts"

    def __init__(
        self,
        seed: int | None = 0,
        time_limit: float | None = None,
        iterations: int | None = None,
        uct_c: float = 0.7,
        rollout_depth: int | None = 0,
        temperature: float | tuple[float, float] = 3.0,
        top_k: int | None = 4,
        margin: float | None = None,
        opponents: str = "greedy",
        lazy_replies: bool = False,
    ):
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise NefertitiError(f"iterations must be a positive whole number, not {iterations!r}")
        if time_limit is None and iterations is None:
            time_limit, iterations = 1.0, DEFAULT_ITERATIONS
        if time_limit is not None and not (
            isinstance(time_limit, int | float) and 0 < time_limit <= 600
        ):
            raise NefertitiError(f"time_limit must be seconds in (0, 600], not {time_limit!r}")
        if not isinstance(lazy_replies, bool):
            raise NefertitiError(f"lazy_replies must be True or False, not {lazy_replies!r}")
        if opponents not in OPPONENT_MODELS:
            raise NefertitiError(
                f"opponents must be one of {', '.join(OPPONENT_MODELS)}, not {opponents!r}"
            )
        self.time_limit = time_limit
        self.iterations = iterations
        self.rng = random.Random(seed)
        self.evaluator = _Evaluator(random.Random(self.rng.random()), rollout_depth, temperature)
        self.uct_c = uct_c
        self.top_k = top_k
        self.margin = margin
        self._greedy = GreedyBot(seed=self.rng.randrange(2**32))
        self.opponents = opponents
        self.lazy_replies = lazy_replies
        self._games: dict[int, NefertitiGame] = {}
        self.last_simulations = 0

    def _game(self, players: int) -> NefertitiGame:
        game = self._games.get(players)
        if game is None:
            game = self._games[players] = pyspiel.load_game(GAME_NAME, {"players": players})
        return game

    def choose(self, state: GameState) -> int:
        legal = legal_or_raise(state)
        if len(legal) == 1:
            return legal[0]
        with collector_paused():  # see bots.collector_paused
            return self._search(state, legal)

    def _search(self, state: GameState, legal: tuple[int, ...]) -> int:
        start = time.perf_counter()
        deadline = None if self.time_limit is None else start + self.time_limit
        ranked = legal
        if self.top_k is not None or self.margin is not None:
            values = self._greedy.option_values(state, legal)
            ranked = sorted(legal, key=lambda o: -values[o])
            if self.margin is not None:
                ranked = [o for o in ranked if values[o] >= values[ranked[0]] - self.margin]
            if self.top_k is not None:
                ranked = ranked[: self.top_k]
            if len(ranked) == 1:
                self.last_simulations = 0
                return ranked[0]
        game = self._game(state.n)
        root = game.state_from_engine(state, self.rng)
        search = TreeSearch(
            game,
            self.evaluator,
            self.uct_c,
            max_simulations=0,
            random_state=np.random.RandomState(self.rng.randrange(2**32)),
        )
        world_rng = random.Random(self.rng.random())
        search.world_rng = world_rng
        self.evaluator.estimators.clear()
        search.py_rng = random.Random(self.rng.random())
        if ranked is not legal:
            search.root_actions = tuple(ranked)
        if self.opponents == "greedy":
            search.opponent_model = self._greedy
            search.lazy_replies = self.lazy_replies
        visits = search.search(root, self.iterations, deadline)
        self.last_simulations = search.simulations
        if not visits:  # the time was up before a first option was tried (a starved process)
            return ranked[0]
        best = max(visits.values())
        return next(a for a in ranked if visits.get(a, -1) == best)


register("mcts", MctsBot)
