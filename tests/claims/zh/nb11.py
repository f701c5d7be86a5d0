"""Claims of tutorials/zh/11-final-scoring.ipynb, checked against the engine (R8, R9.1); the
checks are the English notebook's (tests/claims/nb11.py)."""

from __future__ import annotations

from claims import Claim
from claims.nb11 import _deben_points, _double_senet, _seal_points

CLAIMS = [
    Claim("算作 2 张 senet", _double_senet),
    Claim("每 2 Deben 得 1 分", _deben_points),
    Claim("每个从未花掉的皇家印章得 3 分", _seal_points),
    Claim("每个未花掉的印章 3 分", _seal_points),
]
