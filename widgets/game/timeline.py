"""The timeline: undo, redo, jump to any step, the branch's steps, named branches, and two branches
compared side by side. Everything goes through the session's history
(``nefertiti_core.files.history.History``); a refused action (a name already taken, nothing to undo)
shows the engine's message through ``session.error``.
"""

from __future__ import annotations

import panel as pn
import param

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.announce import branch_steps
from widgets.game.common import HTML, DeferredView, after_page_message, esc, guarded, swatch
from widgets.game.rules_view import link_rule_ids
from widgets.game.session import GameSession
from widgets.theme import (
    CURRENT_STEP,
    NO_PLAYER_STRIPE,
    PAPER,
    PLAYER_COLOURS,
    ROW_LINE,
    RULE_LINE,
    STEP_DETAIL,
    TABLE_HEAD_LINE,
    TEXT_FAINT,
)

#: The newest steps shown in words (the drop-down and the slider reach every step).
MAX_WORDED = 120


class Timeline(DeferredView):
    """Moving through the game's history and its branches."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(self, session: GameSession, **params):
        super().__init__(session=session, **params)
        self._updating = False
        self._title = HTML("", margin=(0, 5))
        #: Steps back one move.
        self.undo_button = pn.widgets.Button(width=90, color="primary")
        #: Steps forward one move.
        self.redo_button = pn.widgets.Button(width=90, color="primary")
        #: 'Step n of m' in words.
        self.position = HTML("", margin=(5, 5))
        #: Moves to any step of the branch.
        self.slider = pn.widgets.IntSlider(start=0, end=1, value=0, sizing_mode="stretch_width")
        #: The branch's steps to pick from.
        self.steps = pn.widgets.Select(size=8, options={}, sizing_mode="stretch_width")
        # the branch's steps in words, each with its player's colour, newest first
        self._words_title = HTML("", margin=(8, 5, 0, 5))
        self._words = HTML(
            "",
            sizing_mode="stretch_width",
            css_classes=["nefertiti-timeline-words"],
            styles={
                "max-height": "360px",
                "overflow-y": "auto",
                "border": f"1px solid {RULE_LINE}",
                "background": PAPER,
            },
        )
        self._word_cache: dict = {}
        #: The branch shown, to switch to another.
        self.branch = pn.widgets.Select(width=200)
        #: The name of a new branch from here.
        self.new_name = pn.widgets.TextInput(width=200)
        #: Starts the branch named in new_name.
        self.new_button = pn.widgets.Button(width=180, color="primary", variant="outline")
        #: The new name for the branch shown.
        self.rename_to = pn.widgets.TextInput(width=200)
        #: Renames the branch shown to rename_to.
        self.rename_button = pn.widgets.Button(width=180, color="primary", variant="outline")
        #: The first branch to compare.
        self.compare_a = pn.widgets.Select(width=150)
        #: The second branch to compare.
        self.compare_b = pn.widgets.Select(width=150)
        self._compare = pn.widgets.Button(width=120, color="primary", variant="outline")
        #: The two branches compared (shown after Compare).
        self.table = HTML("", sizing_mode="stretch_width", visible=False)
        self._compared: tuple[str, str] | None = None

        self.undo_button.on_click(self._on_undo)
        self.redo_button.on_click(self._on_redo)
        self.new_button.on_click(self._on_new_branch)
        self.rename_button.on_click(self._on_rename)
        self._compare.on_click(self._on_compare)
        self.slider.param.watch(self._on_slider, "value_throttled")
        self.steps.param.watch(self._on_step_list, "value")
        self.branch.param.watch(self._on_branch, "value")

        self._branch_title = HTML("", margin=(10, 5, 0, 5))
        self._compare_title = HTML("", margin=(10, 5, 0, 5))
        self._layout = pn.Column(
            self._title,
            pn.Row(self.undo_button, self.redo_button, self.position),
            self.slider,
            self._words_title,
            self._words,
            self.steps,
            self._branch_title,
            self.branch,
            pn.Row(self.new_name, self.new_button, styles={"align-items": "end"}),
            pn.Row(self.rename_to, self.rename_button, styles={"align-items": "end"}),
            self._compare_title,
            pn.Row(self.compare_a, self.compare_b, self._compare, styles={"align-items": "end"}),
            self.table,
            sizing_mode="stretch_width",
        )
        self.refresh()
        session.param.watch(self._on_change, ["version", "lang"])

    def __panel__(self):
        return self._layout

    # ------------------------------------------------------------------ updating
    def refresh(self) -> None:
        self._stale = False  # see DeferredView
        session, lang = self.session, self.session.lang
        history = session.history
        step, length = history.step, history.length()
        steps = history.steps()
        self._updating = True
        try:
            self._title.object = (
                f"<h3 style='margin:4px 0'>{esc(tr(lang, 'panel.timeline.title'))}</h3>"
            )
            self.undo_button.name = tr(lang, "panel.timeline.undo")
            self.redo_button.name = tr(lang, "panel.timeline.redo")
            self.undo_button.disabled = not history.can_undo
            self.redo_button.disabled = not history.can_redo
            self.position.object = esc(
                tr(
                    lang,
                    "panel.timeline.position",
                    step=step,
                    length=length,
                    branch=history.branch,
                )
            )
            self.slider.name = tr(lang, "panel.timeline.jump")
            self.slider.param.update(end=max(1, length), value=step, disabled=length == 0)
            # in words, newest first, so that the latest steps are in view
            words = branch_steps(history, lang, cache=self._word_cache)
            options = {
                f"{i} · {w.line or text}": i
                for i, (w, text) in reversed(list(enumerate(zip(words, steps, strict=True), 1)))
            }
            self._words_title.object = f"<b>{esc(tr(lang, 'panel.timeline.words'))}</b>"
            self._words.object = link_rule_ids(
                _words_html(words, history.state.colours, step, lang), lang
            )
            options[f"0 · {tr(lang, 'panel.timeline.start')}"] = 0
            self.steps.name = tr(lang, "panel.timeline.steps")
            self.steps.param.update(options=options, value=step)
            branches = history.branches
            self.branch.name = tr(lang, "panel.timeline.branch")
            self.branch.param.update(options=branches, value=history.branch)
            self.new_name.name = tr(lang, "panel.timeline.new_name")
            self.new_name.placeholder = tr(lang, "panel.timeline.new_placeholder")
            self.new_button.name = tr(lang, "panel.timeline.new")
            self.rename_to.name = tr(lang, "panel.timeline.rename_to")
            self.rename_button.name = tr(lang, "panel.timeline.rename")
            self._branch_title.object = f"<b>{esc(tr(lang, 'panel.timeline.branches'))}</b>"
            self._compare_title.object = f"<b>{esc(tr(lang, 'panel.timeline.compare_title'))}</b>"
            self.compare_a.name = tr(lang, "panel.timeline.compare_a")
            self.compare_b.name = tr(lang, "panel.timeline.compare_b")
            self._compare.name = tr(lang, "panel.timeline.compare")
            a, b = self.compare_a.value, self.compare_b.value
            if a not in branches:
                a = history.branch
            if b not in branches or b == a:
                b = next((name for name in reversed(branches) if name != a), a)
            self.compare_a.param.update(options=branches, value=a)
            self.compare_b.param.update(options=branches, value=b)
        finally:
            self._updating = False
        if self._compared and all(name in branches for name in self._compared):
            self._show_comparison(*self._compared)
        else:
            self._compared = None
            self.table.visible = False

    def _show_comparison(self, a: str, b: str) -> None:
        lang = self.session.lang
        comparison = self.session.compare(a, b)
        self._compared = (a, b)
        self.table.object = comparison_html(comparison, lang)
        self.table.visible = True

    # ------------------------------------------------------------------ actions
    @guarded
    def _on_undo(self, *_):
        self.session.undo()

    @guarded
    def _on_redo(self, *_):
        self.session.redo()

    @guarded
    def _on_slider(self, event):
        if not self._updating and event.new is not None and event.new != self.session.history.step:
            self.session.jump(int(event.new))

    @guarded
    def _on_step_list(self, event):
        if not self._updating and event.new is not None and event.new != self.session.history.step:
            self.session.jump(int(event.new))

    @guarded
    def _on_branch(self, event):
        if not self._updating and event.new and event.new != self.session.history.branch:
            self.session.switch(event.new)

    @after_page_message  # the name typed in the same message as the click
    @guarded
    def _on_new_branch(self, *_):
        if self.session.new_branch(self.new_name.value):
            self.new_name.value = ""

    @after_page_message
    @guarded
    def _on_rename(self, *_):
        if self.session.rename_branch(self.session.history.branch, self.rename_to.value):
            self.rename_to.value = ""

    @after_page_message
    def _on_compare(self, *_):
        self._compare_chosen()

    @guarded
    def _compare_chosen(self) -> None:
        a, b = self.compare_a.value, self.compare_b.value
        if a and b:
            self._show_comparison(a, b)

    # the same actions, for tests and notebooks
    def jump_to(self, step: int) -> None:
        """What releasing the slider at ``step`` does."""
        with param.edit_constant(self.slider):
            self.slider.value_throttled = step

    def compare(self, a: str, b: str) -> None:
        self.compare_a.value = a
        self.compare_b.value = b
        self._compare_chosen()  # what the "Compare" button does


def _words_html(words, colours, current: int, lang: str) -> str:
    """The steps in words, newest first, each with a disc and a bar in its player's colour (the
    single-option steps that followed it too); the step the game is at marked."""
    rows = []
    first = max(0, len(words) - MAX_WORDED)
    for number in range(len(words), first, -1):
        item = words[number - 1]
        colour = colours[item.seat] if 0 <= item.seat < len(colours) else ""
        here = number == current
        style = (
            f"padding:3px 6px;border-bottom:1px solid {ROW_LINE};font-size:13px;"
            f"border-left:5px solid {PLAYER_COLOURS.get(colour, NO_PLAYER_STRIPE)};"
            + (f"background:{CURRENT_STEP};font-weight:600;" if here else "")
        )
        dot = swatch(colour, 11) if colour else ""
        forced = "".join(
            f"<div style='margin-left:14px;color:{STEP_DETAIL}'>"
            f"{swatch(colours[seat], 9) if 0 <= seat < len(colours) else ''}{esc(text)}</div>"
            for text, seat in zip(item.forced, item.forced_seats, strict=True)
        )
        rows.append(
            f"<div class='nefertiti-step' data-step='{number}' data-colour='{esc(colour)}' "
            f"style=\"{style}\"><span style='color:{TEXT_FAINT};margin-right:6px'>{number}</span>"
            f"{dot}{esc(item.text)}{forced}</div>"
        )
    start = f"<div style='padding:3px 6px;color:{TEXT_FAINT};font-size:13px'>0 · {esc(tr(lang, 'panel.timeline.start'))}</div>"
    return "".join(rows) + start


def _gifts_text(gifts: dict[str, int], lang: str) -> str:
    if not gifts:
        return "–"
    parts = []
    for name in R.GIFT_TYPES:
        count = gifts.get(name)
        if count:
            gift = tr(lang, f"card.{name}") if count == 1 else tr(lang, f"gift.{name}")
            parts.append(tr(lang, "count.gift", n=count, gift=gift))
    return tr(lang, "status.list.sep").join(parts)


def comparison_html(comparison, lang: str) -> str:
    """Two branches side by side (the Timeline's comparison, and the what-if notebook's)."""
    a, b = comparison.branches
    th = f"style='padding:3px 6px;border-bottom:1px solid {TABLE_HEAD_LINE};text-align:left'"
    td = f"style='padding:3px 6px;border-bottom:1px solid {ROW_LINE}'"

    def pair(values, bold_higher: bool = False) -> str:
        x, y = values
        cells = []
        for v, other in ((x, y), (y, x)):
            text = esc(v)
            if bold_higher and v > other:
                text = f"<b>{text}</b>"
            cells.append(f"<td {td}>{text}</td>")
        return "".join(cells)

    head = (
        f"<tr><th {th}></th>"
        + "".join(
            f"<th {th} colspan='2'>{esc(tr(lang, key))}</th>"
            for key in (
                "panel.timeline.cmp.score",
                "panel.timeline.cmp.deben",
                "panel.timeline.cmp.prestige",
                "panel.timeline.cmp.gifts",
            )
        )
        + "</tr>"
    )
    sub = f"<tr><th {th}>{esc(tr(lang, 'panel.timeline.cmp.player'))}</th>" + (
        f"<th {th}>{esc(a)}</th><th {th}>{esc(b)}</th>" * 4
    )
    sub += "</tr>"
    rows = []
    for player in comparison.players:
        name = tr(lang, f"colour.{player.colour}")
        gifts = "".join(f"<td {td}>{esc(_gifts_text(g, lang))}</td>" for g in player.gifts)
        rows.append(
            f"<tr><td {td}>{swatch(player.colour, 10)}{esc(name)}</td>"
            + pair(player.scores, True)
            + pair(player.deben)
            + pair(player.prestige)
            + gifts
            + "</tr>"
        )
    leaders = [
        tr(lang, "status.list.sep").join(tr(lang, f"colour.{c}") for c in names)
        for names in comparison.leaders
    ]
    facts = []
    for name, steps, leader, over in zip(
        comparison.branches, comparison.steps, leaders, comparison.over, strict=True
    ):
        key = "panel.timeline.cmp.summary_over" if over else "panel.timeline.cmp.summary"
        facts.append(f"<li>{esc(tr(lang, key, branch=name, steps=steps, leaders=leader))}</li>")
    return (
        "<table style='border-collapse:collapse;font-size:13px'>"
        + head
        + sub
        + "".join(rows)
        + "</table>"
        + "<ul style='margin:4px 0;font-size:13px'>"
        + "".join(facts)
        + "</ul>"
    )
