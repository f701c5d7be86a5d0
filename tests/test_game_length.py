"""How long games last (widgets/lesson/game_length.py): counted from games the engine plays."""

from __future__ import annotations

from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from widgets.lesson.game_length import (
    GameLength,
    depth_rows,
    game_length_view,
    game_lengths,
    summary_rows,
)


def test_each_game_is_counted_with_the_akhenaton_cards_depth_among_the_bottom_five():
    lengths = game_lengths(20)
    assert len(lengths) == 40 and {g.players for g in lengths} == {3, 4}
    assert all(0 <= g.under <= 4 for g in lengths)  # R2.2: among the bottom five cards
    first = new_game(3, 0)
    assert lengths[0].under == first.deck.index(R.AKHENATON)
    assert lengths == game_lengths(20)  # seeded: the same games every time


def test_summary_and_depth_tables_from_given_games():
    games = [GameLength(g) for g in [(4, 60, 0), (4, 70, 1), (4, 62, 1), (4, 80, 0), (3, 50, 2)]]
    header, rows = summary_rows(games)
    assert header == ["Players", "Games", "Average turns", "Shortest", "Middle half", "Longest"]
    assert rows == [
        ["3", "1", "50.0", "50", "50–50", "50"],
        ["4", "4", "68.0", "60", "62–80", "80"],
    ]
    header, rows = depth_rows(games)
    assert header == ["Players ↓ · cards under it →", "0", "1", "2"]
    assert rows == [["3", "–", "–", "50.0"], ["4", "70.0", "66.0", "–"]]


def test_the_view_holds_the_tables_and_a_chart():
    view = game_length_view(10, lang="de")
    assert "Züge im Mittel" in view[0].object
    assert view[3].object.title.text.startswith("Wie viele Züge 10")
