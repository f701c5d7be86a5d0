"""Claims of tutorials/04-characters.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
from claims.engine import position, score, seat
from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.scoring import totals


def _seal_worth() -> int:
    """What an unspent seal adds to a score: Black's total with and without her seal."""
    state = position("vizier")
    black = seat(state, "black")
    with_seal = totals(state)[black]
    state.seals[black] = 0
    return with_seal - totals(state)[black]


def _vizier_per_type() -> bool:
    state = position("vizier")
    black = seat(state, "black")
    types = {R.KIND_TYPE[kind] for kind, count in enumerate(state.gifts[black]) if count}
    gained = score("vizier", "black", "recruit vizier") - score("vizier", "black")
    spent_seal = _seal_worth()  # the seal is spent, so its end-of-game points go
    return gained + spent_seal == 2 * len(types)


def _the_8_on_abou_simbel_left() -> bool:
    stall = R.stall_of(R.ABOU_SIMBEL, R.LEFT)
    state = position("high-priest", "recruit high_priest", "place abou_simbel.left#6")
    green = seat(state, "green")
    return stall.squares[6].value == 8 and state.owners[R.ABOU_SIMBEL][6] == green


def _scribe_bonuses(piles) -> list[int]:
    return [R.SCRIBE_BONUS[card] for card in piles[R.SCRIBE]]


def _treasurer_amounts() -> list[int]:
    state = position("treasurer", "recruit treasurer", "treasurer abou_simbel")
    return sorted(int(state.option_text(o).split()[-1]) for o in state.legal_options())


CLAIMS = [
    Claim("3 points", lambda: _seal_worth() == 3),
    Claim(
        "The 13 character cards",
        lambda: sum(len(pile) for pile in new_game(4, seed=1).piles) == 13,
    ),
    Claim("2 prestige for every", _vizier_per_type),
    Claim("the 8 of Abou Simbel's left stall", _the_8_on_abou_simbel_left),
    Claim(
        "+3 on top, then +2, +2,\n+1",
        lambda: _scribe_bonuses(new_game(4, seed=1).piles) == [3, 2, 2, 1],
    ),
    Claim(
        "The +3 Scribe is gone, so\na +2 lies on top",
        lambda: (
            _scribe_bonuses(position("scribe").piles)[0] == 2
            and 3 not in _scribe_bonuses(position("scribe").piles)
        ),
    ),
    Claim("from 1 to 4 Deben", lambda: _treasurer_amounts() == [1, 2, 3, 4]),
    Claim("1 to 4 Deben from one reserve", lambda: max(_treasurer_amounts()) == 4),
    Claim("reserve holds 6 Deben", lambda: position("treasurer").reserve[R.ABOU_SIMBEL] == 6),
]
