"""A failing callback on a served page: logged on the server, told on that page in its language,
its text escaped (an error may quote a file or an input)."""

from __future__ import annotations

import panel as pn
import pytest

from widgets import serve
from widgets.game import language


class Notes:
    def __init__(self):
        self.said = []

    def error(self, text):
        self.said.append(text)


@pytest.mark.parametrize(
    ("lang", "start"),
    [("en", "Something went wrong"), ("de", "Etwas ist schiefgegangen"), ("zh", "出错了")],
)
def test_a_failing_callback_is_told_in_the_pages_language_escaped(monkeypatch, lang, start):
    notes = Notes()
    monkeypatch.setattr(type(pn.state), "notifications", property(lambda _self: notes))
    monkeypatch.setattr(language, "browser_language", lambda: lang)
    serve.report_callback_error(ValueError("<b>bad</b>"))
    assert notes.said and notes.said[0].startswith(start), notes.said
    assert "&lt;b&gt;bad&lt;/b&gt;" in notes.said[0]
