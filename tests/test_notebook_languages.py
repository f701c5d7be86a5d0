"""The English, German and Chinese notebooks stay in step: a lesson changed in one language and
not in the others fails here.

``tutorials/NN-name.ipynb`` is the English lesson; ``tutorials/de/NN-name.ipynb`` and
``tutorials/zh/NN-name.ipynb`` are the same lesson in German and Chinese. For every pair:

- the same cells in the same order, with the same cell types and cell metadata (a hidden source
  stays hidden), and the same notebook metadata;
- the first code cell is exactly the English one plus the language call
  (``from widgets.lesson import use_language`` / ``use_language("de")``);
- every other code cell is the English one, compared as Python syntax trees after these, and
  only these, are replaced by a placeholder: the texts the learner reads — string constants
  given as ``label=``, ``title=``, ``name=`` or ``placeholder=``, every string constant inside
  the arguments of ``pn.pane.Markdown(...)``, the literal parts of every f-string (its
  ``{expressions}`` stay), and the string keys of a dict literal (names of examples shown to the
  learner) — and the language codes given as ``lang=…`` or assigned to ``….lang``. Scenario names,
  moves in notation, file names and everything else must be identical;
- each Markdown cell has the English cell's rule IDs (R5.3, R6.1–R6.4), notebook references
  (``**04**``) and HTML comments (``<!-- board steps: 3 -->``), and the title keeps its
  ``# NN ·`` number;
- the first Markdown cell has the language line right under its title, and every link to a
  notebook in any Markdown cell leads to a file that exists.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

TUTORIALS = Path(__file__).parents[1] / "tutorials"
ENGLISH = sorted(TUTORIALS.glob("[0-9][0-9]-*.ipynb"))
TRANSLATIONS = ("de", "zh")
#: The language line of each language, under the title of a notebook's first Markdown cell.
LANGUAGE_LINE = {
    "en": "**English** · [Deutsch](de/{name}) · [中文](zh/{name})",
    "de": "[English](../{name}) · **Deutsch** · [中文](../zh/{name})",
    "zh": "[English](../{name}) · [Deutsch](../de/{name}) · **中文**",
}
LANGUAGE_CALL = '\n\nfrom widgets.lesson import use_language\n\nuse_language("{lang}")'

#: Keyword arguments whose string is a text the learner reads.
SHOWN_KEYWORDS = {"label", "title", "name", "placeholder"}
_TEXT = "<text>"
_LANG = "<lang>"

_RULE_ID = re.compile(r"\bR\d+(?:\.\d+)?")
_NOTEBOOK_REF = re.compile(r"\*\*\d\d\*\*")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_LINK = re.compile(r"\]\(([^)\s]+\.ipynb)\)")


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _source(cell: dict) -> str:
    return "".join(cell["source"])


PAIRS = [
    (lang, english, TUTORIALS / lang / english.name)
    for lang in TRANSLATIONS
    for english in ENGLISH
    if (TUTORIALS / lang / english.name).exists()
]


def _pair_id(pair) -> str:
    lang, english, _ = pair
    return f"{lang}/{english.stem}"


# --------------------------------------------------------------------------- normalising code
class _Texts(ast.NodeTransformer):
    """Replaces the texts the learner reads and the language codes by placeholders."""

    def __init__(self):
        self.in_markdown = 0

    @staticmethod
    def is_markdown(node: ast.Call) -> bool:
        return isinstance(node.func, ast.Attribute) and node.func.attr == "Markdown"

    def visit_Call(self, node: ast.Call):
        node.func = self.visit(node.func)
        markdown = self.is_markdown(node)
        self.in_markdown += markdown
        node.args = [self.visit(arg) for arg in node.args]
        self.in_markdown -= markdown
        for keyword in node.keywords:
            value = keyword.value
            if keyword.arg == "lang" and isinstance(value, ast.Constant):
                keyword.value = ast.Constant(_LANG)
            elif keyword.arg in SHOWN_KEYWORDS and isinstance(value, ast.Constant):
                keyword.value = ast.Constant(_TEXT)
            else:
                keyword.value = self.visit(value)
        return node

    def visit_Assign(self, node: ast.Assign):
        if any(
            isinstance(t, ast.Attribute) and t.attr == "lang" for t in node.targets
        ) and isinstance(node.value, ast.Constant):
            node.value = ast.Constant(_LANG)
            return node
        return self.generic_visit(node)

    def visit_JoinedStr(self, node: ast.JoinedStr):
        node.values = [
            ast.Constant(_TEXT) if isinstance(v, ast.Constant) else self.visit(v)
            for v in node.values
        ]
        return node

    def visit_Dict(self, node: ast.Dict):
        node.keys = [
            ast.Constant(_TEXT)
            if isinstance(k, ast.Constant) and isinstance(k.value, str)
            else (self.visit(k) if k is not None else None)
            for k in node.keys
        ]
        node.values = [self.visit(v) for v in node.values]
        return node

    def visit_Constant(self, node: ast.Constant):
        if self.in_markdown and isinstance(node.value, str):
            return ast.Constant(_TEXT)
        return node


def normalised(source: str) -> str:
    """``source`` as a syntax tree with the learner's texts and the language codes replaced."""
    return ast.dump(_Texts().visit(ast.parse(source)))


