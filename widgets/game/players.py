"""The players' tableaus: Deben, seals, servants, gifts with what each type is worth now, prestige,
and the score each would have if the game ended now. All numbers are read from the engine
(``state.gift_value``, ``state.holders``, ``scoring.score_breakdown``).
"""

from __future__ import annotations

import panel as pn
import param

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.scoring import score_breakdown
from nefertiti_core.teaching.words import Words
from widgets.game.common import (
    HTML,
    PHONE_MIN_TEXT,
    esc,
    guarded,
    player_name,
    seat_kind_label,
    swatch,
)
from widgets.game.session import GameSession
from widgets.theme import (
    ACCENT,
    DECIDING_BACKGROUND,
    GOOD,
    NO_PLAYER,
    PAPER_WARM,
    PLAYER_COLOURS,
    RULE_LINE,
    SEAT_LINE,
    TEXT_NONE,
    TEXT_NOTE,
    TURN_TAG,
)

MAX_SEATS = 4
CARD_WIDTH = 228


class Players(pn.viewable.Viewer):
    """One tableau per seat; the player whose turn it is and the one who decides are marked."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(self, session: GameSession, **params):
        super().__init__(session=session, **params)
        self._title = HTML("", margin=(0, 5))
        #: One card per seat (a seat not in the game is hidden).
        self.cards = [HTML("", width=CARD_WIDTH, margin=(4, 4)) for _ in range(MAX_SEATS)]
        self._layout = pn.Column(
            self._title,
            pn.FlexBox(*self.cards, flex_wrap="wrap"),
            sizing_mode="stretch_width",
        )
        self.refresh()
        session.param.watch(self._on_change, ["version", "lang", "seats"])

    def __panel__(self):
        return self._layout

    def card_html(self, seat: int) -> str:
        """The HTML of one seat's tableau (for tests)."""
        return self.cards[seat].object

    @guarded
    def _on_change(self, *_):
        self.refresh()

    def refresh(self) -> None:
        state, lang = self.session.state, self.session.lang
        self._title.object = f"<h3 style='margin:4px 0'>{esc(tr(lang, 'panel.players.title'))}</h3>"
        for seat, pane in enumerate(self.cards):
            if seat < state.n:
                pane.object = _tableau(state, seat, lang, self.session)
                pane.visible = True
            else:
                pane.visible = False


def _row(label: str, value) -> str:
    return (
        f"<tr><td style='color:{TEXT_NOTE};padding-right:8px'>{esc(label)}</td>"
        f"<td style='text-align:right'><b>{esc(value)}</b></td></tr>"
    )


def _badge(text: str, colour: str) -> str:
    return (
        f"<span style='background:{colour};color:white;border-radius:8px;padding:0 6px;"
        f"font-size:{PHONE_MIN_TEXT.format(11)};margin-left:4px'>{esc(text)}</span>"
    )


def _gift_lines(state, seat: int, lang: str) -> list[str]:
    """The gift lines of ``seat``'s score (scoring.score_breakdown, R8, R9.1), in words."""
    w = Words(lang, state.colours)
    lines = []
    for line in score_breakdown(state, seat).gifts:
        t = R.GIFT_TYPES.index(line.gift_type)
        double = t == R.SENET and bool(state.gifts[seat][R.K_DOUBLE_SENET])
        lines.append(
            w(
                "panel.players.gift",
                count=w.count(t, line.count, double_senet=double),
                value=line.value,
                holders=w.holders(line.holders),
                points=line.points,
            )
        )
    return lines


def _tableau(state, seat: int, lang: str, session: GameSession) -> str:
    colour = state.colours[seat]
    name = player_name(lang, state.colours, seat)
    badges = ""
    if not state.is_over and seat == state.turn_player:
        badges += _badge(tr(lang, "panel.players.turn"), TURN_TAG)
    if not state.is_over and seat == state.decider:
        badges += _badge(tr(lang, "panel.players.decides"), GOOD)
    if session.is_bot(seat):
        badges += _badge(seat_kind_label(lang, session.seats[seat]), ACCENT)
    deciding = not state.is_over and seat == state.decider
    background = DECIDING_BACKGROUND if deciding else PAPER_WARM
    border = f"2px solid {GOOD}" if deciding else f"1px solid {SEAT_LINE}"
    gifts = _gift_lines(state, seat, lang)
    if gifts:
        items = "".join(f"<li>{esc(line)}</li>" for line in gifts)
        gift_html = f"<ul style='margin:2px 0 4px 0;padding-left:18px'>{items}</ul>"
    else:
        none = esc(tr(lang, "panel.players.no_gifts"))
        gift_html = f"<div style='color:{TEXT_NONE};margin:2px 0 4px 0'>{none}</div>"
    total = score_breakdown(state, seat).total
    projected = tr(
        lang, "panel.players.final" if state.is_over else "panel.players.projected", total=total
    )
    return (
        f"<div style='border:{border};border-left:6px solid {PLAYER_COLOURS.get(colour, NO_PLAYER)};"
        f"background:{background};border-radius:6px;padding:6px 8px;font-size:{PHONE_MIN_TEXT.format(13)}'>"
        f"<div style='font-size:15px;margin-bottom:3px'>{swatch(colour)}<b>{esc(name)}</b>"
        f"{badges}</div>"
        "<table style='border-collapse:collapse;width:100%'>"
        + _row(tr(lang, "panel.players.deben"), state.deben[seat])
        + _row(tr(lang, "panel.players.seals"), state.seals[seat])
        + _row(tr(lang, "panel.players.servants"), state.hand[seat])
        + _row(tr(lang, "panel.players.prestige"), state.prestige[seat])
        + "</table>"
        f"<div style='margin-top:4px;color:{TEXT_NOTE}'>{esc(tr(lang, 'panel.players.gifts'))}</div>"
        + gift_html
        + f"<div style='border-top:1px solid {RULE_LINE};padding-top:3px'><b>{esc(projected)}</b></div>"
        "</div>"
    )
