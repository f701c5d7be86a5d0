"""The rules reference: the project's own title and text for every rule ID, in EN, DE and ZH.

Every explanation, exercise and lesson cites rule IDs (``R3.5``, ``R6.6, R6.7``). This module is
where a learner reads what such an ID says, inside the product: ``nefertiti rules R3.5`` on the
command line, the Rules view of the Sandbox, and the title and text behind every ID the widgets
show. The texts live in the message catalogs (``messages/<lang>/rules.json``, keys
``rule.<ID>.title`` and ``rule.<ID>.text``), so the catalog tests hold them to the same standard
as every other message: the same IDs in every language.

Some entries are the project's reading or estimate rather than what the rulebook prints (the
first-game layout R2.8, Gizeh's adjacency R3.1, the estimated gift values R8, ...): their IDs are
listed under ``_readings`` in the catalog, :attr:`Rule.reading` is true for them, and their text
says so in words.

- :func:`lookup` finds an entry by ID (``"r03.05"`` works too), falling back to the section
  (a ruling without an entry gives its section); :func:`get` raises :class:`UnknownRule` instead of returning None.
- :func:`search` finds entries by words of the chosen language (``"closing"``, ``"休市"``).
- :func:`all_rules` lists every entry in rule order; :func:`ids_in` reads the IDs out of a text.

Standard library only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..engine.errors import NefertitiError
from ..engine.i18n import DEFAULT_LANGUAGE, LANGUAGES, CatalogError, catalog

__all__ = [
    "Rule",
    "UnknownRule",
    "all_rules",
    "get",
    "ids",
    "ids_in",
    "lookup",
    "normalise",
    "parent",
    "search",
]

CATALOG_FILE = "rules.json"
_KEY = re.compile(r"rule\.(R\d+(?:\.\d+)?)\.title")
_ID = re.compile(r"R(\d+)(?:\.(\d+))?")
#: A rule ID inside running text: ``R3.5``, ``R10``; not ``R2D2`` nor the ``R3`` of ``R3x``.
ID_IN_TEXT = re.compile(r"(?<![\w.])R\d+(?:\.\d+)?(?![\w]|\.\d)")


class UnknownRule(NefertitiError, LookupError):
    """A rule ID that the reference does not have (nor its section)."""


@dataclass(frozen=True)
class Rule:
    """One entry of the reference, in one language."""

    id: str
    title: str
    text: str
    reading: bool  # the project's reading or estimate, not printed in the rulebook
    lang: str

    @property
    def section(self) -> str:
        return self.id.split(".", 1)[0]

    def __str__(self) -> str:
        return f"{self.id}  {self.title}\n{self.text}"


def normalise(token: object) -> str | None:
    """``" r3.5 "`` -> ``"R3.5"``, ``"R03.05"`` -> ``"R3.5"``; None if it is not a rule ID."""
    if not isinstance(token, str):
        return None
    text = token.strip().rstrip(".").replace(" ", "")
    if text[:1] == "r":
        text = "R" + text[1:]
    match = _ID.fullmatch(text)
    if not match or int(match.group(1)) == 0:
        return None
    if match.group(2) is None:
        return f"R{int(match.group(1))}"
    return f"R{int(match.group(1))}.{int(match.group(2))}"


def parent(rule_id: str) -> str | None:
    """The section of a ruling (``R3.5`` -> ``R3``); None for a section."""
    return rule_id.split(".", 1)[0] if "." in rule_id else None


def _order(rule_id: str) -> tuple[int, int]:
    match = _ID.fullmatch(rule_id)
    return (int(match.group(1)), int(match.group(2) or 0)) if match else (10**6, 0)


def _check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise CatalogError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    return lang


@cache
def ids() -> tuple[str, ...]:
    """Every ID with an entry, in rule order (a section before its rulings)."""
    found = {match.group(1) for key in catalog(DEFAULT_LANGUAGE) if (match := _KEY.fullmatch(key))}
    return tuple(sorted(found, key=_order))


@cache
def readings() -> frozenset[str]:
    """The IDs whose entry is the project's reading or estimate (``_readings`` of the catalog)."""
    path = resources.files("nefertiti_core").joinpath("messages", DEFAULT_LANGUAGE, CATALOG_FILE)
    data = json.loads(path.read_text(encoding="utf-8"))
    return frozenset(data.get("_readings", ()))


