"""The look-ahead's cost: random and greedy decisions, greedy odds playouts, mcts simulations,
and OpenSpiel's pure-Python tic-tac-toe, for this checkout and an earlier commit, in one run.

    .venv/bin/python benchmarks/lookahead_speed.py [--before 9c6c70f] [--after HEAD]
        [--rounds 5] [--games 12] [--odds-playouts 120] [--mcts-iterations 60]

Every figure is measured on ``--before`` and on this checkout's working tree (or on the commit
``--after``), each ``nefertiti_core`` unpacked with ``git archive`` into a temporary directory
and measured in its own fresh process, in ``--rounds`` rounds of one process of each code (in
turn first, so that a change of the machine's load weighs on both alike). Each figure is
reported as its median over the rounds, each ratio as the median of the rounds' ratios, with
their range, and each goal with its value in every round: one measurement lasts a fraction of a
second, and on this shared machine one round's figures move by ±10%.

* µs per decision of random and greedy 4-player games (seeds 0..games-1; each decision is the
  bot's ``choose`` and the engine's ``apply_unchecked``), in CPU time of the process (the
  machine is shared: CPU time moves less with the load than the wall clock), and their ratio;
* odds playouts per second with greedy bots on 2 worker processes (``odds.odds``, from the start
  of a 4-player game, wall clock): the process's first run (the workers' start included) and a
  second run right after it (the run a learner repeats: code that keeps its workers between
  runs, ``odds.POOLS``, starts none; code that does not starts them again);
* mcts simulations per second (``make_bot("mcts", iterations=N)`` with no time limit, against
  greedy opponent models, on positions of seeded greedy games; CPU time), and how many of the
  opponent model's greedy decisions a simulation asks for (not cached yet in that search): a
  load-independent count, and why mcts follows greedy's speed-up only as far as it can make
  fewer of them, and their CPU time (greedy's speed at the positions the tree asks about, which
  are not those of whole games); for code with ``lazy_replies`` (one new reply or option per
  simulation: about four times the simulations, but a weaker bot, so not the default), its figures
  too;
* OpenSpiel's ``python_tic_tac_toe`` (pure Python): µs per action of random games
  (``legal_actions``, a random choice, ``apply_action``), beside our random decision.

Each figure is the steady speed: before the timed work, one untimed game of the same bots (seed
1000) and one mcts search on another position (timed apart, printed as the first search's
figure): a process's first decisions load extension modules and fill the tables the engine and
the bots keep, once per process (30-60 ms: a fifth to a third of the timed mcts search at
today's speed, nothing at 9c6c70f's).
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]


# --- the measurements (run in a child process whose sys.path starts with the code measured) ---
def _module(name: str):
    """``nefertiti_core``'s module ``name`` (engine.state, play.bots, play.odds, play.openspiel)
    in the code measured, whichever layout it has (older commits, 9c6c70f among them, have the
    modules in nefertiti_core itself, not in its layers). The module must come from the code measured: with an
    editable install, a module missing there would silently be imported from this checkout."""
    import importlib

    import nefertiti_core

    where = Path(nefertiti_core.__file__).resolve().parent
    layered = (where / "engine").is_dir()
    module = importlib.import_module(
        f"nefertiti_core.{name if layered else name.rsplit('.', 1)[-1]}"
    )
    if where not in Path(module.__file__).resolve().parents:
        sys.exit(f"{module.__name__} came from {module.__file__}, not from {where}")
    return module


def _decisions(kind: str, games: int) -> dict:
    new_game = _module("engine.state").new_game
    make_bot = _module("play.bots").make_bot

    decisions = 0
    cpu = 0.0
    _warm_up(kind)
    for seed in range(games):
        state = new_game(4, seed)
        bots = [make_bot(kind, seed=seed * 10 + i) for i in range(4)]
        start = time.process_time()
        while not state.is_over:
            state.apply_unchecked(bots[state.decider].choose(state))
            decisions += 1
        cpu += time.process_time() - start
    return {"decisions": decisions, "us_per_decision": round(cpu * 1e6 / decisions, 2)}


def _warm_up(kind: str) -> None:
    """One untimed game of ``kind`` bots (seed 1000, not one of the timed games): a process's
    first decisions fill the tables the engine and the bots keep (the chance of Louqsor's rolls,
    R3.7, R3.8), a cost paid once per process, not per decision."""
    new_game = _module("engine.state").new_game
    make_bot = _module("play.bots").make_bot
    state = new_game(4, 1000)
    bots = [make_bot(kind, seed=1000 + i) for i in range(4)]
    while not state.is_over:
        state.apply_unchecked(bots[state.decider].choose(state))


def _odds(playouts: int, seed: int) -> dict:
    new_game = _module("engine.state").new_game
    odds = _module("play.odds").odds

    state = new_game(4, 0)
    start = time.perf_counter()
    report = odds(state, playouts, "greedy", seed, workers=2)
    wall = time.perf_counter() - start
    return {
        "playouts": report.playouts,
        "seconds": round(wall, 2),
        "playouts_per_second": round(report.playouts / wall, 1),
    }


def position(seed: int, decisions: int):
    """A decision some way into a 4-player game of greedy bots (the mcts figures' positions:
    seeds 500, 501, ... after 15, 22, ... decisions; seed 499 after 20 for the first search)."""
    new_game = _module("engine.state").new_game
    make_bot = _module("play.bots").make_bot
    state = new_game(4, seed)
    greedy = [make_bot("greedy", seed=(seed - 500) * 10 + i) for i in range(4)]
    for _ in range(decisions):
        state.apply_unchecked(greedy[state.decider].choose(state))
    while len(state.legal_options()) < 2:
        state.apply_unchecked(greedy[state.decider].choose(state))
    return state


def _mcts(iterations: int, positions: int, **options) -> dict:
    make_bot = _module("play.bots").make_bot
    _module("play.openspiel")  # registers the mcts kind from the code measured

    # The process's first search, on another position, timed apart: it loads extension modules
    # of OpenSpiel and numpy on first use and fills the tables the engine and the bots keep (the
    # chance of Louqsor's rolls), once per process: 30-60 ms, a fifth to a third of the 240
    # simulations' time at the speed of today's code, so it is kept out of the steady
    # figure.
    first = make_bot("mcts", seed=99, iterations=iterations, time_limit=None, **options)
    start = time.process_time()
    first.choose(position(499, 20))
    cold = time.process_time() - start
    simulations = 0
    cpu = 0.0
    asked = [0, 0.0]  # the opponent model's decisions (the replies not had yet), their CPU time
    for g in range(positions):
        state = position(500 + g, 15 + 7 * g)
        bot = make_bot("mcts", seed=g, iterations=iterations, time_limit=None, **options)
        model = bot._greedy  # the opponent model, in both layouts
        model.choose = _counted(model.choose, asked)
        start = time.process_time()
        bot.choose(state)
        cpu += time.process_time() - start
        simulations += bot.last_simulations
    return {
        "simulations": simulations,
        "simulations_per_second": round(simulations / cpu, 1),
        "first_search_simulations_per_second": round(first.last_simulations / cold, 1),
        # Load-independent: a simulation costs about this many greedy decisions.
        "opponent_decisions_per_simulation": round(asked[0] / simulations, 2),
        # What one of them costs: greedy's speed at the positions the tree asks about.
        "us_per_opponent_decision": round(asked[1] * 1e6 / asked[0], 1),
    }


def _counted(choose, asked: list):
    def counting(state):
        asked[0] += 1
        start = time.process_time()
        try:
            return choose(state)
        finally:
            asked[1] += time.process_time() - start

    return counting


def _tic_tac_toe(games: int) -> dict:
    import pyspiel
    from open_spiel.python.games import tic_tac_toe  # noqa: F401 (registers the game)

    game = pyspiel.load_game("python_tic_tac_toe")
    rng = random.Random(0)
    actions = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            actions += 1
    cpu = time.process_time() - start
    return {"actions": actions, "us_per_action": round(cpu * 1e6 / actions, 2)}


def _tree(head: str) -> str:
    """``head``, and whether the working tree measured differs from it (a figure is then of code
    no commit holds)."""
    changed = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return f"{head} and uncommitted changes" if changed else f"{head}, nothing uncommitted"


def measure(args) -> dict:
    out = {
        "random": _decisions("random", args.games * 20),
        "greedy": _decisions("greedy", args.games),
    }
    out["greedy_over_random"] = round(
        out["greedy"]["us_per_decision"] / out["random"]["us_per_decision"], 1
    )
    # the first run of the process, then another (other playouts: another seed)
    out["odds_greedy_2_workers_first"] = _odds(args.odds_playouts, 0)
    out["odds_greedy_2_workers"] = _odds(args.odds_playouts, 1)
    out["mcts"] = _mcts(args.mcts_iterations, args.mcts_positions)
    # The search with lazy replies (one new reply or option per simulation; weaker, not the
    # default), where the code measured has it (None where it has not).
    mcts_bot = _module("play.openspiel").MctsBot
    out["mcts_lazy"] = (
        _mcts(args.mcts_iterations, args.mcts_positions, lazy_replies=True)
        if "lazy_replies" in inspect.signature(mcts_bot).parameters
        else None
    )
    out["tic_tac_toe"] = _tic_tac_toe(2000)
    return out


# --- the run -------------------------------------------------------------------------------------
def _child(code: Path, args) -> dict:
    command = [sys.executable, __file__, "--measure", str(code)]
    for name in ("games", "odds_playouts", "mcts_iterations", "mcts_positions"):
        command += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
    # PYTHONPATH and the working directory, not sys.path: the odds' worker processes (from a
    # forkserver started with "-c", the working directory first on its path) import that code.
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env, cwd=code)
    if done.returncode:
        sys.exit(f"the measurement of {code} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _unpack(commit: str, where: Path) -> Path:
    """``commit``'s nefertiti_core in the directory ``where`` (made)."""
    where.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "nefertiti_core"],
        capture_output=True,
        check=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    return where


