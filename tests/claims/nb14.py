"""Claims of tutorials/14-what-if-explorer.ipynb, checked against the engine."""

from __future__ import annotations

import math
from fractions import Fraction

from claims import Claim
from claims import _facts as F
from claims.engine import is_open, position
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.variants import compare_rules
from nefertiti_core.files.exercises import scenario_path
from nefertiti_core.files.scenario import load
from nefertiti_core.play.odds import Z95
from nefertiti_core.teaching.status import stall_status

SUMS = "abou-simbel-left-sums"
SEVEN, EIGHT = "place abou_simbel.left#5", "place abou_simbel.left#6"
DICE = "louqsor-what-if"
ON_THE_THREE = "place louqsor.left#2"


def _abou_total(*steps: str) -> int:
    state = position(SUMS, *steps)
    stall = R.STALLS[R.ABOU_SIMBEL * 2 + R.LEFT]
    return sum(sq.value for sq in stall.squares if state.mask[R.ABOU_SIMBEL] >> sq.index & 1)


def _square_value(step: str) -> int:
    state = position(DICE)
    option = state.parse(step)
    stall = R.STALLS[R.LOUQSOR * 2 + state.side[R.LOUQSOR]]
    return stall.squares[int(step.rsplit("#", 1)[1])].value if option is not None else -1


def _occupied_after_the_three() -> set[int]:
    state = position(DICE)
    stall = R.STALLS[R.LOUQSOR * 2 + state.side[R.LOUQSOR]]
    index = int(ON_THE_THREE.rsplit("#", 1)[1])
    mask = state.mask[R.LOUQSOR] | 1 << index
    return {sq.value for sq in stall.squares if mask >> sq.index & 1}


def _chance_on_the_three() -> Fraction:
    state = position(DICE)
    return stall_status(state, "louqsor").chance(int(ON_THE_THREE.rsplit("#", 1)[1]))


def _merchant_difference() -> int:
    merchant = load(scenario_path("merchant"))
    both = compare_rules(
        merchant.state,
        {},
        {"variants": ["merchant_pays_reserve"]},
        steps=merchant.moves,
        to_end=False,
    )
    green = merchant.state.colours.index("green")
    return both.a.deben[green] - both.b.deben[green]


def _standard_error_points(rolls: int) -> float:
    p = float(_chance_on_the_three())
    return round(100 * math.sqrt(p * (1 - p) / rolls), 1)


CLAIMS = [
    Claim("where the bids add up to 7", lambda: _abou_total() == 7),
    Claim(
        "Red's 7 would make\nexactly 14 and close the market",
        lambda: _abou_total(SEVEN) == 14 and not is_open(SUMS, "abou_simbel", SEVEN),
    ),
    Claim(
        "the 8 would make 15, which closes nothing",
        lambda: _abou_total(EIGHT) == 15 and is_open(SUMS, "abou_simbel", EIGHT),
    ),
    Claim("closes the market with her 7", lambda: not is_open(SUMS, "abou_simbel", SEVEN)),
    Claim("where Red plays\nthe 8 instead", lambda: _abou_total(EIGHT) - _abou_total() == 8),
    Claim("put a servant on the 3 of the\nleft stall", lambda: _square_value(ON_THE_THREE) == 3),
    Claim("the values 2, 3 and 7 are occupied", lambda: _occupied_after_the_three() == {2, 3, 7}),
    Claim("4/36", lambda: _chance_on_the_three() == Fraction(4, 36)),
    Claim(
        "fixed at 3 and 2 before Green places, which closes the\nstall",
        lambda: not is_open(DICE, "louqsor", "roll 3 2", ON_THE_THREE),
    ),
    Claim(
        "at 5 and 6, which does not",
        lambda: is_open(DICE, "louqsor", "roll 5 6", ON_THE_THREE),
    ),
    Claim("place on the 3 with", lambda: _square_value(ON_THE_THREE) == 3),
    Claim("differ by the 2 that Red owed her", lambda: _merchant_difference() == 2),
    Claim(
        "with 400 rolls one standard\nerror is about 1.6 percentage points",
        lambda: _standard_error_points(400) == 1.6,
    ),
    Claim("with 95% intervals", lambda: round(Z95, 2) == 1.96),
]


# ---------------------------------------------------------------- numbers written as words
def _compared_in_pairs() -> bool:
    """Every comparison of branches in the notebook puts two branches side by side."""
    found = F.calls("14", "branch_comparison")
    return len(found) == 3 and all(len(call.args) == 3 for call in found)


def _three_branches_on_the_board() -> bool:
    """``lab`` gets two branches besides ``main``: three in all."""
    code = F.notebook_code("14")
    return code.count("lab.session.new_branch(") == 2


def _two_on_the_dice_board() -> bool:
    return F.notebook_code("14").count("dice.session.new_branch(") == 1


def _two_rule_sets() -> bool:
    (call,) = [c for c in F.calls("14", "compare_rules")]
    return len(call.args) == 3 and _merchant_difference() == 2


def _two_dice() -> bool:
    return R.DICE_OF_RULE[R.stall_of(R.LOUQSOR, R.LEFT).rule] == 2


def _a_gap_of_three_is_luck() -> bool:
    """Within the 95% interval: 3 points is less than 1.96 standard errors at 400 rolls."""
    return 3 < Z95 * _standard_error_points(400)


CLAIMS += [
    Claim("play two different moves from the same position", _compared_in_pairs),
    Claim("replay one position under different rules", _two_rule_sets),
    Claim("## Two moves from one position", _compared_in_pairs),
    Claim("Yet the two games are far apart", _compared_in_pairs),
    Claim("with its three branches", _three_branches_on_the_board),
    Claim("of two branches, set here to", _compared_in_pairs),
    Claim("that the two dice then close the stall", _two_dice),
    Claim("Two branches: on `main`", _two_on_the_dice_board),
    Claim("## One position, two rule sets", _two_rule_sets),
    Claim("takes one position, plays the same steps under two rule sets", _two_rule_sets),
    Claim("Playing one position out many times", lambda: len(F.calls("14", "OddsView")) == 1),
    Claim("Two things keep this honest:", lambda: F.items_after("14", "keep this honest:") == 2),
    Claim("among the bottom five", F.bottom_five),
    Claim("a gap of two or three points is ordinary luck", _a_gap_of_three_is_luck),
]
