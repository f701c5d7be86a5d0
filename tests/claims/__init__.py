"""Every number a lesson states, checked against the engine (issue #13 item 9).

One module per notebook, ``tests/claims/nb<NN>.py`` for ``tutorials/<NN>-*.ipynb``, holds
``CLAIMS``: a list of :class:`Claim`. A claim quotes a phrase of the notebook's prose that states a
number ("a 7 makes exactly 14") and a check that asks the engine (or the rules data) whether it is
so. ``tests/test_lesson_numbers.py`` fails when a claim's phrase is no longer in the notebook, when
its check fails, and when the prose states a number that no claim covers, so that a change to a
rule, the gift values or a scenario cannot leave a lesson saying something false.

The German and Chinese notebooks' modules (``tests/claims/de/nbNN.py``, ``tests/claims/zh/nbNN.py``)
quote their own phrases with the English module's checks (:func:`translated`), so that a check
is written once for the three languages.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class Claim:
    """``text``: a phrase exactly as it appears in the notebook's Markdown (it covers the numbers
    inside it); ``check``: returns True when the engine agrees (or raises AssertionError with the
    engine's figure)."""

    text: str
    check: Callable[[], bool]


def translated(
    english: ModuleType,
    phrases: dict[str | tuple[str, ...], str | tuple[str, ...]],
    extra: Iterable[Claim] = (),
) -> list[Claim]:
    """The claims of a German or Chinese notebook: the English notebook's checks, each quoted
    with the phrase of the translation that states the same number.

    ``english`` is the English notebook's claims module (``claims.nb09``); ``phrases`` maps an
    English claim's text to the translated phrase (or phrases: a tuple) that says the same, so a
    change to an English check reaches the three languages. A key may be a tuple of English
    texts where one translated phrase says what the English says in several: its check is then
    all of theirs. ``extra`` holds the translation's own claims: numbers the English states
    differently or not at all (a count the German or Chinese writes in words). An English text
    that is not among ``english.CLAIMS`` raises ``KeyError`` naming it, so that a changed
    English phrase cannot silently drop its translations' checks."""
    checks: dict[str, Callable[[], bool]] = {}
    for claim in english.CLAIMS:
        checks.setdefault(claim.text, claim.check)
    claims = []
    for key, texts in phrases.items():
        names = (key,) if isinstance(key, str) else key
        unknown = [name for name in names if name not in checks]
        if unknown:
            raise KeyError(f"{english.__name__} has no claim {unknown[0]!r}")
        check = checks[names[0]] if len(names) == 1 else _all_of([checks[n] for n in names])
        claims += [Claim(text, check) for text in ((texts,) if isinstance(texts, str) else texts)]
    return claims + list(extra)


def _all_of(checks: list[Callable[[], bool]]) -> Callable[[], bool]:
    return lambda: all(check() for check in checks)
