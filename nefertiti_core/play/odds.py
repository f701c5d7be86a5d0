"""Odds by playouts: from any position, play the game out many times with bots and count.

    >>> from nefertiti_core.play.odds import odds
    >>> report = odds(game, playouts=1000, bots="greedy", seed=0)
    >>> report.win_probability(0), report.win_interval(0)     # seat 0's chance, 95% interval
    >>> report.next_close_frequency()                         # {"gizeh": 0.41, ..., "game_end": 0}

What-if: ``option=`` plays that option first in every playout (the decider's choice being
studied), then the bots take over. For an option that rolls Louqsor's dice (a placement there,
R3.7/R3.8, or a re-roll, R4.2) the report holds both the exact closing probability (from
:mod:`status`, never sampled) and how often the sampled roll closed.

The order of the deck is hidden (R12): every playout reshuffles the cards still in the deck,
consistently with what the players know (the Akhenaton card stays among the bottom five, R2.2),
and draws its own dice. Playout ``i`` is seeded from ``(seed, i)`` only, so a report is the same
for a given seed whatever the number of workers, local processes or a Dask cluster.

Standard library only; Dask's ``distributed`` is imported only when a cluster is asked for.
Rule IDs refer to the rules reference,
:mod:`nefertiti_core.teaching.rules_reference` (``nefertiti rules``).
"""

from __future__ import annotations

import math
import os
import pickle
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from fractions import Fraction

from ..engine import options as O
from ..engine import rules as R
from ..engine.deck import reshuffled
from ..engine.errors import NefertitiError, check_magnitudes
from ..engine.said_text import Said, Worded
from ..engine.scoring import totals, winners
from ..engine.state import P_PLACE, P_TURN, GameState
from .bots import bot_kinds, make_bot
from .stats import Z95, wilson_interval  # noqa: F401 (part of this module's API)

GAME_END = "game_end"  # the game ended before any further market closed
OUTCOMES = (*R.MARKETS, GAME_END)
MAX_PLAYOUTS = 1_000_000
MAX_DECISIONS = 20_000  # a game takes ~130 decisions: this only stops a runaway bot

# One playout's result: (index, final scores, winners, first closing (market index, or -1 for
# the game ending first), whether the studied option's Louqsor roll closed (None: no roll),
# decisions played).
Result = tuple[int, tuple[int, ...], tuple[int, ...], int, bool | None, int]


# --- the hidden deck ------------------------------------------------------------------------------
def resample_deck(deck: Sequence[int], rng: random.Random) -> list[int]:
    """A new order for the cards still in the deck, as likely as any the players cannot rule
    out (``deck.reshuffled``: the Akhenaton card among the bottom five, R2.2)."""
    return reshuffled(deck, rng)


def playout_start(state: GameState, seed: int, index: int) -> tuple[GameState, random.Random]:
    """Playout ``index``'s own copy of ``state``: the deck reshuffled, the dice reseeded.

    Also returns the random source the playout's bots are seeded from. Depends only on
    ``(seed, index)`` and the position.
    """
    rng = random.Random(f"nefertiti-odds/{seed}/{index}")
    game = state.copy()
    game.deck = resample_deck(state.deck, rng)
    game.rng = random.Random(rng.getrandbits(64))
    return game, rng


# --- one playout ------------------------------------------------------------------------------------
def _first_closing(events, start: int) -> int | None:
    for name, data in events[start:]:
        if name == "market_closes":
            return data["market"]
    return None


