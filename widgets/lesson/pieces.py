"""The game's pieces as tables a lesson shows: the gift cards in the box, the character piles, the
stalls' squares and the shapes that close them.

Every figure is read from the engine (``nefertiti_core.engine.rules`` and, for what a game puts in
play, a game the engine sets up), so a table can never disagree with the rules it shows. Each
table comes in two forms: the plain rows (lists of strings, for tests and other views) and a
Panel pane (an HTML table, which also shows in Voilà).

    from widgets.lesson.pieces import box_contents, character_piles, stalls_table, stall_groups
    box_contents()                 # gift cards in the box and in play with 4 and with 3 players
    character_piles()              # the seven piles at setup, for 4 and for 3 players
    stalls_table(["gizeh"])        # Gizeh's two stalls, row by row, with the rule that closes each
    stall_groups("gizeh", "left")  # which squares of the pyramid touch (the project's reading)
"""

from __future__ import annotations

import html

import panel as pn

from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from widgets.game.rules_view import link_rule_ids
from widgets.lesson.language import in_lesson_language
from widgets.theme import TABLE_LINE

__all__ = [
    "box_contents",
    "box_rows",
    "character_piles",
    "group_rows",
    "html_table",
    "pile_rows",
    "stall_groups",
    "stall_label",
    "stall_rows",
    "stalls_table",
]

_TABLE_CSS = (
    "border-collapse:collapse;font-size:14px;margin:4px 0;"
    "font-family:system-ui,-apple-system,'Segoe UI','Noto Sans','Noto Sans CJK SC',sans-serif"
)
_CELL = f"border-bottom:1px solid {TABLE_LINE};padding:4px 10px;text-align:left;vertical-align:top"


