"""The decision panel: who must decide now and why, and the legal options to choose from.

Every option comes from the engine (``state.legal_options()``), is worded by
``explain.describe_option`` and previewed by ``status.preview`` / ``status.describe_preview``.
Placements (up to 25 squares) are grouped by market in one drop-down with a "Place" button, since
a teacher mostly clicks squares on the board; every other option is a button of its own. Buttons
are made once and only relabelled, shown or hidden.

A page that hides the panel (a classroom learner who cannot act now) says so with
:meth:`DecisionPanel.set_shown`: a hidden panel is not refreshed on each change (its words,
previews and buttons would be computed and sent for nobody) and is brought up to date when it
is shown again, before the browser sees it.
"""

from __future__ import annotations

import panel as pn
import param
from panel.io import hold

from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.state import (
    P_BID,
    P_SHAME,
    P_TAKE,
)
from nefertiti_core.teaching.explain import (
    count_key,
    describe_option,
    score_table,
    why_deciding,
    winner_line,
)
from nefertiti_core.teaching.status import describe_preview, preview
from widgets.game.accessible import name_for_readers
from widgets.game.common import (
    HTML,
    PHONE_MIN_TEXT,
    WRAP_BUTTON_CSS,
    after_page_message,
    esc,
    guarded,
    md_escape,
    player_name,
    seat_kind_label,
    swatch,
    tooltip,
)
from widgets.game.rules_view import link_rule_ids
from widgets.game.session import GameSession
from widgets.theme import ACCENT, TEXT_NOTE

#: At most this many option buttons; options beyond them (never seen in a real game) go into the
#: drop-down.
MAX_BUTTONS = 32

_PHASES_WITH_BID = (P_TAKE, P_SHAME, P_BID)