def playout(
    state: GameState, kinds: Sequence[str], seed: int, index: int, option: int | None = None
) -> Result:
    """Play one playout to the end (see :func:`odds`); ``state`` is left unchanged."""
    game, rng = playout_start(state, seed, index)
    bots = [make_bot(kind, seed=rng.getrandbits(32)) for kind in kinds]
    game.log = []  # only until the first closing is seen (see below)
    first: int | None = None
    roll_closed: bool | None = None
    if option is not None:
        game.apply_unchecked(option)
        for name, data in game.log:
            if name == "roll":
                roll_closed = bool(data["closes"])
                break
        first = _first_closing(game.log, 0)
    seen = len(game.log)
    steps = 0
    while game.legal:
        if first is None and game.log is not None:
            found = _first_closing(game.log, seen)
            if found is not None:
                first = found
                game.log = None  # the rest of the game runs at full speed
            else:
                seen = len(game.log)
        elif game.log is not None:
            game.log = None
        seat = game.decider
        choice = bots[seat].choose(game)
        if choice not in game.legal:
            raise NefertitiError(
                f"the {kinds[seat]!r} bot chose {game.option_text(choice)!r}, which is not legal"
            )
        game.apply_unchecked(choice)
        steps += 1
        if steps > MAX_DECISIONS:
            raise NefertitiError(f"a playout did not end after {MAX_DECISIONS} decisions")
    if first is None and game.log is not None:
        first = _first_closing(game.log, seen)
    return (
        index,
        tuple(totals(game)),
        tuple(winners(game)),
        -1 if first is None else first,
        roll_closed,
        game.decisions - state.decisions,
    )


def _run_chunk(payload: bytes, start: int, stop: int, seed: int, kinds, option, cancel=None):
    """Playouts ``start`` to ``stop - 1`` (a worker's unit of work; ``payload``: the pickled
    state). ``cancel`` (in-process runs only) stops between playouts."""
    state = pickle.loads(payload)
    out = []
    for index in range(start, stop):
        if cancel is not None and cancel.is_set():
            break
        out.append(playout(state, kinds, seed, index, option))
    return out


