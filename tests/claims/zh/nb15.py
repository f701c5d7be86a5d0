"""Claims of tutorials/zh/15-teaching-a-group.ipynb: the English notebook's checks
(``claims.nb15``), each quoted with the Chinese phrase that states the same number."""

from __future__ import annotations

from claims import nb15, translated

CLAIMS = translated(
    nb15,
    {
        "reserves of 1": "储备各 1 Deben",
        "for three players without characters": "3 名玩家，不用角色",
        "use all seven characters": "全部 7 种角色",
    },
)
