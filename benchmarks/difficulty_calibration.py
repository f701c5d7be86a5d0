"""How fast the practice difficulty calibration finds how hard each kind of question really is.

    .venv/bin/python benchmarks/difficulty_calibration.py [--games 3] [--learners 200]
        [--answers 25] [--seed 1] [--spread 1.0]

Simulated learners practise on the generated supply of ``--games`` self-play games (seeds
0..), each with the real scheduler (``nefertiti_core.files.practice.Scheduler``, in memory) and
one calibration shared by all (``nefertiti_core.files.calibration.Calibration``), as the
learners of one server would. Every kind of question (theme/kind@formula level) has a hidden
**true difficulty**: its formula's prior rating plus a seeded normal offset of standard
deviation ``--spread`` logits (1.0: a kind is often a level or two off its formula). A learner of
hidden ability ``a`` (normal, mean 0, sd 1) answers a kind of true difficulty ``t`` right with
the chance ``1 / (1 + exp(t - a))``, the model's own; each of ``--learners`` learners gives
``--answers`` answers, one learner after another.

Printed, after 0 answers and at checkpoints: the Spearman rank correlation of the kinds'
levels (calibrated once a kind has 10 answers, else the formula's) and of their ratings with
the true difficulty, the share of kinds calibrated, of kinds at their true level (the true
difficulty mapped to 1..5 by the same rule) and within one level, the levels used, and how
many answers a kind whose formula was off by half a level or more needed until its rating
stayed within half a level of the truth. Each kind
counts once (not weighted by how often it is asked). Last, the share of right answers in each
learner's first and second half of answers (``--no-preference``: with a scheduler that does not
prefer exercises by the learner's chance, for comparison). Deterministic by ``--seed``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nefertiti_core.cli import number_in  # noqa: E402
from nefertiti_core.files import calibration as C  # noqa: E402
from nefertiti_core.files import practice as P  # noqa: E402

CHECKPOINTS = (0, 100, 250, 500, 1000, 2000, 3000, 5000, 10000)


def ranks(values: list[float]) -> list[float]:
    """Ranks 1..n, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: list[float], ys: list[float]) -> float:
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    sy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return cov / (sx * sy) if sx and sy else float("nan")