# --------------------------------------------------------------------------- the tests
@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_english_notebook_has_a_copy_in_each_language(lang):
    """Until every lesson is translated this fails, naming the missing ones."""
    have = {p.name for p in (TUTORIALS / lang).glob("[0-9][0-9]-*.ipynb")}
    want = {p.name for p in ENGLISH}
    assert not want - have, f"tutorials/{lang} lacks {sorted(want - have)}"
    assert not have - want, f"tutorials/{lang} has notebooks with no English: {sorted(have - want)}"


def test_the_german_and_chinese_notebooks_are_checked():
    """The pairs below are not empty (00 and 01 exist in every language)."""
    assert {(lang, e.name[:2]) for lang, e, _ in PAIRS} >= {
        (lang, nb) for lang in TRANSLATIONS for nb in ("00", "01")
    }


@pytest.mark.parametrize("pair", PAIRS, ids=_pair_id)
def test_same_cells_types_and_metadata(pair):
    lang, english, translated = pair
    en, tr = _load(english), _load(translated)
    assert tr["metadata"] == en["metadata"], f"{_pair_id(pair)}: the notebook metadata differ"
    assert len(tr["cells"]) == len(en["cells"]), (
        f"{_pair_id(pair)}: {len(tr['cells'])} cells, the English has {len(en['cells'])}"
    )
    for number, (a, b) in enumerate(zip(en["cells"], tr["cells"], strict=True)):
        assert (b["cell_type"], b.get("metadata")) == (a["cell_type"], a.get("metadata")), (
            f"{_pair_id(pair)} cell {number}: {b['cell_type']} {b.get('metadata')}, "
            f"the English is {a['cell_type']} {a.get('metadata')}"
        )


@pytest.mark.parametrize("pair", PAIRS, ids=_pair_id)
def test_the_code_is_the_english_code(pair):
    lang, english, translated = pair
    en, tr = _load(english)["cells"], _load(translated)["cells"]
    code = [
        (number, _source(a), _source(b))
        for number, (a, b) in enumerate(zip(en, tr, strict=True))
        if a["cell_type"] == b["cell_type"] == "code"
    ]
    (first, en_first, tr_first), *others = code
    assert tr_first == en_first + LANGUAGE_CALL.format(lang=lang), (
        f"{_pair_id(pair)} cell {first}: the first code cell must be the English one plus "
        f"the language call:\n{tr_first}"
    )
    for number, a, b in others:
        assert normalised(b) == normalised(a), (
            f"{_pair_id(pair)} cell {number}: the code differs from the English beyond the "
            f"texts shown to the learner:\n--- English\n{a}\n--- {lang}\n{b}"
        )


def _markers(text: str) -> tuple:
    return (
        sorted(_RULE_ID.findall(text)),
        sorted(_NOTEBOOK_REF.findall(text)),
        _COMMENT.findall(text),
    )


