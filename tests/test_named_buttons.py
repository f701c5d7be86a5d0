"""Every button of the Sandbox has a name in the page's language, hidden ones too: a hidden
button (the saved game's Resume / Start anew offer) is shown later by a change of the page, when
no accessibility check looks, and a screen reader must read it then. The browser journey
(tests/browser/test_accessibility.py) checks the served pages' buttons the same way."""

from __future__ import annotations

import panel as pn
import pytest

from nefertiti_core.engine.i18n import tr


def _buttons(root):
    """Every Button and Toggle under ``root`` (a Panel layout), visible or not."""
    seen, found, todo = set(), [], [root]
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, (pn.widgets.Button, pn.widgets.Toggle)):
            found.append(item)
        todo.extend(getattr(item, "objects", None) or [])
        inner = getattr(item, "object", None)
        if isinstance(inner, pn.viewable.Viewable):
            todo.append(inner)
    return found


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_every_sandbox_button_has_a_name_in_the_pages_language(monkeypatch, tmp_path, lang):
    """Built in English and switched to ``lang`` as a learner does (the page's language
    buttons): every button named, the offer's two in ``lang``."""
    monkeypatch.setenv("NEFERTITI_HOME", str(tmp_path))
    from widgets.game.session import GameSession
    from widgets.sandbox.app import Sandbox

    session = GameSession(lang="en")
    app = Sandbox(session).__panel__()
    for now in ("en", lang):
        session.lang = now
        buttons = _buttons(app)
        assert len(buttons) > 10, "the Sandbox's buttons were not found"
        unnamed = [f"{type(b).__name__} {b.css_classes}" for b in buttons if not b.name.strip()]
        assert not unnamed, f"{now}: buttons without a name: {unnamed}"
        names = {b.name for b in buttons}
        assert {tr(now, "saved.resume"), tr(now, "saved.new")} <= names, sorted(names)
