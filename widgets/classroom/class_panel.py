"""The teacher's card of a class's record (on ``/classroom``, under the room): keep this room's
record in a class (one this browser made, or a new one), then the class's record per rule, the
weakest first, with each learner's right, wrong and practised, and the two CSV exports.

The class's key goes into this browser's HttpOnly cookie (``widgets.server.cookies.CLASS``,
through a one-time grant the page posts, as the room's teacher key does); the page never holds
it. Only a browser holding it sees the record here, and only it may download the exports
(``class_export.py`` checks the cookie on the server). Every read and write of the store is made
off the event loop; names are escaped.
"""

from __future__ import annotations

import panel as pn
import param

from nefertiti_core.engine.i18n import LANGUAGES, tr
from widgets.classroom.class_export import export_link
from widgets.classroom.classes import ClassError, ClassInfo, class_book
from widgets.classroom.room import Room
from widgets.game.common import HTML, esc, guarded, off_the_loop, on_page
from widgets.game.session import served_document
from widgets.server.cookies import CLASS, KEEP_JS, grant
from widgets.server.store import store_error
from widgets.theme import (
    CELL_LINE,
    HEADING,
    PROBLEM_TEXT,
    TABLE_HEAD,
    TEXT_NONE,
    TEXT_NOTE,
    VERDICT_COLOURS,
)

#: The page posts the grant of a class's key to /cookie (the answer sets the HttpOnly cookie).
GRANT_JS = KEEP_JS + "\nif (cb_obj.value) keep(cb_obj.value);\n"
#: The choice of the select that makes a new class.
NEW = "__new__"
#: Learners shown as columns of the card (the CSV has them all).
MAX_COLUMNS = 40


