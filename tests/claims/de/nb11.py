"""Claims of tutorials/de/11-final-scoring.ipynb: the English notebook's checks (``claims.nb11``),
each quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import nb11, translated

CLAIMS = translated(
    nb11,
    {
        "total has four parts": "aus vier Teilen",
        "counts as 2 senets": "zählt als 2 Senets",
        "1 point for every 2 Deben": "1 Punkt für je 2 Deben",
        "3 per unspent seal": (
            "3 Punkte für jedes königliche Siegel",
            "3 je unbenutztes Siegel",
        ),
        "1 point per 2 Deben (rounded down)": "1 Punkt je 2 Deben (abgerundet)",
    },
)
