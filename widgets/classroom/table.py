"""What the classroom's two pages share: the process's rooms, one page's game
(:class:`TableSession`, a :class:`~widgets.game.session.GameSession` whose steps go through the
room, which checks who may play), a page's subscription to its room (:class:`Follower`), the
class bar, and the pieces both pages lay out.

The room tells every page of each change (``Room.subscribe``); a page then updates **through
its own Bokeh document**: the room's listener schedules ``doc.add_next_tick_callback`` for that
page's document, and the update runs there with that document as Panel's current one
(``set_curdoc``). A page never changes another page's models from its own callback.

Everything a participant typed (names) is escaped where it is shown; everything a browser sends
is bounded (text inputs' lengths here, and again in the room).
"""

from __future__ import annotations

import logging
import threading
import time

import panel as pn

from nefertiti_core.engine.i18n import tr
from widgets.classroom.poll import PollError, Polls
from widgets.classroom.room import (
    Refusal,
    Room,
    Rooms,
)
from widgets.classroom.room_work import ROOM_WORK, change_room
from widgets.game.board import Board
from widgets.game.common import HTML, esc
from widgets.game.decision import DecisionPanel
from widgets.game.position_memo import SHARED_POSITIONS
from widgets.game.projector import ProjectorBar, banner_html, last_move_html
from widgets.game.rules_view import link_rule_ids
from widgets.game.session import GameSession, served_document
from widgets.theme import (
    ALERT,
    HEADING,
    NO_PLAYER_TEXT,
    ON_COLOUR,
    PAGE_BACKGROUND,
    PAPER,
    PLAYER_COLOURS,
    RULE_LINE,
    YOUR_TURN,
)

log = logging.getLogger("widgets.classroom")

#: The server's rooms (shared by every session of the process, on purpose).
ROOMS = Rooms()
#: Wrong codes one page may try before it is told to wait.
MAX_JOIN_TRIES = 10
CARD = {"background": PAPER, "border": f"1px solid {RULE_LINE}", "border-radius": "6px"}
PAGE = {"background": PAGE_BACKGROUND, "min-height": "100vh"}
BOARD_MAX_HEIGHT = "100vh - 250px"
MAIN = {"flex": "1 1 560px", "min-width": "0"}
SIDE = {"flex": "0 1 400px", "min-width": "280px"}

_CONNECTED = threading.Lock()
_connected = False


def rooms() -> Rooms:
    """The server's rooms; the first call reads them back from the store (room_store.py)."""
    global _connected
    with _CONNECTED:
        if not _connected:
            _connected = True
            from widgets.classroom.room_store import connect

            try:
                connect(ROOMS)
            except Exception:  # the classroom works without the store; said in the log
                log.exception("the classroom's rooms are not kept in the store")
            from widgets.classroom.classes import connect as keep_classes

            try:  # each room's changes made here feed its class's record
                keep_classes()
            except Exception:  # the rooms work without it; said in the log
                log.exception("the classes' records are not kept")
    return ROOMS


# ---------------------------------------------------------------------- saving, said
#: A change still unsaved this long is said on the page (a normal write takes milliseconds).
SHOW_UNSAVED_AFTER_S = 1.0


def storage_words(room: Room, lang: str, teacher: bool, now: float | None = None) -> str:
    """What a page says of the room's saving: for the teacher, that the class is not being kept
    and why (no store; a write failed; the database has not answered for N s); for a learner,
    only "saving…" while a change of theirs (or anyone's) waits. "" when all is written."""
    from widgets.classroom.room_store import not_kept

    now = time.monotonic() if now is None else now
    off = not_kept()
    if off:
        return tr(lang, "room.storage.off", reason=off) if teacher else ""
    starts = [t for t in (ROOM_WORK.waiting_since(room.code), room.storage.unsaved_since) if t]
    since = min(starts) if starts else None
    failed = room.storage.failed
    if failed:
        return (
            tr(lang, "room.storage.failed", reason=failed)
            if teacher
            else tr(lang, "room.storage.saving")
        )
    if since is None or now - since < SHOW_UNSAVED_AFTER_S:
        return ""
    if not teacher:
        return tr(lang, "room.storage.saving")
    return tr(lang, "room.storage.waiting", seconds=int(now - since))


class StorageNote:
    """The room's saving on a page (:func:`storage_words`), looked at every second on a served
    page: a warning the teacher cannot miss when the class is not being kept."""

    PERIOD_MS = 1000

    def __init__(self, room: Room, session: GameSession, teacher: bool):
        self.room, self.session, self.teacher = room, session, teacher
        self.pane = pn.pane.Alert(
            "",
            alert_type="warning" if teacher else "light",
            visible=False,
            sizing_mode="stretch_width",
            margin=(2, 5),
            css_classes=["room-storage"],
            # stays in sight when the teacher has scrolled down to the buttons that change things
            styles={"position": "sticky", "top": "0", "z-index": "20"},
        )
        self.update()
        if served_document() is not None:
            watcher = pn.state.add_periodic_callback(self.update, period=self.PERIOD_MS)
            on_close(watcher.stop)

    def update(self) -> None:
        words = storage_words(self.room, self.session.lang, self.teacher)
        shown = esc(words)
        if shown != self.pane.object or bool(words) != self.pane.visible:
            self.pane.param.update(object=shown, visible=bool(words))


