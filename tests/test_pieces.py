"""The lessons' tables of the game's pieces (widgets/lesson/pieces.py) say what the engine says."""

from __future__ import annotations

import pytest

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import LANGUAGES
from widgets.lesson.pieces import (
    box_contents,
    box_rows,
    character_piles,
    group_rows,
    html_table,
    pile_rows,
    squares_by_row,
    stall_groups,
    stall_rows,
    stalls_table,
)


def test_r2_1_the_box_holds_46_gift_cards_and_3_players_leave_the_8_senets_out():
    header, rows = box_rows()
    assert header == ["Gift card", "In the box", "In play with 4 players", "In play with 3 players"]
    by_kind = {row[0]: row[1:] for row in rows}
    assert by_kind["senet"] == ["5", "5", "0"]
    assert by_kind["double senet"] == ["3", "3", "0"]
    assert by_kind["harp"] == ["8", "8", "8"]
    assert by_kind["All gift cards"] == ["46", "46", "38"]
    assert len(rows) == len(R.CARD_KINDS) + 1


def test_r2_3_the_scribe_pile_loses_a_plus_2_with_3_players():
    _, rows = pile_rows()
    piles = {row[0]: row[1:] for row in rows}
    assert list(piles) == [
        "Vizier",
        "Merchant",
        "High Priest",
        "Chief",
        "Royal Servant",
        "Scribe",
        "Treasurer",
    ]
    assert piles["Scribe"] == [
        "Scribe +3, Scribe +2, Scribe +2, Scribe +1",
        "Scribe +3, Scribe +2, Scribe +1",
    ]
    assert piles["Merchant"][0].startswith("First Merchant")  # the top card first


def test_r3_each_stall_row_by_row_with_its_marks_and_rule():
    assert squares_by_row(R.stall_of(R.GIZEH, R.LEFT)) == "1 / 2 3 / 4D 5 6 / 7"
    header, rows = stall_rows(["abou_simbel"])
    assert header == ["Stall", "Squares, top row first", "Closes by"]
    assert rows == [
        ["Abou Simbel's left stall", "1 1 / 2D 2 / 5 7 8", "R3.5"],
        ["Abou Simbel's right stall", "1 1 / 2 2 3D / 3 6 7 12X", "R3.6"],
    ]
    assert len(stall_rows()[1]) == 8


def test_r3_1_r3_3_r3_4_the_shapes_by_square_value():
    touch = group_rows("gizeh", "left")
    assert touch == [
        "Squares that touch (the project's reading): 1–2, 1–3, 2–3, 2–4D, 2–5, 3–5, 3–6, 4D–5, 5–6, 5–7"
    ]
    assert group_rows("akhet_aton", "left") == [
        "level 1 from the top: 0",
        "level 2 from the top: 1 2",
        "level 3 from the top: 3 4D 5",
        "level 4 from the top: 6 7 8 10X",
    ]
    (lines,) = group_rows("akhet_aton", "right")
    assert lines.count("·") == 7 and "0 4 8" in lines and "2 5D 8" in lines
    assert group_rows(R.GIZEH, R.RIGHT) == []  # colours decide, not shapes (R3.2)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_table_renders_in_every_language(lang):
    for pane in (box_contents(lang), character_piles(lang), stalls_table(lang=lang)):
        assert "<table" in pane.object and "{" not in pane.object.split("<table", 1)[1]
    assert stall_groups("akhet_aton", "left", lang).object.count("<li>") == 4
    if lang != "en":
        assert box_rows(lang)[0] != box_rows("en")[0]
        assert stall_rows(lang=lang)[1][0][0] != stall_rows()[1][0][0]


def test_a_cell_is_escaped_and_a_rule_id_links_to_its_text():
    text = html_table(["a"], [["<b>x</b>", "R3.5"]])
    assert "&lt;b&gt;x&lt;/b&gt;" in text and "<b>x</b>" not in text
    assert 'data-r="R3.5"' in text  # the title on hover, the text on click (rules_view)