def commit(name: str) -> str:
    """``name``'s short commit id, resolved once (a commit made meanwhile changes nothing)."""
    return subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", name],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="9c6c70f", help="the commit to compare with")
    parser.add_argument(
        "--after", help="a commit to measure instead of this checkout's working tree (HEAD...)"
    )
    parser.add_argument("--games", type=int, default=12, help="greedy games (random: 20x)")
    parser.add_argument("--odds-playouts", type=int, default=120)
    parser.add_argument("--mcts-iterations", type=int, default=60)
    parser.add_argument("--mcts-positions", type=int, default=4)
    parser.add_argument(
        "--rounds",
        type=int,
        default=5,
        help="rounds of a process of each code, in turn first; the medians are reported",
    )
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # the child: code to measure
    args = parser.parse_args(argv)
    if args.measure:
        import nefertiti_core

        where = Path(nefertiti_core.__file__).resolve().parents[1]
        if where != Path(args.measure).resolve():
            sys.exit(f"measuring {where}, not {args.measure}")
        print(json.dumps(measure(args)))
        return 0

    if not 1 <= args.rounds <= 50:
        parser.error(f"--rounds must be from 1 to 50, not {args.rounds}")
    before_commit = commit(args.before)
    after_commit = commit(args.after or "HEAD")
    rounds = []
    with tempfile.TemporaryDirectory(prefix="lookahead-") as tmp:
        codes = {
            "before": _unpack(before_commit, Path(tmp) / "before"),
            "after": ROOT if args.after is None else _unpack(after_commit, Path(tmp) / "after"),
        }
        load = os.getloadavg()[0]
        for r in range(args.rounds):
            # Before and after one after the other, in turn first: a change of the machine's
            # load during the run weighs on both alike.
            order = ("before", "after") if r % 2 == 0 else ("after", "before")
            rounds.append({name: _child(codes[name], args) for name in order})
    what = f"commit {after_commit}" if args.after else f"this checkout ({_tree(after_commit)})"
    print(f"before = commit {before_commit}, after = {what}")
    print(
        f"{args.rounds} round(s), each a process of each code; load average at the start "
        f"{load:.2f}, at the end {os.getloadavg()[0]:.2f} (2 cores)"
    )
    print("each figure: its median over the rounds; after/before: the median of the rounds' ratios")
    print()
    print(f"{'':50} {'before':>10} {'after':>10} {'after/before':>13}  rounds' ratios")
    for label, group, key, unit in LINES:
        b, a = (_values(rounds, side, group, key) for side in ("before", "after"))
        if b is None or a is None:  # a figure only one of the two codes has
            x, y = ("-" if v is None else median(v) for v in (b, a))
            print(f"{label:50} {x:>9}{unit or ' '} {y:>9}{unit or ' '} {'-':>13}")
            continue
        ratios = [y / x for x, y in zip(b, a, strict=True)]
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}x" if len(ratios) > 1 else ""
        print(
            f"{label:50} {median(b):>9}{unit or ' '} {median(a):>9}{unit or ' '} "
            f"{median(ratios):>12.2f}x  {spread}"
        )
    ttt = median(_values(rounds, "after", "tic_tac_toe", "us_per_action"))
    ours = median(_values(rounds, "after", "random", "us_per_decision"))
    print()
    print(
        f"our random decision / tic-tac-toe action (after): {ours / ttt:.2f}x "
        f"({ours} µs against {ttt} µs, medians)"
    )
    per_round = [_goals(row) for row in rounds]
    greedy_speedup = median([g["greedy_speedup"] for g in per_round])
    mcts_speedup = median([g["mcts_speedup"] for g in per_round])
    tree_speedup = median([g["tree_speedup"] for g in per_round])
    print(
        f"greedy's speed-up: {greedy_speedup:.2f}x over whole games, {tree_speedup:.2f}x at the "
        f"positions the mcts tree asks its opponent model about; mcts simulations: "
        f"{mcts_speedup:.2f}x (medians)"
    )
    print()
    print(f"the look-ahead's goals, per round ({args.rounds}) and the medians:")
    ratio = [g["greedy_over_random"] for g in per_round]
    odds = [g["odds"] for g in per_round]
    mcts_up = [g["mcts_speedup"] for g in per_round]
    mcts_share = [g["mcts_speedup"] / g["greedy_speedup"] for g in per_round]
    random_ratio = [g["random_ratio"] for g in per_round]
    goals = [
        ("greedy decision ≤ 40x a random one", ratio, "x", lambda v: v <= 40),
        (
            "odds with greedy bots ≥ 60 playouts/s on 2 workers (a run after the first)",
            odds,
            "",
            lambda v: v >= 60,
        ),
        (
            "mcts simulations/s up ten times (after / before)",
            mcts_up,
            "x",
            lambda v: v >= 10,
        ),
        (
            "random decision not slower than before (after / before)",
            random_ratio,
            "x",
            lambda v: v <= 1,
        ),
    ]
    for label, values, unit, ok in goals:
        met = ok(median(values))  # the goal judged on the median, as the table shows it
        shown = " / ".join(f"{v:.2f}{unit}" for v in values)
        print(
            f"  {'met    ' if met else 'NOT met'} {label}: median {median(values):.2f}{unit} "
            f"(met in {sum(map(ok, values))} of {len(values)}: {shown})"
        )
    rest = {
        side: median([_not_model_us(row[side]["mcts"]) for row in rounds])
        for side in ("before", "after")
    }
    print(
        f"  (mcts's speed-up against greedy's: median {median(mcts_share):.2f} "
        f"({' / '.join(f'{v:.2f}' for v in mcts_share)}). A simulation's time outside the opponent "
        f"model (its world, keys, steps and leaf): {rest['before']:.0f} µs before, "
        f"{rest['after']:.0f} µs after: it cannot follow the model's speed-up all the way)"
    )
    first = [row["after"]["odds_greedy_2_workers_first"]["playouts_per_second"] for row in rounds]
    print(
        f"  (the process's first odds run, its workers' start included: median "
        f"{median(first):.1f} playouts/s: {' / '.join(f'{v:.1f}' for v in first)})"
    )
    print(json.dumps({"rounds": rounds}))
    return 0