class ClassPanel(pn.viewable.Viewer):
    """The class card for ``room`` (see the module's doc): ``note`` (which class, or why none),
    ``choose`` (this browser's classes and "a new class"), ``new_name``, ``keep_button``,
    ``table`` (the record) and ``exports`` (the two CSV links)."""

    lang = param.Selector(default="en", objects=list(LANGUAGES))

    def __init__(self, room: Room, key: str, kept: dict[str, str], lang: str = "en", **params):
        super().__init__(lang=lang if lang in LANGUAGES else "en", **params)
        self.room, self.key = room, key
        #: this browser's classes: {class id: secret} (its cookie, and those made on this page)
        self.kept = dict(kept)
        self.info: ClassInfo | None = None  # the class this room feeds, when this browser holds it
        self.elsewhere = False  # the room feeds a class whose key this browser lacks
        self.mine: list[ClassInfo] = []
        self._why = ""
        self._reading = self._again = False
        self._title = HTML("", margin=(4, 10))
        self.note = HTML("", sizing_mode="stretch_width", css_classes=["class-note"])
        self.choose = pn.widgets.Select(width=220, css_classes=["class-choose"])
        self.choose.param.watch(self._on_choose, "value")
        self.new_name = pn.widgets.TextInput(width=220, css_classes=["class-new-name"])
        self.keep_button = pn.widgets.Button(color="primary", width=300, css_classes=["class-keep"])
        self.keep_button.on_click(self._on_keep)
        self._keep_row = pn.FlexBox(
            self.choose, self.new_name, self.keep_button, flex_wrap="wrap", align_items="flex-end"
        )
        self.table = HTML("", sizing_mode="stretch_width", css_classes=["class-record"])
        self.exports = HTML("", sizing_mode="stretch_width", css_classes=["class-exports"])
        self._grant = pn.widgets.TextInput(visible=False)
        self._grant.jscallback(value=GRANT_JS)
        self._layout = pn.Column(
            self._title,
            self.note,
            self._keep_row,
            self.exports,
            self.table,
            self._grant,
            sizing_mode="stretch_width",
            css_classes=["class-panel"],
        )
        self.param.watch(lambda *_: self._label(), "lang")
        self._label()
        self._load()
        # a reveal is recorded before the poll views hear it: the record is read again then
        self._doc = served_document()
        self._stop = room.polls.on_change(self._on_polls)

    def _on_polls(self, _polls, what: str) -> None:
        """A change of the room's questions (on the thread that made it): after a reveal, the
        record again, on this page's next tick."""
        if what != "reveal" or self.info is None:
            return
        if self._doc is None:
            self.refresh()
        else:
            on_page(self._doc, self.refresh)

    def __panel__(self):
        return self._layout

    # ------------------------------------------------------------------ reading
    def _load(self) -> None:
        """Which class the room feeds and which classes this browser holds (off the loop)."""
        room, kept = self.room, dict(self.kept)

        def work():
            book = class_book()
            if book is None:
                return None
            class_id = book.class_of(room.code)
            info = book.get(class_id) if class_id else None
            held = info is not None and book.is_teacher(class_id, kept.get(class_id, ""))
            return book.mine(kept), info if held else None, class_id is not None and not held

        off_the_loop(work, self._loaded)

    def _loaded(self, result) -> None:
        if result is None:
            self._why = tr(self.lang, "class.refuse.no_store", why=store_error() or "—")
        else:
            self.mine, self.info, self.elsewhere = result
        self._label()

    def refresh(self) -> None:
        """Read the class's record again (off the loop; once more after it if asked meanwhile)."""
        if self.info is None:
            return
        if self._reading:
            self._again = True
            return
        self._reading = True
        class_id, lang = self.info.id, self.lang

        def work():
            book = class_book()
            return book.roster(class_id), book.rules(class_id, lang)

        def done(result):
            self._reading = False
            self.table.object = self._table_html(*result)
            if self._again:
                self._again = False
                self.refresh()

        off_the_loop(work, done)

    # ------------------------------------------------------------------ keeping
    @guarded
    def _on_choose(self, *_):
        self.new_name.visible = self.choose.value == NEW and self.info is None

    @guarded
    def _on_keep(self, *_):
        self.keep(self.choose.value, self.new_name.value)

    def keep(self, choice, name: str = "") -> None:
        """Keep the room's record in the class ``choice`` (an id this browser holds) or, for
        :data:`NEW`, in a new class named ``name`` (off the loop; the page then shows it)."""
        room, key, kept = self.room, self.key, dict(self.kept)

        def work():
            book = class_book()
            if book is None:
                raise ClassError("class.refuse.no_store", why=store_error() or "—")
            if not room.is_teacher(key):
                return ClassError("class.refuse.not_teacher")
            if choice == NEW:
                info, secret = book.create(name)
            else:
                secret = kept.get(choice or "", "")
                info = book.get(choice) if secret else None
                if info is None or not book.is_teacher(info.id, secret):
                    return ClassError("class.refuse.choose")
            if not book.link(room, info.id):
                return ClassError("class.refuse.other_class")
            return info, secret

        def work_said():
            try:
                return work()
            except ClassError as error:
                return error

        def done(result):
            if isinstance(result, ClassError):
                self._why = result.text(self.lang)
                self._label()
                return
            info, secret = result
            self.kept = {info.id: secret, **{k: v for k, v in self.kept.items() if k != info.id}}
            self.info, self.elsewhere, self._why = info, False, ""
            if info not in self.mine:
                self.mine = [info, *self.mine]
            book = class_book()
            self._grant.value = grant(
                (CLASS, info.id, secret), check=lambda: book.is_teacher(info.id, secret)
            )
            self._label()

        off_the_loop(work_said, done)

    # ------------------------------------------------------------------ showing
    def _label(self) -> None:
        lang = self.lang
        title = esc(tr(lang, "class.panel.title"))
        self._title.object = f"<h3 style='margin:4px 0;font-size:20px;color:{HEADING}'>{title}</h3>"
        problem = (
            f"<p class='class-problem' role='alert' style='color:{PROBLEM_TEXT}'>"
            f"{esc(self._why)}</p>"
            if self._why
            else ""
        )
        if self.info is not None:
            words = tr(lang, "class.panel.kept_in", name="\x00")
            shown = esc(words).replace("\x00", f"<b class='class-name'>{esc(self.info.name)}</b>")
            self.note.object = f"<p>{shown}</p>{problem}"
            self._keep_row.visible = False
            self.exports.object = self._exports_html(lang)
            self.refresh()
            return
        self.exports.object = ""
        key = "class.panel.other_browser" if self.elsewhere else "class.panel.not_kept"
        self.note.object = f"<p style='color:{TEXT_NOTE}'>{esc(tr(lang, key))}</p>{problem}"
        self._keep_row.visible = not self.elsewhere
        options = {info.name: info.id for info in self.mine}
        options[tr(lang, "class.panel.new_class")] = NEW
        value = self.choose.value if self.choose.value in options.values() else None
        self.choose.param.update(
            options=options,
            value=value or (self.mine[0].id if self.mine else NEW),
            name=tr(lang, "class.panel.choose"),
        )
        self.new_name.param.update(
            name=tr(lang, "class.panel.new_name"), visible=self.choose.value == NEW
        )
        self.keep_button.name = tr(lang, "class.panel.keep")

    def _exports_html(self, lang: str) -> str:
        links = []
        for part in ("rules", "questions"):
            href = esc(export_link(self.info.id, part, lang))
            links.append(
                f"<a class='class-export-{part}' href='{href}' download "
                f"style='margin-right:16px'>⬇ {esc(tr(lang, f'class.panel.export_{part}'))}</a>"
            )
        return f"<div style='margin:4px 0 8px 0'>{''.join(links)}</div>"

    def _table_html(self, roster: dict[int, str], rows) -> str:
        lang = self.lang
        if not rows:
            return f"<p style='color:{TEXT_NONE}'>{esc(tr(lang, 'class.panel.empty'))}</p>"
        right, _, _ = VERDICT_COLOURS["right"]
        wrong, _, _ = VERDICT_COLOURS["wrong"]
        learners = list(roster.items())[:MAX_COLUMNS]
        cell = f"border:1px solid {CELL_LINE};padding:2px 6px;white-space:nowrap"

        def marks(p: int, r: int, w: int) -> str:
            if not (p or r or w):
                return ""
            return (
                f"<span style='color:{right}'>{r}✓</span> "
                f"<span style='color:{wrong}'>{w}✗</span> <span>{p}▶</span>"
            )

        head = "".join(
            f"<th style='{cell}' class='class-learner'>{esc(name)}</th>" for _, name in learners
        )
        body = []
        for row in rows:
            cells = "".join(
                f"<td style='{cell}'>{marks(*row.learners.get(number, (0, 0, 0)))}</td>"
                for number, _ in learners
            )
            body.append(
                f"<tr class='class-rule' data-rule='{esc(row.rule)}'>"
                f"<td style='{cell}'><b>{esc(row.rule)}</b> {esc(row.title)}</td>"
                f"<td style='{cell}'>{marks(row.practised, row.right, row.wrong)}</td>{cells}</tr>"
            )
        return (
            f"<p style='color:{TEXT_NOTE};font-size:13px;margin:2px 0'>"
            f"{esc(tr(lang, 'class.panel.legend'))}</p>"
            "<div style='overflow-x:auto'><table style='border-collapse:collapse;font-size:14px'>"
            f"<thead><tr style='background:{TABLE_HEAD}'>"
            f"<th style='{cell}'>{esc(tr(lang, 'class.panel.rule'))}</th>"
            f"<th style='{cell}'>{esc(tr(lang, 'class.panel.class_total'))}</th>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table></div>"
        )
