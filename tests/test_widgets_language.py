"""The page speaks the learner's language, refusals included."""

from __future__ import annotations

import pytest

from nefertiti_core import new_game
from widgets.game.session import GameSession


@pytest.mark.parametrize(
    ("lang", "words"), [("de", "steht schon ein Diener von"), ("zh", "上已经有")]
)
def test_a_refused_click_is_told_in_the_session_language(lang, words):
    """The engine refuses in English; the page tells it in the learner's language (R5.2)."""
    session = GameSession(new_game(4, seed=1, record_events=True), lang=lang)
    first = session.state.legal_options()[0]
    text = session.state.option_text(first)
    assert text.startswith("place") and session.play(first)
    before = session.state.state_hash()
    assert not session.play(text)  # the next player: that square is taken now
    assert words in session.error and "R5.2" in session.error
    assert session.state.state_hash() == before
