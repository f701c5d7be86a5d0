"""The exercise block over a notebook comm (issue #13, item 1): a tab opened after the output was
shown must have its models known to the kernel's document, or every message from the page about
them is refused ("Comm received message that could not be deserialized") and the exercise is dead.

The browser tests (tests/browser/test_every_exercise_in_english.py, ..._in_german.py and
..._in_chinese.py) press every exercise's buttons in JupyterLab; this one checks the cause in a
second, without a browser.
"""

from __future__ import annotations

import re

import panel as pn
from bokeh.models import Button
from panel.io.state import state

import widgets  # noqa: F401 - applies the notebook speed patch under test
from nefertiti_core.files.exercises import EXERCISES
from widgets.game.common import esc
from widgets.game.exercise import ExerciseCard
from widgets.lesson.notebook import exercises


def test_a_tab_opened_later_has_its_buttons_in_the_kernel_document(monkeypatch):
    # private: Panel's flag that pn.extension(inline=True) ran, as in a notebook (no public setter)
    monkeypatch.setattr(pn.extension, "_loaded", True)
    # private: Panel's registry of notebook outputs (ref -> viewable, root, document, comm): the
    # only place to find the kernel's document of a shown output
    views = state._views
    pn.config.inline = True
    try:
        block = exercises("closing-abou-simbel")
        # private: the Jupyter display protocol (IPython calls it to show an output)
        block._repr_mimebundle_()  # shown as a notebook output (a comm of its own)
        ref = next(r for r, view in views.items() if view[0] is block)
        _, root, doc, _ = views[ref]
        tabs = block[1]
        for active in range(1, len(tabs)):
            tabs.active = active
            # private: Bokeh's hold on the document; held, the page never gets the tab's models
            assert doc.models._freeze_count == 0
            buttons = [m for m in root.select({"type": Button}) if m.visible]
            assert buttons, f"tab {active + 1} shows no button"
            for button in buttons:
                assert doc.get_model_by_id(button.id) is button, f"tab {active + 1}: {button}"
    finally:
        pn.config.inline = False
        views.clear()


def test_a_square_of_another_market_is_not_taken_as_an_answer():
    # Issue #13 item 8: a click on Gizeh's square #0 was judged as #0 of Akhet-Aton.
    ex = EXERCISES["closing-akhet-aton/every-level"]
    for answer in ((0, 0), "gizeh.left#0"):
        feedback = ex.check(answer, "en")
        assert not feedback.valid and not feedback.correct, feedback
        assert feedback.right_answer == ""
        assert (
            "on Gizeh" in feedback.explanation and "Akhet-Aton's left stall" in feedback.explanation
        )
    for lang in ("de", "zh"):
        assert "Gizeh" in ex.check((0, 0), lang).explanation
    market = 1  # Akhet-Aton
    (right, *_) = ex.right_answer()
    assert ex.check((market, right)).correct
    card = ExerciseCard(ex)
    gizeh = next(c for c in card.board.cells if c.market == 0 and c.index == 0)
    card.board.click(gizeh.x, gizeh.y)
    assert card.attempts == 0 and card.feedback is not None and not card.feedback.valid
    akhet = next(c for c in card.board.cells if c.market == market and c.index == right)
    card.board.click(akhet.x, akhet.y)
    assert card.attempts == 1 and card.feedback.correct


def test_the_feedback_leads_with_the_verdict_in_colour():
    ex = EXERCISES["characters/vizier"]
    right, wrong = ex.right_answer(), ex.right_answer() + 1
    card = ExerciseCard(ex)
    card.answer(wrong)
    shown = card.result.object
    assert shown.index("Not quite") < shown.index(esc(card.feedback.reason[:30])), shown
    assert "verdict-wrong" in shown and "verdict-right" not in shown
    card.answer(right)
    shown = card.result.object
    assert shown.lstrip().startswith("<div") and "verdict-right" in shown
    assert shown.index("Right") < shown.index(esc(card.feedback.reason[:30]))
    card.lang = "zh"
    assert "正确" in card.result.object


def test_card_names_and_status_lines_fit_the_board_at_any_width():
    # Issue #13 item 9: "statuettestatuettechair" on a 620-pixel exercise board; Louqsor's
    # probability cut at the market's edge.
    from nefertiti_core import new_game
    from widgets.game import geometry as G
    from widgets.game.board import Board, text_width, wrap_text
    from widgets.game.session import GameSession

    for width in (620, 900):
        for lang in ("en", "de", "zh"):
            board = Board(GameSession(new_game(4, 0), lang=lang), width=width)
            room = G.CARD_W * width / G.WIDTH - 4
            for label, size in zip(
                board.sources["cards"].data["label"],
                board.sources["cards"].data["size"],
                strict=True,
            ):
                px = int(size.removesuffix("px"))
                for line in label.split("\n"):
                    assert text_width(line, px) <= room + 0.5, (width, lang, label, size)
    hint = "a roll now closes it with probability 1/36 (3%) if Green places there now"
    lines = wrap_text(hint, 200, 10, 3)
    assert " ".join(lines) == hint and all(text_width(x, 10) <= 200 for x in lines)
    assert "".join(wrap_text("路克索现在掷骰关闭的概率为1/36（3%）", 60, 10, 5)).startswith(
        "路克索"
    )


