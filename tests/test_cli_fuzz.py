"""A fuzz test of the commands (issue #14): bad files through ``explain``, ``replay``, ``hint``
and ``odds``, each run in its own process under a time and a memory bound.

Every run must exit 2 with exactly one line on stderr of at most 200 characters and no
traceback, or exit 0 where the file is valid (then any warning lines are short too). The files:
the committed corpus (``tests/corpus/bad``, every kind the issue found: deep nesting,
unhashable keys, huge integers, zlib bombs, crafted random states, queues past the stall, long
texts, many roll steps), the ones too large or too strange to commit (made here: a FIFO,
``/dev/zero``, a folder, a 2 MiB file, a 1.4 MB zlib bomb), valid files with a BOM, and
mutations of the shipped scenarios with a fixed seed.

The runs go through ``tests/cli_fuzz_runner.py``, which forks each from one process that has
imported the command (a fresh interpreter costs 1-2 s here); one test runs the real console
script on a few files to show it behaves the same.
"""

from __future__ import annotations

import base64
import json
import os
import random
import re
import resource
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE / "corpus"))

from make_corpus import SIMPLE, bad_files, write  # noqa: E402

pytestmark = pytest.mark.slow  # every corpus file through every command (about 2 minutes here)

SCENARIOS = sorted((ROOT / "nefertiti_core" / "scenarios").glob("*.yaml"))
COMMANDS = {
    "explain": [],
    "replay": [],
    "hint": ["--time-budget", "0.1"],
    "odds": ["--playouts", "2", "--workers", "1"],
}
TIMEOUT_S = 10.0  # CPU seconds per run (the machine is shared: real time is checked at 60 s)
MEMORY_MIB = 512
MUTATIONS = 60
SEED = 14


# ----------------------------------------------------------------------------- the files
def zlib_bomb(size: int) -> bytes:
    """A zlib stream of about ``size`` bytes that inflates about a thousand times larger (a
    JSON list of zeros, cut: the reader must stop inflating long before the end)."""
    packer, chunk, out, n = zlib.compressobj(9), b"0," * 8_000_000, [b""], 0
    out.append(packer.compress(b"["))
    while n < size:
        out.append(packer.compress(chunk))
        n += len(out[-1])
    return b"".join(out)


def made_here(folder: Path) -> list[Path]:
    """Files the corpus cannot hold: special files, and the ones too large to commit."""
    folder.mkdir(parents=True, exist_ok=True)
    fifo = folder / "a-fifo.yaml"
    os.mkfifo(fifo)
    (folder / "a-folder.yaml").mkdir()
    big = folder / "two-mebibytes.yaml"
    big.write_text(SIMPLE + "teaching: |\n" + ("  " + "x" * 99 + "\n") * 21_000)
    bomb = zlib_bomb(700_000)  # inflates to about 700 MB
    (folder / "zlib-bomb-1.4MB.yaml").write_text(
        SIMPLE + "random_state: " + base64.b64encode(bomb + bomb[:350_000]).decode() + "\n"
    )
    (folder / "zlib-bomb-under-1MiB.yaml").write_text(
        SIMPLE + "random_state: " + base64.b64encode(bomb[:500_000]).decode() + "\n"
    )
    paths = [fifo, folder / "a-folder.yaml", big, Path("/dev/zero"), folder / "missing.yaml"]
    paths += [p for p in folder.glob("zlib-bomb-*.yaml")]
    return paths


