"""Claims of tutorials/de/02-closing-a-market.ipynb: the English notebook's checks
(``claims.nb02``), each quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import nb02, translated

CLAIMS = translated(
    nb02,
    {
        "add up to 6": "ergeben zusammen 6",
        "closes at exactly 11, exactly 14, or 17 and more": "bei genau 11, genau 14 oder 17 und mehr",
        "takes two lower cards": "nimmt zwei untere Karten",
    },
)
