"""The board in words, piece by piece: what a screen reader says for one square, one market, one
player and the last step (the keyboard board, ``widgets/game/board_keys.py``, and the board's
text view, ``widgets/game/board_text.py``, read these).

A square's words name it as the decision panel does (market, stall, value and mark), then who
stands there or that it is empty, and whether the deciding player may place there now (the
engine's legal options; with hints on, also whether that placement closes the market, from
:func:`.status.stall_status`). A market's words are its visible stall, its reserve and cards, the
servants on it and its closing status (:func:`.status.describe_status`, as the board's hint
says); a player's are :mod:`.textview`'s line. Every word comes from the message catalogs
(``messages/<lang>/board_words.json`` and ``view.json``). Standard library only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine import options as O
from ..engine import rules as R
from ..engine.i18n import tr
from ..engine.squares import square_name
from ..engine.state import OPEN
from .explain import describe_option
from .status import describe_status, stall_status
from .textview import position_text  # noqa: F401 (the whole position, for the same readers)

if TYPE_CHECKING:
    from ..engine.state import GameState


def _colour(state: GameState, seat: int, lang: str) -> str:
    return tr(lang, f"colour.{state.colours[seat]}")


def _seat(state: GameState) -> int:
    """Whose placement the words are about: the decider (the turn's player between decisions)."""
    return state.decider if state.decider >= 0 else state.turn_player


def square_words(
    state: GameState,
    market: int,
    index: int,
    lang: str = "en",
    hints: bool = True,
    closing: dict[int, frozenset[int]] | None = None,
) -> str:
    """One square of ``market``'s visible stall in a sentence (see the module's doc).
    ``closing``: per market, the squares that would close it (computed here when not given)."""
    option = O.place_id(market, state.side[market], index)
    name = describe_option(state, option, lang, short=True)
    if state.status[market] != OPEN:
        return tr(lang, "keys.square.closed", square=name)
    owner = state.owners[market][index]
    if owner >= 0:
        return tr(lang, "keys.square.servant", square=name, player=_colour(state, owner, lang))
    if state.is_over or option not in state.legal_options():
        return tr(lang, "keys.square.empty", square=name)
    seat = _seat(state)
    if closing is None:
        closing = {market: frozenset(stall_status(state, market, seat).would_close)}
    closes = hints and index in closing[market]
    key = "keys.square.place_closes" if closes else "keys.square.place"
    return tr(lang, key, square=name, player=_colour(state, seat, lang))


def all_square_words(state: GameState, lang: str = "en", hints: bool = True) -> dict:
    """Every visible square's words, by (market, square index); each market's status once."""
    seat = _seat(state)
    closing = {
        m: frozenset(stall_status(state, m, seat).would_close) if hints else frozenset()
        for m in range(len(R.MARKETS))
    }
    return {
        (m, sq.index): square_words(state, m, sq.index, lang, hints, closing)
        for m in range(len(R.MARKETS))
        for sq in state.visible_stall(m).squares
    }


def market_title(state: GameState, market: int, lang: str = "en") -> str:
    """The market's name and its visible stall ("Gizeh — left")."""
    side = tr(lang, f"side.{R.SIDES[state.side[market]]}")
    return f"{tr(lang, f'market.{R.MARKETS[market]}')} — {side}"


def row_words(state: GameState, market: int, row: int, lang: str = "en") -> str:
    """A row of a market's visible stall, as the keyboard board names it (rows from 1)."""
    return tr(lang, "keys.row", market=tr(lang, f"market.{R.MARKETS[market]}"), row=row + 1)


def _card(kind: int, lang: str) -> str:
    return tr(lang, f"card.{R.CARD_KINDS[kind]}") if kind >= 0 else "—"


def market_words(state: GameState, market: int, lang: str = "en", hints: bool = True) -> list[str]:
    """A market in sentences: stall and reserve, cards, who stands where and (``hints``: as the
    board's hint, which a lesson turns off so as not to answer its question) how close it is to
    closing."""
    name = R.MARKETS[market]
    lines = [
        tr(
            lang,
            "view.market",
            market=tr(lang, f"market.{name}"),
            side=tr(lang, f"side.{R.SIDES[state.side[market]]}"),
            reserve=state.reserve[market],
        )
    ]
    cards = state.cards[market]
    seal = tr(lang, "view.with_seal") if state.seal_on_upper[market] else ""
    lines.append(
        tr(
            lang,
            "view.cards",
            upper=_card(cards[0], lang) + seal,
            lower=tr(lang, "status.list.sep").join(_card(c, lang) for c in cards[1:]),
        )
    )
    if state.status[market] == OPEN:
        stall = state.visible_stall(market)
        standing = []
        for sq in stall.squares:
            owner = state.owners[market][sq.index]
            if owner >= 0:
                where = square_name(stall, sq.index, lang, marked=True)
                standing.append(
                    tr(lang, "text.servant", player=_colour(state, owner, lang), square=where)
                )
        if standing:
            lines.append(
                tr(lang, "text.servants", servants=tr(lang, "text.list_sep").join(standing))
            )
        else:
            lines.append(tr(lang, "text.no_servants"))
    if hints:
        status = stall_status(state, market, _seat(state))
        lines.append(describe_status(status, state.colours, lang))
    return lines


def player_words(state: GameState, seat: int, lang: str = "en") -> str:
    """A player's Deben, seals, servants in hand, prestige and gifts (textview's line)."""
    parts = []
    for kind, count in enumerate(state.gifts[seat]):
        if count:
            parts.append(f"{count} × {tr(lang, f'card.{R.CARD_KINDS[kind]}')}")
    return tr(
        lang,
        "view.player",
        player=_colour(state, seat, lang),
        deben=state.deben[seat],
        seals=state.seals[seat],
        servants=state.hand[seat],
        prestige=state.prestige[seat],
        gifts=tr(lang, "status.list.sep").join(parts) if parts else tr(lang, "view.none"),
    )


def who_decides(state: GameState, lang: str = "en") -> str:
    """Whose decision it is now (or that the game is over)."""
    if state.is_over:
        return tr(lang, "view.game_over", turn=state.turn_no)
    return tr(
        lang,
        "text.decider",
        turn=state.turn_no,
        player=_colour(state, state.decider, lang),
        turn_player=_colour(state, state.turn_player, lang),
    )
