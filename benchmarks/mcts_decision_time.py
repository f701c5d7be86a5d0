"""Seconds per decision of the mcts bot against three greedy bots (4 players).

    .venv/bin/python benchmarks/mcts_decision_time.py [--games 4] [--iterations N]
        [--time-limit S] [--opponents greedy|uct]

Game g is set up with seed 500 + g; the mcts bot sits in seat 0 and every decision it takes with
more than one legal option is timed (greedy ranking of the root, search and choice). Without
options the bot is ``make_bot("mcts")``, the default the Sandbox and the tournament use; with
``--iterations`` alone there is no time limit, so the figures show what that budget costs here.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nefertiti_core.engine.state import new_game  # noqa: E402
from nefertiti_core.play.bots import make_bot  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--iterations", type=int)
    parser.add_argument("--time-limit", type=float)
    parser.add_argument("--opponents", choices=("greedy", "uct"))
    args = parser.parse_args(argv)
    given = {"iterations": args.iterations, "time_limit": args.time_limit}
    options = {k: v for k, v in given.items() if v is not None}
    if args.opponents:
        options["opponents"] = args.opponents
    times, simulations = [], []
    for g in range(args.games):
        state = new_game(players=4, seed=500 + g)
        bots = [make_bot("mcts", seed=g, **options)]
        bots += [make_bot("greedy", seed=g * 10 + i) for i in range(3)]
        while not state.is_over:
            bot = bots[state.decider]
            if bot.kind == "mcts" and len(state.legal_options()) > 1:
                start = time.perf_counter()
                option = bot.choose(state)
                times.append(time.perf_counter() - start)
                simulations.append(bot.last_simulations)
            else:
                option = bot.choose(state)
            state.apply(option)
    times.sort()
    report = {
        "options": options,
        "decisions": len(times),
        "median_s": round(statistics.median(times), 3),
        "p90_s": round(times[int(0.9 * (len(times) - 1))], 3),
        "max_s": round(times[-1], 3),
        "median_simulations": statistics.median(simulations),
        "load_average": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
