"""Self-checking exercises (nefertiti_core/files/exercises/).

Every exercise of the registry: the right answer, computed here independently of the exercise by
playing on copies of its position (previews, every square tried, every roll of the dice), is
accepted; a wrong answer is rejected; both explanations name a RULINGS rule. Prompts render in
every language; malformed answers never raise; the staged position is a fresh copy each time.
"""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction
from itertools import product

import pytest

from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import LANGUAGES
from nefertiti_core.engine.scoring import totals
from nefertiti_core.engine.state import OPEN
from nefertiti_core.files.exercises import (
    EXERCISES,
    TOPICS,
    ClickClosingSquare,
    ClosingChance,
    ExerciseError,
    Feedback,
    FinalScore,
    GameEnds,
    GiftValue,
    HowManyPoints,
    HowMuchDeben,
    IsLegal,
    WhoDecidesNext,
    WillItClose,
    exercises_for,
)
from nefertiti_core.teaching.status import preview

IDS = list(EXERCISES)
RULE_ID = re.compile(r"\bR\d+(\.\d+)?\b")
CJK = re.compile(r"[\u4e00-\u9fff]")
REQUIRED_TOPICS = (
    "welcome",
    "setup",
    "gift-cards",
    "markets",
    "closing-gizeh",
    "closing-akhet-aton",
    "closing-abou-simbel",
    "closing-louqsor",
    "a-turn",
    "closing-a-market",
    "characters",
    "final-scoring",
    "misreadings",
    "whole-game",
    "what-if",
    "teaching",
)


# --------------------------------------------------------------------------- independent truths
def _place_closes(state, option) -> bool:
    """Whether placing closes the placed market, by playing it on a copy (no Louqsor here)."""
    market = O.SQUARE_STALL[option] >> 1
    copy = state.copy()
    copy.apply(option)
    return copy.res_market == market or copy.status[market] != OPEN


def _closes_by_rule(state, option) -> bool:
    """R3.1-R3.6 applied to the stall as it would be after the placement (no engine step)."""
    stall = R.STALLS[O.SQUARE_STALL[option]]
    market, index = stall.market, O.SQUARE_INDEX[option]
    if stall.rule == R.COLOURS3_OR_4:  # R3.2
        on = [o for o in state.owners[market] if o >= 0] + [state.decider]
        return len(on) >= 4 or len(set(on)) >= 3
    return R.closes_by_shape(stall, state.mask[market] | 1 << index)


def _louqsor_chance(state, option) -> Fraction:
    """Every roll of the dice tried on its own copy (R3.7, R3.8): the share that closes."""
    dice = 2 if O.SQUARE_STALL[option] == R.LOUQSOR * 2 + R.LEFT else 1
    rolls = list(product(range(1, 7), repeat=dice))
    closing = 0
    for roll in rolls:
        copy = state.copy()
        copy.forced_rolls = list(roll)
        copy.apply(option)
        closing += copy.res_market == R.LOUQSOR or copy.status[R.LOUQSOR] != OPEN
    return Fraction(closing, len(rolls))


def independent_truth(ex):
    """The right answer of ``ex``, worked out here without the exercise's own reasoning."""
    state = ex.state()
    if isinstance(ex, ClickClosingSquare):
        m = ex.market
        side = state.side[m]
        closing = []
        for i, owner in enumerate(state.owners[m]):
            option = O.place_id(m, side, i)
            if owner < 0 and state.is_legal(option) and _place_closes(state, option):
                closing.append(i)
        return tuple(closing)
    if isinstance(ex, ClosingChance):
        return _louqsor_chance(state, O.place_id(R.LOUQSOR, state.side[R.LOUQSOR], ex.square))
    if isinstance(ex, GiftValue):
        seat = state.colours.index(ex.seat)
        t = ex.gift_type
        holders = sum(1 for s in range(state.n) if state.type_count(s, t))
        assert state.type_count(seat, t), "the exercise asks about a type the seat holds"
        return R.GIFT_VALUES[t][holders - 1]
    if isinstance(ex, FinalScore):
        return totals(state)[state.colours.index(ex.seat)]
    option = state.parse(ex.option_text)
    if isinstance(ex, IsLegal):
        return "yes" if option in state.legal_options() else "no"
    if isinstance(ex, WillItClose):
        if R.STALLS[O.SQUARE_STALL[option]].rule in (R.TWO_DICE, R.ONE_DIE_RUN):
            chance = _louqsor_chance(state, option)
            return {0: "never", 1: "always"}.get(chance, "sometimes")
        return "yes" if _closes_by_rule(state, option) else "no"
    p = preview(state, option)
    assert p.closes is not None, "a preview that the dice decide: no single answer"
    if isinstance(ex, HowManyPoints):
        seat = state.decider if ex.seat is None else state.colours.index(ex.seat)
        return p.prestige_changes[seat]
    if isinstance(ex, HowMuchDeben):
        return p.deben
    if isinstance(ex, WhoDecidesNext):
        return "nobody" if p.game_over else state.colours[p.next_decider]
    if isinstance(ex, GameEnds):
        return "yes" if p.game_over else "no"
    raise AssertionError(f"no independent check for {ex!r}")