# ---------------------------------------------------------------------- the room's polls
def submit_for(room: Room, token: str, polls: Polls):
    """A learner's answer goes through the room's rules first: a removed learner and a paused
    room take no answers."""

    def submit(learner_id, choice):
        person = room.participant(token)
        if person is None or str(person.id) != str(learner_id):
            raise PollError("poll.refused.removed")
        if room.paused:
            raise PollError("poll.refused.paused")
        return polls.answer(learner_id, choice)

    return submit


def poll_box(*objects, css: str) -> pn.Column:
    return pn.Column(
        *objects,
        styles={**CARD, "padding": "6px 10px", "box-sizing": "border-box"},
        sizing_mode="stretch_width",
        margin=(5, 5),
        css_classes=[css],
    )


# ---------------------------------------------------------------------- one page's game
class TableSession(GameSession):
    """One page's view of a room's table: the teacher's (every seat) or a learner's (their
    seat, or a private copy after breaking away). Steps go through the room; the page's
    components are the Sandbox's, unchanged."""

    def __init__(self, room: Room, actor: str, teacher: bool, **params):
        self.room, self.actor, self.teacher = room, actor, teacher
        self.away = False
        self.words_only = False  # ClassBar: every seat worded as a person's
        super().__init__(state=room.table.state, seats=["human"] * room.table.state.n, **params)
        self.history = room.table
        self.sync_seats()

    # who may act here
    def person(self):
        return None if self.teacher else self.room.participant(self.actor)

    def can_play_seat(self, seat: int) -> bool:
        if self.away or self.teacher:
            return True
        person = self.person()
        return person is not None and person.seat == seat and not self.room.paused

    def can_act_now(self) -> bool:
        state = self.state
        return not state.is_over and self.can_play_seat(state.decider)

    def is_bot(self, seat: int) -> bool:
        """A seat this page does not play is drawn and worded as another's (the board draws no
        servant at once for it; the banner names who plays it)."""
        if self.words_only or not 0 <= seat < self.state.n:
            return False
        if self.teacher:  # the teacher may play every seat, but a learner's is theirs
            return self.room.seat_holder(seat) is not None
        return not self.can_play_seat(seat)

    def sync_seats(self) -> None:
        names = self.room.seat_names()
        teacher = tr(self.lang, "room.the_teacher")
        seats = [name if name else teacher for name in names]
        if seats != self.seats:
            self.seats = seats

    # acting: through the room
    def _start_bots(self) -> int:
        return 0  # the people at the table play every seat

    def run_bots(self) -> int:
        return 0

    def refuse(self, why: Refusal | None) -> bool:
        if why is None:
            self.error = ""
            return True
        self.error = why.text(self.lang)
        return False

    def through_room(self, work) -> bool:
        """A step through the room, off the event loop on a served page (:func:`change_room`):
        the page follows the room when the step is made; a refusal shows when it comes. True
        when made (or sent), False when refused at once."""
        answer: list[bool] = []
        change_room(self.room, work, lambda why: answer.append(self.refuse(why)))
        return answer[0] if answer else True

    def play(self, option, by_learner: bool = False) -> bool:
        room, actor = self.room, self.actor
        if self.away:
            return self.through_room(lambda: room.play_private(actor, option))
        return self.through_room(lambda: room.play(actor, option))

    def undo(self) -> bool:
        room, actor = self.room, self.actor
        if self.away:
            return self.through_room(lambda: room.undo_private(actor))
        return self.through_room(lambda: room.undo(actor))

    def redo(self) -> bool:
        room, actor = self.room, self.actor
        return self.through_room(lambda: room.redo(actor))

    def _move(self, action) -> bool:  # jump, branches: not at a shared table
        return self.refuse(Refusal("room.refuse.teacher_only"))

    def sync(self) -> None:
        """Follow the room: the table's position (or the private copy), the seats."""
        history = None
        if self.away:
            history = self.room.private(self.actor)
            if history is None:
                self.away = False
        if history is None:
            history = self.room.table
        self.sync_seats()
        self.history = history
        self._changed()


