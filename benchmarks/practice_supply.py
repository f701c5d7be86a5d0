"""How many practice exercises the self-play generator gives, per kind, and how long it takes.

    .venv/bin/python benchmarks/practice_supply.py [--games 10] [--seed 0]

Plays ``--games`` self-play games (seeds ``--seed`` .. ``--seed + games - 1``, the bots of
``nefertiti_core.files.practice``) and prints, per theme and exercise kind, how many exercises were
kept, the spread of difficulties, the distinct rule IDs tested, and the wall time per game (the
games and the exercises' checks and filters together). Load average printed with it: the figures
depend on what else runs on the machine.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nefertiti_core.cli import number_in  # noqa: E402
from nefertiti_core.files import practice as P  # noqa: E402
from nefertiti_core.teaching.coverage import rule_key  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=number_in(1, 1000), default=10, help="self-play games (1-1000)"
    )
    parser.add_argument("--seed", type=number_in(0, 10**9), default=0, help="the first game's seed")
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    times = []
    items: list[P.Generated] = []
    start = time.perf_counter()
    for seed in seeds:
        t = time.perf_counter()
        items += P.generate(seed)
        times.append(time.perf_counter() - t)
    total = time.perf_counter() - start
    by_kind = Counter((g.theme, g.kind) for g in items)
    print(f"{len(items)} exercises from {args.games} games (seeds {seeds.start}..{seeds.stop - 1})")
    print(f"{'theme':<16} {'kind':<16} {'count':>5}  difficulties")
    for theme in P.THEMES:
        for (t, kind), count in sorted(by_kind.items()):
            if t != theme:
                continue
            spread = Counter(g.difficulty for g in items if (g.theme, g.kind) == (t, kind))
            levels = " ".join(f"{d}:{spread[d]}" for d in sorted(spread))
            print(f"{theme:<16} {kind:<16} {count:>5}  {levels}")
    spread = Counter(g.difficulty for g in items)
    print("difficulty, all:", " ".join(f"{d}:{spread[d]}" for d in sorted(spread)))
    rules = sorted({r for g in items for r in g.rule_ids}, key=rule_key)
    print(f"rule IDs tested ({len(rules)}):", " ".join(rules))
    per_game = sorted(times)
    print(
        f"time: {total:.1f} s in all, per game median {per_game[len(per_game) // 2]:.2f} s, "
        f"max {per_game[-1]:.2f} s; {len(items) / total:.1f} exercises/s"
    )
    print("load average (1, 5, 15 min):", " ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
