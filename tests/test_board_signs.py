"""Colour is never the only sign on the board (WCAG 1.4.1): each servant carries its player's
letter in the board's language as well as its colour, and the squares one may take and those
that would close their market differ in outline pattern as well as in hue. The browser test
tests/browser/test_colour_vision.py looks at the drawn board under simulated colour blindness."""

from __future__ import annotations

import pytest

from nefertiti_core import new_game
from nefertiti_core.engine import options as O
from nefertiti_core.engine.i18n import tr
from widgets import Board, GameSession

MARKS = {
    "en": {"green": "G", "red": "R", "blue": "B", "black": "K"},
    "de": {"green": "G", "red": "R", "blue": "B", "black": "S"},
    "zh": {"green": "绿", "red": "红", "blue": "蓝", "black": "黑"},
}


def four_placed() -> GameSession:
    session = GameSession(new_game(4, 0))
    for _ in range(4):
        place = next(o for o in session.state.legal_options() if O.OPTION_KIND[o] == O.PLACE)
        assert session.play(place)
    return session


@pytest.mark.parametrize("lang", sorted(MARKS))
def test_each_servant_carries_its_players_letter_in_the_boards_language(lang):
    assert len(set(MARKS[lang].values())) == 4  # four players, four different letters
    session = four_placed()
    board = Board(session)
    session.lang = lang
    servants = board.sources["servants"].data
    assert sorted(servants["who"]) == ["black", "blue", "green", "red"]
    assert servants["letter"] == [MARKS[lang][who] for who in servants["who"]]
    assert all(tr(lang, f"colour.mark.{c}") == m for c, m in MARKS[lang].items())
    # the servant drawn at once under the learner's press carries the decider's letter too
    fresh = GameSession(new_game(4, 0), lang=lang)
    legal = Board(fresh).sources["legal"].data
    decider = fresh.state.colours[fresh.state.decider]
    assert legal["letter"] and set(legal["letter"]) == {MARKS[lang][decider]}


def test_playable_and_closing_outlines_differ_in_pattern_as_well_as_hue():
    board = Board(GameSession(new_game(4, 0)))
    glyphs = {
        name: next(r.glyph for r in board.figure.renderers if r.data_source is board.sources[name])
        for name in ("playable", "closing")
    }
    playable, closing = glyphs["playable"], glyphs["closing"]
    assert playable.line_color != closing.line_color
    assert playable.line_dash in ("solid", [])
    assert closing.line_dash not in ("solid", [])  # dashed
