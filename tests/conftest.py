"""Shared pytest hooks."""

from __future__ import annotations


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