class Follower:
    """A page's subscription to its room: each change is applied on the page's own document
    (on its next tick), several changes in one tick once."""

    def __init__(self, room: Room, page, doc, private_id: int | None = None):
        self.room, self.page, self.doc = room, page, doc
        self.private_id = private_id
        self._scheduled = False
        self.key = room.subscribe(self.notify)

    def notify(self, version: int, what: str) -> None:
        if what.startswith("private:") and what != f"private:{self.private_id}":
            return  # another learner's copy: nothing of it reaches this page
        if what == "polls":
            return  # the poll views follow the polls themselves (a new question: _on_polls)
        if what == "marks":
            return  # the board's marks layer follows them itself (marks_layer.py)
        if self._scheduled:
            return
        self._scheduled = True
        if self.doc is None:  # not served (tests): at once
            self._apply()
            return
        self.doc.add_next_tick_callback(self._apply)

    def _apply(self) -> None:
        self._scheduled = False
        if self.doc is None:
            self.page.follow()
            return
        from panel.io.state import set_curdoc

        with set_curdoc(self.doc):
            self.page.follow()

    def close(self) -> None:
        self.room.unsubscribe(self.key)


def on_close(callback) -> None:
    if served_document() is not None:
        pn.state.on_session_destroyed(lambda _context: callback())


def header(title_html: HTML, *right) -> pn.Row:
    return pn.Row(
        title_html,
        pn.layout.HSpacer(),
        *right,
        sizing_mode="stretch_width",
        styles={"flex-wrap": "wrap"},
    )


class ClassBar(ProjectorBar):
    """The projector's bar over a class's table: the banner names who plays the deciding seat
    (a learner's name, or the teacher); the last step is worded as the Sandbox words a
    person's step (no seat at a class's table is a bot).

    Every page of the room shows the same position: the words are made once per position and
    language (and, for the banner, per name the page gives the deciding seat) and shared by
    the pages (``SHARED_POSITIONS``)."""

    def refresh(self) -> None:
        session, lang = self.session, self.session.lang
        state = session.state
        decider = state.decider
        named = not state.is_over and 0 <= decider < state.n and session.is_bot(decider)
        # the banner names the seat's holder where the page does not play it (session.is_bot)
        key = ("class-banner", lang, named, session.seats[decider] if named else None)
        banner = SHARED_POSITIONS.get(state, key, lambda: link_rule_ids(banner_html(session), lang))
        last = SHARED_POSITIONS.get(
            state, ("class-last", lang), lambda: last_words_html(session, lang)
        )
        self._banner.object = banner
        self._last.object = last
        self._refresh_buttons()


def last_words_html(session: TableSession, lang: str) -> str:
    """The last step worded as a person's (ClassBar)."""
    session.words_only = True
    try:
        return link_rule_ids(last_move_html(session), lang)
    finally:
        session.words_only = False


def table_parts(session: TableSession, teacher: bool):
    bar = ClassBar(session)
    board = Board(
        session, fit=True, max_height=BOARD_MAX_HEIGHT, fit_window=True, shared=True, keys=True
    )
    # built only once the page shows it (a learner who cannot act now: most of the room)
    decision = DecisionPanel(session, show_who=False, shown=decision_shown(session))
    return bar, board, decision


def decision_shown(session: TableSession) -> bool:
    """Whether the page shows its decision panel now: a learner's when they can act, the
    teacher's unless a learner holds the deciding seat (it is played from their device)."""
    state = session.state
    if session.teacher:
        return state.is_over or not session.is_bot(state.decider)
    return session.can_act_now()


def status_html(session: TableSession, lang: str) -> str:
    """The learner's line: who they are, their seat, whose decision it is (and the table's step,
    for tests: data-step)."""
    room, state = session.room, session.state
    person = session.person()
    parts = []
    if person is not None:
        parts.append(esc(tr(lang, "room.you_are", name=person.name)))
        if person.seat is not None and person.seat < state.n:
            colour = state.colours[person.seat]
            parts.append(
                f"<span style='color:{PLAYER_COLOURS.get(colour, NO_PLAYER_TEXT)};font-weight:700'>"
                f"{esc(tr(lang, 'room.you_play', colour=tr(lang, f'colour.{colour}')))}</span>"
            )
        else:
            parts.append(esc(tr(lang, "room.you_watch")))
    if room.paused:
        parts.append(f"<b style='color:{ALERT}'>{esc(tr(lang, 'room.paused'))}</b>")
    elif session.away:
        parts.append(f"<i style='color:{HEADING}'>{esc(tr(lang, 'room.away'))}</i>")
    elif not state.is_over:
        if session.can_act_now() and person is not None:
            # a marker that stands out (and is read out: a status region)
            parts.append(
                f"<div class='room-your-turn' role='status' aria-live='polite' "
                f"style='margin:4px 0;padding:6px 12px;border-radius:6px;background:{YOUR_TURN};"
                f"color:{ON_COLOUR};font-size:19px;font-weight:700'>\u25b6 "
                f"{esc(tr(lang, 'room.your_turn'))}</div>"
            )
    seat = person.seat if person is not None else None
    return (
        f"<div class='room-status' data-step='{room.table.step}' data-seat='{'' if seat is None else seat}' "
        f"data-away='{int(session.away)}' style='font-size:15px;line-height:1.4'>"
        + " ".join(parts)
        + "</div>"
    )


def page_arg(name: str, limit: int = 80) -> str:
    values = pn.state.session_args.get(name) or [b""]
    value = values[0]
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return text[:limit]
