"""Steps: a decision (an option) or a fixed chance outcome (``roll 3 5``, ``draw harp``; R4.4),
in the move notation. A saved game (:mod:`..files.history`) and a position file's ``moves:``
(:mod:`..files.scenario`) are lists of steps.
"""

from __future__ import annotations

from . import rules as R
from .errors import ArgumentError, NotationError, require_int
from .limits import MAX_DICE_PER_ROLL, MAX_MOVE_CHARS, echo
from .said import grouped
from .said_text import Said
from .state import GameState

# A step: ("option", id) | ("roll", (d1, d2, ...)) | ("draw", kind)
Step = tuple


def step_text(state: GameState, step: Step) -> str:
    """A step in the move notation (chance steps as ``roll 3 5`` / ``draw harp``)."""
    kind, value = step
    if kind == "option":
        return state.option_text(value)
    if kind == "roll":
        return "roll " + " ".join(str(d) for d in value)
    name = "akhenaton" if value == R.AKHENATON else R.CARD_KINDS[value]
    return f"draw {name}"


def parse_step(state: GameState, text: str) -> Step:
    """The inverse of :func:`step_text`."""
    if not isinstance(text, str):
        raise NotationError(Said("notation.step_not_text", value=echo(text)))
    if len(text) > MAX_MOVE_CHARS:
        count = grouped(len(text))
        raise NotationError(Said("notation.step_too_long", count=count, value=echo(text)))
    words = text.split()
    if words and words[0] == "roll":
        if not 2 <= len(words) <= MAX_DICE_PER_ROLL + 1:
            raise NotationError(Said("notation.roll", move=echo(text), most=MAX_DICE_PER_ROLL))
        if not all(w in ("1", "2", "3", "4", "5", "6") for w in words[1:]):
            raise NotationError(Said("notation.dice", move=echo(text)))
        return ("roll", tuple(int(w) for w in words[1:]))
    if words and words[0] == "draw":
        names = list(R.CARD_KINDS) + ["akhenaton"]
        if len(words) != 2 or words[1] not in names:
            raise NotationError(Said("notation.draw", move=echo(text), cards=", ".join(names)))
        return ("draw", names.index(words[1]))
    return ("option", state.parse(text))


def check_step(step) -> Step:
    """``step`` if it is a well-formed step tuple; else ArgumentError (nothing is applied)."""
    if not isinstance(step, tuple) or len(step) != 2:
        raise ArgumentError(
            "a step is an option id, its text, or ('option', id), ('roll', (d1, ...)), "
            f"('draw', kind); not {echo(step)}"
        )
    kind, value = step
    if kind == "option":
        require_int(value, "an option id")
    elif kind == "roll":
        if not isinstance(value, tuple) or not 1 <= len(value) <= MAX_DICE_PER_ROLL:
            raise ArgumentError(
                f"a roll is a tuple of 1 to {MAX_DICE_PER_ROLL} dice, not {echo(value)}"
            )
        for die in value:
            require_int(die, "a die (R4.4)", 1, 6)
    elif kind == "draw":
        require_int(value, "a card kind", 0, R.NUM_KINDS)
    else:
        raise ArgumentError(f"a step's kind is 'option', 'roll' or 'draw', not {echo(kind)}")
    return step


def apply_step(state: GameState, step: Step) -> None:
    """Apply one step to ``state`` (checked: an illegal step raises and changes nothing)."""
    kind, value = step
    if kind == "option":
        state.apply(value)
    elif kind == "roll":
        state.force_roll(*value)
    else:
        state.force_draw(value)
