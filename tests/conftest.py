"""Shared pytest hooks."""

from __future__ import annotations


def pytest_terminal_summary(terminalreporter):
    """Report how long the tutorials took to execute (the tutorials issue asks for the figure)."""
    try:
        from test_notebooks import TIMES
    except ImportError:  # the notebook tests were not collected
        return
    if TIMES:
        total = sum(TIMES.values())
        per = ", ".join(f"{name} {seconds:.1f}s" for name, seconds in sorted(TIMES.items()))
        terminalreporter.write_line(f"tutorials executed in {total:.1f} s: {per}")
