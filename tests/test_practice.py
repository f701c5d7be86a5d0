"""Practice that never runs out (issue #13, item 6): exercises generated from self-play games.

The supply of 10 seeds is generated once for the module (about 15 s on a loaded machine).
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.scoring import score_breakdown
from nefertiti_core.files import practice as P
from nefertiti_core.files.exercises import (
    ClickClosingSquare,
    ClosingChance,
    FinalScore,
    GiftValue,
    HowManyPoints,
    HowMuchDeben,
    IsLegal,
    WhoDecidesNext,
    WillItClose,
    scenario_path,
)
from nefertiti_core.files.scenario import load
from nefertiti_core.teaching.coverage import Coverage, answer_rules

SEEDS = range(10)
#: Every kind the issue lists, as (theme, exercise kind) pairs the supply must contain.
WANTED = {
    ("closing_squares", "click_closing"),  # which squares close this stall now
    ("closing_squares", "will_it_close"),
    ("settlement", "how_much_deben"),  # what the highest bidder (or another bidder) pays, takes
    ("settlement", "who_decides"),
    ("collection", "gift_value"),  # what this collection is worth
    ("collection", "final_score"),
    ("who_decides", "who_decides"),  # who decides next
    ("louqsor_odds", "closing_chance"),  # Louqsor's odds
    ("character", "how_many_points"),  # a character's effect
    ("character", "how_much_deben"),
}


@pytest.fixture(scope="module")
def supply():
    return P.supply(SEEDS)


def _scenario(name):
    return load(scenario_path(name)).state


# --- generation -----------------------------------------------------------------------------------
def test_the_same_seed_gives_the_same_exercises_and_another_seed_others(supply):
    def fingerprint(items):
        return [(g.key, g.exercise.prompt(), repr(g.exercise.right_answer())) for g in items]

    first = [g for g in supply if g.seed == 4]
    other = [g for g in supply if g.seed == 5]
    assert first and fingerprint(P.generate(4)) == fingerprint(first)  # made again, apart
    assert {g.key for g in first}.isdisjoint({g.key for g in other})
    assert {g.exercise.prompt() for g in first} != {g.exercise.prompt() for g in other}


def test_ten_seeds_give_at_least_200_distinct_exercises_of_every_kind(supply):
    keys = [g.key for g in supply]
    assert len(set(keys)) == len(keys)  # every key names one exercise
    distinct = {(g.kind, g.exercise.prompt(), g.seed, g.ply) for g in supply}
    assert len(distinct) >= 200
    counts = Counter((g.theme, g.kind) for g in supply)
    assert WANTED <= set(counts), f"missing: {WANTED - set(counts)}"
    assert all(counts[pair] >= 5 for pair in WANTED), counts
    assert set(P.THEMES) == {g.theme for g in supply}


def test_every_generated_exercise_has_rule_ids_a_difficulty_and_records_those_rules(supply):
    for g in supply:
        assert g.rule_ids, g
        assert all(r.startswith("R") for r in g.rule_ids)
        assert 1 <= g.difficulty <= 5
        assert answer_rules(g.exercise) == set(g.rule_ids)  # what the card records
    assert len({g.difficulty for g in supply}) >= 3  # the heuristic spreads them


def _independent_truth(ex):
    """The right answer worked out here, from the engine's state, not by the exercise."""
    state = ex.state()
    if isinstance(ex, GiftValue):
        return state.gift_value(ex.gift_type, state.holders(ex.gift_type))
    if isinstance(ex, FinalScore):
        return score_breakdown(state, state.colours.index(ex.seat)).total
    if isinstance(ex, (HowMuchDeben, HowManyPoints)):
        option = state.parse(ex.option_text)
        copy = state.copy()
        copy.apply(option)
        if isinstance(ex, HowMuchDeben):
            return copy.deben[state.decider] - state.deben[state.decider]
        seat = state.decider if ex.seat is None else state.colours.index(ex.seat)
        return copy.prestige[seat] - state.prestige[seat]
    if isinstance(ex, ClosingChance):  # enumerate the dice (R3.7, R3.8)
        stall = R.STALLS[R.LOUQSOR * 2 + state.side[R.LOUQSOR]]
        mask = state.mask[R.LOUQSOR] | 1 << ex.square
        values = {sq.value for sq in stall.squares if mask >> sq.index & 1}
        if state.side[R.LOUQSOR] == R.LEFT:
            hits = sum(1 for a, b in product(range(1, 7), repeat=2) if a in values and b in values)
            return Fraction(hits, 36)
        run = best = 0
        for v in range(1, 10):  # the longest run of consecutive occupied values
            run = run + 1 if v in values else 0
            best = max(best, run)
        return Fraction(sum(1 for d in range(1, 7) if d <= best), 6)
    return None


