"""Rule variants on the same position: "what if we played it the German report's way?"

A variant (rules.VARIANTS) or an edited gift-value table (R8) changes how a position plays on.
:func:`with_rules` gives a copy of a position under other rules; :func:`compare_rules` plays one
position on under two sets of rules with the same decisions where they stay legal (then a seeded
random choice, identical on both sides) and reports both outcomes side by side.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from . import rules as R
from .errors import SetupError
from .i18n import tr
from .scoring import totals, winners
from .state import GameState


def describe_variant(name: str, lang: str = "en") -> str:
    """What a variant changes, in words, with the rule it departs from."""
    if name not in R.VARIANTS:
        raise SetupError(f"unknown variant {name!r}; known: {', '.join(R.VARIANTS)}")
    return tr(lang, f"variant.{name}", rule=R.VARIANTS[name][1])


def with_rules(
    state: GameState, variants=None, gift_values: dict[str, list[int]] | None = None
) -> GameState:
    """A copy of ``state`` to be played on under other rules (the position is unchanged).

    ``variants``: the variant names to use (None: keep the state's). ``gift_values``: edits to
    R8's table, ``{"harp": [9, 7, 5, 5], ...}`` (1 to 4 holders).
    """
    copy = state.copy()
    values = [list(row) for row in state.values]
    for name, row in (gift_values or {}).items():
        if name not in R.GIFT_TYPES:
            raise SetupError(f"unknown gift type {name!r}; one of {', '.join(R.GIFT_TYPES)}")
        values[R.GIFT_TYPES.index(name)] = list(row)
    config = replace(
        state.config,
        variants=tuple(sorted(state.variants if variants is None else variants)),
        gift_values=tuple(tuple(r) for r in values),
    ).validated()
    copy.config = config
    copy.variants = frozenset(config.variants)
    copy.values = config.gift_values
    copy.max_values = tuple(R.max_value(k, copy.values) for k in range(R.NUM_KINDS))
    if (
        "akhenaton_ends_game" in copy.variants
        and copy.akhenaton_drawn
        and not copy.is_over
        and copy.res_market < 0
    ):
        copy.end_game()  # under this reading the game ended when the card appeared
    copy.refresh()
    return copy


@dataclass(frozen=True)
class RulesOutcome:
    label: str
    steps: int
    over: bool
    scores: tuple[int, ...]
    deben: tuple[int, ...]
    winners: tuple[str, ...]


@dataclass(frozen=True)
class RulesComparison:
    a: RulesOutcome
    b: RulesOutcome
    shared_steps: int  # how many of the given steps both sides could play


def compare_rules(
    state: GameState,
    a: dict,
    b: dict,
    steps=(),
    seed: int = 0,
    to_end: bool = True,
    labels: tuple[str, str] | None = None,
    lang: str = "en",
) -> RulesComparison:
    """Play ``state`` on under rules ``a`` and rules ``b`` (keyword dicts for :func:`with_rules`).

    The given ``steps`` (options, ids or texts) are played on both while legal on both; then,
    with ``to_end``, each side plays to its end choosing at random with the same seed. Each
    outcome is labelled with its rules in words in ``lang`` (:func:`rules_words`), unless
    ``labels`` names them; the rules are checked first, so a misspelt variant is a SetupError
    listing the known ones.
    """
    sides = [with_rules(state, **a), with_rules(state, **b)]
    shared = 0
    for step in steps:
        options = []
        for side in sides:
            option = side.parse(step) if isinstance(step, str) else step
            options.append(option if side.is_legal(option) else None)
        if None in options:
            break
        for side, option in zip(sides, options, strict=True):
            side.apply(option)
        shared += 1
    outcomes = []
    names = labels or (rules_words(a, lang), rules_words(b, lang))
    for side, label in zip(sides, names, strict=True):
        rng = random.Random(seed)
        played = shared
        while to_end and not side.is_over:
            legal = side.legal_options()
            side.apply(legal[rng.randrange(len(legal))])
            played += 1
        outcomes.append(
            RulesOutcome(
                label,
                played,
                side.is_over,
                tuple(totals(side)),
                tuple(side.deben),
                tuple(side.colours[p] for p in winners(side)),
            )
        )
    return RulesComparison(outcomes[0], outcomes[1], shared)


def rules_words(rules: dict, lang: str = "en") -> str:
    """A set of rules (:func:`with_rules`'s keywords) in words ("With the Merchant paying the
    difference into the reserve"), for rules :func:`with_rules` accepts."""
    changes = [tr(lang, f"compare.variant.{name}") for name in rules.get("variants") or []]
    for card, values in (rules.get("gift_values") or {}).items():
        name = tr(lang, f"card.{card}") if card in R.CARD_KINDS else card
        changes.append(
            tr(lang, "compare.gift_values", card=name, values="/".join(map(str, values)))
        )
    if not changes:
        return tr(lang, "compare.as_printed")
    return tr(lang, "compare.with", changes=tr(lang, "compare.sep").join(changes))
