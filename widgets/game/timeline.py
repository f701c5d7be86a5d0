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
from widgets.theme import PLAYER_COLOURS

#: The newest steps shown in words (the drop-down and the slider reach every step).
MAX_WORDED = 120


class Timeline(DeferredView):
    """Moving through the game's history and its branches."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(self, session: GameSession, **params):
        super().__init__(session=session, **params)
        self._updating = False
        self._title = HTML("", margin=(0, 5))
        self._undo = pn.widgets.Button(width=90, color="primary")
        self._redo = pn.widgets.Button(width=90, color="primary")
        self._position = HTML("", margin=(5, 5))
        self._slider = pn.widgets.IntSlider(start=0, end=1, value=0, sizing_mode="stretch_width")
        self._steps = pn.widgets.Select(size=8, options={}, sizing_mode="stretch_width")
        # the branch's steps in words, each with its player's colour, newest first
        self._words_title = HTML("", margin=(8, 5, 0, 5))
        self._words = HTML(
            "",
            sizing_mode="stretch_width",
            css_classes=["nefertiti-timeline-words"],
            styles={
                "max-height": "360px",
                "overflow-y": "auto",
                "border": "1px solid #e0d6bd",
                "background": "#fffdf7",
            },
        )
        self._word_cache: dict = {}
        self._branch = pn.widgets.Select(width=200)
        self._new_name = pn.widgets.TextInput(width=200)
        self._new = pn.widgets.Button(width=180, color="primary", variant="outline")
        self._rename_to = pn.widgets.TextInput(width=200)
        self._rename = pn.widgets.Button(width=180, color="primary", variant="outline")
        self._compare_a = pn.widgets.Select(width=150)
        self._compare_b = pn.widgets.Select(width=150)
        self._compare = pn.widgets.Button(width=120, color="primary", variant="outline")
        self._table = HTML("", sizing_mode="stretch_width", visible=False)
        self._compared: tuple[str, str] | None = None

        self._undo.on_click(self._on_undo)
        self._redo.on_click(self._on_redo)
        self._new.on_click(self._on_new_branch)
        self._rename.on_click(self._on_rename)
        self._compare.on_click(self._on_compare)
        self._slider.param.watch(self._on_slider, "value_throttled")
        self._steps.param.watch(self._on_step_list, "value")
        self._branch.param.watch(self._on_branch, "value")

        self._branch_title = HTML("", margin=(10, 5, 0, 5))
        self._compare_title = HTML("", margin=(10, 5, 0, 5))
        self._layout = pn.Column(
            self._title,
            pn.Row(self._undo, self._redo, self._position),
            self._slider,
            self._words_title,
            self._words,
            self._steps,
            self._branch_title,
            self._branch,
            pn.Row(self._new_name, self._new, styles={"align-items": "end"}),
            pn.Row(self._rename_to, self._rename, styles={"align-items": "end"}),
            self._compare_title,
            pn.Row(self._compare_a, self._compare_b, self._compare, styles={"align-items": "end"}),
            self._table,
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
            self._undo.name = tr(lang, "panel.timeline.undo")
            self._redo.name = tr(lang, "panel.timeline.redo")
            self._undo.disabled = not history.can_undo
            self._redo.disabled = not history.can_redo
            self._position.object = esc(
                tr(
                    lang,
                    "panel.timeline.position",
                    step=step,
                    length=length,
                    branch=history.branch,
                )
            )
            self._slider.name = tr(lang, "panel.timeline.jump")
            self._slider.param.update(end=max(1, length), value=step, disabled=length == 0)
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
            self._steps.name = tr(lang, "panel.timeline.steps")
            self._steps.param.update(options=options, value=step)
            branches = history.branches
            self._branch.name = tr(lang, "panel.timeline.branch")
            self._branch.param.update(options=branches, value=history.branch)
            self._new_name.name = tr(lang, "panel.timeline.new_name")
            self._new_name.placeholder = tr(lang, "panel.timeline.new_placeholder")
            self._new.name = tr(lang, "panel.timeline.new")
            self._rename_to.name = tr(lang, "panel.timeline.rename_to")
            self._rename.name = tr(lang, "panel.timeline.rename")
            self._branch_title.object = f"<b>{esc(tr(lang, 'panel.timeline.branches'))}</b>"
            self._compare_title.object = f"<b>{esc(tr(lang, 'panel.timeline.compare_title'))}</b>"
            self._compare_a.name = tr(lang, "panel.timeline.compare_a")
            self._compare_b.name = tr(lang, "panel.timeline.compare_b")
            self._compare.name = tr(lang, "panel.timeline.compare")
            a, b = self._compare_a.value, self._compare_b.value
            if a not in branches:
                a = history.branch
            if b not in branches or b == a:
                b = next((name for name in reversed(branches) if name != a), a)
            self._compare_a.param.update(options=branches, value=a)
            self._compare_b.param.update(options=branches, value=b)
        finally:
            self._updating = False
        if self._compared and all(name in branches for name in self._compared):
            self._show_comparison(*self._compared)
        else:
            self._compared = None
            self._table.visible = False

    def _show_comparison(self, a: str, b: str) -> None:
        lang = self.session.lang
        comparison = self.session.compare(a, b)
        self._compared = (a, b)
        self._table.object = comparison_html(comparison, lang)
        self._table.visible = True

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
        if self.session.new_branch(self._new_name.value):
            self._new_name.value = ""

    @after_page_message
    @guarded
    def _on_rename(self, *_):
        if self.session.rename_branch(self.session.history.branch, self._rename_to.value):
            self._rename_to.value = ""

    @after_page_message
    def _on_compare(self, *_):
        self._compare_chosen()

    @guarded
    def _compare_chosen(self) -> None:
        a, b = self._compare_a.value, self._compare_b.value
        if a and b:
            self._show_comparison(a, b)

    # the same actions, for tests and notebooks
    def jump_to(self, step: int) -> None:
        """What releasing the slider at ``step`` does."""
        with param.edit_constant(self._slider):
            self._slider.value_throttled = step

    def compare(self, a: str, b: str) -> None:
        self._compare_a.value = a
        self._compare_b.value = b
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
            "padding:3px 6px;border-bottom:1px solid #eee3c8;font-size:13px;"
            f"border-left:5px solid {PLAYER_COLOURS.get(colour, '#c9b98f')};"
            + ("background:#f3e6c4;font-weight:600;" if here else "")
        )
        dot = swatch(colour, 11) if colour else ""
        forced = "".join(
            f"<div style='margin-left:14px;color:#4d4432'>"
            f"{swatch(colours[seat], 9) if 0 <= seat < len(colours) else ''}{esc(text)}</div>"
            for text, seat in zip(item.forced, item.forced_seats, strict=True)
        )
        rows.append(
            f"<div class='nefertiti-step' data-step='{number}' data-colour='{esc(colour)}' "
            f"style=\"{style}\"><span style='color:#888;margin-right:6px'>{number}</span>"
            f"{dot}{esc(item.text)}{forced}</div>"
        )
    start = f"<div style='padding:3px 6px;color:#888;font-size:13px'>0 · {esc(tr(lang, 'panel.timeline.start'))}</div>"
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
    th = "style='padding:3px 6px;border-bottom:1px solid #c9b98f;text-align:left'"
    td = "style='padding:3px 6px;border-bottom:1px solid #eee3c8'"

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
