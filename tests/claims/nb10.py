"""Claims of tutorials/10-closing-louqsor.ipynb, checked against the engine (R3.7, R3.8, R4)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from claims import Claim
from claims._stalls import holds, index, place, stall, to_play
from claims.engine import position
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.chance import roll_outcomes
from nefertiti_core.teaching.status import DIE_FACES, louqsor_probability, stall_status

DICE, RUN, REROLL = "louqsor-left-dice", "louqsor-right-run", "louqsor-reroll"
LEFT = R.stall_of(R.LOUQSOR, R.LEFT)
RIGHT = R.stall_of(R.LOUQSOR, R.RIGHT)


def _five_six_neighbours() -> bool:
    five, six = (RIGHT.squares[index(RIGHT, f"the {v}")] for v in (5, 6))
    assert five.row != six.row, "on different rows"
    return R.longest_run(RIGHT, 1 << five.index | 1 << six.index) == 2


def _thirty_six() -> bool:
    mask = position(DICE).mask[R.LOUQSOR]
    return len(roll_outcomes(LEFT.id, mask)) == 36 == DIE_FACES**2


def _k_squared() -> bool:
    for k in range(1, DIE_FACES + 1):
        assert louqsor_probability(LEFT.id, (1 << k) - 1) == Fraction(k * k, 36), k
    seven = LEFT.squares[index(LEFT, "the 7")]
    return seven.value > DIE_FACES


def _notebook_code(fragment: str) -> bool:
    path = Path(__file__).parents[2] / "tutorials" / "10-closing-louqsor.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return any(fragment in "".join(c["source"]) for c in cells if c["cell_type"] == "code")


def _reroll_two_three() -> bool:
    """The demonstration fixes the dice at 2 and 3 (R4.4), and that roll closes Louqsor."""
    steps = ("place akhet_aton.left#0", "roll 2 3", "reroll")
    assert _notebook_code(", ".join(f'"{s}"' for s in steps))
    state = position(REROLL, *steps)
    return state.last_roll in ((2, 3), (3, 2)) and not stall_status(state, "louqsor").is_open


CLAIMS = [
    Claim("the 5 and the 6 count as neighbours", _five_six_neighbours),
    Claim(
        "Red holds the 2, Blue the 7, and Green is to play",
        lambda: (
            holds(DICE, "louqsor", "red", "the 2")
            and holds(DICE, "louqsor", "blue", "the 7")
            and to_play(DICE, "green")
        ),
    ),
    Claim("No die ever shows a 7", lambda: DIE_FACES < 7),
    Claim("Green places on the 3", lambda: bool(place(DICE, "louqsor", "the 3"))),
    Claim("how many of the 36 are they", _thirty_six),
    Claim("click the 3", lambda: bool(place(DICE, "louqsor", "the 3"))),
    Claim(
        "Green holds the 3, Red the 4, Blue the 8; Black is to play",
        lambda: (
            holds(RUN, "louqsor", "green", "the 3")
            and holds(RUN, "louqsor", "red", "the 4")
            and holds(RUN, "louqsor", "blue", "the 8")
            and to_play(RUN, "black")
            and stall(RUN, "louqsor") == RIGHT
        ),
    ),
    Claim(
        "the die is fixed to show 4",
        lambda: position(RUN, place(RUN, "louqsor", "the 5")).last_roll == (4,),
    ),
    Claim("Black places on the 5", lambda: bool(place(RUN, "louqsor", "the 5"))),
    Claim(
        "placed on Louqsor's 3 and rolled a 5 and a 3",
        lambda: (
            holds(REROLL, "louqsor", "green", "the 3")
            and position(REROLL).last_roll == (5, 3)
            and position(REROLL).holder == position(REROLL).colours.index("green")
        ),
    ),
    Claim("the lesson fixes the dice at 2 and 3", _reroll_two_three),
    Claim(
        "With k of the numbers 1 to 6 taken, k×k rolls of 36 close it; the 7 may be taken",
        _k_squared,
    ),
]


# ---------------------------------------------------------------- numbers written as words
def _two_dice_left() -> bool:
    return R.DICE_OF_RULE[R.stall_of(R.LOUQSOR, R.LEFT).rule] == 2


def _one_die_right() -> bool:
    return R.DICE_OF_RULE[R.stall_of(R.LOUQSOR, R.RIGHT).rule] == 1


def _top_row_single() -> bool:
    return all(
        sq.symbol == R.SINGLE
        for side in (R.LEFT, R.RIGHT)
        for sq in R.stall_of(R.LOUQSOR, side).squares
        if sq.row == 0
    )


CLAIMS += [
    Claim("**two dice**", _two_dice_left),
    Claim("**one die**", _one_die_right),
    Claim("buys just\none card", _top_row_single),
    Claim("## Left stall: two dice", _two_dice_left),
    Claim("## Right stall: one die", _one_die_right),
    Claim("Left stall: two dice", _two_dice_left),
    Claim("Right stall: one die", _one_die_right),
]
