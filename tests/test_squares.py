"""Squares are named for learners by their bid and stall, never by ``#index`` (issue #13, item 7).

One function names them (:func:`nefertiti_core.engine.squares.square_name`); Abou Simbel's stalls print
some values twice (R3.5, R3.6), so there the mark or the reading order tells the squares apart.
The move notation (``place abou_simbel.left#2``) stays where people type and read records.
"""

from __future__ import annotations

import re
import string

import pytest

from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.explain_illegal import why_illegal
from nefertiti_core.engine.i18n import LANGUAGES, catalog
from nefertiti_core.engine.squares import distinction, square_name, square_names
from nefertiti_core.files import staging as S
from nefertiti_core.files.exercises import ClickClosingSquare, ClosingChance
from nefertiti_core.teaching.explain import describe_option, narrate
from nefertiti_core.teaching.status import describe_preview, describe_status, preview, stall_status

CASES = ("", "dat")
NOTATION = re.compile(r"place [a-z_]+\.(left|right)#\d+")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("stall", R.STALLS, ids=lambda s: s.name)
def test_every_square_of_every_stall_has_its_own_name_in_every_language_and_case(stall, lang):
    for case in CASES:
        names = [format(square_name(stall, i, lang), case) for i in range(len(stall.squares))]
        assert len(set(names)) == len(names), (stall.name, lang, case, names)
        for square, name in zip(stall.squares, names, strict=True):
            assert str(square.value) in re.findall(r"\d+", name), name  # named by its bid
            assert "#" not in name and stall.name not in name, name


def test_abou_simbel_names_its_repeated_values_by_mark_or_reading_order():
    left = R.stall_of(R.ABOU_SIMBEL, R.LEFT)  # 1 1 / 2D 2 / 5 7 8 (R3.5)
    assert [square_name(left, i) for i in range(7)] == [
        "the first 1",
        "the second 1",
        "the Deben 2",
        "the plain 2",
        "the 5",
        "the 7",
        "the 8",
    ]
    right = R.stall_of(R.ABOU_SIMBEL, R.RIGHT)  # 1 1 / 2 2 3D / 3 6 7 12X (R3.6)
    assert [distinction(right, i) for i in range(9)] == [
        ("nth", 1),
        ("nth", 2),
        ("nth", 1),
        ("nth", 2),
        ("deben", 0),
        ("plain", 0),
        ("", 0),
        ("", 0),  # the 12's extra-card mark is not needed: no other 12
        ("", 0),
    ]
    gizeh = R.stall_of(R.GIZEH, R.LEFT)
    assert square_name(gizeh, 3) == "the 4"  # a Deben 4, but the only 4


def test_german_declines_the_name_and_chinese_writes_it_without_spaces():
    left = R.ABOU_SIMBEL * 2 + R.LEFT
    assert square_name(left, 1, "de") == "die zweite 1"
    assert f"auf {square_name(left, 1, 'de'):dat}" == "auf der zweiten 1"
    assert f"{square_name(left, 2, 'de'):dat}" == "der 2 mit Münzsymbol"
    assert f"{square_names(left, (0, 5), 'de', 'or'):dat}" == "der ersten 1 oder der 7"
    assert square_name(left, 3, "zh") == "标有2的普通方块"
    assert square_name(left, 2, "zh") == "标有2的银币方块"
    for i in range(7):
        assert " " not in square_name(left, i, "zh")
    with pytest.raises(ValueError, match="unknown case"):
        format(square_name(left, 0, "de"), "genitiv")


def _fields(template: str) -> list[tuple[str, str]]:
    return [(name, spec) for _, name, spec, _ in string.Formatter().parse(template) if name]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_catalog_text_names_a_square_by_its_index(lang):
    """No template shows ``#{...}``; a case (``{square:dat}``) is asked only of square and stall
    names (``{stall:gen}``, tests/test_stall_phrases.py)."""
    hashed = [key for key, text in catalog(lang).items() if "#{" in text]
    assert hashed == []
    cased = [
        (key, name, spec)
        for key, text in catalog(lang).items()
        for name, spec in _fields(text)
        if spec and name not in ("square", "squares", "stall")
    ]
    assert cased == []


