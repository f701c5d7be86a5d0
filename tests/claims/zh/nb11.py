"""Claims of tutorials/zh/11-final-scoring.ipynb: the English notebook's checks (``claims.nb11``),
each quoted with the Chinese phrase that states the same number."""

from __future__ import annotations

from claims import nb11, translated

CLAIMS = translated(
    nb11,
    {
        "counts as 2 senets": "算作 2 张 senet",
        "1 point for every 2 Deben": "每 2 Deben 得 1 分",
        "3 per unspent seal": (
            "每个从未花掉的皇家印章得 3 分",
            "每个未花掉的印章 3 分",
        ),
    },
)
