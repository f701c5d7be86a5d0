"""Message catalogs: every sentence the tutor shows comes from ``messages/<lang>/*.json``.

Each catalog file maps a message id to a template in ``str.format`` syntax
(``"{player} places a servant on {square}"``). All files of a language are merged; the same id
must not appear in two files. English is the reference: a test fails when another language lacks
an id that English has (or has one English lacks), or uses other placeholders.
"""

from __future__ import annotations

import json
import os
import string
from functools import cache
from importlib import resources

LANGUAGES = ("en", "de", "zh")
DEFAULT_LANGUAGE = "en"
#: The environment variable that chooses the language when nothing nearer has: the commands'
#: ``--lang`` default and a notebook's lessons (``widgets.lesson.language``) both read it here.
LANG_VARIABLE = "NEFERTITI_LANG"


class CatalogError(ValueError):
    pass


@cache
def catalog(lang: str) -> dict[str, str]:
    """All messages of one language (merged from its files)."""
    if lang not in LANGUAGES:
        raise CatalogError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    merged: dict[str, str] = {}
    folder = resources.files("nefertiti_core").joinpath("messages", lang)
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        data = json.loads(entry.read_text(encoding="utf-8"))
        for key, text in data.items():
            if key.startswith("_"):
                continue  # "_comment" and the like
            if key in merged:
                raise CatalogError(f"{lang}/{entry.name}: message {key!r} is defined twice")
            merged[key] = text
    return merged


def language_from_environment() -> str | None:
    """The language ``NEFERTITI_LANG`` names, or None when it is unset or blank. A code the
    tutor does not speak raises CatalogError (a ValueError) naming the variable and the
    languages, so a typo is said where it was made instead of speaking English silently."""
    code = os.environ.get(LANG_VARIABLE, "").strip()
    if not code:
        return None
    if code not in LANGUAGES:
        raise CatalogError(
            f"{LANG_VARIABLE}: unknown language {code[:20]!r}; the tutor speaks "
            f"{', '.join(LANGUAGES)} (en English, de Deutsch, zh 中文)"
        )
    return code


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def tr(lang: str, key: str, **params) -> str:
    """The message ``key`` in ``lang``, filled in with ``params``."""
    messages = catalog(lang)
    template = messages.get(key)
    if template is None:
        template = catalog(DEFAULT_LANGUAGE).get(key)
        if template is None:
            raise CatalogError(f"no message {key!r} in any catalog")
    return template.format(**params)


def has(lang: str, key: str) -> bool:
    return key in catalog(lang)


def language_from_header(accept_language: str) -> str:
    """The first of the tutor's languages a browser's Accept-Language header names (else English)."""
    for part in (accept_language or "").split(",")[:20]:
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"
