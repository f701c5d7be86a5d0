"""Claims of tutorials/de/06-markets-and-special-squares.ipynb: the English notebook's checks
(``claims.nb06``), each quoted with the German phrase that states the same number, and the
checks of its own (``extra``)."""

from __future__ import annotations

from claims import Claim, nb06, translated
from claims._firstgame import option_texts
from claims.engine import deben, position, seat
from claims.nb02 import _two_lower_cards
from claims.nb06 import (
    ABOU_LEFT,
    _square,
)
from nefertiti_core.engine import rules as R

BONUSES = "markets-bonuses"


def _four_markets_two_stalls_each() -> bool:
    return len(R.MARKETS) == 4 and all(
        {R.stall_of(m, side).market for side in (R.LEFT, R.RIGHT)} == {m} for m in range(4)
    )


def _first_on_an_empty_stall_takes_one() -> bool:
    """Green's first servant on empty Abou Simbel, on a plain 1, takes one Deben."""
    plain = _square(ABOU_LEFT, 0)[1] == R.PLAIN
    gain = deben(BONUSES, "green", "place abou_simbel.left#0") - deben(BONUSES, "green")
    return plain and gain == 1


def _deben_square_takes_one() -> bool:
    """Red, second on Abou Simbel's left stall, on its Deben 2, takes one Deben."""
    first = "place abou_simbel.left#0"
    before = position(BONUSES, first)
    red = seat(before, "red")
    after = position(BONUSES, first, "place abou_simbel.left#2")
    return (
        before.turn_player == red
        and _square(ABOU_LEFT, 2) == (2, R.DEBEN)
        and after.deben[red] - before.deben[red] == 1
    )


def _each_takes_one_deben() -> bool:
    both = deben(BONUSES, "green", "place abou_simbel.left#2") - deben(BONUSES, "green")
    return _first_on_an_empty_stall_takes_one() and _deben_square_takes_one() and both == 2


def _extra_card_choices() -> bool:
    """On the 12, an extra-card square, Green may take all three lower cards, or the upper card
    and one lower card."""
    closed = ("extra-card", "place abou_simbel.right#8")
    takes = {o for o in option_texts(*closed) if o.startswith("take ")}
    return takes == {
        "take lower1+lower2+lower3",
        "take upper+lower1",
        "take upper+lower2",
        "take upper+lower3",
    }


def _one_stall_in_use() -> bool:
    """Every placement offered on a market names one stall, the one showing."""
    state = position(BONUSES)
    for m, name in enumerate(R.MARKETS):
        sides = {o.split("#")[0] for o in option_texts(BONUSES) if o.startswith(f"place {name}.")}
        if state.tile != m and sides != {f"place {name}.{R.SIDES[state.side[m]]}"}:
            return False
    return True


def _single_card_choices() -> bool:
    """Blue's 3 on a single-card square buys exactly one card, from either row."""
    closed = ("single-card", "place louqsor.left#1")
    takes = {o for o in option_texts(*closed) if o.startswith("take ")}
    return takes == {"take upper", "take lower1", "take lower2", "take lower3"}


def _others_buy_one_card_or_half() -> bool:
    """After the highest bid, the next bidder buys one card or takes half the reserve."""
    steps = ("closing-step-by-step", "place abou_simbel.left#4", "take upper")
    options = option_texts(*steps)
    buys = [o for o in options if o.startswith("buy ")]
    return bool(buys) and all("+" not in o for o in buys) and "half" in options


CLAIMS = translated(
    nb06,
    {
        "Three marks change what a square does": "Drei Symbole ändern, was ein Feld bewirkt",
        "Here are all eight stalls": "alle acht Preistabellen",
        "the Deben 2": "die 2 mit Münzsymbol",
        "the 4 on Gizeh's left stall, another Deben square on an empty stall,\nwhose reserve "
        "holds only 1 Deben": "der 4 auf der linken\nPreistabelle von Gizeh, einem weiteren Feld mit Münzsymbol auf "
        "einer leeren Preistabelle, nur\ndass dort im Vorrat bloß 1 Deben liegt",
        "the first 2 of Abou Simbel's right stall, Blue's on the 6": "auf der ersten 2 der rechten Preistabelle von Abu Simbel, der von Blau\nauf der 6",
        "close the market with the 12, an extra-card square": "mit der 12 schließen, einem Feld mit Extrakarten-Symbol",
        "place on the 12": "Setze auf die 12",
        "Louqsor's squares 1 to 4 on the left\nstall and 2 to 5 on the right": "Die Felder 1 bis 4\nder linken Preistabelle von Luxor und 2 bis 5 der rechten",
        "on Louqsor's 1, Blue's on the 3. Green places on the 2": "auf der 1 von Luxor, der von Blau auf der 3. Grün setzt auf die 2",
        "Blue's 3 is the highest bid": "Die 3 von Blau ist das höchste Gebot",
        "the bids add up to 7, and Red's servant on the 7 makes exactly 14": "ergeben die Gebote zusammen 7, und der Diener von Rot\nauf der 7 macht genau 14",
        "The 7 carries no mark": "Die 7 trägt kein Symbol",
    },
    extra=[
        Claim("immer nur eine davon ist in Gebrauch", _one_stall_in_use),
        Claim("kauft es nur eine Karte", _single_card_choices),
        Claim("**genau eine\nKarte**", _single_card_choices),
        Claim("Einzelkarten-Symbol: nur eine Karte", _single_card_choices),
        Claim("kaufen jeweils höchstens eine\nKarte", _others_buy_one_card_or_half),
        Claim("Der Spielplan hat vier Märkte", _four_markets_two_stalls_each),
        Claim("Jeder hat **zwei\nPreistabellen**", _four_markets_two_stalls_each),
        Claim("Jeder Markt hat zwei Preistabellen", _four_markets_two_stalls_each),
        Claim("nimmt sofort einen Deben aus dem Vorrat", _deben_square_takes_one),
        Claim("nimmt einen Deben aus dem Vorrat dieses", _first_on_an_empty_stall_takes_one),
        Claim("nimmt ebenfalls einen Deben", _deben_square_takes_one),
        Claim(
            "der Vorrat des Marktes enthält 3 Deben;\ndie anderen Vorräte enthalten je 1",
            lambda: position(BONUSES).reserve == [1, 1, 3, 1],
        ),
        Claim("entweder zwei untere Karten", _two_lower_cards),
        Claim(
            "alle drei unteren Karten, oder die obere Karte mit ihrem Siegel und dazu eine untere",
            _extra_card_choices,
        ),
        Claim(
            "alle drei unteren Karten, oder die obere\n  Karte mit Siegel und dazu eine untere",
            _extra_card_choices,
        ),
        Claim("nehmen je einen Deben", _each_takes_one_deben),
    ],
)
