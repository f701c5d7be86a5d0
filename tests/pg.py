"""A private PostgreSQL server for the tests (issue #17): Debian's ``postgresql`` binaries, a
cluster in a temporary folder, listening on 127.0.0.1 and a free port; stopped at the end.

``postgres_url`` is a session-scoped fixture (tests/conftest.py registers it, so any test may
ask for it): it yields the server's SQLAlchemy URL (``postgresql+psycopg://postgres@127.0.0.1:P/
postgres``). If the binaries are missing the fixture FAILS (never skips) and says to install
them: ``apt-get install postgresql`` (``make test`` and ``make test-fast`` install them when
missing).

Run as root, the server runs as the ``postgres`` user (PostgreSQL refuses root; see
/work/shared/STACK-NOTES.md); as any other user, as that user. :class:`PgServer` is usable
without pytest (benchmarks/feed_latency.py starts one).
"""

from __future__ import annotations

import glob
import os
import pwd
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

INSTALL = "apt-get install postgresql"


def pg_bin() -> Path | None:
    """The newest installed PostgreSQL's bin folder (``$NEFERTITI_PG_BIN`` wins), or None."""
    given = os.environ.get("NEFERTITI_PG_BIN")
    if given:
        return Path(given) if (Path(given) / "pg_ctl").exists() else None
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PgServer:
    """One PostgreSQL cluster in a temporary folder: :meth:`start`, :meth:`restart`,
    :meth:`stop`; :attr:`url` is its SQLAlchemy URL."""

    def __init__(self, port: int | None = None):
        self.bin = pg_bin()
        if self.bin is None:
            raise RuntimeError(
                "PostgreSQL's server programs (initdb, pg_ctl) are not installed: "
                f"`{INSTALL}` (Debian) installs them; the database tests need a real server"
            )
        self.port = port or free_port()
        self.root = Path(tempfile.mkdtemp(prefix="nefertiti-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "log"
        self.user = None  # run the server as this user (root cannot)
        if os.geteuid() == 0:
            self.user = "postgres"
            try:
                entry = pwd.getpwnam(self.user)
            except KeyError:
                raise RuntimeError(
                    "running as root, the server must run as the 'postgres' user, which does "
                    f"not exist: `{INSTALL}` creates it"
                ) from None
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def run_tool(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [str(self.bin / argv[0]), *argv[1:]]
        if self.user:
            command = ["su", self.user, "-s", "/bin/sh", "-c", shlex.join(command)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if check and done.returncode:
            tail = self.log.read_text()[-2000:] if self.log.exists() else ""
            raise RuntimeError(
                f"{argv[0]} failed ({done.returncode}): {done.stderr.strip() or done.stdout}\n{tail}"
            )
        return done

    def start(self) -> PgServer:
        if not (self.data / "PG_VERSION").exists():
            self.run_tool(
                "initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8"
            )
        options = (
            f"-k {self.root} -p {self.port} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c max_connections=200"
        )
        self.run_tool(
            "pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.log), "-w", "start"
        )
        self.wait_ready()
        return self

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready = self.run_tool(
                "pg_isready", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
                check=False,
            )  # fmt: skip
            if ready.returncode == 0:
                return
            time.sleep(0.1)
        raise RuntimeError(f"PostgreSQL on port {self.port} not ready after {timeout} s")

    def stop(self, mode: str = "fast") -> None:
        self.run_tool("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def restart(self) -> None:
        """Stop the server (its clients' connections are cut) and start it again."""
        self.stop()
        self.start()

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


def fresh_database(url: str) -> str:
    """A new, empty database on the server of ``url``; returns its URL (a test's own store)."""
    import secrets

    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"t_{secrets.token_hex(6)}"
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as db:
            db.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return make_url(url).set(database=name).render_as_string(hide_password=False)


_server: PgServer | None = None


def server() -> PgServer:
    """The test session's server (started by the ``postgres_url`` fixture)."""
    assert _server is not None, "ask for the postgres_url fixture first"
    return _server


@pytest.fixture(scope="session")
def postgres_url():
    """A private PostgreSQL server for this test run: yields its SQLAlchemy URL; fails (never
    skips) when PostgreSQL is not installed."""
    global _server
    try:
        _server = PgServer().start()
    except RuntimeError as error:
        pytest.fail(str(error), pytrace=False)
    try:
        yield _server.url
    finally:
        _server.cleanup()
        _server = None
