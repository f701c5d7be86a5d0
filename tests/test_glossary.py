"""One vocabulary per language, and nothing left in English (issue #13, item 10).

- ``messages/<lang>/glossary.json`` gives each game concept ONE term per language
  (``term.<concept>``) and, under ``_variants``, the other names it must not be given. A variant
  in any catalog entry, any scenario title or teaching text of that language, or any notebook
  markdown cell of that language (``tutorials/``, ``tutorials/de``, ``tutorials/zh``) fails
  here, naming where it is.
- Every example scenario has its teaching text in German and Chinese, with the same rule IDs
  and numbers as the English; a Lesson and ``nefertiti explain --lang`` show it in their language.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from nefertiti_core.engine.i18n import LANGUAGES, catalog
from nefertiti_core.files.scenario import ScenarioError, load, loads_scenario

MESSAGES = resources.files("nefertiti_core").joinpath("messages")
SCENARIOS = sorted(
    Path(str(resources.files("nefertiti_core").joinpath("scenarios"))).glob("*.yaml")
)
TUTORIALS = sorted((Path(__file__).parents[1] / "tutorials").glob("*.ipynb"))
#: The German and Chinese notebooks (tutorials/de, tutorials/zh), each checked in its language.
TRANSLATED = {
    lang: sorted((Path(__file__).parents[1] / "tutorials" / lang).glob("*.ipynb"))
    for lang in ("de", "zh")
}
CJK = re.compile(r"[\u4e00-\u9fff]")
RULE_ID = re.compile(r"\bR\d+(?:\.\d+)?\b")


def glossary(lang: str) -> dict:
    return json.loads(MESSAGES.joinpath(lang, "glossary.json").read_text(encoding="utf-8"))


def terms(lang: str) -> dict[str, str]:
    return {key: text for key, text in glossary(lang).items() if not key.startswith("_")}


def variant_pattern(lang: str, variant: str) -> re.Pattern:
    """A variant as a whole word (German and English; English ignores case), or anywhere in
    Chinese text, which has no spaces between words."""
    if lang == "zh":
        return re.compile(re.escape(variant))
    flags = re.IGNORECASE if lang == "en" else 0
    return re.compile(r"(?<![\w-])" + re.escape(variant) + r"(?![\w-])", flags)


def variants_in(lang: str, texts: dict[str, str]) -> list[str]:
    """'where: variant (use term)' for every variant of the glossary found in ``texts``."""
    names = terms(lang)
    found = []
    for concept, variants in glossary(lang)["_variants"].items():
        for variant in variants:
            pattern = variant_pattern(lang, variant)
            for where, text in texts.items():
                if pattern.search(text):
                    found.append(f"{where}: {variant!r} (the glossary says {names[concept]!r})")
    return found


# --- the glossary itself -------------------------------------------------------------------------
def test_every_language_names_the_same_concepts_with_a_term_each():
    concepts = set(terms("en"))
    assert len(concepts) >= 40
    for lang in LANGUAGES:
        assert set(terms(lang)) == concepts, lang
        assert all(isinstance(t, str) and t.strip() for t in terms(lang).values()), lang
        assert set(glossary(lang)["_variants"]) <= concepts, lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_term_is_caught_by_a_variant(lang):
    """A variant that matched a term would fail on the glossary's own words."""
    caught = variants_in(lang, {f"term {key}": text for key, text in terms(lang).items()})
    assert caught == []


def test_the_check_finds_a_variant_and_leaves_words_that_only_contain_one():
    found = variants_in("de", {"a": "der Vorrat", "b": "die Reserve von Luxor", "c": "Spielstand"})
    assert found == ["b: 'Reserve' (the glossary says 'Vorrat')"]
    assert variants_in("zh", {"x": "Louqsor（卢克索）"}) == [
        "x: '卢克索' (the glossary says 'Louqsor')"
    ]
    assert len(variants_in("en", {"y": "Luxor is closed", "z": "Louqsor is closed"})) == 1


# --- the texts follow it -------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_catalog_entry_uses_a_variant(lang):
    assert variants_in(lang, catalog(lang)) == []


def scenario_texts(lang: str) -> dict[str, str]:
    texts = {}
    for path in SCENARIOS:
        scenario = load(path)
        title = scenario.title if lang == "en" else scenario.titles.get(lang, "")
        teaching = scenario.teaching if lang == "en" else scenario.teachings.get(lang, "")
        texts[f"{path.name} title"] = title
        texts[f"{path.name} teaching"] = teaching
    return texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_scenario_title_or_teaching_text_uses_a_variant(lang):
    assert variants_in(lang, scenario_texts(lang)) == []