# --- the report -------------------------------------------------------------------------------------
@dataclass
class OddsReport:
    """What the playouts found (see :func:`odds`). Lists are per seat, in seat order.

    ``scores[seat]``: every playout's final score, in playout order (a histogram's data).
    ``wins[seat]``: playouts won, a shared win (R9.2) counting 1/k for each of k winners.
    ``first_close``: per outcome of ``OUTCOMES`` (a market's name, or ``"game_end"``) how many
    playouts saw it close first after the position (the studied option's own closing included).
    ``louqsor_exact``: the exact probability that the studied option's roll closes Louqsor
    (R3.7, R3.8, R4.2), ``louqsor_rolls_closed``: how many sampled rolls did.
    ``louqsor_chances``: when the decider is placing and Louqsor is open, the exact closing
    probability of a placement on each empty square of its stall.
    ``workers_lost``: Dask workers that left during the run (their chunks were played again
    elsewhere, so the report is the same); ``stopped``: why a run ended early other than by
    ``cancel`` (every Dask worker lost, the scheduler gone), the playouts done kept.
    """

    requested: int
    players: int
    colours: tuple[str, ...]
    bots: tuple[str, ...]
    seed: int
    option: str | None = None
    playouts: int = 0
    wins: list[float] = field(default_factory=list)
    scores: list[list[int]] = field(default_factory=list)
    first_close: dict[str, int] = field(default_factory=dict)
    louqsor_stall: str | None = None
    louqsor_exact: Fraction | None = None
    louqsor_rolls_closed: int = 0
    louqsor_chances: dict[int, Fraction] = field(default_factory=dict)
    decisions: int = 0
    cancelled: bool = False
    seconds: float = 0.0
    workers: int = 1
    backend: str = "local"
    workers_lost: int = 0
    stopped: str | None = None

    # -- reading
    def win_probability(self, seat: int) -> float:
        return self.wins[seat] / self.playouts if self.playouts else 0.0

    def win_interval(self, seat: int) -> tuple[float, float]:
        """95% interval of ``seat``'s win probability (Wilson)."""
        return wilson_interval(self.wins[seat], self.playouts)

    def mean_score(self, seat: int) -> float:
        return sum(self.scores[seat]) / self.playouts if self.playouts else 0.0

    def histogram(self, seat: int) -> dict[int, int]:
        """Final score -> playouts, for one seat, in increasing score."""
        return dict(sorted(Counter(self.scores[seat]).items()))

    def next_close_frequency(self) -> dict[str, float]:
        n = self.playouts or 1
        return {k: self.first_close.get(k, 0) / n for k in OUTCOMES}

    @property
    def louqsor_sampled(self) -> float | None:
        """How often the studied option's sampled roll closed Louqsor (None: no such option)."""
        if self.louqsor_exact is None or not self.playouts:
            return None
        return self.louqsor_rolls_closed / self.playouts

    @property
    def playouts_per_second(self) -> float | None:
        return self.playouts / self.seconds if self.seconds else None

    def as_dict(self) -> dict:
        def frac(value: Fraction | None):
            return None if value is None else {"fraction": str(value), "value": float(value)}

        return {
            "requested": self.requested,
            "playouts": self.playouts,
            "cancelled": self.cancelled,
            "players": self.players,
            "colours": list(self.colours),
            "bots": list(self.bots),
            "seed": self.seed,
            "option": self.option,
            "win_probability": [round(self.win_probability(p), 4) for p in range(self.players)],
            "win_interval_95": [
                [round(x, 4) for x in self.win_interval(p)] for p in range(self.players)
            ],
            "wins": list(self.wins),
            "mean_score": [round(self.mean_score(p), 3) for p in range(self.players)],
            "score_histogram": [
                {str(k): v for k, v in self.histogram(p).items()} for p in range(self.players)
            ],
            "first_close": {k: self.first_close.get(k, 0) for k in OUTCOMES},
            "next_close_frequency": {
                k: round(v, 4) for k, v in self.next_close_frequency().items()
            },
            "louqsor_stall": self.louqsor_stall,
            "louqsor_exact": frac(self.louqsor_exact),
            "louqsor_sampled": (
                None if self.louqsor_sampled is None else round(self.louqsor_sampled, 4)
            ),
            "louqsor_chances": {str(k): frac(v) for k, v in self.louqsor_chances.items()},
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "playouts_per_second": (
                None if self.playouts_per_second is None else round(self.playouts_per_second, 1)
            ),
            "workers": self.workers,
            "backend": self.backend,
            "workers_lost": self.workers_lost,
            "stopped": self.stopped,
        }

    def same_results(self, other: OddsReport) -> bool:
        """Whether two reports counted the same playouts the same way (timings aside)."""
        keys = ("seconds", "playouts_per_second", "workers", "backend", "workers_lost")
        a, b = self.as_dict(), other.as_dict()
        return all(a[k] == b[k] for k in a if k not in keys)

    def add(self, result: Result) -> None:
        """Count one playout's result (what a worker sends back) in the report."""
        _, scores, won, first, roll_closed, decisions = result
        self.playouts += 1
        self.decisions += decisions
        for seat, score in enumerate(scores):
            self.scores[seat].append(score)
        for seat in won:
            self.wins[seat] += 1 / len(won)
        key = GAME_END if first < 0 else R.MARKETS[first]
        self.first_close[key] = self.first_close.get(key, 0) + 1
        if roll_closed:
            self.louqsor_rolls_closed += 1


# --- checking the arguments ---------------------------------------------------------------------
def _seat_kinds(state: GameState, bots) -> tuple[str, ...]:
    if isinstance(bots, str):
        kinds = (bots,) * state.n
    else:
        try:
            kinds = tuple(bots)
        except TypeError:
            raise NefertitiError(
                f"bots must be a bot kind or one kind per seat, not {bots!r}"
            ) from None
        if len(kinds) == 1:
            kinds = kinds * state.n
    if len(kinds) != state.n:
        raise NefertitiError(
            Said("odds.refuse.bots_count", seats=state.n, count=len(kinds), kinds=_listed(kinds))
        )
    for kind in set(kinds):
        if not isinstance(kind, str) or kind not in bot_kinds():
            raise NefertitiError(f"{kind!r} is not a bot: one of {', '.join(bot_kinds())}")
        try:
            make_bot(kind, seed=0)  # a kind whose optional package is missing fails here
        except ImportError as error:
            raise NefertitiError(
                Said("odds.refuse.needs_package", kind=repr(kind), package=error.name)
            ) from None
    return kinds


