"""What a room reads from the projector, above the board: who decides now and why (in the
decider's colour), Undo and Redo, the last step in one line of words (a person's, a bot's, and
the single-option steps the engine took by itself), and a loaded position's title and teaching
note.

Every word is the engine's: why the decider decides (the decision panel's reading of the phase),
each step through ``nefertiti_core.files.announce`` (the events the step logged, worded by
``explain.describe_event``). Computed on ``version`` (after the board's update has left, so a
click on the board never waits for these words).
"""

from __future__ import annotations

import panel as pn
import param

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.announce import last_step
from nefertiti_core.teaching.explain import why_deciding, winner_line
from widgets.game.common import HTML, esc, guarded, player_name, seat_kind_label, swatch
from widgets.game.rules_view import link_rule_ids
from widgets.game.session import GameSession
from widgets.theme import (
    ACCENT,
    CARD_LABEL,
    FORCED_TAG,
    INK,
    LABEL,
    NO_PLAYER,
    NO_PLAYER_SEAL,
    ON_COLOUR,
    PAPER,
    PLAYER_COLOURS,
    PROJECTOR_CARD,
    PROJECTOR_CARD_LINE,
)

BANNER_PX = 96  # who decides (one line) and why (up to three lines at 1024 pixels)
LAST_PX = 80  # the last step and its single-option steps: four lines
#: The banner's and the last step's heights, as CSS: fixed (a projector's board does not jump
#: from one step to the next) unless the page says otherwise. A served page on a phone's width
#: lets them take the height their words need (widgets.game.common.PHONE_READY_PAGE sets the
#: variables to ``auto``): fixed, the empty last step left a blank band above the board there.
BANNER_HEIGHT = f"var(--nefertiti-banner-height, {BANNER_PX}px)"
LAST_HEIGHT = f"var(--nefertiti-last-height, {LAST_PX}px)"
#: On a phone's width Undo and Redo go under the banner instead of squeezing it.
PHONE_ROW_CSS = "@media (max-width: 600px) { :host { flex-wrap: wrap !important; } }"
PHONE_BANNER_CSS = (
    "@media (max-width: 600px) { :host { flex-basis: calc(100% - 10px) !important; } }"
)


def _tint(colour: str) -> str:
    return PLAYER_COLOURS.get(colour, NO_PLAYER)


def banner_html(session: GameSession) -> str:
    """Who decides and why, large, with the decider's colour as a bar on the left."""
    state, lang = session.state, session.lang
    if state.is_over:
        head = tr(lang, "panel.decision.over")
        return (
            f"<div class='nefertiti-banner' style='border-left:10px solid {NO_PLAYER_SEAL};"
            f"padding:3px 10px;background:{PAPER};min-height:84px;box-sizing:border-box'>"
            f"<div style='font-size:21px;font-weight:700;color:{INK}'>{esc(head)}</div>"
            f"<div style='font-size:16px'>{esc(winner_line(state, lang))}</div></div>"
        )
    decider = state.decider
    colour = state.colours[decider]
    who = tr(lang, "panel.decision.decides", player=player_name(lang, state.colours, decider))
    if session.is_bot(decider):
        who += " · " + seat_kind_label(lang, session.seats[decider])
    why = why_deciding(state, lang)
    return (
        f"<div class='nefertiti-banner' data-colour='{esc(colour)}' "
        f"style='border-left:10px solid {_tint(colour)};padding:3px 10px;background:{PAPER};min-height:84px;box-sizing:border-box'>"
        f"<div style='font-size:21px;font-weight:700;color:{_tint(colour)}'>"
        f"{swatch(colour, 18)}{esc(who)}</div>"
        f"<div class='nefertiti-why' style='font-size:15px;line-height:1.3'>{esc(why)}</div>"
        "</div>"
    )


def last_move_html(session: GameSession) -> str:
    """The last step in words: who, what (and, marked, each single-option step that followed);
    empty at the start of a game."""
    history, lang = session.history, session.lang
    words = last_step(history, lang)
    if words is None:
        return ""
    colours = session.state.colours
    label = esc(tr(lang, "projector.last"))
    parts = [
        f"<span style='color:{LABEL};font-weight:600;margin-right:6px'>{label}</span>",
    ]
    if 0 <= words.seat < len(colours):
        parts.append(swatch(colours[words.seat], 14))
        if session.is_bot(words.seat):
            parts.append(_tag(tr(lang, "projector.bot_tag"), ACCENT))
    parts.append(f"<span class='nefertiti-last-text'>{esc(words.text)}</span>")
    for text, seat in zip(words.forced, words.forced_seats, strict=True):
        dot = swatch(colours[seat], 12) if 0 <= seat < len(colours) else ""
        parts.append(
            "<div class='nefertiti-forced' style='margin-top:2px'>"
            + _tag(tr(lang, "projector.forced"), FORCED_TAG)
            + f"{dot}{esc(text)}</div>"
        )
    return (
        "<div class='nefertiti-last' style='font-size:14px;line-height:1.3;padding:2px 10px'>"
        + "".join(parts)
        + "</div>"
    )


