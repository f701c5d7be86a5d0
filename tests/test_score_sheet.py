"""The lessons' score sheet (widgets/lesson/score_sheet.py): the engine's breakdown per player (R9.1),
estimated gift values marked (R8), the winner and tie-break line (R9.2)."""

from __future__ import annotations

import panel as pn
import pytest

from nefertiti_core.engine.scoring import totals
from widgets.lesson.score_sheet import score_rows, score_sheet, score_sheet_html
from widgets.lesson.stall_tables import position

END = "place akhet_aton.right#8"


def test_rows_are_the_engine_scores():
    state = position("last-market", END)
    rows = score_rows(state)
    assert [r["total"] for r in rows] == totals(state)
    for r in rows:
        parts = r["gift_points"] + r["deben_points"] + r["seal_points"] + r["prestige"]
        assert parts == r["total"]
        assert r["deben_points"] == r["deben"] // 2 and r["seal_points"] == 3 * r["seals"]


def test_an_estimated_value_is_marked_and_explained():
    rows = {r["player"]: r for r in score_rows(position("last-market", END))}
    assert "harps: 2 × 7*" in rows["Green"]["gifts"] and rows["Green"]["estimated"]
    assert not rows["Blue"]["estimated"]
    assert "estimated value" in score_sheet_html(position("last-market", END))


def test_the_winner_line_follows_the_tie_break():
    assert "Blue" in score_sheet_html(position("tie-break", END)).split("</table>")[1]
    shared = score_sheet("shared-win", play_moves=True).object
    assert "share" in shared.split("</table>")[1]


def test_before_the_end_it_says_so():
    assert "as if the game ended now" in score_sheet_html(position("tie-break"))


def test_folded_until_opened():
    card = score_sheet("tie-break", END, folded=True)
    assert isinstance(card, pn.Card) and card.collapsed and card.title == "Show the score sheet"
    assert "Blue" in card.objects[0].object


def test_languages():
    assert "Spieler" in score_sheet_html(position("tie-break"), "de")
    with pytest.raises(ValueError, match="unknown language"):
        score_sheet("tie-break", lang="xx")