def _studied_option(state: GameState, option) -> int | None:
    if option is None:
        return None
    if isinstance(option, str):
        option = state.parse(option)
    elif isinstance(option, bool) or not isinstance(option, int):
        raise NefertitiError(f"option must be an option id or its text, not {option!r}")
    if not state.is_legal(option):
        raise NefertitiError(
            Said("odds.refuse.illegal_option", option=repr(state.option_text(option)))
        )
    return option


def _louqsor_facts(state: GameState, option: int | None, report: OddsReport) -> None:
    from ..engine.chance import ROLL, chance_node
    from ..teaching.status import preview, stall_status

    stall_id = R.LOUQSOR * 2 + state.side[R.LOUQSOR]
    if option is not None:
        kind = O.OPTION_KIND[option]
        rolls = (kind == O.PLACE and O.SQUARE_STALL[option] >> 1 == R.LOUQSOR) or kind == O.REROLL
        if rolls:
            # The roll's chance node (chance.py); a roll fixed ahead (R4.4) is no chance: 0 or 1.
            node = chance_node(state, option)
            if node is not None and node.kind == ROLL:
                report.louqsor_exact = node.closing_probability
            else:
                report.louqsor_exact = preview(state, option).closing_probability
            report.louqsor_stall = R.STALLS[stall_id].name
    elif state.phase in (P_TURN, P_PLACE) and state.status[R.LOUQSOR] == 0:
        status = stall_status(state, R.LOUQSOR, state.decider)
        if status.is_open and state.hand[state.decider]:
            report.louqsor_chances = dict(status.closing_chances)
            report.louqsor_stall = R.STALLS[stall_id].name


#: The most playouts one chunk of work holds (a chunk is the unit a cancel or a lost worker
#: costs, and the progress bar's step).
MAX_CHUNK = 50


def playout_chunks(playouts: int, workers: int, chunk_size: int | None) -> list[tuple[int, int]]:
    """Playouts ``[a, b)`` per chunk, in the order they are handed out. Given no ``chunk_size``:
    guided, each chunk a quarter of the remaining playouts' share per worker (at most
    ``MAX_CHUNK``), so chunks shrink towards the end and the workers finish together instead of
    one playing a last large chunk alone (with even chunks of 8, 120 playouts on 2 workers made
    15 chunks: one worker played 8 of them while the other waited). A playout's result depends
    only on its index, never on the chunk it is in."""
    if chunk_size:
        return [(a, min(a + chunk_size, playouts)) for a in range(0, playouts, chunk_size)]
    chunks, a = [], 0
    while a < playouts:
        size = max(1, min(MAX_CHUNK, math.ceil((playouts - a) / (workers * 4))))
        chunks.append((a, a + size))
        a += size
    return chunks