@pytest.mark.parametrize("pair", PAIRS, ids=_pair_id)
def test_each_markdown_cell_keeps_rule_ids_notebook_references_and_comments(pair):
    lang, english, translated = pair
    en, tr = _load(english)["cells"], _load(translated)["cells"]
    for number, (a, b) in enumerate(zip(en, tr, strict=True)):
        if a["cell_type"] != "markdown":
            continue
        ids, refs, comments = _markers(_source(a))
        got = _markers(_source(b))
        assert got == (ids, refs, comments), (
            f"{_pair_id(pair)} cell {number}: rule IDs, notebook references or HTML comments "
            f"differ from the English:\nEnglish {ids} {refs} {comments}\n{lang} {got}"
        )
    title_en, title_tr = _source(en[1 if en[0]["cell_type"] == "code" else 0]), None
    title_tr = _source(next(c for c in tr if c["cell_type"] == "markdown"))
    number = re.match(r"# (\d\d) · ", title_en)
    if number:
        assert title_tr.startswith(number.group(0)), f"{_pair_id(pair)}: the title lost its number"


def _all_notebooks():
    for english in ENGLISH:
        yield "en", english
    for lang, _, translated in PAIRS:
        yield lang, translated


@pytest.mark.parametrize(
    ("lang", "path"), list(_all_notebooks()), ids=lambda x: x if isinstance(x, str) else x.stem
)
def test_the_language_line_is_under_the_title_and_every_link_resolves(lang, path):
    cells = _load(path)["cells"]
    first = _source(next(c for c in cells if c["cell_type"] == "markdown")).split("\n")
    assert first[0].startswith("# ") and first[1] == "", first[:3]
    assert first[2] == LANGUAGE_LINE[lang].format(name=path.name), (
        f"{lang}/{path.name}: the line under the title is {first[2]!r}, not the language line"
    )
    assert first[3] == "", "the language line is a paragraph of its own"
    for cell in cells:
        if cell["cell_type"] == "markdown":
            for link in _LINK.findall(_source(cell)):
                assert (path.parent / link).exists(), f"{lang}/{path.name}: {link} does not exist"


# --------------------------------------------------------------------------- the normaliser
@pytest.mark.parametrize(
    ("english", "translated", "same"),
    [
        (
            'demo("a", "place x.left#1", label="Show it")',
            'demo("a", "place x.left#1", label="Zeig")',
            True,
        ),
        ('demo("a", "place x.left#1")', 'demo("a", "place x.left#2")', False),
        ('Lesson("first-game", lang="en")', 'Lesson("first-game", lang="de")', True),
        ('Lesson("first-game")', 'Lesson("first-game", lang="de")', False),
        ('b.lang = "de"', 'b.lang = "zh"', True),
        (
            'pn.pane.Markdown(f"Steps: {n}; over: {o}" + "x")',
            'pn.pane.Markdown(f"Schritte: {n}; vorbei: {o}" + "y")',
            True,
        ),
        ('pn.pane.Markdown(f"Steps: {n}")', 'pn.pane.Markdown(f"Schritte: {m}")', False),
        ('x = f"{a} to play"', 'x = f"{a} am Zug"', True),
        ('m = {"a slip": T.replace("g", "h")}', 'm = {"ein Fehler": T.replace("g", "h")}', True),
        ('m = {"a slip": T.replace("g", "h")}', 'm = {"ein Fehler": T.replace("g", "i")}', False),
        ('exercises("welcome")', 'exercises("willkommen")', False),
    ],
)
def test_what_the_comparison_allows_to_differ(english, translated, same):
    assert (normalised(english) == normalised(translated)) is same


#: The engine's methods that word a text in a language a notebook passes (a file's warnings, an
#: error, a teaching text): asked in the lesson language, never a written code, so that the three
#: copies of a notebook keep one code and each shows its own language.
ENGINE_WORDING = {"warnings_in", "message", "teaching_in"}


@pytest.mark.parametrize(
    ("lang", "path"), list(_all_notebooks()), ids=lambda x: x if isinstance(x, str) else x.stem
)
def test_engine_texts_are_asked_in_the_lesson_language(lang, path):
    for cell in _load(path)["cells"]:
        if cell["cell_type"] != "code":
            continue
        for node in ast.walk(ast.parse(_source(cell))):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ENGINE_WORDING
            ):
                continue
            given = list(node.args) + [k.value for k in node.keywords if k.arg == "lang"]
            written = [a.value for a in given if isinstance(a, ast.Constant)]
            assert not written, (
                f"{lang}/{path.name}: {node.func.attr}({written[0]!r}) writes the language; "
                "ask lesson_language() (from widgets.lesson)"
            )
