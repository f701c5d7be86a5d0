"""The cover a served page shows when its server goes away, and its words
(``widgets.game.reconnect``; the page reloading itself is checked in Chromium:
tests/browser/test_classroom_reconnect.py and test_restart.py).

Its words are the page's language's, and follow the page when its language changes or it takes
up another game session (a learner who joined, a teacher who opened a room); outside a served
page nothing is wired.
"""

from __future__ import annotations

import json

import panel as pn
import param
import pytest
from bokeh.document import Document
from panel.io.state import set_curdoc

from nefertiti_core.engine.i18n import LANGUAGES, catalog, tr
from widgets.game.reconnect import (
    CLASSROOM_WORDS,
    RECONNECT_JS,
    SANDBOX_WORDS,
    WORDS_CLASS,
    ConnectionWords,
    connection_words,
    watch_connection,
)
from widgets.game.session import GameSession


@pytest.mark.parametrize("keys", [CLASSROOM_WORDS, SANDBOX_WORDS])
def test_the_cover_speaks_every_language_of_the_tutor(keys):
    said = {lang: connection_words(lang, keys) for lang in LANGUAGES}
    for lang, words in said.items():
        assert all(key in catalog(lang) for key in keys), (lang, keys)
        assert words["lang"] == lang and words["lost"] and words["back"]
    assert len({words["lost"] for words in said.values()}) == len(LANGUAGES)
    assert connection_words("xx", keys) == said["en"]  # an unknown language: English


def test_the_classroom_cover_says_the_page_comes_back_by_itself():
    assert "reloads by itself" in tr("en", CLASSROOM_WORDS[0])
    assert "von selbst" in tr("de", CLASSROOM_WORDS[0])
    assert "自动重新载入" in tr("zh", CLASSROOM_WORDS[0])


class Page(param.Parameterized):
    """A page as the classroom's are: a ``session`` parameter it may replace."""

    session = param.ClassSelector(class_=GameSession)


def shown(words: ConnectionWords) -> dict:
    """What the page's hidden model holds, as the browser's script reads it (the first of its
    tags, of the Bokeh model with the words' CSS class)."""
    assert not words.pane.visible
    model = words.pane.object
    assert WORDS_CLASS in model.css_classes and not model.visible and not model.text
    return json.loads(model.tags[0])


def test_the_words_follow_the_pages_language_and_the_session_it_takes_up():
    page = Page(session=GameSession(lang="de"))
    words = ConnectionWords("en")
    assert shown(words) == connection_words("en")  # the request's language, until followed
    words.follow(page)
    assert shown(words) == connection_words("de")
    page.session.lang = "zh"
    assert shown(words)["lost"] == tr("zh", "room.connection.lost")
    old = page.session
    page.session = GameSession(lang="en")  # a learner joined: the table's session
    assert shown(words)["lang"] == "en"
    old.lang = "de"  # the form's session, left behind, says nothing any more
    assert shown(words)["lang"] == "en"
    page.session.lang = "de"
    assert shown(words) == connection_words("de")


def test_the_sandbox_words_are_its_own():
    words = ConnectionWords("de", SANDBOX_WORDS)
    assert shown(words)["lost"] == tr("de", "saved.lost")


def test_outside_a_served_page_nothing_is_wired():
    before = pn.config.disconnect_notification
    assert watch_connection("de") is None  # no document at all
    doc = Document()
    with set_curdoc(doc):  # a document with no server session (a notebook, a test)
        assert watch_connection("de") is None
    assert not doc.callbacks.js_event_callbacks
    assert pn.config.disconnect_notification == before


def test_the_script_covers_the_page_keeps_asking_and_reloads():
    """What the browser runs (its behaviour is the browser tests'): a cover over everything,
    the page's parts made inert, an ask every second, a reload when answered."""
    for needed in ("inert = true", "position:fixed;inset:0", "window.location.reload()",
                   "setTimeout(ping, EVERY_MS)", "__nefertitiOffline", 'role", "alert'):  # fmt: skip
        assert needed in RECONNECT_JS, needed
