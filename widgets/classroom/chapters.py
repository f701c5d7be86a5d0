"""A room's chapters: the positions a class looks at, kept side by side as a lichess Study keeps
its chapters, so that staging a position never loses the class game.

No Panel here. Chapter 1 is always **the class game** (the table the room opened with); every
position the teacher puts on the table is another chapter: a shipped position (by its file's
name: staging it again reopens that chapter, with the moves played in it), the table's current
position ("New chapter from this position"), or a file the teacher uploaded (a position file, or
a game record the Sandbox saved: every branch kept). One chapter is the table's at a time (the
room's ``table`` is its game); the others keep their own game, every branch and step, until the
teacher switches back to them. The seats, the class questions and the learners are the room's,
not a chapter's. A room holds at most :data:`MAX_CHAPTERS`; a refusal says so.

Each chapter carries its title and teaching text in every language the file gave (a shipped
position has all three), shown on the teacher's, the learners' and the projector's pages in each
reader's own language.

:class:`ChapterRoom` is the room's side of it (``Room`` inherits it): every change is the
teacher's, made under the room's lock and written like any change of the table (``"table"``).
Switching chapters, and "Bring everyone back", end every learner's break-away copy
(:attr:`Chapters.recalls` counts them, so that another process drops its copies too and the
learners' pages can say why they are back at the table).

Kept in the store as JSON (:func:`chapters_text`, :func:`read_chapters`; the room store's
``chapters`` column): every chapter but the current one with its whole game record (the
current one's is the room's ``record``), bounded by :data:`MAX_CHAPTERS_CHARS`, read back
defensively: a value that cannot be read leaves the room with its table as the class game.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from importlib import resources

from nefertiti_core.engine.i18n import LANGUAGES, tr
from nefertiti_core.engine.limits import MAX_TEXT_CHARS, MAX_TITLE_CHARS
from nefertiti_core.files.history import History
from widgets.classroom.refusal import Refusal, retried

log = logging.getLogger("widgets.classroom")

#: Chapters a room may hold (the class game included).
MAX_CHAPTERS = 20
#: The chapters as stored (JSON): past this the oldest chapters' games are left out (said in
#: the log); the class game is always kept.
MAX_CHAPTERS_CHARS = 2_000_000
#: The class game's number: always there, never removed.
CLASS_GAME = 1
KINDS = ("game", "shipped", "position", "upload", "new")


@dataclass
class Chapter:
    """One chapter: its number (stable; 1 is the class game), what it came from (``kind``:
    the class game, a shipped position, the table's position, an uploaded file, a new game),
    the shipped position's name (``""`` otherwise), its titles and teaching texts by language,
    and its game while it is not the table's (``history``; None while it is)."""

    number: int
    kind: str = "game"
    name: str = ""
    titles: dict = field(default_factory=dict)
    teachings: dict = field(default_factory=dict)
    history: History | None = None

    def title_in(self, lang: str) -> str:
        """The title in ``lang`` (else English, else any); the class game's own words."""
        if self.number == CLASS_GAME:
            return tr(lang if lang in LANGUAGES else "en", "chapters.class_game")
        return (
            self.titles.get(lang) or self.titles.get("en") or next(iter(self.titles.values()), "")
        )

    def teaching_in(self, lang: str) -> str:
        """The teaching text in ``lang`` (else English, else none)."""
        return self.teachings.get(lang) or self.teachings.get("en") or ""


class Chapters:
    """The room's chapters in order, which one is the table's (``current``), the next number
    to give, and how many times the teacher ended every break-away (``recalls``)."""

    def __init__(self) -> None:
        self.items: list[Chapter] = [Chapter(CLASS_GAME)]
        self.current = CLASS_GAME
        self.next_number = CLASS_GAME + 1
        self.recalls = 0

    def __len__(self) -> int:
        return len(self.items)

    def get(self, number) -> Chapter | None:
        if not isinstance(number, int) or isinstance(number, bool):
            return None
        return next((c for c in self.items if c.number == number), None)

    @property
    def shown(self) -> Chapter:
        """The table's chapter."""
        return self.get(self.current) or self.items[0]

    def shipped(self, name: str) -> Chapter | None:
        """The chapter of the shipped position ``name``, if it is one already."""
        return next((c for c in self.items if c.kind == "shipped" and c.name == name), None)

    def index(self, number: int) -> int:
        """The chapter's place in the list, 1 and up (what the pages call "chapter N")."""
        return next((i + 1 for i, c in enumerate(self.items) if c.number == number), 0)


def scenario_names() -> list[str]:
    """The positions a teacher may stage: the scenario files shipped with the engine, by name."""
    folder = resources.files("nefertiti_core").joinpath("scenarios")
    return sorted(e.name[:-5] for e in folder.iterdir() if e.name.endswith(".yaml"))


def shipped_scenario(name: str):
    """A shipped position (a name :func:`scenario_names` gives) read: its state, titles and
    teaching texts (``ScenarioError`` for a broken file, a bug)."""
    from nefertiti_core.files.scenario import loads_scenario

    folder = resources.files("nefertiti_core").joinpath("scenarios")
    text = folder.joinpath(f"{name}.yaml").read_text(encoding="utf-8")
    return loads_scenario(text, f"{name}.yaml")


def titles_of(key: str, **params) -> dict:
    """A catalog message in every language (a chapter's title made by the room)."""
    return {lang: tr(lang, key, **params) for lang in LANGUAGES}


def _texts(value, limit: int) -> dict:
    """Texts by language as kept: only the languages offered, only text, each clipped."""
    if not isinstance(value, dict):
        return {}
    return {k: v[:limit] for k, v in value.items() if k in LANGUAGES and isinstance(v, str) and v}


def _refusal(key: str, **params) -> Refusal:
    return Refusal(key, params)


class ChapterRoom:
    """The room's chapters and the teacher's actions on them (``Room`` inherits this; every
    method holds the room's lock and tells the room's listeners of a change as ``"table"``)."""

    @retried
    def stage(self, secret, name):
        """Put a shipped position on the table (by its file's name, without ``.yaml``) as a
        chapter, or a new game (``"new"``): a chapter of its own, made the table's; a shipped
        position that is a chapter already is reopened with its moves. The class game stays
        as chapter 1."""
        from nefertiti_core import new_game
        from nefertiti_core.files.scenario import ScenarioError

        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            if name == "new":
                state = new_game(4, 0, record_events=True)
                chapter = Chapter(0, "new", titles=titles_of("chapters.new_game"))
                return self._add_chapter(chapter, History(state))
            if not isinstance(name, str) or name not in scenario_names():
                shown = str(name)[:40] if isinstance(name, str) else type(name).__name__
                return _refusal("room.refuse.no_position", name=shown)
            known = self.chapters.shipped(name)
            if known is not None:
                return self._show_chapter(known)
            try:
                scenario = shipped_scenario(name)
            except ScenarioError as error:  # a shipped file: a bug, said plainly
                return Refusal("", text_en=str(error))
            scenario.state.log = []
            chapter = Chapter(
                0,
                "shipped",
                name,
                _texts(scenario.titles or {"en": scenario.title or name}, MAX_TITLE_CHARS),
                _texts(scenario.teachings or {"en": scenario.teaching}, MAX_TEXT_CHARS),
            )
            return self._add_chapter(chapter, History(scenario.state))

    @retried
    def chapter_from_table(self, secret):
        """A new chapter from the table's position now (its game starts there), made the
        table's; the chapter it came from keeps its game as it is."""
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            shown = self.chapters.shown
            state = self.table.state.copy()
            state.log = []
            titles = {
                lang: tr(
                    lang,
                    "chapters.from_position",
                    title=shown.title_in(lang),
                    step=self.table.step,
                )[:MAX_TITLE_CHARS]
                for lang in LANGUAGES
            }
            chapter = Chapter(0, "position", titles=titles, teachings=dict(shown.teachings))
            return self._add_chapter(chapter, History(state))

    @retried
    def add_uploaded(self, secret, history: History, titles: dict, teachings: dict):
        """A chapter from a file the teacher uploaded (already read and checked: a position's
        start, or a game record's whole history), made the table's."""
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            if not isinstance(history, History):
                return _refusal("room.refuse.bad_option")
            chapter = Chapter(
                0,
                "upload",
                titles=_texts(titles, MAX_TITLE_CHARS),
                teachings=_texts(teachings, MAX_TEXT_CHARS),
            )
            return self._add_chapter(chapter, history)

    @retried
    def switch_chapter(self, secret, number):
        """Make chapter ``number`` the table's: its game exactly where it was left (every branch
        and step); the chapter the table showed keeps its own."""
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            chapter = self.chapters.get(number)
            if chapter is None:
                return _refusal("room.refuse.no_chapter")
            return self._show_chapter(chapter)

    @retried
    def remove_chapter(self, secret, number):
        """Remove a chapter (never the class game); the table's own goes back to the class
        game first."""
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            if number == CLASS_GAME:
                return _refusal("room.refuse.class_game_stays")
            chapter = self.chapters.get(number)
            if chapter is None:
                return _refusal("room.refuse.no_chapter")
            if self.chapters.current == chapter.number:
                self._table_to(self.chapters.items[0])
            self.chapters.items.remove(chapter)
            return self._changed("table")

    @retried
    def bring_back(self, secret):
        """End every learner's break-away copy: everyone is at the table's chapter again (their
        pages say why)."""
        with self.lock:
            why = self._teacher_only(secret)
            if why:
                return why
            self.private_tables.clear()
            self.chapters.recalls += 1  # counted even when none is here: another process's
            return self._changed("table")

    # ------------------------------------------------------------------ inside (lock held)
    def _add_chapter(self, chapter: Chapter, history: History):
        if len(self.chapters) >= MAX_CHAPTERS:
            return _refusal("room.refuse.too_many_chapters", n=MAX_CHAPTERS)
        chapter.number = self.chapters.next_number
        chapter.history = history
        self.chapters.next_number += 1
        self.chapters.items.append(chapter)
        return self._show_chapter(chapter)

    def _show_chapter(self, chapter: Chapter):
        self._table_to(chapter)
        return self._changed("table")

    def _table_to(self, chapter: Chapter) -> None:
        """The table shows ``chapter``'s game; the one it showed keeps its own. Every
        break-away ends (a copy of another chapter's position), a seat the table lacks is free."""
        shown = self.chapters.shown
        if shown is not chapter:
            shown.history, self.table = self.table, chapter.history
            chapter.history = None
            self.chapters.current = chapter.number
        self.title = chapter.name
        self.log_seen = len(self.table.state.log or ())
        self._end_break_aways()
        n = self.table.state.n
        for person in self.participants.values():
            if person.seat is not None and person.seat >= n:
                person.seat = None

    def _end_break_aways(self) -> None:
        if self.private_tables:
            self.private_tables.clear()
            self.chapters.recalls += 1


# ---------------------------------------------------------------------- kept in the store
def _record_text(history: History) -> str:
    return history.whole_record().dumps()


def _history(text: str, source: str) -> History:
    from nefertiti_core.files.history import record_from_data
    from nefertiti_core.files.yaml_subset import loads

    doc = loads(text)
    record = record_from_data(doc.data, source, doc)
    record.start.log = []
    return record.replay(source=source)


def chapters_text(chapters: Chapters, code: str = "") -> str:
    """The chapters as stored (JSON; ``""`` for the class game alone and no break-away
    ended): the current chapter without its game (the room's record holds it). Past
    :data:`MAX_CHAPTERS_CHARS` the oldest chapters after the class game are left out (logged)."""
    if len(chapters) == 1 and chapters.current == CLASS_GAME and not chapters.recalls:
        return ""
    items = []
    for chapter in chapters.items:
        item = {
            "n": chapter.number,
            "kind": chapter.kind,
            "name": chapter.name,
            "titles": chapter.titles,
            "teachings": chapter.teachings,
        }
        if chapter.number != chapters.current and chapter.history is not None:
            item["record"] = _record_text(chapter.history)
        items.append(item)
    data = {
        "current": chapters.current,
        "next": chapters.next_number,
        "recalls": chapters.recalls,
        "chapters": items,
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    while len(text) > MAX_CHAPTERS_CHARS:
        drop = next((i for i in items[1:] if i["n"] != chapters.current), None)
        if drop is None:
            log.warning("room %s: its chapters are too long to keep", code)
            return ""
        log.warning("room %s: chapter %s is too long to keep: left out", code, drop["n"])
        items.remove(drop)
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text


def read_chapters(text, code: str = "") -> tuple[Chapters, str]:
    """Stored chapters read back (each game replayed through the engine; the current chapter's
    game is the room's table, stored apart) and a warning (``""`` for none). A value that cannot
    be read (not JSON, too long, a game that does not replay, no class game, a current chapter
    missing) gives the class game alone, the room's table as its game, and the warning says
    why."""
    chapters = Chapters()
    if not text:
        return chapters, ""
    try:
        if not isinstance(text, str) or len(text) > MAX_CHAPTERS_CHARS:
            raise ValueError("too long")
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("chapters"), list):
            raise ValueError("not a list of chapters")
        current, items = data.get("current"), []
        for index, item in enumerate(data["chapters"][:MAX_CHAPTERS]):
            if not isinstance(item, dict):
                raise ValueError(f"chapter {index + 1} is not a mapping")
            number, kind = item.get("n"), item.get("kind")
            if not isinstance(number, int) or isinstance(number, bool) or number < 1:
                raise ValueError(f"chapter {index + 1} has no number")
            if kind not in KINDS or (number == CLASS_GAME) != (kind == "game"):
                raise ValueError(f"chapter {number}: unknown kind {str(kind)[:20]!r}")
            name = item.get("name") if isinstance(item.get("name"), str) else ""
            chapter = Chapter(
                number,
                kind,
                name[:100],
                _texts(item.get("titles"), MAX_TITLE_CHARS),
                _texts(item.get("teachings"), MAX_TEXT_CHARS),
            )
            if number != current:
                record = item.get("record")
                if not isinstance(record, str):
                    raise ValueError(f"chapter {number} has no game")
                chapter.history = _history(record, f"room {code} chapter {number}")
            items.append(chapter)
        numbers = [c.number for c in items]
        if not items or items[0].number != CLASS_GAME or len(set(numbers)) != len(numbers):
            raise ValueError("the class game is not chapter 1")
        if current not in numbers:
            raise ValueError("the table's chapter is missing")
        chapters.items, chapters.current = items, current
        following = data.get("next")
        valid_next = isinstance(following, int) and following > max(numbers)
        chapters.next_number = following if valid_next else max(numbers) + 1
        recalls = data.get("recalls")
        chapters.recalls = recalls if isinstance(recalls, int) and recalls >= 0 else 0
        return chapters, ""
    except Exception as error:  # never stops a room from loading
        why = re.sub(r"\s+", " ", str(error))[:200]
        warning = f"room {code}: its chapters did not load ({why}); the table is the class game"
        log.warning("%s", warning)
        return Chapters(), warning