# --- running --------------------------------------------------------------------------------------
def odds(
    state: GameState,
    playouts: int = 1000,
    bots: str | Sequence[str] = "greedy",
    seed: int = 0,
    workers: int | None = None,
    cluster=None,
    progress: Callable[[int, int], None] | None = None,
    cancel: threading.Event | None = None,
    option: int | str | None = None,
    chunk_size: int | None = None,
) -> OddsReport:
    """Play ``state`` out ``playouts`` times with ``bots`` and count (see :class:`OddsReport`).

    ``bots``: one kind for every seat or one per seat (``bot_kinds()``). ``option``: studied
    first in every playout (what-if). ``workers``: local processes (default: every core; 1 runs
    in this process). ``cluster``: a Dask scheduler address (``"tcp://host:8786"``, its form
    checked before anything is contacted, ``DASK_CONNECT_TIMEOUT`` to answer), a
    ``distributed.Client`` or a cluster object; its workers need ``nefertiti_core`` installed.
    A worker lost mid-run costs only time: its chunks are played again on the others (same
    report), ``workers_lost`` counts it; with no worker left the run stops with what it played
    (``stopped`` says why). Local workers are kept for the next run (:data:`POOLS`); one lost
    before or during a run is replaced and the unfinished chunks played again (same report);
    a second loss in the same run is a clear error (the next run gets new ones).
    ``progress(done, total)`` is called in this thread as chunks finish; once ``cancel`` (a
    ``threading.Event``) is set the run stops soon and returns the playouts done so far, marked
    ``cancelled``. ``state`` is never changed.
    """
    if not isinstance(state, GameState):
        raise NefertitiError(f"odds need a GameState, not {type(state).__name__}")
    check_magnitudes(state)  # a number of hundreds of digits would overflow the floats
    if (
        isinstance(playouts, bool)
        or not isinstance(playouts, int)
        or not (1 <= playouts <= MAX_PLAYOUTS)
    ):
        raise NefertitiError(
            f"playouts must be a whole number from 1 to {MAX_PLAYOUTS}, not {playouts!r}"
        )
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise NefertitiError(f"seed must be a whole number, not {seed!r}")
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or workers < 1
    ):
        raise NefertitiError(f"workers must be a whole number of at least 1, not {workers!r}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size < 1):
        raise NefertitiError(f"chunk_size must be at least 1, not {chunk_size!r}")
    if state.is_over:
        raise NefertitiError(Said("odds.refuse.game_over"))
    kinds = _seat_kinds(state, bots)
    studied = _studied_option(state, option)

    report = OddsReport(
        requested=playouts,
        players=state.n,
        colours=tuple(state.colours),
        bots=kinds,
        seed=seed,
        option=None if studied is None else state.option_text(studied),
        wins=[0.0] * state.n,
        scores=[[] for _ in range(state.n)],
    )
    _louqsor_facts(state, studied, report)

    start_time = time.perf_counter()
    payload = pickle.dumps(state.copy(), protocol=pickle.HIGHEST_PROTOCOL)
    args = (seed, kinds, studied)
    if cluster is not None:
        client, owned = _dask_client(cluster)
        try:
            results = _run_dask(
                client, payload, chunk_size, args, playouts, progress, cancel, report
            )
        finally:
            if owned:
                _close_quietly(client)
        report.backend = "dask"
    else:
        workers = workers or os.cpu_count() or 1
        report.workers = workers
        chunks = playout_chunks(playouts, workers, chunk_size)
        if workers == 1 or len(chunks) == 1:
            report.workers = 1
            results = _run_here(payload, chunks, args, playouts, progress, cancel)
        else:
            results = _run_processes(
                payload, chunks, args, playouts, progress, cancel, min(workers, len(chunks))
            )
            report.backend = "processes"
    for result in sorted(results):
        report.add(result)
    report.cancelled = report.playouts < playouts
    report.seconds = time.perf_counter() - start_time
    return report


def _run_here(payload, chunks, args, total, progress, cancel) -> list[Result]:
    results: list[Result] = []
    for a, b in chunks:
        if cancel is not None and cancel.is_set():
            break
        results += _run_chunk(payload, a, b, *args, cancel=cancel)
        if progress is not None:
            progress(len(results), total)
    return results


def _process_context():
    """Worker processes are started from a clean server process (``forkserver``), never forked
    from this one: a served app has threads, and forking a threaded process can hang."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:
        context.set_forkserver_preload([__name__])
    return context


#: Seconds a kept pool of worker processes waits for the next run before it is shut down.
POOL_IDLE_S = 300.0


class _Pools:
    """The worker processes, kept from one run to the next (one pool per number of workers).

    Starting two workers (a fork of the forkserver each, then their bots' first, cold
    evaluations) costs about a tenth of a 120-playout run: a learner comparing options runs odds
    again and again, and a served app's sessions share the pool instead of each run starting
    processes of its own (two runs at once take turns on the cores instead of fighting over
    them). A pool whose worker died is dropped (the next run gets a new one); pools with no run
    for ``POOL_IDLE_S`` seconds are shut down, so an idle kernel keeps no processes."""

    def __init__(self):
        self._lock = threading.Lock()
        self._pools: dict = {}  # workers -> ProcessPoolExecutor
        self._running = 0
        self._timer: threading.Timer | None = None

    def take(self, workers: int):
        from concurrent.futures import ProcessPoolExecutor

        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            pool = self._pools.get(workers)
            if pool is None:
                pool = ProcessPoolExecutor(max_workers=workers, mp_context=_process_context())
                self._pools[workers] = pool
            self._running += 1
            return pool

    def kept(self, workers: int):
        """The pool of ``workers`` worker processes kept for the next run, or None (none started
        yet, dropped when a worker died, or shut down when idle)."""
        with self._lock:
            return self._pools.get(workers)

    def give_back(self, workers: int, pool, broken: bool) -> None:
        with self._lock:
            self._running -= 1
            if broken and self._pools.get(workers) is pool:
                del self._pools[workers]
            if self._running == 0 and self._pools:
                self._timer = threading.Timer(POOL_IDLE_S, self.shutdown)
                self._timer.daemon = True
                self._timer.start()
        if broken:
            pool.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> int:
        """Shut every idle pool down (a run in progress keeps its own); returns how many."""
        with self._lock:
            if self._running:
                return 0
            pools, self._pools = list(self._pools.values()), {}
            self._timer = None
        for pool in pools:
            pool.shutdown(wait=True, cancel_futures=True)
        return len(pools)


POOLS = _Pools()


def _run_processes(payload, chunks, args, total, progress, cancel, workers) -> list[Result]:
    """The chunks played on the kept worker processes. A worker lost before or during the run
    (killed, out of memory) costs the run nothing but time: the chunks not finished are played
    again on new workers (a playout depends only on its index: the report is the same). Lost
    again in the same run, it is a clear error."""
    results: list[Result] = []
    todo = list(chunks)
    for last in (False, True):
        try:
            _run_on_pool(payload, todo, args, total, progress, cancel, workers, results)
            return results
        except _WorkerLost as lost:
            if last:
                raise NefertitiError(
                    Said("odds.refuse.worker_died", cause=str(lost.__cause__))
                ) from None
            todo = lost.unfinished
    raise AssertionError("unreachable")  # pragma: no cover


class _WorkerLost(Exception):
    """The pool broke: a worker process died. ``unfinished``: the chunks with no result yet."""

    def __init__(self, unfinished: list):
        super().__init__(f"{len(unfinished)} chunks unfinished")
        self.unfinished = unfinished


def _run_on_pool(payload, chunks, args, total, progress, cancel, workers, results) -> None:
    """Play ``chunks`` on the kept pool of ``workers`` processes, adding to ``results``; raises
    :class:`_WorkerLost` (the pool dropped) when a worker dies."""
    from concurrent.futures import FIRST_COMPLETED, wait

    pool = POOLS.take(workers)
    broken = False
    pending: dict = {}  # future -> its chunk
    todo = list(chunks)
    try:
        while True:
            # A few chunks in the pool at a time, not all: runs sharing the pool (two learners'
            # Odds on one server) take turns chunk by chunk instead of the second waiting for
            # the whole of the first; a cancel leaves little behind.
            while len(pending) <= workers and todo:
                # taken off the list only once submitted: a broken pool refuses the submit
                pending[pool.submit(_run_chunk, payload, *todo[0], *args)] = todo[0]
                todo.pop(0)
            if not pending:
                break
            done, _ = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
            for future in done:
                chunk = pending.pop(future)
                try:
                    results += future.result()
                except BrokenProcessPool:
                    pending[future] = chunk  # not played: again on new workers
                    raise
            if done and progress is not None:
                progress(len(results), total)
            if cancel is not None and cancel.is_set():
                break
    except BrokenProcessPool as error:
        broken = True
        raise _WorkerLost([*pending.values(), *todo]) from error
    finally:
        for future in pending:  # cancelled, or left by an error: this run's chunks only
            future.cancel()
        POOLS.give_back(workers, pool, broken)


# --- on a Dask cluster ------------------------------------------------------------------------------
DASK_SCHEMES = ("tcp", "tls", "ws", "wss")
DASK_DEFAULT_PORT = 8786
DASK_CONNECT_TIMEOUT = 5.0  # seconds: a scheduler on a live address answers in milliseconds
DASK_NO_WORKERS_GRACE = 10.0  # seconds without any worker before a run stops (a nanny restarts
# a killed worker in a few seconds)
DASK_RESUBMITS = 3  # times one chunk is sent again after the workers running it were lost
DASK_POLL = 0.05  # seconds between two looks at the chunks
DASK_WORKERS_POLL = 0.5  # seconds between two questions to the scheduler about its workers


def _listed(items) -> Worded:
    """``items`` listed as each language lists them ("a, b"; Chinese "a、b")."""
    from ..engine.i18n import LANGUAGES, tr

    return Worded({lang: tr(lang, "status.list.sep").join(map(str, items)) for lang in LANGUAGES})


def check_scheduler_address(address) -> str:
    """``address`` as Dask will be given it, or a :class:`NefertitiError` saying what is wrong
    with its form (nothing is contacted): ``[tcp|tls|ws|wss]://HOST[:PORT]``, or ``HOST:PORT``
    for tcp; an IPv6 host in brackets."""
    from urllib.parse import urlsplit

    form = Said("odds.cluster.form")
    if not isinstance(address, str):
        raise NefertitiError(f"a Dask scheduler address is text, not {address!r}")
    text = address.strip()
    shown = repr(text if len(text) <= 60 else text[:57] + "...")
    if not text or any(c.isspace() or not c.isprintable() for c in text):
        raise NefertitiError(Said("odds.cluster.not_address", shown=shown, form=form))
    scheme = text.split("://", 1)[0].lower() if "://" in text else None
    if scheme is not None and scheme not in DASK_SCHEMES:
        raise NefertitiError(
            Said(
                "odds.cluster.protocol",
                shown=shown,
                scheme=repr(scheme),
                schemes=_listed(DASK_SCHEMES),
                form=form,
            )
        )
    try:
        parts = urlsplit(text if scheme else f"tcp://{text}")
        host, port = parts.hostname, parts.port
    except ValueError as error:  # "Invalid IPv6 URL", "Port out of range 0-65535", ...
        raise NefertitiError(
            Said("odds.cluster.not_address_why", shown=shown, why=str(error), form=form)
        ) from None
    if not host or parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise NefertitiError(Said("odds.cluster.not_address", shown=shown, form=form))
    if port == 0 or (port is None and scheme is None):
        raise NefertitiError(Said("odds.cluster.no_port", shown=shown, form=form))
    host = f"[{host}]" if ":" in host else host
    return f"{scheme or 'tcp'}://{host}:{port or DASK_DEFAULT_PORT}"


def _dask_client(cluster):
    """(client, whether we opened it) for an address, a Client or a cluster object."""
    if isinstance(cluster, str):
        cluster = check_scheduler_address(cluster)  # before anything is imported or contacted
    try:
        import distributed
    except ImportError:
        raise NefertitiError(Said("odds.cluster.no_distributed")) from None
    if isinstance(cluster, distributed.Client):
        return cluster, False
    if isinstance(cluster, str) or hasattr(cluster, "scheduler_address"):
        where = cluster if isinstance(cluster, str) else cluster.scheduler_address
        if isinstance(cluster, str) and cluster.startswith(("tls:", "wss:")):
            # Without certificates Dask's client fails, then hangs 10 s closing itself.
            from distributed.security import Security

            if Security().get_connection_args("client").get("ssl_context") is None:
                raise NefertitiError(Said("odds.cluster.no_certificates", where=where))
        try:
            client = distributed.Client(
                cluster, timeout=f"{DASK_CONNECT_TIMEOUT}s", set_as_default=False
            )
        except Exception as error:  # OSError, TimeoutError, TLS set-up errors, ...
            reason = " ".join(str(error).split()) or type(error).__name__
            if len(reason) > 120:
                reason = reason[:117] + "..."
            raise NefertitiError(
                Said("odds.cluster.unreachable", where=where, reason=reason)
            ) from None
        return client, True
    raise NefertitiError(
        f"cluster must be a scheduler address like 'tcp://host:8786', a distributed.Client "
        f"or a cluster, not {cluster!r}"
    )


def _close_quietly(client) -> None:
    try:
        client.close(timeout=DASK_CONNECT_TIMEOUT)
    except Exception:  # the scheduler is gone already: nothing left to close
        pass


def _dask_workers(client) -> set[str] | None:
    """The addresses of the scheduler's workers now (None: the scheduler does not answer)."""
    try:
        return set(client.nthreads())
    except Exception:
        return None


def _is_lost(error: BaseException) -> bool:
    """Whether a chunk failed because its worker (or the link to it) went away, not by itself."""
    from concurrent.futures import CancelledError

    import distributed

    return isinstance(error, (CancelledError, distributed.KilledWorker, OSError, TimeoutError))


def _run_dask(client, payload, chunk_size, args, total, progress, cancel, report) -> list[Result]:
    """The chunks as Dask tasks. A chunk lost with its worker (the scheduler reschedules it by
    itself; a chunk it gives up on, ``KilledWorker``, or one cancelled under us is sent again,
    ``DASK_RESUBMITS`` times at most) is played again elsewhere: playout ``i`` depends only on
    ``(seed, i)``, so the report is the same. Workers that left are counted in
    ``report.workers_lost``; with none left for ``DASK_NO_WORKERS_GRACE`` seconds the run stops
    (``report.stopped``) with the playouts done so far."""
    start = time.monotonic()
    workers = _dask_workers(client)
    while not workers:  # a scheduler just started may not have its workers yet
        if workers is None:
            raise NefertitiError(Said("odds.cluster.silent", where=client.scheduler.address))
        if time.monotonic() - start > DASK_NO_WORKERS_GRACE:
            raise NefertitiError(
                Said(
                    "odds.cluster.no_workers",
                    where=client.scheduler.address,
                    seconds=f"{DASK_NO_WORKERS_GRACE:.0f}",
                )
            )
        if cancel is not None and cancel.is_set():
            return []
        time.sleep(DASK_WORKERS_POLL)
        workers = _dask_workers(client)
    report.workers = len(workers)
    seen = set(workers)
    chunks = playout_chunks(total, len(workers), chunk_size)

    def submit(chunk):
        # The state goes with each task (5 KB) rather than scattered once: scattered data dies
        # with the workers that hold it, and tasks that need it would be lost with it.
        return client.submit(_run_chunk, payload, *chunk, *args, pure=False, retries=1)

    pending = {submit(chunk): (chunk, 0) for chunk in chunks}
    results: list[Result] = []
    none_since = None
    asked = time.monotonic()
    try:
        while pending:
            if cancel is not None and cancel.is_set():
                break
            finished = [future for future in pending if future.done()]
            for future in finished:
                chunk, resent = pending.pop(future)
                try:
                    results += future.result(timeout=DASK_CONNECT_TIMEOUT)
                except Exception as error:
                    if not _is_lost(error):
                        raise  # the chunk itself failed (a bot's error): as in a local run
                    if resent >= DASK_RESUBMITS:
                        report.stopped = Said(
                            "odds.stopped.chunk_lost",
                            first=chunk[0],
                            last=chunk[1] - 1,
                            times=resent + 1,
                        )
                        return results
                    if client.status not in ("running", "connecting"):
                        report.stopped = Said("odds.stopped.connection")
                        return results
                    pending[submit(chunk)] = (chunk, resent + 1)
            if finished and progress is not None:
                progress(len(results), total)
            now = time.monotonic()
            if now - asked >= DASK_WORKERS_POLL:
                asked = now
                current = _dask_workers(client)
                if current is None:
                    report.stopped = Said("odds.stopped.silent")
                    return results
                seen |= current
                report.workers_lost = len(seen - current)
                if current:
                    none_since = None
                elif none_since is None:
                    none_since = now
                elif now - none_since >= DASK_NO_WORKERS_GRACE:
                    report.stopped = Said("odds.stopped.all_lost", count=len(seen))
                    return results
            time.sleep(DASK_POLL)
        # a worker lost near the end of a run (its chunk played again elsewhere) may have left
        # after the last poll: ask once more, so the report counts it
        current = _dask_workers(client)
        if current is not None:
            report.workers_lost = len(seen - current)
    finally:
        if pending:
            try:
                client.cancel(list(pending))
            except Exception:  # the scheduler is gone: nothing left to cancel
                pass
    return results