LINES = [  # (label, group, key, unit) of the figures printed
    ("µs per random decision (CPU)", "random", "us_per_decision", ""),
    ("µs per greedy decision (CPU)", "greedy", "us_per_decision", ""),
    ("greedy / random (goal ≤ 40)", "greedy_over_random", None, "x"),
    (
        "odds playouts/s, greedy, 2 workers, first run",
        "odds_greedy_2_workers_first",
        "playouts_per_second",
        "",
    ),
    (
        "odds playouts/s, greedy, 2 workers, next run (goal ≥ 60)",
        "odds_greedy_2_workers",
        "playouts_per_second",
        "",
    ),
    ("mcts simulations/s (CPU)", "mcts", "simulations_per_second", ""),
    (
        "mcts: the process's first search (cold), sims/s",
        "mcts",
        "first_search_simulations_per_second",
        "",
    ),
    (
        "mcts: opponent model's decisions per simulation",
        "mcts",
        "opponent_decisions_per_simulation",
        "",
    ),
    ("mcts: µs per opponent model's decision (CPU)", "mcts", "us_per_opponent_decision", ""),
    ("mcts, lazy replies: simulations/s (CPU)", "mcts_lazy", "simulations_per_second", ""),
    (
        "mcts, lazy replies: opponent decisions/simulation",
        "mcts_lazy",
        "opponent_decisions_per_simulation",
        "",
    ),
    ("tic-tac-toe (OpenSpiel, Python) µs per action", "tic_tac_toe", "us_per_action", ""),
]


