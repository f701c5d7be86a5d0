"""Claims of tutorials/zh/03-gift-cards.ipynb: the English notebook's checks (``claims.nb03``),
each quoted with the Chinese phrase that states the same number."""

from __future__ import annotations

from claims import nb03, translated

CLAIMS = translated(
    nb03,
    {
        "click the 7 on Abou Simbel": "点击 Abou Simbel 上的 7",
    },
)
