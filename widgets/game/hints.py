"""Hints on request: the decider's options ranked by ``nefertiti_core.play.hints.hints``.

A "Hint" button asks the engine (``hints(state, lang=..., time_budget=...)``, a list of ``Hint``:
``option``, ``text``, ``value``, ``rank``, ``reasons``) and shows the best options, each with its
rank, wording, value and reasons, and a "Play this" button that plays it through the session.
Nothing is ranked here. In a served app the ranking runs in a background thread (it may take up
to ``time_budget`` seconds) and is shown on the page's next tick; in a notebook it runs at once.
Hints belong to one position: once the game moves on they are cleared.
"""

from __future__ import annotations

import contextlib
import functools
import threading

import panel as pn
import param
from bokeh.document import Document
from panel.io import hold

from nefertiti_core.engine.i18n import tr
from widgets.game.common import (
    HTML,
    PHONE_MIN_TEXT,
    WRAP_BUTTON_CSS,
    esc,
    guarded,
    player_name,
    swatch,
)
from widgets.game.rules_view import link_rule_ids
from widgets.game.session import GameSession, served_document
from widgets.theme import INK_MUTED, TEXT_NOTE

MAX_HINTS = 6  # rows shown (a turn can offer 25 placements)
TIME_BUDGET = 1.0


def _engine_hints(state, lang: str, time_budget: float):
    from nefertiti_core.play.hints import hints

    return hints(state, lang=lang, time_budget=time_budget)


