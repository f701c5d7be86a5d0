"""No lesson can say something false, in any language: every number in a notebook's prose, in
digits or in words, is covered by a claim that the engine confirms.

The claims of ``tutorials/NN-*.ipynb`` are in ``tests/claims/nbNN.py``, those of
``tutorials/de/NN-*.ipynb`` in ``tests/claims/de/nbNN.py`` and of ``tutorials/zh/…`` in
``tests/claims/zh/nbNN.py`` (a German or Chinese module quotes its phrases with the English one's
checks: ``claims.translated``).

**Numbers in words** count like digits ("four markets" is checked like "4 markets"), in every
notebook. What counts as a number word, per language (:data:`NUMBER_WORDS`):

- English: two … twelve always. "one" is mostly a pronoun ("the one that…", "one another") or an
  article's stand-in, so it counts only right before a game noun ("one servant", "one card", "one
  more card"); in the first-game path (notebooks 00–03), whose prose was written against this
  test from the start, every "one" counts.
- German: zwei … zwölf and "eins" always. "ein/eine/einen/einem/einer" is mostly the article, so
  it counts only where it is clearly a number: after "genau", "nur", "je", "jeweils",
  "höchstens", "mindestens" ("nur eine Karte", "genau einen Diener").
- Chinese: 一二三四五六七八九十两 (alone or combined, 十二) before a measure word
  (个名张件颗位枚种层排行份次倍格枚) or before 回合 ("两张", "4个" is digits anyway), and not after
  第 (an ordinal: 第一个). Words such as 一起, 一样, 一旦, 一下, 一些, 唯一 have no measure word after
  them and so are not counts. Chinese has no article: "一个仆人" counts, so the notebooks write it
  only where the count matters (and claim it) and say 放置仆人 otherwise.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
from helpers_reading import FIRST_GAME

TUTORIALS = Path(__file__).parents[1] / "tutorials"
LANGUAGES = ("en", "de", "zh")


def folder(lang: str) -> Path:
    return TUTORIALS if lang == "en" else TUTORIALS / lang


#: (language, notebook) for every notebook of every language.
NOTEBOOKS = [
    (lang, path) for lang in LANGUAGES for path in sorted(folder(lang).glob("[0-9][0-9]-*.ipynb"))
]


def _id(item) -> str:
    lang, path = item
    return f"{lang}/{path.stem}"


#: Numbers that state nothing about the game: rule IDs (R3.5, R6.1–R6.4), notebook numbers
#: (**07**, "notebook 07", 07-closing-gizeh, the title's "# 07 ·"), Markdown list markers, inline
#: code (commands, notation), durations and HTML comments.
_NOT_CLAIMS = re.compile(
    r"R\d+(?:\.\d+)?(?:\s*[–-]\s*R?\d+(?:\.\d+)?)?"
    r"|\*\*\d\d(?:[–-]\d\d)?\*\*|(?:notebooks?|Notebooks?|笔记本) ?\d\d(?:[–-]\d\d)?"
    r"|\b\d\d-[a-z][a-z-]+"
    r"|^\s*\d+\.\s|(?<=[#])\d+|^# \d\d ·"
    r"|`[^`]*`"
    # a lesson plan's durations are advice, not facts of the game
    r"|\b\d+ (?:min(?:utes)?|Min(?:uten)?)\b|\d+ ?分钟"
    r"|<!--.*?-->",  # a note to the tools the learner does not see (board steps: 3)
    re.M | re.S,
)
_NUMBER = re.compile(r"\d+")

_GAME_NOUNS = (
    r"servant|card|die|dice|market|stall|square|character|seal|deben|turn|player|type|gift|pile"
    r"|placement|swap|level|row|colour|group|position|step|move|branch|game"
)
#: German words after which "ein/eine/einen…" is a number, not the article.
_CLEARLY_A_NUMBER = ("genau", "nur", "je", "jeweils", "höchstens", "mindestens")
#: Numbers written as words, per language (see the module's docstring).
NUMBER_WORDS = {
    "en": re.compile(
        r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b"
        rf"|\bone(?=\s+(?:more\s+)?(?:{_GAME_NOUNS})s?\b)",
        re.I,
    ),
    "de": re.compile(
        r"\b(?:zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|eins)\b"
        r"|(?:" + "|".join(rf"(?<=\b{w} )" for w in _CLEARLY_A_NUMBER) + r")ein(?:e|en|em|er)?\b",
        re.I,
    ),
    "zh": re.compile(r"(?<!第)[一二三四五六七八九十两]+(?=[个名张件颗位枚种层排行份次倍格]|回合)"),
}
#: Numbers in words that state no fact an engine could check: advice on reading an estimate.
EXEMPT = {
    ("en", "13"): ["two options a point apart"],  # how to read hints, not a count
    ("en", "14"): ["The two are close but rarely equal"],  # the exact and the sampled value
}
#: The first-game path counts every English "one" (see the module's docstring).
_EVERY_ONE = re.compile(r"\bone\b", re.I)


def _prose(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def claims_module(lang: str, path: Path) -> str:
    """The claims module of a notebook: ``claims.nb07``, ``claims.de.nb07``, ``claims.zh.nb07``."""
    return f"claims.{'' if lang == 'en' else lang + '.'}nb{path.name[:2]}"


def _claims(lang: str, path: Path):
    try:
        return importlib.import_module(claims_module(lang, path)).CLAIMS
    except ModuleNotFoundError:
        return []


@pytest.mark.parametrize("item", NOTEBOOKS, ids=_id)
def test_every_claim_is_in_the_notebook_and_true(item):
    lang, notebook = item
    prose = _prose(notebook)
    for claim in _claims(lang, notebook):
        assert claim.text in prose, f"{_id(item)}: the claim {claim.text!r} is not in the prose"
        assert claim.check(), f"{_id(item)}: the engine disagrees with {claim.text!r}"


@pytest.mark.parametrize(("key", "phrases"), list(EXEMPT.items()))
def test_every_exemption_is_in_its_notebook(key, phrases):
    lang, number = key
    (path,) = folder(lang).glob(f"{number}-*.ipynb")
    for phrase in phrases:
        assert phrase in _prose(path), f"{lang}/{path.name}: the exemption {phrase!r} is gone"


@pytest.mark.parametrize("item", NOTEBOOKS, ids=_id)
def test_every_number_in_the_prose_is_claimed(item):
    lang, notebook = item
    loose = _loose(_prose(notebook), lang, notebook, _NUMBER)
    assert not loose, f"{_id(item)}: numbers no claim covers: {loose}"


@pytest.mark.parametrize("item", NOTEBOOKS, ids=_id)
def test_every_number_word_is_claimed(item):
    lang, notebook = item
    loose = _loose(_prose(notebook), lang, notebook, NUMBER_WORDS[lang])
    if lang == "en" and notebook.name[:2] in FIRST_GAME:
        loose += _loose(_prose(notebook), lang, notebook, _EVERY_ONE)
    assert not loose, f"{_id(item)}: numbers in words no claim covers: {loose}"


@pytest.mark.parametrize(
    ("lang", "text", "counted"),
    [
        ("en", "Green owns five chairs", ["five"]),
        ("en", "the one that closes it; one another", []),
        ("en", "takes one card, one more card", ["one", "one"]),
        ("de", "Grün besitzt fünf Stühle, Rot nur einen", ["fünf", "einen"]),
        ("de", "Ein Diener nimmt sich einen Deben", []),
        ("de", "vierten, zweimal, beide", []),
        ("zh", "绿方有五把椅子，三张牌，两个仆人，十二个", ["三", "两", "十二"]),
        ("zh", "一起、一样、一旦、第一个、唯一", []),
        ("zh", "放置一个仆人，第3回合，三回合", ["一", "三"]),
    ],
)
def test_what_counts_as_a_number_word(lang, text, counted):
    assert [m.group(0) for m in NUMBER_WORDS[lang].finditer(text)] == counted


def test_every_one_counts_in_the_first_game_path():
    assert [m.group(0) for m in _EVERY_ONE.finditer("one of them, one another")] == ["one", "one"]


def _loose(prose: str, lang: str, notebook: Path, numbers: re.Pattern) -> list[str]:
    """The numbers in ``prose`` (as ``numbers`` finds them) that no claim and no exemption covers,
    each with some text around it."""
    covered = [False] * len(prose)
    for match in _NOT_CLAIMS.finditer(prose):
        covered[match.start() : match.end()] = [True] * (match.end() - match.start())
    texts = [claim.text for claim in _claims(lang, notebook)]
    for text in texts + EXEMPT.get((lang, notebook.name[:2]), []):
        start = prose.find(text)
        while start >= 0:
            covered[start : start + len(text)] = [True] * len(text)
            start = prose.find(text, start + 1)
    return [
        prose[max(0, m.start() - 30) : m.end() + 30].replace("\n", " ")
        for m in numbers.finditer(prose)
        if not all(covered[m.start() : m.end()])
    ]


#: The notebooks about records and files, where the move notation is the subject.
NOTATION_NOTEBOOKS = {"13", "14", "15"}
_NOTATION = re.compile(
    r"#\d|\b(?:place|buy|take|recruit|roll|draw) [a-z_]+\.(?:left|right)|\b[a-z]+_[a-z]+\.(?:left|right)"
)


@pytest.mark.parametrize(
    "item",
    [(lang, p) for lang, p in NOTEBOOKS if p.name[:2] not in NOTATION_NOTEBOOKS],
    ids=_id,
)
def test_prose_names_squares_by_value_not_by_notation(item):
    lang, notebook = item
    found = [m.group(0) for m in _NOTATION.finditer(_prose(notebook))]
    assert not found, f"{_id(item)}: move notation in the prose: {found}"