def test_a_long_card_name_breaks_between_syllables_not_in_even_pieces():
    """#28: German card names broke mid-syllable on phones ("Halsk-ette", "Hal-ske-tte",
    "Gol-dsc-hm…"); a word too long for its line now breaks where a syllable begins (or at
    its own hyphen), in German and English, and only a word with no such place within the
    line is cut in even pieces."""
    from widgets.game.board import text_width, wrap_text

    cases = {
        ("Halskette", 45): ["Hals-", "kette"],
        ("Halsketten", 30): ["Hals-", "ket-", "ten"],
        ("Goldschmiedearbeit", 45): ["Gold-", "schmie-", "dearbeit"],
        ("Statuette", 45): ["Sta-", "tuette"],
        ("Doppel-Senet", 45): ["Dop-", "pel-", "Senet"],
        ("Doppel-Senet", 60): ["Doppel-", "Senet"],
        ("Spiegel", 30): ["Spie-", "gel"],
        ("necklace", 30): ["neck-", "lace"],
        ("mirror", 30): ["mir-", "ror"],
        ("Flasche", 30): ["Fla-", "sche"],
        ("Zucker", 30): ["Zu-", "cker"],
    }
    for (word, room), lines in cases.items():
        assert wrap_text(word, room, 10, 3) == lines, (word, room)
        assert all(text_width(line, 10) <= room for line in lines)
        assert "".join(line.removesuffix("-") for line in lines).replace("--", "-") in (
            word,
            word.replace("-", ""),
        )
    # no syllable break within the line: even pieces still (never a line wider than its room)
    assert wrap_text("Stuhlstuhl", 20, 10, 5)[0].endswith("-")
    # a soft hyphen (a board's label from the catalog) is where the word breaks first, and is
    # not shown where it does not break
    assert wrap_text("Gold\u00adarbeit", 45, 10, 3) == ["Gold-", "arbeit"]
    assert wrap_text("Gold\u00adarbeit", 60, 10, 3) == ["Goldarbeit"]


def test_a_chinese_card_name_with_a_latin_word_keeps_the_latin_word_whole():
    """ "双senet" came out on a card as "双se/net": a word with Chinese characters was broken
    anywhere. Now it breaks only between Chinese characters and around a Latin word, which is
    whole on its line whenever it fits one (narrower, it is hyphenated as Latin words are)."""
    from nefertiti_core.engine.i18n import tr
    from widgets.game.board import text_width, wrap_text

    name = tr("zh", "card.double_senet")
    assert name.endswith("senet") and len(name) > len("senet")
    for font_px in (7, 8, 9, 10):
        for room in range(int(text_width("senet", font_px)) + 1, int(text_width(name, font_px))):
            lines = wrap_text(name, room, font_px, 3)
            assert "senet" in lines and "".join(lines) == name, (font_px, room, lines)
        assert wrap_text(name, text_width(name, font_px), font_px, 3) == [name]
    sentence = tr("zh", "exercise.gift.double")  # "一张双senet算作两张senet（R9.1）。"
    for room in range(40, 120, 7):
        for line in wrap_text(sentence, room, 10, 8):
            assert not re.search(
                r"(?<![A-Za-z])(?:s|se|sen|sene)$|^(?:enet|net|et|t)(?![a-z])", line
            )


def test_the_gold_card_has_a_board_label_that_fits_a_card_in_german():
    """ "Goldschmiedearbeit" did not fit a card in three lines ("Gold-/schmi-/edear…"): the
    board shows "Goldarbeit", broken at its soft hyphen, whole."""
    from nefertiti_core import new_game
    from nefertiti_core.engine import rules as R
    from widgets.game.board import Board
    from widgets.game.session import GameSession

    state = new_game(4, 0)
    gold = R.CARD_KINDS.index("gold")
    cards = [(m, s) for m in range(4) for s in range(4) if state.cards[m][s] == gold]
    assert cards, "no gold craft on the first game's board"
    board = Board(GameSession(state, lang="de"), width=620)
    labels = board.sources["cards"].data["label"]
    assert "Gold-\narbeit" in labels, labels
    assert not any("\u00ad" in label or label.endswith("\u2026") for label in labels), labels
