"""Errors the engine raises at people: each message names the input, the position and the rule."""

from __future__ import annotations


class NefertitiError(ValueError):
    """Base class of every error the engine raises on bad input."""


class NotationError(NefertitiError):
    """A text that is not an option of the move notation at all."""


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
