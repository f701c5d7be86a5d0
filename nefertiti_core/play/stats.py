"""Counting results honestly: proportions with their 95% intervals (tournaments, odds)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (95% by default); (0, 1) when n is 0.

    ``successes`` may be fractional (a win shared by k players counts 1/k, R9.2)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))