def _values(rounds: list[dict], side: str, group: str, key: str | None) -> list | None:
    """One figure of ``side``'s code in every round (None where that code has no such figure)."""
    if rounds[0][side][group] is None:
        return None
    return [row[side][group] if key is None else row[side][group][key] for row in rounds]


def _goals(row: dict) -> dict:
    """The figures one round's before-and-after pair gives for the look-ahead's goals."""
    b, a = row["before"], row["after"]
    return {
        "greedy_over_random": a["greedy_over_random"],
        "odds": odds_rate(a),
        "greedy_speedup": b["greedy"]["us_per_decision"] / a["greedy"]["us_per_decision"],
        "mcts_speedup": a["mcts"]["simulations_per_second"] / b["mcts"]["simulations_per_second"],
        "tree_speedup": b["mcts"]["us_per_opponent_decision"]
        / a["mcts"]["us_per_opponent_decision"],
        "random_ratio": a["random"]["us_per_decision"] / b["random"]["us_per_decision"],
    }


def _not_model_us(mcts: dict) -> float:
    """µs of a simulation outside the opponent model's decisions (CPU time)."""
    return (
        1e6 / mcts["simulations_per_second"]
        - mcts["opponent_decisions_per_simulation"] * mcts["us_per_opponent_decision"]
    )


def odds_rate(row: dict) -> float:
    return row["odds_greedy_2_workers"]["playouts_per_second"]


if __name__ == "__main__":
    raise SystemExit(main())
