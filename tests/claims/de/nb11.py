"""Claims of tutorials/de/11-final-scoring.ipynb: the English notebook's checks (R8, R9.1), each
quoted with the German phrase that states the same number, and the four parts of a total, which
the German prose writes as a word."""

from __future__ import annotations

from claims import Claim
from claims.engine import position
from claims.nb11 import _deben_points, _double_senet, _seal_points
from nefertiti_core.engine.scoring import score_breakdown


def _four_parts() -> bool:
    """Every player's total at the end of the tie-break game is gifts + Deben points + seal
    points + prestige, and nothing else."""
    state = position("tie-break", "place akhet_aton.right#8")
    assert state.is_over
    for seat in range(state.n):
        s = score_breakdown(state, seat)
        assert s.total == s.gift_points + s.deben_points + s.seal_points + s.prestige, s
    return True


CLAIMS = [
    Claim("aus vier Teilen", _four_parts),
    Claim("zählt als 2 Senets", _double_senet),
    Claim("1 Punkt für je 2 Deben", _deben_points),
    Claim("3 Punkte für jedes königliche Siegel", _seal_points),
    Claim("1 Punkt je 2 Deben (abgerundet)", _deben_points),
    Claim("3 je unbenutztes Siegel", _seal_points),
]
