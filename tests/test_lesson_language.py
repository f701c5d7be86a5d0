"""One setting for a whole notebook: ``use_language`` and what else decides the language of the
lesson widgets (``widgets/lesson/language.py``), and that every widget a notebook calls follows
it when the call names no language."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
from pathlib import Path

import pytest
from panel.io.state import set_curdoc

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.exercises import exercises_for
from nefertiti_core.teaching.textview import position_text
from widgets.game.exercise import collections_text
from widgets.game.session import GameSession
from widgets.lesson import Lesson, coverage_view, demo, exercises, lesson_language, use_language
from widgets.lesson.language import folder_language
from widgets.lesson.pieces import stalls_table

TUTORIALS = Path(__file__).parents[1] / "tutorials"


@pytest.fixture(autouse=True)
def _no_setting(monkeypatch, tmp_path):
    """Each test starts with no choice made, no NEFERTITI_LANG and a neutral working folder."""
    use_language(None)
    monkeypatch.delenv("NEFERTITI_LANG", raising=False)
    monkeypatch.chdir(tmp_path)
    yield
    use_language(None)


def _folder(tmp_path: Path, lang: str) -> Path:
    folder = tmp_path / "tutorials" / lang
    folder.mkdir(parents=True)
    return folder


def test_english_when_nothing_is_set():
    assert lesson_language() == "en"
    assert Lesson("a-turn").lang == "en"


def test_the_precedence_call_then_use_language_then_environment_then_folder(monkeypatch, tmp_path):
    monkeypatch.chdir(_folder(tmp_path, "zh"))
    assert lesson_language() == "zh"  # the kernel's folder
    monkeypatch.setenv("NEFERTITI_LANG", "en")
    assert lesson_language() == "en"  # the environment over the folder
    assert use_language("de") is None  # the notebook's first cell shows nothing
    assert lesson_language() == "de"  # the notebook's call over the environment
    assert lesson_language("zh") == "zh"  # a call's own lang= over everything
    assert Lesson("a-turn", lang="en").lang == "en"
    assert Lesson("a-turn").lang == "de"
    use_language(None)
    assert lesson_language() == "en"  # forgotten: the environment decides again


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_a_kernel_started_in_a_language_folder_speaks_it(monkeypatch, tmp_path, lang):
    """JupyterLab and Voilà start the kernel in the notebook's folder: a learner who runs a
    later cell first still gets the notebook's language."""
    monkeypatch.chdir(_folder(tmp_path, lang))
    assert Lesson("a-turn").lang == lang
    assert folder_language(TUTORIALS / lang) == lang
    assert folder_language(TUTORIALS) is None  # the English notebooks' folder
    assert folder_language(tmp_path / "de") is None  # a "de" folder elsewhere is not a lesson


@pytest.mark.parametrize(
    ("call", "where"),
    [
        (lambda: use_language("fr"), "use_language"),
        (lambda: use_language("DE"), "use_language"),
        (lambda: Lesson("a-turn", lang="english"), "lang"),
        (lambda: exercises("a-turn", lang="xx"), "lang"),
    ],
)
def test_a_bad_code_is_refused_naming_the_languages(call, where):
    with pytest.raises(ValueError) as error:
        call()
    assert str(error.value).startswith(where) and "en, de, zh" in str(error.value)


def test_a_bad_environment_variable_is_named(monkeypatch):
    monkeypatch.setenv("NEFERTITI_LANG", "klingon")
    with pytest.raises(ValueError, match=r"NEFERTITI_LANG: unknown language 'klingon'.*en, de, zh"):
        Lesson("a-turn")


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_the_widgets_of_a_lesson_follow_use_language(lang):
    use_language(lang)
    lesson = Lesson("a-turn")
    assert lesson.lang == lesson.session.lang == lang
    assert lesson.note_card.title == tr(lang, "lesson.note")
    assert lesson.log_card.title == tr(lang, "lesson.log")  # not "Log"
    shown = demo("a-turn", "place akhet_aton.left#4", market="akhet_aton")
    shown.show()
    assert shown.lang == lang and shown.lesson.lang == lang
    card = exercises("a-turn")
    assert tr(lang, "lesson.exercises_intro") in card[0].object
    assert tr(lang, "coverage.view.title") in coverage_view().object
    assert tr(lang, "pieces.stalls.stall") in stalls_table().object
    assert GameSession().lang == lang  # a session the notebook makes itself