def answer_of(ex, truth):
    """The right answer as a learner would give it."""
    if isinstance(ex, ClickClosingSquare):
        return truth[0]
    if isinstance(ex, ClosingChance):
        return f"{truth.numerator}/{truth.denominator}"
    return truth


def wrong_answer_of(ex, truth):
    """A well-formed answer that is not right."""
    state = ex.state()
    if isinstance(ex, ClickClosingSquare):
        size = len(state.visible_stall(ex.market).squares)
        return next(i for i in range(size) if i not in truth)
    if isinstance(ex, ClosingChance):
        other = truth + Fraction(1, 6) if truth <= Fraction(1, 2) else truth - Fraction(1, 6)
        return f"{other.numerator}/{other.denominator}"
    if ex.answer_kind == "integer":
        return truth - 1 if truth > 0 else truth + 1
    return next(value for value, _ in ex.choices() if value != truth)


# --------------------------------------------------------------------------- the registry
def test_every_tutorial_topic_has_at_least_two_exercises():
    assert TOPICS == REQUIRED_TOPICS
    for topic in REQUIRED_TOPICS:
        found = exercises_for(topic)
        assert len(found) >= 2, topic
        assert all(ex.topic == topic and ex.id.startswith(topic + "/") for ex in found)
    assert sum(len(exercises_for(t)) for t in TOPICS) == len(EXERCISES)


def test_an_unknown_topic_is_refused_with_the_list():
    with pytest.raises(KeyError, match="closing-gizeh"):
        exercises_for("closing-giza")


def test_the_registry_uses_every_kind_of_exercise():
    kinds = {type(ex) for ex in EXERCISES.values()}
    assert {
        WillItClose,
        ClickClosingSquare,
        HowManyPoints,
        HowMuchDeben,
        WhoDecidesNext,
        GiftValue,
        ClosingChance,
        IsLegal,
        GameEnds,
        FinalScore,
    } <= kinds


# --------------------------------------------------------------------------- right and wrong
@pytest.mark.parametrize("ident", IDS)
def test_the_engine_answer_matches_an_independent_computation(ident):
    ex = EXERCISES[ident]
    truth = independent_truth(ex)
    assert ex.right_answer() == truth


@pytest.mark.parametrize("ident", IDS)
def test_the_right_answer_is_accepted_with_a_reason_naming_a_rule(ident):
    ex = EXERCISES[ident]
    feedback = ex.check(answer_of(ex, independent_truth(ex)))
    assert isinstance(feedback, Feedback)
    assert feedback.correct and feedback.valid, feedback
    assert feedback.right_answer and feedback.answer
    assert RULE_ID.search(feedback.explanation), feedback.explanation


@pytest.mark.parametrize("ident", IDS)
def test_a_wrong_answer_is_rejected_with_the_right_one_and_a_rule(ident):
    ex = EXERCISES[ident]
    truth = independent_truth(ex)
    feedback = ex.check(wrong_answer_of(ex, truth))
    assert not feedback.correct and feedback.valid, feedback
    assert feedback.right_answer
    assert feedback.right_answer in feedback.explanation
    assert RULE_ID.search(feedback.explanation), feedback.explanation


