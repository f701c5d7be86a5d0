"""German sentences name a stall in the case the sentence needs (nefertiti_core/engine/stall_names.py).

The most frequent sentence of the tutor says where a servant goes. German says it as a native
teacher would, "Grün setzt einen Diener auf die 4 der linken Preistabelle von Gizeh", not with
the stiff "auf die linke Preistabelle von Gizeh, und zwar auf die 4". Every German message that
names a stall or a square is rendered here for every square of all eight stalls, and each stall
is found in a form of the glossary's term (``term.stall``, the markets' ``term.<market>``) whose
article and adjective agree, after a preposition that takes that case.
"""

from __future__ import annotations

import json
import re
import string
from importlib import resources

import pytest

from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import LANGUAGES, catalog, tr
from nefertiti_core.engine.squares import square_name, square_names
from nefertiti_core.engine.stall_names import StallPhrase, stall_name
from nefertiti_core.files import staging as S
from nefertiti_core.teaching.explain import narrate

GLOSSARY = json.loads(
    resources.files("nefertiti_core")
    .joinpath("messages", "de", "glossary.json")
    .read_text(encoding="utf-8")
)
TERM = GLOSSARY["term.stall"]
MARKETS = "|".join(re.escape(GLOSSARY[f"term.{m}"]) for m in R.MARKETS)
#: A stall as German names it: article, side adjective, the glossary's term, the market.
STALL = re.compile(
    rf"(?:(?P<before>\w+) )?(?P<article>die|der) (?P<side>linke|linken|rechte|rechten) "
    rf"{TERM} von (?P<market>{MARKETS})\b"
)
#: Prepositions that always take the dative: a stall or square after them is "der …".
DATIVE = {"von", "mit", "aus", "bei", "nach", "zu", "seit"}
NAMES = {"stall", "square", "squares"}


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def german_keys() -> list[str]:
    return sorted(key for key, text in catalog("de").items() if fields(text) & NAMES)


def render(key: str, stall: R.Stall, index: int) -> str:
    params = {name: "X" for name in fields(catalog("de")[key])}
    params.update(
        stall=stall_name(stall, "de"),
        square=square_name(stall, index, "de"),
        squares=square_names(stall, (index,), "de"),
    )
    return tr("de", key, **params)


def problems(text: str) -> list[str]:
    """What reads wrong about the stalls named in a German sentence."""
    found = ["'und zwar'"] if "und zwar" in text else []
    for match in STALL.finditer(text):
        article, side, before = match["article"], match["side"], match["before"]
        if (article == "die") != side.endswith("e"):
            found.append(f"{article} {side}: article and adjective disagree")
        if article == "die" and before in DATIVE:
            found.append(f"{before} die …: {before} takes the dative")
    if re.search(rf"\b(?:die|der) (?:linke|linken|rechte|rechten)\b(?! {TERM})", text):
        found.append("a side with no stall (an adjective without its noun)")
    for before in DATIVE:
        if re.search(rf"\b{before} die \w", text):
            found.append(f"{before} die …: {before} takes the dative")
    return list(dict.fromkeys(found))  # each problem once


def test_the_german_forms_of_a_stall():
    left = stall_name(R.stall_of(R.GIZEH, R.LEFT), "de")
    assert isinstance(left, StallPhrase)
    assert (str(left), f"{left:acc}", f"{left:dat}", f"{left:gen}") == (
        "die linke Preistabelle von Gizeh",
        "die linke Preistabelle von Gizeh",
        "der linken Preistabelle von Gizeh",
        "der linken Preistabelle von Gizeh",
    )
    right = stall_name(R.stall_of(R.LOUQSOR, R.RIGHT), "de")
    assert f"{right:gen}" == "der rechten Preistabelle von Luxor"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_english_and_chinese_have_one_form_and_take_the_same_specs(lang):
    name = stall_name(R.stall_of(R.ABOU_SIMBEL, R.RIGHT), lang)
    assert {format(name, spec) for spec in ("", "nom", "acc", "dat", "gen")} == {str(name)}


def test_an_unknown_case_is_named():
    with pytest.raises(ValueError, match="unknown case 'abl' for a stall's name"):
        format(stall_name(0, "de"), "abl")


def test_the_check_finds_the_old_stiff_and_wrong_forms():
    assert problems("Grün setzt einen Diener auf die 4 der linken Preistabelle von Gizeh.") == []
    assert problems("Grün setzt auf die linke Preistabelle von Gizeh, und zwar auf die 4") == [
        "'und zwar'"
    ]
    assert problems("jedes freie Feld von die linke Preistabelle von Gizeh") == [
        "von die …: von takes the dative"
    ]
    assert problems("auf der linke Preistabelle von Luxor") == [
        "der linke: article and adjective disagree"
    ]
    assert problems("Gizeh — die linke") == ["a side with no stall (an adjective without its noun)"]


def test_every_german_sentence_with_a_stall_or_square_names_them_in_the_right_case():
    keys = german_keys()
    assert {"ev.place", "opt.place", "exercise.prompt.chance", "preview.intro.place"} <= set(keys)
    found = []
    for key in keys:
        for stall in R.STALLS:
            for index in range(len(stall.squares)):
                text = render(key, stall, index)
                found += [f"{key} ({stall.name}#{index}): {p}: {text}" for p in problems(text)]
                if "{stall" in catalog("de")[key]:
                    assert STALL.search(text), (key, text)
    assert found == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_keys_render_in_every_language(lang):
    """Every message naming a stall renders in each language with every placeholder filled (no
    brace left), the stall named in the case the sentence asks for (German "der linken
    Preistabelle" after "von", never the nominative there; English and Chinese keep their one
    form), and in that language (a German or Chinese text is not the English one)."""
    for key in german_keys():
        template = catalog(lang)[key]
        specs = {name: spec for _, name, spec, _ in string.Formatter().parse(template) if name}
        for stall in R.STALLS:
            names = {}
            for one in LANGUAGES:
                params = {name: "X" for name in fields(catalog(one)[key])}
                params.update(
                    stall=stall_name(stall, one),
                    square=square_name(stall, 0, one),
                    squares=square_names(stall, (0,), one),
                )
                names[one] = (params, tr(one, key, **params))
            params, text = names[lang]
            assert "{" not in text and "}" not in text, (lang, key, text)
            if "stall" in specs:
                named = format(params["stall"], specs["stall"])
                assert named in text, (lang, key, named, text)
            if lang != "en":
                assert text != names["en"][1], (lang, key, "the English text")


def test_a_placement_is_told_with_the_square_of_its_stall():
    game = new_game(4, seed=3, first_player=0, record_events=True)
    S.start_turn(game, 0)
    since = len(game.log)
    game.apply(game.parse("place abou_simbel.left#3"))
    line = " ".join(narrate(game, "de", since))
    assert "setzt einen Diener auf die 2 ohne Symbol der linken Preistabelle von Abu Simbel" in line
    assert problems(line) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_board_in_words_titles_a_market_with_its_stall_not_a_bare_adjective(lang):
    """German "Gizeh — linke Preistabelle" (was "Gizeh — linke"), as the drawn board says it."""
    from nefertiti_core.teaching.board_words import market_title

    game = new_game(4, seed=3, first_player=0)
    for market in range(len(R.MARKETS)):
        side = tr(lang, f"side.{R.SIDES[game.side[market]]}")
        title = market_title(game, market, lang)
        market_name = tr(lang, f"market.{R.MARKETS[market]}")
        assert title == tr(lang, "board.market_title", market=market_name, side=side)
        if lang == "de":
            assert title.endswith(f"{side} {TERM}"), title
