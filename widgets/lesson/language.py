"""The language of a notebook's lesson widgets: one setting for a whole notebook.

A German or Chinese notebook calls ``use_language("de")`` in its first cell, and every lesson
widget called without ``lang=`` (``Lesson``, ``demo``, ``exercises``, ``coverage_view``,
``watch_game``, the rule tables) speaks German from then on, so no cell needs editing.

Which language a widget speaks, first match wins:

1. the ``lang=`` the call passes;
2. the last ``use_language(code)`` in this kernel;
3. ``NEFERTITI_LANG`` in the environment (``make tutor TUTOR_LANG=de`` sets it);
4. the kernel's working folder: JupyterLab and Voilà start a notebook's kernel in the notebook's
   folder, so a kernel in ``tutorials/de`` or ``tutorials/zh`` speaks that language even when the
   learner runs a later cell before the first one;
5. English.

A code the tutor does not speak is refused with a ``ValueError`` that names the ones it does.

A ``GameSession`` the notebook makes itself follows the same setting: this module names
:func:`lesson_language` to the game layer (``widgets.game.session.set_notebook_language``), which
asks it only off a served page.
"""

from __future__ import annotations

import functools
import inspect
from pathlib import Path

from nefertiti_core.engine.i18n import LANGUAGES, language_from_environment
from widgets.game.session import set_notebook_language

_chosen: str | None = None  # the last use_language() of this kernel


def _checked(code: object, where: str) -> str:
    if code not in LANGUAGES:
        raise ValueError(
            f"{where}: unknown language {code!r}; the tutor speaks {', '.join(LANGUAGES)}"
            " (en English, de Deutsch, zh 中文)"
        )
    return code


def use_language(code: str | None) -> None:
    """Make ``code`` ("en", "de" or "zh") the language of every lesson widget called without
    ``lang=`` from now on in this kernel. ``None`` forgets the choice (the environment and the
    kernel's folder decide again). Returns nothing, so that the notebook's first cell, which
    ends with this call, shows nothing."""
    global _chosen
    _chosen = None if code is None else _checked(code, "use_language")


def folder_language(folder: Path | None = None) -> str | None:
    """The language of a notebook folder: ``tutorials/de`` → "de", ``tutorials/zh`` → "zh";
    ``None`` for any other folder (the English notebooks' folder included)."""
    folder = Path.cwd() if folder is None else folder
    if folder.parent.name == "tutorials" and folder.name in LANGUAGES:
        return folder.name
    return None


def lesson_language(lang: str | None = None) -> str:
    """The language a lesson widget speaks when called with ``lang`` (None: not given)."""
    if lang is not None:
        return _checked(lang, "lang")
    if _chosen is not None:
        return _chosen
    from_env = language_from_environment()  # checked there: a bad code is named
    if from_env:
        return from_env
    try:
        here = folder_language()
    except OSError:  # the working folder was removed under the kernel
        here = None
    return here or "en"


def in_lesson_language(func):
    """Decorate a function with a ``lang`` parameter: ``lang=None`` (or left out) becomes the
    lesson language (:func:`lesson_language`), a given code is checked."""
    signature = inspect.signature(func)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.arguments["lang"] = lesson_language(bound.arguments.get("lang"))
        return func(*bound.args, **bound.kwargs)

    return wrapper


# A game session a notebook makes itself (``GameSession(seats=…)``) speaks the lesson language
# too; a session on a served page keeps its own (``widgets.game.session.default_language``).
set_notebook_language(lesson_language)
