"""A file's error or warning that can be said in any of the catalogs' languages.

In the engine (below ``files``) because the engine's own checks of a position
(:func:`.invariants.violations`) are a file's warnings too.

What is wrong with a position file is first worded in English (``str(error)``, the command line's
default, the logs and many tests rely on that text), but a German or Chinese teacher reads it in
their language. :class:`Said` is that English text, a ``str``, which also keeps its catalog key and
named parameters (``messages/<lang>/file_errors.json``), so :func:`in_lang` can word it again in
another language. Parameters quoted from the file (a field's name, a value, a field path) stay as
written: they are the file's own syntax. A parameter that is itself a :class:`Said` (the kind of
value expected, a "did you mean" hint) is worded in the same language.
"""

from __future__ import annotations

from .said_text import Said, Worded, _said, in_lang  # noqa: F401 (their home; old pickles name _said here)


def refused(state, error) -> str:
    """Why the file's step was refused (``error``, raised by the engine on ``state``, which the
    refusal left unchanged), worded in every language when the engine can say why in words; else
    the engine's English message."""
    from .errors import IllegalOptionError, NotationError
    from .explain_illegal import why_illegal
    from .i18n import DEFAULT_LANGUAGE, LANGUAGES

    if isinstance(error, NotationError) and isinstance(error.args[0], (Said, Worded)):
        return error.args[0]  # a mistyped move, in the catalogue's words
    option = getattr(error, "option", None)
    if type(error) is not IllegalOptionError or option is None:  # not a game over, a notation
        return str(error)
    try:
        texts = {lang: why_illegal(state, option, lang)[0] for lang in LANGUAGES}
    except Exception:  # an option the explainer cannot name: the English message as it is
        return str(error)
    texts[DEFAULT_LANGUAGE] = str(error)  # the English exactly as the engine said it
    return Worded(texts)


def said(key: str, **params) -> Said:
    """The message ``key`` (``file_errors.json``) with its named parameters."""
    return Said(key, **params)


def file_limit(error) -> Said:
    """Why a file was not read at all (a :class:`.limits.FileLimitError`) as a catalogue message;
    its counts grouped as each language writes them."""
    params = {name: grouped(v) if isinstance(v, int) else v for name, v in error.params.items()}
    return Said(error.key, **params)


def too_large(size: int, most: int) -> Said:
    """Why a file of ``size`` bytes is refused, when a file has at most ``most``."""
    return Said("file.limit.too_large", size=grouped(size), most=grouped(most))


def grouped(count: int) -> Worded:
    """``count`` with its thousands grouped as each language writes them (1,024 / 1.024)."""
    text = f"{count:,}"
    return Worded({"en": text, "de": text.replace(",", "."), "zh": text})
