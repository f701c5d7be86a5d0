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
    Chinese text, which has no spaces between words (but not as part of a key's name: 空格键 is
    the Space key, not 空格 for a square)."""
    if lang == "zh":
        return re.compile(re.escape(variant) + "(?!键)")
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


# --- German slips the glossary's variants cannot name ---------------------------------------------
#: (pattern, what is wrong) for German texts: words that are right elsewhere but wrong for this
#: concept (Personen for people is German, for character cards it is Personenkarten), the game's
#: German name (the German play report's title: Nofretete), and a plural after one.
_COUNTED = (
    "Karten|Punkte|Felder|Würfe|Züge|Schritte|Märkte|Preistabellen|Geschenke|Geschenkkarten|"
    "Personenkarten|Aufgaben|Fragen|Antworten|Partien|Werte"
)
GERMAN_SLIPS = [
    (
        re.compile(r"(?<!\d )(?<!drei )(?<!vier )(?<!zwei )\bPersonen\b"),
        "'Personen' for character cards (the glossary says 'Personenkarte'; people are "
        "'3 oder 4 Personen')",
    ),
    (re.compile(r"\bRunden?\b"), "'Runde(n)' for turns (a turn is a 'Zug', turns are 'Züge')"),
    (re.compile(r"\bNefertiti\b"), "the game's German name is 'Nofretete' (the German report)"),
    (
        # "eine deiner Karten" (one of your cards) is German; "eine neue Karten" is not
        re.compile(
            rf"(?<![\d.,/])\b(?:1|eine?) (?!(?:deiner|seiner|ihrer|der|dieser) )"
            rf"(?:[a-zäöü]\w* )?(?:{_COUNTED})\b"
        ),
        "a plural after one ('1 neue Karten')",
    ),
]
#: A count before a plural noun in a template: "{count} neue Karten" needs a sentence for one.
_COUNT_BEFORE_PLURAL = re.compile(rf"\{{(?:n|count)\}} (?:[a-zäöü]\w* )?(?:{_COUNTED})\b")
#: Counts that are never one: a server's limit of classes.
_NEVER_ONE = {"class.refuse.too_many"}
_CODE = re.compile(r"`[^`]*`")


def german_slips(texts: dict[str, str]) -> list[str]:
    """'where: what' for each German slip in ``texts`` (code in backticks left out)."""
    found = []
    for where, text in texts.items():
        prose = _CODE.sub("", text)
        found += [f"{where}: {what}" for pattern, what in GERMAN_SLIPS if pattern.search(prose)]
    return found


def german_texts() -> dict[str, str]:
    """Every German text: the catalog, the scenarios' titles and teaching, the notebooks' prose."""
    texts = {f"catalog {key}": text for key, text in catalog("de").items()}
    texts.update({f"de {where}": text for where, text in scenario_texts("de").items()})
    for path in TRANSLATED["de"]:
        for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            if cell["cell_type"] == "markdown":
                texts[f"de/{path.name} cell {index}"] = "".join(cell["source"])
    return texts


def test_the_german_checks_find_each_kind_of_slip():
    old = {
        "a": "Ohne Personen spielt ihr das Grundspiel.",
        "b": "Die Partie dauert 25 Runden.",
        "c": "Willkommen bei Nefertiti",
        "d": "und 1 neue Karten werden gezogen",
        "e": "Verbleibende Personen (oberste Karte)",
    }
    assert [slip.split(":")[0] for slip in german_slips(old)] == ["a", "b", "c", "d", "e"]
    fine = {
        "a": "Nofretete ist ein Spiel für drei oder vier Personen; eine Partie (4 Personen).",
        "b": "Zug 25; aufgerundet und abgerundet; eine Personenkarte ausspielen.",
        "c": "Starte `nefertiti serve` oder `Nefertiti`; 1 neue Karte, 11 Karten, 2/1 Karten.",
        "d": "Werte eine deiner Geschenkarten; eine der Karten.",
    }
    assert german_slips(fine) == []


def test_no_german_text_has_a_slip():
    texts = german_texts()
    assert len(texts) > 1000
    assert german_slips(texts) == []


def test_a_german_count_before_a_plural_has_a_sentence_for_one():
    """The sentence "{count} neue Karten werden gezogen" read "1 neue Karten" for one card."""
    german = catalog("de")
    missing = [
        key
        for key, text in german.items()
        if _COUNT_BEFORE_PLURAL.search(text)
        and not key.endswith(".one")
        and f"{key}.one" not in german
        and key not in _NEVER_ONE
    ]
    assert missing == []
    assert not _COUNT_BEFORE_PLURAL.search(german["ev.reopen.one"])


def test_a_german_character_is_played_as_a_card_not_a_bare_name():
    """'Erster Händler ausspielen' reads as the wrong case; 'die Karte Erster Händler ausspielen'
    names the card and needs no declension of the character's name."""
    bare = re.compile(r"(?<!Karte )(?<!Personenkarte )\{character\} aus(?:zu)?spielen")
    assert bare.search("{character} ausspielen") and not bare.search("Karte {character} ausspielen")
    assert [key for key, text in catalog("de").items() if bare.search(text)] == []


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


