"""A market's texts stay inside it on every board width. A phone's narrow board drew its reserve
("Reserve: 1 Deben") past the right-hand markets' edge (a learner's table on a Pixel 5 read
"Reserve: 1 Debe"): it is said in two lines there, broken after the colon. And the German titles
("Abu Simbel — linke Preistabelle") ran into the next market: their type is made smaller until
the longest fits. A wide board keeps one line and the width's size."""

from __future__ import annotations

import pytest

from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from widgets import Board, GameSession
from widgets.game import board as B


def reserve_lines(board: Board, market: int) -> list[tuple[float, float, str, float]]:
    """(x, y, words, font px) of the texts drawn in ``market``'s reserve place."""
    data = board.sources["texts"].data
    ox, oy = B.G.ORIGINS[market]
    rx, ry = B.G.reserve_xy(market)
    return [
        (x, y, words, float(size.removesuffix("px")))
        for x, y, words, size in zip(data["x"], data["y"], data["text"], data["size"], strict=True)
        if abs(x - (rx - 1.9)) < 1e-9 and oy + 1.5 < y <= ry + 1e-9
    ]


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
@pytest.mark.parametrize("width", [330, 393, 700, 1100])
def test_the_reserve_is_drawn_inside_its_market(lang, width):
    board = Board(GameSession(new_game(4, 0), lang=lang), width=width)
    unit = board.drawn_width / B.G.WIDTH
    for market in range(len(R.MARKETS)):
        lines = reserve_lines(board, market)
        said = tr(lang, "board.reserve", deben=board.session.state.reserve[market])
        assert "".join(words for *_, words, _px in lines).replace(" ", "") == said.replace(" ", "")
        right_edge = B.G.ORIGINS[market][0] + B.G.REGION_W
        for x, _y, words, px in lines:
            assert x + B.text_width(words, px) / unit <= right_edge, (width, words)
        if width >= 700:
            assert [words for *_, words, _px in lines] == [said]  # one line where it fits
        elif lang == "en":
            assert [words for *_, words, _px in lines][0] == "Reserve:"  # broken at the colon


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
@pytest.mark.parametrize("width", [330, 393, 700, 1100])
def test_every_markets_title_stays_inside_its_market(lang, width):
    """ "Abu Simbel — linke Preistabelle" ran into the next market on a phone: the titles' type
    is made smaller until the longest fits (the same size for all four); a wide board keeps the
    width's size."""
    board = Board(GameSession(new_game(4, 0), lang=lang), width=width)
    unit = board.drawn_width / B.G.WIDTH
    glyph = next(
        r.glyph
        for r in board.figure.renderers
        if r.data_source is board.sources["titles"] and type(r.glyph).__name__ == "Text"
    )
    px = int(glyph.text_font_size.removesuffix("px"))
    titles = board.sources["titles"].data
    assert len(titles["text"]) == len(R.MARKETS)
    for market, (x, words) in enumerate(zip(titles["x"], titles["text"], strict=True)):
        right_edge = B.G.ORIGINS[market][0] + B.G.REGION_W
        assert x + 1.12 * B.text_width(words, px) / unit <= right_edge, (width, words, px)
    if width >= 700:
        assert px == 15
    assert px >= 8
