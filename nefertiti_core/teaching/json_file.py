"""The small JSON files kept in ``$NEFERTITI_HOME`` (the learner record, the practice state, the
difficulty calibration): read, locked, written and set aside the same way, by one copy of the code.

- :func:`read_bytes` tells a file that **cannot be read** (no permission, too many open files, a
  failing disk, not a regular file: :class:`Unreadable`, the file is left alone and the caller
  goes on in memory) from one that was read and **is not what it should be** (over its size:
  :class:`Damaged`; the caller's parser raises :class:`Damaged` for the rest, with what could
  still be read as ``salvage``);
- :func:`move_aside` renames a damaged file to ``<name>.broken-<UTC time>`` (never over an
  earlier one);
- :func:`locked` takes ``<file>.lock`` for a read-modify-write across processes, waiting at most
  ``seconds`` (a writer that holds it longer is reported, never waited for without end);
- :func:`write_atomic` replaces the file by a temporary one, fsynced, renamed, and the folder
  fsynced (a symlink's target is the caller's to resolve).

Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import time
from pathlib import Path

try:  # POSIX; elsewhere files are written without a lock (still atomically)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

__all__ = [
    "LOCK_SECONDS",
    "Damaged",
    "Unreadable",
    "fsync_folder",
    "locked",
    "move_aside",
    "read_bytes",
    "write_atomic",
]

LOCK_SECONDS = 10.0  # how long a writer waits for another before keeping its update for later


class Unreadable(Exception):
    """The file is there but cannot be read: leave it alone (``key``: the warning's message)."""

    def __init__(self, reason, key: str = "coverage.unreadable"):
        super().__init__(reason)
        self.reason, self.key = reason, key


class Damaged(Exception):
    """The file was read but is not what it should be: move it aside (``salvage``: what could
    still be read from it)."""

    def __init__(self, reason, salvage=None):
        super().__init__(reason)
        self.reason, self.salvage = reason, {} if salvage is None else salvage


def read_bytes(target: Path, max_bytes: int) -> bytes | None:
    """The bytes of ``target`` (None if there is no file). Raises :class:`Unreadable` or, for a
    file over ``max_bytes``, :class:`Damaged`."""
    try:
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (FileNotFoundError, NotADirectoryError):
        return None  # nothing kept there yet (or no folder it could be in)
    except OSError as error:
        raise Unreadable(error) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable("not a regular file")
        if info.st_size > max_bytes:
            raise Damaged(f"{info.st_size} bytes, more than {max_bytes}")
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > max_bytes:
                raise Damaged(f"more than {max_bytes} bytes")
    except OSError as error:
        raise Unreadable(error) from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def move_aside(target: Path) -> Path:
    """Rename a damaged file to ``<name>.broken-<UTC time>`` next to it (raises OSError)."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    for n in range(1000):
        suffix = f".broken-{stamp}" + (f"-{n}" if n else "")
        aside = target.with_name(target.name + suffix)
        if not aside.exists():
            os.rename(target, aside)
            return aside
    raise OSError(17, "too many damaged copies kept already")


@contextlib.contextmanager
def locked(target: Path, seconds: float = LOCK_SECONDS, lock_module=None):
    """An exclusive lock on ``<target>.lock`` for a read-modify-write. Yields True when locked,
    False when no lock could be had (no fcntl, the folder is read-only: go on, the write is still
    atomic) and None when another writer held it longer than ``seconds``. ``lock_module``: the
    ``fcntl`` to use (default this module's; None where there is none)."""
    module = fcntl if lock_module is None else lock_module
    if module is None or module is False:
        yield False
        return
    name = str(target) + ".lock"
    try:
        try:
            handle = open(name, "a")  # noqa: SIM115 - closed below
        except FileNotFoundError:  # the first save: make the folder, then lock
            target.parent.mkdir(parents=True, exist_ok=True)
            handle = open(name, "a")  # noqa: SIM115 - closed below
    except OSError:
        yield False
        return
    try:
        deadline = time.monotonic() + seconds
        while True:
            try:
                module.flock(handle.fileno(), module.LOCK_EX | module.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    yield None
                    return
                time.sleep(0.005)
            except OSError:  # a file system without locks
                yield False
                return
        try:
            yield True
        finally:
            module.flock(handle.fileno(), module.LOCK_UN)
    finally:
        handle.close()


def write_atomic(target: Path, text: str, prefix: str = ".json-") -> None:
    """Replace ``target`` atomically with ``text`` (keeping its permissions; raises OSError)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(OSError):
            if target.exists():
                os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_folder(target.parent)


def fsync_folder(folder: Path) -> None:
    """Make a rename itself durable (POSIX); harmless where folders cannot be opened."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
