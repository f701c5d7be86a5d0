"""widgets.lesson.rule_summaries: the rules data summed up in small tables for the lessons (gift values with the
estimates flagged, the eight stalls' closing conditions, the parts of the final scoring)."""

from __future__ import annotations

import re

import panel as pn
import pytest

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import LANGUAGES, tr
from nefertiti_core.teaching import rules_reference as RR
from widgets.lesson import rule_summaries as T


def _cells(html_text: str) -> list[list[str]]:
    """The table's rows as lists of cell texts (tags stripped; rule IDs keep their text)."""
    rows = re.findall(r"<tr>(.*?)</tr>", html_text, re.S)
    return [
        [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for row in rows
    ]


def _first_cells(text: str) -> list[str]:
    """Each row's first cell (the hover boxes of linked rule IDs come after the table)."""
    table = text[text.index("<table") : text.index("</table>")]
    return [row[0] for row in _cells(table)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_line_per_stall_in_board_order_with_its_rule(lang):
    rows = T.stall_conditions(lang)
    assert [row["rule"] for row in rows] == [f"R3.{i}" for i in range(1, 9)]
    assert [row["rule"] for row in rows] == [stall.rule_id for stall in R.STALLS]
    for row, stall in zip(rows, R.STALLS, strict=True):
        assert row["market"] == tr(lang, f"market.{R.MARKETS[stall.market]}")
        title = RR.get(stall.rule_id, lang).title
        assert row["title"] and title.endswith(row["title"]), (title, row)
        assert ":" not in row["title"] and "：" not in row["title"], row
        assert row["condition"] and "\n" not in row["condition"], row
    assert len({row["condition"] for row in rows}) == 8, "each stall its own condition"
    english = [row["condition"] for row in T.stall_conditions("en")]
    # the same numbers in every language: a translation cannot say 3 where English says 4
    assert [_numbers(c) for c in english] == [_numbers(row["condition"]) for row in rows]


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def _closing_counts(stall) -> set[int]:
    """How many occupied squares the smallest closing sets of a shape stall have."""
    masks = [m for m in range(1 << len(stall.squares)) if R.closes_by_shape(stall, m)]
    smallest = min(bin(m).count("1") for m in masks)
    return {smallest}


def _closing_totals(stall) -> list[int]:
    """The totals at which a sum stall closes: the exact ones, then the threshold."""
    closing, staying = set(), set()
    for mask in range(1, 1 << len(stall.squares)):
        total = sum(sq.value for sq in stall.squares if mask >> sq.index & 1)
        (closing if R.closes_by_shape(stall, mask) else staying).add(total)
    threshold = min(t for t in closing if t > max(staying))
    return sorted(t for t in closing if t < threshold) + [threshold]


def test_the_numbers_of_each_stall_line_are_the_engines():
    """Each line's numbers, read from the rules data and the engine (R3.1-R3.8)."""
    lines = {row["rule"]: _numbers(row["condition"]) for row in T.stall_conditions()}
    gl, gr, al, ar, asl, asr, ll, lr = R.STALLS
    assert lines["R3.1"] == sorted(_closing_counts(gl))
    # R3.2: two colours stay open, a third closes; three servants of two colours stay open, a
    # fourth closes
    assert not R.colours_close([0, 1]) and R.colours_close([0, 1, 2])
    assert not R.colours_close([0, 1, 0]) and R.colours_close([0, 1, 0, 1])
    assert lines["R3.2"] == [R.COLOURS_TO_CLOSE, R.SERVANTS_TO_CLOSE] == [3, 4]
    assert lines["R3.3"] == [] and al.rule == R.ALL_LEVELS
    assert lines["R3.4"] == sorted(_closing_counts(ar)) == [len(ar.groups[0])]
    assert lines["R3.5"] == _closing_totals(asl) == list(R.sum_targets(asl.rule))
    assert lines["R3.6"] == _closing_totals(asr) == list(R.sum_targets(asr.rule))
    assert lines["R3.7"] == [R.dice_rolled(ll.id)] == [2]
    assert lines["R3.8"] == [R.dice_rolled(lr.id)] == [1]


def test_the_stall_table_shows_each_condition_and_links_the_rule_ids():
    pane = T.stall_conditions_table()
    assert isinstance(pane, pn.pane.HTML)
    table = pane.object[pane.object.index("<table") : pane.object.index("</table>")]
    cells = _cells(table)
    assert cells[0] == ["Market", "Stall", "Closes when", "Rule"]
    assert cells[5][:2] == ["Abou Simbel", "left"] and cells[5][3] == "R3.5"
    assert cells[5][2] == tr("en", "summary.closes.R3.5")
    assert cells[7][:2] == ["Louqsor", "left"] and "2 dice" in cells[7][2]
    assert "rule-ref" in pane.object or "data-rule" in pane.object or "R3.5" in pane.object
    german = T.stall_conditions_html("de")
    assert "Preistabelle" in german and "Luxor" in german and "Louqsor" not in german


def test_gift_values_follow_the_rules_data_and_flag_the_estimates():
    rows = T.gift_values()
    assert [row["type"] for row in rows] == list(R.GIFT_TYPES)
    for t, row in enumerate(rows):
        assert row["values"] == list(R.GIFT_VALUES[t])
        name = R.GIFT_TYPES[t]
        assert row["estimated"] == [h in R.ESTIMATED_VALUES[name] for h in (1, 2, 3, 4)]
    cells = {row[0]: row[1:] for row in _cells(T.gift_values_html())[1:]}
    gold = cells[tr("en", "gift.gold")]
    assert gold[0] == str(R.GIFT_VALUES[R.GOLD][0]), "a printed value has no mark"
    assert gold[1] == f"{R.GIFT_VALUES[R.GOLD][1]}{T.ESTIMATE_MARK}", (
        "gold for 2 is an estimate (R8)"
    )
    assert all(value.endswith(T.ESTIMATE_MARK) for value in cells[tr("en", "gift.mirror")])
    assert not any(value.endswith(T.ESTIMATE_MARK) for value in cells[tr("en", "gift.senet")])


def test_an_edited_value_table_shows_as_edited():
    values = [list(v) for v in R.GIFT_VALUES]
    values[R.HARP][0] = 99
    estimated = {name: [] for name in R.GIFT_TYPES}
    cells = _cells(T.gift_values_html(values=values, estimated=estimated))
    harp = next(row for row in cells if row[0] == tr("en", "gift.harp"))
    assert harp[1] == "99"
    assert not any(T.ESTIMATE_MARK in cell for row in cells[1:] for cell in row)


def test_three_players_leave_the_senets_out_and_count_up_to_three_holders():
    rows = T.gift_values(players=3)
    assert "senet" not in [row["type"] for row in rows] and len(rows) == 6
    assert all(len(row["values"]) == 3 for row in rows)
    header = _cells(T.gift_values_html(players=3))[0]
    assert header == ["Gift", "held by 1 player", "held by 2 players", "held by 3 players"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_table_renders_in_every_language(lang):
    for html_text in (
        T.gift_values_html(lang=lang),
        T.stall_conditions_html(lang),
        T.scoring_html(lang),
    ):
        table = html_text[html_text.index("<table") : html_text.index("</table>")]
        texts = [cell for row in _cells(table) for cell in row]
        assert texts and not any("{" in cell or "}" in cell for cell in texts), texts
        assert "<table" in html_text
    assert tr(lang, "gift.necklace") in _first_cells(T.gift_values_html(lang=lang))


def test_the_scoring_parts_come_from_the_scoring_constants(monkeypatch):
    parts = T.scoring_parts()
    assert [row["rule"] for row in parts] == ["R8", "R9.1", "R9.1", "R9.1", "R9.2"]
    assert "1 point per 2 Deben" in parts[1]["points"]
    assert parts[2]["points"].startswith("3 points")
    monkeypatch.setattr(T, "POINTS_PER_SEAL", 5)
    assert T.scoring_parts()[2]["points"].startswith("5 points")
    assert isinstance(T.scoring_table(), pn.pane.HTML)


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        T.stall_conditions("fr")
    with pytest.raises(ValueError, match="players must be one of"):
        T.gift_values(players=5)