class HintsView(pn.viewable.Viewer):
    """A "Hint" button and, once pressed, the decider's best options with their reasons."""

    session = param.ClassSelector(class_=GameSession)
    time_budget = param.Number(default=TIME_BUDGET, bounds=(0.05, 10))

    def __init__(self, session: GameSession, hints_function=None, **params):
        super().__init__(session=session, **params)
        self._hints_function = hints_function or _engine_hints
        self.hints: list = []  # the Hint objects shown, best first
        self._state = None  # the position they belong to
        self._busy = False
        self._thread: threading.Thread | None = None
        self._title = HTML("", margin=(0, 5))
        #: Asks for hints.
        self.button = pn.widgets.Button(color="primary", width=90, margin=(5, 5))
        self.button.on_click(self._on_button)
        #: What the hints say now, in words.
        self.status = HTML("", sizing_mode="stretch_width", margin=(0, 5))
        self._texts = [
            HTML("", sizing_mode="stretch_width", margin=(2, 5)) for _ in range(MAX_HINTS)
        ]
        #: Plays the hint beside it, one per hint.
        self.play_buttons = [pn.widgets.Button(width=95, margin=(4, 5)) for _ in range(MAX_HINTS)]
        for index, button in enumerate(self.play_buttons):
            button.on_click(functools.partial(self._on_play, index))
        self._rows = [
            pn.Row(play, text, visible=False, sizing_mode="stretch_width")
            for play, text in zip(self.play_buttons, self._texts, strict=True)
        ]
        self._layout = pn.Column(
            pn.Row(self._title, self.button, self.status, sizing_mode="stretch_width"),
            *self._rows,
            sizing_mode="stretch_width",
        )
        self._refresh_labels()
        self._show_status("hints.empty")
        session.param.watch(self._on_change, ["version"])
        session.param.watch(self._on_lang, ["lang"])

    def __panel__(self):
        return self._layout

    # ------------------------------------------------------------------ asking
    @guarded
    def _on_button(self, *_):
        self.request()

    def request(self) -> None:
        """Rank the decider's options now (notebook) or in the background (served app)."""
        state, lang = self.session.state, self.session.lang
        if state.is_over:
            self._clear("hints.none")
            return
        if self._busy:
            return
        doc = served_document()
        self._busy = True
        self.button.disabled = True
        self._show_status("hints.thinking")
        if doc is None:
            self._finish(state, lang, *self._compute(state, lang))
            return

        def work():
            result = self._compute(state, lang)
            doc.add_next_tick_callback(
                functools.partial(self._finish_served, doc, state, lang, result)
            )

        self._thread = threading.Thread(target=work, name="hints", daemon=True)
        self._thread.start()

    def join(self, timeout: float | None = None) -> None:
        """Wait for a background ranking (tests)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _compute(self, state, lang: str):
        try:
            return self._hints_function(state.copy(), lang, self.time_budget), None
        except ImportError as error:
            return None, str(error)
        except Exception as error:  # the page must survive a broken ranking
            return None, str(error)

    def _finish_served(self, doc, state, lang, result) -> None:
        from panel.io.state import set_curdoc

        # every row in one message: the ranking appears at once, not row by row
        held = hold(doc) if isinstance(doc, Document) else contextlib.nullcontext()
        with set_curdoc(doc), held:
            self._finish(state, lang, *result)

    def _finish(self, state, lang, hints, error) -> None:
        self._busy = False
        self.button.disabled = False
        if state is not self.session.state:  # the game moved on while thinking
            self._clear("hints.stale")
            return
        if error is not None:
            self._clear()
            self.status.object = esc(tr(self.session.lang, "hints.unavailable", error=error))
            return
        self.hints = sorted(hints, key=lambda h: h.rank)
        self._state = state
        self._show_hints()

    # ------------------------------------------------------------------ showing
    def _show_hints(self) -> None:
        session, lang = self.session, self.session.lang
        state = session.state
        who = player_name(lang, state.colours, state.decider)
        self.status.object = (
            f"<div style='font-size:{PHONE_MIN_TEXT.format(12)};color:{TEXT_NOTE}'>"
            f"{swatch(state.colours[state.decider], 10)}{esc(tr(lang, 'hints.intro', player=who))}"
            "</div>"
        )
        for index, row in enumerate(self._rows):
            if index < len(self.hints):
                hint = self.hints[index]
                reasons = "".join(f"<li>{esc(reason)}</li>" for reason in hint.reasons)
                value = tr(lang, "hints.value", value=f"{hint.value:.1f}")
                self._texts[index].object = link_rule_ids(
                    f"<div style='font-size:{PHONE_MIN_TEXT.format(13)}'><b>{esc(tr(lang, 'hints.row', rank=hint.rank, option=hint.text))}</b>"
                    f" <span style='color:{INK_MUTED}'>({esc(value)})</span>"
                    f"<ul style='margin:2px 0 4px 16px;padding:0;font-size:{PHONE_MIN_TEXT.format(12)}'>{reasons}</ul></div>",
                    lang,
                )
                self.play_buttons[index].name = tr(lang, "hints.play")
                row.visible = True
            else:
                row.visible = False

    def _clear(self, key: str | None = None) -> None:
        self.hints = []
        self._state = None
        for row in self._rows:
            row.visible = False
        if key:
            self._show_status(key)

    def _show_status(self, key: str) -> None:
        self.status.object = f"<div style='font-size:{PHONE_MIN_TEXT.format(12)};color:{TEXT_NOTE}'>{esc(tr(self.session.lang, key))}</div>"

    def _refresh_labels(self) -> None:
        lang = self.session.lang
        self._title.object = f"<b>{esc(tr(lang, 'hints.title'))}</b>"
        self.button.name = tr(lang, "hints.button")
        for button in self.play_buttons:
            button.name = tr(lang, "hints.play")
            button.stylesheets = [WRAP_BUTTON_CSS]

    # ------------------------------------------------------------------ following the game
    @guarded
    def _on_change(self, *_):
        if self.hints and self._state is not self.session.state:
            self._clear("hints.stale")

    @guarded
    def _on_lang(self, *_):
        self._refresh_labels()
        if self.hints:
            self.request()  # the reasons are sentences: ask again in the new language
        else:
            self._show_status("hints.empty")

    # ------------------------------------------------------------------ playing
    @guarded
    def _on_play(self, index: int, *_):
        self.play(index)

    def play(self, index: int) -> bool:
        """Play the hint in row ``index`` (0 = the best) through the session."""
        if not 0 <= index < len(self.hints) or self._state is not self.session.state:
            return False
        return self.session.play(self.hints[index].option)

    # for tests
    @property
    def shown(self) -> list[str]:
        """The texts of the rows shown."""
        return [
            text.object for text, row in zip(self._texts, self._rows, strict=True) if row.visible
        ]
