"""A command's answer on a notebook's page, in the lesson language.

Notebook 15 shows what ``nefertiti explain`` and ``nefertiti replay`` print. :func:`output_of`
gives the command the lesson language (``use_language``, the environment, the notebook's folder:
:mod:`widgets.lesson.language`) as its ``--lang`` default, so the three notebooks keep the same
code and each shows its own language. A ``--lang`` in the arguments still wins. The process's
environment is left alone: another session's thread reading ``NEFERTITI_LANG`` meanwhile must
not see this notebook's language.
"""

from __future__ import annotations

from nefertiti_core import cli
from widgets.lesson.language import in_lesson_language


@in_lesson_language
def output_of(argv: list[str], lang: str | None = None) -> str:
    """What ``nefertiti <argv>`` prints, as text, in the lesson language (see the module's doc)."""
    return cli.output_of(list(argv), lang=lang)
