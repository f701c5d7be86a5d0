"""A game's story, score and players in the lesson's language, for a notebook's own cells.

Notebook 13 builds a game in a cell (``GameSession``) and prints what happened (``narrate``),
the scores (``score_table``), how far the game has come (``game_progress``) and whose turn it
is (``colour_name``); notebook 14 lists the rule
variants (``describe_variant``). The engine's functions take ``lang="en"`` by default, so a German or Chinese notebook calling them as the English one does
printed English. These wrappers speak the lesson language (``use_language``, then
``NEFERTITI_LANG``, then the notebook's folder: :mod:`widgets.lesson.language`), so the three
notebooks keep the same code and each prints its own language; ``lang=`` still chooses one.
"""

from __future__ import annotations

from nefertiti_core.engine import rules as R
from nefertiti_core.engine import variants
from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.state import GameState
from nefertiti_core.teaching import explain
from nefertiti_core.teaching.words import Words
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
def colour_name(state: GameState, seat: int | None = None, lang: str | None = None) -> str:
    """The colour of ``seat`` (None: the player who decides now), as the lesson language names
    it ("Grün", "绿方")."""
    return Words(lang, state.colours).player(state.decider if seat is None else seat)


@in_lesson_language
def game_progress(state: GameState, steps: int, lang: str | None = None) -> str:
    """How far a game has come, in sentences: ``steps`` played, then that the game is over or
    who decides now ("Steps played: 812. Turn 35: the game is over."), in the lesson language
    (a notebook printed ``state.is_over``, a Python value, before)."""
    said = tr(lang, "progress.steps", steps=steps)
    w = Words(lang, state.colours)
    if state.is_over:
        now = tr(lang, "view.game_over", turn=state.turn_no)
    else:
        now = tr(
            lang,
            "view.to_decide",
            turn=state.turn_no,
            player=w.player(state.decider),
            turn_player=w.player(state.turn_player),
        )
    return f"{said}{'' if lang == 'zh' else ' '}{now}"


@in_lesson_language
def describe_variant(name: str, lang: str | None = None) -> str:
    """What rule variant ``name`` changes, with the rule it departs from
    (:func:`nefertiti_core.engine.variants.describe_variant`), in the lesson language."""
    return variants.describe_variant(name, lang)


def _rules_words(rules: dict, lang: str) -> str:
    """A set of rules (:func:`variants.with_rules`'s keywords) in words."""
    changes = [tr(lang, f"compare.variant.{name}") for name in rules.get("variants") or []]
    for card, values in (rules.get("gift_values") or {}).items():
        name = tr(lang, f"card.{card}") if card in R.CARD_KINDS else card
        changes.append(
            tr(lang, "compare.gift_values", card=name, values="/".join(map(str, values)))
        )
    if not changes:
        return tr(lang, "compare.as_printed")
    return tr(lang, "compare.with", changes=tr(lang, "compare.sep").join(changes))


@in_lesson_language
def compare_rules(state: GameState, a: dict, b: dict, lang: str | None = None, **options):
    """:func:`nefertiti_core.engine.variants.compare_rules`, each side labelled with its rules in
    the lesson language ("Mit einem Händler, der den Wertunterschied in den Vorrat zahlt"), not
    the variants' code names."""
    labels = (_rules_words(a, lang), _rules_words(b, lang))
    return variants.compare_rules(state, a, b, labels=labels, **options)


@in_lesson_language
def outcome_line(outcome, colours, lang: str | None = None) -> str:
    """One side of a rules comparison in a sentence: its rules, then every player's Deben and
    points ("The rules as printed: Red 12 Deben and 15 points, …"), not Python tuples."""
    w = Words(lang, tuple(colours))
    players = tr(lang, "compare.sep").join(
        tr(lang, "compare.player", player=w.player(p), deben=deben, points=points)
        for p, (deben, points) in enumerate(zip(outcome.deben, outcome.scores, strict=True))
    )
    return tr(lang, "compare.outcome", rules=outcome.label, players=players)
