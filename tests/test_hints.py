"""Hints (#6): on staged positions the clearly best option ranks first and its reasons name the
right market and rules; hints are reproducible from a seed, respect the time budget, leave the
game unchanged, and are localized (de and zh differ from en, no placeholder left unfilled)."""

from __future__ import annotations

import random
import re
import time

import pytest

from nefertiti_core import new_game
from nefertiti_core.cli import main
from nefertiti_core.files.scenario import loads_scenario
from nefertiti_core.play.hints import Hint, hints

CJK = re.compile(r"[\u4e00-\u9fff]")

# Red to play; Abou Simbel's left stall holds a 1 (Green) and a 2 (Blue): Red's 8 makes 11, which
# closes the market (R3.5) with Red the highest bidder, who can pay 8 of 9 Deben (R6.2) for the
# two gold crafts that nobody holds yet (14 points each, R8).
CLOSE_AND_WIN = """
nefertiti: 1
title: "Red closes Abou Simbel as the highest bidder"
seed: 4
players:
  - {colour: green}
  - {colour: red, deben: 9}
  - {colour: blue}
  - {colour: black}
turn: red
markets:
  abou_simbel:
    stall: left
    upper: necklace
    seal: true
    lower: [gold, gold, harp]
    servants: {0: green, 3: blue}
options: {characters: false}
characters: none
"""

# Black to play; Gizeh's right stall holds Green's 8 and Blue's 2: a third colour closes it
# (R3.2), so any servant of Black's there closes it with Green the highest bidder, who takes the
# gold and its seal or two necklaces (R6.2), and Blue buys next; Black, without a Deben, could
# buy nothing (R6.4).
GIZEH_FOR_GREEN = """
nefertiti: 1
title: "A third colour closes Gizeh for Green"
seed: 2
players:
  - {colour: green, deben: 10}
  - {colour: red}
  - {colour: blue}
  - {colour: black, deben: 0}
turn: black
markets:
  gizeh:
    stall: right
    upper: gold
    seal: true
    lower: [necklace, necklace, statuette]
    servants: {7: green, 1: blue}
options: {characters: false}
characters: none
"""


def staged(text: str):
    return loads_scenario(text).state


def test_the_closing_placement_that_wins_the_market_ranks_first():
    state = staged(CLOSE_AND_WIN)
    found = hints(state, "en", seed=1)
    best = found[0]
    assert best.notation == "place abou_simbel.left#6"
    assert best.rank == 1 and best.value > found[1].value
    reasons = " ".join(best.reasons)
    assert "Closes Abou Simbel while you are the highest bidder (8)" in reasons
    assert "R3.5" in reasons and "R6.2" in reasons
    assert "gold craft" in reasons.lower()


def test_a_placement_that_closes_a_market_for_an_opponent_is_explained_and_avoided():
    state = staged(GIZEH_FOR_GREEN)
    found = hints(state, "en", seed=1)
    gift = [h for h in found if h.notation.startswith("place gizeh.right")]
    assert gift, "every empty square of Gizeh's right stall is an option"
    for h in gift:
        assert any("Green as the highest bidder" in r and "R3.2" in r for r in h.reasons), h
    # Handing Green the gold and its seal (or two necklaces) is not Black's best move.
    assert "gizeh.right" not in found[0].notation


def test_hints_cover_every_legal_option_sorted_best_first():
    state = staged(CLOSE_AND_WIN)
    found = hints(state, "en", seed=0)
    assert sorted(h.option for h in found) == sorted(state.legal_options())
    assert [h.rank for h in found] == list(range(1, len(found) + 1))
    assert [h.value for h in found] == sorted((h.value for h in found), reverse=True)
    assert all(isinstance(h, Hint) and h.text and h.reasons for h in found[:5])


def test_hints_are_reproducible_with_a_seed_and_leave_the_state_unchanged():
    state = staged(CLOSE_AND_WIN)
    before = state.state_hash()
    first = hints(state, "en", time_budget=5.0, seed=3)
    second = hints(state, "en", time_budget=5.0, seed=3)
    assert first == second
    assert state.state_hash() == before


def random_positions(count: int, seed: int):
    rng = random.Random(seed)
    for k in range(count):
        state = new_game(rng.choice([3, 4]), seed + k, layout=rng.choice(["first", "random"]))
        target = rng.randrange(0, 160)
        while state.legal_options() and state.decisions < target:
            state.apply_unchecked(rng.choice(state.legal_options()))
        if not state.is_over:
            yield state


@pytest.mark.parametrize("budget", [1.0, 0.3])
def test_hints_respect_the_time_budget(budget):
    """Worst case over random positions (measured for docs/benchmarks.md: about 0.7 s for a budget of
    1 s, on a busy machine)."""
    worst = 0.0
    for state in random_positions(6, seed=40):
        start = time.perf_counter()
        found = hints(state, "en", time_budget=budget, seed=0)
        worst = max(worst, time.perf_counter() - start)
        assert found and all(h.option in state.legal_options() for h in found)
    assert worst <= budget, worst


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_hints_are_localized(lang):
    for text in (CLOSE_AND_WIN, GIZEH_FOR_GREEN):
        state = staged(text)
        english = hints(state, "en", seed=0)
        other = hints(state, lang, seed=0)
        assert [h.option for h in other] == [h.option for h in english]
        for en, local in zip(english, other, strict=True):
            assert local.text != en.text
            for reason_en, reason in zip(en.reasons, local.reasons, strict=True):
                assert reason != reason_en
                assert "{" not in reason and "}" not in reason, reason
                if lang == "zh":
                    assert CJK.search(reason), reason
    assert "Abu Simbel" in " ".join(hints(staged(CLOSE_AND_WIN), "de")[0].reasons)


def test_reasons_render_in_every_language_over_random_positions():
    """Every reason of every option renders (no missing placeholder) in all three languages."""
    for state in random_positions(8, seed=70):
        for lang in ("en", "de", "zh"):
            for h in hints(state, lang, time_budget=0.2, seed=0):
                for reason in h.reasons:
                    assert reason and "{" not in reason, reason


def test_the_hint_command(capsys, tmp_path):
    path = tmp_path / "close.yaml"
    path.write_text(CLOSE_AND_WIN, encoding="utf-8")
    assert main(["hint", str(path), "--lang", "en", "--time-budget", "0.5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1. [") and "the 8 of Abou Simbel's left stall" in out.splitlines()[0]
