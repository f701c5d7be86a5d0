"""A learner meets every option in words, never in move notation ("discard chair",
"place gizeh.left#0", "buy upper"), in English, German and Chinese.

Seeded random games are played through a :class:`GameSession` until every kind of decision has
come up (placement, closing, the highest bidder's take, the other bidders, discarding, characters,
the Merchant's exchange); at each, the board's text view (``widgets/game/board_text.text_view``),
the decision panel (its buttons, their hover text, its drop-down and who decides) and the position
as text (``position_text``, what notebooks print) are read in every language and searched for
every option's notation (the refusal test's list). The command line's ``explain`` still writes
the notation first, since options are typed so there.
"""

from __future__ import annotations

import random

import pytest
from test_refusal_in_words import notation_in

from nefertiti_core import new_game
from nefertiti_core.engine.i18n import LANGUAGES
from nefertiti_core.teaching.textview import position_text
from widgets.game.board_text import text_view
from widgets.game.decision import DecisionPanel
from widgets.game.session import GameSession

#: The decisions a game must have met for the check to mean something.
PHASES = {"turn", "place", "take", "bid", "shame", "exchange_take", "exchange_give"}


def page_texts(panel: DecisionPanel, session: GameSession) -> list[str]:
    """What the text view, the decision panel and the position as text show now."""
    state, lang = session.state, session.lang
    view, said = text_view(state, session.history, lang)
    texts = [said] + [line for section in view["sections"] for line in section["lines"]]
    shown = [b for b in panel.buttons if b.visible]
    texts += [b.name for b in shown] + [b.description.content for b in shown]  # hover texts
    texts += [label for group in panel.place_select.groups.values() for label in group]
    texts.append(panel.who.object)
    texts.append(position_text(state, lang))
    return texts


@pytest.fixture(scope="module")
def games():
    """(phases met, notation found as (language, phase, notation, text))."""
    met, found = set(), []
    for seed in range(1, 7):
        rng = random.Random(seed)
        session = GameSession(new_game(4, seed))
        panel = DecisionPanel(session)
        step = 0
        while session.state.legal:
            state = session.state
            if state.phase not in met or step % 25 == 0:
                for lang in LANGUAGES:
                    session.lang = lang
                    panel.refresh()
                    for text in page_texts(panel, session):
                        found += [(lang, state.phase, hit, text) for hit in notation_in(text)]
                met.add(state.phase)
            session.play(rng.choice(state.legal))
            step += 1
        if PHASES <= met:
            break
    return met, found


def test_every_kind_of_decision_was_read(games):
    met, _ = games
    assert PHASES <= met, PHASES - met


def test_no_option_reaches_a_learner_in_notation(games):
    _, found = games
    assert not found, found[:5]


def test_the_command_line_still_names_options_in_notation():
    state = new_game(4, 0)
    assert notation_in(position_text(state, "en", previews=False, notation=True))
    assert not notation_in(position_text(state, "zh", previews=False))
