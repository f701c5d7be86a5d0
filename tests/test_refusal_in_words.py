"""A refused option is told in words on the pages, never in move notation (the command line's).

Random games (seeded) are played to their end; at every decision a few illegal options of every
kind are refused through ``nefertiti_core.teaching.refusal`` in English, German and Chinese, and
no option's notation ("buy upper", "place gizeh.left#3", "recruit vizier") is in the message.
The engine's own message (what the command line prints) still names them in notation.
"""

from __future__ import annotations

import random
import re

import pytest

from nefertiti_core import IllegalOptionError, new_game
from nefertiti_core.engine import options as O
from nefertiti_core.engine.i18n import LANGUAGES
from nefertiti_core.teaching.refusal import legal_in_words, refusal

#: Every option's notation that could not be an ordinary phrase: two words or more, or a square
#: ("buy upper", "place gizeh.left#3", "take upper+lower1"; not "half" or "pass").
NOTATIONS = sorted(
    {
        text
        for text in (new_game(4, 0).option_text(o) for o in range(len(O.OPTION_KIND)))
        if " " in text or "#" in text
    },
    key=len,
    reverse=True,
)


def notation_in(text: str) -> list[str]:
    return [each for each in NOTATIONS if each in text]


def decisions(seed: int):
    """Each decision of a random game: (state, some illegal options of each kind)."""
    rng = random.Random(seed)
    state = new_game(4, seed)
    while state.legal:
        legal = set(state.legal)
        illegal: dict[str, list[int]] = {}
        for option in range(len(O.OPTION_KIND)):
            if option not in legal:
                illegal.setdefault(O.OPTION_KIND[option], []).append(option)
        picked = [rng.choice(options) for options in illegal.values()]
        yield state, picked
        state.apply(rng.choice(state.legal))


def test_the_check_finds_notation():
    assert notation_in("the options are: buy upper, buy lower2, half")
    assert notation_in("可选的是：place gizeh.left#0")
    assert not notation_in("The 4 of Gizeh's left stall; Take half the reserve; close Gizeh")


@pytest.mark.parametrize("seed", [1, 2])
def test_no_refusal_on_a_page_names_an_option_in_notation(seed):
    told = 0
    for state, illegal in decisions(seed):
        for option in illegal[:4]:
            for lang in LANGUAGES:
                text, _rule = refusal(state, option, lang)
                assert not notation_in(text), (lang, state.option_text(option), text)
                named = re.match(r"[^“„]*[“„](.*?)[”“]", text)  # the option, in quotes
                assert named and len(named.group(1).strip()) >= 2, text
                told += 1
    assert told > 500  # a whole game's decisions, every phase met on the way


def test_many_placements_are_counted_not_listed_and_the_rest_named():
    state = new_game(4, 0)  # Blue's first turn: placements only
    text = legal_in_words(state, "en")
    count = sum(1 for o in state.legal if O.OPTION_KIND[o] == O.PLACE)
    assert text.startswith(f"a servant on one of {count} free squares"), text
    assert "Gizeh" in text and "Akhet-Aton" in text and "Abou Simbel" in text
    assert "Louqsor" not in text  # closed: no free square there (R2.8)


def test_the_command_lines_message_keeps_the_notation():
    state = new_game(4, 0)
    with pytest.raises(IllegalOptionError, match="place gizeh.right#0"):
        state.apply("place gizeh.right#0")
