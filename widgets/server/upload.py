"""Uploaded files are read off the server's event loop, within a time and a memory budget.

An upload arrives as bytes in the session's callback, on the event loop that serves every
session. Reading it there let one crafted file stall everyone (a zlib bomb in ``random_state``
took the server from 100 MB to 2-4 GB and another session's click waited 6 s). Now:

1. The size is checked at once (:data:`nefertiti_core.engine.limits.MAX_FILE_BYTES`).
2. A worker process loads the file exactly as the session will, under an address-space limit
   (RLIMIT_AS, :data:`WORKER_MEMORY_MIB`) and a CPU-time limit (:data:`WORKER_CPU_SECONDS`), and
   is killed after :data:`WORKER_WALL_SECONDS`. Whatever the file does, the server's memory and
   event loop are not involved; a refusal is one line naming the file, the line and the field.
3. Only a file the worker loaded is read again in the server, in a thread (the engine's limits
   bound that work), and the session changes on the loop's next tick.

:func:`check_in_worker` and :func:`read_upload` are the two steps; the Sandbox runs them in a
thread. In a notebook or a test (no served document) the Sandbox reads the file directly.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from dataclasses import dataclass, field

from nefertiti_core.engine.errors import NefertitiError
from nefertiti_core.engine.limits import MAX_FILE_BYTES, FileLimitError, decode, one_line
from nefertiti_core.engine.said import file_limit, in_lang, said, too_large

#: The worker's budget: CPU seconds, real seconds (a loaded machine), address space in MiB.
WORKER_CPU_SECONDS = 5
WORKER_WALL_SECONDS = 20
WORKER_MEMORY_MIB = 768
#: Workers at once, for the whole server (uploads beyond wait their turn, then are refused after
#: WORKER_QUEUE_SECONDS): a client sending many files cannot start many 768 MiB processes.
MAX_WORKERS = 2
WORKER_QUEUE_SECONDS = 30
#: The worker slots (MAX_WORKERS): an upload holds one while its worker reads the file.
WORKER_SLOTS = threading.BoundedSemaphore(MAX_WORKERS)

_WORKER = r"""
import json, os, resource, sys
os.nice(10)  # the server's sessions come first
limit = int(sys.argv[2]) * 1024 * 1024
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
cpu = int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
data = sys.stdin.buffer.read()
try:
    import importlib.util  # this file alone: the widgets package would import Panel
    spec = importlib.util.spec_from_file_location("nefertiti_upload", sys.argv[4])
    module = sys.modules["nefertiti_upload"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    print(json.dumps(module.worker_answer(data, sys.argv[1], sys.argv[5])))
except MemoryError:
    print(json.dumps({"error": "memory"}))
except RecursionError:
    print(json.dumps({"error": "nested too deeply"}))
"""


@dataclass
class Upload:
    """A file read: a scenario, or a record with its replayed history; or why it was refused."""

    name: str
    scenario: object | None = None
    record: object | None = None
    history: object | None = None
    warnings: list[str] = field(default_factory=list)
    #: Why it was refused, in one line naming the file ("" when it was read).
    error: str = ""
    #: The refusal's parts, for a page that words the sentence itself: the line of the file
    #: (None when the refusal has none) and what is wrong there, without the file and the line.
    line: int | None = None
    problem: str = ""


def refusal(name: str, error: Exception, lang: str = "en") -> Upload:
    """An upload refused by ``error``, in one line worded in ``lang``: an engine error says
    itself; anything else (a bug, a file nested too deeply) is named, never a traceback."""
    from nefertiti_core.files.reader import ScenarioError

    if isinstance(error, ScenarioError):
        problem = one_line(error.detail(lang))
        return Upload(name, error=one_line(error.message(lang)), line=error.line, problem=problem)
    if isinstance(error, NefertitiError):
        worded = one_line(error.message(lang))
        return Upload(name, error=worded, problem=worded)
    return refused(name, said("upload.unreadable", why=one_line(str(error), 120)), lang=lang)


def refused(name: str, problem: str, line: int | None = None, lang: str = "en") -> Upload:
    """An upload refused for ``problem`` (at ``line``): its one line names the file first; a
    catalogue message (:mod:`nefertiti_core.engine.said`) is worded in ``lang``."""
    from nefertiti_core.engine.i18n import tr

    text = in_lang(problem, lang)
    error = one_line(f"{name}{tr(lang, 'file.sep')}{text}")
    return Upload(name, error=error, line=line, problem=one_line(text))


def read_upload(data: bytes, name: str, lang: str = "en") -> Upload:
    """Read an upload as the session loads it (raises the engine's errors; for the worker and
    for the thread). A record is replayed here, so that the loop only installs the result.
    A scenario's warnings are worded in ``lang``, the page's language."""
    from nefertiti_core.files.history import GameRecord, load_any
    from nefertiti_core.files.scenario import ScenarioError

    try:
        text = decode(data)
    except FileLimitError as error:
        raise ScenarioError(name, (), file_limit(error)) from None
    loaded = load_any(text, name)
    if isinstance(loaded, GameRecord):
        loaded.start.log = []
        return Upload(name, record=loaded, history=loaded.replay(source=name))
    scenario = loaded
    return Upload(name, scenario=scenario, warnings=scenario.warnings_in(lang))


def worker_answer(data: bytes, name: str, lang: str) -> dict:
    """What the worker process prints (as JSON) after reading an upload: ``{"error": None}`` if
    it loads, else the refusal worded in ``lang`` and the kind of error. MemoryError and
    RecursionError pass through: the worker answers them itself, as the file's fault."""
    try:
        read_upload(data, name, lang)
    except (MemoryError, RecursionError):
        raise
    except Exception as error:  # an engine error, or a bug in the reader: said, never a traceback
        upload = refusal(name, error, lang)
        return {
            "error": upload.error,
            "kind": type(error).__name__,
            "line": upload.line,
            "problem": upload.problem,
        }
    return {"error": None}


def check_in_worker(data: bytes, name: str, lang: str = "en") -> str | None:
    """Load the upload in a worker process within the budget: None if it loads, else the reason
    in one line (at most 200 characters) naming the file; a file's error is worded in ``lang``."""
    upload = refused_in_worker(data, name, lang)
    return None if upload is None else upload.error


def refused_in_worker(data: bytes, name: str, lang: str = "en") -> Upload | None:
    """:func:`check_in_worker`'s answer as a refused :class:`Upload` (its line and problem
    apart, for a page that words the sentence itself), or None if the file loads."""
    shown = one_line(name, 60)
    if len(data) > MAX_FILE_BYTES:
        return refused(shown, too_large(len(data), MAX_FILE_BYTES), lang=lang)
    if not WORKER_SLOTS.acquire(timeout=WORKER_QUEUE_SECONDS):
        return refused(shown, said("upload.busy"), lang=lang)
    try:
        return _run_worker(data, shown, lang)
    finally:
        WORKER_SLOTS.release()


def _run_worker(data: bytes, shown: str, lang: str = "en") -> Upload | None:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                _WORKER,
                shown,
                str(WORKER_MEMORY_MIB),
                str(WORKER_CPU_SECONDS),
                os.path.abspath(__file__),
                lang,
            ],
            input=data,
            capture_output=True,
            timeout=WORKER_WALL_SECONDS,
            env=env,
            cwd=root,
        )
    except subprocess.TimeoutExpired:
        return refused(shown, said("upload.too_slow", seconds=str(WORKER_WALL_SECONDS)), lang=lang)
    lines = done.stdout.decode("utf-8", "replace").strip().splitlines()
    try:
        answer = json.loads(lines[-1])
    except (IndexError, ValueError):
        answer = None
    if answer is None or done.returncode != 0:  # killed: the CPU limit, or memory ran out
        costly = said(
            "upload.too_costly", seconds=str(WORKER_CPU_SECONDS), mib=str(WORKER_MEMORY_MIB)
        )
        return refused(shown, costly, lang=lang)
    error = answer["error"]
    if error is None:
        return None
    if error == "memory":
        return refused(shown, said("upload.too_much_memory", mib=str(WORKER_MEMORY_MIB)), lang=lang)
    if error == "nested too deeply":  # the worker's RecursionError
        return refused(shown, said("upload.nested"), lang=lang)
    problem = answer.get("problem") or error
    if not error.startswith(shown):  # the engine's errors name the file already
        error = f"{shown}: {error}"
    return Upload(shown, error=one_line(error), line=answer.get("line"), problem=problem)


def load_checked(data: bytes, name: str, lang: str = "en") -> Upload:
    """Both steps, for a thread: the worker's check, then the reading; a file's errors and
    warnings worded in ``lang``. Never raises."""
    try:
        turned_down = refused_in_worker(data, name, lang)
        if turned_down is not None:
            turned_down.name = name
            return turned_down
        return read_upload(data, name, lang)
    except Exception as error:  # the worker passed it but this process refused it (or a bug)
        return refusal(name, error, lang)
