"""The look-ahead's cost in instructions (valgrind's callgrind): random and greedy decisions and
mcts simulations, for this checkout and an earlier commit, in one run.

    .venv/bin/python benchmarks/lookahead_instructions.py [--before 922bee4] [--after HEAD]
        [--games 6] [--mcts-iterations 60]

The companion of ``lookahead_speed.py``: CPU times on this shared machine move by ±10% from one
run to the next with the other tenants' load, instruction counts repeat to about 0.05%, so they
tell a small speed-up (or slow-down) from the noise. They are not time (a cache miss costs more
than an instruction), so the look-ahead's goals stay measured in time by ``lookahead_speed.py``.

Each figure is two child processes under ``valgrind --tool=callgrind`` with ``PYTHONHASHSEED=0``:
one does the work, the other the same imports and set-up and no work; the difference divided by
the decisions (or simulations) made. The work is that of ``lookahead_speed.py``, after the same
untimed warm-up in both children: decisions of 4-player games of random bots (seeds
0..20*games-1) and of greedy bots (seeds 0..games-1), each the bot's ``choose`` and the engine's
``apply_unchecked``; mcts simulations (``make_bot("mcts", iterations=N)``, no time limit) on
the same 4 positions of seeded greedy games. Needs valgrind (Debian: ``apt-get install
valgrind``); about 2 minutes against 922bee4, 5 against 9c6c70f. ``--before`` is any commit:
9c6c70f is the code before the incremental look-ahead, 922bee4 the code after its main steps.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lookahead_speed as speed  # noqa: E402 (the code unpacked, the same positions)

ROOT = speed.ROOT
KINDS = ("random", "greedy", "mcts")


# --- the work (a child process whose sys.path starts with the code measured) -----------------
def work(kind: str, units: int, games: int, iterations: int) -> int:
    """Decisions (random, greedy) or simulations (mcts) made; none with ``units`` 0, after the
    same imports, set-up and warm-up (a game of the same bots, or a search on another position:
    the one-time work of a process, loading extension modules and filling the chance tables, is
    in both runs and so left out, as ``lookahead_speed.py`` leaves it out of its figures)."""
    make_bot = speed._module("play.bots").make_bot
    new_game = speed._module("engine.state").new_game
    if kind == "mcts":
        speed._module("play.openspiel")  # registers the mcts kind from the code measured
        make_bot("mcts", seed=99, iterations=iterations, time_limit=None).choose(
            speed.position(499, 20)
        )
        positions = [speed.position(500 + g, 15 + 7 * g) for g in range(4)]
        if not units:
            return 0
        done = 0
        for g, state in enumerate(positions):
            bot = make_bot("mcts", seed=g, iterations=iterations, time_limit=None)
            bot.choose(state)
            done += bot.last_simulations
        return done
    speed._warm_up(kind)
    if not units:
        return 0
    done = 0
    for seed in range(games * 20 if kind == "random" else games):
        state = new_game(4, seed)
        bots = [make_bot(kind, seed=seed * 10 + i) for i in range(4)]
        while not state.is_over:
            state.apply_unchecked(bots[state.decider].choose(state))
            done += 1
    return done


# --- the run -------------------------------------------------------------------------------------
def _instructions(code: Path, kind: str, units: int, args) -> tuple[int, int]:
    """(instructions, units of work) of one child under callgrind."""
    command = [
        shutil.which("valgrind") or "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--work",
        kind,
        str(units),
        "--games",
        str(args.games),
        "--mcts-iterations",
        str(args.mcts_iterations),
    ]
    env = {**os.environ, "PYTHONPATH": str(code), "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env, cwd=code)
    counted = re.search(r"Collected : (\d+)", done.stderr)
    made = re.search(r"^units (\d+)$", done.stdout, re.MULTILINE)
    if done.returncode or not counted or not made:
        sys.exit(f"the count of {kind} in {code} failed:\n{done.stderr[-2000:]}")
    return int(counted.group(1)), int(made.group(1))


def count(code: Path, args) -> dict[str, int]:
    """Instructions per decision (random, greedy) and per simulation (mcts) of ``code``."""
    out = {}
    for kind in KINDS:
        busy, units = _instructions(code, kind, 1, args)
        idle, _ = _instructions(code, kind, 0, args)
        out[kind] = round((busy - idle) / units)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="922bee4", help="the commit to compare with")
    parser.add_argument(
        "--after", help="a commit to measure instead of this checkout's working tree (HEAD...)"
    )
    parser.add_argument("--games", type=int, default=6, help="greedy games (random: 20x)")
    parser.add_argument("--mcts-iterations", type=int, default=60)
    parser.add_argument("--work", nargs=2, help=argparse.SUPPRESS)  # the child: kind, 0 or 1
    args = parser.parse_args(argv)
    if args.work:
        kind, units = args.work[0], int(args.work[1])
        print(f"units {work(kind, units, args.games, args.mcts_iterations)}")
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2

    before_commit = speed.commit(args.before)
    after_commit = speed.commit(args.after or "HEAD")
    with tempfile.TemporaryDirectory(prefix="instructions-") as tmp:
        before = speed._unpack(before_commit, Path(tmp) / "before")
        after = ROOT if args.after is None else speed._unpack(after_commit, Path(tmp) / "after")
        b, a = count(before, args), count(after, args)
    what = (
        f"commit {after_commit}" if args.after else f"this checkout ({speed._tree(after_commit)})"
    )
    print(f"before = commit {before_commit}, after = {what}")
    print()
    print(f"{'instructions':40} {'before':>12} {'after':>12} {'after/before':>13}")
    rows = [
        ("per random decision", b["random"], a["random"]),
        ("per greedy decision", b["greedy"], a["greedy"]),
        ("per mcts simulation", b["mcts"], a["mcts"]),
    ]
    for label, x, y in rows:
        print(f"{label:40} {x:>12,} {y:>12,} {y / x:>12.3f}x")
    ratio_b, ratio_a = b["greedy"] / b["random"], a["greedy"] / a["random"]
    print(f"{'greedy / random':40} {ratio_b:>11.1f}x {ratio_a:>11.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
