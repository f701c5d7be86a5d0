"""The bids under the servants stay readable (a lesson asks learners to add them up): the disc
of a servant covers its square's number, so the board writes that number on the servant, under
its player's letter, in a colour that stands out on every player's colour (WCAG 4.5:1). The
browser test tests/browser/test_board_bids_in_browser.py looks at the drawn board."""

from __future__ import annotations

import pytest
from test_board_signs import MARKS, four_placed
from test_theme_contrast import contrast

from nefertiti_core import new_game
from widgets import Board, GameSession
from widgets import theme as T
from widgets.game import board as B


def glyph_of(board: Board, source: str, column: str):
    return next(
        r.glyph
        for r in board.figure.renderers
        if r.data_source is board.sources[source] and getattr(r.glyph, "text", None) == column
    )


@pytest.mark.parametrize("lang", sorted(MARKS))
def test_every_servant_carries_the_bid_of_its_square(lang):
    session = four_placed()
    session.lang = lang
    board = Board(session)
    squares = board.sources["squares"].data
    label_at = dict(
        zip(zip(squares["x"], squares["y"], strict=True), squares["label"], strict=True)
    )
    servants = board.sources["servants"].data
    assert len(servants["x"]) == 4
    assert servants["bid"] == [
        label_at[xy] for xy in zip(servants["x"], servants["y"], strict=True)
    ]
    assert all(bid[:1].isdigit() for bid in servants["bid"]), servants["bid"]
    # the servant drawn under a learner's press carries its square's bid too
    legal = Board(GameSession(new_game(4, 0), lang=lang)).sources["legal"].data
    assert legal["bid"] and legal["bid"] == [
        label_at.get(xy, legal["bid"][i])
        for i, xy in enumerate(zip(legal["x"], legal["y"], strict=True))
    ]


def test_the_bid_is_drawn_on_the_servant_below_its_letter_in_a_contrasting_colour():
    board = Board(four_placed())
    bid, letter = glyph_of(board, "servants", "bid"), glyph_of(board, "servants", "letter")
    assert bid.text_color == letter.text_color == T.ON_COLOUR
    for colour, fill in T.PLAYER_COLOURS.items():
        assert contrast(T.ON_COLOUR, fill) >= 4.5, colour
    # one above the other (screen pixels: y grows downwards), both inside the disc
    assert letter.y_offset < 0 < bid.y_offset
    unit = board.drawn_width / B.G.WIDTH
    bid_px = int(bid.text_font_size.removesuffix("px"))
    assert bid.y_offset + bid_px / 2 <= B.SERVANT_RADIUS * unit + 1
    assert B.SERVANT_RADIUS * 2 <= B.G.SQUARE  # the disc stays inside its square
