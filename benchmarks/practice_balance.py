"""How fair the generated practice is: per kind of question, which answer is right how often,
the difficulties, and the texts that name a hidden card or leave a forced step unsaid.

    .venv/bin/python benchmarks/practice_balance.py [--games 10] [--seed 0]

Generates the practice supply of ``--games`` self-play games (seeds ``--seed`` ..; the default,
seeds 0-9, is the supply the tests hold to the limits) and prints, per kind of question (theme
and exercise kind), the answer classes of
``nefertiti_core.files.practice_balance.answer_class`` with their shares (no share may pass
60 %), the difficulty levels, then the number of exercises whose texts name a card drawn from
the hidden deck (they change when the deck is imagined in another order: must be 0) and the
"who decides next?" questions whose option leads through forced steps, with how many of them
say so.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nefertiti_core.cli import number_in  # noqa: E402
from nefertiti_core.files import practice as P  # noqa: E402
from nefertiti_core.files import practice_balance as B  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=number_in(1, 1000), default=10, help="games (1-1000)")
    parser.add_argument("--seed", type=number_in(0, 10**9), default=0, help="the first seed")
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    items = P.supply(seeds)
    print(f"{len(items)} exercises from {args.games} games (seeds {seeds.start}..{seeds.stop - 1})")
    answers = B.balance(items)
    worst = 0.0
    print(f"{'kind':<34} {'n':>4} {'top':>5}  answers (share)  | difficulties")
    for kind in sorted(answers):
        counts = answers[kind]
        total = sum(counts.values())
        top = max(counts.values()) / total
        worst = max(worst, top)
        shown = ", ".join(f"{a} {c} ({c / total:.0%})" for a, c in counts.most_common(6))
        more = len(counts) - 6
        if more > 0:
            shown += f", +{more} more"
        levels = Counter(g.difficulty for g in items if B.kind_of(g) == kind)
        spread = " ".join(f"{d}:{levels[d]}" for d in sorted(levels))
        flag = " !" if top > B.MAX_SHARE else ""
        print(f"{kind:<34} {total:>4} {top:>5.0%}{flag}  {shown}  | {spread}")
    levels = Counter(g.difficulty for g in items)
    print("difficulty, all:", " ".join(f"{d}:{levels.get(d, 0)}" for d in range(1, 6)))
    print(f"largest share of one answer in a kind: {worst:.0%} (limit {B.MAX_SHARE:.0%})")
    hidden = [g.key for g in items if B.names_hidden_card(g.exercise)]
    print(f"exercises whose texts name a hidden card: {len(hidden)} of {len(items)}")
    for key in hidden[:5]:
        print("   ", key)
    who = [g for g in items if g.kind == "who_decides"]
    forced = [g for g in who if B.forced_steps(g.exercise)]
    said = sum(1 for g in forced if B.states_forced_steps(g.exercise))
    print(
        f"who-decides questions through forced steps: {len(forced)} of {len(who)}, "
        f"stating them: {said}"
    )


if __name__ == "__main__":
    main()
