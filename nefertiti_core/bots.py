"""Opponents: a bot chooses one legal option for whoever must decide.

    >>> from nefertiti_core.bots import make_bot
    >>> bot = make_bot("random", seed=1)
    >>> option = bot.choose(game)        # an id from game.legal_options()

Every bot kind is made by name through ``make_bot`` (the Sandbox's seat menu, the tournament and
the odds all use it). A bot never changes the state it is given; it may copy it to look ahead.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from .errors import NefertitiError
from .state import GameState


class Bot(Protocol):
    """What every bot kind offers."""

    kind: str

    def choose(self, state: GameState) -> int:
        """One legal option id for ``state.decider``; ``state`` is left unchanged."""
        ...


class RandomBot:
    """Uniformly random among the legal options: par for every other bot."""

    kind = "random"

    def __init__(self, seed: int | None = 0):
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> int:
        legal = state.legal_options()
        if not legal:
            raise NefertitiError("the game is over: there is nothing to choose")
        return legal[self.rng.randrange(len(legal))]


# kind -> factory(seed, **options). Kinds whose module needs an optional package are imported
# only when asked for, so that the engine stays standard library only.
_FACTORIES: dict[str, Callable[..., Bot]] = {"random": RandomBot}
_LAZY: dict[str, str] = {}


def register(kind: str, factory: Callable[..., Bot]) -> None:
    _FACTORIES[kind] = factory


def bot_kinds() -> tuple[str, ...]:
    """Every bot kind ``make_bot`` knows, in order of strength."""
    return tuple(dict.fromkeys([*_FACTORIES, *_LAZY]))


def make_bot(kind: str, seed: int | None = 0, **options) -> Bot:
    """A new bot of ``kind`` (see ``bot_kinds()``), its choices reproducible from ``seed``."""
    if kind not in _FACTORIES and kind in _LAZY:
        __import__(_LAZY[kind], fromlist=["_"])  # registers the kind
    try:
        factory = _FACTORIES[kind]
    except KeyError:
        raise NefertitiError(f"{kind!r} is not a bot: one of {', '.join(bot_kinds())}") from None
    return factory(seed=seed, **options)
