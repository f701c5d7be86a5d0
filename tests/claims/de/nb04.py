"""Claims of tutorials/de/04-characters.ipynb: the English notebook's checks (``claims.nb04``),
each quoted with the German phrase that states the same number, and the checks of its own
(``extra``)."""

from __future__ import annotations

from claims import Claim, nb04, translated
from claims.engine import position, seat
from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.files.history import History


def _gifts(name: str, colour: str, *steps: str) -> dict[int, int]:
    """``colour``'s gift cards after ``steps``: {card kind: count}, kinds held only."""
    state = position(name, *steps)
    return {kind: n for kind, n in enumerate(state.gifts[seat(state, colour)]) if n}


def _one_character_per_turn() -> bool:
    """Black, given a second seal, recruits the Vizier and is offered no other character in that
    turn, though one was on offer before."""
    state = position("vizier")
    black = seat(state, "black")
    state.seals[black] = 2
    history = History(state)
    before = [state.option_text(o) for o in state.legal_options()]
    history.play("recruit vizier")
    after = history.state
    options = [after.option_text(o) for o in after.legal_options()]
    return (
        sum(o.startswith("recruit") for o in before) >= 2
        and after.seals[black] == 1
        and after.decider == black
        and not any(o.startswith("recruit") for o in options)
    )


def _maximum_is_the_value_for_one_holder() -> bool:
    values = position("merchant").max_values
    return all(
        values[kind] == R.GIFT_VALUES[R.KIND_TYPE[kind]][0] * R.KIND_WEIGHT[kind]
        for kind in range(R.NUM_KINDS)
    )


def _thirteen_in_seven_piles() -> bool:
    piles = new_game(4, seed=1).piles
    return len(piles) == 7 and sum(len(pile) for pile in piles) == 13


def _two_swaps_with_two_opponents() -> bool:
    """The First Merchant offers a second swap, but not with the opponent of the first."""
    from claims._firstgame import option_texts

    first = option_texts("merchant", "recruit merchant")
    second = option_texts("merchant", "recruit merchant", "exchange green:statuette", "give harp")
    after = option_texts(
        "merchant",
        "recruit merchant",
        "exchange green:statuette",
        "give harp",
        "exchange blue:statuette",
        "give necklace",
    )
    return (
        position("merchant").piles[R.MERCHANT][0] == R.C_FIRST_MERCHANT
        and {"exchange green:statuette", "exchange blue:statuette"} <= set(first)
        and "exchange blue:statuette" in second
        and not any(o.startswith("exchange green") for o in second)
        and not any(o.startswith("exchange") for o in after)
    )


def _two_placements_in_one_turn() -> bool:
    return position("high-priest", "recruit high_priest").placements_left == 2


def _green_three_on_the_board_one_in_hand() -> bool:
    state = position("high-priest")
    green = seat(state, "green")
    on_board = sum(owner == green for market in state.owners for owner in market)
    return on_board == 3 and state.hand[green] == 1


def _chief_market() -> bool:
    state = position("chief")
    return (
        state.tile == R.GIZEH
        and state.market_cards(R.GIZEH) == (R.K_GOLD, R.K_CHAIR, -1, R.K_MIRROR)
        and state.market_seal(R.GIZEH)
    )


def _royal_servant_one_each() -> bool:
    before = {c: _gifts("royal-servant", c).get(R.K_CHAIR, 0) for c in ("green", "red", "blue")}
    steps = ("recruit royal_servant", "royal chair")
    after = {c: _gifts("royal-servant", c, *steps).get(R.K_CHAIR, 0) for c in before}
    return before == {"green": 5, "red": 1, "blue": 1} and after == {
        "green": 4,
        "red": 0,
        "blue": 0,
    }


def _scribe_senets() -> bool:
    state = position("scribe")
    blue, black = seat(state, "blue"), seat(state, "black")
    return (
        _gifts("scribe", "blue") == {R.K_DOUBLE_SENET: 1, R.K_SENET: 2, R.K_MIRROR: 1}
        and _gifts("scribe", "black") == {R.K_SENET: 2}
        and state.type_count(blue, R.SENET) == 4
        and state.type_count(black, R.SENET) == 2
    )


def _one_holder_fewer() -> bool:
    before = position("scribe").holders(R.SENET)
    return before - position("scribe", "recruit scribe", "scribe senet").holders(R.SENET) == 1


CLAIMS = translated(
    nb04,
    {
        "3 points": "am Ende 3 Punkte wert",
        "2 prestige for every": "2 Prestige für jede",
        "the 8 of Abou Simbel's left stall": "die 8 der linken Preistabelle von Abu Simbel",
        "+3 on top, then +2, +2,\n+1": "liegt +3 oben, dann +2, +2,\n+1",
        "The +3 Scribe is gone, so\na +2 lies on top": "Der\nSchreiber +3 ist schon weg, also liegt ein +2 oben",
        "from 1 to 4 Deben": "von 1 bis 4 Deben",
        "1 to 4 Deben from one reserve": "1 bis 4 Deben aus einem Vorrat",
        "reserve holds 6 Deben": "Der Vorrat von Abu Simbel enthält 6 Deben",
    },
    extra=[
        Claim("Höchstens eine Personenkarte pro Zug", _one_character_per_turn),
        Claim("höchstens\n  eine pro Zug", _one_character_per_turn),
        Claim("wenn\nnur ein Spieler ihre Art besitzt", _maximum_is_the_value_for_one_holder),
        Claim(
            "Grün und Blau besitzen je eine\nStatuette",
            lambda: (
                _gifts("merchant", "green") == {R.K_STATUETTE: 1}
                and _gifts("merchant", "blue") == {R.K_STATUETTE: 1}
            ),
        ),
        Claim("Die 13 Personenkarten liegen offen in sieben Stapeln", _thirteen_in_seven_piles),
        Claim(
            "Schwarz besitzt ein Senet, ein Doppel-Senet, eine Statuette, einen Spiegel und eine Halskette",
            lambda: (
                _gifts("vizier", "black")
                == {
                    R.K_SENET: 1,
                    R.K_DOUBLE_SENET: 1,
                    R.K_STATUETTE: 1,
                    R.K_MIRROR: 1,
                    R.K_NECKLACE: 1,
                }
            ),
        ),
        Claim(
            "erlaubt zwei Tauschgeschäfte mit zwei verschiedenen\nMitspielern",
            _two_swaps_with_two_opponents,
        ),
        Claim("tauscht zweimal, mit zwei verschiedenen Mitspielern", _two_swaps_with_two_opponents),
        Claim("zwei Diener in einem Zug", _two_placements_in_one_turn),
        Claim("zweimal einsetzen in einem Zug", _two_placements_in_one_turn),
        Claim(
            "Grün hat drei Diener auf dem Spielplan und einen in der Hand",
            _green_three_on_the_board_one_in_hand,
        ),
        Claim(
            "mit drei unverkauften Karten: oben eine Goldschmiedearbeit mit einem\nSiegel darauf, "
            "darunter ein Stuhl und ein Spiegel",
            _chief_market,
        ),
        Claim("Alle geben eins ab", _royal_servant_one_each),
        Claim("Grün besitzt fünf Stühle, Rot und Blau je einen", _royal_servant_one_each),
        Claim("einen Besitzer weniger", _one_holder_fewer),
        Claim("Doppel-Senet zählt als zwei Senets", _scribe_senets),
        Claim(
            "Blau besitzt ein Doppel-Senet und zwei einfache Senets, Schwarz besitzt zwei Senets",
            _scribe_senets,
        ),
    ],
)