def _staged_abou_simbel():
    g = new_game(4, seed=3, first_player=0, record_events=True)
    S.put_servant(g, 0, "abou_simbel", 2)  # Green on the Deben 2
    S.put_servant(g, 1, "abou_simbel", 0)  # Red on the first 1
    S.start_turn(g, 2)
    return g


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sentences_name_squares_by_bid_in_every_language(lang):
    g = _staged_abou_simbel()
    want = {lang_: square_name(R.ABOU_SIMBEL * 2, 3, lang_) for lang_ in LANGUAGES}
    option = g.parse("place abou_simbel.left#3")
    texts = [describe_option(g, option, lang)]
    taken = g.parse("place abou_simbel.left#2")
    texts.append(why_illegal(g, taken, lang)[0])
    status = stall_status(g, "abou_simbel")
    texts.append(describe_status(status, g.colours, lang))
    since = len(g.log)
    g.apply(option)
    texts += narrate(g, lang, since)
    for text in texts:
        # the notation stays only where the refusal quotes what was typed and lists what may be
        prose = NOTATION.sub("", text)
        assert "#" not in prose, text
    assert want[lang] in texts[0] and want[lang] in texts[3]
    deben = square_name(R.ABOU_SIMBEL * 2, 2, lang)
    assert format(deben, "dat" if lang == "de" else "") in texts[1]


def test_the_refusal_and_the_status_read_as_german_sentences():
    g = _staged_abou_simbel()
    refusal, rule = why_illegal(g, g.parse("place abou_simbel.left#2"), "de")
    assert rule == "R5.2"
    assert "auf der 2 mit Münzsymbol steht schon ein Diener von Grün" in refusal
    g2 = new_game(4, seed=3, first_player=0)
    S.put_servant(g2, 0, "abou_simbel", 6)  # 8
    S.put_servant(g2, 1, "abou_simbel", 4)  # 5: 13 so far; 1 makes 14 (R3.5)
    S.start_turn(g2, 2)
    text = describe_status(stall_status(g2, "abou_simbel"), g2.colours, "de")
    assert "mit einem Diener auf der ersten 1, der zweiten 1 oder der 7." in text, text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_exercise_feedback_names_squares_by_bid(lang):
    click = ClickClosingSquare("abou-simbel-left-sums", "abou_simbel")
    state = click.state()
    stall_id = R.ABOU_SIMBEL * 2 + state.side[R.ABOU_SIMBEL]
    wrong = next(i for i in range(len(R.STALLS[stall_id].squares)) if i not in click.right_answer())
    feedback = click.check(wrong, lang)
    shown = " ".join((feedback.answer, feedback.right_answer, feedback.explanation))
    assert "#" not in shown and "#" not in click.prompt(lang), shown
    assert str(square_name(stall_id, wrong, lang)) in feedback.answer
    for i in click.right_answer():
        assert str(square_name(stall_id, i, lang)) in feedback.right_answer
    chance = ClosingChance("louqsor-left-dice", 2)
    left = R.LOUQSOR * 2 + R.LEFT
    assert "#" not in chance.prompt(lang)
    assert str(square_name(left, 2, lang)) in chance.prompt(lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_placement_preview_names_the_square_not_the_move(lang):
    g = new_game(4, seed=3, first_player=0)
    option = g.parse("place abou_simbel.left#3")
    text = describe_preview(preview(g, option), g, lang)
    assert "#" not in text and "place " not in text, text
    assert str(square_name(R.ABOU_SIMBEL * 2, 3, lang)) in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_note_on_a_square_names_its_mark_and_stays_unique(lang):
    for stall in R.STALLS:
        names = [square_name(stall, i, lang, marked=True) for i in range(len(stall.squares))]
        assert len(set(names)) == len(names), names
    gizeh, louqsor = R.stall_of(R.GIZEH, R.LEFT), R.stall_of(R.LOUQSOR, R.LEFT)
    assert square_name(gizeh, 3, "en", marked=True) == "the Deben 4"
    assert square_name(louqsor, 0, "en", marked=True) == "the single-card 1"
    assert square_name(R.STALLS[2], 9, "en", marked=True) == "the extra-card 10"
    assert square_name(gizeh, 3, "zh", marked=True) == "标有4的银币方块"
