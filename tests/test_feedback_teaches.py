"""Feedback that teaches: every verdict, right or wrong, in every language, says why in a
sentence or two that name the rule by its ID *and* title, and a wrong answer reads the reasoning
before the answer.

Checked on every exercise of the tutorials (``EXERCISES``) and on a sample of generated practice
questions (two seeds' games, every kind), each answered right and wrong in English, German and
Chinese:

- the reason names at least one rule as "ID, title" (``R5.4, No servant left``), the title as the
  rules reference gives it in that language: an ID alone ("R5.4") teaches nothing;
- no reason is the bare "The rule that forbids it: R..." of old, or just a citation;
- a wrong answer's feedback gives the reasoning first: the headline does not give the answer away
  and the "So the answer is ..." sentence comes after the reason;
- no reason is shared word for word by more than ``SHARED_AT_MOST`` tutorial exercises, and no
  long sentence is said on more than ``SENTENCE_POSITIONS_AT_MOST`` positions: the same words
  under different positions is boilerplate (the 35-word "begins a turn: first, if they like, recruit ..." preamble was in 7);
- the High Priest's second placement is explained by the High Priest.

The folded details (how the position plays out, step by step) are not the reason and are not
checked here; the fairness tests (test_practice_fairness.py) read them too.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from fractions import Fraction

import pytest

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.files import practice as P
from nefertiti_core.files.exercises import EXERCISES
from nefertiti_core.files.exercises.base import ChoiceExercise
from nefertiti_core.teaching import rules_reference
from nefertiti_core.teaching.words import capital

LANGS = ("en", "de", "zh")

#: A reason may be shared by two exercises: two questions on one position fact (a placement
#: bonus asked on two boards, "+1: a Deben square") rightly get the same words. Three or more
#: saying the same thing under different positions is boilerplate.
SHARED_AT_MOST = 2
#: A long sentence (15 words or more, 30 Chinese characters; players' names aside) said on the
#: positions of more than 2 position files is said whatever the position (the preamble of old was
#: on 5). Questions staged from one file (a move or two apart) rightly repeat its facts ("The
#: bids add up to 7; ..." three times), and a
#: sentence that states a rule in general is restated on each question about it, because it is
#: the rule being asked about: a stall's closing rule (R3.x), what the final score counts (R9.1).
SENTENCE_POSITIONS_AT_MOST = 2
STALL_RULE = re.compile(r"[(（](R3\.\d|R9\.1)[,，]")


def right_answer(ex):
    truth = ex.right_answer()
    if ex.answer_kind == "square":
        return truth[0]
    if ex.answer_kind == "probability":
        return f"{truth.numerator}/{truth.denominator}"
    return truth


def wrong_answer(ex):
    truth = ex.right_answer()
    if isinstance(ex, ChoiceExercise):
        return next(value for value, _ in ex.choices() if value != truth)
    if ex.answer_kind == "square":
        state = ex.state()
        size = len(R.STALLS[ex.market * 2 + state.side[ex.market]].squares)
        return next(i for i in range(size) if i not in truth)
    if ex.answer_kind == "probability":
        return "1/3" if truth == Fraction(1, 2) else "1/2"
    return truth + 1 if truth + 1 <= ex.high else truth - 1


def titled_rules(lang: str) -> list[str]:
    """Every rule as a citation names it: "R5.4, No servant left" (in Chinese with "，")."""
    comma = "，" if lang == "zh" else ", "
    return [f"{rule.id}{comma}{rule.title}" for rule in rules_reference.all_rules(lang)]


def verdicts(exercises):
    """(id, kind, lang, answer, feedback) for each exercise answered right and wrong."""
    for ex in exercises:
        for kind, answer in (("right", right_answer(ex)), ("wrong", wrong_answer(ex))):
            for lang in LANGS:
                yield ex.id, kind, lang, answer, ex.check(answer, lang)


@pytest.fixture(scope="module")
def tutorial_verdicts():
    return list(verdicts(EXERCISES.values()))


@pytest.fixture(scope="module")
def practice_verdicts():
    sample = [g.exercise for g in P.supply(range(2))]
    assert {type(e).__name__ for e in sample} >= {"WillItClose", "WhoDecidesNext", "GiftValue"}
    return list(verdicts(sample))


def check_teaches(found) -> list[str]:
    problems = []
    titles = {lang: titled_rules(lang) for lang in LANGS}
    for id, kind, lang, answer, fb in found:
        assert fb.valid, (id, kind, lang, answer, fb)
        assert fb.correct == (kind == "right"), (id, kind, lang, fb)
        where = f"{id} ({kind}, {lang})"
        if not any(title in fb.reason for title in titles[lang]):
            problems.append(f"{where}: names no rule by its title: {fb.reason}")
        if re.fullmatch(r"[^.。]*[:：]\s*R\d+(\.\d+)?[.。]", fb.reason.strip()):
            problems.append(f"{where}: only a rule ID: {fb.reason}")
        if "rule that forbids it" in fb.reason or "Regel, die es verbietet" in fb.reason:
            problems.append(f"{where}: the old bare citation: {fb.reason}")
        if kind == "wrong":
            answer_sentence = tr(lang, "exercise.verdict.answer", right=fb.right_answer)
            said = fb.reason.find(answer_sentence[1:])  # the sentence starts upper-case there
            if fb.headline != capital(tr(lang, "exercise.verdict.wrong", answer=fb.answer)):
                problems.append(f"{where}: the headline gives the answer away: {fb.headline}")
            if said <= 0:
                problems.append(f"{where}: the answer does not follow a reason: {fb.reason}")
    return problems


def test_every_tutorial_verdict_names_its_rule_by_title_and_reasons_first(tutorial_verdicts):
    assert len(tutorial_verdicts) == len(EXERCISES) * 2 * len(LANGS)
    problems = check_teaches(tutorial_verdicts)
    assert not problems, "\n".join(problems[:20])


def test_generated_practice_verdicts_name_their_rule_by_title_and_reason_first(
    practice_verdicts,
):
    problems = check_teaches(practice_verdicts)
    assert not problems, "\n".join(problems[:20])


def test_no_reason_is_boilerplate_shared_by_many_exercises(tutorial_verdicts):
    reasons: Counter = Counter()
    positions: dict[tuple, set] = defaultdict(set)
    for id, kind, lang, _, fb in tutorial_verdicts:
        reasons[(lang, kind, fb.reason)] += 1
        ex = EXERCISES[id]
        for sentence in re.split(r"(?<=\.)\s+|(?<=。)", fb.reason):
            long = len(sentence.split()) >= 15 or (lang == "zh" and len(sentence) >= 30)
            for colour in R.COLOURS:  # the same words for another player are the same words
                sentence = sentence.replace(tr(lang, f"colour.{colour}"), "…")
            if long and not STALL_RULE.search(sentence):
                positions[(lang, sentence)].add(ex.scenario)
    (shared, count), *_ = reasons.most_common(1)
    print(f"\nthe most shared reason: {count} exercises: {shared}")
    assert count <= SHARED_AT_MOST, shared
    (sentence, where), *_ = sorted(positions.items(), key=lambda item: -len(item[1]))
    print(f"the long sentence in most position files: {len(where)}: {sentence}")
    assert len(where) <= SENTENCE_POSITIONS_AT_MOST, (sentence, sorted(where))


def test_the_high_priest_question_is_answered_by_the_high_priest():
    ex = EXERCISES["characters/high-priest-second-servant"]
    for lang, name in (("en", "High Priest"), ("de", "Hohepriester"), ("zh", "大祭司")):
        for answer in (right_answer(ex), wrong_answer(ex)):
            fb = ex.check(answer, lang)
            assert name in fb.reason and "R10.4" in fb.reason, (lang, fb.reason)


def test_a_wrong_answer_to_a_closing_rule_says_why_before_the_answer():
    """The issue's own example: Black, with no servant left, may not close a market that holds
    none of Black's servants; the feedback says so, names R5.4 by its title, then answers."""
    ex = EXERCISES["a-turn/close-a-market-of-yours"]
    fb = ex.check("yes", "en")
    assert fb.headline == "Not quite: you answered yes."
    assert fb.reason == (
        "Black has no servant left in hand, so Black must close a market where one of their "
        "servants stands, and none stands on Akhet-Aton (R5.4, No servant left). "
        "So the answer is no."
    )
    assert fb.details  # the options Black has, folded
    assert "（R5.4，没有仆人可放）" in ex.check("yes", "zh").reason
    assert "(R5.4, Kein Diener mehr übrig)" in ex.check("yes", "de").reason
