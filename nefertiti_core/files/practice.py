"""Practice that never runs out: exercises generated from the positions of self-play games.

Like lichess's puzzles (taken from real games and tagged by theme), each exercise here is asked on
a position that occurred in a game the bots played (``bots.make_bot``, a seeded greedy/random
mix), tagged with its **theme** (``closing_squares``, ``settlement``, ``collection``,
``who_decides``, ``louqsor_odds``, ``character``: :data:`THEMES`), the **rule IDs** it tests and a
**difficulty** from 1 to 5 (:func:`difficulty`, read from the question, never from its answer).

The exercises are the kinds of :mod:`.exercises`: the engine computes the right answer when the
learner answers; nothing is stored. :func:`generate` (one game) and :func:`supply` (several) are
deterministic by seed; :func:`shared` keeps each seed's exercises once per process for every
Practice view and classroom question of a server. An exercise is dropped when its answer can be
read off the screen (:func:`on_screen`) or it is degenerate (one empty square, a chance of 0 or
1, the same question on the same facts as an earlier one).

The scheduler (:class:`Scheduler`) chooses what to practise next from the learner record
(:mod:`.coverage`) and a Leitner box per rule ID kept in ``practice.json`` next to the record
(``$NEFERTITI_HOME``): rules answered wrong first (most recent first), then rules never seen,
then rules whose interval is due. Standard library only.
"""

from __future__ import annotations

import json
import os
import random
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine import options as O
from ..engine import rules as R
from ..engine.i18n import DEFAULT_LANGUAGE, LANGUAGES, tr
from ..engine.scoring import score_breakdown
from ..engine.squares import square_name
from ..engine.state import (
    OPEN,
    P_BID,
    P_EXCHANGE_GIVE,
    P_PLACE,
    P_REROLL,
    P_ROYAL,
    P_SCRIBE,
    P_SHAME,
    P_TAKE,
    P_TURN,
    new_game,
)
from ..play.bots import make_bot
from ..teaching import json_file
from ..teaching.coverage import default_path, normalise, rule_key, rules_in
from ..teaching.status import describe_status, format_probability, stall_status
from ..teaching.words import Words
from .calibration import TARGET, Calibration, LearnerRating
from .exercises import (
    ClickClosingSquare,
    ClosingChance,
    Exercise,
    ExerciseError,
    FinalScore,
    GiftValue,
    HowManyPoints,
    HowMuchDeben,
    WhoDecidesNext,
    WillItClose,
)

if TYPE_CHECKING:
    from ..engine.state import GameState
    from ..teaching.coverage import Coverage

__all__ = [
    "THEMES",
    "Generated",
    "PracticeState",
    "Scheduler",
    "difficulty",
    "MAX_CALIBRATING_ANSWERS",
    "MAX_SEED",
    "generate",
    "generated_by_key",
    "generated_of",
    "is_generated_key",
    "on_screen",
    "practice_path",
    "screen_texts",
    "staged",
    "supply",
    "table_lines",
]

#: The themes, in the order the Practice view names them.
THEMES = (
    "closing_squares",
    "settlement",
    "collection",
    "who_decides",
    "louqsor_odds",
    "character",
)

MAX_PLIES = 400  # a self-play game is ~110 decisions; a bound against a bot that never ends it
PER_KIND = 6  # exercises kept per theme, kind and game (chosen by the seed among the candidates)
_DICE_RULES = R.DICE_RULES


# ------------------------------------------------------------------------------------ the exercises
@dataclass
class Generated:
    """One generated exercise: the exercise (checked on the engine), what it is about, where from.

    ``key``: a stable name (``"s3-p41-click_closing-gizeh"``, ``"s0-p3-how_much_deben-place-abou_simbel-left-6"``:
    seed, ply, kind, subject; letters, digits, ``_`` and ``-`` only);
    ``subject``: what it is about (a market, a gift type, an option), for the degenerate filter.
    """

    exercise: Exercise
    theme: str
    rule_ids: tuple[str, ...]
    difficulty: int
    seed: int
    ply: int
    subject: str
    key: str = ""

    @property
    def kind(self) -> str:
        return self.exercise.kind

    def __repr__(self) -> str:
        return f"<Generated {self.key} {self.theme} {'/'.join(self.rule_ids)} d{self.difficulty}>"


def staged(cls: type[Exercise], state: GameState, *args, id: str = "", **kw) -> Exercise:
    """An exercise of kind ``cls`` asked on ``state`` (a copy is kept) instead of a scenario file.

    The exercise is built with a label for a scenario name (:meth:`Exercise.on_position`):
    :meth:`Exercise.state` and every check then read the copy, exactly as for a scenario (the log
    starts empty, as ``before`` moves leave it).
    """
    return cls.on_position(state, *args, scenario=f"self-play:{id}", id=id, topic="practice", **kw)


