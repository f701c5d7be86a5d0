"""How a game starts, side by side: two games the engine has just set up (4 and 3 players, or
the first-game layout and a random one), with what differs between them read from the games.

Nothing here decides a rule: the engine sets the games up (R2) and the tables only count what
lies on the table.

    from widgets.lesson.setup_view import compare_setups, compare_layouts
    compare_setups(seed=5)      # a table of a 4- and a 3-player game's setup, and both boards
    compare_layouts(seed=9)     # the first-game position beside a random layout
"""

from __future__ import annotations

import panel as pn

from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.exercises import scenario_path
from nefertiti_core.files.scenario import load
from widgets.game.board import Board
from widgets.game.common import colour_name
from widgets.game.session import GameSession
from widgets.lesson.language import in_lesson_language
from widgets.lesson.pieces import html_table

__all__ = ["compare_layouts", "compare_setups", "layout_rows", "setup_facts"]


@in_lesson_language
def setup_facts(state, lang: str | None = None) -> dict[str, str]:
    """What a freshly set-up game puts on the table, counted from the state: gift cards in play
    and the senets among them (R2.1), character cards and the Scribe pile (R2.3), the first
    player (R2.7), the starting purses from the first player round the table (R2.6) and the
    Deben in play (purses and reserves, R2.5, R12)."""
    cards = [card for market in state.cards for card in market if card >= 0]
    gifts = cards + [card for card in state.deck if card != R.AKHENATON]
    seats = [(state.turn_player + k) % state.n for k in range(state.n)]
    scribes = state.piles[R.SCRIBE]
    return {
        tr(lang, "setup.table.gifts"): str(len(gifts)),
        tr(lang, "setup.table.senets"): str(sum(R.KIND_TYPE[c] == R.SENET for c in gifts)),
        tr(lang, "setup.table.characters"): str(sum(len(pile) for pile in state.piles)),
        tr(lang, "setup.table.scribes"): tr(lang, "status.list.sep").join(
            tr(lang, f"character.{R.CHARACTER_CARDS[c]}") for c in scribes
        ),
        tr(lang, "setup.table.first"): colour_name(lang, state.colours[state.turn_player]),
        tr(lang, "setup.table.purses"): " / ".join(str(state.deben[s]) for s in seats),
        tr(lang, "setup.table.deben"): str(sum(state.deben) + sum(state.reserve)),
    }


def _facts_table(states: dict[str, object], lang: str) -> str:
    facts = {label: setup_facts(state, lang) for label, state in states.items()}
    keys = list(next(iter(facts.values())))
    rows = [[key] + [facts[label][key] for label in facts] for key in keys]
    return html_table([""] + list(facts), rows, lang)


@in_lesson_language
def compare_setups(seed: int = 5, lang: str | None = None, width: int = 450) -> pn.Column:
    """A 4-player and a 3-player game set up by the engine with the same seed: a table of what
    differs, then both boards side by side (live: a learner may play on them)."""
    games = {
        tr(lang, "setup.table.game", players=n): GameSession(new_game(n, seed=seed), lang=lang)
        for n in (4, 3)
    }
    table = _facts_table({label: s.state for label, s in games.items()}, lang)
    boards = pn.FlexBox(
        *(
            pn.Column(f"### {label}", Board(session, width=width, keys=True), width=width + 20)
            for label, session in games.items()
        ),
        flex_wrap="wrap",
        sizing_mode="stretch_width",
    )
    return pn.Column(pn.pane.HTML(table), boards, sizing_mode="stretch_width")


@in_lesson_language
def layout_rows(
    states: dict[str, object], lang: str | None = None
) -> tuple[list[str], list[list[str]]]:
    """Header and rows: for each market, the stall each game shows (R2.8), or that it is closed
    under the Market Closed tile (R2)."""
    header = [tr(lang, "setup.table.market")] + [
        tr(lang, "setup.table.shows", game=label) for label in states
    ]
    rows = []
    for market, name in enumerate(R.MARKETS):
        row = [tr(lang, f"market.{name}")]
        for state in states.values():
            side = tr(lang, f"side.{R.SIDES[state.side[market]]}")
            shown = tr(lang, "stall.name", market=row[0], side=side)
            if market not in state.open_markets():
                shown = tr(lang, "bracket.after", text=shown, note=tr(lang, "setup.table.closed"))
            row.append(shown)
        rows.append(row)
    return header, rows


@in_lesson_language
def compare_layouts(
    first_game="first-game", seed: int = 9, lang: str | None = None, width: int = 620
) -> pn.Column:
    """A random layout's board (seed ``seed``), and a table of which stall each market shows in
    it and in ``first_game``: a position file's name (the first game's by default), a state, or
    a Lesson (its board's state)."""
    if isinstance(first_game, str):
        state = load(scenario_path(first_game)).state
    else:
        state = getattr(getattr(first_game, "session", None), "state", first_game)
    session = GameSession(new_game(4, seed=seed, layout="random"), lang=lang)
    games = {
        tr(lang, "setup.table.first_game"): state,
        tr(lang, "setup.table.random", seed=seed): session.state,
    }
    header, rows = layout_rows(games, lang)
    return pn.Column(
        Board(session, width=width, keys=True),  # played on: the keyboard grid too
        pn.pane.HTML(html_table(header, rows, lang)),
        sizing_mode="stretch_width",
    )
