"""The lessons' stall tables (widgets/lesson/stall_tables.py): each cell is the engine's answer, squares
are named by their bids (never '#index'), and a bad market or language is a one-line error."""

from __future__ import annotations

import re
from fractions import Fraction

import panel as pn
import pytest

from nefertiti_core.engine import rules as R
from nefertiti_core.teaching.status import stall_status
from widgets.lesson.stall_tables import (
    closing_totals,
    louqsor_odds,
    louqsor_odds_rows,
    position,
    settling_order,
    settling_order_rows,
    square_by_square,
    square_by_square_html,
    square_rows,
    totals_rows,
)


def test_abou_simbel_square_by_square_follows_r3_5():
    """Bids of 7 on the left stall: only the 7 makes a closing total (14), the 8 makes 15."""
    rows = {r["square"]: r for r in square_rows(position("abou-simbel-left-sums"), "abou_simbel")}
    assert rows["the 7"]["total"] == 14 and rows["the 7"]["closes"] == "yes"
    assert rows["the 8"]["total"] == 15 and rows["the 8"]["closes"] == "no"
    assert rows["the Deben 2"]["total"] == 9 and rows["the Deben 2"]["chance"] == 0
    assert [r["square"] for r in rows.values() if r["chance"] == 1] == ["the 7"]


def test_every_empty_square_is_listed_with_the_engine_verdict():
    state = position("abou-simbel-left-eleven")
    status = stall_status(state, "abou_simbel")
    rows = square_rows(state, "abou_simbel")
    assert [r["index"] for r in rows] == list(status.empty)
    assert {r["index"] for r in rows if r["chance"] == 1} == set(status.would_close)


def test_steps_change_the_position():
    rows = square_rows(position("abou-simbel-left-eleven", "place abou_simbel.left#2"), 2)
    assert {r["square"]: r["total"] for r in rows}["the second 1"] == 13


def test_louqsor_rows_give_the_roll_chance_and_no_total():
    rows = square_rows(position("louqsor-left-dice"), "louqsor")
    assert all(r["total"] is None for r in rows)
    assert {r["chance"] for r in rows} == {Fraction(4, 36)}  # 2 and 7 taken: 2x2 of 36 (R3.7)
    assert rows[0]["closes"].startswith("4/36")
    text = square_by_square_html(position("louqsor-reroll"), "louqsor")
    assert "If Green, who holds the dice, rolls again with no new servant: 4/36" in text  # R4.2
    # nobody holds the dice: no line about rolling again
    assert "rolls again" not in square_by_square_html(position("louqsor-left-dice"), "louqsor")


def test_no_square_is_named_by_index_in_any_language():
    for lang in ("en", "de", "zh"):
        for name, market in [("abou-simbel-right-17", "abou_simbel"), ("louqsor-right-run", 3)]:
            text = square_by_square_html(position(name), market, lang)
            assert not re.search(r"#\d", text.split("</style>")[1]), text


def test_a_closed_market_says_so():
    text = square_by_square_html(position("louqsor-left-dice"), "gizeh")
    assert "not open" in text and "<table" not in text


def test_square_by_square_is_folded_until_opened():
    card = square_by_square("abou-simbel-left-sums", "abou_simbel")
    assert isinstance(card, pn.Card) and card.collapsed
    assert "Abou Simbel's left stall" in card.title
    assert isinstance(square_by_square("abou-simbel-left-sums", 2, folded=False), pn.pane.HTML)


def test_closing_totals_are_the_closing_table():
    left, right = totals_rows("abou_simbel")
    assert left["close"][:3] == [11, 14, 17] and 12 in left["open"] and 16 in left["open"]
    assert max(left["open"]) == 16 and right["close"][0] == 17 and max(right["open"]) == 16
    assert "11, 14, 17–26" in closing_totals().object
    with pytest.raises(ValueError, match="does not close on a total"):
        totals_rows("gizeh")


def test_settling_order_highest_first_then_lower_row_right_to_left():
    left, right = settling_order_rows("abou_simbel")
    assert left["order"][:3] == ["the 8", "the 7", "the 5"]
    # equal 2s: the lower row's plain 2 is right of the Deben 2 -> first (R3.9)
    assert left["order"][3:] == ["the plain 2", "the Deben 2", "the second 1", "the first 1"]
    assert "the 12" in settling_order("abou_simbel").object


def test_louqsor_odds_are_k_squared_and_k_sixths():
    for row in louqsor_odds_rows():
        assert row["left"] == Fraction(row["k"] ** 2, 36)
        assert row["right"] == Fraction(row["k"], 6)
    assert "25/36" in louqsor_odds().object
    assert R.stall_of(R.LOUQSOR, R.LEFT).rule == R.TWO_DICE


@pytest.mark.parametrize("bad", [{"market": "luxor"}, {"lang": "fr"}])
def test_bad_input_is_a_one_line_error(bad):
    market, lang = bad.get("market", "louqsor"), bad.get("lang", "en")
    with pytest.raises(ValueError, match="unknown"):
        square_rows(position("louqsor-left-dice"), market, lang)
