"""Limits on everything a user can send: files, their fields, moves and names.

Every limit is here, in one place, with the reason for its size. A file or an input over a limit
is refused with one line naming the file, the line and the field; nothing is read past the limit
(a file is read only if it is a regular file, and at most :data:`MAX_FILE_BYTES` + 1 bytes).
The figures are far above anything a real game or lesson needs:

- A game record of a whole game is about 10 KB and 150 to 300 steps; the largest position file
  shipped with the tutor is under 2 KB.
- A random state (``random_state``) is 625 numbers: about 6.5 KB of JSON once decoded, about
  4 KB in the file.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

#: Bytes in a position or record file (1 MiB: a hundred whole games' records would fit).
MAX_FILE_BYTES = 1 << 20
#: Characters of ``random_state`` as written in the file (base64 text).
MAX_RANDOM_STATE_CHARS = 16_384
#: Bytes of ``random_state`` once decompressed (a zlib bomb stops here, unread past it).
MAX_RANDOM_STATE_BYTES = 16_384
#: Nesting of ``[``/``{`` and of indented blocks (a scenario file nests 5 deep at most).
MAX_DEPTH = 32
#: Digits of an integer in a file (a 128-bit seed has 39).
MAX_INT_DIGITS = 40
#: Largest count, Deben, prestige, turn number ... (12 digits; a seed may be larger).
MAX_COUNT = 10**12 - 1
#: Steps in a record or a scenario's ``moves`` (a whole game is 150 to 300).
MAX_STEPS = 5_000
#: Branches in a whole game record (format 2); their steps count together towards MAX_STEPS.
MAX_BRANCHES = 100
#: Dice in one ``roll`` step, and dice fixed ahead at once (Louqsor rolls two, R3.7, R4.4).
MAX_DICE_PER_ROLL = 6
MAX_FORCED_ROLLS = 12
#: Characters of a title, of a teaching text, of one move's text and of a branch's name.
MAX_TITLE_CHARS = 200
MAX_TEXT_CHARS = 20_000
MAX_MOVE_CHARS = 200
MAX_NAME_CHARS = 60
#: Characters of a user's input quoted back in a message (longer ones end in "…").
ECHO_CHARS = 40
#: Characters of an error line (the command line prints exactly one).
MAX_MESSAGE_CHARS = 200

BOM = "\ufeff"
#: The operating system's reasons for not reading a file that the catalogue words in each
#: language (``file_reading.json``); any other is the system's own (English) text.
OS_REASONS = {
    errno.EACCES: "file.os.denied",
    errno.EPERM: "file.os.denied",
    errno.ENOSPC: "file.os.no_space",
}


class FileLimitError(ValueError):
    """A file that is not read: not a regular file, too large, not UTF-8 text, missing.

    ``key`` and ``params`` name the reason in the message catalogue (``file_reading.json``), so
    that :func:`.said.file_limit` words it in a page's or the command line's language; ``str()``
    is its English. (The catalogue's words, not :mod:`.said`: that module sits above this one.)"""

    def __init__(self, key: str, **params):
        from .i18n import catalog  # no engine import below it

        self.key, self.params = key, params
        shown = {name: f"{v:,}" if isinstance(v, int) else v for name, v in params.items()}
        super().__init__(catalog("en")[key].format(**shown))


def echo(value, limit: int = ECHO_CHARS) -> str:
    """``repr(value)`` cut to ``limit`` characters with "…", for quoting input in a message."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    text = (
        repr(value)
        if not isinstance(value, str) or len(value) <= 4 * limit
        else repr(value[: 4 * limit])
    )
    return text if len(text) <= limit else text[: limit - 1] + "…"


def one_line(message: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """A message on one line of at most ``limit`` characters."""
    text = " ".join(str(message).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def read_text(path: str | os.PathLike, limit: int = MAX_FILE_BYTES) -> str:
    """A regular file's text (UTF-8, a leading BOM dropped), refusing anything else at once.

    A FIFO, a device (``/dev/zero``), a directory or a file over ``limit`` bytes is refused
    before it is read; no more than ``limit`` + 1 bytes are ever read (a file may grow).
    """
    path = Path(path)
    try:
        info = os.stat(path)
    except OSError as error:
        raise unreadable(error) from None
    if not stat.S_ISREG(info.st_mode):
        kind = "file.limit.folder" if stat.S_ISDIR(info.st_mode) else "file.limit.not_regular"
        raise FileLimitError(kind)
    if info.st_size > limit:
        raise FileLimitError("file.limit.too_large", size=info.st_size, most=limit)
    try:
        # O_NONBLOCK: should the path have become a FIFO since stat, opening does not hang.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise FileLimitError("file.limit.not_regular")
            chunks, size = [], 0
            while size <= limit:
                chunk = os.read(fd, limit + 1 - size)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        finally:
            os.close(fd)
    except OSError as error:
        raise unreadable(error) from None
    data = b"".join(chunks)
    if len(data) > limit:
        raise FileLimitError("file.limit.too_large", size=len(data), most=limit)
    return decode(data)


def unreadable(error: OSError) -> FileLimitError:
    """Why the system did not let a file be read, as the catalogue words it: a missing file and
    a folder as :func:`read_text` says them, the reasons of :data:`OS_REASONS` in the reader's
    language, any other in the system's words."""
    if error.errno == errno.ENOENT:
        return FileLimitError("file.limit.missing")
    if error.errno == errno.EISDIR:
        return FileLimitError("file.limit.folder")
    key = OS_REASONS.get(error.errno)
    if key is None:
        return FileLimitError("file.limit.unreadable", why=str(error.strerror or error))
    from .said_text import Said  # a catalogue text: the message's languages say it each

    return FileLimitError("file.limit.unreadable", why=Said(key))


def decode(data: bytes, limit: int = MAX_FILE_BYTES) -> str:
    """Bytes of an upload or a file as text: size checked, UTF-8, a leading BOM dropped."""
    if len(data) > limit:
        raise FileLimitError("file.limit.too_large", size=len(data), most=limit)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FileLimitError("file.limit.not_utf8", byte=str(error.start)) from None
    return text[1:] if text.startswith(BOM) else text
