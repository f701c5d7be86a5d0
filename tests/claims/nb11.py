"""Claims of tutorials/11-final-scoring.ipynb, checked against the engine (R8, R9.1)."""

from __future__ import annotations

from claims import Claim
from claims.engine import position
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.scoring import DEBEN_PER_POINT, POINTS_PER_SEAL, score_breakdown


def _double_senet() -> bool:
    return R.KIND_WEIGHT[R.KIND_TYPE.index(R.SENET) + 1] == 2 and R.KIND_TYPE[1] == R.SENET


def _deben_points() -> bool:
    """1 point per 2 Deben, an odd one worth nothing: Red ends the last market with 10 Deben (5)
    and Green's 9 at the start are worth 4."""
    assert DEBEN_PER_POINT == 2
    state = position("last-market")
    green = score_breakdown(state, state.colours.index("green"))
    return green.deben == 9 and green.deben_points == 4


def _seal_points() -> bool:
    state = position("last-market")
    green = score_breakdown(state, state.colours.index("green"))
    return POINTS_PER_SEAL == 3 and green.seals == 1 and green.seal_points == 3


CLAIMS = [
    Claim("counts as 2 senets", _double_senet),
    Claim("1 point for every 2 Deben", _deben_points),
    Claim("3 points for each Royal Seal", _seal_points),
    Claim("1 point per 2 Deben (rounded down)", _deben_points),
    Claim("3 per unspent seal", _seal_points),
]


# ---------------------------------------------------------------- numbers written as words
def _four_parts() -> bool:
    """The total is gifts + Deben points + seal points + prestige, nothing else (R9.1)."""
    state = position("last-market")
    for s in range(state.n):
        b = score_breakdown(state, s)
        assert b.total == b.gift_points + b.deben_points + b.seal_points + b.prestige, b
    return True


CLAIMS += [Claim("total has four parts", _four_parts)]