def _tag(text: str, colour: str) -> str:
    return (
        f"<span style='background:{colour};color:{ON_COLOUR};border-radius:4px;padding:0 6px;"
        f"font-size:12px;margin-right:6px'>{esc(text)}</span>"
    )


class ProjectorBar(pn.viewable.Viewer):
    """The banner, Undo and Redo beside it, and the last step: the line above the board."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(self, session: GameSession, buttons: bool = True, **params):
        """``buttons``: Undo and Redo beside the banner (False: the words only, for a view that
        changes nothing, such as a classroom's projector)."""
        super().__init__(session=session, **params)
        # Both keep their height whatever they say (a longer text scrolls inside): the board
        # below them does not jump in size from one step to the next.
        self._banner = HTML(
            "",
            sizing_mode="stretch_width",
            margin=(4, 5),
            styles={"overflow-y": "auto", "height": BANNER_HEIGHT},
            stylesheets=[PHONE_BANNER_CSS],
        )
        self._last = HTML(
            "",
            sizing_mode="stretch_width",
            margin=(0, 5),
            styles={"overflow-y": "auto", "height": LAST_HEIGHT},
        )
        self.undo_button = pn.widgets.Button(
            color="primary", width=96, height=40, margin=(6, 4), css_classes=["nefertiti-undo"]
        )
        self.redo_button = pn.widgets.Button(
            color="primary",
            variant="outline",
            width=96,
            height=40,
            margin=(6, 4),
            css_classes=["nefertiti-redo"],
        )
        self.undo_button.on_click(self._on_undo)
        self.redo_button.on_click(self._on_redo)
        shown = (self.undo_button, self.redo_button) if buttons else ()
        self._layout = pn.Column(
            pn.Row(self._banner, *shown, sizing_mode="stretch_width", stylesheets=[PHONE_ROW_CSS]),
            self._last,
            sizing_mode="stretch_width",
            margin=0,
        )
        self.refresh()
        session.param.watch(self._on_change, ["version", "lang", "seats"])

    def __panel__(self):
        return self._layout

    # for tests
    @property
    def banner(self) -> str:
        return self._banner.object

    @property
    def last_move(self) -> str:
        return self._last.object

    @guarded
    def _on_change(self, *_):
        self.refresh()

    def refresh(self) -> None:
        session, lang = self.session, self.session.lang
        self._banner.object = link_rule_ids(banner_html(session), lang)
        self._last.object = link_rule_ids(last_move_html(session), lang)
        self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        """Undo and Redo: their words and whether there is a step to undo or redo (only what
        changed is set: most moves change neither)."""
        lang, history = self.session.lang, self.session.history
        for button, name, disabled in (
            (self.undo_button, "\u21b6 " + tr(lang, "panel.timeline.undo"), not history.can_undo),
            (self.redo_button, tr(lang, "panel.timeline.redo") + " \u21b7", not history.can_redo),
        ):
            if button.name != name or button.disabled != disabled:
                button.param.update(name=name, disabled=disabled)

    @guarded
    def _on_undo(self, *_):
        self.session.undo()

    @guarded
    def _on_redo(self, *_):
        self.session.redo()


class PositionNote(pn.viewable.Viewer):
    """A loaded position's title and teaching note, in the page's language; hidden when the
    game is another (a new game, another file)."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(self, session: GameSession, **params):
        super().__init__(session=session, **params)
        self._scenario = None
        self._history = None
        self._pane = HTML(
            "",
            visible=False,
            sizing_mode="stretch_width",
            margin=(4, 5),
            css_classes=["nefertiti-position"],
        )
        session.param.watch(self._on_change, ["version", "lang"])

    def __panel__(self):
        return self._pane

    def show(self, scenario) -> None:
        """Show ``scenario``'s title and teaching note for the game now in the session."""
        self._scenario = scenario
        self._history = self.session.history
        self.refresh()

    @property
    def text(self) -> str:
        return self._pane.object if self._pane.visible else ""

    @guarded
    def _on_change(self, *_):
        self.refresh()

    def refresh(self) -> None:
        scenario, lang = self._scenario, self.session.lang
        if scenario is None or self.session.history is not self._history:
            self._scenario = None
            self._pane.visible = False
            return
        title = scenario.title_in(lang)
        teaching = scenario.teaching_in(lang).strip()
        if not title and not teaching:
            self._pane.visible = False
            return
        paragraphs = "".join(
            f"<p style='margin:3px 0'>{esc(p.strip())}</p>"
            for p in teaching.split("\n\n")
            if p.strip()
        )
        label = esc(tr(lang, "projector.position"))
        self._pane.object = link_rule_ids(
            f"<div style='background:{PROJECTOR_CARD};border:1px solid {PROJECTOR_CARD_LINE};border-radius:6px;"
            "padding:6px 12px'>"
            f"<div style='font-size:12px;color:{CARD_LABEL}'>{label}</div>"
            f"<div class='nefertiti-position-title' style='font-size:19px;font-weight:700;"
            f"color:{INK}'>{esc(title)}</div>"
            f"<div class='nefertiti-position-note' style='font-size:14px'>{paragraphs}</div>"
            "</div>",
            lang,
        )
        self._pane.visible = True
