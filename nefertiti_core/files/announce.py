"""One step of a game in one line of words: what the projector announces and the timeline lists.

A step of a :class:`~nefertiti_core.files.history.History` is a decision (a person's or a bot's) or a
fixed chance outcome; the engine may then take single-option decisions by itself (E3: the Scribe
of a player with one gift type, "half" when no card is affordable, ...). Those are announced too,
each with why it had no choice: they are the step's ``forced`` lines.

Everything is the engine's own words: the events the step emitted (``GameState.log``, worded by
:func:`explain.describe_event`), shortened to their first sentence, with the rule ID each names.
Nothing is decided here. Stdlib only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..engine import rules as R
from ..engine.state import GameState
from ..engine.steps import step_text
from ..teaching.explain import SILENT_EVENTS, describe_event, describe_option
from .history import History

#: Events that only say what comes next, or repeat what the step's first line says.
_QUIET = frozenset({"turn", "market_closed", "reopen", "pay", "decision"})
#: Events worth a short sentence after the step's first one (a card taken, the dice, a closing).
_FOLLOW = ("gift_taken", "roll", "market_closes", "game_over")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|(?<=[。！？])")
_CLAUSE_END = re.compile(r"[:：]")


@dataclass(frozen=True)
class StepWords:
    """One step in words.

    ``seat``: who decided (-1 for a chance step with nobody named). ``text``: the step in one
    line. ``forced``: the single-option steps the engine took right after it, each in one line.
    ``square``: (stall id, square index) of the servant the step placed, else None. ``market``:
    the market the step was about (-1 if none). ``seats``: who acted in each forced line.
    """

    seat: int
    text: str
    forced: tuple[str, ...] = ()
    square: tuple[int, int] | None = None
    market: int = -1
    forced_seats: tuple[int, ...] = ()
    sep: str = " "  # between sentences ("" in Chinese)

    @property
    def line(self) -> str:
        """The step and its forced follow-ups as one line."""
        return self.sep.join(part for part in (self.text, *self.forced) if part)


def first_sentence(text: str) -> str:
    """The first sentence of an explanation (English, German: ". "; Chinese: "。")."""
    parts = _SENTENCE_END.split(text.strip(), maxsplit=1)
    return parts[0].strip()


def _headline(text: str) -> str:
    """A closing's first clause only ("Gizeh's left stall closes"), ended like a sentence."""
    head = _CLAUSE_END.split(text, maxsplit=1)[0].strip()
    if head == text.strip():
        return first_sentence(text)
    return head + ("。" if re.search(r"[\u4e00-\u9fff]$", head) else ".")


def step_events(before: GameState, after: GameState) -> list[tuple[str, dict]]:
    """The events ``after`` logged since ``before`` (a step's events; [] without a log)."""
    if before.log is None or after.log is None:
        return []
    return list(after.log[len(before.log) :])


def describe_step(before: GameState, after: GameState, lang: str = "en", step=None) -> StepWords:
    """The step from ``before`` to ``after`` in words (``step``: the history's step tuple, used
    only when the game logs no events: then the option is named as its button names it, a
    chance step by its notation)."""
    events = step_events(before, after)
    colours = after.colours
    seat = before.decider if before.decider >= 0 else -1
    square = None
    market = -1
    # the step itself: its events up to the first single-option step the engine took
    cut = next((i for i, (name, _) in enumerate(events) if name == "forced"), len(events))
    own, rest = events[:cut], events[cut:]
    lines: list[str] = []
    for name, data in own:
        if name == "decision":
            seat = data.get("seat", seat)
            continue
        if name in SILENT_EVENTS or name in _QUIET:
            continue
        if name == "place" and square is None:
            square = (_stall_id(data["stall"]), data["square"])
        if market < 0 and data.get("market") is not None:
            market = data["market"]
        if lines and name not in _FOLLOW:
            continue
        text = describe_event(name, data, colours, lang) or ""
        if not text:
            continue
        lines.append(_headline(text) if name == "market_closes" and lines else first_sentence(text))
    if not lines and step is not None:  # the option in words, as its button named it
        if step[0] == "option":
            lines.append(describe_option(before, step[1], lang, short=True))
        else:
            lines.append(step_text(before, step))
    sep = "" if lang == "zh" else " "
    forced: list[str] = []
    forced_seats: list[int] = []
    follow = False  # the event right after a single-option step says what it did (its points)
    for name, data in rest:
        if name == "forced":
            forced.append(first_sentence(describe_event(name, data, colours, lang) or ""))
            forced_seats.append(data.get("seat", -1))
            follow = True
        elif follow and name not in _QUIET and name not in SILENT_EVENTS:
            text = first_sentence(describe_event(name, data, colours, lang) or "")
            if text and forced:
                forced[-1] = sep.join((forced[-1], text))
            follow = False
        elif name == "market_closes":
            text = describe_event(name, data, colours, lang) or ""
            forced.append(_headline(text))
            forced_seats.append(data.get("seat", -1))
    return StepWords(
        seat=seat,
        text=sep.join(lines),
        forced=tuple(forced),
        square=square,
        market=market,
        forced_seats=tuple(forced_seats),
        sep=sep,
    )


_STALL_IDS = {stall.name: index for index, stall in enumerate(R.STALLS)}


def _stall_id(name: str) -> int:
    """A stall's id (its index in ``rules.STALLS``) from its name in an event."""
    return _STALL_IDS[name]


def last_step(history: History, lang: str = "en") -> StepWords | None:
    """The step that led to where the history is now (None at the start)."""
    last = history.last_transition()
    return None if last is None else describe_step(last[0], last[1], lang, last[2])


def last_step_place(history: History) -> tuple[int, tuple[int, int] | None, int] | None:
    """Where the last step happened, without words (cheap, for the board's highlight):
    (seat, (stall id, square index) or None, market or -1); None at the start."""
    last = history.last_transition()
    if last is None:
        return None
    before, after, _step = last
    seat, square, market = (before.decider if before.decider >= 0 else -1), None, -1
    for name, data in step_events(before, after):
        if name == "forced":
            break
        if name == "decision":
            seat = data.get("seat", seat)
        elif name == "place" and square is None:
            square = (_stall_id(data["stall"]), data["square"])
        if market < 0 and name not in ("turn", "decision") and data.get("market") is not None:
            market = data["market"]
    return seat, square, market


def branch_steps(history: History, lang: str = "en", branch: str | None = None, cache=None):
    """Every step of a branch in words, from the first. ``cache``: a dict kept by the caller
    (the words of a step never change: its states are snapshots), keyed by the node."""
    out = []
    for index, before, after, step in history.transitions(branch):
        key = (index, lang)
        words = cache.get(key) if cache is not None else None
        if words is None:
            words = describe_step(before, after, lang, step)
            if cache is not None:
                cache[key] = words
        out.append(words)
    return out
