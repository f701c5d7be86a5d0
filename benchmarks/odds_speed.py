"""Playouts per second of ``nefertiti_core.play.odds`` with 1 and 2 local workers (and Dask).

    .venv/bin/python benchmarks/odds_speed.py [--playouts 600] [--bots random] [--dask]

From the start of a 4-player first game; each run reports playouts per second (wall time, the
process pool's start included) and checks that every run counted the same playouts the same way.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nefertiti_core import new_game  # noqa: E402
from nefertiti_core.play.odds import odds  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=600)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dask", action="store_true", help="also a local in-process Dask client")
    args = parser.parse_args()
    state = new_game(4, 0)
    rows = []
    reports = []
    runs = [("local", 1), ("processes", 2)]
    if args.dask:
        runs.append(("dask", 2))
    for backend, workers in runs:
        start = time.perf_counter()
        if backend == "dask":
            import distributed

            with distributed.Client(
                processes=True, n_workers=workers, threads_per_worker=1, dashboard_address=None
            ) as client:
                start = time.perf_counter()  # the cluster's start is not the odds' cost
                report = odds(state, args.playouts, args.bots, args.seed, cluster=client)
        else:
            report = odds(state, args.playouts, args.bots, args.seed, workers=workers)
        wall = time.perf_counter() - start
        reports.append(report)
        rows.append(
            {
                "backend": report.backend,
                "workers": report.workers,
                "bots": args.bots,
                "playouts": report.playouts,
                "seconds": round(wall, 2),
                "playouts_per_second": round(report.playouts / wall, 1),
                "decisions_per_second": round(report.decisions / wall),
            }
        )
    same = all(r.same_results(reports[0]) for r in reports[1:])
    for row in rows:
        print(json.dumps(row))
    print(json.dumps({"same_results_for_every_run": same}))


if __name__ == "__main__":
    main()
