"""Secrets out of the server's log: a request's address may carry one (a classroom's projector
link carries its token, ``?projector=…``; an old teacher link its key, ``?key=…``) until the
page takes it out of the address bar, and Tornado logs every request's address (``tornado.access``:
``200 GET /projector?room=…&projector=… (127.0.0.1) 12.3ms``), as do its error lines. Installed
by ``widgets.serve``: the values of :data:`SECRET_ARGUMENTS` are replaced by ``…`` in every
line of Tornado's loggers and the served app's own, before any handler writes it.
"""

from __future__ import annotations

import logging
import re

#: Query arguments whose values are secrets.
SECRET_ARGUMENTS = ("key", "projector")
#: The loggers that may write a request's address.
LOGGERS = ("tornado.access", "tornado.application", "tornado.general", "widgets.server.patches")
HIDDEN = "\u2026"

_SECRET = re.compile(r"([?&;](?:" + "|".join(SECRET_ARGUMENTS) + r")=)[^&;#\s\"')]*", re.I)


def redact(text: str) -> str:
    """``text`` with the value of every secret query argument replaced by ``…``."""
    return _SECRET.sub(lambda m: m.group(1) + HIDDEN, text)


class RedactSecrets(logging.Filter):
    """A log record's message and arguments with the secret query arguments' values hidden."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {
                k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()
            }
        return True


_FILTER = RedactSecrets()


def install() -> None:
    """Hide the secrets in every line of :data:`LOGGERS` (once per process)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
