"""The detector of English sentences that the German and Chinese lesson journeys run on their
pages (tests/browser/english_words.py; the journeys: tests/browser/
test_lessons_in_german_and_chinese.py).

It must find an English sentence planted in German or Chinese text, and an English label the
catalogue has, and it must pass every German and Chinese text the project has: the catalogues'
messages and the translated notebooks' Markdown (a false alarm there would fail the journeys
for nothing)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "browser"))
from english_words import english_messages, english_sentences  # noqa: E402

from nefertiti_core.engine.i18n import catalog, tr  # noqa: E402

TUTORIALS = Path(__file__).resolve().parents[1] / "tutorials"
GERMAN = "Rot setzt einen Diener auf die 8 in Akhet-Aton. Danach ist Blau am Zug."
CHINESE = "红方把一个仆人放在 Akhet-Aton 的 8 上。然后轮到蓝方。"
PLANTED = "Your servants bid for the cards of this market."


def _shown(markdown: str) -> str:
    """What a learner reads of a Markdown cell: no HTML comments, no code, no link targets."""
    markdown = re.sub(r"<!--.*?-->", " ", markdown, flags=re.S)
    return re.sub(r"\]\([^)]*\)", "]", re.sub(r"`[^`]*`", " ", markdown))


def _markdown(lang: str) -> list[tuple[str, str]]:
    return [
        (path.name, _shown("".join(cell["source"])))
        for path in sorted((TUTORIALS / lang).glob("*.ipynb"))
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]
        if cell["cell_type"] == "markdown"
    ]


@pytest.mark.parametrize("text", [GERMAN, CHINESE])
def test_a_planted_english_sentence_is_found(text):
    page = f"{text}\n{PLANTED}\n{text}"
    assert english_sentences(page) == [PLANTED]
    # within a line of German or Chinese too
    assert english_sentences(f"{text} {PLANTED} {text}")


@pytest.mark.parametrize("text", [GERMAN, CHINESE])
def test_clean_german_and_chinese_pass(text):
    assert english_sentences(text) == []
    assert english_messages(text, "de" if text is GERMAN else "zh") == []


def test_the_language_line_and_the_names_are_not_english():
    line = "English · Deutsch · 中文"
    names = "Gizeh, Louqsor, Abou Simbel, Akhet-Aton, Nefertiti, 12 Deben, Run → Run All Cells"
    assert english_sentences(f"{line}\n{names}\n{GERMAN}") == []
    assert english_messages(f"{line}\n{names}\n{GERMAN}", "de") == []


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_an_english_label_of_the_catalogue_is_found(lang):
    label = tr("en", "lesson.exercises_intro")
    assert "lesson.exercises_intro" in {key for _, key in english_messages(label, lang)}, label
    assert english_messages(tr(lang, "lesson.exercises_intro"), lang) == []


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_an_english_word_label_is_found_as_a_word(lang):
    assert ("Log", "panel.view.log") in english_messages(f"{GERMAN}\nLog\n{CHINESE}", lang)
    assert ("Blue", "colour.blue") in english_messages(f"{GERMAN} Blue", lang)
    assert english_messages("Logik und Katalog", lang) == []


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_every_message_of_the_language_passes(lang):
    flagged = {
        key: text
        for key, text in catalog(lang).items()
        if english_sentences(text) or english_messages(text, lang)
    }
    assert not flagged, flagged


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_every_translated_notebook_passes(lang):
    flagged = [
        (name, english_sentences(text) + english_messages(text, lang))
        for name, text in _markdown(lang)
    ]
    flagged = [(name, found) for name, found in flagged if found]
    assert not flagged, flagged
