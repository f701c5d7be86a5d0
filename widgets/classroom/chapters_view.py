"""The chapters on the classroom's pages (the model is ``chapters.py``).

* :func:`chapter_note_html`: the table's chapter, its title and teaching text in the reader's
  language, for the teacher's, every learner's and the projector's page; a long teaching text
  folds away (``<details>``: one line on a phone until it is opened);
* :class:`Confirm`: a question with Yes and Cancel buttons in the page (plain buttons: a phone's
  tap works as a click; no browser dialog), for every change that moves the whole class;
* :class:`ChapterPanel`: the teacher's card: the chapters (switch, remove), the positions to
  stage by their titles in the class's language (never a file's name), a new chapter from the
  table's position or from a file (a position file, or a game the Sandbox saved: read in a
  worker process within the upload limits, ``widgets.server.upload``), and "Bring everyone
  back". Every change goes through the room off the event loop (``TableSession.through_room``).
"""

from __future__ import annotations

import re
import threading

import panel as pn

from nefertiti_core.engine.i18n import LANGUAGES, tr
from nefertiti_core.engine.limits import MAX_FILE_BYTES
from widgets.classroom.chapters import (
    CLASS_GAME,
    Chapter,
    scenario_names,
    shipped_scenario,
    titles_of,
)
from widgets.classroom.room import Room
from widgets.game.accessible import name_for_readers
from widgets.game.common import HTML, esc, guarded, off_the_loop, on_page
from widgets.game.session import served_document
from widgets.theme import HEADING, INK, LABEL, PAPER_WARM, RULE_LINE

#: The name a teacher's own Sandbox game is read under (never shown: its title is the catalog's).
SANDBOX_NAME = "sandbox-game.yaml"
#: A teaching text longer than this starts folded (its title stays in view).
OPEN_UP_TO = 180


def chapter_note_html(room: Room, lang: str, font_px: int = 15, open_up_to: int = OPEN_UP_TO):
    """The table's chapter for a page in ``lang``: "Chapter N of M", its title and teaching
    text (escaped); ``""`` while the class game is the only chapter."""
    chapters = room.chapters
    chapter = chapters.shown
    if len(chapters) == 1 and chapter.number == CLASS_GAME:
        return ""
    heading = tr(lang, "chapters.heading", n=chapters.index(chapter.number), count=len(chapters))
    title = chapter.title_in(lang)
    teaching = chapter.teaching_in(lang).strip()
    head = (
        f"<span style='color:{LABEL};font-size:{font_px - 2}px'>{esc(heading)}</span> "
        f"<b class='room-chapter-title' style='color:{HEADING}'>{esc(title)}</b>"
    )
    box = (
        f"<div class='room-chapter-note' data-chapter='{chapter.number}' "
        f"style='font-size:{font_px}px;line-height:1.35;color:{INK};background:{PAPER_WARM};"
        f"border:1px solid {RULE_LINE};border-radius:6px;padding:4px 10px;margin:2px 0'>"
    )
    if not teaching:
        return f"{box}{head}</div>"
    opened = " open" if len(teaching) <= open_up_to else ""
    # a file's lines are wrapped for its editor: one paragraph per blank line, as the page wraps
    paragraphs = "<br>".join(
        esc(" ".join(part.split())) for part in re.split(r"\n\s*\n", teaching) if part.strip()
    )
    return (
        f"{box}<details{opened}><summary style='cursor:pointer'>{head}</summary>"
        f"<div class='room-chapter-teaching' style='margin-top:2px'>{paragraphs}</div>"
        "</details></div>"
    )


class Confirm:
    """A question asked in the page before a change that moves the whole class: ``ask(text,
    action)`` shows it with Yes and Cancel; Yes runs ``action()``, either hides it."""

    def __init__(self) -> None:
        self.text = HTML("", sizing_mode="stretch_width", css_classes=["room-confirm-text"])
        self.yes = pn.widgets.Button(color="warning", width=150, css_classes=["room-confirm-yes"])
        self.no = pn.widgets.Button(width=110, css_classes=["room-confirm-no"])
        self.yes.on_click(self._on_yes)
        self.no.on_click(self._on_no)
        self._action = None
        self.pane = pn.Column(
            self.text,
            pn.Row(self.yes, self.no),
            visible=False,
            sizing_mode="stretch_width",
            css_classes=["room-confirm"],
            styles={"border": f"2px solid {RULE_LINE}", "border-radius": "6px", "padding": "4px"},
        )

    def label(self, lang: str) -> None:
        self.yes.name = tr(lang, "chapters.yes")
        self.no.name = tr(lang, "chapters.cancel")

    def ask(self, text: str, action) -> None:
        self._action = action
        self.text.object = f"<b>{esc(text)}</b>"
        self.pane.visible = True

    @property
    def asking(self) -> bool:
        return self.pane.visible

    def _on_yes(self, *_):
        action, self._action = self._action, None
        self.pane.visible = False
        if action is not None:
            action()

    def _on_no(self, *_):
        self._action = None
        self.pane.visible = False


