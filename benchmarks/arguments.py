"""What the benchmark scripts share on their command lines: a number option kept in its range,
refused in one line by argparse otherwise (no traceback, no run on a value it cannot take)."""

from __future__ import annotations

import argparse


def number_in(low: float, high: float, kind=int):
    """An argparse ``type`` reading a ``kind`` (int or float) from ``low`` to ``high``."""
    word = "whole number" if kind is int else "number"

    def read(value: str):
        try:
            number = kind(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{value[:40]!r} is not a {word}") from None
        if not low <= number <= high:
            raise argparse.ArgumentTypeError(f"{number} is outside {low}..{high}")
        return number

    return read
