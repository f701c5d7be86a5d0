"""Odds on a real Dask cluster (issue #14): a scheduler and workers started as separate
processes, as a user starts them (``dask scheduler``, ``dask worker``), on loopback only; the
command line pointed at it; bad addresses; a worker killed mid-run.

Playout ``i`` depends only on ``(seed, i)``, so a run on the cluster, one that lost a worker and
had its chunks played again, and a local run of the same seed give the same report."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from importlib import resources
from pathlib import Path

import pytest

from nefertiti_core.cli import build_parser, main
from nefertiti_core.engine.errors import NefertitiError
from nefertiti_core.files.scenario import load as load_scenario
from nefertiti_core.play import odds as odds_module
from nefertiti_core.play.odds import check_scheduler_address, odds

pytestmark = pytest.mark.slow  # real Dask clusters, workers killed (15-40 s a test here)

distributed = pytest.importorskip("distributed")

DASK = str(Path(sys.executable).with_name("dask"))
SCENARIO = str(resources.files("nefertiti_core").joinpath("scenarios", "louqsor-what-if.yaml"))
TIMING = ("seconds", "playouts_per_second", "workers", "backend", "workers_lost", "stopped")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_worker(address: str, log: Path) -> subprocess.Popen:
    """One worker process, no nanny: killing it loses the worker for good."""
    with open(log, "w") as out:
        return subprocess.Popen(
            [DASK, "worker", address, "--nthreads", "1", "--nworkers", "1", "--no-nanny"]
            + ["--no-dashboard", "--host", "127.0.0.1"],
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def dask_cluster(logs: Path, workers: int):
    """A scheduler and ``workers`` workers on 127.0.0.1; yields (address, client, processes)."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    with open(logs / "scheduler.log", "w") as out:
        scheduler = subprocess.Popen(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    processes = []
    client = None
    try:
        processes = [start_worker(address, logs / f"worker{i}.log") for i in range(workers)]
        client = distributed.Client(address, timeout="60s", set_as_default=False)
        wait_for_workers(client, workers)
        yield address, client, processes
    finally:
        if client is not None:
            client.close()
        for process in processes:
            stop(process)
        stop(scheduler)


def wait_for_workers(client, count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while len(client.nthreads()) < count:
        assert time.monotonic() < deadline, f"{count} workers did not join in {timeout} s"
        time.sleep(0.1)


def chunks_on(client, worker: str) -> tuple[int, int]:
    """(chunks running on ``worker``, chunks of the run not yet taken by it: waiting, running,
    or finished with their results still on a worker)."""

    def look(dask_scheduler, worker=worker):
        ws = dask_scheduler.workers.get(worker)
        left = sum(1 for ts in dask_scheduler.tasks.values() if ts.prefix.name == "run_chunk")
        return (len(ws.processing) if ws is not None else 0), left

    return client.run_on_scheduler(look)


def kill_when_busy(client, victim: subprocess.Popen, address: str, found: dict) -> None:
    """SIGKILL ``victim`` once it is running a chunk and the run has taken two others' results
    (the scheduler forgets a chunk once the run has its result)."""
    deadline = time.monotonic() + 120
    most = 0
    while time.monotonic() < deadline:
        running, left = chunks_on(client, address)
        most = max(most, left)
        if running and most - left >= 2:
            os.kill(victim.pid, signal.SIGKILL)
            found.update(running=running, taken=most - left)
            return
        time.sleep(0.02)


def worker_address(client, known: set[str]) -> str:
    [address] = set(client.nthreads()) - known
    return address


def local_report(playouts: int, seed: int) -> dict:
    state = load_scenario(SCENARIO).state
    report = odds(state, playouts=playouts, bots="random", seed=seed, workers=1)
    return {k: v for k, v in report.as_dict().items() if k not in TIMING}


def run_cli(*argv: str, timeout: float = 180) -> subprocess.CompletedProcess:
    """``nefertiti odds SCENARIO ARGV --json`` in its own process."""
    return subprocess.run(
        [sys.executable, "-m", "nefertiti_core", "odds", SCENARIO, *argv, "--json"],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with dask_cluster(tmp_path_factory.mktemp("dask"), workers=2) as running:
        yield running


def test_the_command_line_runs_on_a_real_cluster_as_it_runs_here(cluster):
    address, _, _ = cluster
    done = run_cli("--cluster", address, "--playouts", "300", "--bots", "random", "--seed", "7")
    done.check_returncode()
    on_cluster = json.loads(done.stdout)
    assert on_cluster["backend"] == "dask"
    assert on_cluster["workers"] == 2
    assert on_cluster["workers_lost"] == 0
    assert {k: v for k, v in on_cluster.items() if k not in TIMING} == local_report(300, 7)


@pytest.mark.parametrize(
    "address, words",
    [
        ("garbage", "no port"),
        ("tls://", "not a Dask scheduler address"),
        ("tcp://[::1", "Invalid IPv6 URL"),
        ("udp://127.0.0.1:8786", "'udp' is not a protocol"),
        ("tcp://127.0.0.1:70000", "Port out of range"),
        ("tcp://127.0.0.1:8786/x?y", "not a Dask scheduler address"),
    ],
)
def test_a_malformed_address_is_refused_in_one_line_at_once(capsys, address, words):
    build_parser()  # the command's plugins imported once (the serve command imports Panel)
    begun = time.perf_counter()
    with pytest.raises(SystemExit) as exit_:
        main(["odds", SCENARIO, "--playouts", "5", "--cluster", address])
    took = time.perf_counter() - begun
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "argument --cluster" in err and words in err, err
    assert took < 2, f"refusing {address!r} took {took:.2f} s"


def test_an_address_nobody_answers_on_is_refused_after_a_short_wait(capsys):
    address = f"tcp://127.0.0.1:{free_port()}"  # nothing listens there
    begun = time.perf_counter()
    code = main(["odds", SCENARIO, "--playouts", "5", "--cluster", address])
    took = time.perf_counter() - begun
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"cannot reach the Dask scheduler at {address}" in err, err
    assert took < odds_module.DASK_CONNECT_TIMEOUT + 5, f"refused after {took:.1f} s"


def test_tls_without_certificates_is_refused_at_once(capsys):
    build_parser()
    begun = time.perf_counter()
    code = main(["odds", SCENARIO, "--playouts", "5", "--cluster", "tls://127.0.0.1:9"])
    took = time.perf_counter() - begun
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "needs TLS certificates" in err, err
    assert took < 2


def test_address_forms_dask_accepts():
    assert check_scheduler_address(" tcp://127.0.0.1:8786 ") == "tcp://127.0.0.1:8786"
    assert check_scheduler_address("127.0.0.1:8786") == "tcp://127.0.0.1:8786"
    assert check_scheduler_address("tcp://scheduler") == "tcp://scheduler:8786"
    assert check_scheduler_address("tcp://[::1]:9000") == "tcp://[::1]:9000"
    with pytest.raises(NefertitiError, match="text"):
        check_scheduler_address(8786)


def test_a_worker_killed_mid_run_is_survived_and_counted(cluster, tmp_path):
    address, client, _ = cluster
    known = set(client.nthreads())
    victim = start_worker(address, tmp_path / "victim.log")
    try:
        wait_for_workers(client, 3)
        victim_address = worker_address(client, known)
        found: dict = {}
        killer = threading.Thread(
            target=kill_when_busy, args=(client, victim, victim_address, found), daemon=True
        )
        killer.start()
        done = run_cli(
            "--cluster", address, "--playouts", "800", "--bots", "random", "--seed", "11"
        )
        killer.join(timeout=5)
    finally:
        stop(victim)
    assert found, f"the victim never ran a chunk: {done.stderr[-500:]}"
    assert victim.returncode == -signal.SIGKILL, "the victim was not killed during the run"
    assert done.returncode == 0, done.stderr[-2000:]
    on_cluster = json.loads(done.stdout)
    assert on_cluster["playouts"] == 800
    assert on_cluster["workers_lost"] == 1
    # one line on stderr: the loss (Dask's own log of the chunks it fetched again is kept out)
    assert done.stderr.strip().splitlines() == [
        "nefertiti odds: 1 worker lost during the run: their playouts were played again on the "
        "others"
    ], done.stderr
    assert {k: v for k, v in on_cluster.items() if k not in TIMING} == local_report(800, 11)


def test_losing_every_worker_stops_with_the_playouts_done(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(odds_module, "DASK_NO_WORKERS_GRACE", 2.0)
    with dask_cluster(tmp_path, workers=1) as (address, client, [worker]):
        found: dict = {}
        [worker_at] = client.nthreads()
        killer = threading.Thread(
            target=kill_when_busy, args=(client, worker, worker_at, found), daemon=True
        )
        killer.start()
        code = main(
            ["odds", SCENARIO, "--playouts", "2000", "--bots", "random"] + ["--cluster", address]
        )
        killer.join(timeout=5)
    out, err = capsys.readouterr()
    assert found, "the worker never ran a chunk"
    assert code == 1
    assert "all 1 Dask workers were lost" in err and err.count("\n") == 1, err
    done = int(out.split()[0])
    assert f"{done} of 2000 playouts" in out
    # chunks of 50 playouts: those counted before the kill are all in the report
    assert 50 * found["taken"] <= done < 2000 and done % 50 == 0
    assert "1 worker lost during the run\n" in out  # not "played again": nothing was
