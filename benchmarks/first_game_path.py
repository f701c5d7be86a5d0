"""What the first-game path (tutorials 00-03) asks of a learner: words to read and steps to take.

    .venv/bin/python benchmarks/first_game_path.py [--tutorials FOLDER]

Counts, per notebook and in total, the words a learner must read (the Markdown prose outside
folded sections, each demonstration's account as the engine narrates it, each exercise's question
and its feedback for a right answer, the summary tables) and the steps (one Run All, each
demonstration button, each exercise answered, the board actions the prose asks for). The
counting lives in ``tests/helpers_reading.py``, which ``tests/test_first_game_budget.py`` uses to
hold the path within its budget.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from helpers_reading import STEP_BUDGET, TUTORIALS, WORD_BUDGET, measure_path  # noqa: E402

WORDS = ("prose", "demos", "exercises", "tables")
STEPS = ("run", "demos", "exercises", "board")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tutorials", type=Path, default=TUTORIALS, help="another copy's notebooks"
    )
    loads = measure_path(parser.parse_args().tutorials)
    head = f"{'notebook':<22}" + "".join(f"{w:>10}" for w in WORDS) + f"{'words':>8} |"
    head += "".join(f"{s:>10}" for s in STEPS) + f"{'steps':>7}"
    print(head)
    for load in loads:
        row = f"{load.name:<22}" + "".join(f"{load.words[w]:>10.0f}" for w in WORDS)
        row += f"{load.total_words:>8.0f} |" + "".join(f"{load.steps[s]:>10}" for s in STEPS)
        print(row + f"{load.total_steps:>7}")
    total = f"{'total':<22}" + "".join(f"{sum(x.words[w] for x in loads):>10.0f}" for w in WORDS)
    total += f"{sum(x.total_words for x in loads):>8.0f} |"
    total += "".join(f"{sum(x.steps[s] for x in loads):>10}" for s in STEPS)
    print(total + f"{sum(x.total_steps for x in loads):>7}")
    print(f"budget: {WORD_BUDGET} words, {STEP_BUDGET} steps")


if __name__ == "__main__":
    main()