def test_every_generated_exercise_is_right_for_the_engines_answer_and_only_for_it(supply):
    for g in supply:
        ex = g.exercise
        truth = ex.right_answer()
        if ex.answer_kind == "choice":  # exactly one of the choices is right
            verdicts = {value: ex.check(value).correct for value, _ in ex.choices()}
            assert [v for v, ok in verdicts.items() if ok] == [truth], (g, verdicts)
            if isinstance(ex, WhoDecidesNext):
                state = ex.state()
                copy = state.copy()
                copy.apply(state.parse(ex.option_text))
                # the real game moved on the same way when the bot played it (no dice involved)
                if not any(n == "roll" for n, _ in (copy.log or [])):
                    assert truth in (copy.colours[copy.decider], "nobody")
        elif ex.answer_kind == "square":  # those squares and no other
            state = ex.state()
            size = len(state.visible_stall(ex.market).squares)
            right = {i for i in range(size) if ex.check((ex.market, i)).correct}
            closes = {
                i
                for i in range(size)
                if state.owners[ex.market][i] < 0
                and _closes(state, O.place_id(ex.market, state.side[ex.market], i))
            }
            assert right == set(truth) == closes and 0 < len(right) < size, g
        else:
            expected = _independent_truth(ex)
            assert truth == expected, (g, truth, expected)
            if ex.answer_kind == "probability":
                assert ex.check(f"{truth.numerator}/{truth.denominator}").correct
                assert not ex.check(f"{truth.numerator + 1}/{truth.denominator}").correct
            else:
                assert ex.check(str(truth)).correct
                assert not ex.check(str(truth + 1)).correct
                assert not ex.check(str(truth - 1)).correct


def _closes(state, option):
    """Whether the placement itself closes its market (not a later player's forced closing,
    R5.4: that comes after the next turn begins)."""
    copy = state.copy()
    copy.log = []
    copy.apply(option)
    for name, _ in copy.log:
        if name == "turn":
            return False
        if name == "market_closes":
            return True
    return False


# --- never answerable from the screen, never degenerate -------------------------------------------
def test_no_generated_exercise_can_be_read_off_the_practice_view(supply):
    assert all(P.on_screen(g.exercise) is None for g in supply)


def test_a_question_about_a_market_marked_closed_is_rejected():
    # "May Green place on Louqsor?" with MARKET CLOSED on the board (the example)
    ex = P.staged(IsLegal, _scenario("first-game"), "place louqsor.left#0", id="closed")
    assert "MARKET CLOSED" in P.screen_texts(ex)
    assert P.on_screen(ex) == "market_closed"


def test_closing_questions_are_rejected_when_the_board_shows_its_closing_hints():
    state = _scenario("abou-simbel-left-sums")
    will = P.staged(WillItClose, state, "place abou_simbel.left#5", id="will")
    click = P.staged(ClickClosingSquare, state, "abou_simbel", id="click")
    assert P.on_screen(will) is None and P.on_screen(click) is None  # hints off: fine
    assert P.on_screen(will, hints=True) == "closing_hint"  # "... on the 7."
    assert P.on_screen(click, hints=True) == "answer_shown"
    chance = P.staged(ClosingChance, _scenario("louqsor-left-dice"), 2, id="chance")
    assert P.on_screen(chance) is None
    assert any("4/36" in t for t in P.screen_texts(chance, hints=True))
    assert P.on_screen(chance, hints=True) == "answer_shown"


def test_a_score_that_is_only_the_prestige_shown_is_rejected():
    state = _scenario("first-game")
    red = state.colours.index("red")
    state.deben[red], state.seals[red], state.prestige[red] = 1, 0, 5  # 1 Deben: 0 points
    ex = P.staged(FinalScore, state, "red", id="score")
    assert ex.right_answer() == 5
    assert P.on_screen(ex) == "score_shown"
    state.deben[red] = 4  # now 2 points for the Deben: something to work out
    assert P.on_screen(P.staged(FinalScore, state, "red", id="score2")) is None


