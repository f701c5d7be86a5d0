"""What every kind of exercise shares: :class:`Exercise` (staging the position, asking, judging
an answer), the partial kinds answered by a choice, a number or about one option, the exercise
wording (:class:`ExerciseWords`) and playing an option on a copy (:func:`play_on_copy`).

The kinds themselves are in :mod:`.kinds`. Standard library only.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from contextvars import ContextVar
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from ...engine import options as O
from ...engine import rules as R
from ...engine.chance import roll_at
from ...engine.deck import BOTTOM, reshuffled
from ...engine.deck import unseen as unseen_deck  # the deck as the players know it (R12)
from ...engine.errors import NefertitiError
from ...engine.i18n import DEFAULT_LANGUAGE, LANGUAGES
from ...engine.variants import describe_variant, with_rules
from ...teaching.explain import narrate
from ...teaching.status import louqsor_outcomes
from ...teaching.words import Words
from ..scenario import load
from .answers import (
    NO_WORDS,
    YES_WORDS,
    Feedback,
    InvalidAnswer,
    in_range,
    read_integer,
    shown_answer,
)
from .reasons import cite

if TYPE_CHECKING:
    from ...engine.state import GameState


SCENARIOS = "scenarios"


class ExerciseError(NefertitiError):
    """An exercise that cannot be staged or asked (a wrong scenario name, an option that is not
    legal in its position, a question the dice would decide). A wrong *answer* never raises."""


# ------------------------------------------------------------------------------------ positions
def scenarios_folder() -> Path:
    """The folder of the shipped position files."""
    return Path(str(resources.files("nefertiti_core").joinpath(SCENARIOS)))


def scenario_path(name: str | Path) -> Path:
    """The file of a shipped scenario (``"abou-simbel-left-sums"``), or ``name`` if it is a path."""
    path = Path(name)
    if path.suffix == ".yaml" or len(path.parts) > 1:
        return path
    return scenarios_folder() / f"{name}.yaml"


_ORDER: ContextVar[object] = ContextVar("imagined_deck_order", default=None)


@contextmanager
def imagined_deck_order(salt):
    """Within the block, exercises imagine the hidden deck in another order (``salt`` picks it).

    Nothing a learner reads may depend on that order (R12): the fairness checks
    (:mod:`..practice_balance`) ask an exercise again inside this block and compare the texts.
    """
    token = _ORDER.set(salt)
    try:
        yield
    finally:
        _ORDER.reset(token)


def _imagined(deck) -> list[int]:
    salt = _ORDER.get()
    if salt is None:
        return unseen_deck(deck)
    return reshuffled(deck, random.Random(f"{len(deck)}:{salt}"))


def akhenaton_reachable(state: GameState, drawn: int) -> bool:
    """Whether ``drawn`` cards taken from the top of ``state``'s deck may include the Akhenaton
    card, as far as the players know (it lies among the bottom five, R2.2; a scenario that
    placed it higher keeps it there)."""
    deck = list(state.deck)
    if R.AKHENATON not in deck or drawn <= 0:
        return False
    at = deck.index(R.AKHENATON)  # the top of the deck is the list's end
    highest = min(BOTTOM, len(deck)) - 1 if at < BOTTOM else at
    return highest >= len(deck) - drawn


def play_on_copy(state: GameState, option: int) -> GameState:
    """``option`` applied to a copy of ``state`` that records its own events.

    The copy sees the deck as the players do (R12): in an order they imagine, never the real
    one. A card a refill draws is therefore not named (the event is marked ``hidden``: the
    narration says "a card from the deck"), unless the position fixed it (R4.4, the question
    says which). If the refill may reach the Akhenaton card, the deck decides what happens and
    the question has no single answer. A Louqsor roll must be decided: fixed in the position
    (R4.4), or certain either way (then a roll with that outcome is fixed on the copy, so the
    game's own dice are never revealed); otherwise the question has no single answer.
    """
    copy = state.copy()
    copy.log = []
    copy.deck = _imagined(state.deck)
    rolling = roll_at(state, option)
    if rolling is not None:
        stall_id, mask = rolling
        outcomes = louqsor_outcomes(stall_id, mask, tuple(state.forced_rolls))
        results = {closes for _, closes in outcomes}
        if len(results) > 1:
            raise ExerciseError(
                f"{state.option_text(option)!r}: the dice decide what happens; fix the roll in the "
                "scenario (forced: rolls) or ask for the chance instead (R4.4)"
            )
        free, _ = outcomes[0]
        if free:
            copy.force_roll(*free)
    copy.apply(option)
    known = len(state.forced_draws)  # the cards the position fixed, drawn first
    drawn = 0
    for index, (name, data) in enumerate(copy.log):
        if name not in ("reopen", "akhenaton"):
            continue
        count = len(data["drawn"]) + (name == "akhenaton")
        hidden = max(0, drawn + count - known)
        drawn += count
        if hidden:
            copy.log[index] = (name, {**data, "hidden": True})
    if drawn > known and akhenaton_reachable(state, drawn):
        raise ExerciseError(
            f"{state.option_text(option)!r}: the refill may draw the Akhenaton card, so the hidden "
            "deck decides what happens; fix the draw in the scenario (forced: draws, R4.4)"
        )
    return copy


# ------------------------------------------------------------------------------------ wording
class ExerciseWords(Words):
    """The wording layer (:class:`.words.Words`) for one exercise's position, with the phrases
    only exercises use: an option that gives nothing away, what the decider must do now."""

    def __init__(self, lang: str, state: GameState):
        super().__init__(lang, state.colours, say_nothing=True)

    def option(self, state: GameState, option: int) -> str:
        """An option in words that give nothing away (no bonus, no points, no "closes")."""
        kind, arg = O.OPTION_KIND[option], O.OPTION_ARG[option]
        if kind == O.PLACE:
            stall_id, index = O.SQUARE_STALL[option], O.SQUARE_INDEX[option]
            return self(
                "exercise.opt.place",
                stall=self.stall(stall_id),
                square=self.square(stall_id, index),
            )
        if kind == O.CLOSE:
            return self("exercise.opt.close", market=self.market(arg))
        if kind == O.RECRUIT:
            card = state.piles[arg][0] if state.piles[arg] else None
            name = R.CHARACTER_CARDS[card] if card is not None else R.PILES[arg]
            key = f"character.{name}" if card is not None else f"pile.{name}"
            return self("exercise.opt.recruit", character=self(key))
        if kind == O.TAKE:
            return self(
                "exercise.opt.take", cards=self.join(self.slot(s) for s in O.take_slots(option))
            )
        if kind == O.DISCARD:
            return self("exercise.opt.discard", card=self.card(arg))
        if kind == O.BUY:
            return self("exercise.opt.buy", slot=self.slot(arg))
        if kind == O.EXCHANGE_TAKE:
            seat, card = arg
            return self("exercise.opt.exchange", partner=self.player(seat), card=self.card(card))
        if kind == O.EXCHANGE_GIVE:
            return self("exercise.opt.give", card=self.card(arg))
        if kind == O.CHIEF_TAKE:
            return self("exercise.opt.chief", slot=self.slot(arg))
        if kind in (O.ROYAL, O.SCRIBE):
            return self(f"exercise.opt.{kind}", gift=self.gift(arg))
        if kind == O.TREASURER_MARKET:
            return self("exercise.opt.treasurer_market", market=self.market(arg))
        if kind == O.TREASURER_AMOUNT:
            return self("exercise.opt.treasurer_amount", amount=arg)
        return self(f"exercise.opt.{kind.replace(' ', '_')}")  # half, pass, exchange done, ...

    def phase(self, state: GameState) -> str:
        """What the deciding player must do now and the rule that says so, by ID and title (or
        that the game is over)."""
        if state.is_over:
            return self.s("exercise.phase.over", cite=cite(self, "R7.1"))
        rules = PHASE_RULES.get(state.phase, ())
        settling = state.resolution() if state.phase in ("take", "shame", "bid") else None
        bid = ""
        if settling is not None and settling.squares:  # the bid being settled (R6.1)
            bid = state.visible_stall(settling.market).squares[settling.squares[0]].value
        return self.s(
            f"exercise.phase.{state.phase}",
            player=self.player(state.decider),
            market=self.market(settling.market) if settling is not None else "",
            bid=bid,
            cite=cite(self, *rules),
        )


#: The rule that says what the decider does in each phase (cited by :meth:`ExerciseWords.phase`).
PHASE_RULES = {
    "turn": ("R5.5",),
    "place": ("R5.2",),
    "take": ("R6.2",),
    "shame": ("R6.3",),
    "bid": ("R6.4",),
    "exchange_take": ("R10.3",),
    "exchange_give": ("R10.3",),
    "chief": ("R10.5",),
    "royal": ("R10.6",),
    "scribe": ("R10.7",),
    "treasurer_market": ("R10.8",),
    "treasurer_amount": ("R10.8",),
    "reroll": ("R4.2",),
}


# ------------------------------------------------------------------------------------ exercises
class Exercise:
    """One question on one staged position (see :mod:`nefertiti_core.files.exercises`).

    ``scenario``: a shipped scenario's name or a path; ``before``: moves played from it first (the
    position the question is asked in); ``variants``: rule variants to play it under (what-if,
    R13); ``note``: a remark added to every feedback (the message ``exercise.note.<note>``);
    ``id`` and ``topic``: set by the registry.
    """

    kind: ClassVar[str] = ""
    #: The kind of answer the notebook collects: "choice", "square", "integer" or "probability".
    answer_kind: ClassVar[str] = "choice"
    #: Whether the question plays the option (then fixed rolls and draws are part of the prompt).
    plays_option: ClassVar[bool] = True

    def __init__(
        self,
        scenario: str,
        *,
        before=(),
        variants=None,
        note: str | None = None,
        id: str = "",
        topic: str = "",
        question=None,
        explanation=None,
        rules=(),
    ):
        self.scenario = scenario
        self.before = tuple(before)
        self.variants = tuple(variants) if variants is not None else None
        self.note = note  # a closing remark: the message "exercise.note.<note>"
        self.id = id or f"{self.kind}:{scenario}"
        self.topic = topic
        #: A teacher's own question and note, by language (a file's ``question:`` and
        #: ``explanation:``); a language left out shows the English.
        self.questions = _by_language(question)
        self.explanations = _by_language(explanation)
        #: The rule IDs the exercise tests, when its file says (``rules:``; coverage reads them).
        self.rules = tuple(rules)
        self._start: GameState | None = None  # a position given in place of a file's
        self._staged: GameState | None = None

    @classmethod
    def on_position(cls, state: GameState, *args, scenario: str = "", **kw) -> Exercise:
        """An exercise asked on ``state`` instead of a scenario file's position (a copy is kept).

        ``scenario`` is only a label then; ``before`` and ``variants`` apply to the copy as they
        would to a file's position, and :meth:`state` and every check read it in the same way.
        """
        exercise = cls(scenario or "<position>", *args, **kw)
        start = state.copy()
        start.log = []
        exercise._start = start
        return exercise

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"

    # --- the position
    def _base(self) -> GameState:
        if self._staged is None:
            if self._start is not None:
                state = self._start.copy() if self.before else self._start
            else:
                try:
                    state = load(scenario_path(self.scenario)).state
                except NefertitiError as error:
                    raise ExerciseError(f"exercise {self.id}: {error}") from None
            if self.variants is not None:
                state = with_rules(state, variants=self.variants)
            state.log = []
            for move in self.before:
                try:
                    state.apply(move)
                except NefertitiError as error:
                    raise ExerciseError(f"exercise {self.id}: move {move!r}: {error}") from None
            state.log = []  # the board records from here: the learner's own steps
            self._staged = state
        return self._staged

    def state(self) -> GameState:
        """A fresh copy of the staged position, for the live board (play on it freely)."""
        return self._base().copy()

    def _option(self, text: str) -> int:
        state = self._base()
        try:
            option = state.parse(text)
        except NefertitiError as error:
            raise ExerciseError(f"exercise {self.id}: {error}") from None
        if not state.is_legal(option):
            raise ExerciseError(
                f"exercise {self.id}: {text!r} is not legal in the staged position; the options "
                f"are {', '.join(state.option_text(o) for o in state.legal_options())}"
            )
        return option

    def asked_option(self) -> str | None:
        """The move the question is about, as written, if it can be played in the position (a
        card's board plays it once the question is answered: answer first, then see it); None
        for a question about no move (a gift's value, the closing squares) or a move that is
        not legal there (an "is it allowed?" answered no)."""
        text = getattr(self, "option_text", None)
        if not text:
            return None
        state = self._base()
        try:
            option = state.parse(text)
        except NefertitiError:
            return None
        return state.option_text(option) if state.is_legal(option) else None

    # --- the question
    def prompt(self, lang: str = DEFAULT_LANGUAGE) -> str:
        lang = known_language(lang)
        state = self._base()
        w = ExerciseWords(lang, state)
        own = self.questions.get(lang) or self.questions.get(DEFAULT_LANGUAGE)
        parts = [own.strip() if own else self._question(w, state)]
        if self.plays_option and state.forced_rolls:
            parts.append(w("exercise.prompt.fixed_roll", dice=w.join(state.forced_rolls)))
        if self.plays_option and state.forced_draws:
            cards = w.join(w.card(k) for k in state.forced_draws)
            parts.append(w("exercise.prompt.fixed_draw", cards=cards))
        if self.variants:
            notes = " ".join(describe_variant(v, lang) for v in self.variants)
            parts.insert(0, w("exercise.prompt.variant", variant=notes))
        return w.sentences(parts)

    def choices(self, lang: str = DEFAULT_LANGUAGE) -> list[tuple[str, str]]:
        """The answers to pick from, as (value, label); empty for a free answer."""
        return []

    def right_answer(self):
        """The engine's answer now (a choice value, a square list, an int or a Fraction)."""
        return self._truth(self._base())

    def check(self, answer, lang: str = DEFAULT_LANGUAGE) -> Feedback:
        """Judge ``answer``; never raises for a wrong or malformed answer."""
        lang = known_language(lang)
        state = self._base()
        w = ExerciseWords(lang, state)
        try:
            if answer is None or (isinstance(answer, str) and not answer.strip()):
                raise InvalidAnswer("exercise.invalid.nothing")
            parsed = self._parse(answer, state, w)
        except InvalidAnswer as bad:
            params = {"answer": shown_answer(answer), **bad.params}
            text = w(bad.key, **params)
            return Feedback(False, shown_answer(answer), "", text, valid=False, headline=text)
        truth = self._truth(state)
        correct = self._matches(parsed, truth)
        shown, right = self._show(parsed, state, w), self._show_truth(truth, state, w)
        # the reason first (a sentence or two: the rule by ID and title, the deciding fact), and
        # for a wrong answer the right one only after it, so that the reasoning is read first
        parts = self._explain(parsed, truth, state, w)
        if correct:
            verdict = w.s("exercise.verdict.right", right=shown)
        else:
            verdict = w.s("exercise.verdict.wrong", answer=shown)
            parts.append(w.s("exercise.verdict.answer", right=right))
        if self.note:
            parts.append(w.s(f"exercise.note.{self.note}"))
        own = self.explanations.get(lang) or self.explanations.get(DEFAULT_LANGUAGE)
        if own:
            parts.append(own.strip())  # the teacher's note, after the engine's reason
        reason = w.sentences(parts)
        details = w.sentences(self._details(parsed, truth, state, w))
        return Feedback(
            correct,
            shown,
            right,
            w.sentences([verdict, reason]),
            headline=verdict,
            reason=reason,
            details=details,
            details_label=w("exercise.details") if details else "",
        )

    # --- to be filled in by each kind
    def _question(self, w: ExerciseWords, state: GameState) -> str:
        raise NotImplementedError

    def _truth(self, state: GameState):
        raise NotImplementedError

    def _parse(self, answer, state: GameState, w: ExerciseWords):
        raise NotImplementedError

    def _matches(self, parsed, truth) -> bool:
        return parsed == truth

    def _show(self, value, state: GameState, w: ExerciseWords) -> str:
        return str(value)

    def _show_truth(self, truth, state: GameState, w: ExerciseWords) -> str:
        return self._show(truth, state, w)

    def _explain(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        """The reason (:mod:`.reasons`): one or two sentences naming the rule and the fact."""
        raise NotImplementedError

    def _details(self, parsed, truth, state: GameState, w: ExerciseWords) -> list[str]:
        """How the position plays out, for the folded details; none by default."""
        return []


def known_language(lang) -> str:
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


def _by_language(text) -> dict[str, str]:
    """A text for every language (``{"en": ..., "de": ...}``), or one text taken as English."""
    if not text:
        return {}
    if isinstance(text, str):
        return {DEFAULT_LANGUAGE: text}
    return {lang: value for lang, value in dict(text).items() if lang in LANGUAGES and value}


# ------------------------------------------------------------------------------------ partial kinds
class ChoiceExercise(Exercise):
    """An exercise answered by picking one of a few values (labels in any language accepted)."""

    answer_kind = "choice"

    def _values(self, state: GameState) -> tuple[str, ...]:
        return ("yes", "no")

    def _label(self, value: str, state: GameState, w: ExerciseWords) -> str:
        return w(f"exercise.choice.{value}")

    def choices(self, lang: str = DEFAULT_LANGUAGE) -> list[tuple[str, str]]:
        state = self._base()
        w = ExerciseWords(known_language(lang), state)
        return [(v, self._label(v, state, w)) for v in self._values(state)]

    def _parse(self, answer, state: GameState, w: ExerciseWords) -> str:
        values = self._values(state)
        if isinstance(answer, bool) and "yes" in values:
            return "yes" if answer else "no"
        if isinstance(answer, str):
            text = answer.strip().casefold()
            for value in values:
                labels = {value}
                for lang in LANGUAGES:
                    labels.add(self._label(value, state, ExerciseWords(lang, state)).casefold())
                if text in labels:
                    return value
            if "yes" in values and text in YES_WORDS:
                return "yes"
            if "yes" in values and text in NO_WORDS:
                return "no"
        choices = w.join((self._label(v, state, w) for v in values), "or")
        raise InvalidAnswer("exercise.invalid.choice", choices=choices)

    def _show(self, value, state: GameState, w: ExerciseWords) -> str:
        return self._label(value, state, w)


class IntegerExercise(Exercise):
    answer_kind = "integer"
    low, high = 0, 200

    def _parse(self, answer, state: GameState, w: ExerciseWords) -> int:
        return in_range(read_integer(answer), self.low, self.high)


class OptionExercise(Exercise):
    """An exercise about one option of the staged position, played on a copy."""

    def __init__(self, scenario: str, option: str, **kw):
        super().__init__(scenario, **kw)
        self.option_text = option

    def _outcome(self, state: GameState) -> GameState:
        return play_on_copy(state, self._option(self.option_text))

    def _narration(self, state: GameState, w: ExerciseWords) -> list[str]:
        return narrate(self._outcome(state), w.lang)