@in_lesson_language
def html_table(header: list[str], rows: list[list[str]], lang: str | None = None) -> str:
    """Rows as an HTML table (every cell escaped; rule IDs become links to their text)."""
    head = "".join(f"<th style='{_CELL}'>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td style='{_CELL}'>{html.escape(str(c))}</td>" for c in row) + "</tr>"
        for row in rows
    )
    table = (
        f'<table style="{_TABLE_CSS}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    )
    return link_rule_ids(table, lang)


def _pane(header: list[str], rows: list[list[str]], lang: str) -> pn.pane.HTML:
    return pn.pane.HTML(html_table(header, rows, lang), sizing_mode="stretch_width")


def _market(name_or_index: str | int) -> int:
    return name_or_index if isinstance(name_or_index, int) else R.MARKETS.index(name_or_index)


def _side(name_or_index: str | int) -> int:
    return name_or_index if isinstance(name_or_index, int) else R.SIDES.index(name_or_index)


@in_lesson_language
def stall_label(stall: R.Stall, lang: str | None = None) -> str:
    """ "Gizeh's left stall" (in the language asked)."""
    market = tr(lang, f"market.{R.MARKETS[stall.market]}")
    return tr(lang, "stall.name", market=market, side=tr(lang, f"side.{R.SIDES[stall.side]}"))


# ------------------------------------------------------------------------------ gift cards
def _gifts_in_play(players: int) -> list[int]:
    """How many cards of each kind a game of ``players`` puts in play (a game the engine sets up:
    the markets' cards and the deck, the Akhenaton card left out)."""
    game = new_game(players, seed=0)
    cards = [c for market in game.cards for c in market if c >= 0] + list(game.deck)
    return [sum(1 for c in cards if c == kind) for kind in range(R.NUM_KINDS)]


@in_lesson_language
def box_rows(lang: str | None = None) -> tuple[list[str], list[list[str]]]:
    """Header and rows: each kind of gift card, how many are in the box and in play with 4 and
    with 3 players (R2.1), and a last row with the totals."""
    counts = {players: _gifts_in_play(players) for players in (4, 3)}
    header = [tr(lang, "pieces.box.kind"), tr(lang, "pieces.box.in_box")] + [
        tr(lang, "pieces.box.in_play", players=players) for players in counts
    ]
    rows = [
        [tr(lang, f"card.{name}"), str(R.CARDS_PER_KIND[kind])]
        + [str(counts[players][kind]) for players in counts]
        for kind, name in enumerate(R.CARD_KINDS)
    ]
    rows.append(
        [tr(lang, "pieces.box.total"), str(sum(R.CARDS_PER_KIND))]
        + [str(sum(counts[players])) for players in counts]
    )
    return header, rows


@in_lesson_language
def box_contents(lang: str | None = None) -> pn.pane.HTML:
    """The gift cards as a table (R2.1)."""
    return _pane(*box_rows(lang), lang)


# ------------------------------------------------------------------------------ characters
@in_lesson_language
def pile_rows(lang: str | None = None) -> tuple[list[str], list[list[str]]]:
    """Header and rows: each character pile at setup, top card first, for 4 and 3 players
    (R2.3; the engine's ``starting_piles``)."""
    piles = {players: R.starting_piles(players) for players in (4, 3)}
    header = [tr(lang, "pieces.piles.pile")] + [
        tr(lang, "pieces.piles.cards", players=players) for players in piles
    ]
    rows = [
        [tr(lang, f"pile.{pile}")]
        + [
            tr(lang, "status.list.sep").join(
                tr(lang, f"character.{R.CHARACTER_CARDS[card]}") for card in piles[n][i]
            )
            for n in piles
        ]
        for i, pile in enumerate(R.PILES)
    ]
    return header, rows


@in_lesson_language
def character_piles(lang: str | None = None) -> pn.pane.HTML:
    """The character piles at setup as a table (R2.3)."""
    return _pane(*pile_rows(lang), lang)


# ------------------------------------------------------------------------------ stalls
def _square_text(square: R.Square) -> str:
    return f"{square.value}{square.symbol}"


def squares_by_row(stall: R.Stall) -> str:
    """A stall's squares as printed, rows top to bottom: ``"1 / 2 3 / 4D 5 6 / 7"`` (D a Deben
    square, S a single-card square, X an extra-card square: the board's marks)."""
    rows = sorted({square.row for square in stall.squares})
    return " / ".join(
        " ".join(_square_text(sq) for sq in stall.squares if sq.row == row) for row in rows
    )


@in_lesson_language
def stall_rows(
    markets: list[str] | None = None, lang: str | None = None
) -> tuple[list[str], list[list[str]]]:
    """Header and rows: each stall of ``markets`` (all four by default), its squares row by row
    and the rule that closes it (R3.1–R3.8)."""
    wanted = [_market(m) for m in markets] if markets else list(range(len(R.MARKETS)))
    header = [
        tr(lang, "pieces.stalls.stall"),
        tr(lang, "pieces.stalls.squares"),
        tr(lang, "pieces.stalls.closes"),
    ]
    rows = [
        [stall_label(stall, lang), squares_by_row(stall), stall.rule_id]
        for stall in R.STALLS
        if stall.market in wanted
    ]
    return header, rows


@in_lesson_language
def stalls_table(markets: list[str] | None = None, lang: str | None = None) -> pn.pane.HTML:
    """The stalls of ``markets`` (all by default) as a table."""
    return _pane(*stall_rows(markets, lang), lang)


@in_lesson_language
def group_rows(market: str | int, side: str | int, lang: str | None = None) -> list[str]:
    """The shapes that decide a stall, by square value, one line each: the touching pairs of
    Gizeh's pyramid (R3.1, the project's reading), the levels of Akhet-Aton's left stall (R3.3),
    the lines of its grid (R3.4). A stall decided otherwise (by colours, sums or dice) has
    none: an empty list."""
    stall = R.stall_of(_market(market), _side(side))

    def values(indices) -> str:
        return " ".join(_square_text(stall.squares[i]) for i in indices)

    if stall.rule == R.CONNECTED4:
        pairs = tr(lang, "status.list.sep").join(
            "–".join(_square_text(stall.squares[i]) for i in pair) for pair in stall.groups
        )
        return [f"{tr(lang, 'pieces.groups.touch')} {pairs}"]
    if stall.rule == R.ALL_LEVELS:
        return [
            f"{tr(lang, 'pieces.groups.level', number=n)} {values(level)}"
            for n, level in enumerate(stall.groups, start=1)
        ]
    if stall.rule == R.LINE3:
        lines = " · ".join(values(line) for line in stall.groups)
        return [f"{tr(lang, 'pieces.groups.line')} {lines}"]
    return []


@in_lesson_language
def stall_groups(market: str | int, side: str | int, lang: str | None = None) -> pn.pane.HTML:
    """:func:`group_rows` as a short list."""
    items = "".join(f"<li>{html.escape(line)}</li>" for line in group_rows(market, side, lang))
    return pn.pane.HTML(
        f"<ul style='margin:2px 0;font-size:14px'>{items}</ul>", sizing_mode="stretch_width"
    )
