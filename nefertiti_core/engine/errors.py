"""Errors the engine raises at people: each message names the input, the position and the rule.

Also the checks of the API's arguments that raise them (:func:`require_int`,
:func:`require_state`, :func:`check_magnitudes`). It imports only :mod:`.limits` (whose ``echo``
quotes the input), so that every other module of the engine, ``state`` too, can import it.
"""

from __future__ import annotations

from .limits import MAX_COUNT, echo


class NefertitiError(ValueError):
    """Base class of every error the engine raises on bad input."""

    def message(self, lang: str) -> str:
        """The error worded in ``lang``: raised with a catalogue message (:class:`.said_text.Said`)
        it is said in ``lang``, else it is the text it was raised with; an error that knows its
        languages otherwise (a file's :class:`~nefertiti_core.files.reader.ScenarioError`)
        overrides this, so that callers ask every error the same way."""
        from .said_text import in_lang

        return in_lang(self.args[0], lang) if len(self.args) == 1 else str(self)


class NotationError(NefertitiError):
    """A text that is not an option of the move notation at all.

    Raised with a catalogue message (:class:`.said.Said`, ``move_notation.json``): ``str`` is
    its English, :meth:`message` says it in another language (a German or Chinese teacher's
    mistyped move in a file, a notebook or a command's ``--option``)."""

    def message(self, lang: str) -> str:
        text = self.args[0] if self.args else ""
        return text.in_lang(lang) if hasattr(text, "in_lang") else str(self)


class IllegalOptionError(NefertitiError):
    """A well-formed option that the rules do not allow now; the state is left unchanged."""

    def __init__(self, message: str, option: int | None = None, rule: str = ""):
        super().__init__(message)
        self.option = option
        self.rule = rule


class GameOverError(IllegalOptionError):
    """An option applied to a finished game."""


class SetupError(NefertitiError):
    """A game configuration that cannot be set up (wrong player count, unknown layout, ...)."""


class ArgumentError(NefertitiError, TypeError):
    """A value of the wrong type or range passed to the engine's API (a bool for a die, a float
    for a step, a list for a branch name, ...); nothing has changed. It is also a TypeError, so
    code that caught TypeError before still does."""


def require_int(value, what: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is an int (not a bool) from ``low`` to ``high``; else ArgumentError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(f"{what} is a whole number, not {echo(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ArgumentError(f"{what} is from {low} to {high}, not {echo(value)}")
    return value


class GameStateBase:
    """The base class of :class:`.state.GameState`, empty: :func:`require_state` checks against
    it, since ``state`` imports this module and not the other way round."""

    __slots__ = ()


def require_state(value, what: str = "state"):
    """``value`` if it is a GameState; else ArgumentError."""
    if not isinstance(value, GameStateBase):
        raise ArgumentError(f"{what} is a GameState (from new_game), not {echo(value)}")
    return value


def check_magnitudes(state) -> None:
    """Refuse a state whose Deben, prestige or reserves exceed MAX_COUNT (set through the API):
    hints and odds turn them into floats, and a number of hundreds of digits overflows."""
    for what, numbers in (
        ("Deben", state.deben),
        ("prestige", state.prestige),
        ("a market's reserve", state.reserve),
    ):
        for value in numbers:
            if not -MAX_COUNT <= value <= MAX_COUNT:
                raise NefertitiError(
                    f"{what} of {echo(value)} is too large to study (at most {MAX_COUNT:,})"
                )
