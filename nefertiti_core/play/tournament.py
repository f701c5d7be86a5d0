"""Tournaments: bots of several kinds play complete games, seats rotated, and their win rates.

    >>> report = tournament(["greedy", "random", "random", "random"], games=400, seed=1)
    >>> report.as_dict()["bots"][0]      # {"bot": "greedy", "games": 400, "wins": ..., ...}

Game ``i`` is set up with seed ``seed + i`` (R2) and the bot list is rotated by ``i`` seats: seat
``s`` is played by ``bots[(s - i) % players]``. Over a number of games that is a multiple of the
players, every entry of the list sits in every seat equally often (so no kind profits from
moving first, R2.6-R2.7). Each game depends only on its index, so the results are the same
whatever the number of worker processes.

Wins are counted per seat and game, **fractionally**: a win shared by k players (R9.2: tied on
points and on Deben) counts 1/k for each of them, so the win rates of a game's seats add up to 1
and par for a bot is 1/players. A kind entered several times is counted once per seat it plays.
The 95% interval is Wilson's score interval over those seat-games; when one kind fills several
seats of the same game those seat-games are not independent, so read its interval as a rough one.
"""

from __future__ import annotations

import inspect
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from ..engine.errors import NefertitiError
from ..engine.scoring import totals, winners
from ..engine.state import new_game
from .bots import make_bot
from .stats import wilson_interval


def seat_kinds(bots: list[str] | tuple[str, ...], game: int) -> tuple[str, ...]:
    """The bot kind in each seat of game ``game`` (the list rotated by ``game`` seats)."""
    n = len(bots)
    return tuple(bots[(seat - game) % n] for seat in range(n))


def _accepts(kind: str, name: str) -> bool:
    """Whether ``make_bot(kind, ...)`` takes the option ``name``."""
    from .bots import FACTORIES

    factory = FACTORIES[kind]
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin factory
        return False
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def bot_options_for(kind: str, options: dict) -> dict:
    """The options of ``options`` that bots of ``kind`` take (time limit, iterations, ...)."""
    from .bots import FACTORIES

    if kind not in FACTORIES:
        make_bot(kind)  # imports (registers) a lazily loaded kind; raises for an unknown one
    return {k: v for k, v in options.items() if v is not None and _accepts(kind, k)}


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int
    kinds: tuple[str, ...]  # per seat
    scores: tuple[int, ...]  # final totals per seat (R9.1)
    winners: tuple[int, ...]  # R9.2
    decisions: int
    seconds: float


def play_game(
    bots: tuple[str, ...], index: int, seed: int, options: dict | None = None, **game_options
) -> GameResult:
    """Play game ``index`` of a tournament (seed ``seed + index``, seats rotated)."""
    kinds = seat_kinds(bots, index)
    options = options or {}
    game_seed = seed + index
    start = time.perf_counter()
    state = new_game(len(bots), game_seed, **game_options)
    players = [
        make_bot(kind, seed=game_seed * 8 + s, **options.get(kind, {}))
        for s, kind in enumerate(kinds)
    ]
    while not state.is_over:
        state.apply_unchecked(players[state.decider].choose(state))
    return GameResult(
        index,
        game_seed,
        kinds,
        tuple(totals(state)),
        winners(state),
        state.decisions,
        time.perf_counter() - start,
    )


def _play_chunk(args) -> list[GameResult]:
    bots, indices, seed, options, game_options = args
    return [play_game(bots, i, seed, options, **game_options) for i in indices]


@dataclass
class KindStats:
    bot: str
    games: int = 0  # seat-games played by this kind
    wins: float = 0.0  # fractional: a shared win counts 1/k (see module docstring)
    score_sum: int = 0
    by_seat: list[int] = field(default_factory=list)  # seat-games per seat

    def as_dict(self) -> dict:
        low, high = wilson_interval(self.wins, self.games)
        return {
            "bot": self.bot,
            "games": self.games,
            "wins": round(self.wins, 4),
            "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
            "ci95": [round(low, 4), round(high, 4)],
            "mean_score": round(self.score_sum / self.games, 3) if self.games else 0.0,
            "games_by_seat": list(self.by_seat),
        }


