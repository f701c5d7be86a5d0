"""Run many ``nefertiti`` command lines, each in its own process, fast (for test_cli_fuzz.py).

A fresh ``nefertiti`` process costs 1 to 2 s here (the ``serve`` plug-in imports Panel), so this
runner imports the command once and forks one child per run, two at a time. Each child is the
command as its console script runs it (``sys.exit(main())``; an exception it lets out prints a
traceback and exits 1), under an address-space limit (RLIMIT_AS: what the runner has mapped plus
``--memory`` MiB) and a CPU-time limit (RLIMIT_CPU, ``--timeout`` s); a run still going after
``--wall`` s of real time (waiting on a FIFO uses no CPU) is killed. CPU time, not real time,
is the bound, because the machines this runs on are shared and loaded.

    python tests/cli_fuzz_runner.py < jobs.json > results.json

``jobs.json`` is a list of argument lists; ``results.json`` a list of
``{"argv", "code", "stderr", "seconds", "cpu", "killed"}`` in the same order (``seconds`` real,
``cpu`` user + system).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import sys
import tempfile
import time
import traceback


def _vm_size() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _child(argv: list[str], err_fd: int, limit: int, cpu: int) -> None:
    """Runs in the forked child: never returns."""
    code = 1
    try:
        os.setpgid(0, 0)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(err_fd, 2)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        from nefertiti_core.cli import main

        try:
            code = main(argv)
        except SystemExit as stop:  # argparse's exit, or sys.exit in a command
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
            if isinstance(stop.code, str):
                print(stop.code, file=sys.stderr)
        except BaseException:  # what the console script would print: a traceback
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        try:
            traceback.print_exc()
            sys.stderr.flush()
        except BaseException:
            pass
    code = code if isinstance(code, int) else 1
    os._exit(code)  # private: os._exit is the documented way to end a child at once


def run_all(
    jobs: list[list[str]], parallel: int, timeout: float, memory_mb: int, wall: float
) -> list[dict]:
    import nefertiti_core.cli as cli

    cli.build_parser()  # import every plug-in once, before forking
    limit = _vm_size() + memory_mb * 1024 * 1024
    results: list[dict | None] = [None] * len(jobs)
    running: dict[int, tuple[int, object, float]] = {}
    queue = list(enumerate(jobs))
    while queue or running:
        while queue and len(running) < parallel:
            index, argv = queue.pop(0)
            err = tempfile.TemporaryFile()
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _child(argv, err.fileno(), limit, max(1, round(timeout)))
            running[pid] = (index, err, time.monotonic())
        pid, status, usage = os.wait4(-1, os.WNOHANG)
        now = time.monotonic()
        if pid == 0:
            for other, (index, err, started) in list(running.items()):
                if now - started > wall:
                    try:
                        os.killpg(other, signal.SIGKILL)
                    except ProcessLookupError:
                        os.kill(other, signal.SIGKILL)
                    os.waitpid(other, 0)
                    del running[other]
                    err.seek(0)
                    results[index] = {
                        "argv": jobs[index],
                        "code": None,
                        "stderr": err.read().decode("utf-8", "replace"),
                        "seconds": now - started,
                        "cpu": None,
                        "killed": True,
                    }
            time.sleep(0.005)
            continue
        index, err, started = running.pop(pid)
        err.seek(0)
        code = os.waitstatus_to_exitcode(status)
        results[index] = {
            "argv": jobs[index],
            "code": code,
            "stderr": err.read().decode("utf-8", "replace"),
            "seconds": now - started,
            "cpu": usage.ru_utime + usage.ru_stime,
            "killed": code < 0,
        }
    return results  # type: ignore[return-value]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=10.0, help="CPU seconds per run")
    parser.add_argument("--wall", type=float, default=60.0, help="real seconds per run")
    parser.add_argument("--memory", type=int, default=512, help="MiB over the runner's own")
    args = parser.parse_args()
    jobs = json.load(sys.stdin)
    json.dump(run_all(jobs, args.parallel, args.timeout, args.memory, args.wall), sys.stdout)


if __name__ == "__main__":
    main()
