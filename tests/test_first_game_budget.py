"""The first-game path (tutorials 00-03) stays a first game in half an hour: at most 3,000 words
to read and 40 steps to take, counted as ``benchmarks/first_game_path.py`` counts them
(``tests/helpers_reading.py``), and it covers what a first game needs."""

from __future__ import annotations

import json
import re

import pytest
from helpers_reading import (
    STEP_BUDGET,
    WORD_BUDGET,
    count_words,
    first_game_notebooks,
    measure,
    measure_path,
    undeclared_asks,
)


@pytest.fixture(scope="module")
def loads():
    return measure_path()


def test_the_path_is_four_notebooks(loads):
    assert [load.name[:2] for load in loads] == ["00", "01", "02", "03"]


def test_the_path_reads_in_at_most_3000_words(loads):
    words = {load.name: round(load.total_words) for load in loads}
    print(f"\nfirst-game path words: {sum(words.values())} {words}")
    assert sum(load.total_words for load in loads) <= WORD_BUDGET, words


def test_the_path_takes_at_most_40_steps(loads):
    steps = {load.name: load.total_steps for load in loads}
    print(f"\nfirst-game path steps: {sum(steps.values())} {steps}")
    assert sum(steps.values()) <= STEP_BUDGET, steps


def test_every_board_action_the_prose_asks_for_is_counted():
    undeclared = {p.name: undeclared_asks(p) for p in first_game_notebooks()}
    assert not any(undeclared.values()), undeclared


def test_every_source_of_reading_is_counted(loads):
    """Each kind of reading and of step is found somewhere on the path (a change of the widgets'
    names cannot silently count zero)."""
    for kind in ("prose", "demos", "exercises", "tables"):
        assert sum(load.words[kind] for load in loads) > 0, kind
    for kind in ("run", "demos", "exercises", "board"):
        assert sum(load.steps[kind] for load in loads) > 0, kind


def _required_prose() -> str:
    cells = [
        "".join(c["source"])
        for p in first_game_notebooks()
        for c in json.loads(p.read_text(encoding="utf-8"))["cells"]
        if c["cell_type"] == "markdown"
    ]
    return re.sub(r"<details\b.*?</details>", " ", "\n".join(cells), flags=re.S)


@pytest.mark.parametrize(
    "needed",
    [
        r"\*\*S\*\* square",  # the board's letters: a single card
        r"\*\*X\*\* square",  # an extra card
        r"\(R3\.7, R3\.8\)",  # Louqsor's dice kept and rolled again
        r"reserve is empty \(R6\.4\)",  # passing while settling
        r"hold none, nothing happens \(R6\.3\)",  # discarding with no gift
    ],
)
def test_the_path_says_what_a_first_game_needs(needed):
    assert re.search(needed, _required_prose()), needed


def test_the_counting(tmp_path):
    """Words, Chinese by two characters; a folded section and a note to the tools are not read;
    a declared board action counts its steps, an undeclared click counts one."""
    assert count_words("Place a servant (R5.2).") == 5
    assert count_words("放置仆人") == 2
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": "Read this.\n<!-- board steps: 3 -->"},
        {"cell_type": "markdown", "metadata": {}, "source": "<details>not this</details>Click"},
        {"cell_type": "code", "metadata": {}, "outputs": [], "source": "x = 1"},
    ]
    path = tmp_path / "99-test.ipynb"
    path.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    load = measure(path)
    assert load.words["prose"] == 3, load.words
    assert load.steps == {"run": 1, "demos": 0, "exercises": 0, "board": 4}, load.steps
    assert undeclared_asks(path) == ["<details>not this</details>Click"]


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_the_translated_path_asks_the_same_steps(loads, lang):
    """The German and Chinese first-game notebooks ask the same steps as the English ones (the
    same boards, demonstrations and exercises); their words are printed for the closing note
    (Chinese counts one word per two characters)."""
    from helpers_reading import TUTORIALS

    translated = measure_path(TUTORIALS / lang, lang)
    assert translated, f"no first-game notebook in tutorials/{lang}"
    english = {load.name: load for load in loads}
    for load in translated:
        assert load.steps == english[load.name].steps, (lang, load.name)
    words = {load.name: round(load.total_words) for load in translated}
    english_words = {name: round(english[name].total_words) for name in words}
    print(f"\n{lang} first-game path words: {words} (English: {english_words})")
