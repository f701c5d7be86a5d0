"""Claims of tutorials/de/11-final-scoring.ipynb: the English notebook's checks (``claims.nb11``),
each quoted with the German phrase that states the same number, and the checks of its own
(``extra``)."""

from __future__ import annotations

from claims import Claim, nb11, translated
from claims.engine import position
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


CLAIMS = translated(
    nb11,
    {
        "counts as 2 senets": "zählt als 2 Senets",
        "1 point for every 2 Deben": "1 Punkt für je 2 Deben",
        "3 per unspent seal": (
            "3 Punkte für jedes königliche Siegel",
            "3 je unbenutztes Siegel",
        ),
        "1 point per 2 Deben (rounded down)": "1 Punkt je 2 Deben (abgerundet)",
    },
    extra=[
        Claim("aus vier Teilen", _four_parts),
    ],
)