# --- Chinese: one word each for the tutor, the classroom, a turn; the guide's measure words ------
#: What the Chinese texts must not say, each with what to say instead. The tutor calls itself
#: 本教程 (教程 as a plain noun); the game is 娜芙蒂蒂, as the Chinese guide titles it; a classroom
#: is 教室 and a learner 学员 (the classroom catalogue's words); a turn is 回合 (轮到 "it is X's
#: turn" stays); Chinese sentences and lists take full-width punctuation; servants are counted
#: with 个, gift cards with 张, dice with 颗, seals and characters with 个 (as the guide does); a
#: stall is 左侧大厅 / 右侧大厅.
ZH_WRONG = [
    (r"导师", "the tutor is 本教程"),
    (r"(?<![\w`/.-])Nefertiti(?![\w`-])", "the game is 娜芙蒂蒂"),
    (r"房间", "a classroom is 教室"),
    (r"学生|学习者", "a learner is 学员"),
    (
        r"第\s*[\d一二三四五六七八九十两{][^，。；：、\s]{0,8}?\s*轮(?![到流换转廓])"
        r"|[每本这上下一两三四五六七八九十几多]轮(?![到流换转廓])|轮次",
        "a turn is 回合",
    ),
    (
        r"[\u4e00-\u9fff] ?[,:;(]|[,:;)] ?[\u4e00-\u9fff]",
        "Chinese text takes ，：；（） not , : ; ( )",
    ),
    (r"(?<!姓)[名位只]\s*仆人", "servants are counted with 个"),
    (r"件\s*礼物|[个枚份件]\s*礼物牌|礼物卡", "gift cards are counted with 张 (礼物牌)"),
    (r"[个只枚粒]\s*骰子", "dice are counted with 颗"),
    (r"[枚颗]\s*(?:皇家)?印章", "Royal Seals are counted with 个, as in the Chinese guide"),
    (r"[名位]\s*角色", "characters are counted with 个, as in the Chinese guide"),
    (r"(?<![侧左])[左右]大厅|侧侧", "a stall is 左侧大厅 / 右侧大厅"),
    (r"(R\d+(?:\.\d+)?|\{rule\})\s*[，,;；/]\s*(?=R\d|\{rule\})", "rule IDs are listed with 、"),
    (
        r"(?<!中的)\{(?:paid|due|amount|left|deben|reserve|most|pay)\}"
        r"(?=\{ref\}|\{cite\}|[。，；）：]|$)",
        "an amount of money says Deben",
    ),
]


def zh_wrong_words(texts: dict[str, str]) -> list[str]:
    """'where: found (what to say)' for every wrong Chinese word of ``ZH_WRONG`` in ``texts``."""
    found = []
    for pattern, say in ZH_WRONG:
        for where, text in texts.items():
            found += [f"{where}: {m.group(0)!r} ({say})" for m in re.finditer(pattern, text)]
    return found


def chinese_texts() -> dict[str, str]:
    """Every Chinese text a learner or teacher reads: the catalogue, the scenarios' titles and
    teaching texts, the Chinese notebooks' markdown and the server's refusals of a page."""
    from widgets.server.limits import REFUSALS

    texts = {f"catalog {key}": text for key, text in catalog("zh").items()}
    texts.update(scenario_texts("zh"))
    for path in TRANSLATED["zh"]:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for index, cell in enumerate(cells):
            if cell["cell_type"] == "markdown":
                texts[f"zh/{path.name} cell {index}"] = "".join(cell["source"])
    texts.update({f"limits {kind}": words["zh"] for kind, words in REFUSALS.items()})
    return texts


