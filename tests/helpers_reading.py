"""What a learner must read and do along the tutorials' first-game path (notebooks 00-03).

Shared by ``benchmarks/first_game_path.py`` (which prints the figures) and
``tests/test_first_game_budget.py`` (which fails when the path grows past its budget), so that
both count the same way.

**Words** a learner must read, by source:

- ``prose``: the Markdown cells, except a folded section (an HTML ``<details>`` block: the
  path does not depend on it, so it is not required reading), HTML comments and the language
  line under the title (links to the lesson in the other languages);
- ``demos``: each demonstration's account, what ``demo(...)`` shows once its button is pressed:
  the engine's narration and the market's state after, exactly as :class:`widgets.lesson.Demo`
  builds it;
- ``exercises``: each exercise's question and one feedback (the engine's verdict and reason for
  the right answer; not its folded "how it plays out" details, which, like a folded section of
  prose, the path does not depend on);
- ``tables``: the summary tables a cell shows (``gift_values_table()`` and the like).

A word is a run of letters or digits (``\\w+``); Chinese counts one word per two characters.

**Steps** a learner takes: one "Run All" per notebook, each demonstration button, each exercise
answered, and the board actions the prose asks for. The prose declares those with a comment the
learner does not see, ``<!-- board steps: N -->``, in the cell that asks; a Markdown cell that
asks the learner to click, or to make choices on a board, without such a comment is counted by
its asking verbs (:data:`ASKS`), and :func:`undeclared_asks` lists those cells so that a test can
insist every ask is declared.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from helpers_python import parse

TUTORIALS = Path(__file__).resolve().parents[1] / "tutorials"
#: The first game: the welcome, a turn, closing and settling a market, gifts and scoring.
FIRST_GAME = ("00", "01", "02", "03")
WORD_BUDGET = 3000
STEP_BUDGET = 40

_FOLDED = re.compile(r"<details\b.*?</details>", re.S | re.I)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_TAG = re.compile(r"<[^>]+>")
_DECLARED = re.compile(r"<!--\s*board steps:\s*(\d+)\s*-->")
_STYLE = re.compile(r"<style\b.*?</style>", re.S | re.I)
_HIDDEN = re.compile(r"<div hidden data-nfr=.*?</div></div>", re.S)
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
#: Verbs by which the prose asks for a board action.
ASKS = re.compile(r"\b(?:click|make each choice)\b", re.I)


def count_words(text: str) -> float:
    """Words in ``text``: runs of letters or digits, and one per two Chinese characters."""
    cjk = len(_CJK.findall(text))
    return len(re.findall(r"\w+", _CJK.sub(" ", text))) + cjk / 2


#: The language line under a notebook's title (English · Deutsch · 中文): links to the same
#: lesson in another language, not something to read.
_LANGUAGE_LINE = re.compile(r"^.*\]\((?:\.\./)?(?:de/|zh/)?\d\d-[a-z-]+\.ipynb\).* · .*$", re.M)


def _required_markdown(source: str) -> str:
    return _LANGUAGE_LINE.sub(" ", _COMMENT.sub(" ", _FOLDED.sub(" ", source)))


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _calls(source: str, name: str) -> list[ast.Call]:
    """The calls to ``name`` in a code cell, in order."""
    try:
        tree = parse(source)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if called == name:
                found.append(node)
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def _literal_call(call: ast.Call) -> tuple[list, dict]:
    args = [ast.literal_eval(a) for a in call.args]
    kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    return args, kwargs


def demo_account(call: ast.Call, lang: str = "en") -> str:
    """The account a demonstration shows once pressed (built as the widget builds it)."""
    from widgets.lesson.demos import Demo

    args, kwargs = _literal_call(call)
    shown = Demo(*args, **{"lang": lang, **kwargs})
    shown.show()
    return "\n".join(shown.account())


def exercise_texts(topic: str, lang: str = "en") -> list[str]:
    """Each exercise of ``topic``: its question and the engine's feedback on the right answer."""
    from nefertiti_core.files.exercises import exercises_for

    texts = []
    for ex in exercises_for(topic):
        truth = ex.right_answer()
        answer = (ex.market, truth[0]) if ex.answer_kind == "square" else truth
        feedback = ex.check(answer, lang)
        assert feedback.correct, (ex.id, feedback)
        texts.append(f"{ex.prompt(lang)}\n{feedback.explanation}")
    return texts


def table_text(name: str, call: ast.Call, lang: str = "en") -> str:
    """The text of a summary table a cell shows (its HTML without the tags)."""
    from widgets.lesson import rule_summaries

    args, kwargs = _literal_call(call)
    shown = getattr(rule_summaries, name)(*args, **{"lang": lang, **kwargs}).object
    shown = _HIDDEN.sub(" ", _STYLE.sub(" ", shown))  # a rule's text shows only on a click
    return _TAG.sub(" ", shown)


TABLES = ("gift_values_table", "stall_conditions_table", "scoring_table")


@dataclass
class NotebookLoad:
    """What one notebook asks of the learner."""

    name: str
    words: dict[str, float] = field(default_factory=dict)  # prose, demos, exercises, tables
    steps: dict[str, int] = field(default_factory=dict)  # run, demos, exercises, board

    @property
    def total_words(self) -> float:
        return sum(self.words.values())

    @property
    def total_steps(self) -> int:
        return sum(self.steps.values())


def measure(path: Path, lang: str = "en") -> NotebookLoad:
    """Words to read and steps to take in one notebook of language ``lang`` (see the module's
    docstring)."""
    load = NotebookLoad(path.stem)
    words = dict.fromkeys(("prose", "demos", "exercises", "tables"), 0.0)
    steps = {"run": 1, "demos": 0, "exercises": 0, "board": 0}
    for cell in _cells(path):
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            required = _required_markdown(source)
            words["prose"] += count_words(_TAG.sub(" ", required))
            declared = _DECLARED.findall(source)
            if declared:
                steps["board"] += sum(int(n) for n in declared)
            else:
                steps["board"] += len(ASKS.findall(required))
            continue
        if cell["cell_type"] != "code":
            continue
        for call in _calls(source, "demo"):
            words["demos"] += count_words(demo_account(call, lang))
            steps["demos"] += 1
        for call in _calls(source, "exercises"):
            (topic,), _ = _literal_call(call)
            for text in exercise_texts(topic, lang):
                words["exercises"] += count_words(text)
                steps["exercises"] += 1
        for name in TABLES:
            for call in _calls(source, name):
                words["tables"] += count_words(table_text(name, call, lang))
    load.words, load.steps = words, steps
    return load


def first_game_notebooks(folder: Path = TUTORIALS) -> list[Path]:
    return sorted(p for p in folder.glob("[0-9][0-9]-*.ipynb") if p.name[:2] in FIRST_GAME)


def measure_path(folder: Path = TUTORIALS, lang: str = "en") -> list[NotebookLoad]:
    """Each first-game notebook's load, of the tutorials in ``folder`` (default: the project's
    English ones; ``TUTORIALS / "de"`` with ``lang="de"``: the German ones)."""
    return [measure(p, lang) for p in first_game_notebooks(folder)]


def undeclared_asks(path: Path) -> list[str]:
    """Markdown cells that ask for a board action without declaring its steps."""
    return [
        "".join(cell["source"])[:80]
        for cell in _cells(path)
        if cell["cell_type"] == "markdown"
        and ASKS.search(_required_markdown("".join(cell["source"])))
        and not _DECLARED.search("".join(cell["source"]))
    ]
