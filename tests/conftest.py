"""Shared pytest hooks.

``make test`` runs the tests on three processes (pytest-xdist, ``--dist loadfile``): the tests of
one module stay together in one process (their module-scoped servers, kernels and browsers are
started once, and a journey's steps run in order); the long every-exercise journey comes in three
modules, one per language (each notebook answered in one of them), so that the processes share
it.
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


#: The modules that take longest (about a minute or more each on the 2-core machine), longest
#: first. They are handed out first (the Makefile's --no-loadscope-reorder keeps this order), so
#: that the processes end together instead of one working alone through a long module at the
#: end (docs/benchmarks.md, "Test suite").
LONGEST_FIRST = (
    "test_lessons_in_german_and_chinese",  # the first-game path: 8 JupyterLab pages
    "test_voila_in_german_and_chinese",  # and 8 Voilà pages
    "test_every_exercise_in_english",
    "test_every_exercise_in_german",
    "test_every_exercise_in_chinese",
    "test_cli_fuzz",
    "test_classroom_lesson",
    "test_classroom",
    "test_sandbox",
    "test_classroom_polls",
    "test_projector_view",
    "test_accessibility",
    "test_restart",
    "test_classroom_postgresql",
    "test_serve_security",
    "test_notebooks",
    "test_serve_safety",
    "test_classroom_load_benchmark",
    "test_polls_browser",
    "test_practice_in_sandbox",
    "test_bots_in_sandbox",
    "test_first_game_in_sandbox",
    "test_keyboard_board",
    "test_board_fits",
    "test_table_boards",
    "test_odds_in_jupyterlab",
    "test_rules_reference_in_browser",
    "test_jupyterlab",
    "test_classroom_chapters",
    "test_class_record",
    "test_classroom_storage",
    "test_classroom_poll_controls",
    "test_classroom_rejoin",
    "test_classroom_projector",
    "test_classroom_boards",
    "test_classroom_reconnect",
    "test_phone_layout",
    "test_practice_fair_in_sandbox",
    "test_voila",
    "test_practice_fairness",
    "test_odds_cluster",
    "test_front_page",
    "test_layers",
    "test_feedback_on_a_phone",
)


def pytest_collection_modifyitems(items):
    """The longest modules first (:data:`LONGEST_FIRST`), the rest in their usual order; a
    module's tests keep theirs."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.module.__name__, len(rank)))


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
