"""Shared pytest hooks.

``make test`` runs the tests on two processes (pytest-xdist, ``--dist loadfile``): the tests of
one module stay together in one process (their module-scoped servers, kernels and browsers are
started once, and a journey's steps run in order); the long every-exercise journey comes in two
modules, one per half of the notebooks, so that the two processes share it.
"""

from __future__ import annotations

import json
import os
import tempfile
import uuid

from pg import postgres_url  # noqa: F401  (a private PostgreSQL server for any test; tests/pg.py)

#: Set to the NEFERTITI_HOME this run made (so that each worker process makes its own).
_OURS = "NEFERTITI_TESTS_HOME"


def pytest_configure(config):
    """The run's saved games (the served Sandbox autosaves every game, widgets/server/store.py) and
    learner records go to a temporary folder, never into the user's ``~/.nefertiti``; a test
    that needs its own sets ``NEFERTITI_HOME`` itself."""
    # one id for the run, the same in pytest-xdist's worker processes (they inherit it)
    os.environ.setdefault("NEFERTITI_TEST_RUN", uuid.uuid4().hex)
    worker = getattr(config, "workerinput", {}).get("workerid", "")
    home = os.environ.get("NEFERTITI_HOME")
    if not home or (worker and home == os.environ.get(_OURS)):
        home = tempfile.mkdtemp(prefix=f"nefertiti-tests-{worker or 'main'}-")
        os.environ["NEFERTITI_HOME"] = os.environ[_OURS] = home


def pytest_terminal_summary(terminalreporter):
    """Report how long the tutorials took to execute (the tutorials issue asks for the figure),
    from the file the notebook tests wrote (in whichever process ran them)."""
    try:
        from test_notebooks import times_file
    except ImportError:  # the notebook tests were not collected
        return
    path = times_file()
    if not path.exists():
        return
    data = json.loads(path.read_text())
    path.unlink()
    wall, times = data["wall"], data["times"]
    per = ", ".join(f"{name} {seconds:.1f}s" for name, seconds in sorted(times.items()))
    terminalreporter.write_line(
        f"tutorials executed in {wall['seconds']:.1f} s "
        f"({wall['workers']} kernels at a time; each notebook: {per})"
    )