def test_the_chinese_texts_keep_one_word_for_each_thing():
    texts = chinese_texts()
    assert len(texts) > 1000 and any(w.startswith("zh/") for w in texts)
    assert zh_wrong_words(texts) == []


@pytest.mark.parametrize(
    "old",
    [
        "你的规则记录{path}由更新版本的导师写入。",
        "Nefertiti 规则教学",
        "为你的班级开一个房间：你会得到一个加入代码、给学生设备的链接。",
        "第3轮：轮到红方。",
        "礼物：2张竖琴, 1张椅子",
        "绿方: 2张竖琴",
        "剩余角色：宰相 (1)、首领 (1)",
        "雇佣一名角色或放置一名仆人（R5.1、R5.2）",
        "因出价超过所持金钱而弃掉一件礼物",
        "{player}花费一枚皇家印章雇佣一名角色",
        "3张礼物卡",
        "每个骰子的点数都对应一个有仆人的方块",
        "Gizeh的左大厅：四个相连的方块",
        "{market} — 左侧侧大厅",
        "以后可雇佣角色，或在终局值3分（R5.1，R9.1）",
        "储备只有{paid} Deben，{player}只得到{paid}{ref}。",
    ],
)
def test_the_chinese_check_catches_each_kind_of_old_wrong_word(old):
    assert zh_wrong_words({"old": old}), old


def test_the_chinese_check_leaves_the_right_words_alone():
    right = (
        "第3回合：轮到红方。本教程按顺时针轮流行动。老师为班级开设一个教室，学员加入。"
        "放置一个仆人，拿一张礼物牌，掷两颗骰子；Gizeh的左侧大厅（R5.1、R5.2）。"
        "拿取储备的一半：5 Deben中的{amount}。运行 `nefertiti serve`。带轮廓的方块。"
    )
    assert zh_wrong_words({"right": right}) == []


def test_the_chinese_lists_the_code_joins_take_chinese_punctuation():
    """The text view and the players' collections join their lists in code: in Chinese with 、
    and full-width brackets and colons, never ", " or "(1)"."""
    import random

    from nefertiti_core import new_game
    from nefertiti_core.teaching.textview import position_text
    from widgets.game.exercise import collections_text

    game, rng = new_game(4, seed=3), random.Random(3)
    for _ in range(60):  # far enough for collections, piles and drawn cards
        game.apply(rng.choice(game.legal_options()))
    said = position_text(game, "zh", previews=False) + collections_text(game, "zh")
    assert "宰相（1）" in said and "2张椅子、1张黄金工艺品" in said and "：  " not in said
    assert "各玩家手中的礼物：绿方：" in said  # no space after a full-width colon
    assert zh_wrong_words({"the text view": said}) == []


def test_the_chinese_stall_tables_list_numbers_and_names_with_a_chinese_comma():
    """The lessons' tables join numbers ("1–3, 5") and names in code: in Chinese with 、, never
    an ASCII comma; English and German as before."""
    from widgets.lesson.pieces import group_rows, pile_rows
    from widgets.lesson.stall_tables import closing_totals

    chinese = closing_totals("abou_simbel", lang="zh").object
    assert "11、14、17–26" in chinese and not re.search(r"\d, \d", chinese), chinese
    assert "11, 14, 17–26" in closing_totals("abou_simbel", lang="en").object
    assert "11, 14, 17–26" in closing_totals("abou_simbel", lang="de").object
    piles = " ".join(" ".join(row) for row in pile_rows(lang="zh")[1])
    pairs = " ".join(group_rows("gizeh", "left", lang="zh"))
    for said in (piles, pairs):
        assert "、" in said and ", " not in said and zh_wrong_words({"table": said}) == [], said


def test_the_german_reset_button_and_settling_are_worded_as_a_german_teacher_would():
    """The exercise card's button puts the position back ("zurücksetzen", not "neu beginnen":
    nothing new begins); notebook 00 says who buys when a market is settled (the players, with
    their servants on the closed market; "Seine Diener" left open whose)."""
    assert catalog("de")["exercise.card.reset"] == "Stellung zurücksetzen"
    welcome = TUTORIALS[0].parent / "de" / "00-welcome.ipynb"
    cells = json.loads(welcome.read_text(encoding="utf-8"))["cells"]
    text = " ".join(" ".join("".join(c["source"]).split()) for c in cells)
    assert "Seine Diener kaufen" not in text
    assert "Abrechnen:** Auf dem geschlossenen Markt kaufen die Spieler mit ihren Dienern" in text
