"""``GET /class-record.csv``: a class's record as CSV, for the class's teacher only.

``?class=<id>&part=rules`` gives one row per learner and rule (practised, right, wrong);
``part=questions`` one row per learner and question answered (when, the question, the answer,
right or not, its rules); ``lang`` the language of the headers, titles and questions. Both are
UTF-8 with a byte order mark, their text cells escaped against spreadsheet formulas
(``widgets.classroom.classes.safe_cell``).

Who may: the browser whose HttpOnly cookie (``widgets.server.cookies.CLASS``, SameSite=Strict)
holds the class's key, checked here on the server against the key's hash. Anyone else (a
learner, the teacher of another class, a stranger with the link, another site) gets 403 and a
sentence saying who may, in their browser's language; an unknown class, 404. The store is read
off the event loop.
"""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import urlencode

from nefertiti_core.engine.i18n import LANGUAGES, language_from_header, tr
from widgets.classroom.room import CODE_RE

log = logging.getLogger("widgets.classroom.classes")

EXPORT_PATH = "/class-record.csv"
PARTS = ("rules", "questions")


def export_link(class_id: str, part: str, lang: str) -> str:
    """The export's address (same origin: the page's own server)."""
    return f"{EXPORT_PATH}?{urlencode({'class': class_id, 'part': part, 'lang': lang})}"


def export(class_id, secret, part: str, lang: str) -> tuple[int, str]:
    """``(status, body)`` of an export: 200 and the CSV for the class's key, else 403, 404 (no
    such class) or 503 (no store) with a sentence in ``lang``."""
    from widgets.classroom.classes import class_book

    lang = lang if lang in LANGUAGES else "en"
    book = class_book()
    if book is None:
        return 503, tr(lang, "class.refuse.no_store", why="—")
    if not isinstance(class_id, str) or not CODE_RE.fullmatch(class_id) or part not in PARTS:
        return 404, tr(lang, "class.export.unknown")
    if book.get(class_id) is None:
        return 404, tr(lang, "class.export.unknown")
    if not book.is_teacher(class_id, secret):
        return 403, tr(lang, "class.export.forbidden")
    book.seen(class_id)
    if part == "rules":
        return 200, book.rules_csv(class_id, lang)
    return 200, book.questions_csv(class_id, lang)


def export_handler():
    """The Tornado handler of :data:`EXPORT_PATH` (``widgets.serve`` routes it)."""
    from tornado.web import RequestHandler

    from widgets.server.cookies import CLASS, parse

    class ExportHandler(RequestHandler):
        def set_default_headers(self):
            self.set_header("Cache-Control", "no-store")
            self.set_header("X-Content-Type-Options", "nosniff")

        async def get(self):
            class_id = self.get_query_argument("class", "")[:40]
            part = self.get_query_argument("part", "rules")[:20]
            lang = self.get_query_argument("lang", "")[:5]
            if lang not in LANGUAGES:
                lang = language_from_header(self.request.headers.get("Accept-Language", ""))
            try:
                kept = parse(CLASS, self.get_cookie(CLASS.name, "") or "")
            except Exception:  # a Cookie header Python's parser refuses: as if none
                kept = {}
            secret = kept.get(class_id, "") if isinstance(kept, dict) else ""
            loop = asyncio.get_running_loop()
            try:
                status, body = await loop.run_in_executor(
                    None, export, class_id, secret, part, lang
                )
            except Exception as error:  # the store away: said, never a traceback
                log.warning("a class export failed: %s", str(error)[:200])
                status, body = 503, tr(lang, "class.refuse.no_store", why="—")
            self.set_status(status)
            if status == 200:
                self.set_header("Content-Type", "text/csv; charset=utf-8")
                self.set_header(
                    "Content-Disposition",
                    f'attachment; filename="class-{class_id}-{part}.csv"',
                )
            else:
                self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish(body.encode("utf-8"))

    return ExportHandler