class _ServedPage:
    """A Bokeh document as a served page has one: with a server session behind it (what it
    would run later is dropped)."""

    session_context = object()

    def add_next_tick_callback(self, callback):
        pass

    def add_timeout_callback(self, callback, ms):
        pass

    def on_session_destroyed(self, *callbacks):
        pass


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_a_session_on_a_served_page_does_not_follow_the_notebook_language(
    monkeypatch, tmp_path, lang
):
    """The served app imports the lesson layer (its lessons and questions) in the same process:
    what chooses a notebook's language (the working folder, ``NEFERTITI_LANG``, ``use_language``)
    must not reach a session made on a served page without ``lang=``, which stays English until
    its page gives it the browser's or the room's language."""
    monkeypatch.chdir(_folder(tmp_path, lang))
    monkeypatch.setenv("NEFERTITI_LANG", lang)
    use_language(lang)
    assert GameSession().lang == lang  # off a served page: the notebook's language
    with set_curdoc(_ServedPage()):
        assert GameSession().lang == "en"
        assert GameSession(lang=lang).lang == lang  # what the page passes


def test_what_each_player_holds_in_chinese_punctuation():
    """The exercise card's line on what each player holds: Chinese punctuation in Chinese (a
    full-width colon, the enumeration comma), the English one in English."""
    state = exercises_for("gift-cards")[0].state()
    zh, en = collections_text(state, "zh"), collections_text(state, "en")
    assert f"{tr('zh', 'colour.green')}：" in zh and ": " not in zh and ", " not in zh, zh
    assert "、" in zh and f"{tr('en', 'colour.green')}: " in en and ", " in en, (zh, en)
    # the board in words (the text view under every board) lists the same way
    words = position_text(state, "zh")
    assert "、" in words and ", " not in words, words


def _notebook_calls() -> set[tuple[str, str]]:
    """(module, name) of every callable a notebook imports: from the lesson package, the apps and
    the engine (whose texts default to English: a cell printing ``narrate(state)`` from
    ``nefertiti_core`` printed English in a German notebook)."""
    found = set()
    for path in TUTORIALS.glob("[0-9][0-9]-*.ipynb"):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            for node in ast.walk(ast.parse("".join(cell["source"]))):
                if isinstance(node, ast.ImportFrom) and node.module.startswith(
                    ("widgets", "nefertiti_core")
                ):
                    found.update((node.module, alias.name) for alias in node.names)
    return found