@cache
def _rule(rule_id: str, lang: str) -> Rule:
    messages, english = catalog(lang), catalog(DEFAULT_LANGUAGE)
    title_key, text_key = f"rule.{rule_id}.title", f"rule.{rule_id}.text"
    return Rule(
        id=rule_id,
        title=messages.get(title_key, english[title_key]),
        text=messages.get(text_key, english[text_key]),
        reading=rule_id in readings(),
        lang=lang,
    )


def lookup(rule_id: object, lang: str = DEFAULT_LANGUAGE) -> Rule | None:
    """The entry for ``rule_id``, or its section's when the ruling has none; None if neither."""
    _check_language(lang)
    wanted = normalise(rule_id)
    known = set(ids())
    while wanted is not None:
        if wanted in known:
            return _rule(wanted, lang)
        wanted = parent(wanted)
    return None


def get(rule_id: object, lang: str = DEFAULT_LANGUAGE) -> Rule:
    """Like :func:`lookup`, but an unknown ID raises :class:`UnknownRule` naming it."""
    rule = lookup(rule_id, lang)
    if rule is None:
        shown = str(rule_id)[:40]
        first, last = ids()[0], ids()[-1]
        raise UnknownRule(
            f"no rule {shown!r} in the reference: IDs run from {first} to {last} "
            "('nefertiti rules' lists them)"
        )
    return rule


def all_rules(lang: str = DEFAULT_LANGUAGE) -> list[Rule]:
    """Every entry, in rule order."""
    _check_language(lang)
    return [_rule(rule_id, lang) for rule_id in ids()]


def ids_in(text: str) -> list[str]:
    """The rule IDs cited in a text, in order of appearance, each once (normalised).

    A range ``R2.6-R2.8`` gives its two ends; ``R0`` and other non-IDs are left out.
    """
    seen: dict[str, None] = {}
    for match in ID_IN_TEXT.finditer(text or ""):
        rule_id = normalise(match.group(0))
        if rule_id:
            seen.setdefault(rule_id)
    return list(seen)


# --- search ------------------------------------------------------------------------------------
_WORD = re.compile(r"\w+")
_CJK = re.compile(r"[\u3400-\u9fff]")
#: Endings dropped from a query word, so that "closing" finds "closes" and "closed", "schließen"
#: finds "schließt" and "Schließbedingung". A stem keeps at least 4 letters.
_SUFFIXES = {
    "en": ("ing", "ed", "es", "s", "e"),
    "de": ("ungen", "ung", "en", "er", "es", "e", "n", "s", "t"),
    "zh": (),
}


def _stem(word: str, lang: str) -> str:
    for suffix in _SUFFIXES.get(lang, ()):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def _terms(query: str, lang: str) -> list[str]:
    terms = []
    for word in query.casefold().split():
        word = word.strip(".,;:!?\"'()[]“”„«»")
        if word:
            terms.append(word if _CJK.search(word) else _stem(word, lang))
    return terms


def _matches(term: str, words: list[str], text: str) -> bool:
    if _CJK.search(term):
        return term in text
    return any(word.startswith(term) for word in words)


def _hits(term: str, words: list[str], text: str) -> int:
    if _CJK.search(term):
        return text.count(term)
    return sum(word.startswith(term) for word in words)


def search(query: str, lang: str = DEFAULT_LANGUAGE) -> list[Rule]:
    """The entries whose ID, title or text has every word of ``query`` (in ``lang``).

    Words match by their beginning once a common ending is dropped ("closing" finds "closes");
    Chinese matches as a substring. Title matches come first, then the entries that use the words most, then rule order. An ID as the query
    ("R3.5", "r6") gives that entry first. An empty query gives every entry.
    """
    _check_language(lang)
    query = (query or "").strip()[:200]
    rules = all_rules(lang)
    if not query:
        return rules
    exact = lookup(query, lang) if normalise(query) else None
    if exact is not None:
        prefix = exact.id + "."
        return [exact] + [rule for rule in rules if rule.id.startswith(prefix)]
    terms = _terms(query, lang)
    if not terms:
        return rules
    ranked: list[tuple[int, int, tuple[int, int], Rule]] = []
    for rule in rules:
        title = rule.title.casefold()
        body = f"{rule.id.casefold()} {title} {rule.text.casefold()}"
        words = _WORD.findall(body)
        if all(_matches(term, words, body) for term in terms):
            title_words = _WORD.findall(title)
            in_title = all(_matches(term, title_words, title) for term in terms)
            hits = sum(_hits(term, words, body) for term in terms)
            ranked.append((0 if in_title else 1, -hits, _order(rule.id), rule))
    ranked.sort(key=lambda item: item[:3])
    return [item[-1] for item in ranked]