class DecisionPanel(pn.viewable.Viewer):
    """Who decides, why, and the options as buttons; the scores once the game is over."""

    session = param.ClassSelector(class_=GameSession)
    show_who = param.Boolean(
        default=True,
        doc="Say who decides and why (False where a banner above the board says it: the "
        "Sandbox's projector view)",
    )

    def __init__(self, session: GameSession, shown: bool = True, **params):
        super().__init__(session=session, **params)
        self._shown = shown
        self._stale = False  # a change came while hidden: refreshed when shown again
        self.refreshes = 0  # how many times it was brought up to date (for tests)
        self._title = HTML("", margin=(0, 5))
        #: Who decides now and why, in words.
        self.who = HTML(
            "", sizing_mode="stretch_width", margin=(0, 5), css_classes=["decision-who"]
        )
        #: The session's last refused action, in words (hidden when there is none).
        self.error = pn.pane.Alert("", alert_type="danger", visible=False, margin=(5, 5))
        # the buttons are named from the start: a page that keeps the panel hidden (a learner
        # who watches) still has them, and a reader or axe finds no button without a name
        lang = session.lang
        #: 'Let the bots play': shown while a bot's seat decides.
        self.bots_button = pn.widgets.Button(
            name=tr(lang, "panel.decision.bots"), color="warning", visible=False
        )
        self.bots_button.on_click(self._on_bots)

        self._place_label = HTML("", margin=(5, 5, 0, 5))
        #: The drop-down of placements (and options beyond the buttons).
        self.place_select = pn.widgets.Select(groups={}, sizing_mode="stretch_width")
        #: Plays the option chosen in place_select.
        self.place_button = pn.widgets.Button(
            name=tr(lang, "panel.decision.place"), color="primary", width=90
        )
        self.place_button.on_click(self._on_place)
        #: What the chosen placement would do, in words.
        self.place_preview = HTML("", sizing_mode="stretch_width", margin=(0, 5))
        self.place_select.param.watch(self._on_select, "value")
        #: The drop-down, its button and preview (hidden when nothing is placed).
        self.place_box = pn.Column(
            self._place_label,
            pn.Row(self.place_select, self.place_button, sizing_mode="stretch_width"),
            self.place_preview,
            sizing_mode="stretch_width",
        )

        self._options_label = HTML("", margin=(5, 5, 0, 5))
        # Option buttons are made when first needed and then kept (only their text changes):
        # a page holds as many as the longest list of options it has shown, not 32 from the
        # start (every Bokeh model costs time in each served update and in notebook output).
        #: One button per option shown, made when first needed and then reused.
        self.buttons: list[pn.widgets.Button] = []
        self._tooltips: list = []
        self._button_box = pn.Column(sizing_mode="stretch_width", margin=0)
        self._button_options: list[int] = []
        self._placements: list[int] = []

        #: The final scores, shown once the game is over.
        self.over = HTML("", visible=False, sizing_mode="stretch_width")

        self._layout = pn.Column(
            self._title,
            self.who,
            self.error,
            self.bots_button,
            self.place_box,
            self._options_label,
            self._button_box,
            self.over,
            sizing_mode="stretch_width",
        )
        if shown:
            self.refresh()
        else:
            self._stale = True
        self._show_error()
        session.param.watch(self._on_change, ["version", "lang", "seats"])
        session.param.watch(self._on_error, ["error"])

    def __panel__(self):
        return self._layout

    # ------------------------------------------------------------------ what a test can read
    @property
    def button_options(self) -> list[int]:
        """The options on the visible buttons, in order."""
        self._catch_up()
        return list(self._button_options)

    @property
    def placement_options(self) -> list[int]:
        """The options in the drop-down now (placements, and options beyond the buttons)."""
        self._catch_up()
        return list(self._placements)

    def _catch_up(self) -> None:
        """A hidden panel read or clicked by code (tests, notebooks): brought up to date first,
        as it would be when shown."""
        if self._stale:
            self.refresh()

    # ------------------------------------------------------------------ updating
    @property
    def shown(self) -> bool:
        return self._shown

    def set_shown(self, shown: bool) -> None:
        """Say whether the page shows the panel now. Hidden, it skips its refreshes; shown
        again after a change, it is refreshed at once (the page makes it visible after this
        call, in the same update)."""
        self._shown = bool(shown)
        if self._shown and self._stale:
            with hold():  # its changes go to the browser as one message
                self.refresh()

    @guarded
    def _on_change(self, *_):
        if not self._shown:
            self._stale = True
            return
        self.refresh()

    @guarded
    def _on_error(self, *_):
        self._show_error()

    def _show_error(self) -> None:
        error = self.session.error
        self.error.object = md_escape(error)
        self.error.visible = bool(error)

    def refresh(self) -> None:
        self._stale = False
        self.refreshes += 1
        session, state, lang = self.session, self.session.state, self.session.lang
        self._title.object = (
            f"<h3 style='margin:4px 0'>{esc(tr(lang, 'panel.decision.title'))}</h3>"
        )
        self.bots_button.name = tr(lang, "panel.decision.bots")
        self.place_button.name = tr(lang, "panel.decision.place")

        if state.is_over:
            self.who.object = (
                f"<div style='font-size:15px'><b>{esc(tr(lang, 'panel.decision.over'))}</b></div>"
            )
            self.over.object = link_rule_ids(_score_html(state, lang), lang)
            self.over.visible = True
            self.place_box.visible = False
            self._options_label.visible = False
            self.bots_button.visible = False
            self._set_buttons([])
            return

        self.over.visible = False
        self.who.object = link_rule_ids(_who_html(state, lang, session, self.show_who), lang)
        self.bots_button.visible = session.is_bot(state.decider)

        placements, others = [], []
        for option in state.legal_options():
            (placements if O.OPTION_KIND[option] == O.PLACE else others).append(option)
        overflow = others[MAX_BUTTONS:]
        others = others[:MAX_BUTTONS]

        groups: dict[str, dict[str, int]] = {}
        for option in placements:
            market = R.STALLS[O.SQUARE_STALL[option]].market
            group = groups.setdefault(tr(lang, f"market.{R.MARKETS[market]}"), {})
            group[describe_option(state, option, lang)] = option
        if overflow:
            extra = groups.setdefault(tr(lang, "panel.decision.more"), {})
            for option in overflow:
                extra[describe_option(state, option, lang)] = option
        values = [v for group in groups.values() for v in group.values()]
        self._placements = values
        if values:
            chosen = self.place_select.value
            if groups != self.place_select.groups:
                self.place_select.groups = groups
            self.place_select.value = chosen if chosen in values else values[0]
        # With nothing to place the drop-down is hidden but keeps its last options: emptied, the
        # browser's "no selection" could come back after it is filled again, which Panel refuses
        # (ValueError: None not in list).
        place_label = (
            tr(
                lang,
                count_key("panel.decision.placements", len(placements)),
                count=len(placements),
            )
            if placements
            else tr(lang, "panel.decision.more")
        )
        self._place_label.object = esc(place_label)
        name_for_readers(self.place_select, place_label)  # the drop-down's name: the same words
        self.place_box.visible = bool(values)
        self._update_place_preview()

        self._options_label.object = esc(tr(lang, "panel.decision.options"))
        self._options_label.visible = bool(others)
        self._set_buttons(others)

    def _ensure_buttons(self, count: int) -> None:
        """At least ``count`` option buttons, each with its own hover text made once (a new
        Tooltip on every step would be a new Bokeh model)."""
        new = []
        for index in range(len(self.buttons), count):
            button = pn.widgets.Button(
                color="primary",
                variant="outline",
                visible=False,
                sizing_mode="stretch_width",
                stylesheets=[WRAP_BUTTON_CSS],
                margin=(2, 5),
                css_classes=["decision-option"],  # a test or a reader finds the options by it
            )
            button.on_click(lambda _event, index=index: self._on_button(index))
            tip = tooltip(" ")
            button.description = tip
            self.buttons.append(button)
            self._tooltips.append(tip)
            new.append(button)
        if new:
            self._button_box.extend(new)

    def _set_buttons(self, options: list[int]) -> None:
        state, lang = self.session.state, self.session.lang
        self._ensure_buttons(len(options))
        self._button_options = list(options)
        for index, (button, tip) in enumerate(zip(self.buttons, self._tooltips, strict=True)):
            if index < len(options):
                option = options[index]
                label = describe_option(state, option, lang)
                # Panel sends only what changed (the same label or visibility sends nothing).
                button.name = label
                text = _preview_text(state, option, lang) or label
                if tip.content != text:
                    tip.content = text
                button.visible = True
            else:
                button.visible = False

    def _update_place_preview(self) -> None:
        option = self.place_select.value
        state = self.session.state
        if option is None or option not in self._placements or not state.is_legal(option):
            self.place_preview.object = ""
            return
        text = _preview_text(state, option, self.session.lang)
        preview_html = f"<div style='color:{TEXT_NOTE};font-size:{PHONE_MIN_TEXT.format(12)}'>{esc(text)}</div>"
        self.place_preview.object = link_rule_ids(preview_html, self.session.lang)

    # ------------------------------------------------------------------ clicks
    @guarded
    def _on_select(self, *_):
        self._update_place_preview()

    @after_page_message  # the square chosen in the same message as the click
    def _on_place(self, *_):
        self._place_chosen()

    @guarded
    def _place_chosen(self) -> None:
        option = self.place_select.value
        if option is not None and option in self._placements:
            self.session.play(option, by_learner=True)

    @guarded
    def _on_button(self, index: int):
        if index < len(self._button_options):
            self.session.play(self._button_options[index], by_learner=True)

    @guarded
    def _on_bots(self, *_):
        self.session.run_bots()

    # the same actions, for tests and notebooks
    def click(self, option: int) -> bool:
        """Press the button of ``option`` (or choose it in the drop-down and press "Place")."""
        self._catch_up()
        if option in self._button_options:
            self.buttons[self._button_options.index(option)].clicks += 1
            return True
        if option in self.placement_options:
            self.place_select.value = option
            self._place_chosen()  # what the "Place" button does
            return True
        return False


