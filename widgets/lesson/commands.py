"""A command's answer on a notebook's page, in the lesson language.

Notebook 15 shows what ``nefertiti explain`` and ``nefertiti replay`` print. The commands speak
``--lang``, which defaults to ``NEFERTITI_LANG``; :func:`output_of` runs them with that variable
set to the lesson language (``use_language``, the environment, the notebook's folder:
:mod:`widgets.lesson.language`), so the three notebooks keep the same code and each shows its own
language. A ``--lang`` in the arguments still wins.
"""

from __future__ import annotations

import os

from nefertiti_core import cli
from widgets.lesson.language import in_lesson_language


@in_lesson_language
def output_of(argv: list[str], lang: str | None = None) -> str:
    """What ``nefertiti <argv>`` prints, as text, in the lesson language (see the module's doc)."""
    before = os.environ.get(cli.LANG_VARIABLE)
    os.environ[cli.LANG_VARIABLE] = lang
    try:
        return cli.output_of(list(argv))
    finally:
        if before is None:
            del os.environ[cli.LANG_VARIABLE]
        else:
            os.environ[cli.LANG_VARIABLE] = before
