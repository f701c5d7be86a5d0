"""Scoring (R8, R9): what each player's gifts, Deben and seals are worth, and who wins."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import rules as R
from .errors import require_int, require_state

if TYPE_CHECKING:
    from .state import GameState


@dataclass(frozen=True)
class GiftLine:
    gift_type: str
    count: int  # gifts of the type, a double senet counting 2
    holders: int  # players holding the type
    value: int  # prestige per gift for that many holders (R8)
    points: int


@dataclass(frozen=True)
class ScoreBreakdown:
    """One player's score as R9.1 adds it up."""

    seat: int
    colour: str
    prestige: int  # scored during the game (Vizier, Royal Servant, Scribe)
    gifts: tuple[GiftLine, ...]
    deben: int
    deben_points: int  # 1 per 2 Deben, rounded down
    seals: int
    seal_points: int  # 3 per unused seal
    total: int

    @property
    def gift_points(self) -> int:
        return sum(line.points for line in self.gifts)


DEBEN_PER_POINT = 2
POINTS_PER_SEAL = 3


def score_breakdown(state: GameState, seat: int) -> ScoreBreakdown:
    """The score ``seat`` would have if the game ended now (the final score once it has)."""
    require_int(seat, "a seat", 0, require_state(state).n - 1)
    lines = []
    for t, name in enumerate(R.GIFT_TYPES):
        count = state.type_count(seat, t)
        if not count:
            continue
        holders = state.holders(t)
        value = state.gift_value(t, holders)
        lines.append(GiftLine(name, count, holders, value, count * value))
    deben = state.deben[seat]
    seals = state.seals[seat]
    prestige = state.prestige[seat]
    total = (
        prestige
        + sum(line.points for line in lines)
        + deben // DEBEN_PER_POINT
        + seals * POINTS_PER_SEAL
    )
    return ScoreBreakdown(
        seat,
        state.colours[seat],
        prestige,
        tuple(lines),
        deben,
        deben // DEBEN_PER_POINT,
        seals,
        seals * POINTS_PER_SEAL,
        total,
    )


def final_scores(state: GameState) -> tuple[ScoreBreakdown, ...]:
    require_state(state)
    return tuple(score_breakdown(state, p) for p in range(state.n))


def totals(state: GameState) -> list[int]:
    """Each player's score as if the game ended now (fast: no breakdown objects)."""
    holders = [state.holders(t) for t in range(len(R.GIFT_TYPES))]
    out = []
    for p in range(state.n):
        total = state.prestige[p] + state.deben[p] // DEBEN_PER_POINT
        total += state.seals[p] * POINTS_PER_SEAL
        for t in range(len(R.GIFT_TYPES)):
            if holders[t]:
                total += state.type_count(p, t) * state.values[t][holders[t] - 1]
        out.append(total)
    return out


def winners(state: GameState) -> tuple[int, ...]:
    """R9.2: most points; a tie goes to the most Deben; still tied, the win is shared."""
    require_state(state)
    scores = totals(state)
    best = max(scores)
    tied = [p for p in range(state.n) if scores[p] == best]
    most = max(state.deben[p] for p in tied)
    return tuple(p for p in tied if state.deben[p] == most)