def bad_file_text(lang: str, upload) -> str:
    """A refused upload (``widgets.server.upload.Upload``: its name, line and problem, the
    problem already in the page's language) worded in ``lang``, the line said apart when
    there is one."""
    problem = upload.problem or upload.error
    if upload.line:
        return tr(
            lang, "chapters.bad_file_line", name=upload.name, line=upload.line, problem=problem
        )
    return tr(lang, "chapters.bad_file", name=upload.name, problem=problem)


def sandbox_game(browser: str):
    """What reads the teacher's own latest Sandbox game (this browser's, by its id's hash, as the
    Sandbox keeps them: ``widgets.sandbox.autosave``) from the store, or None for a browser
    without an id. The reader may wait for the database: it is called off the event loop."""
    from widgets.server.store import valid_token

    if not valid_token(browser):
        return None

    def latest():
        from widgets.server.store import get_store, owner_of

        store = get_store()
        return store.latest(owner_of(browser)) if store is not None else None

    return latest


def upload_parts(upload) -> tuple:
    """A read upload as a chapter: (its game, titles by language, teaching texts by language).
    A position starts at its position; a game record (a Sandbox's saved game) keeps every
    branch and where it was."""
    from nefertiti_core.files.history import History

    if upload.record is not None:
        if upload.name == SANDBOX_NAME:
            return upload.history, titles_of("chapters.sandbox_title"), {}
        return upload.history, titles_of("chapters.upload_title", name=upload.name), {}
    scenario = upload.scenario
    scenario.state.log = []
    titles = dict(scenario.titles) or ({"en": scenario.title} if scenario.title else {})
    teachings = dict(scenario.teachings) or ({"en": scenario.teaching} if scenario.teaching else {})
    return (
        History(scenario.state),
        titles or titles_of("chapters.upload_title", name=upload.name),
        teachings,
    )


