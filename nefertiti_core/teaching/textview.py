"""The position in plain text, for ``nefertiti explain`` and for notebooks without a board.

Everything a learner needs to read a position: who must decide and between what (each option
with its preview), the players' pieces, each market's stall drawn square by square with its
closing status in words, the characters left, the deck (its size only: its order is hidden,
R12) and the scores as if the game ended now. Every label comes from the message catalogs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine import rules as R
from ..engine.i18n import tr
from ..engine.scoring import score_breakdown

if TYPE_CHECKING:
    from ..engine.state import GameState


def _colour(state: GameState, seat: int, lang: str) -> str:
    return tr(lang, f"colour.{state.colours[seat]}")


def _gifts(state: GameState, seat: int, lang: str) -> str:
    parts = []
    for kind, count in enumerate(state.gifts[seat]):
        if count:
            parts.append(f"{count} × {tr(lang, f'card.{R.CARD_KINDS[kind]}')}")
    return tr(lang, "status.list.sep").join(parts) if parts else tr(lang, "view.none")


def _card(kind: int, lang: str) -> str:
    return tr(lang, f"card.{R.CARD_KINDS[kind]}") if kind >= 0 else "—"


def stall_lines(state: GameState, market: int, lang: str = "en") -> list[str]:
    """The visible stall square by square: ``[5 red]``, ``[4D ·]``; rows as on the board."""
    stall = state.visible_stall(market)
    rows: dict[int, list[str]] = {}
    for sq in stall.squares:
        owner = state.owners[market][sq.index]
        who = tr(lang, f"colour.{state.colours[owner]}") if owner >= 0 else "·"
        rows.setdefault(sq.row, []).append(f"[#{sq.index} {sq.value}{sq.symbol} {who}]")
    return ["    " + " ".join(cells) for _, cells in sorted(rows.items())]


def position_text(
    state: GameState, lang: str = "en", previews: bool = True, notation: bool = False
) -> str:
    """The whole position as text (see the module docstring). Each option is named in words
    only ("Discard a chair"), as a learner reads it; ``notation``: its move notation first too
    ("discard chair — Discard a chair"), for the command line, where options are typed so."""
    from .explain import describe_option
    from .status import describe_preview, describe_status, preview, stall_status

    out: list[str] = []
    if state.is_over:
        out.append(tr(lang, "view.game_over", turn=state.turn_no))
    else:
        out.append(
            tr(
                lang,
                "view.to_decide",
                turn=state.turn_no,
                player=_colour(state, state.decider, lang),
                turn_player=_colour(state, state.turn_player, lang),
            )
        )
        out.append(tr(lang, "view.options"))
        for number, option in enumerate(state.legal_options(), 1):
            words = describe_option(state, option, lang)
            if notation:
                words = f"{state.option_text(option)} — {words}"
            line = f"  {number:>2}. {words}"
            if previews:
                line += f" → {describe_preview(preview(state, option), state, lang)}"
            out.append(line)
    out.append("")
    out.append(tr(lang, "view.players"))
    for p in range(state.n):
        out.append(
            "  "
            + tr(
                lang,
                "view.player",
                player=_colour(state, p, lang),
                deben=state.deben[p],
                seals=state.seals[p],
                servants=state.hand[p],
                prestige=state.prestige[p],
                gifts=_gifts(state, p, lang),
            )
        )
    out.append("")
    out.append(tr(lang, "view.markets"))
    for m, name in enumerate(R.MARKETS):
        cards = state.cards[m]
        out.append(
            "  "
            + tr(
                lang,
                "view.market",
                market=tr(lang, f"market.{name}"),
                side=tr(lang, f"side.{R.SIDES[state.side[m]]}"),
                reserve=state.reserve[m],
            )
        )
        seal = tr(lang, "view.with_seal") if state.seal_on_upper[m] else ""
        out.append(
            "    "
            + tr(
                lang,
                "view.cards",
                upper=_card(cards[0], lang) + seal,
                lower=tr(lang, "status.list.sep").join(_card(c, lang) for c in cards[1:]),
            )
        )
        if state.status[m] == 0:
            out.extend(stall_lines(state, m, lang))
        seat = state.turn_player if state.decider < 0 else state.decider
        out.append("    " + describe_status(stall_status(state, m, seat), state.colours, lang))
    out.append("")
    piles = []
    for cards in state.piles:
        if cards:
            top = tr(lang, f"character.{R.CHARACTER_CARDS[cards[0]]}")
            piles.append(tr(lang, "bracket.after", text=top, note=len(cards)))
    out.append(
        tr(
            lang,
            "view.characters",
            piles=tr(lang, "status.list.sep").join(piles) or tr(lang, "view.none"),
        )
    )
    gifts_left = sum(1 for c in state.deck if c != R.AKHENATON)
    key = "view.deck_drawn" if state.akhenaton_drawn else "view.deck"
    out.append(tr(lang, key, cards=gifts_left))
    if state.holder >= 0:
        dice = "-".join(map(str, state.last_roll)) or "?"
        out.append(tr(lang, "view.dice", player=_colour(state, state.holder, lang), dice=dice))
    out.append("")
    out.append(tr(lang, "view.scores_now" if not state.is_over else "view.scores_final"))
    for p in range(state.n):
        b = score_breakdown(state, p)
        out.append(
            "  "
            + tr(
                lang,
                "view.score",
                player=_colour(state, p, lang),
                total=b.total,
                prestige=b.prestige,
                gifts=b.gift_points,
                deben=b.deben_points,
                seals=b.seal_points,
            )
        )
    return "\n".join(out)
