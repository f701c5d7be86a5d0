"""Claims of tutorials/de/03-gift-cards.ipynb: the English notebook's checks (``claims.nb03``),
each quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import nb03, translated

CLAIMS = translated(
    nb03,
    {
        "click the 7 on Abou Simbel": "die 7 auf Abu Simbel",
    },
)
