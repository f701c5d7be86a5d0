"""The command fuzz test's files run against any checkout of the project (to compare with before).

    git worktree add /tmp/before a4ff504          # the code before engine/limits.py
    .venv/bin/python benchmarks/cli_fuzz_checkout.py /tmp/before --wall 15
    .venv/bin/python benchmarks/cli_fuzz_checkout.py .

Builds the same files as ``tests/test_cli_fuzz.py`` (the corpus, the large and special files,
the valid ones, the seeded mutations), runs them through explain, replay, hint and odds with
``tests/cli_fuzz_runner.py`` (each run forked, memory- and CPU-bounded) importing the command
from CHECKOUT, and prints "N of M bad-file runs clean" with the kinds of the rest.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "corpus"))

import test_cli_fuzz as T  # noqa: E402
from make_corpus import bad_files, write  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("--wall", default="60", help="real seconds before a run is killed (60)")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="fuzz-"))
    big = {n: c for n, c in bad_files().items() if not (T.HERE / "corpus" / "bad" / n).exists()}
    corpus = sorted((T.HERE / "corpus" / "bad").glob("*.yaml"))
    corpus += write(big, root / "large") + T.made_here(root / "special")
    good = sorted((T.HERE / "corpus" / "good").glob("*.yaml"))
    mutants = T.mutations(root / "mutants")
    jobs = [[c, str(p), *x] for p in corpus + good + mutants for c, x in T.COMMANDS.items()]
    checkout = str(args.checkout.resolve())
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "cli_fuzz_runner.py"), "--wall", args.wall],
        input=json.dumps(jobs),
        capture_output=True,
        text=True,
        cwd=checkout,
        env={"PYTHONPATH": checkout, "PATH": "/usr/bin:/bin"},
        check=True,
    )
    results = json.loads(done.stdout)
    k = len(T.COMMANDS)
    a, b = len(corpus) * k, (len(corpus) + len(good)) * k
    bad = T.check(results[:a], (2,)) + T.check(results[b:], (0, 2))
    good_bad = T.check(results[a:b], (0,))
    runs = a + len(results) - b
    print(f"{checkout}: {runs - len(bad)} of {runs} bad-file runs clean")
    print(f"valid files accepted by every command: {b - a - len(good_bad)} of {b - a} runs")
    kinds: dict[str, int] = {}
    for line in bad:
        kind = " ".join(line.split(": ", 2)[1].split(" ")[:2])
        kinds[kind] = kinds.get(kind, 0) + 1
    print("the rest, by kind:", kinds or "none")
    for line in bad[:10]:
        print("  ", line[:200])


if __name__ == "__main__":
    main()
