"""Random self-play: complete games with uniformly random legal choices, and their statistics."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from ..engine.invariants import violations
from ..engine.scoring import winners
from ..engine.state import GameState, new_game


@dataclass
class SimulationReport:
    games: int
    players: int
    seed: int
    check: bool
    decisions: int = 0
    seconds: float = 0.0
    invariant_violations: int = 0
    first_violations: list[str] = field(default_factory=list)
    score_sums: list[int] = field(default_factory=list)
    wins_by_seat: list[float] = field(default_factory=list)

    def as_dict(self) -> dict:
        games = max(self.games, 1)
        return {
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "invariant_checks": self.check,
            "decisions": self.decisions,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds else None,
            "microseconds_per_decision": (
                round(self.seconds * 1e6 / self.decisions, 3) if self.decisions else None
            ),
            "invariant_violations": self.invariant_violations,
            "first_violations": self.first_violations,
            "mean_score_by_seat": [round(s / games, 3) for s in self.score_sums],
            "win_share_by_seat": [round(w / games, 4) for w in self.wins_by_seat],
            "mean_decisions_per_game": round(self.decisions / games, 2),
        }


def play_random(state: GameState, rng: random.Random, check: bool = False) -> list[str]:
    """Play ``state`` to its end with uniformly random legal options.

    With ``check``, R12 is checked after every step; returns the first violations found.
    """
    rnd = rng.random
    if not check:
        legal = state.legal
        while legal:
            state.apply_unchecked(legal[int(rnd() * len(legal))])
            legal = state.legal
        return []
    found = violations(state)
    while state.legal and not found:
        legal = state.legal
        state.apply_unchecked(legal[int(rnd() * len(legal))])
        found = violations(state)
    return found


def simulate(
    games: int, players: int = 4, seed: int = 0, check: bool = True, **options
) -> SimulationReport:
    """Play ``games`` random games, game ``i`` set up with seed ``seed + i``."""
    report = SimulationReport(games, players, seed, check)
    report.score_sums = [0] * players
    report.wins_by_seat = [0.0] * players
    start = time.perf_counter()
    for i in range(games):
        state = new_game(players, seed + i, **options)
        found = play_random(state, random.Random(f"choices-{seed + i}"), check)
        report.decisions += state.decisions
        if found:
            report.invariant_violations += 1
            if len(report.first_violations) < 5:
                report.first_violations.append(f"game seed {seed + i}: {found[0]}")
            continue
        for p, breakdown in enumerate(state.final):
            report.score_sums[p] += breakdown.total
        won = winners(state)
        for p in won:
            report.wins_by_seat[p] += 1 / len(won)
    report.seconds = time.perf_counter() - start
    return report