def _preview_text(state, option: int, lang: str) -> str:
    try:
        return describe_preview(preview(state, option), state, lang)
    except Exception:  # a preview is a help, never a reason to hide the option
        return ""


def _queue(state, lang: str) -> str:
    """The bidders still to decide after the current one (R6.1 order)."""
    if state.res_market < 0 or state.phase not in _PHASES_WITH_BID:
        return ""
    m = state.res_market
    stall = state.visible_stall(m)
    items = []
    for square in state.res_queue[state.res_pos + 1 :]:
        owner = state.owners[m][square]
        if owner >= 0:
            items.append(
                tr(
                    lang,
                    "panel.decision.bid_item",
                    player=player_name(lang, state.colours, owner),
                    bid=stall.squares[square].value,
                )
            )
    if not items:
        return tr(lang, "panel.decision.last_bidder")
    return tr(lang, "panel.decision.queue", bidders=tr(lang, "status.list.sep").join(items))


def _who_html(state, lang: str, session: GameSession, show_who: bool = True) -> str:
    colours = state.colours
    decider = state.decider
    turn = tr(
        lang,
        "panel.decision.turn",
        turn=state.turn_no,
        player=player_name(lang, colours, state.turn_player),
    )
    decides = tr(lang, "panel.decision.decides", player=player_name(lang, colours, decider))
    parts = [f"<div style='color:{TEXT_NOTE}'>{esc(turn)}</div>"]
    if show_who:
        parts += [
            f"<div style='font-size:17px;margin:4px 0'>{swatch(colours[decider], 16)}"
            f"<b>{esc(decides)}</b></div>",
            f"<div>{esc(why_deciding(state, lang))}</div>",
        ]
    queue = _queue(state, lang)
    if queue:
        parts.append(f"<div style='color:{TEXT_NOTE};margin-top:3px'>{esc(queue)}</div>")
    if session.is_bot(decider):
        bot = tr(
            lang,
            "panel.decision.bot_seat",
            player=player_name(lang, colours, decider),
            kind=seat_kind_label(lang, session.seats[decider]),
        )
        parts.append(f"<div style='color:{ACCENT};margin-top:3px'>{esc(bot)}</div>")
    return "".join(parts)


def _score_html(state, lang: str) -> str:
    lines = score_table(state, lang)
    winner = esc(winner_line(state, lang))
    out = [f"<div style='font-size:15px;margin:4px 0'><b>{winner}</b></div>"]
    items: list[str] = []

    def flush():
        if items:
            out.append("<ul style='margin:0 0 6px 0'>" + "".join(items) + "</ul>")
            items.clear()

    # score_table: a heading, then per player a name line and indented lines, then the winner.
    for line in lines[:-1]:
        if line.startswith("  "):
            items.append(f"<li>{esc(line.strip())}</li>")
        else:
            flush()
            out.append(f"<div style='margin-top:4px'><b>{esc(line)}</b></div>")
    flush()
    return "".join(out)