def test_the_table_beside_the_board_counts_gifts_but_never_shows_their_worth():
    state = _scenario("end-game")
    lines = P.table_lines(state)
    assert len(lines) == state.n and "decides now" in lines[state.decider]
    for seat in range(state.n):
        total = score_breakdown(state, seat).total
        assert f"{total} " not in lines[seat].replace(f"{state.deben[seat]} Deben", "")
    assert all("worth" not in line and "points" not in line for line in lines)
    for lang in ("de", "zh"):
        assert all(line and "{" not in line for line in P.table_lines(state, lang))


def test_no_degenerate_exercise_is_generated(supply):
    by_game: dict[int, list] = {}
    for g in supply:
        by_game.setdefault(g.seed, []).append(g)
        if isinstance(g.exercise, ClickClosingSquare):
            state = g.exercise.state()
            empty = [i for i, o in enumerate(state.owners[g.exercise.market]) if o < 0]
            assert len(empty) >= 2 and len(g.exercise.right_answer()) < len(empty)
        if isinstance(g.exercise, ClosingChance):
            assert 0 < g.exercise.right_answer() < 1  # strictly: the dice matter
        assert len(g.exercise.choices()) != 1
    for items in by_game.values():
        last = {}
        for g in items:
            about = (g.kind, g.subject.split(" ")[0])
            answer = repr(g.exercise.right_answer())
            assert last.get(about) != answer, g
            last[about] = answer


def test_staged_exercises_keep_their_own_copy_of_the_position():
    state = _scenario("abou-simbel-left-sums")
    ex = P.staged(WillItClose, state, "place abou_simbel.left#5", id="copy")
    state.apply("place abou_simbel.left#5")  # the game goes on; the exercise does not
    assert ex.right_answer() == "yes" and ex.state().mask != state.mask


# --- the scheduler ----------------------------------------------------------------------------------
def _two(supply):
    a = next(g for g in supply if g.rule_ids == ("R8",))
    b = next(g for g in supply if "R10.7" in g.rule_ids and "R8" not in g.rule_ids)
    return a, b


def test_the_scheduler_prefers_a_rule_answered_wrong_over_one_answered_right(supply, tmp_path):
    a, b = _two(supply)
    for wrong, right in ((a, b), (b, a)):
        s = P.Scheduler([right, wrong], path=tmp_path / f"{wrong.key}.json")
        s.answered(right, True)
        s.answered(wrong, False)
        assert s.next() is wrong
        assert s.box(wrong.rule_ids[0]) == 1 and s.box(right.rule_ids[0]) == 2


def test_the_scheduler_takes_the_most_recent_wrong_first_and_a_new_rule_before_a_known_one(
    supply, tmp_path
):
    a, b = _two(supply)
    c = next(g for g in supply if g.rule_ids == ("R5.5",))
    s = P.Scheduler([a, b, c], persist=False)
    s.answered(a, False)
    s.answered(b, False)
    assert s.next() is b  # the latest wrong first
    s.answered(b, True)
    assert s.next() is a  # still in box 1 after a wrong answer
    s.answered(a, True)
    assert s.next() is c  # never met: before the rules now in box 2


def test_the_scheduler_reads_wrong_answers_and_unseen_rules_from_the_learner_record(
    supply, tmp_path
):
    a, b = _two(supply)
    record = Coverage(tmp_path / "coverage.json")
    record.answered(["R10.7"], False)
    record.answered(["R8"], True)
    # refill_below=0: the pool is these (a refill's easier questions would come first)
    assert P.Scheduler([a, b], record, persist=False, refill_below=0).next() is b
    record.answered(["R10.7"], True)
    record.answered(["R10.7"], True)
    record.add(["R8"])
    c = next(g for g in supply if g.rule_ids == ("R5.5",))  # never met
    assert P.Scheduler([a, b, c], record, persist=False, refill_below=0).next() is c


def test_a_right_answer_moves_a_rule_to_a_longer_interval_and_wrong_back_to_box_one():
    st = P.PracticeState()
    for box in (2, 3, 4, 5, 5):  # a new rule starts in box 1
        st.answered(["R3.5"], True)
        assert st.boxes["R3.5"] == box and st.due["R3.5"] == st.step + P.INTERVALS[box]
    st.answered(["R3.5"], False)
    assert st.boxes["R3.5"] == 1 and st.wrong_at["R3.5"] == st.step


