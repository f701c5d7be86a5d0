"""A game's story, score and players in the lesson's language, for a notebook's own cells.

Notebook 13 builds a game in a cell (``GameSession``) and prints what happened (``narrate``),
the scores (``score_table``), how far the game has come (``game_progress``) and whose turn it
is (``seat_name``); notebook 14 lists the rule
variants (``describe_variant``). The engine's functions take ``lang="en"`` by default, so a German or Chinese notebook calling them as the English one does
printed English. These wrappers speak the lesson language (``use_language``, then
``NEFERTITI_LANG``, then the notebook's folder: :mod:`widgets.lesson.language`), so the three
notebooks keep the same code and each prints its own language; ``lang=`` still chooses one.
"""

from __future__ import annotations

from nefertiti_core.engine import variants
from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.state import GameState
from nefertiti_core.teaching import explain, rule_compare
from nefertiti_core.teaching.board_words import who_decides
from widgets.game.common import colour_name
from widgets.lesson.language import in_lesson_language


@in_lesson_language
def narrate(state: GameState, lang: str | None = None, start: int = 0) -> list[str]:
    """What happened in ``state``'s game from event ``start`` on, one sentence a step
    (:func:`nefertiti_core.teaching.explain.narrate`), in the lesson language."""
    return explain.narrate(state, lang, start)


@in_lesson_language
def score_table(state: GameState, lang: str | None = None) -> list[str]:
    """Every player's score breakdown and the winner line
    (:func:`nefertiti_core.teaching.explain.score_table`), in the lesson language."""
    return explain.score_table(state, lang)


@in_lesson_language
def seat_name(state: GameState, seat: int | None = None, lang: str | None = None) -> str:
    """The player in ``seat`` (None: the player who decides now) by the colour the lesson
    language names it (:func:`widgets.game.common.colour_name`: "Grün", "绿方"); "nobody" for
    no seat (no one decides once the game is over)."""
    seat = state.decider if seat is None else seat
    if not 0 <= seat < len(state.colours):
        return tr(lang, "status.nobody")
    return colour_name(lang, state.colours[seat])


@in_lesson_language
def game_progress(state: GameState, steps: int, lang: str | None = None) -> str:
    """How far a game has come, in sentences: ``steps`` played, then that the game is over or
    who decides now (:func:`nefertiti_core.teaching.board_words.who_decides`: "Steps played: 812.
    Turn 35: the game is over."), in the lesson language, not a Python value such as
    ``state.is_over``."""
    said = tr(lang, "progress.steps", steps=steps)
    return f"{said}{tr(lang, 'status.sentence_sep')}{who_decides(state, lang)}"


@in_lesson_language
def describe_variant(name: str, lang: str | None = None) -> str:
    """What rule variant ``name`` changes, with the rule it departs from
    (:func:`nefertiti_core.engine.variants.describe_variant`), in the lesson language."""
    return variants.describe_variant(name, lang)


@in_lesson_language
def compare_rules(state: GameState, a: dict, b: dict, lang: str | None = None, **options):
    """:func:`nefertiti_core.engine.variants.compare_rules`, each side labelled with its rules in
    the lesson language ("Mit einem Händler, der den Wertunterschied in den Vorrat zahlt"), not
    the variants' code names."""
    return variants.compare_rules(state, a, b, lang=lang, **options)


@in_lesson_language
def outcome_line(outcome, colours, lang: str | None = None) -> str:
    """One side of a rules comparison in a sentence
    (:func:`nefertiti_core.teaching.rule_compare.outcome_line`), in the lesson language."""
    return rule_compare.outcome_line(outcome, colours, lang)
