"""Exercises that check themselves on the live engine.

Each exercise is staged from a position file of ``scenarios/`` (by name, ``"abou-simbel-left-sums"``),
optionally after a few moves played from it (``before``) and under rule variants (``variants``),
and asks one question. The right answer is never written down: :meth:`Exercise.check` asks the
engine at check time, by playing the option on a copy of the position (as :mod:`.status` previews
do) or by reading :func:`.status.stall_status`. The feedback says why, in the words of the
explanation layer (:mod:`.explain`, :mod:`.status`) and with the rule IDs of
the rules reference (:mod:`.rules_reference`).

- :class:`WillItClose` - does this placement close its market? (yes/no; for Louqsor: always,
  sometimes or never, from the exact probability of the roll, R3.7, R3.8)
- :class:`ClickClosingSquare` - a square (from a board click) where a servant closes the market now
- :class:`HowManyPoints` - prestige a seat scores by an option (Vizier, Scribe, Royal Servant)
- :class:`HowMuchDeben` - the decider's net Deben change, up to the next decision (R5.3, R6.2-R6.4,
  R10.3, R10.8)
- :class:`WhoDecidesNext` - the colour that decides after an option (or nobody: the game is over)
- :class:`GiftValue` - what each gift of a type is worth now (R8)
- :class:`ClosingChance` - the probability that a Louqsor placement closes it (``"4/36"``, ``"11%"``)
- :class:`IsLegal` - may the decider choose this option now? (the misreadings of R13)
- :class:`GameEnds` - is the game over after this option? (R7.1, R13)
- :class:`FinalScore` - a seat's score if the game ended now (R9.1)

The exercises are data a teacher can write: each position file may carry an ``exercises:`` block
(its questions, by ``kind`` from :data:`KINDS`, with an optional ``question``, ``answer``,
``explanation`` and ``rules``; docs/scenario-format.md). :func:`read_block` checks the block as
data when the file loads; :func:`exercises_in` makes the exercises of any file and has the engine
check each one (:func:`check_entry`: a written ``answer`` must be the engine's).
:data:`EXERCISES` holds the tutor's exercises by id, read from the shipped files on first use;
``scenarios/lessons/lessons.yaml`` gives the topics' order (:data:`TOPICS`) and each topic's
exercises in order (:func:`exercises_for`). Every text but a teacher's comes from the message
catalogs (``messages/<lang>/exercises.json``). Standard library only.

The package, by concern (import from the package itself; its names are listed in ``__all__``):

- :mod:`.base` - what every kind shares: :class:`Exercise`, staging, wording, the partial kinds
- :mod:`.kinds` - the ten kinds, and :data:`KINDS` by the name a file gives them
- :mod:`.answers` - reading a learner's answer, and the verdict (:class:`Feedback`)
- :mod:`.entries` - a file's exercises made from its block and checked on the engine
- :mod:`.lessons` - the lessons file, the shipped exercises, :func:`exercises_for`

The ``exercises:`` block itself is read by :mod:`nefertiti_core.files.exercise_block`, outside
this package and below :mod:`.scenario`, which reads it while loading a file.
"""

from __future__ import annotations

from ..exercise_block import ExerciseEntry, read_block
from .answers import Feedback
from .base import Exercise, ExerciseError, scenario_path, scenarios_folder
from .entries import build_exercise, check_entry, exercises_in
from .kinds import (
    KINDS,
    ClickClosingSquare,
    ClosingChance,
    FinalScore,
    GameEnds,
    GiftValue,
    HowManyPoints,
    HowMuchDeben,
    IsLegal,
    WhoDecidesNext,
    WillItClose,
)
from .lessons import LESSONS_FILE, build_lessons, exercises_for, read_lessons, shipped_lessons

__all__ = [
    "EXERCISES",  # noqa: F822 (read from the files on first use: __getattr__)
    "KINDS",
    "LESSONS_FILE",
    "TOPICS",  # noqa: F822 (read from the files on first use: __getattr__)
    "ClickClosingSquare",
    "ClosingChance",
    "Exercise",
    "ExerciseEntry",
    "ExerciseError",
    "Feedback",
    "FinalScore",
    "GameEnds",
    "GiftValue",
    "HowManyPoints",
    "HowMuchDeben",
    "IsLegal",
    "WhoDecidesNext",
    "WillItClose",
    "build_exercise",
    "build_lessons",
    "check_entry",
    "exercises_for",
    "exercises_in",
    "read_block",
    "read_lessons",
    "scenario_path",
    "scenarios_folder",
]


def __getattr__(name: str):
    # TOPICS (the tutorial topics, in the order of the notebooks) and EXERCISES (every exercise
    # of the tutor by id, "topic/name", in the order of the topics) are read from the shipped
    # files on first use.
    if name == "TOPICS":
        return shipped_lessons()[0]
    if name == "EXERCISES":
        return shipped_lessons()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
