"""Message catalogs (nefertiti_core/messages/<lang>/*.json) are complete and fit the code.

- Every language has exactly English's message ids, with the same placeholders in each template.
- Every event the engine can emit (found by scanning state.py's ``_emit("...")`` calls, so a new
  event fails here until it has a message) has a message in every language.
- The templates format with the parameters the code passes: every event of complete random games,
  every option offered along the way and the score tables are rendered in all three languages.
- Every explanation message is reachable: none is dead, so every one is formatted by these tests.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from importlib import resources
from pathlib import Path

import pytest

import nefertiti_core.teaching.explain as E
import nefertiti_core.teaching.words as W
from nefertiti_core import new_game
from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import LANGUAGES, catalog, placeholders

OTHER_LANGUAGES = [lang for lang in LANGUAGES if lang != "en"]
EXPLAIN_FILES = ("events.json", "options.json", "scoring.json")
STATE_PY = Path(R.__file__).with_name("state.py")  # the engine's, next to rules.py
EMIT = re.compile(r'_emit\(\s*"([a-z_]+)"')
CJK = re.compile(r"[\u4e00-\u9fff]")


def emitted_events() -> list[str]:
    """The event names state.py can emit, from its source."""
    return sorted(set(EMIT.findall(STATE_PY.read_text(encoding="utf-8"))))


def catalog_problems(reference: dict[str, str], other: dict[str, str], lang: str) -> list[str]:
    """What ``other`` lacks or adds compared with ``reference``, and placeholder mismatches."""
    problems = [f"{lang} lacks {key!r}" for key in sorted(set(reference) - set(other))]
    problems += [
        f"{lang} has {key!r}, English does not" for key in sorted(set(other) - set(reference))
    ]
    for key in sorted(set(reference) & set(other)):
        want, got = placeholders(reference[key]), placeholders(other[key])
        if want != got:
            problems.append(f"{lang} {key!r}: placeholders {sorted(got)} instead of {sorted(want)}")
    return problems


def explain_ids() -> set[str]:
    """The ids of the explanation catalogs (English files; the other languages match them)."""
    folder = resources.files("nefertiti_core").joinpath("messages", "en")
    ids: set[str] = set()
    for name in EXPLAIN_FILES:
        data = json.loads(folder.joinpath(name).read_text(encoding="utf-8"))
        ids |= {key for key in data if not key.startswith("_")}
    return ids


def assert_rendered(text, where: str) -> None:
    assert isinstance(text, str) and text.strip(), f"empty text for {where}"
    assert "{" not in text and "}" not in text, f"unfilled placeholder in {where}: {text}"


# --- the catalogs ------------------------------------------------------------------------------
def test_catalog_check_reports_a_missing_message_an_extra_one_and_a_wrong_placeholder():
    english = {"a": "{player} pays {amount}", "b": "done"}
    assert catalog_problems(english, {"a": "{amount} {player}", "b": "fertig"}, "xx") == []
    assert catalog_problems(english, {"a": "{player} {amount}"}, "xx") == ["xx lacks 'b'"]
    assert catalog_problems(english, {**english, "c": "?"}, "xx") == [
        "xx has 'c', English does not"
    ]
    wrong = catalog_problems(english, {"a": "{player} {deben}", "b": "x"}, "xx")
    assert wrong == ["xx 'a': placeholders ['deben', 'player'] instead of ['amount', 'player']"]


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_language_has_exactly_the_english_ids_with_the_same_placeholders(lang):
    assert catalog_problems(catalog("en"), catalog(lang), lang) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_the_explanation_files(lang):
    folder = resources.files("nefertiti_core").joinpath("messages", lang)
    for name in EXPLAIN_FILES:
        data = json.loads(folder.joinpath(name).read_text(encoding="utf-8"))
        assert len(data) > 10, f"{lang}/{name} is nearly empty"


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_translations_are_translated_not_copied(lang):
    """A template identical to English is only fine without English words ("Deben" is the
    game's coin in every language)."""
    en, other = catalog("en"), catalog(lang)

    def words(template: str) -> bool:
        return bool(re.search(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}|Deben", "", template)))

    copied = [key for key in explain_ids() if other[key] == en[key] and words(en[key])]
    assert copied == []


# --- every engine event has a message ------------------------------------------------------------
def test_the_scan_of_state_py_finds_the_engine_events():
    names = emitted_events()
    assert {"place", "roll", "market_closes", "forced", "decision", "game_over"} <= set(names)
    assert len(names) >= 25


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_emitted_event_has_a_message_in_every_language(lang):
    messages = catalog(lang)
    missing = [
        name
        for name in emitted_events()
        if name not in E.SILENT_EVENTS and f"ev.{name}" not in messages
    ]
    assert missing == []


def test_every_emitted_event_is_explained_or_deliberately_silent():
    emitted = set(emitted_events())
    assert sorted(emitted - E.EXPLAINED_EVENTS - E.SILENT_EVENTS) == []
    assert sorted(E.EXPLAINED_EVENTS - emitted) == []  # no explanation of a vanished event


# --- rendering complete games --------------------------------------------------------------------
GAMES = (
    dict(players=4, seed=21, layout="first"),
    dict(players=3, seed=22, layout="random"),
    dict(players=4, seed=23, layout="random"),
)


@cache
def played(index: int):
    """A complete random game, and every option text shown along the way, per language."""
    spec = GAMES[index]
    g = new_game(spec["players"], seed=spec["seed"], layout=spec["layout"], record_events=True)
    rng = random.Random(spec["seed"])
    shown: dict[str, list[str]] = {lang: [] for lang in LANGUAGES}
    while not g.is_over:
        for option in g.legal_options():
            for lang in LANGUAGES:
                shown[lang].append(E.describe_option(g, option, lang))
        g.apply(rng.choice(g.legal_options()))
    return g, shown


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_every_event_of_a_random_game_renders_in_every_language(index):
    g, _ = played(index)
    for name, data in g.log:
        texts = {lang: E.describe_event(name, data, g.colours, lang) for lang in LANGUAGES}
        if name in E.SILENT_EVENTS:
            assert set(texts.values()) == {None}
            continue
        for lang, text in texts.items():
            assert_rendered(text, f"{lang} {name} {data}")
        assert texts["de"] != texts["en"], texts
        assert CJK.search(texts["zh"]), texts["zh"]


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_every_option_and_the_score_table_render_in_every_language(index):
    g, shown = played(index)
    for lang in LANGUAGES:
        assert shown[lang], "no option was described"
        for text in shown[lang]:
            assert_rendered(text, f"{lang} option")
        table = E.score_table(g, lang)
        assert len(table) >= 2 + g.n * 5
        for line in table:
            assert_rendered(line, f"{lang} score table")
        lines = E.narrate(g, lang)
        assert len(lines) == sum(1 for name, _ in g.log if name not in E.SILENT_EVENTS)


# --- rare messages: events the random games above seldom produce ---------------------------------
def synthetic_events() -> list[tuple[str, dict]]:
    """Events shaped like the engine's, for branches that random games rarely reach."""
    forced = dict(seat=1, phase="bid", deben=2, bid=5, cards=3)
    return [
        ("game_over", {"winners": (0,), "variant_end": True, "rule": "R7.1"}),
        ("forced", {**forced, "option": "pass"}),
        ("forced", {**forced, "option": "half", "cards": 0}),
        ("forced", {**forced, "option": "buy upper"}),
        ("forced", {**forced, "option": "take upper", "phase": "take"}),
        ("forced", {**forced, "option": "discard harp", "phase": "shame"}),
        ("forced", {**forced, "option": "close gizeh", "phase": "place"}),
        ("forced", {**forced, "option": "place gizeh.left#3", "phase": "place"}),
        ("forced", {**forced, "option": "chief lower2", "phase": "chief"}),
        ("forced", {**forced, "option": "royal chair", "phase": "royal"}),
        ("forced", {**forced, "option": "scribe senet", "phase": "scribe"}),
        ("forced", {**forced, "option": "treasurer louqsor", "phase": "treasurer_market"}),
        ("forced", {**forced, "option": "treasurer 1", "phase": "treasurer_amount"}),
        ("forced", {**forced, "option": "exchange green:chair", "phase": "exchange_take"}),
        ("forced", {**forced, "option": "give harp", "phase": "exchange_give"}),
        ("forced", {**forced, "option": "exchange done", "phase": "exchange_take"}),
        ("forced", {**forced, "option": "reroll", "phase": "reroll"}),
        ("no_cards", dict(seat=0, market=R.GIZEH, rule="R6.2")),
        ("cannot_pay_no_gift", dict(seat=2, market=R.GIZEH, bid=7, deben=3, rule="R6.3")),
        ("reopen", dict(market=R.LOUQSOR, drawn=[], seal=False, rule="R6.7")),
        ("akhenaton", dict(market=R.GIZEH, drawn=[], rule="R6.8")),
        ("akhenaton", dict(market=R.GIZEH, drawn=[R.K_HARP], rule="R6.8")),
        # drawn on an exercise's copy: the hidden deck's cards are counted, never named
        ("reopen", dict(market=R.LOUQSOR, drawn=[R.K_HARP], seal=True, rule="R6.7", hidden=True)),
        ("akhenaton", dict(market=R.GIZEH, drawn=[R.K_HARP], rule="R6.8", hidden=True)),
        # two cards: the plural sentence (one card has its own, "1 new card is drawn")
        ("reopen", dict(market=R.GIZEH, drawn=[R.K_HARP] * 2, seal=True, rule="R6.7", hidden=True)),
        ("akhenaton", dict(market=R.GIZEH, drawn=[R.K_HARP] * 2, rule="R6.8", hidden=True)),
        ("game_over", dict(winners=(0,), rule="R7.1")),
        ("game_over", dict(winners=(0, 2), rule="R7.1")),
        (
            "market_closes",
            dict(
                seat=0,
                market=R.LOUQSOR,
                stall="louqsor.left",
                cause="placement",
                bids=[(0, 5), (1, 5)],
                squares=[4, 5],
                dice=None,
                rule="R3.7",
            ),
        ),
        (
            "market_closes",
            dict(
                seat=3,
                market=R.AKHET_ATON,
                stall="akhet_aton.right",
                cause="placement",
                bids=[(0, 5), (1, 4), (3, 3)],
                squares=[5, 4, 3],
                dice=None,
                rule="R3.4",
            ),
        ),
        (
            "scribe",
            dict(
                seat=0,
                gift_type=R.MIRROR,
                count=2,
                value=8,
                holders=2,
                bonus=1,
                points=18,
                rule="R10.7",
            ),
        ),
        (
            "royal_servant",
            dict(
                seat=0,
                gift_type=R.SENET,
                holders=2,
                value=5,
                scored=[(0, R.K_SENET, 5), (1, R.K_DOUBLE_SENET, 10)],
                rule="R10.6",
            ),
        ),
        (
            "exchange",
            dict(
                seat=0,
                partner=1,
                given=R.K_CHAIR,
                taken=R.K_MIRROR,
                paid=2,
                given_max=9,
                taken_max=11,
                rule="R10.3",
            ),
        ),
        (
            "place",
            dict(
                seat=0,
                market=R.GIZEH,
                stall="gizeh.left",
                square=3,
                value=4,
                first_here=True,
                deben_square=True,
                bonus_due=2,
                bonus_paid=1,
                rule="R5.3",
            ),
        ),
    ]


def tie_states():
    """Positions for every winner line: a tie broken on Deben, a shared win, a partly shared
    one; finished and in progress."""
    over, _ = played(0)
    states = []
    for base in (over.copy(), new_game(4, seed=3)):
        for prestige, deben in (
            ([30, 30, 10, 0], [5, 4, 1, 0]),  # tie on points, Green has more Deben
            ([30, 30, 10, 0], [4, 4, 1, 0]),  # tie on points and Deben: shared
            ([30, 30, 30, 0], [5, 5, 4, 0]),  # three tie on points, two on Deben
            ([30, 10, 10, 0], [4, 4, 1, 0]),  # a clear winner
        ):
            g = base.copy()
            for seat in range(g.n):
                g.gifts[seat] = [0] * R.NUM_KINDS
                g.seals[seat] = 0
            g.prestige[:] = prestige
            g.deben[:] = deben
            states.append(g)
    return states


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rare_events_and_tie_breaks_render_in_every_language(lang):
    for name, data in synthetic_events():
        assert_rendered(E.describe_event(name, data, R.COLOURS, lang), f"{lang} {name} {data}")
    for g in tie_states():
        assert_rendered(E.winner_line(g, lang), f"{lang} winner line")


def test_every_explanation_message_is_used(monkeypatch):
    """Each id of events/options/scoring.json is reached by some rendering above (none is dead),
    so each template has been formatted with the parameters the code really passes."""
    used: set[str] = set()
    real_tr = W.tr

    def recording_tr(lang, key, **params):
        used.add(key)
        return real_tr(lang, key, **params)

    monkeypatch.setattr(W, "tr", recording_tr)  # the wording layer every explanation goes through
    for index in range(len(GAMES)):
        g, _ = played(index)
        for name, data in g.log:
            E.describe_event(name, data, g.colours)
        E.narrate(g)
        E.score_table(g)
        replay = new_game(
            GAMES[index]["players"], seed=GAMES[index]["seed"], layout=GAMES[index]["layout"]
        )
        rng = random.Random(GAMES[index]["seed"])
        while not replay.is_over:
            for option in replay.legal_options():
                E.describe_option(replay, option)
                E.describe_option(replay, option, short=True)  # as a refusal names it
            replay.apply(rng.choice(replay.legal_options()))
    take_nothing = next(o for o in range(len(O.OPTION_KIND)) if O.OPTION_KIND[o] == O.TAKE)
    E.describe_option(new_game(4, 0), take_nothing, short=True)  # only ever refused
    for name, data in synthetic_events():
        E.describe_event(name, data, R.COLOURS)
    for g in tie_states():
        E.winner_line(g)
        E.score_table(g)
    assert sorted(explain_ids() - used) == []


def test_one_card_drawn_is_said_in_the_singular():
    """'1 new cards are drawn' (and German '1 neue Karten werden gezogen') read wrong."""
    one = dict(market=R.LOUQSOR, drawn=[R.K_HARP], seal=True, rule="R6.7")
    assert "1 new card is drawn (harp)" in E.describe_event("reopen", one, R.COLOURS, "en")
    assert "1 neue Karte wird gezogen (Harfe)" in E.describe_event("reopen", one, R.COLOURS, "de")
    two = dict(one, drawn=[R.K_HARP, R.K_CHAIR])
    assert "2 neue Karten werden gezogen" in E.describe_event("reopen", two, R.COLOURS, "de")