@pytest.mark.parametrize("ident", IDS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_prompts_choices_and_feedback_render_in_every_language(ident, lang):
    ex = EXERCISES[ident]
    prompt = ex.prompt(lang)
    assert prompt.strip() and "{" not in prompt and "}" not in prompt, prompt
    for value, label in ex.choices(lang):
        assert value and label and "{" not in label
    truth = independent_truth(ex)
    for answer in (answer_of(ex, truth), wrong_answer_of(ex, truth), "banana"):
        feedback = ex.check(answer, lang)
        assert "{" not in feedback.explanation and "}" not in feedback.explanation
        assert feedback.explanation.strip()
    if lang == "zh":
        assert CJK.search(prompt), prompt
    if lang != "en":
        assert prompt != ex.prompt("en")


@pytest.mark.parametrize("ident", IDS)
def test_a_choice_is_accepted_by_its_label_in_any_language(ident):
    ex = EXERCISES[ident]
    if ex.answer_kind != "choice":
        return
    truth = independent_truth(ex)
    for lang in LANGUAGES:
        label = dict(ex.choices(lang))[truth]
        assert ex.check(label.upper(), "en").correct
        assert ex.check(f"  {label} ", lang).correct


# --------------------------------------------------------------------------- malformed answers
ODD_ANSWERS = [
    None,
    "banana",
    -5,
    99,
    999,
    "",
    "   ",
    [],
    {},
    object(),
    3.5,
    float("nan"),
    float("inf"),
    "1/0",
    "#-1",
    "gizeh.right#2",
    b"yes",
]


@pytest.mark.parametrize("ident", IDS)
def test_odd_answers_are_wrong_never_an_exception(ident):
    ex = EXERCISES[ident]
    for answer in ODD_ANSWERS:
        feedback = ex.check(answer)
        assert isinstance(feedback, Feedback)
        assert feedback.correct is False, (answer, feedback)
        assert feedback.explanation.strip()


def test_invalid_answers_say_what_is_expected_and_keep_the_answer_hidden():
    click = EXERCISES["closing-abou-simbel/exactly-fourteen"]
    for answer in (99, -1, "#7", "banana", True, "abou_simbel.right#5"):
        feedback = click.check(answer)
        assert not feedback.valid and not feedback.correct
        assert feedback.right_answer == ""
        assert "0 to 6" in feedback.explanation, feedback.explanation
    assert click.check("abou_simbel.left#5").correct  # the move notation of the square
    assert click.check("#5").correct and click.check("5").correct
    number = EXERCISES["characters/vizier"]
    for answer in ("banana", True, 2.5, "8 points", None):
        assert not number.check(answer).valid
    # Blue recruits the Vizier holding senets and a mirror: 2 types, 4 points (R10.2)
    assert number.check("4").correct and number.check(4.0).correct
    assert "between 0 and" in number.check(-5).explanation
    choice = EXERCISES["closing-gizeh/third-colour"]
    assert "yes or no" in choice.check("maybe").explanation
    assert choice.check(True).correct and choice.check("JA").correct


def test_a_square_already_taken_is_a_valid_but_wrong_click():
    ex = EXERCISES["closing-abou-simbel/exactly-fourteen"]
    feedback = ex.check(3)  # Green's servant stands on #3
    assert feedback.valid and not feedback.correct
    assert "R5.2" in feedback.explanation


def test_closing_chances_accept_equivalent_fractions_and_close_percentages():
    two_dice = EXERCISES["closing-louqsor/two-dice-chance"]  # 4 of 36 (R3.7)
    for answer in ("4/36", "1/9", "2/18", "11%", "11.1 %", "11.6%", 0.111, Fraction(1, 9)):
        assert two_dice.check(answer).correct, answer
    for answer in ("4/35", "12%", "10.5%", 0.2, "1/6"):
        feedback = two_dice.check(answer)
        assert feedback.valid and not feedback.correct, answer
    for answer in ("150%", "7/6", -0.1, "-5"):
        assert not two_dice.check(answer).valid, answer
    run = EXERCISES["closing-louqsor/run-chance"]  # a run of 3: 3 of 6 (R3.8)
    for answer in ("3/6", "1/2", "18/36", "50%", "50.4%", 0.5):
        assert run.check(answer).correct, answer
    assert run.check("1/2").answer == "1/2"


def test_an_unknown_language_falls_back_to_english():
    ex = EXERCISES["welcome/who-plays-next"]
    assert ex.prompt("fr") == ex.prompt("en")
    assert ex.check("red", "fr").explanation == ex.check("red", "en").explanation


def test_feedback_is_frozen():
    feedback = EXERCISES["welcome/who-plays-next"].check("red")
    with pytest.raises(dataclasses.FrozenInstanceError):
        feedback.correct = False


# --------------------------------------------------------------------------- the staged position
@pytest.mark.parametrize("ident", IDS)
def test_the_staged_state_is_a_fresh_copy_that_can_be_played_on(ident):
    ex = EXERCISES[ident]
    before = ex.right_answer()
    first, second = ex.state(), ex.state()
    assert first is not second and first.state_hash() == second.state_hash()
    assert first.log == [] and first.log is not second.log  # it records the learner's steps
    steps = 0
    while not first.is_over and steps < 12:
        first.apply(first.legal_options()[-1])
        steps += 1
    assert ex.state().state_hash() == second.state_hash()
    assert ex.right_answer() == before
    assert ex.check(answer_of(ex, independent_truth(ex))).correct


def test_checking_does_not_roll_the_games_dice_or_reveal_the_deck():
    ex = EXERCISES["teaching/a-fixed-card"]
    state = ex.state()
    ex.check("red")
    again = ex.state()
    assert again.state_hash() == state.state_hash()
    assert again.deck == state.deck and again.forced_draws == state.forced_draws


# --------------------------------------------------------------------------- what they teach
def test_the_misreadings_of_r13_are_answered_against_the_secondary_sources():
    assert EXERCISES["misreadings/no-half-for-the-highest-bidder"].right_answer() == "no"
    assert EXERCISES["misreadings/upper-card-with-its-seal"].right_answer() == "yes"
    assert EXERCISES["misreadings/gizeh-ignores-the-total"].right_answer() == "no"
    assert EXERCISES["misreadings/akhenaton-does-not-end-the-game"].right_answer() == "no"
    # ... and the German report's reading, as a variant, would end it (what-if).
    assert EXERCISES["what-if/the-german-reading"].right_answer() == "yes"
    for ident, lang in product([ex.id for ex in exercises_for("misreadings")], LANGUAGES):
        assert "R13" in EXERCISES[ident].check("yes", lang).explanation


HEADER = """\
nefertiti: 1
title: a test position
seed: 5
players:
  - {colour: green, seals: 1}
  - {colour: red}
  - {colour: blue}
  - {colour: black}
turn: green
"""


def _position(tmp_path, body: str):
    path = tmp_path / "position.yaml"
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def test_a_louqsor_placement_is_always_sometimes_or_never(tmp_path):
    ex = EXERCISES["closing-louqsor/sometimes"]
    assert [v for v, _ in ex.choices()] == ["always", "sometimes", "never"]
    assert ex.right_answer() == "sometimes"
    assert "R3.7" in ex.check("never").explanation
    assert [v for v, _ in EXERCISES["closing-gizeh/third-colour"].choices()] == ["yes", "no"]
    empty = _position(
        tmp_path,
        "markets:\n  gizeh: {stall: left, state: tile}\n  louqsor: {stall: left, state: open}\n",
    )
    never = WillItClose(str(empty), "place louqsor.left#6")  # a 7: no die shows it (R3.7)
    assert never.right_answer() == "never" == independent_truth(never)
    run_of_five = _position(
        tmp_path,
        "markets:\n  gizeh: {stall: left, state: tile}\n"
        "  louqsor: {stall: right, state: open, servants: {0: red, 1: blue, 2: red, 3: black,"
        " 4: blue}}\n",
    )
    always = WillItClose(str(run_of_five), "place louqsor.right#5")  # a run of 6 (R3.8)
    assert always.right_answer() == "always" == independent_truth(always)
    assert always.check("always").correct and "R3.8" in always.check("never").explanation
    reroll = WillItClose(  # Black holds the die after a roll of 4; no one placed there since
        "louqsor-right-run",
        "reroll",
        before=("place louqsor.right#3",) + tuple(f"place akhet_aton.left#{i}" for i in range(4)),
    )
    assert reroll.state().phase == "reroll"
    assert reroll.right_answer() == "sometimes"
    assert "roll" in reroll.prompt("en") and "R4.2" in reroll.check("never").explanation


def test_a_closing_by_a_later_forced_step_is_not_this_placements_closing(tmp_path):
    """High Priest with one servant left: the placement does not close Gizeh; the closing that
    follows is forced (only one market holds Green's servants, R5.4, R10.4)."""
    path = _position(
        tmp_path, "markets:\n  gizeh: {stall: left, servants: {0: green, 2: green, 6: green}}\n"
    )
    ex = WillItClose(str(path), "place gizeh.left#1", before=("recruit high_priest",))
    assert ex.right_answer() == "no" == independent_truth(ex)
    feedback = ex.check("yes")
    assert not feedback.correct and "later forced step" in feedback.explanation
    assert "R5.4" in feedback.explanation
    closing = WillItClose(str(path), "place gizeh.left#4", before=("recruit high_priest",))
    assert closing.right_answer() == "yes"  # 1-3-5-7 touch: the placement itself closes (R3.1)


def test_points_for_another_seat_and_deben_paid_are_signed_as_asked():
    royal = EXERCISES["characters/royal-servant-others-score"]
    # Red, alone on harps, discards one and scores a harp held alone: 9 (R10.6)
    assert royal.right_answer() == 9 and "Red" in royal.prompt("en")
    merchant = EXERCISES["characters/merchant-pays-difference"]
    assert merchant.right_answer() == -2
    assert merchant.check("-2").correct and merchant.check("\u22122").correct
    assert not merchant.check(2).correct


def test_broken_exercises_raise_an_exercise_error_not_a_wrong_verdict():
    with pytest.raises(ExerciseError, match="no such file"):
        WillItClose("no-such-scenario", "place gizeh.left#0").prompt()
    with pytest.raises(ExerciseError, match="not legal"):
        HowMuchDeben("first-game", "place louqsor.left#0").right_answer()
    with pytest.raises(ExerciseError, match="dice decide"):
        HowMuchDeben("mid-game", "place louqsor.right#0").right_answer()
    with pytest.raises(ExerciseError, match="no square closes"):
        ClickClosingSquare("first-game", "gizeh").right_answer()
    with pytest.raises(ExerciseError):
        GiftValue("first-game", "green", "harp").right_answer()  # Green holds no harp
    with pytest.raises(ExerciseError):
        ClickClosingSquare("first-game", "giza")


def test_an_exercise_on_a_given_position_is_the_same_as_from_its_file():
    """Exercise.on_position (practice's staged exercises, a teacher's file): ``before`` and
    ``variants`` apply to a copy of the position given, exactly as to a file's."""
    from nefertiti_core.files.exercises import scenario_path
    from nefertiti_core.files.scenario import load

    start = load(scenario_path("akhenaton-appears")).state
    before = start.state_hash()
    kw = {"variants": ("akhenaton_ends_game",)}
    given = GameEnds.on_position(start, "place gizeh.right#3", scenario="mine", **kw)
    from_file = GameEnds("akhenaton-appears", "place gizeh.right#3", **kw)
    assert given.scenario == "mine"
    assert given.right_answer() == from_file.right_answer() == "yes"  # the German reading, R13
    assert given.prompt("de") == from_file.prompt("de")
    assert given.state().state_hash() == from_file.state().state_hash()
    given.state().apply("place gizeh.right#3")
    assert start.state_hash() == before  # the position given is never played on
    after = HowMuchDeben.on_position(
        load(scenario_path("abou-simbel-left-sums")).state,
        "half",
        before=("place abou_simbel.left#5", "take upper"),
    )
    assert after.right_answer() == EXERCISES["closing-a-market/half-the-reserve"].right_answer()