_NUMBER = re.compile(r"(?<![\w.#])\d+(?![\w.])")
_WORDS = [
    "red", "blue", "green", "black", "gizeh", "louqsor", "take", "bid", "exchange_give",
    "null", "true", "[", "]", "{", "}", ":", "- ", "&a", "*a", "\t", "'", '"', "\ufeff",
    "akhenaton", "drawn", "tile", "closed", "roll 6 6", "place gizeh.left#9",
]  # fmt: skip
_NUMBERS = ["0", "-1", "7", "13", "99", "1000000000000", "9" * 41, "9" * 5000, "-" + "9" * 12]


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits of a valid file."""
    for _ in range(rng.randint(1, 3)):
        lines = text.split("\n")
        i = rng.randrange(len(lines))
        kind = rng.randrange(9)
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[i])
        elif kind == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == 3:
            numbers = list(_NUMBER.finditer(text))
            if numbers:
                m = rng.choice(numbers)
                text = text[: m.start()] + rng.choice(_NUMBERS) + text[m.end() :]
                continue
        elif kind == 4:
            lines[i] = " " * rng.randint(1, 3) + lines[i]
        elif kind == 5:
            lines[i] = lines[i][rng.randint(0, 3) :]
        elif kind == 6:
            at = rng.randint(0, len(lines[i]))
            lines[i] = lines[i][:at] + rng.choice(_WORDS) + lines[i][at:]
        elif kind == 7:
            words = lines[i].split(" ")
            words[rng.randrange(len(words))] = rng.choice(_WORDS)
            lines[i] = " ".join(words)
        else:
            text = text[: rng.randint(0, len(text))]
            continue
        text = "\n".join(lines)
    return text


def mutations(folder: Path, count: int = MUTATIONS, seed: int = SEED) -> list[Path]:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for k in range(count):
        source = rng.choice(SCENARIOS)
        path = folder / f"mutant-{k:03d}-{source.stem}.yaml"
        path.write_text(mutate(source.read_text(encoding="utf-8"), rng), encoding="utf-8")
        out.append(path)
    return out


# ----------------------------------------------------------------------------- the runs
def run_batch(paths: list[Path]) -> list[dict]:
    jobs = [[cmd, str(p), *extra] for p in paths for cmd, extra in COMMANDS.items()]
    done = subprocess.run(
        [
            sys.executable,
            str(HERE / "cli_fuzz_runner.py"),
            "--timeout",
            str(TIMEOUT_S),
            "--memory",
            str(MEMORY_MIB),
        ],
        input=json.dumps(jobs),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def problem(result: dict, expect: tuple[int, ...]) -> str | None:
    """Why a run is not clean, or None."""
    err = result["stderr"]
    if result["killed"]:
        return f"killed after {result['seconds']:.1f} s ({result['cpu']} s CPU)"
    if "Traceback" in err or "Error:" in err.split(": error:")[0]:
        return "a traceback"
    if result["code"] not in expect:
        return f"exit {result['code']}"
    lines = err.splitlines()
    if result["code"] == 2 and len(lines) != 1:
        return f"{len(lines)} lines on stderr"
    if any(len(line) > 200 for line in lines):
        return f"a line of {max(map(len, lines))} characters"
    return None


def check(results: list[dict], expect: tuple[int, ...]) -> list[str]:
    bad = []
    for r in results:
        why = problem(r, expect)
        if why:
            bad.append(f"{' '.join(r['argv'][:2])}: {why}: {r['stderr'][-300:]!r}")
    return bad


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, list[Path]]:
    root = tmp_path_factory.mktemp("fuzz")
    big = {n: c for n, c in bad_files().items() if not (HERE / "corpus" / "bad" / n).exists()}
    return {
        "corpus": sorted((HERE / "corpus" / "bad").glob("*.yaml")),
        "large": write(big, root / "large") + made_here(root / "special"),
        "good": sorted((HERE / "corpus" / "good").glob("*.yaml")),
        "mutants": mutations(root / "mutants"),
    }


@pytest.fixture(scope="module")
def results(files) -> dict[str, list[dict]]:
    order = [(kind, p) for kind in ("corpus", "large", "good", "mutants") for p in files[kind]]
    flat = run_batch([p for _, p in order])
    out: dict[str, list[dict]] = {kind: [] for kind in files}
    for k, (kind, _) in enumerate(order):
        out[kind].extend(flat[k * len(COMMANDS) : (k + 1) * len(COMMANDS)])
    runs = sum(len(v) for k, v in out.items() if k != "good")
    clean = (
        runs - len(check(out["corpus"] + out["large"], (2,))) - len(check(out["mutants"], (0, 2)))
    )
    cpu = [r["cpu"] for rs in out.values() for r in rs if r["cpu"] is not None]
    print(
        f"\n{clean} of {runs} bad-file runs clean ({len(out['good'])} valid-file runs besides); "
        f"CPU per run at most {max(cpu):.2f} s, {sum(cpu):.0f} s in all",
        file=sys.stderr,
    )
    return out


def test_the_corpus_and_its_kinds_are_all_there(files):
    names = {p.name for p in files["corpus"] + files["large"]}
    for kind in (
        "nested-brackets", "nested-blocks", "unhashable-flow-key", "huge-int-deben",
        "random-state-small-bomb", "zlib-bomb-1.4MB", "random-state-wrong-size",
        "queue-past-stall", "huge-move-text", "record-many-roll-steps", "a-fifo", "zero",
        "exchange-give-stuck",
    ):  # fmt: skip
        assert any(kind in n for n in names), kind
    assert len(files["mutants"]) == MUTATIONS


def test_every_bad_corpus_file_is_refused_in_one_short_line_by_every_command(results):
    bad = check(results["corpus"] + results["large"], (2,))
    assert not bad, "\n".join(bad)


def test_valid_files_with_a_bom_or_at_the_limits_are_accepted(results):
    bad = check(results["good"], (0,))
    assert not bad, "\n".join(bad)


def test_mutations_of_the_scenarios_exit_0_or_2_with_one_short_line(results):
    bad = check(results["mutants"], (0, 2))
    assert not bad, "\n".join(bad)
    refused = sum(r["code"] == 2 for r in results["mutants"])
    assert 0 < refused < len(results["mutants"])  # the mutations hit both kinds


def test_the_runs_stay_within_their_time_bound(results):
    slowest = max(r["cpu"] or TIMEOUT_S for rs in results.values() for r in rs)
    assert slowest < TIMEOUT_S


@pytest.mark.parametrize(
    "name",
    ["nested-brackets.yaml", "random-state-small-bomb.yaml", "queue-past-stall.yaml"],
)
def test_the_real_console_script_refuses_in_one_line(name):
    """The forked runs stand for the real command: check it on a few files, memory-bounded."""
    limit = 1536 * 1024 * 1024

    def bounded():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = subprocess.run(
        [sys.executable, "-m", "nefertiti_core", "explain", str(HERE / "corpus" / "bad" / name)],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=bounded,
        cwd=ROOT,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and len(lines[0]) <= 200 and "Traceback" not in done.stderr, lines
