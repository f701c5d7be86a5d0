"""Shared pytest hooks."""

from __future__ import annotations

import os
import tempfile

from pg import postgres_url  # noqa: F401  (a private PostgreSQL server for any test; tests/pg.py)


def pytest_configure(config):
    """The run's saved games (the served Sandbox autosaves every game, widgets/server/store.py) and
    learner records go to a temporary folder, never into the user's ``~/.nefertiti``; a test
    that needs its own sets ``NEFERTITI_HOME`` itself."""
    if not os.environ.get("NEFERTITI_HOME"):
        os.environ["NEFERTITI_HOME"] = tempfile.mkdtemp(prefix="nefertiti-tests-")


def pytest_terminal_summary(terminalreporter):
    """Report how long the tutorials took to execute (the tutorials issue asks for the figure)."""
    try:
        from test_notebooks import TIMES, WALL
    except ImportError:  # the notebook tests were not collected
        return
    if TIMES and WALL:
        per = ", ".join(f"{name} {seconds:.1f}s" for name, seconds in sorted(TIMES.items()))
        terminalreporter.write_line(
            f"tutorials executed in {WALL['seconds']:.1f} s "
            f"({WALL['workers']} kernels at a time; each notebook: {per})"
        )
