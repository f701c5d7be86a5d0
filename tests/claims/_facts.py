"""Checks shared by the claims of notebooks 04-15 that state numbers in words: the rules' counts
("seven piles", "two stalls"), the card sets a highest bid may take (R6.2), what a character's
turn allows, and what a notebook's own cells show ("the two tables")."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from nefertiti_core import new_game
from nefertiti_core.engine import deck
from nefertiti_core.engine import rules as R

from .engine import position, seat

TUTORIALS = Path(__file__).resolve().parents[2] / "tutorials"


def takes(name: str, *steps: str) -> list[tuple[str, ...]]:
    """The highest bidder's card sets after ``steps`` (R6.2), each as its slots."""
    state = position(name, *steps)
    texts = [state.option_text(o) for o in state.legal_options()]
    assert texts and all(t.startswith("take ") for t in texts), texts
    return [tuple(t.split()[1].split("+")) for t in texts]


def normal_deal() -> bool:
    """A plain square: the upper card, or two lower cards (R6.2)."""
    sets = takes("closing-step-by-step", "place abou_simbel.left#4")
    assert sorted(map(len, sets)) == [1, 2, 2, 2] and ("upper",) in sets, sets
    return True


def extra_deal() -> bool:
    """An extra-card square: all three lower cards, or the upper card plus one lower (R6.2)."""
    sets = takes("extra-card", "place abou_simbel.right#8")
    assert ("lower1", "lower2", "lower3") in sets, sets
    assert sorted(s for s in sets if "upper" in s) == [
        ("upper", "lower1"),
        ("upper", "lower2"),
        ("upper", "lower3"),
    ], sets
    return True


def single_deal() -> bool:
    """A single-card square: exactly one card, from either row (R6.2)."""
    sets = takes("single-card", "place louqsor.left#1")
    assert all(len(s) == 1 for s in sets) and ("upper",) in sets and len(sets) == 4, sets
    return True


def others_buy_one() -> bool:
    """After the highest bidder, a bidder buys one card or takes half the reserve (R6.3)."""
    state = position("closing-step-by-step", "place abou_simbel.left#4", "take upper")
    texts = [state.option_text(o) for o in state.legal_options()]
    buys = [t for t in texts if t.startswith("buy ")]
    assert buys and all("+" not in t for t in buys) and "half" in texts, texts
    return True


def one_character_a_turn() -> bool:
    """A seal recruits one character before placing, and only one a turn (R5.1, R10.1)."""
    state = position("a-turn")
    red = seat(state, "red")
    recruit = next(
        o for o in state.legal_options() if state.option_text(o).startswith("recruit vizier")
    )
    seals = state.seals[red]
    state.apply(recruit)
    assert state.seals[red] == seals - 1
    more = [state.option_text(o) for o in state.legal_options()]
    assert state.decider == red and not [t for t in more if t.startswith("recruit")], more
    return True


def seven_piles() -> bool:
    return len(R.PILES) == 7 and len(new_game(4, seed=1).piles) == 7


def seven_types() -> bool:
    return len(R.GIFT_TYPES) == 7


def double_senet_counts_two() -> bool:
    return R.KIND_WEIGHT[R.K_DOUBLE_SENET] == 2


def four_markets() -> bool:
    return len(R.MARKETS) == 4


def two_stalls() -> bool:
    return len(R.SIDES) == 2 and len(R.STALLS) == 2 * len(R.MARKETS)


def eight_stalls() -> bool:
    return len(R.STALLS) == 8


def bottom_five() -> bool:
    return deck.BOTTOM == 5


def four_cards_a_market() -> bool:
    return R.MARKET_CARDS == 4


def three_and_four_players() -> bool:
    return set(R.STARTING_DEBEN) == {3, 4}


def three_marks() -> bool:
    marks = {square.symbol for stall in R.STALLS for square in stall.squares} - {R.PLAIN}
    return marks == {R.DEBEN, R.SINGLE, R.EXTRA}


def market_rule(market: str, side: str) -> str:
    return R.stall_of(R.MARKETS.index(market), R.SIDES.index(side)).rule


def gifts(name: str, colour: str, *steps: str) -> list[int]:
    state = position(name, *steps)
    return list(state.gifts[seat(state, colour)])


def notebook_code(number: str) -> str:
    """All the code of ``tutorials/<number>-*.ipynb``."""
    (path,) = TUTORIALS.glob(f"{number}-*.ipynb")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def calls(number: str, name: str) -> list[ast.Call]:
    """The calls of ``name`` in notebook ``number``'s code."""
    return [
        node
        for node in ast.walk(ast.parse(notebook_code(number)))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == name
    ]


def mask(market: str, side: str, *values: int) -> int:
    """The squares of a stall named by their values (each value once on the stall)."""
    st = R.stall_of(R.MARKETS.index(market), R.SIDES.index(side))
    found = 0
    for value in values:
        (i,) = [sq.index for sq in st.squares if sq.value == value]
        found |= 1 << i
    return found


def shape_closes(market: str, side: str, *values: int) -> bool:
    st = R.stall_of(R.MARKETS.index(market), R.SIDES.index(side))
    return R.closes_by_shape(st, mask(market, side, *values))


def rows(market: str, side: str) -> int:
    st = R.stall_of(R.MARKETS.index(market), R.SIDES.index(side))
    return len({sq.row for sq in st.squares})


def gizeh_left_needs_four() -> bool:
    """Four touching squares close Gizeh's left stall (the rulebook's 1-3-4-5 and 2-4-5-7);
    three touching do not (R3.1)."""
    assert market_rule("gizeh", "left") == R.CONNECTED4
    assert shape_closes("gizeh", "left", 1, 3, 4, 5) and shape_closes("gizeh", "left", 2, 4, 5, 7)
    assert not shape_closes("gizeh", "left", 1, 3, 4)
    return True


def gizeh_right_three_colours_or_four() -> bool:
    assert market_rule("gizeh", "right") == R.COLOURS3_OR_4
    return R.COLOURS_TO_CLOSE == 3 and R.SERVANTS_TO_CLOSE == 4 and rows("gizeh", "right") == 2


def occupied(name: str, market: str) -> list[int]:
    """The values of the occupied squares of ``market``'s stall in position ``name``."""
    state = position(name)
    m = R.MARKETS.index(market)
    st = state.visible_stall(m)
    return sorted(
        sq.value for sq, o in zip(st.squares, state.square_owners(m), strict=True) if o >= 0
    )


def prose(number: str) -> str:
    """The Markdown of ``tutorials/<number>-*.ipynb``."""
    (path,) = TUTORIALS.glob(f"{number}-*.ipynb")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def items_after(number: str, text: str) -> int:
    """How many list items (``- ``) follow the line ending in ``text`` in notebook ``number``."""
    after = prose(number).split(text, 1)[1].lstrip("\n").split("\n\n")[0]
    return sum(line.startswith("- ") for line in after.splitlines())


def exercise_count(topic: str) -> int:
    from nefertiti_core.files.exercises import exercises_for

    return len(exercises_for(topic))
