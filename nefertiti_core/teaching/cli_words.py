"""The command line's own words in the reader's language: ``--help``, usage errors and the
commands' own messages.

A German or Chinese teacher reads ``nefertiti serve --help`` too (notebook 15 shows it on its
page). Two kinds of words make a help text or a usage error:

- the tutor's: each command's summary and description and each option's help. The code writes
  them in English; the catalogue (``messages/<lang>/cli.json``) has them under
  ``cli.<command>.help``, ``cli.<command>.description`` and ``cli.<command>.<option's dest>``,
  and :class:`WordedFormatter` and :func:`described` give the reader's words when a help is
  printed. The
  English catalogue says what the code says (``tests/test_cli_words.py`` compares them), so a
  changed English help fails a test until it is translated.
- argparse's: "usage:", "options", "show this help message and exit", its error sentences.
  argparse words them through ``_()``, a name it looks up in its own module when it needs a
  word. :func:`speaking` points that name, once, at :func:`_argparse_word`, which gives the
  catalogue's word in the language of the command running in this context (a context
  variable); outside a command, in English, or for a sentence the catalogue lacks, it is
  gettext's as before, so other programs' parsers in the same process are not changed.
- the commands' messages: an option's value refused by its argparse ``type`` (``cli.value.*``)
  and a command's error lines (``cli.run.*``). :func:`said` words them in the language of the
  command running in this context: ``nefertiti_core.cli.main`` runs each command inside
  :func:`speaking` too, in its ``--lang`` (one without it: the help's language).
"""

from __future__ import annotations

import argparse
import contextlib
import contextvars
import gettext

from ..engine.i18n import DEFAULT_LANGUAGE, LANGUAGES, catalog, language_from_environment

#: The language of the command running in this context (:func:`speaking`).
_SPEAKING = contextvars.ContextVar("nefertiti_cli_language", default=DEFAULT_LANGUAGE)
#: The values the catalogue's ``{name}`` placeholders name there (the bot kinds).
_VALUES: contextvars.ContextVar[dict | None] = contextvars.ContextVar(
    "nefertiti_cli_values", default=None
)
#: argparse's English words and their catalogue keys.
ARGPARSE_WORDS = {
    "usage: ": "cli.argparse.usage",
    "options": "cli.argparse.options",
    "positional arguments": "cli.argparse.positional",
    "show this help message and exit": "cli.argparse.help",
    "the following arguments are required: %s": "cli.argparse.required",
    "unrecognized arguments: %s": "cli.argparse.unrecognized",
    "invalid choice: %(value)r (choose from %(choices)s)": "cli.argparse.invalid_choice",
    "argument %(argument_name)s: %(message)s": "cli.argparse.argument",
    "expected one argument": "cli.argparse.one_argument",
    "invalid %(type)s value: %(value)r": "cli.argparse.invalid_value",
    "ambiguous option: %(option)s could match %(matches)s": "cli.argparse.ambiguous",
}


def _argparse_word(text: str) -> str:
    """argparse's ``_()``: the catalogue's word for ``text`` in the running command's language."""
    lang = _SPEAKING.get()
    key = ARGPARSE_WORDS.get(text)
    if lang == DEFAULT_LANGUAGE or key is None:
        return gettext.gettext(text)
    return catalog(lang).get(key) or gettext.gettext(text)


@contextlib.contextmanager
def speaking(lang: str, **values: str):
    """Within this block (building, parsing, printing the help), the command line speaks
    ``lang`` in this context only; ``values`` fill the catalogue's placeholders."""
    argparse._ = _argparse_word  # argparse looks the name up at each call; see the docstring
    token = _SPEAKING.set(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
    filled = _VALUES.set(values)
    try:
        yield
    finally:
        _SPEAKING.reset(token)
        _VALUES.reset(filled)


def help_language(argv: list[str], default: str | None) -> str:
    """The language of a command's help and usage errors: its ``--lang`` when ``argv`` names a
    language, else ``default`` (a notebook's lesson language), else ``NEFERTITI_LANG``, else
    English. A wrong code is not refused here: parsing says so, in English."""
    for index, word in enumerate(argv):
        value = word.split("=", 1)[1] if word.startswith("--lang=") else None
        if word == "--lang" and index + 1 < len(argv):
            value = argv[index + 1]
        if value in LANGUAGES:
            return value
    if default in LANGUAGES:
        return default
    try:
        return language_from_environment() or DEFAULT_LANGUAGE
    except ValueError:  # a wrong NEFERTITI_LANG: the command says so when it reads it
        return DEFAULT_LANGUAGE


def current_language() -> str:
    """The language of the command running in this context (English outside one)."""
    return _SPEAKING.get()


class WordedFormatter(argparse.HelpFormatter):
    """argparse's help formatter, with each option's and each command's help in the running
    command's language: the catalogue's ``cli.<command>.<option's dest>`` (``cli.<command>.help``
    for a command in the list of commands), the code's English when there is no such key."""

    def _get_help_string(self, action) -> str | None:
        lang, text = _SPEAKING.get(), action.help
        if lang == DEFAULT_LANGUAGE or not text:
            return text
        command = self._prog.split()[1:]  # "nefertiti serve" -> the options of "serve"
        if command:
            key = None if action.dest == "help" else f"cli.{command[0]}.{action.dest}"
        else:  # the list of commands: each one's summary
            key = f"cli.{action.dest}.help"
        return _filled(catalog(lang).get(key or "", text))


def described(prog: str, text: str | None) -> str | None:
    """The description of ``prog`` ("nefertiti" or "nefertiti <command>") in the running
    command's language."""
    lang, command = _SPEAKING.get(), prog.split()[1:]
    if lang == DEFAULT_LANGUAGE or not text:
        return text
    key = f"cli.{command[0]}.description" if command else "cli.description"
    return _filled(catalog(lang).get(key, text))


def _filled(text: str) -> str:
    values = _VALUES.get()
    return text.format(**values) if "{" in text and values else text


def headed(text: str, lang: str) -> str:
    """A help text whose section headings ("options:") end with the colon ``lang`` writes:
    argparse appends an ASCII one, and Chinese takes "："."""
    colon = catalog(lang).get("file.sep", ": ").strip()
    if colon == ":":
        return text
    for key in ("cli.argparse.options", "cli.argparse.positional"):
        title = catalog(lang)[key]
        text = text.replace(f"\n{title}:\n", f"\n{title}{colon}\n")
    return text


def said(key: str, **values) -> str:
    """The catalogue's message ``key`` (``cli.json``) in the running command's language, filled
    in with ``values``: the words of the argparse ``type`` functions, which run while a command
    parses, and of a command's own error lines (:func:`speaking` holds its language)."""
    from ..engine.i18n import tr

    return tr(_SPEAKING.get(), key, **values)


def listed(items) -> str:
    """``items`` as a list in the running command's language ("a, b"; Chinese "a、b")."""
    return said("status.list.sep").join(map(str, items))


def noted(prog: str, message: str) -> str:
    """A command's line that is not an error ("nefertiti rules: …"), in the running command's
    language (its colon: Chinese writes "：")."""
    return said("cli.note", prog=prog, message=message)


def said_error(lang: str, prog: str, message: str, see_help: bool = False) -> str:
    """A usage or command error's one line: "nefertiti explain: error: …" in ``lang``."""
    from ..engine.i18n import tr

    return tr(lang, "cli.see_help" if see_help else "cli.error", prog=prog, message=message)