class ChapterPanel(pn.viewable.Viewer):
    """The teacher's chapters card (see the module's doc). Its parts, for the page and the
    tests: ``chapter_select`` and ``show_button`` / ``remove_button``, ``stage_select`` and
    ``stage_button``, ``from_table_button``, ``file_input`` and ``file_status``,
    ``back_button``, and ``confirm`` (:class:`Confirm`)."""

    def __init__(self, room: Room, key: str, session, lang: str = "en", saved_game=None):
        """``saved_game``: reads the teacher's latest Sandbox game from the store (off the event
        loop; :func:`sandbox_game`), or None: no such button."""
        self.room, self.key, self.session = room, key, session
        self.saved_game = saved_game
        self.lang = lang if lang in LANGUAGES else "en"
        self._updating = False
        self._upload_token = 0
        self.heading = HTML("")
        self.listing = HTML("", sizing_mode="stretch_width", css_classes=["room-chapters"])
        self.chapter_select = pn.widgets.Select(width=190, css_classes=["room-chapter-pick"])
        self.show_button = pn.widgets.Button(
            color="primary", width=150, css_classes=["room-chapter-show"]
        )
        self.remove_button = pn.widgets.Button(width=150, css_classes=["room-chapter-remove"])
        self.stage_select = pn.widgets.Select(width=190, css_classes=["room-stage-what"])
        self.stage_button = pn.widgets.Button(
            color="primary", width=150, css_classes=["room-stage"]
        )
        self.from_table_button = pn.widgets.Button(width=300, css_classes=["room-chapter-new"])
        self.sandbox_button = pn.widgets.Button(
            width=300, css_classes=["room-chapter-sandbox"], visible=saved_game is not None
        )
        self.file_label = HTML("", margin=(4, 10, 0, 10))
        self.file_input = pn.widgets.FileInput(
            accept=".yaml,.yml,.txt", multiple=False, css_classes=["room-chapter-file"]
        )
        self.file_status = pn.pane.Alert(
            "", alert_type="info", visible=False, css_classes=["room-chapter-file-status"]
        )
        self.back_button = pn.widgets.Button(
            color="primary", width=220, css_classes=["room-bring-back"]
        )
        self.confirm = Confirm()
        self.show_button.on_click(self._on_show)
        self.remove_button.on_click(self._on_remove)
        self.stage_button.on_click(self._on_stage)
        self.from_table_button.on_click(self._on_from_table)
        self.sandbox_button.on_click(self._on_sandbox)
        self.back_button.on_click(self._on_back)
        self.file_input.param.watch(self._on_file, "value")
        self._layout = pn.Column(
            self.heading,
            self.listing,
            pn.FlexBox(self.chapter_select, self.show_button, self.remove_button, flex_wrap="wrap"),
            pn.FlexBox(self.stage_select, self.stage_button, flex_wrap="wrap"),
            self.from_table_button,
            self.sandbox_button,
            self.file_label,
            self.file_input,
            self.file_status,
            self.back_button,
            self.confirm.pane,
            sizing_mode="stretch_width",
            css_classes=["room-chapters-card"],
        )
        self._titles: dict[str, dict] = {}  # shipped positions' titles, read once
        self.refresh(self.lang)

    def __panel__(self):
        return self._layout

    # ------------------------------------------------------------------ showing
    def _shipped_title(self, name: str, lang: str) -> str:
        if name not in self._titles:
            try:
                scenario = shipped_scenario(name)
                self._titles[name] = {code: scenario.title_in(code) for code in LANGUAGES}
            except Exception:  # a broken shipped file: its name, rather than nothing
                self._titles[name] = {}
        return self._titles[name].get(lang) or name

    def refresh(self, lang: str) -> None:
        self.lang = lang
        chapters = self.room.chapters
        self.heading.object = f"<b>{esc(tr(lang, 'chapters.title'))}</b>"
        items = []
        for chapter in chapters.items:
            here = chapter.number == chapters.current
            mark = f" <i>({esc(tr(lang, 'chapters.on_table'))})</i>" if here else ""
            items.append(
                f"<li class='room-chapter' data-chapter='{chapter.number}' "
                f"data-current='{int(here)}'>{esc(chapter.title_in(lang))}{mark}</li>"
            )
        self.listing.object = (
            f"<ol style='margin:2px 0 4px 0;padding-left:22px'>{''.join(items)}</ol>"
        )
        picks = {
            tr(lang, "chapters.chapter", n=place, title=chapter.title_in(lang))[:80]: chapter.number
            for place, chapter in enumerate(chapters.items, 1)
        }
        stage = {tr(lang, "chapters.new_game"): "new"}
        titled = sorted((self._shipped_title(name, lang), name) for name in scenario_names())
        stage.update({title: name for title, name in titled})
        self._updating = True
        try:
            chosen = self.chapter_select.value
            self.chapter_select.param.update(
                options=picks,
                value=chosen if chosen in picks.values() else chapters.current,
                name=tr(lang, "chapters.pick"),
            )
            self.stage_select.param.update(
                options=stage,
                value=self.stage_select.value
                if self.stage_select.value in stage.values()
                else "new",
                name=tr(lang, "room.stage"),
            )
        finally:
            self._updating = False
        self.show_button.name = tr(lang, "chapters.show")
        self.remove_button.name = tr(lang, "chapters.remove")
        self.stage_button.name = tr(lang, "room.stage_button")
        self.from_table_button.name = tr(lang, "chapters.from_table")
        self.sandbox_button.name = tr(lang, "chapters.sandbox")
        self.file_label.object = (
            f"<span style='font-size:14px'>{esc(tr(lang, 'chapters.upload'))}</span>"
        )
        name_for_readers(self.file_input, tr(lang, "chapters.upload"))  # the line above it
        self.back_button.param.update(
            name=tr(lang, "chapters.bring_back"), description=tr(lang, "chapters.bring_back_help")
        )
        self.confirm.label(lang)

    # ------------------------------------------------------------------ the teacher's actions
    def _through_room(self, work) -> None:
        self.session.through_room(work)

    @guarded
    def _on_show(self, *_):
        chapter = self.room.chapters.get(self.chapter_select.value)
        if chapter is not None:
            self.ask_show(chapter)

    def ask_show(self, chapter: Chapter) -> None:
        room, key, number = self.room, self.key, chapter.number
        self.confirm.ask(
            tr(self.lang, "chapters.confirm_show", title=chapter.title_in(self.lang)),
            lambda: self._through_room(lambda: room.switch_chapter(key, number)),
        )

    @guarded
    def _on_remove(self, *_):
        room, key = self.room, self.key
        chapter = room.chapters.get(self.chapter_select.value)
        if chapter is None:
            return
        if chapter.number == CLASS_GAME:  # said at once, the room would refuse it
            self._through_room(lambda: room.remove_chapter(key, CLASS_GAME))
            return
        number = chapter.number
        self.confirm.ask(
            tr(
                self.lang,
                "chapters.confirm_remove",
                n=room.chapters.index(number),
                title=chapter.title_in(self.lang),
            ),
            lambda: self._through_room(lambda: room.remove_chapter(key, number)),
        )

    @guarded
    def _on_stage(self, *_):
        room, key, name = self.room, self.key, self.stage_select.value
        if name is None:
            return
        title = (
            tr(self.lang, "chapters.new_game")
            if name == "new"
            else self._shipped_title(name, self.lang)
        )
        self.confirm.ask(
            tr(self.lang, "chapters.confirm_show", title=title),
            lambda: self._through_room(lambda: room.stage(key, name)),
        )

    @guarded
    def _on_from_table(self, *_):
        room, key, lang = self.room, self.key, self.lang
        title = tr(
            lang,
            "chapters.from_position",
            title=room.chapters.shown.title_in(lang),
            step=room.table.step,
        )
        self.confirm.ask(
            tr(lang, "chapters.confirm_show", title=title),
            lambda: self._through_room(lambda: room.chapter_from_table(key)),
        )

    @guarded
    def _on_back(self, *_):
        room, key = self.room, self.key
        self.confirm.ask(
            tr(self.lang, "chapters.confirm_back", title=room.chapters.shown.title_in(self.lang)),
            lambda: self._through_room(lambda: room.bring_back(key)),
        )

    # ------------------------------------------------------------------ a file
    @guarded
    def _on_sandbox(self, *_):
        self.take_sandbox_game()

    def take_sandbox_game(self) -> None:
        """The teacher's latest Sandbox game as a new chapter (every branch): read from the
        store off the event loop, then as an uploaded game record (the same checks)."""
        if self.saved_game is None:
            return
        read, lang = self.saved_game, self.lang

        def work():
            saved = read()
            return saved.record if saved is not None else None

        def then(record) -> None:
            if record is None:
                self._say(tr(lang, "chapters.no_sandbox"), "warning")
            else:
                self.read_file(record.encode("utf-8"), SANDBOX_NAME)

        off_the_loop(work, then)

    @guarded
    def _on_file(self, *_):
        data = self.file_input.value
        if data:
            self.read_file(data, (self.file_input.filename or "position.yaml")[:80])

    def read_file(self, data: bytes, name: str) -> None:
        """A position file or a saved game as a new chapter: checked in a worker process within
        the upload limits, read in a thread (a served page; at once otherwise), then added
        through the room. A bad file is said (the file, the line, the problem) in the page's
        language; the table and the class game are unchanged."""
        from widgets.server.upload import load_checked, read_upload

        self._upload_token += 1
        token = self._upload_token
        self._say(tr(self.lang, "chapters.reading", name=name), "info")
        doc = served_document()
        if doc is None:  # a notebook or a test: read here, within the size limit
            if len(data) > MAX_FILE_BYTES:
                from nefertiti_core.engine.said import too_large
                from widgets.server.upload import refused

                upload = refused(name, too_large(len(data), MAX_FILE_BYTES), lang=self.lang)
            else:
                try:
                    upload = read_upload(data, name, self.lang)
                except Exception as error:
                    from widgets.server.upload import refusal

                    upload = refusal(name, error, self.lang)
            self._file_read(token, upload)
            return

        def work():
            on_page(doc, self._file_read, token, load_checked(data, name, self.lang))

        threading.Thread(target=work, name="chapter-upload", daemon=True).start()

    def _file_read(self, token: int, upload) -> None:
        if token != self._upload_token:  # a newer file was chosen meanwhile
            return
        lang = self.lang
        if upload.error:
            self._say(bad_file_text(lang, upload), "danger")
            return
        try:
            history, titles, teachings = upload_parts(upload)
        except Exception as error:  # pragma: no cover - a file the worker passed: said
            from widgets.server.upload import refusal

            self._say(bad_file_text(lang, refusal(upload.name, error, lang)), "danger")
            return
        room, key, name = self.room, self.key, upload.name

        def added(why) -> None:
            if why is None:
                self._say(tr(lang, "chapters.uploaded", name=name, n=len(room.chapters)), "success")
            else:
                self._say(why.text(lang), "danger")

        def add() -> None:
            from widgets.classroom.room_work import change_room

            change_room(room, lambda: room.add_uploaded(key, history, titles, teachings), added)

        self._say("", "info")
        title = titles.get(lang) or titles.get("en") or next(iter(titles.values()), name)
        self.confirm.ask(tr(lang, "chapters.confirm_show", title=title), add)

    def _say(self, text: str, kind: str) -> None:
        self.file_status.param.update(object=esc(text), alert_type=kind, visible=bool(text))