class Unpreferring(P.Scheduler):
    """The scheduler as it was before the calibration: every exercise fits."""

    def fit(self, g) -> int:
        return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=number_in(1, 20), default=3)
    parser.add_argument("--learners", type=number_in(1, 5000), default=200)
    parser.add_argument("--answers", type=number_in(1, 500), default=25)
    parser.add_argument("--seed", type=number_in(0, 10**6), default=1)
    parser.add_argument("--spread", type=number_in(0.0, 3.0, float), default=1.0)
    parser.add_argument(
        "--no-preference",
        action="store_true",
        help="the scheduler without its preference for a 70-85 %% chance (for comparison)",
    )
    args = parser.parse_args(argv)

    started = time.perf_counter()
    supply = P.supply(range(args.games))
    kinds: dict[str, int] = {}
    for g in supply:
        kinds[C.kind_key(g)] = g.difficulty
    rng = random.Random(args.seed)
    truth = {k: C.prior_rating(level) + rng.gauss(0, args.spread) for k, level in kinds.items()}
    true_level = {k: C.level_of(t) for k, t in truth.items()}
    print(
        f"{len(supply)} exercises of {args.games} games, {len(kinds)} kinds; {args.learners} "
        f"learners x {args.answers} answers; true difficulty = prior + N(0, {args.spread}); "
        f"seed {args.seed}"
    )
    formula = [kinds[k] for k in sorted(kinds)]
    at_formula = sum(kinds[k] == true_level[k] for k in kinds) / len(kinds)
    print(
        f"formula levels vs truth: {at_formula:.0%} at the true level, true levels used "
        f"{dict(sorted(Counter(true_level.values()).items()))}, formula levels used "
        f"{dict(sorted(Counter(formula).items()))}"
    )

    cal = C.Calibration()
    keys = sorted(kinds)
    settled_at: dict[str, int | None] = dict.fromkeys(keys)
    answers = 0
    right_answers = [0, 0]  # in the first and the second half of each learner's answers
    rows = []

    def checkpoint() -> None:
        table = cal.kinds()
        levels, ratings, calibrated = [], [], 0
        for k in keys:
            r = table.get(k, C.Rating.prior(kinds[k]))
            ok = r.answers >= C.MIN_ANSWERS
            calibrated += ok
            levels.append(C.level_of(r.value) if ok else kinds[k])
            ratings.append(r.value)
        t = [truth[k] for k in keys]
        exact = sum(lv == true_level[k] for lv, k in zip(levels, keys, strict=True)) / len(keys)
        near = sum(abs(lv - true_level[k]) <= 1 for lv, k in zip(levels, keys, strict=True))
        rows.append(
            (
                answers,
                spearman(levels, t),
                spearman(ratings, t),
                calibrated / len(keys),
                exact,
                near / len(keys),
                dict(sorted(Counter(levels).items())),
            )
        )

    checkpoint()
    marks = [c for c in CHECKPOINTS if c > 0]
    for _ in range(args.learners):
        ability = rng.gauss(0, 1)
        s = (Unpreferring if args.no_preference else P.Scheduler)(
            supply, persist=False, calibration=cal, refill_below=0
        )
        for n in range(args.answers):
            g = s.next()
            right = rng.random() < C.expected(ability, truth[C.kind_key(g)])
            s.answered(g, right)
            right_answers[n >= args.answers // 2] += right
            answers += 1
            for k in keys:  # when each kind's rating came (and stays) within half a level
                r = cal.rating(k, kinds[k])
                close = abs(r.value - truth[k]) < C.STEP / 2
                if not close:
                    settled_at[k] = None
                elif settled_at[k] is None and r.answers:
                    settled_at[k] = r.answers
            if marks and answers == marks[0]:
                marks.pop(0)
                checkpoint()
    if not rows or rows[-1][0] != answers:
        checkpoint()

    print()
    print(
        "| answers | rank corr. levels | rank corr. ratings | kinds calibrated "
        "| at true level | within 1 | levels used |"
    )
    print("|---:|---:|---:|---:|---:|---:|---|")
    for n, rl, rr, cald, exact, near, used in rows:
        print(f"| {n} | {rl:.2f} | {rr:.2f} | {cald:.0%} | {exact:.0%} | {near:.0%} | {used} |")
    table = cal.kinds()
    off = [k for k in keys if abs(C.prior_rating(kinds[k]) - truth[k]) >= C.STEP / 2]
    needed = [settled_at[k] for k in off if settled_at[k] is not None]
    asked = [table[k].answers for k in keys if k in table]
    print()
    print(
        f"answers per kind at the end: median {statistics.median(asked) if asked else 0}, "
        f"min {min(asked, default=0)}, max {max(asked, default=0)}; kinds never asked: "
        f"{len(keys) - len(asked)}"
    )
    if needed:
        q = statistics.quantiles(needed, n=4) if len(needed) > 1 else [needed[0]] * 3
        print(
            f"answers a kind needed until its rating stayed within half a level of the truth: "
            f"median {statistics.median(needed)}, quartiles {q[0]:.0f}-{q[2]:.0f} "
            f"({len(needed)} of the {len(off)} kinds whose formula was off by half a level "
            f"or more got there)"
        )
    half = args.learners * (args.answers // 2)
    print(
        f"learners' right answers: {right_answers[0] / half:.0%} in their first "
        f"{args.answers // 2} answers, "
        f"{right_answers[1] / (answers - half):.0%} in the rest (the scheduler aims at "
        f"{C.TARGET[0]:.0%}-{C.TARGET[1]:.0%} among the rules due)"
    )
    print(f"{time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
