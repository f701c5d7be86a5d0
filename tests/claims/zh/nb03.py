"""The numbers of tutorials/zh/03-gift-cards.ipynb, checked against the engine with the English
notebook's check (tests/claims/nb03.py)."""

from __future__ import annotations

from claims import Claim
from claims.nb03 import CLAIMS as ENGLISH

_SEVEN_ON_ABOU_SIMBEL = ENGLISH[0].check  # "click the 7 on Abou Simbel"

CLAIMS = [
    Claim("点击 Abou Simbel 上的 7", _SEVEN_ON_ABOU_SIMBEL),
]
