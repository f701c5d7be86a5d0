"""The language selector: English, Deutsch, 中文, bound both ways to ``session.lang``.

Every component watches ``session.lang``, so one click switches every label and explanation.
"""

from __future__ import annotations

import panel as pn
import param

from nefertiti_core.engine.i18n import LANGUAGES, language_from_header, tr
from widgets.game.common import esc, guarded
from widgets.game.session import GameSession, page_session


def browser_language() -> str:
    """The served page's language from the browser's Accept-Language (English when nothing
    matches, or not served). Only the header's first 500 characters are read: it comes from
    the network."""
    return language_from_header((pn.state.headers or {}).get("Accept-Language", "")[:500])


def page_language() -> str:
    """The language the current page shows: its game session's (``page_session``), else the
    browser's."""
    session = page_session()
    return session.lang if session is not None else browser_language()


class LanguageSelector(pn.viewable.Viewer):
    """Buttons for the tutor's languages, each named in its own language."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(self, session: GameSession, **params):
        super().__init__(session=session, **params)
        self._label = pn.pane.HTML("", margin=(8, 4, 0, 5))
        #: The languages to choose from, one button each.
        self.buttons = pn.widgets.RadioButtonGroup(
            options=self._options(), value=session.lang, color="default"
        )
        self.buttons.param.watch(self._on_pick, "value")
        self._layout = pn.Row(self._label, self.buttons)
        self._refresh()
        session.param.watch(self._on_lang, ["lang"])

    def __panel__(self):
        return self._layout

    @property
    def value(self) -> str:
        return self.buttons.value

    @value.setter
    def value(self, lang: str) -> None:
        self.buttons.value = lang

    def _options(self) -> dict[str, str]:
        lang = self.session.lang
        return {tr(lang, f"panel.lang.{code}"): code for code in LANGUAGES}

    def _refresh(self) -> None:
        lang = self.session.lang
        self._label.object = esc(tr(lang, "panel.language"))
        self.buttons.param.update(options=self._options(), value=lang)

    @guarded
    def _on_pick(self, event):
        if event.new and event.new != self.session.lang:
            self.session.lang = event.new

    @guarded
    def _on_lang(self, *_):
        self._refresh()
