"""Fair practice: the generated questions cannot be won by always giving the same answer, use
the whole difficulty scale, never name a card hidden in the deck, say when a step is forced, and
the scheduler practises across rules; the Practice card's board answers only after the learner.

The supply of the default seeds (0-9, what ``benchmarks/practice_balance.py`` reports) is
generated once for the module.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.deck import reshuffled
from nefertiti_core.files import practice as P
from nefertiti_core.files import practice_balance as B
from nefertiti_core.files.exercises import (
    ExerciseError,
    HowManyPoints,
    HowMuchDeben,
    WhoDecidesNext,
    WillItClose,
    exercises_in,
    scenario_path,
)
from nefertiti_core.files.exercises.base import imagined_deck_order, play_on_copy
from nefertiti_core.files.scenario import load

SEEDS = range(10)


@pytest.fixture(scope="module")
def supply():
    return P.supply(SEEDS)


# --- balance ---------------------------------------------------------------------------------------
def test_no_answer_is_right_for_more_than_60_percent_of_a_kind(supply):
    shares = {}
    for kind, counts in B.balance(supply).items():
        total = sum(counts.values())
        answer, top = counts.most_common(1)[0]
        shares[kind] = (answer, top / total)
        assert total >= 5, (kind, counts)  # a kind the supply really asks
    assert all(share <= B.MAX_SHARE for _, share in shares.values()), shares
    # the kinds the review found skewed now offer each answer
    louqsor = B.balance(supply)["louqsor_odds/will_it_close"]
    assert {"never", "sometimes"} <= set(louqsor), louqsor
    assert len(B.balance(supply)["character/who_decides"]) >= 2


def test_every_difficulty_level_occurs_and_a_gift_value_is_not_always_the_same_level(supply):
    levels = Counter(g.difficulty for g in supply)
    assert set(levels) == {1, 2, 3, 4, 5}, levels
    assert all(levels[d] >= 5 for d in range(1, 6)), levels
    gift = {g.difficulty for g in supply if g.kind == "gift_value"}
    assert len(gift) >= 2, gift


# --- the hidden deck -------------------------------------------------------------------------------
def _again_on(g, state):
    """The same question asked on ``state`` (another deck behind the same visible position)."""
    ex = g.exercise
    kw = {"seat": ex.seat} if isinstance(ex, HowManyPoints) else {}
    return P.staged(type(ex), state, ex.option_text, id=g.key, **kw)


def _refills(g) -> bool:
    state = g.exercise.state()
    copy = play_on_copy(state, state.parse(g.exercise.option_text))
    return any(name == "reopen" and data["drawn"] for name, data in copy.log)


def test_no_text_depends_on_the_order_of_the_hidden_deck(supply):
    asked = [
        g
        for g in supply
        if isinstance(g.exercise, (WillItClose, HowMuchDeben, HowManyPoints, WhoDecidesNext))
    ]
    refilling = [g for g in asked if g.exercise.plays_option and _refills(g)]
    assert len(refilling) >= 5  # the questions the review found naming an imagined card
    for g in refilling:
        texts = B.feedback_texts(g.exercise)
        for order in (1, 2):  # the real deck in two other orders, behind the same position
            state = g.exercise.state()
            state.deck = reshuffled(state.deck, random.Random(order))
            assert B.feedback_texts(_again_on(g, state)) == texts, g
        assert not B.names_hidden_card(g.exercise), g  # nor in the order the players imagine
        for lang in ("de", "zh"):
            assert not B.names_hidden_card(g.exercise, lang), (g, lang)
    assert not any(B.names_hidden_card(g.exercise) for g in supply)


def _all_said(feedback) -> str:
    """The reason and the folded details: a hidden card may be named in neither."""
    return f"{feedback.explanation} {feedback.details}"


def test_a_refill_is_counted_in_words_never_named():
    state = load(scenario_path("akhenaton-appears")).state
    state.forced_draws = []  # the card is no longer fixed: what comes up is unknown
    ex = P.staged(WhoDecidesNext, state, "place gizeh.right#3", id="refill")
    text = _all_said(ex.check(ex.right_answer()))
    assert "cards from the deck fill the gaps" in text and "Akhenaton card comes up" not in text
    assert "Karten vom Stapel füllen die Lücken" in _all_said(ex.check("red", "de"))
    assert "从抽牌堆抽" in _all_said(ex.check("red", "zh"))
    with imagined_deck_order("another"):
        assert _all_said(ex.check(ex.right_answer())) == text


def test_a_refill_that_may_draw_the_akhenaton_card_is_not_asked():
    state = load(scenario_path("akhenaton-appears")).state
    state.forced_draws = []
    gifts = [c for c in state.deck if c != R.AKHENATON][:4]
    state.deck = [R.AKHENATON, *gifts]  # five cards left: the refill may reach the Akhenaton
    ex = P.staged(WhoDecidesNext, state, "place gizeh.right#3", id="akhenaton")
    with pytest.raises(ExerciseError, match="Akhenaton"):
        ex.right_answer()
    assert B.forced_steps(ex) == []  # not asked, so nothing to state either


# --- forced steps ----------------------------------------------------------------------------------
def _fixed_card():
    return next(
        e
        for e in exercises_in(scenario_path("akhenaton-appears"))
        if e.id == "teaching/a-fixed-card"
    )


def test_a_fixed_card_names_its_forced_steps_in_three_languages():
    ex = _fixed_card()
    assert ex.right_answer() == "red"
    en = ex.check("red").explanation
    assert "Blue's only legal option is to take the upper card, so the game plays it" in en
    assert "Green's only legal option" in en and "Red's only legal option" in en
    assert "played automatically" in ex.prompt()
    assert en.count("only legal option") == 3
    assert ex.check("red", "de").explanation.count("nur eine erlaubte Option") == 3
    assert ex.check("red", "zh").explanation.count("唯一合法的选择是") == 3
    assert B.states_forced_steps(ex) and B.states_forced_steps(ex, "de")


def test_every_generated_who_decides_states_its_forced_steps(supply):
    who = [g for g in supply if g.kind == "who_decides"]
    forced = [g for g in who if B.forced_steps(g.exercise)]
    assert len(forced) >= 5
    for g in forced:
        for lang in ("en", "de", "zh"):
            assert B.states_forced_steps(g.exercise, lang), (g, lang)


# --- the scheduler ---------------------------------------------------------------------------------
def test_with_every_rule_due_the_scheduler_picks_across_rules(supply):
    pool = [g for g in supply if g.seed in (0, 1)]
    s = P.Scheduler(pool, persist=False)
    rules = {r for g in pool for r in g.rule_ids}
    s.state.step = 50
    for rule in rules:  # all due at once, the closing squares' tag the most overdue
        s.state.boxes[rule] = 3
        s.state.due[rule] = 40 if rule == "R3.10" else 45
    picks = [s.next() for _ in range(12)]
    assert len({g.rule_ids for g in picks}) > 1 and len({g.theme for g in picks}) >= 3
    for a, b in zip(picks, picks[1:], strict=False):  # never the same tag twice running
        assert a.theme != b.theme and set(a.rule_ids).isdisjoint(b.rule_ids), (a, b)


def test_closing_questions_answered_wrong_do_not_hold_practice_on_closing(supply):
    pool = [g for g in supply if g.seed == 0]
    s = P.Scheduler(pool, persist=False)
    themes = []
    for _ in range(12):
        g = s.next()
        themes.append(g.theme)
        s.answered(g, g.theme != "closing_squares")  # every closing question wrong
    assert themes.count("closing_squares") <= 6 and len(set(themes)) >= 4, themes
    assert all(a != b for a, b in zip(themes, themes[1:], strict=False)), themes


# --- the Practice card's board ---------------------------------------------------------------------
def test_the_practice_card_refuses_the_asked_move_before_the_answer_and_plays_it_after(supply):
    from widgets.game.exercise import ExerciseCard

    g = next(x for x in supply if x.kind == "will_it_close" and x.theme == "closing_squares")
    card = ExerciseCard(g.exercise, answer_first=True)
    asked = g.exercise.asked_option()
    option = card.session.state.parse(asked)
    before = card.session.state.mask[:]
    assert not card.session.play(option, by_learner=True)
    assert card.session.state.mask == before and "answer the question first" in card.session.error
    assert "Not yet" in card.board_note.object
    card.answer(g.exercise.right_answer())
    state = card.session.state
    assert state.mask != before  # the board played the move the question was about
    assert "has played the move" in card.board_note.object
    card.lang = "zh"
    assert "游戏板已经走出了" in card.board_note.object
    plain = ExerciseCard(g.exercise)  # a tutorial's card: play first if you like
    assert plain.session.play(option, by_learner=True)


def test_every_generated_exercise_can_be_asked_as_a_classroom_question(supply):
    # a poll names its exercise by the key: a key with '.', '#' or a space was no name at all
    from widgets.classroom.poll import exercise_ref

    keys = [g.key for g in supply]
    assert len(set(keys)) == len(keys)
    for g in supply:
        assert exercise_ref(g.exercise) == f"practice:{g.key}", g