def test_the_practice_state_is_saved_next_to_the_record_and_read_back(
    supply, tmp_path, monkeypatch
):
    monkeypatch.setenv("NEFERTITI_HOME", str(tmp_path))
    assert P.practice_path() == tmp_path / "practice.json"
    a, b = _two(supply)
    s = P.Scheduler([a, b])
    s.answered(a, False)
    assert json.loads((tmp_path / "practice.json").read_text())["rules"]["R8"]["box"] == 1
    again = P.Scheduler([a, b])
    assert again.box("R8") == 1 and again.state.step == 1 and again.warning is None
    assert not list(tmp_path.glob(".practice-*"))  # no temporary file left


def test_a_damaged_practice_file_is_set_aside_with_a_warning_and_practice_goes_on(supply, tmp_path):
    path = tmp_path / "practice.json"
    path.write_text('{"version": 1, "step": "many"')
    a, b = _two(supply)
    s = P.Scheduler([a, b], path=path, refill_below=0)
    assert s.warning and "practice.json" in s.warning and "\n" not in s.warning
    (aside,) = tmp_path.glob("practice.json.broken-*")  # kept, under a name of its own
    assert aside.read_text().startswith('{"version": 1') and aside.name in s.warning
    assert s.next() in (a, b)
    s.answered(a, True)
    assert json.loads(path.read_text())["step"] == 1


def test_the_supply_grows_when_it_runs_low(supply):
    few = [g for g in supply if g.seed == 0][:3]
    s = P.Scheduler(few, persist=False, seeds=(0,), refill_below=2)
    served = [s.next().key for _ in range(6)]
    assert len(s.exercises) > 3 and any(k.startswith("s1-") for k in served)
    assert all(a != b for a, b in zip(served, served[1:], strict=False))  # never twice running


def test_in_the_background_the_supply_grows_without_the_caller_waiting(supply, monkeypatch):
    few = [g for g in supply if g.seed == 0][:3]
    started, release = threading.Event(), threading.Event()
    real = P.generate

    def slow_generate(seed):
        started.set()
        release.wait(30)
        return real(seed)

    monkeypatch.setattr(P, "generate", slow_generate)
    s = P.Scheduler(few, persist=False, seeds=(0,), refill_below=2, background=True)
    served = [s.next().key for _ in range(4)]  # would block on release.wait if not backgrounded
    assert started.wait(60) and len(s.exercises) == 3 and all(k.startswith("s0-") for k in served)
    release.set()
    deadline = time.monotonic() + 60
    while len(s.exercises) == 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(s.exercises) > 3 and any(g.seed == 1 for g in s.exercises)


# --- the Practice view (a notebook's widgets.Practice) ---------------------------------------------
def test_the_practice_view_records_each_answer_once_and_shows_the_rules_only_after_it(
    supply, tmp_path, monkeypatch
):
    monkeypatch.setenv("NEFERTITI_HOME", str(tmp_path))
    from widgets import Practice

    record = Coverage(tmp_path / "coverage.json")
    scheduler = P.Scheduler([g for g in supply if g.seed == 0], record)
    view = Practice(coverage=record, scheduler=scheduler)
    g = view.current
    assert view.card.session.hints is False  # what the on-screen filter counts on
    assert all(r not in view.rules.object for r in g.rule_ids)
    assert "decides now" in view.table.object
    truth = g.exercise.right_answer()
    if g.exercise.answer_kind == "square":
        right, wrong = (g.exercise.market, truth[0]), None
    else:
        right = truth
        wrong = next(v for v, _ in g.exercise.choices() if v != truth)
    view.card.answer(wrong if wrong is not None else (g.exercise.market, 99))
    view.card.answer(right)
    view.lang = "de"  # the card judges its answer again in German: not a new answer
    view.lang = "zh"
    assert scheduler.state.step == (2 if wrong is not None else 1)
    assert "Geübte" not in view.rules.object and all(r in view.rules.object for r in g.rule_ids)
    assert json.loads((tmp_path / "practice.json").read_text())["step"] == scheduler.state.step
    for rule in g.rule_ids:
        marks = record.counts(rule)
        assert marks.right == 1 and marks.wrong == (1 if wrong is not None else 0)
    first = g.key
    view.next_button.clicks += 1
    assert view.current.key != first and all(
        r not in view.rules.object for r in view.current.rule_ids
    )
