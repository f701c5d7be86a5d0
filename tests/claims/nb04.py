"""Claims of tutorials/04-characters.ipynb, checked against the engine."""

from __future__ import annotations

from claims import Claim
from claims import _facts as F
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


# ---------------------------------------------------------------- numbers written as words
def _merchant_two_swaps() -> bool:
    """The First Merchant: two swaps, with two different opponents (R10.3)."""
    steps = ["recruit merchant", "exchange green:statuette", "give harp"]
    state = position("merchant", *steps)
    texts = [state.option_text(o) for o in state.legal_options()]
    assert any(t.startswith("exchange") for t in texts), texts  # a second swap
    assert not any(t.startswith("exchange green") for t in texts), texts  # not the same one
    state = position("merchant", *steps, "exchange blue:statuette", "give necklace")
    texts = [state.option_text(o) for o in state.legal_options()]
    assert not any(t.startswith("exchange") for t in texts), texts  # no third
    return True


def _high_priest_two_placements() -> bool:
    """Green places twice in one turn (R10.4): still deciding after the first placement."""
    state = position("high-priest", "recruit high_priest", "place abou_simbel.left#6")
    return state.colours[state.decider] == "green"


def _green_three_on_board_one_in_hand() -> bool:
    state = position("high-priest")
    green = seat(state, "green")
    on_board = sum(owners.count(green) for owners in map(state.square_owners, range(4)))
    assert (on_board, state.hand[green]) == (3, 1), (on_board, state.hand[green])
    return True


def _chief_one_card() -> bool:
    """Red, the decider, recruits the Chief and gains exactly one card (R10.5)."""
    before = sum(F.gifts("chief", "red"))
    return sum(F.gifts("chief", "red", "recruit chief", "chief upper")) == before + 1


def _three_unsold_under_the_tile() -> bool:
    state = position("chief")
    return state.tile == R.MARKETS.index("gizeh") and sum(c >= 0 for c in state.cards[0]) == 3


def _royal_servant_one_each() -> bool:
    names = position("royal-servant").colours
    before = {c: F.gifts("royal-servant", c)[R.K_CHAIR] for c in names}
    after = {
        c: F.gifts("royal-servant", c, "recruit royal_servant", "royal chair")[R.K_CHAIR]
        for c in names
    }
    assert all(after[c] == before[c] - 1 for c in names if before[c]), (before, after)
    return True


def _five_chairs_one_each() -> bool:
    chairs = {c: F.gifts("royal-servant", c)[R.K_CHAIR] for c in ("green", "red", "blue")}
    return chairs == {"green": 5, "red": 1, "blue": 1}


def _scribe_one_type() -> bool:
    before = F.gifts("scribe", "blue")
    after = F.gifts("scribe", "blue", "recruit scribe", "scribe senet")
    senets = (R.K_SENET, R.K_DOUBLE_SENET)
    assert all(after[k] == 0 for k in senets), after
    assert all(after[k] == before[k] for k in range(R.NUM_KINDS) if k not in senets)
    return True


def _scribe_senets() -> bool:
    blue, black = F.gifts("scribe", "blue"), F.gifts("scribe", "black")
    return blue[:2] == [2, 1] and black[:2] == [2, 0]


def _treasurer_one_market() -> bool:
    before = position("treasurer").reserve
    after = position(
        "treasurer", "recruit treasurer", "treasurer abou_simbel", "treasurer 4"
    ).reserve
    changed = [m for m in range(4) if before[m] != after[m]]
    return changed == [R.MARKETS.index("abou_simbel")]


def _seven_characters() -> bool:
    return len(R.PILES) == 7 and len(F.calls("04", "demo")) == 7


def _one_character_each_section() -> bool:
    """Each character's section stages it: its demonstration recruits exactly one."""
    for call in F.calls("04", "demo"):
        steps = [a.value for a in call.args[1:]]
        assert sum(s.startswith("recruit ") for s in steps) == 1, steps
    return True


def _max_value_one_holder() -> bool:
    """The maximum value is the value with one holder, the highest of the type's (R8)."""
    return all(
        R.max_value(k) == max(R.GIFT_VALUES[R.KIND_TYPE[k]]) * R.KIND_WEIGHT[k]
        for k in range(R.NUM_KINDS)
    )


CLAIMS += [
    Claim("One\ncharacter per turn", F.one_character_a_turn),
    Claim("in seven piles", F.seven_piles),
    Claim("stages one character", _one_character_each_section),
    Claim("when only one player holds its type", _max_value_one_holder),
    Claim("allows two\nswaps, with two different opponents", _merchant_two_swaps),
    Claim("The First Merchant swaps twice, with two", _merchant_two_swaps),
    Claim("two servants in one turn", _high_priest_two_placements),
    Claim("two placements in one turn", _high_priest_two_placements),
    Claim(
        "Green has three servants on the board and one in hand", _green_three_on_board_one_in_hand
    ),
    Claim("The Chief takes one card", _chief_one_card),
    Claim("one card from the market under", _chief_one_card),
    Claim("with three unsold cards", _three_unsold_under_the_tile),
    Claim("discards one card of it", _royal_servant_one_each),
    Claim("Green owns five chairs; Red and Blue own one each", _five_chairs_one_each),
    Claim("cash in one type early", _scribe_one_type),
    Claim("gifts of one type now", _scribe_one_type),
    Claim("counts as two senets", F.double_senet_counts_two),
    Claim("Blue owns a double senet and two single senets; Black owns two senets", _scribe_senets),
    Claim("from the reserve of one market", _treasurer_one_market),
    Claim("a seal recruits one character", F.one_character_a_turn),
    Claim("at most one per", F.one_character_a_turn),
]