def test_every_widget_a_notebook_calls_has_no_fixed_language():
    """A ``lang`` parameter defaulting to "en" would make that widget English in a German
    notebook: every one the notebooks import defaults to None (the lesson language), or takes its
    language from the game session it shows."""
    calls = _notebook_calls()
    assert len(calls) > 20, calls
    fixed = []
    for module, name in sorted(calls):
        obj = getattr(importlib.import_module(module), name)
        if not callable(obj):
            continue
        target = obj.__init__ if inspect.isclass(obj) else obj
        lang = inspect.signature(target).parameters.get("lang")
        if lang is not None and lang.default is not None:
            fixed.append(f"{module}.{name}: lang={lang.default!r}")
    assert not fixed, fixed


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_a_games_story_score_players_and_variants_follow_use_language(lang):
    """Notebooks 13 and 14 print these from their own cells with no ``lang=`` (the three
    languages' notebooks have the same code)."""
    from nefertiti_core.engine import variants
    from nefertiti_core.teaching import explain
    from widgets.lesson import describe_variant, narrate, score_table, seat_name

    bots = GameSession(seats=["greedy"] * 3, bot_seed=3)
    state = bots.state
    use_language(lang)
    assert narrate(state)[-3:] == explain.narrate(state, lang)[-3:]
    assert narrate(state, start=len(state.log) - 2) == explain.narrate(
        state, lang, len(state.log) - 2
    )
    assert score_table(state) == explain.score_table(state, lang)
    assert seat_name(state, 0) == tr(lang, f"colour.{state.colours[0]}")
    assert seat_name(state, -1) == tr(lang, "status.nobody")  # no one decides
    variant = "merchant_pays_reserve"
    assert describe_variant(variant) == variants.describe_variant(variant, lang)
    assert describe_variant(variant) != variants.describe_variant(variant, "en")
    assert narrate(state, "en") == explain.narrate(state, "en")  # a call's lang= still chooses


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_a_misspelt_variant_in_a_lesson_comparison_names_the_known_ones(lang):
    """Notebook 14's ``compare_rules`` with a typo in a variant's name: the engine's SetupError
    listing the known variants, in the lesson language too, not a missing catalogue message."""
    from nefertiti_core import SetupError
    from widgets.lesson import compare_rules, outcome_line

    state = GameSession(seats=["greedy"] * 3, bot_seed=3).state
    use_language(lang)
    with pytest.raises(SetupError, match="'merchant_pays_reserv'.*known: .*merchant_pays_reserve"):
        compare_rules(state, {}, {"variants": ["merchant_pays_reserv"]})
    both = compare_rules(state, {}, {"variants": ["merchant_pays_reserve"]}, to_end=False)
    assert both.b.label == tr(
        lang, "compare.with", changes=tr(lang, "compare.variant.merchant_pays_reserve")
    )
    assert outcome_line(both.a, state.colours).startswith(tr(lang, "compare.as_printed"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_game_progress_says_who_decides_as_the_board_words_do(lang):
    """Notebook 13's progress line: the steps, then :func:`who_decides` (the same sentence as the
    board's text view), joined as the language joins sentences (no space in Chinese)."""
    from nefertiti_core.teaching.board_words import who_decides
    from widgets.lesson import game_progress

    state = GameSession(seats=["greedy"] * 3, bot_seed=3).state
    assert not state.is_over
    said = game_progress(state, 7, lang=lang)
    steps = tr(lang, "progress.steps", steps=7)
    assert said == f"{steps}{tr(lang, 'status.sentence_sep')}{who_decides(state, lang)}"


def _run_cells(path: Path, pieces: list[str]) -> tuple[list[str], dict]:
    """Run some code cells of a notebook in one namespace, as its kernel would, each found by a
    piece of its source (which must be in exactly one code cell: an added or moved cell cannot
    make it run another): the text of each cell's last expression (the Markdown pane it shows)
    and the namespace."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    namespace: dict = {"pn": importlib.import_module("panel")}
    shown = []
    for piece in pieces:
        found = [source for source in code if piece in source]
        assert len(found) == 1, f"{path.name}: {len(found)} code cells hold {piece!r}"
        tree = ast.parse(found[0])
        last = tree.body.pop() if isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, f"{path.name} cell {piece!r}", "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), path.name, "eval"), namespace)
            shown.append(getattr(value, "object", ""))
    return shown, namespace


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_notebook_13_prints_the_game_in_its_language(monkeypatch, lang):
    """The German and Chinese notebook 13 run in their folder (as JupyterLab and Voilà start the
    kernel there): the bots' steps, whose turn it is and the score table are in that language."""
    from nefertiti_core.teaching import explain

    monkeypatch.chdir(TUTORIALS / lang)
    path = TUTORIALS / lang / "13-play-a-whole-game.ipynb"
    # the imports, the bots' first steps, a game of bots only
    (steps, scores), cells = _run_cells(
        path,
        [
            "from widgets.game.session import GameSession",
            "session = GameSession(",
            'bots = GameSession(seats=["greedy"] * 4',
        ],
    )
    session, bots = cells["session"], cells["bots"]
    for line in explain.narrate(session.state, lang)[-4:]:
        assert line in steps
    assert f"**{tr(lang, 'colour.green')}**" in steps
    assert f"{session.history.length()} " in steps and "place " not in steps  # a count, no notation
    assert "puts a servant" not in steps and "**Green**" not in steps
    assert explain.score_table(bots.state, lang)[0] in scores
    assert explain.score_table(bots.state, "en")[0] not in scores
    # how far the game came in a sentence, not a Python value ("Spiel vorbei: True")
    assert tr(lang, "view.game_over", turn=bots.state.turn_no) in scores
    assert "True" not in scores and "False" not in scores


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_notebook_14_compares_the_rules_in_its_language(monkeypatch, lang):
    """The German and Chinese notebook 14's rules comparison names each side's rules and every
    player's Deben and points in that language: no variant code name, Python tuple or English."""
    monkeypatch.chdir(TUTORIALS / lang)
    path = TUTORIALS / lang / "14-what-if-explorer.ipynb"
    (shown,), _cells = _run_cells(
        path, ["import VARIANTS", 'merchant = load(scenario_path("merchant"))']
    )
    assert tr(lang, "compare.as_printed") in shown
    assert tr(lang, "compare.variant.merchant_pays_reserve") in shown
    assert tr(lang, "colour.green") in shown
    for english in ("merchant_pays_reserve", "as printed", "scores", "(", "points"):
        assert english not in shown, (english, shown)


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_notebook_15_shows_the_commands_in_its_language(monkeypatch, lang):
    """The German and Chinese notebook 15 show ``nefertiti explain`` and ``replay`` on their
    lesson in that language (the commands' ``--lang`` defaults to the lesson language there)."""
    monkeypatch.chdir(TUTORIALS / lang)
    path = TUTORIALS / lang / "15-teaching-a-group.ipynb"
    (*_, explained, replayed), _cells = _run_cells(
        path,
        [
            "import tempfile",
            'LESSON = """',
            "mine = Lesson(str(path))",
            'output_of(["explain"',
            'output_of(["replay"',
        ],
    )
    assert tr(lang, "view.options") in explained and tr("en", "view.options") not in explained
    assert tr(lang, "colour.blue") in replayed and "Blue" not in replayed