@dataclass
class TournamentReport:
    bots: tuple[str, ...]
    games: int
    seed: int
    workers: int
    options: dict
    results: list[GameResult]
    seconds: float

    def kind_stats(self) -> list[KindStats]:
        n = len(self.bots)
        stats = {kind: KindStats(kind, by_seat=[0] * n) for kind in dict.fromkeys(self.bots)}
        for result in self.results:
            share = 1 / len(result.winners)
            for seat, kind in enumerate(result.kinds):
                entry = stats[kind]
                entry.games += 1
                entry.by_seat[seat] += 1
                entry.score_sum += result.scores[seat]
                if seat in result.winners:
                    entry.wins += share
        return list(stats.values())

    def as_dict(self) -> dict:
        n = len(self.bots)
        seat_wins = [0.0] * n
        for result in self.results:
            for seat in result.winners:
                seat_wins[seat] += 1 / len(result.winners)
        games = max(self.games, 1)
        return {
            "players": n,
            "games": self.games,
            "seed": self.seed,
            "workers": self.workers,
            "lineup": list(self.bots),
            "wins_counted": "fractional: a win shared by k players counts 1/k for each (R9.2)",
            "par": round(1 / n, 4),
            "bots": [s.as_dict() for s in self.kind_stats()],
            "win_share_by_seat": [round(w / games, 4) for w in seat_wins],
            "bot_options": self.options,
            "mean_decisions_per_game": round(sum(r.decisions for r in self.results) / games, 2),
            "mean_seconds_per_game": round(sum(r.seconds for r in self.results) / games, 4),
            "seconds": round(self.seconds, 3),
        }

    def table(self) -> str:
        """A readable table: one line per bot kind."""
        d = self.as_dict()
        lines = [
            f"{d['games']} games, {d['players']} players, seats rotated, seed {d['seed']}, "
            f"{d['workers']} worker(s), {d['seconds']:.1f} s; par {d['par']:.1%}; "
            "a shared win counts 1/k",
            f"{'bot':<10} {'seat-games':>10} {'wins':>9} {'win rate':>9}  {'95% CI':<17} "
            f"{'mean score':>10}",
        ]
        for b in d["bots"]:
            low, high = b["ci95"]
            lines.append(
                f"{b['bot']:<10} {b['games']:>10} {b['wins']:>9.2f} {b['win_rate']:>9.1%}  "
                f"{f'[{low:.1%}, {high:.1%}]':<17} {b['mean_score']:>10.1f}"
            )
        return "\n".join(lines)


def tournament(
    bots: list[str] | tuple[str, ...],
    games: int,
    seed: int = 0,
    workers: int | None = None,
    bot_options: dict | None = None,
    **game_options,
) -> TournamentReport:
    """Play ``games`` seat-rotated games between ``bots`` (one kind per seat, 3 or 4 of them).

    ``workers``: processes to spread the games over (default: the machine's cores; 1 plays in
    this process). ``bot_options``: options such as ``time_limit`` or ``iterations``, passed to
    the kinds that take them. ``game_options``: ``new_game`` options (layout, characters, ...).
    """
    bots = tuple(bots)
    if len(bots) not in (3, 4):
        raise NefertitiError(f"a game needs 3 or 4 bots (R1.1), not {len(bots)}")
    if games < 1:
        raise NefertitiError(f"games must be at least 1, not {games}")
    options = {kind: bot_options_for(kind, bot_options or {}) for kind in dict.fromkeys(bots)}
    workers = max(1, workers or os.cpu_count() or 1)
    workers = min(workers, games)
    start = time.perf_counter()
    if workers == 1:
        results = [play_game(bots, i, seed, options, **game_options) for i in range(games)]
    else:
        # Small interleaved chunks keep the processes equally busy; the results are put back in
        # game order, so they do not depend on the number of workers.
        size = max(1, min(10, games // (workers * 4)))
        chunks = [list(range(i, min(i + size, games))) for i in range(0, games, size)]
        args = [(bots, chunk, seed, options, game_options) for chunk in chunks]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = [r for part in pool.map(_play_chunk, args) for r in part]
    results.sort(key=lambda r: r.index)
    return TournamentReport(
        bots,
        games,
        seed,
        workers,
        {k: v for k, v in options.items() if v},
        results,
        time.perf_counter() - start,
    )