# ------------------------------------------------------------------------------------ the screen
def table_lines(state: GameState, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """What the Practice view shows of each seat besides the board: Deben, seals, servants in
    hand, prestige and the gifts held, counted by kind (never their values or a score)."""
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    w = Words(lang, state.colours)
    lines = []
    for seat in range(state.n):
        held = []
        for t in range(len(R.GIFT_TYPES)):
            count = state.type_count(seat, t)
            if count:
                held.append(w.count(t, count))
        gifts = tr(lang, "status.list.sep").join(held) if held else tr(lang, "practice.no_gifts")
        key = "practice.table.decides" if seat == state.decider else "practice.table.seat"
        lines.append(
            tr(
                lang,
                key,
                player=tr(lang, f"colour.{state.colours[seat]}"),
                deben=state.deben[seat],
                seals=state.seals[seat],
                servants=state.hand[seat],
                prestige=state.prestige[seat],
                gifts=gifts,
            )
        )
    return lines


def _board_lines(state: GameState, lang: str, hints: bool) -> list[str]:
    """The texts the board draws (widgets/game/board.py): closed marks, reserves, the dice, and with
    ``hints`` each open market's status sentences."""
    out = []
    seat = state.decider if state.decider >= 0 else state.turn_player
    for m in range(len(R.MARKETS)):
        out.append(tr(lang, "board.reserve", deben=state.reserve[m]))
        if state.dead_market == m:
            out.append(tr(lang, "board.closed_for_good"))
        elif state.status[m] != OPEN:
            out.append(tr(lang, "board.market_closed" if m == state.tile else "board.closed"))
        elif hints:
            out.append(describe_status(stall_status(state, m, seat), state.colours, lang))
        if m == R.LOUQSOR and state.holder >= 0:
            who = tr(lang, f"colour.{state.colours[state.holder]}")
            dice = "-".join(map(str, state.last_roll))
            out.append(tr(lang, "board.dice", player=who, dice=dice))
    return out


def screen_texts(exercise: Exercise, lang: str = DEFAULT_LANGUAGE, hints: bool = False):
    """Every text the Practice view shows before an answer: the question, its choices, the
    board's texts and the table of the seats."""
    state = exercise.state()
    texts = [exercise.prompt(lang)]
    texts += [label for _, label in exercise.choices(lang)]
    texts += _board_lines(state, lang, hints)
    texts += table_lines(state, lang)
    return texts


def _market_of(exercise: Exercise, state: GameState) -> int | None:
    """The market a closing question is about."""
    if isinstance(exercise, ClickClosingSquare):
        return exercise.market
    if isinstance(exercise, ClosingChance):
        return R.LOUQSOR
    text = getattr(exercise, "option_text", "")
    if isinstance(exercise, WillItClose) and text:
        option = state.parse(text)
        if O.OPTION_KIND[option] == O.PLACE:
            return O.SQUARE_STALL[option] >> 1
        if O.OPTION_KIND[option] in (O.CLOSE, O.REROLL):
            return R.LOUQSOR if O.OPTION_KIND[option] == O.REROLL else O.OPTION_ARG[option]
    if text and type(exercise).__name__ == "IsLegal":
        option = state.parse(text)
        if O.OPTION_KIND[option] == O.PLACE:
            return O.SQUARE_STALL[option] >> 1
    return None


def _answer_words(exercise: Exercise, lang: str) -> list[str]:
    """The right answer as the feedback writes it, for answers that are words or numbers a screen
    could show (a probability, squares); empty for yes/no, colours and plain integers."""
    state = exercise.state()
    truth = exercise.right_answer()
    if exercise.answer_kind == "probability":
        dice = R.dice_rolled(R.LOUQSOR * 2 + state.side[R.LOUQSOR])
        text = format_probability(truth, R.roll_count(dice), lang)
        return [text.split(" ")[0], text]
    if exercise.answer_kind == "square":
        stall_id = exercise.market * 2 + state.side[exercise.market]
        return [square_name(stall_id, i, lang) for i in truth]
    return []


def on_screen(exercise: Exercise, lang: str = DEFAULT_LANGUAGE, hints: bool = False) -> str | None:
    """Why the answer to ``exercise`` can be read off the Practice view, or None. ``hints``:
    whether the board shows its closing hints (the Practice view: never).

    The Practice view shows the question,
    its choices, the board with closing hints *off* (no closing outlines, no status sentences, no
    Louqsor chances; what the board still draws: each market's "MARKET CLOSED" / "Closed" mark, the
    reserves, Louqsor's dice and holder, the cards, the servants) and the table of :func:`table_lines`
    (each seat's Deben, seals, servants in hand, prestige and gifts *counted*, never their values or
    scores). An exercise is dropped when

    1. its right answer, as the feedback would write it, is literally in those texts (a probability
       such as ``4/36``, a square such as ``#3 (bid 7)``: what a hint line would give away);
    2. it asks about a market the board marks as closed ("May Green place on Louqsor?" with
       MARKET CLOSED on screen);
    3. the board shows closing hints (``hints=True``) and it asks whether or where a stall closes or
       Louqsor's chance (the status sentence says it);
    4. it asks a score that is the prestige shown (nothing to compute).

    What the view shows besides is chosen not to give answers away: the rule IDs an exercise tests
    appear only after it is answered ("R6.1" on "who decides next?" would say that the market
    closes), and the difficulty never depends on the answer (below). The theme is shown: for a
    ``settlement`` question on a placement it tells the learner that this placement closes the
    market, which is the question's premise (who settles first, what the highest bidder pays), not
    its answer.

    Degenerate exercises are dropped too (by the generator): a closing-square question with one empty square or
    where every empty square closes, a Louqsor chance of 0 or 1 (asked instead as always / never), a
    question the engine cannot answer on its own (a roll that decides it), and an exercise whose kind,
    subject and answer are those of the one before it in the same game, or whose signature (the part
    of the position its answer depends on: the stall's occupancy, a gift type's holders, a seat's
    score breakdown) an earlier one had.
    """
    state = exercise.state()
    texts = screen_texts(exercise, lang, hints)
    for words in _answer_words(exercise, lang):
        if any(words in text for text in texts):
            return "answer_shown"
    market = _market_of(exercise, state)
    if market is not None and state.status[market] != OPEN:
        return "market_closed"
    if hints and isinstance(exercise, (WillItClose, ClickClosingSquare, ClosingChance)):
        return "closing_hint"
    if isinstance(exercise, FinalScore):
        seat = (
            exercise.seat if isinstance(exercise.seat, int) else state.colours.index(exercise.seat)
        )
        if exercise.right_answer() == state.prestige[seat]:
            return "score_shown"
    return None


# ------------------------------------------------------------------------------------ difficulty
_HARD_STALLS = {R.SUM_11_14_17, R.SUM_17}  # values to add up, not a shape to see
_THEME_WORK = {"settlement": 1.0, "character": 1.0}
MAX_WORK = 2.5  # the most the work adds: a question is never harder than 5


def difficulty(exercise: Exercise, theme: str = "") -> int:
    """1 (easy) to 5, read from the question and its position only, never from the answer (a
    harder "will it close?" must not hint at "yes").

    ``1 + form + work``, rounded half up and kept in 1..5:

    - ``form``, the answer to give: 0 for yes/no; 0.5 for always/sometimes/never or a colour among
      three or more; 1 for a number or a probability (a fraction to write); 0.5-1.5 for closing
      squares (more the fewer of the empty squares are right).
    - ``work``, what must be worked out, at most :data:`MAX_WORK` (2.5):

      - dice: 1 for one die, 2 for two dice (36 outcomes) when a probability is asked, half
        that for always/sometimes/never; 0.5 more with 3 servants or more on Louqsor after the
        placement (more values to combine);
      - several rules chained: 1 for a settlement or a character question (bid order, payment,
        bonuses; a character's count); 0.5 for a decision inside a closing or a character;
        0.5 for a closing with 3 bids or more to settle;
      - a stall to read: 0.5 for a sum rule (Abou Simbel: values to add up, not a shape or
        colours to see), 0.5 with 3 servants or more on it, 0.5 more with 5 or more;
      - gifts to count: a score 0.5 per gift type beyond the first (at most 1.5); a gift's value
        0.5 per other player holding the type (at most 1: the table's row to read further).

    What the levels hold on the default supply (``benchmarks/practice_balance.py`` prints it):
    1-2 "will it close?" on a stall, 2-3 who decides next, a gift's value and Louqsor's
    always/sometimes/never, 2-3 closing squares, 2-4 a score, 3-4 what a settlement costs and a
    character's points, 3-5 Louqsor's chance (5: two dice and three servants or more).
    """
    state = exercise.state()
    kind = exercise.answer_kind
    form = work = 0.0
    market = _market_of(exercise, state)
    dice = 0
    if market == R.LOUQSOR and R.STALLS[market * 2 + state.side[market]].rule in _DICE_RULES:
        dice = R.dice_rolled(market * 2 + state.side[market])
    if kind == "choice":
        values = [v for v, _ in exercise.choices()]
        if set(values) == {"always", "sometimes", "never"}:
            form = 0.5
            work += 0.5 * dice
        elif len(values) > 2:
            form = 0.5
    elif kind in ("integer", "probability"):
        form = 1.0
        if kind == "probability":
            work += dice
    elif kind == "square":
        status = stall_status(state, exercise.market, state.decider)
        empty, right = len(status.empty), len(status.would_close)
        form = min(1.5, 0.5 + (1 - right / max(1, empty)))
    if dice and kind in ("choice", "probability") and state.mask[market].bit_count() + 1 >= 3:
        work += 0.5
    work += _THEME_WORK.get(theme, 0.0)
    if market is not None and theme == "closing_squares":
        stall = R.STALLS[market * 2 + state.side[market]]
        servants = state.mask[market].bit_count()
        work += 0.5 if stall.rule in _HARD_STALLS else 0.0
        work += 0.5 * (servants >= 3) + 0.5 * (servants >= 5)
    if isinstance(exercise, FinalScore):
        seat = state.colours.index(exercise.seat)
        types = sum(1 for t in range(len(R.GIFT_TYPES)) if state.type_count(seat, t))
        work += 0.5 * min(3, max(0, types - 1))
    if isinstance(exercise, GiftValue):
        work += 0.5 * min(2, max(0, state.holders(exercise.gift_type) - 1))
    if getattr(exercise, "option_text", "") and state.phase not in (P_TURN, P_PLACE):
        work += 0.5  # a decision inside a closing or a character: more to keep in mind
        if state.res_market >= 0 and len(state.res_queue) >= 3:
            work += 0.5  # three bids or more to settle in turn
    elif theme == "settlement" and market is not None and state.mask[market].bit_count() >= 2:
        work += 0.5  # the closing placement makes three bids or more to settle
    return max(1, min(5, int(1 + form + min(MAX_WORK, work) + 0.5)))


# ------------------------------------------------------------------------------------ generating
_CLOSING_RULES = {"R3.1", "R3.2", "R3.3", "R3.4", "R3.5", "R3.6", "R3.7", "R3.8"}
_RELEVANT = {
    "deben": {"R5.3", "R6.2", "R6.3", "R6.4", "R10.3"},
    "who": {"R4.1", "R4.2", "R5.4", "R5.5", "R6.2", "R6.3", "R6.4", "R6.6", "R6.7", "R7.1"},
    "points": {"R10.2", "R10.6", "R10.7"},
}


@dataclass
class _Candidate:
    theme: str
    cls: type
    args: tuple
    kw: dict
    subject: str
    rules: tuple[str, ...] = ()  # the kind's own rule IDs
    relevant: str = ""  # which rules of the option's events count too (a key of _RELEVANT)


def _outcome_log(state: GameState, option: int) -> list:
    """The events ``option`` causes up to the next decision (on a copy; a Louqsor roll fixed to
    its first outcome, as the exercises do for a roll that is certain)."""
    copy = state.copy()
    copy.log = []
    copy.apply(option)
    return copy.log


def _place_candidates(state: GameState, rng: random.Random) -> list[_Candidate]:
    out = []
    p = state.decider
    legal = set(state.legal_options())
    for m in state.open_markets():
        status = stall_status(state, m, p)
        stall_id = status.stall_id
        stall = R.STALLS[stall_id]
        name = R.MARKETS[m]
        placeable = [i for i in status.empty if O.place_id(m, state.side[m], i) in legal]
        if not placeable:
            continue
        if stall.rule in _DICE_RULES:
            odds = [i for i in placeable if 0 < status.chance(i) < 1]
            if odds:
                square = rng.choice(odds)
                out.append(
                    _Candidate(
                        "louqsor_odds",
                        ClosingChance,
                        (square,),
                        {},
                        f"{stall.name}#{square}",
                        (stall.rule_id, "R4.3"),
                    )
                )
            # "will it close?" on a square where it always or never does, and on one where the
            # dice decide ("sometimes"): each answer can be the right one
            certain = [i for i in placeable if status.chance(i) in (0, 1)]
            for group in (certain, odds):
                if not group:
                    continue
                square = rng.choice(group)
                option = O.place_id(m, state.side[m], square)
                out.append(
                    _Candidate(
                        "louqsor_odds",
                        WillItClose,
                        (state.option_text(option),),
                        {},
                        f"{stall.name}#{square}",
                        (stall.rule_id, "R4.3"),
                    )
                )
            continue
        closing = [i for i in placeable if i in status.would_close]
        if 2 <= len(status.empty) and closing and len(closing) < len(placeable):
            out.append(
                _Candidate(
                    "closing_squares",
                    ClickClosingSquare,
                    (name,),
                    {},
                    name,
                    (stall.rule_id, "R3.10"),
                )
            )
        if len(placeable) >= 2:
            square = rng.choice(closing if closing and rng.random() < 0.5 else placeable)
            option = O.place_id(m, state.side[m], square)
            text = state.option_text(option)
            out.append(
                _Candidate(
                    "closing_squares",
                    WillItClose,
                    (text,),
                    {},
                    f"{stall.name}#{square}",
                    (stall.rule_id, "R3.10"),
                )
            )
        for square in closing[:1]:  # the closing placement: who settles first, what it costs
            text = state.option_text(O.place_id(m, state.side[m], square))
            out.append(
                _Candidate("settlement", WhoDecidesNext, (text,), {}, text, ("R6.1",), "who")
            )
            out.append(
                _Candidate("settlement", HowMuchDeben, (text,), {}, text, ("R6.1",), "deben")
            )
    return out


def _character_candidates(state: GameState) -> list[tuple[GameState, _Candidate]]:
    """Character exercises on this position, or on a copy where the recruitment was played."""
    out = []
    if state.phase == P_TURN and not state.recruited:
        legal = set(state.legal_options())
        for pile, name in enumerate(R.PILES):
            option = O.RECRUIT_BASE + pile
            if option not in legal or not state.piles[pile]:
                continue
            text = state.option_text(option)
            if pile == R.VIZIER:
                out.append(
                    (state, _Candidate("character", HowManyPoints, (text,), {}, name, ("R10.2",)))
                )
            elif pile == R.HIGH_PRIEST:
                out.append(
                    (
                        state,
                        _Candidate(
                            "character", WhoDecidesNext, (text,), {}, name, ("R10.4", "R5.1")
                        ),
                    )
                )
            elif pile in (R.SCRIBE, R.ROYAL_SERVANT, R.MERCHANT):
                copy = state.copy()
                copy.apply(option)
                out += _character_candidates(copy)
    elif state.phase == P_SCRIBE:
        for option in state.legal_options():
            text = state.option_text(option)
            out.append(
                (state, _Candidate("character", HowManyPoints, (text,), {}, text, ("R10.7",)))
            )
    elif state.phase == P_ROYAL:
        for option in state.legal_options():
            t = option - O.ROYAL_BASE
            others = [q for q in range(state.n) if q != state.decider and state.type_count(q, t)]
            seat = state.colours[others[0]] if others else None
            text = state.option_text(option)
            if seat is None and not state.type_count(state.decider, t):
                continue  # nobody scores: nothing to work out
            out.append(
                (
                    state,
                    _Candidate(
                        "character", HowManyPoints, (text,), {"seat": seat}, text, ("R10.6",)
                    ),
                )
            )
    elif state.phase == P_EXCHANGE_GIVE:
        for option in state.legal_options():
            text = state.option_text(option)
            out.append(
                (state, _Candidate("character", HowMuchDeben, (text,), {}, text, ("R10.3",)))
            )
    else:
        # an exchange to choose first: play each partner's card on a copy, then the payment
        if state.phase == "exchange_take":
            for option in state.legal_options()[:3]:
                if O.OPTION_KIND[option] != O.EXCHANGE_TAKE:
                    continue
                copy = state.copy()
                copy.apply(option)
                if copy.phase == P_EXCHANGE_GIVE:
                    out += _character_candidates(copy)
    return out


def _collection_candidates(state: GameState, rng: random.Random) -> list[_Candidate]:
    out = []
    held = [
        (seat, t)
        for seat in range(state.n)
        for t in range(len(R.GIFT_TYPES))
        if state.type_count(seat, t)
    ]
    if held:
        seat, t = rng.choice(held)
        colour = state.colours[seat]
        out.append(
            _Candidate(
                "collection",
                GiftValue,
                (colour, R.GIFT_TYPES[t]),
                {},
                f"{R.GIFT_TYPES[t]}:{state.holders(t)}",
                ("R8",),
            )
        )
    seat = rng.randrange(state.n)
    if any(state.type_count(seat, t) for t in range(len(R.GIFT_TYPES))):
        out.append(
            _Candidate(
                "collection",
                FinalScore,
                (state.colours[seat],),
                {},
                state.colours[seat],
                ("R9.1", "R8"),
            )
        )
    return out


def _any_answer(group: list[tuple[GameState, _Candidate]], rng: random.Random):
    """One of a character's choices, each right answer as likely as another (the Merchant's
    gifts to give back: most change no Deben; the one that does must come up as often)."""
    by_answer: dict[str, list] = {}
    for position, c in group:
        try:
            ex = staged(c.cls, position, *c.args, id="pick", **c.kw)
            answer = repr(ex.right_answer())
        except (ExerciseError, ValueError):
            answer = ""
        by_answer.setdefault(answer, []).append((position, c))
    choices = by_answer[rng.choice(sorted(by_answer))]
    return choices[rng.randrange(len(choices))]


def _candidates(state: GameState, played: int, rng: random.Random, priest: bool = False):
    """(position, candidate) pairs for the position before ``played`` (the bot's real move);
    ``priest``: the turn's player recruited the High Priest this turn (two placements, R10.4)."""
    out: list[tuple[GameState, _Candidate]] = []
    phase = state.phase
    played_text = state.option_text(played)
    if priest and phase == P_PLACE and O.OPTION_KIND[played] == O.PLACE:
        # the first of the two placements leaves the turn with its player, the second ends it
        # (or a closing hands it to the bidders): a character's "who decides" with either answer
        out.append(
            (
                state,
                _Candidate(
                    "character",
                    WhoDecidesNext,
                    (played_text,),
                    {},
                    played_text,
                    ("R10.4", "R5.5"),
                    "who",
                ),
            )
        )
    if phase in (P_TURN, P_PLACE):
        out += [(state, c) for c in _place_candidates(state, rng)]
        if phase == P_TURN:
            out += [(state, c) for c in _collection_candidates(state, rng)]
    characters = _character_candidates(state)
    if characters:  # one per position: a character first (each as likely), then its choice
        by_rule: dict[str, list] = {}
        for item in characters:
            by_rule.setdefault(item[1].rules[0], []).append(item)
        group = by_rule[rng.choice(sorted(by_rule))]
        out.append(_any_answer(group, rng))
    if phase == P_BID:
        for option in state.legal_options():
            kind = O.OPTION_KIND[option]
            if kind in (O.BUY, O.HALF) and (option == played or rng.random() < 0.5):
                text = state.option_text(option)
                out.append(
                    (
                        state,
                        _Candidate(
                            "settlement", HowMuchDeben, (text,), {}, kind, ("R6.4",), "deben"
                        ),
                    )
                )
                break
    # who decides after the move really played (a placement, a bid, the cards taken, a re-roll)
    if phase in (P_TURN, P_PLACE, P_BID, P_TAKE, P_SHAME, P_REROLL):
        own = {P_BID: ("R6.4",), P_TAKE: ("R6.2",), P_SHAME: ("R6.3",), P_REROLL: ("R4.2",)}
        out.append(
            (
                state,
                _Candidate(
                    "who_decides",
                    WhoDecidesNext,
                    (played_text,),
                    {},
                    played_text,
                    own.get(phase, ("R5.5",)),
                    "who",
                ),
            )
        )
    return out


_KEY_UNSAFE = re.compile(r"[^a-z0-9_\-]")


def _build(position: GameState, c: _Candidate, seed: int, ply: int) -> Generated | None:
    """The exercise of a candidate, with its rule IDs and difficulty; None if it cannot be asked
    (the engine refuses the question: dice that decide, an option not legal, ...)."""
    # a key of letters, digits, '_' and '-' only: a classroom poll names the exercise by it
    ident = f"s{seed}-p{ply}-{c.cls.kind}-{_KEY_UNSAFE.sub('-', c.subject.lower())}"
    try:
        exercise = staged(c.cls, position, *c.args, id=ident, **c.kw)
        exercise.right_answer()
    except (ExerciseError, ValueError):
        return None
    rules = set(c.rules)
    text = getattr(exercise, "option_text", None)
    if text is not None:
        state = exercise.state()
        try:
            log = _outcome_log(state, state.parse(text))
        except Exception:  # noqa: BLE001 - a question the engine cannot play is not asked
            return None
        if c.relevant:
            rules |= rules_in(log) & _RELEVANT[c.relevant]
        if c.cls is WhoDecidesNext and any(name == "market_closes" for name, _ in log):
            rules.add("R6.1")
    rule_ids = tuple(sorted({normalise(r) for r in rules} - {None}, key=rule_key))
    exercise.rule_ids = rule_ids  # what coverage.answer_rules reads
    return Generated(
        exercise,
        c.theme,
        rule_ids,
        difficulty(exercise, c.theme),
        seed,
        ply,
        c.subject,
        ident,
    )


def _signature(g: Generated) -> tuple:
    """The part of the position a generated exercise's answer depends on (two with the same
    signature ask the same thing)."""
    ex = g.exercise
    state = ex.state()
    if isinstance(ex, GiftValue):
        return ("gift", ex.gift_type, state.holders(ex.gift_type), state.values[ex.gift_type])
    if isinstance(ex, FinalScore):
        seat = state.colours.index(ex.seat)
        return ("score", score_breakdown(state, seat))
    if isinstance(ex, (ClickClosingSquare, ClosingChance, WillItClose)):
        m = _market_of(ex, state)
        by_colours = R.CLOSED_BY[m * 2 + state.side[m]] == R.BY_COLOURS  # R3.2
        colours = tuple(state.owners[m]) if by_colours else ()
        return (ex.kind, g.subject, state.side[m], state.mask[m], colours, state.decider)
    return (g.seed, g.ply, ex.kind, g.subject)


def _bots(seed: int, players: int):
    """The seats' bots for a seed: greedy (one step of look-ahead: twice as fast as the default
    two, and its games are as real) and random alternating, the first greedy seat by seed."""
    first = seed % 2
    return [
        make_bot("greedy", seed=seed * 10 + seat, depth=1)
        if (seat + first) % 2 == 0
        else make_bot("random", seed=seed * 10 + seat)
        for seat in range(players)
    ]


def generate(seed: int, players: int | None = None, per_kind: int = PER_KIND) -> list[Generated]:
    """The exercises generated from one self-play game (the game and the picks by ``seed``)."""
    players = players or (3 if seed % 3 == 2 else 4)
    rng = random.Random(f"practice:{seed}")
    game = new_game(players, seed=seed, layout="random" if seed % 2 else "first")
    bots = _bots(seed, players)
    found: dict[tuple[str, str], list[Generated]] = {}
    seen: set = set()
    ply = 0
    priest_turn = -1  # the turn in which the High Priest was recruited
    while not game.is_over and ply < MAX_PLIES:
        played = bots[game.decider].choose(game)
        if played == O.RECRUIT_BASE + R.HIGH_PRIEST:
            priest_turn = game.turn_no
        priest = priest_turn == game.turn_no
        for position, candidate in _candidates(game, played, rng, priest):
            g = _build(position, candidate, seed, ply)
            if g is None:
                continue
            signature = _signature(g)
            if signature in seen:
                continue  # the same question on the same facts as before
            seen.add(signature)
            if on_screen(g.exercise) is not None:
                continue
            found.setdefault((g.theme, g.kind), []).append(g)
        game.apply(played)
        ply += 1

    def order(g: Generated) -> tuple:
        return (g.ply, THEMES.index(g.theme), g.key)

    for key in found:
        found[key] = _no_repeats(found[key])
    picked: list[Generated] = []
    for key in sorted(found, key=lambda k: (THEMES.index(k[0]), k[1])):
        picked += _balanced(found[key], per_kind, rng)
    picked.sort(key=order)
    for _ in range(8):  # dropping a repeat can unbalance, trimming can make a repeat: settle
        out = _no_repeats(picked)
        by_kind: dict[tuple[str, str], list[Generated]] = {}
        for g in out:
            by_kind.setdefault((g.theme, g.kind), []).append(g)
        out = [g for items in by_kind.values() for g in _balanced(items, len(items), rng)]
        out.sort(key=order)
        if out == picked:
            break
        picked = out
    return _no_repeats(picked)


def _no_repeats(items: list[Generated]) -> list[Generated]:
    """``items`` (in game order) without an exercise whose kind, subject and answer are those of
    the one before it about the same subject."""
    out: list[Generated] = []
    last: dict[tuple[str, str], str] = {}
    for g in items:
        about = (g.kind, g.subject.split(" ")[0])
        answer = repr(g.exercise.right_answer())
        if last.get(about) == answer:
            continue
        last[about] = answer
        out.append(g)
    return out


def _balanced(items: list[Generated], count: int, rng: random.Random) -> list[Generated]:
    """Up to ``count`` of one kind's exercises (in their order in the game), chosen so that no
    answer is right much more often than the others: the answers (:func:`.practice_balance.
    answer_class`) take turns in an order the seed shuffles, one exercise each, and an answer
    may be right at most as often as all the others together (a game that offers only "no"
    gives one "no"). Without this, always answering "no" to "will it close?" or "never" to
    Louqsor's dice would score like knowing the rules."""
    from .practice_balance import answer_class

    by_answer: dict[str, list[Generated]] = {}
    for g in items:
        by_answer.setdefault(answer_class(g.exercise), []).append(g)
    queues = []
    for answer in sorted(by_answer):
        group = by_answer[answer]
        queues.append(rng.sample(group, len(group)))
    queues = rng.sample(queues, len(queues))  # the answers' turn order, by the seed
    taken: list[list[Generated]] = [[] for _ in queues]
    total = 0
    while total < count and any(queues):
        progressed = False
        for i, queue in enumerate(queues):
            if not queue or total >= count:
                continue
            others = total - len(taken[i])
            if len(taken[i]) > others:
                continue  # one more of this answer would outweigh all the others
            taken[i].append(queue.pop())
            total += 1
            progressed = True
        if not progressed:
            break
    total = sum(len(group) for group in taken)
    for group in taken:  # and with another answer on offer, never more than half
        others = total - len(group)
        while others and len(group) > others:
            group.pop()
            total -= 1
    chosen = {id(g) for group in taken for g in group}
    return [g for g in items if id(g) in chosen]


def supply(seeds: Iterable[int] = range(10), per_kind: int = PER_KIND) -> list[Generated]:
    """The exercises of several games, seed by seed (generated anew: see :func:`shared`)."""
    out: list[Generated] = []
    for seed in seeds:
        out += generate(seed, per_kind=per_kind)
    return out


_SHARED: dict[int, tuple[Generated, ...]] = {}
_SHARED_LOCK = threading.Lock()


def shared(seeds: Iterable[int]) -> list[Generated]:
    """:func:`supply` of the default size, each seed's game played once per process and kept:
    every Practice view and classroom poll of a server asks here, and none plays a game that
    another already played. The exercises are shared: never change one."""
    out: list[Generated] = []
    for seed in seeds:
        with _SHARED_LOCK:
            if seed not in _SHARED:
                _SHARED[seed] = tuple(generate(seed))
            out += _SHARED[seed]
    return out


#: The highest seed a key may name: each new seed plays a whole game (about half a second) and
#: its exercises stay in :func:`shared`'s cache, so a key from a page or a file is held to it.
MAX_SEED = 10**6
_KEY = re.compile(r"s(\d{1,7})-p\d{1,4}-[a-z0-9_\-]{1,80}")


def is_generated_key(key) -> bool:
    """Whether ``key`` is shaped like a generated exercise's key, of a seed up to
    :data:`MAX_SEED` (no game is played to say so)."""
    match = _KEY.fullmatch(key) if isinstance(key, str) else None
    return match is not None and int(match.group(1)) <= MAX_SEED


def generated_by_key(key) -> Generated | None:
    """The generated exercise (of :func:`shared`) whose key is ``key``; None for a key of no
    exercise, or of a seed over :data:`MAX_SEED` (then no game is played)."""
    if not is_generated_key(key):
        return None
    seed = int(_KEY.fullmatch(key).group(1))
    return next((g for g in shared([seed]) if g.key == key), None)


def generated_of(exercise: Exercise) -> Generated | None:
    """The generated exercise (of :func:`shared`) that ``exercise`` is, by its key; None for
    any other (a lesson's exercise, a key of no game)."""
    return generated_by_key(exercise.id) if exercise.topic == "practice" else None


# ------------------------------------------------------------------------------------ scheduling
STATE_FILE = "practice.json"
STATE_VERSION = 1
MAX_STATE_BYTES = 256 * 1024
#: The most first answers one scheduler (one served page, one notebook session) records into the
#: shared difficulty calibration: a page that answers on and on (a flood, or wrong on purpose)
#: moves every learner's levels by this many answers at most; its learner's own rating goes on.
MAX_CALIBRATING_ANSWERS = 60
#: Leitner boxes 1..5: a rule in box b is due again after INTERVALS[b] more answers.
INTERVALS = {1: 1, 2: 3, 3: 7, 4: 15, 5: 31}
TOP_BOX = max(INTERVALS)


def practice_path() -> Path:
    """``practice.json`` in the learner record's folder (``$NEFERTITI_HOME``)."""
    return default_path().with_name(STATE_FILE)


@dataclass
class PracticeState:
    """The spaced-repetition state: per rule ID its box, the answer count when it is due again
    and when it was last answered wrong; ``step``: answers given in practice so far."""

    boxes: dict[str, int] = field(default_factory=dict)
    due: dict[str, int] = field(default_factory=dict)
    wrong_at: dict[str, int] = field(default_factory=dict)
    step: int = 0
    #: The learner's rating for the difficulty calibration (:mod:`.calibration`).
    learner: LearnerRating = field(default_factory=LearnerRating)

    def answered(self, rule_ids: Iterable[str], correct: bool) -> None:
        """A rule answered right moves up a box (a longer interval), wrong goes back to box 1."""
        self.step += 1
        for rule in {normalise(r) for r in rule_ids} - {None}:
            box = min(TOP_BOX, self.boxes.get(rule, 1) + 1) if correct else 1  # new: box 1
            self.boxes[rule] = box
            self.due[rule] = self.step + INTERVALS[box]
            if not correct:
                self.wrong_at[rule] = self.step

    def as_dict(self) -> dict:
        return {
            "version": STATE_VERSION,
            "step": self.step,
            "rules": {
                r: {
                    "box": self.boxes[r],
                    "due": self.due.get(r, 0),
                    "wrong_at": self.wrong_at.get(r),
                }
                for r in sorted(self.boxes, key=rule_key)
            },
            "learner": self.learner.as_dict(),
        }

    @classmethod
    def from_dict(cls, data) -> PracticeState:
        """Read a saved state; raises ValueError for anything that is not one, and
        :class:`.json_file.Damaged` with the rest as ``salvage`` when only some fields are bad (a
        learner's rating out of bounds keeps the default rating and every box; a bad rule entry
        costs that entry)."""
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise ValueError("not a practice state of version 1")
        step = data.get("step")
        rules = data.get("rules")
        if not isinstance(step, int) or isinstance(step, bool) or step < 0:
            raise ValueError("'step' is not a count")
        if not isinstance(rules, dict):
            raise ValueError("'rules' is not a table")
        state = cls(step=step)
        bad: list[str] = []
        if "learner" in data:  # absent in a file saved before the calibration
            try:
                state.learner = LearnerRating.from_dict(data["learner"])
            except ValueError as error:
                bad.append(str(error))
        for rule, entry in rules.items():
            rid = normalise(rule)
            if rid is None or not isinstance(entry, dict):
                bad.append(f"rules.{str(rule)[:40]}: not a rule ID with its box")
                continue
            box, due, wrong = entry.get("box"), entry.get("due"), entry.get("wrong_at")
            if box not in INTERVALS or not isinstance(due, int) or isinstance(due, bool):
                bad.append(f"rules.{rule}: box 1-{TOP_BOX} and a due count expected")
                continue
            state.boxes[rid], state.due[rid] = box, due
            if isinstance(wrong, int) and not isinstance(wrong, bool):
                state.wrong_at[rid] = wrong
        if bad:
            more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
            raise json_file.Damaged(bad[0] + more, state)
        return state


def load_state(path: str | Path | None = None) -> tuple[PracticeState, str | None]:
    """The saved practice state (a new one if there is none) and a warning if the file could not
    be used, never raised: a file that was read and is damaged is moved aside as
    ``practice.json.broken-<time>``, keeping what could be read of it (the boxes when only the
    learner's rating is bad); one that cannot be read is left alone."""
    state, warning, _writable = _load_state(path)
    return state, warning


def _load_state(path: str | Path | None) -> tuple[PracticeState, str | None, bool]:
    """:func:`load_state`, and whether the file may be written (False: it is there but could
    not be read, and is never overwritten)."""
    target = Path(path) if path is not None else practice_path()
    try:
        raw = json_file.read_bytes(target, MAX_STATE_BYTES)
        if raw is None:
            return PracticeState(), None, True
        try:
            return PracticeState.from_dict(json.loads(raw.decode("utf-8"))), None, True
        except (ValueError, RecursionError) as error:
            raise json_file.Damaged(error) from None
    except json_file.Unreadable as problem:
        reason = problem.reason
        if isinstance(reason, OSError):
            reason = reason.strerror or reason
        return PracticeState(), f"{target}: {reason}; left as it is, practice kept in memory", False
    except json_file.Damaged as damaged:
        salvage = damaged.salvage if isinstance(damaged.salvage, PracticeState) else None
        try:
            aside = json_file.move_aside(target).name
        except OSError as error:
            why = error.strerror or error
            return salvage or PracticeState(), f"{target}: {damaged.reason}; {why}", False
        then = "the rest is kept" if salvage is not None else "started afresh"
        return salvage or PracticeState(), f"{target}: {damaged.reason}; {then} ({aside})", True


def save_state(state: PracticeState, path: str | Path | None = None) -> str | None:
    """Write the state atomically (a temporary file in the same folder, fsynced, then renamed);
    returns a warning instead of raising when the disk refuses."""
    target = Path(path) if path is not None else practice_path()
    try:
        target = Path(os.path.realpath(target))
        text = json.dumps(state.as_dict(), indent=1) + "\n"
        json_file.write_atomic(target, text, ".practice-")
    except OSError as error:
        return f"{target}: {error.strerror or error}"
    return None


class Scheduler:
    """Chooses the next practice exercise from a supply, favouring the rules the learner got
    wrong or has not seen (a Leitner box per rule ID).

    Order of preference for an exercise, by the best of its rule IDs:

    0. a rule in box 1 after a wrong answer, the most recent wrong first (also a rule the
       learner record counts more wrong than right answers for, before it is practised here);
    1. a rule the learner has never met: not in the record (seen, practised or answered) and
       not practised here;
    2. a rule whose interval is over (due), the longest overdue first;
    3. the rest, the soonest due first.

    By the difficulty calibration (:mod:`.calibration`), within orders 1 to 3 an exercise the
    learner should get right with a chance in :data:`.calibration.TARGET` (70-85 %, by their
    rating and the kind's: calibrated, or its formula's level until then) comes before the
    others, the nearer to that band the sooner (in steps of 5 points); a rule answered wrong
    (order 0) comes back whatever its difficulty.
    The learner's first answer to each exercise served moves both ratings (:meth:`answered`).

    Practice goes **across rules**: while the supply offers one, the next exercise shares
    neither its theme nor any rule ID with the one just served (:meth:`repeats`); so a rule
    answered wrong comes back every other exercise, not every one, and a tag that many
    exercises carry (R3.10 on every closing square) cannot hold the learner on one kind.
    Among equals: the exercise served fewest times, then one of another theme than the last,
    then the supply's order. The exercise just
    served is never served again at once. ``coverage``: the learner record (read only; the
    exercise card records the answers in it); ``path``: where the state is kept (default
    :func:`practice_path`; None with ``persist=False``: memory only). When fewer than
    ``refill_below`` exercises remain unserved, the supply grows by the next seed's game, so it
    never runs out.
    """

    def __init__(
        self,
        exercises: Sequence[Generated] | None = None,
        coverage: Coverage | None = None,
        *,
        path: str | Path | None = None,
        persist: bool = True,
        seeds: Iterable[int] = (0, 1),
        refill_below: int = 5,
        background: bool = False,
        calibration: Calibration | None = None,
    ):
        seeds = list(seeds)
        #: The kinds' ratings (default: a fresh one in memory, where every kind is at its
        #: formula's level and only this learner's rating moves).
        self.calibration = calibration if calibration is not None else Calibration()
        self._first_answered: set[str] = set()  # exercises served whose first answer is in
        self.exercises = list(exercises) if exercises is not None else supply(seeds)
        self._next_seed = (max(seeds) + 1) if seeds else 0
        self.coverage = coverage
        self.path = Path(path) if path is not None else (practice_path() if persist else None)
        self.state, self.warning, writable = (
            _load_state(self.path) if persist else (PracticeState(), None, True)
        )
        self.persist = persist and writable  # a file that could not be read is never overwritten
        #: First answers this scheduler has recorded into the shared calibration (at most
        #: :data:`MAX_CALIBRATING_ANSWERS`).
        self.calibrating_answers = 0
        self.served: dict[str, int] = {}
        self.current: Generated | None = None
        self.refill_below = refill_below
        # A served page must not wait for a game to be played (seconds on a busy server, with
        # every other page waiting too): the next game's exercises are made in a thread and
        # join the pool when ready; meanwhile exercises already served can be served again.
        self.background = background
        self._refilling = False
        self._lock = threading.Lock()

    def _rule_rank(self, rule: str, record: dict) -> tuple:
        st = self.state
        box = st.boxes.get(rule)
        if box == 1 and rule in st.wrong_at:
            return (0, -st.wrong_at[rule])
        marks = record.get(rule)
        if box is None:
            if marks is not None and marks.wrong > marks.right:
                return (0, 1)  # wrong in the record, not practised here yet
            if marks is None or not marks:
                return (1, 0)
        due = st.due.get(rule, 0)
        if due <= st.step:
            return (2, due - st.step)
        return (3, due - st.step)

    def rank(self, g: Generated, record: dict | None = None) -> tuple:
        """The sort key of ``g`` (smaller: served sooner)."""
        if record is None:
            record = self.coverage.marks() if self.coverage is not None else {}
        best = min((self._rule_rank(r, record) for r in g.rule_ids), default=(4, 0))
        same_theme = self.current is not None and g.theme == self.current.theme
        fit = self.fit(g) if best[0] else 0
        return (best[0], fit, best[1], self.served.get(g.key, 0), same_theme)

    def fit(self, g: Generated) -> int:
        """How far the learner's chance on ``g`` lies from :data:`.calibration.TARGET`, in
        steps of 5 points (0: inside the band)."""
        p = self.calibration.chance(g, self.state.learner)
        low, high = TARGET
        gap = low - p if p < low else p - high if p > high else 0.0
        return int(gap / 0.05 + 0.999)

    def repeats(self, g: Generated) -> bool:
        """Whether ``g`` would practise what the exercise just served did: the same theme, or
        a rule ID in common (every closing-square question also tests R3.10, every settlement
        R6.1: ranked by rule alone, one wrong answer kept the learner on that tag)."""
        last = self.current
        if last is None:
            return False
        return g.theme == last.theme or not set(g.rule_ids).isdisjoint(last.rule_ids)

    def next(self) -> Generated:
        """The exercise to practise now (and marks it served)."""
        self.calibration.refresh()  # another page or process may have moved the kinds
        with self._lock:
            unserved = sum(1 for g in self.exercises if g.key not in self.served)
            if unserved < self.refill_below:
                self._refill()
            record = self.coverage.marks() if self.coverage is not None else {}
            pool = [g for g in self.exercises if self.current is None or g.key != self.current.key]
            other = [g for g in pool if not self.repeats(g)]
            if other:  # across rules: not the same tag twice running while another is on offer
                pool = other
            choice = min(enumerate(pool), key=lambda item: (self.rank(item[1], record), item[0]))[1]
            self.served[choice.key] = self.served.get(choice.key, 0) + 1
            self._first_answered.discard(choice.key)
            self.current = choice
            return choice

    def _refill(self) -> None:
        """Grow the pool by the next seed's game (called under the lock)."""
        seed = self._next_seed
        self._next_seed += 1
        if not self.background:
            self.exercises += generate(seed)
            return
        if self._refilling:
            self._next_seed -= 1
            return
        self._refilling = True

        def work() -> None:
            more: list[Generated] = []
            try:
                more = generate(seed)
            finally:
                with self._lock:
                    self.exercises += more
                    self._refilling = False

        threading.Thread(target=work, name=f"practice-seed-{seed}", daemon=True).start()

    def answered(self, g: Generated, correct: bool) -> str | None:
        """Move ``g``'s rules between the boxes and save; returns a warning if the save failed.
        The first answer since ``g`` was served also moves the difficulty calibration."""
        with self._lock:
            self.state.answered(g.rule_ids, correct)
            if g.key not in self._first_answered:
                self._first_answered.add(g.key)
                if self.calibrating_answers < MAX_CALIBRATING_ANSWERS:
                    self.calibrating_answers += 1
                    self.calibration.record(g, correct, self.state.learner)
                else:  # the page's share is spent: only the learner's own rating follows
                    self.state.learner.answered(self.calibration.shown_rating(g), correct)
            if self.persist and self.path is not None:
                self.warning = save_state(self.state, self.path) or None
            return self.warning

    def box(self, rule_id: str) -> int | None:
        return self.state.boxes.get(normalise(rule_id) or "")