def test_no_notebook_markdown_uses_a_variant():
    texts = {}
    for path in TUTORIALS:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for index, cell in enumerate(cells):
            if cell["cell_type"] == "markdown":
                text = "".join(cell["source"])
                lang = "zh" if CJK.search(text) else "en"
                texts[(lang, f"{path.name} cell {index}")] = text
    assert len(texts) > 50
    for lang, paths in TRANSLATED.items():
        for path in paths:
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            for index, cell in enumerate(cells):
                if cell["cell_type"] == "markdown":
                    where = f"{lang}/{path.name} cell {index}"
                    texts[(lang, where)] = "".join(cell["source"])
    assert {lg for lg, _ in texts} == set(LANGUAGES)
    found = []
    for lang in LANGUAGES:
        found += variants_in(lang, {where: t for (lg, where), t in texts.items() if lg == lang})
    assert found == []


# --- teaching texts in every language ------------------------------------------------------------
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_teaches_in_german_and_chinese_with_the_same_rules_and_numbers(path):
    scenario = load(path)
    english = scenario.teaching
    for lang in ("de", "zh"):
        text = scenario.teachings.get(lang, "")
        assert text.strip() and text != english, f"{path.name}: no {lang} teaching text"
        assert sorted(RULE_ID.findall(text)) == sorted(RULE_ID.findall(english)), (path.name, lang)
        numbers = set(re.findall(r"\d+", RULE_ID.sub("", english)))
        assert numbers <= set(re.findall(r"\d+", RULE_ID.sub("", text))), (path.name, lang)
    assert CJK.search(scenario.teachings["zh"])
    assert "\n" not in scenario.teachings["zh"].strip()  # a line break shows as a space in CJK


BASE = """nefertiti: 1
players: [{colour: green}, {colour: red}, {colour: blue}]
"""


def test_a_teaching_text_may_come_in_every_language():
    text = BASE + "teaching:\n  en: |\n    Look at Gizeh.\n  de: |\n    Schau auf Gizeh.\n"
    scenario = loads_scenario(text)
    assert scenario.teaching == "Look at Gizeh.\n"
    assert scenario.teaching_in("de") == "Schau auf Gizeh.\n"
    assert scenario.teaching_in("zh") == "Look at Gizeh.\n"  # not translated: English
    assert loads_scenario(BASE + "teaching: |\n  Plain.\n").teaching_in("de") == "Plain.\n"


@pytest.mark.parametrize(
    ("teaching", "words"),
    [
        ("teaching:\n  de: |\n    Hallo.\n", "line 3: teaching: a translated teaching text needs"),
        ("teaching:\n  en: x\n  fr: y\n", "line 5: teaching.fr: unknown field 'fr'"),
        ("teaching:\n  en: x\n  zh: 3\n", "line 5: teaching.zh: expected the teaching text in zh"),
        ("teaching: [x]\n", "line 3: teaching: the teaching text is text"),
    ],
)
def test_a_broken_translated_teaching_text_is_named_with_its_line_and_field(teaching, words):
    with pytest.raises(ScenarioError) as info:
        loads_scenario(BASE + teaching, "lesson.yaml")
    assert str(info.value).startswith("lesson.yaml: ") and words in str(info.value)


def test_a_saved_translated_teaching_text_loads_back():
    from nefertiti_core.files.scenario import dumps_scenario

    scenario = load(SCENARIOS[0])
    again = loads_scenario(dumps_scenario(scenario.state, scenario.titles, scenario.teachings))
    assert again.teachings == scenario.teachings and again.titles == scenario.titles


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_explain_prints_the_teaching_text_in_the_language_asked(capsys, lang):
    from nefertiti_core.cli import main

    path = next(p for p in SCENARIOS if p.stem == "treasurer")
    assert main(["explain", str(path), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert out.startswith(load(path).teachings[lang].strip())
    assert "The Treasurer takes at most 4" not in out


def test_a_lesson_shows_its_teaching_text_in_the_boards_language():
    from widgets.lesson.notebook import Lesson

    lesson = Lesson("treasurer", lang="de")
    scenario = load(next(p for p in SCENARIOS if p.stem == "treasurer"))
    assert scenario.teachings["de"].split()[0] in lesson.teaching.object
    assert "Der Schatzmeister nimmt bis zu 4 Deben" in lesson.heading.object  # the title
    lesson.lang = "zh"
    assert scenario.teachings["zh"].strip() in lesson.teaching.object
    lesson.lang = "en"
    assert "The Treasurer takes at most 4" in lesson.teaching.object.replace("\n", " ")
