"""How long a game lasts: random games played by the engine, counted and drawn.

The length of a game depends on where the Akhenaton card lies among the bottom five cards of the
deck (R2.2, R6.8, R7.1). These games are played by random bots (``nefertiti_core.play.simulate``), not
by people, so the figures are a rough guide; the statistics peek at the deck, which nobody at a
real table can do (R12).

    from widgets.lesson.game_length import game_lengths, game_length_view
    game_lengths(300)          # one row per game: players, turns, cards under the Akhenaton card
    game_length_view(300)      # a summary table, turns by the card's depth, and a bar chart
"""

from __future__ import annotations

import random
from statistics import mean

import panel as pn
from bokeh.plotting import figure

from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.play.simulate import play_random
from widgets.lesson.language import in_lesson_language
from widgets.lesson.pieces import html_table
from widgets.theme import NO_PLAYER
from widgets.theme import PLAYER_COLOURS as SEAT_COLOURS

__all__ = ["GameLength", "game_length_view", "game_lengths", "summary_rows", "depth_rows"]

PLAYER_COLOURS = {3: SEAT_COLOURS["red"], 4: SEAT_COLOURS["blue"]}


class GameLength(tuple):
    """One game: (players, turns, cards under the Akhenaton card at the start)."""

    players = property(lambda self: self[0])
    turns = property(lambda self: self[1])
    under = property(lambda self: self[2])


def game_lengths(games: int = 300, players: tuple[int, ...] = (3, 4)) -> list[GameLength]:
    """``games`` random games for each number of ``players`` (seeds 0 … games-1): how many turns
    each lasted and how many cards lay under the Akhenaton card when it started (0: it was the
    very last card)."""
    rows = []
    for n in players:
        for seed in range(games):
            game = new_game(n, seed)
            under = game.deck.index(R.AKHENATON)  # the deck's top is the end of the list
            play_random(game, random.Random(seed))
            rows.append(GameLength((n, game.turn_no, under)))
    return rows


def _quartiles(values: list[int]) -> tuple[int, int]:
    ordered = sorted(values)
    return ordered[len(ordered) // 4], ordered[(3 * len(ordered)) // 4]


@in_lesson_language
def summary_rows(
    lengths: list[GameLength], lang: str | None = None
) -> tuple[list[str], list[list[str]]]:
    """Header and rows: per number of players, the games, the average, shortest and longest game
    and the middle half (from the first to the third quartile), in turns."""
    header = [
        tr(lang, f"length.{key}")
        for key in ("players", "games", "mean", "shortest", "middle", "longest")
    ]
    rows = []
    for n in sorted({g.players for g in lengths}):
        turns = [g.turns for g in lengths if g.players == n]
        low, high = _quartiles(turns)
        rows.append(
            [
                str(n),
                str(len(turns)),
                f"{mean(turns):.1f}",
                str(min(turns)),
                f"{low}–{high}",
                str(max(turns)),
            ]
        )
    return header, rows


@in_lesson_language
def depth_rows(
    lengths: list[GameLength], lang: str | None = None
) -> tuple[list[str], list[list[str]]]:
    """Header and rows: per number of players, the average turns for each number of cards that
    lay under the Akhenaton card at the start."""
    depths = sorted({g.under for g in lengths})
    header = [tr(lang, "length.depth_header")] + [str(d) for d in depths]
    rows = []
    for n in sorted({g.players for g in lengths}):
        row = [str(n)]
        for d in depths:
            turns = [g.turns for g in lengths if g.players == n and g.under == d]
            row.append(f"{mean(turns):.1f}" if turns else "–")
        rows.append(row)
    return header, rows


def _chart(lengths: list[GameLength], games: int, lang: str, width: int):
    chart = figure(
        height=260,
        width=width,
        x_axis_label=tr(lang, "length.turns"),
        y_axis_label=tr(lang, "length.count"),
        toolbar_location=None,
    )
    chart.title.text = tr(lang, "length.title", games=games)
    for n in sorted({g.players for g in lengths}):
        counts: dict[int, int] = {}
        for g in lengths:
            if g.players == n:
                counts[g.turns] = counts.get(g.turns, 0) + 1
        xs = sorted(counts)
        chart.vbar(
            x=xs,
            top=[counts[x] for x in xs],
            width=0.8,
            alpha=0.6,
            color=PLAYER_COLOURS.get(n, NO_PLAYER),
            legend_label=tr(lang, "length.legend", players=n),
        )
    return chart


@in_lesson_language
def game_length_view(games: int = 300, lang: str | None = None, width: int = 620) -> pn.Column:
    """The summary table, the average length by the Akhenaton card's depth, and a bar chart of
    how many games lasted how many turns."""
    lengths = game_lengths(games)
    return pn.Column(
        pn.pane.HTML(html_table(*summary_rows(lengths, lang), lang)),
        pn.pane.Markdown(f"**{tr(lang, 'length.under')}**"),
        pn.pane.HTML(html_table(*depth_rows(lengths, lang), lang)),
        pn.pane.Bokeh(_chart(lengths, games, lang, width)),
        sizing_mode="stretch_width",
    )
