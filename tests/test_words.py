"""The one wording layer (nefertiti_core.teaching.words, #15): the rule ID of an explanation comes from the
engine's event, events whose handler added nothing are worded generically, and explain, status,
exercises, practice and hints word through the same helpers."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import LANGUAGES, tr
from nefertiti_core.files import exercises, practice
from nefertiti_core.play import hints
from nefertiti_core.teaching import explain as E
from nefertiti_core.teaching import status
from nefertiti_core.teaching.rules_reference import ids
from nefertiti_core.teaching.words import Message, Seats, Words, render, section_of


def _events(seeds=range(6)):
    for seed in seeds:
        g = new_game(3 if seed % 3 == 2 else 4, seed=seed, record_events=True)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_options()))
        yield g


def test_every_rule_an_event_carries_has_a_rulebook_section():
    carried = {d["rule"] for g in _events() for _, d in g.log if d.get("rule")}
    assert {"R5.2", "R6.2", "R6.4"} <= carried  # the events of real games carry rule IDs
    sections = {"setup", "place", "character", "markets", "closing", "characters", "scoring"}
    for rule in carried | {i for i in ids() if not i.startswith(("R11", "R12"))}:
        assert section_of(rule) in sections, rule
    for rule in carried:
        assert tr("en", f"section.{section_of(rule)}")


def test_a_rule_without_a_section_is_refused_by_name():
    with pytest.raises(ValueError, match="R12"):
        section_of("R12")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rule_of_a_generic_event_comes_from_the_event(lang):
    """Each event worded generically names the rule the engine put in it: give the event
    another rule of the same section and the explanation names that one (the old handlers
    wrote their rule ID themselves and ignored the event's)."""
    seen = set()
    for g in _events(range(3)):
        for name, data in g.log:
            if name not in E.GENERIC_EVENTS or not data.get("rule") or name == "turn":
                continue
            seen.add(name)
            text = E.describe_event(name, data, g.colours, lang)
            assert data["rule"] in text, (name, text)
            other = data["rule"] + ", R99"  # the same section (the first ID decides), new text
            changed = E.describe_event(name, {**data, "rule": other}, g.colours, lang)
            assert other in changed and changed.replace(other, data["rule"]) == text, name
    assert {"pay", "buy", "recruit", "reroll", "half"} <= seen


def test_most_event_handlers_are_generic():
    assert len(E.GENERIC_EVENTS) >= 15
    assert set(E.GENERIC_EVENTS) <= E.EXPLAINED_EVENTS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_join_for_explanations_status_and_exercises(lang):
    w = Words(lang, R.COLOURS)
    assert w.join([1, 2, 3]) == tr(
        lang, "status.list.and", head=tr(lang, "status.list.sep").join(["1", "2"]), last="3"
    )
    assert w.join([]) == ""
    assert Words(lang, R.COLOURS, say_nothing=True).join([]) == tr(lang, "status.list.nothing")
    assert w.sentences("a", "", "b") == tr(lang, "status.sentence_sep").join(["a", "b"])
    assert w.sentences(["a", "b"]) == w.sentences("a", "b")
    message = Message.of("preview.next", player=Seats((1,)))
    assert render(message, R.COLOURS, lang) == w.render(message)
    assert w.ref_to("R6.2") == tr(lang, "ref", section=tr(lang, "section.closing"), rule="R6.2")


def _source(module) -> str:
    """A module's source; a package's is that of all its modules."""
    path = Path(module.__file__)
    files = sorted(path.parent.glob("*.py")) if path.name == "__init__.py" else [path]
    return "\n".join(f.read_text(encoding="utf-8") for f in files)


def test_the_modules_word_through_words():
    """No second wording helper: explain, status, exercises, practice and hints use Words."""
    for module in (E, status, exercises, practice, hints):
        source = _source(module)
        assert "(Words)" in source or "Words(" in source, module.__name__
        assert not re.search(r"^class \w*Words\b(?!\(Words\))", source, re.M), module.__name__
        assert not re.search(r"^def _render_value\b|^def _join\b|^def _cap\b", source, re.M)
