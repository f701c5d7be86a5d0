"""The classroom's pages, served by ``nefertiti serve``: the teacher's (``/classroom``) and the
learners' (``/join``).

Every page has its own :class:`TableSession` (a :class:`~widgets.game.session.GameSession` whose
steps go through the room, which checks who may play) and its own components (the projector
bar, the board, the decision panel: the Sandbox's own). The room tells every page of each change
(``Room.subscribe``); a page then updates **through its own Bokeh document**: the room's listener
schedules ``doc.add_next_tick_callback`` for that page's document, and the update runs there
with that document as Panel's current one (``set_curdoc``). A page never changes another page's
models from its own callback.

Everything a participant typed (names) is escaped where it is shown; everything a browser sends
is bounded (text inputs' lengths here, and again in the room).
"""

from __future__ import annotations

import functools
import json
import logging
import threading

import panel as pn
import param

from nefertiti_core.engine.i18n import LANGUAGES, tr
from widgets.classroom.poll import PollError, Polls
from widgets.classroom.poll_view import ClassView, LearnerPollCard, TeacherPollPanel
from widgets.classroom.room import (
    MAX_NAME,
    Refusal,
    Room,
    Rooms,
    normal_code,
    scenario_names,
    valid_token,
)
from widgets.game.board import Board
from widgets.game.common import HTML, esc, guarded
from widgets.game.decision import DecisionPanel
from widgets.game.language import LanguageSelector, browser_language
from widgets.game.position_memo import SHARED_POSITIONS
from widgets.game.projector import ProjectorBar, banner_html, last_move_html
from widgets.game.rules_view import link_rule_ids
from widgets.game.session import GameSession
from widgets.theme import (
    ALERT,
    HEADING,
    INK,
    LABEL,
    NO_PLAYER_TEXT,
    PAGE_BACKGROUND,
    PAPER,
    PLAYER_COLOURS,
    RULE_LINE,
    TEXT_NONE,
    YOUR_TURN,
)

log = logging.getLogger("widgets.classroom")

#: The server's rooms (shared by every session of the process, on purpose).
ROOMS = Rooms()
#: A learner's browser keeps its token for a room in this cookie (one per room: name + code).
COOKIE = "nefertiti_room_"
COOKIE_MAX_AGE = 12 * 3600
#: Wrong codes one page may try before it is told to wait.
MAX_JOIN_TRIES = 10
CARD = {"background": PAPER, "border": f"1px solid {RULE_LINE}", "border-radius": "6px"}
PAGE = {"background": PAGE_BACKGROUND, "min-height": "100vh"}
BOARD_MAX_HEIGHT = "100vh - 250px"
MAIN = {"flex": "1 1 560px", "min-width": "0"}
SIDE = {"flex": "0 1 400px", "min-width": "280px"}

#: Runs in the learner's browser when the server hands it its token: kept in a cookie for this
#: room (a reload or a restart reconnects), and the code put in the address.
KEEP_JS = """
if (!cb_obj.value) return;
const kept = JSON.parse(cb_obj.value);
document.cookie = `${kept.cookie}=${kept.token}; path=/; max-age=${kept.age}; SameSite=Strict`;
const url = new URL(window.location.href);
url.searchParams.set("code", kept.code);
window.history.replaceState(window.history.state, "", url);
"""
#: The teacher's page: the room's code and the teacher's key put in the address (a reload or
#: a restart comes back to the room).
TEACHER_JS = """
if (!cb_obj.value) return;
const kept = JSON.parse(cb_obj.value);
const url = new URL(window.location.href);
url.searchParams.set("room", kept.code);
url.searchParams.set("key", kept.key);
window.history.replaceState(window.history.state, "", url);
"""


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
    return ROOMS


# ---------------------------------------------------------------------- the room's polls
def _submit_for(room: Room, token: str, polls: Polls):
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


def _poll_box(*objects, css: str) -> pn.Column:
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

    def play(self, option, by_learner: bool = False) -> bool:
        if self.away:
            return self.refuse(self.room.play_private(self.actor, option))
        return self.refuse(self.room.play(self.actor, option))

    def undo(self) -> bool:
        if self.away:
            return self.refuse(self.room.undo_private(self.actor))
        return self.refuse(self.room.undo(self.actor))

    def redo(self) -> bool:
        return self.refuse(self.room.redo(self.actor))

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


class _Follower:
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


def _served_doc():
    doc = pn.state.curdoc
    return doc if doc is not None and doc.session_context is not None else None


def _on_close(callback) -> None:
    if _served_doc() is not None:
        pn.state.on_session_destroyed(lambda _context: callback())


def _header(title_html: HTML, *right) -> pn.Row:
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


def _table_parts(session: TableSession, teacher: bool):
    bar = ClassBar(session)
    board = Board(session, fit=True, max_height=BOARD_MAX_HEIGHT, fit_window=True, shared=True)
    # built only once the page shows it (a learner who cannot act now: most of the room)
    decision = DecisionPanel(session, show_who=False, shown=_decision_shown(session))
    return bar, board, decision


def _decision_shown(session: TableSession) -> bool:
    """Whether the page shows its decision panel now: a learner's when they can act, the
    teacher's unless a learner holds the deciding seat (it is played from their device)."""
    state = session.state
    if session.teacher:
        return state.is_over or not session.is_bot(state.decider)
    return session.can_act_now()


def _status_html(session: TableSession, lang: str) -> str:
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
            parts.append(
                f"<b class='room-your-turn' style='color:{YOUR_TURN}'>"
                f"{esc(tr(lang, 'room.your_turn'))}</b>"
            )
    seat = person.seat if person is not None else None
    return (
        f"<div class='room-status' data-step='{room.table.step}' data-seat='{'' if seat is None else seat}' "
        f"data-away='{int(session.away)}' style='font-size:15px;line-height:1.4'>"
        + " ".join(parts)
        + "</div>"
    )


# ---------------------------------------------------------------------- the learner's page
class LearnerPage(pn.viewable.Viewer):
    """``/join``: a code and a name, then the table from the learner's seat.

    In the room, besides the table's parts (``bar``, ``board``, ``decision``) and the poll card
    (``poll_card``): ``decision_box``, the card holding the decision panel, shown only when the
    learner can act now; ``poll_box``, the poll card's box, shown while a question is asked."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(self, rooms: Rooms, code: str = "", cookies=None, lang: str = "en", **params):
        self.rooms = rooms
        self.lang = lang if lang in LANGUAGES else "en"
        self.cookies = dict(cookies or {})
        self._tries = 0
        self._follower = None
        self.room: Room | None = None
        self.token = ""
        super().__init__(session=GameSession(lang=self.lang), **params)
        self._keep = pn.widgets.TextInput(visible=False)
        self._keep.jscallback(value=KEEP_JS)
        # the join form
        self._title = HTML("", margin=(4, 10))
        self._code = pn.widgets.TextInput(max_length=20, width=220, css_classes=["room-code-input"])
        self._name = pn.widgets.TextInput(
            max_length=MAX_NAME, width=220, css_classes=["room-name-input"]
        )
        self._lang = pn.widgets.RadioButtonGroup(
            options={tr(code, f"panel.lang.{code}"): code for code in LANGUAGES},
            value=self.lang,
        )
        self._lang.param.watch(self._on_form_lang, "value")
        self._join = pn.widgets.Button(color="primary", width=160, css_classes=["room-join"])
        self._join.on_click(self._on_join)
        self._message = pn.pane.Alert("", alert_type="danger", visible=False)
        self._form = pn.Column(
            self._lang,
            self._code,
            self._name,
            self._join,
            self._message,
            styles={**CARD, "padding": "10px"},
            margin=(10, 10),
            css_classes=["room-join-form"],
        )
        self._layout = pn.Column(
            _header(self._title), self._form, self._keep, sizing_mode="stretch_width", styles=PAGE
        )
        self._code.value = code
        self._label_form()
        # a browser that joined this room before: back to the same participant
        room = rooms.find(code) if code else None
        if room is not None:
            token = self.cookies.get(COOKIE + room.code, "")
            if valid_token(token) and room.participant(token) is not None:
                self._enter(room, token, welcome=True)
            elif valid_token(token):
                self._say(tr(self.lang, "room.removed_you"))

    def __panel__(self):
        return self._layout

    # ------------------------------------------------------------------ the form
    def _label_form(self) -> None:
        lang = self.lang
        self._title.object = (
            f"<h2 style='margin:6px 0;color:{HEADING}'>{esc(tr(lang, 'room.join_title'))}</h2>"
        )
        self._code.param.update(name=tr(lang, "room.code"), placeholder="ABCD EFGH")
        self._name.name = tr(lang, "room.your_name")
        self._join.name = tr(lang, "room.join")

    @guarded
    def _on_form_lang(self, event):
        if event.new in LANGUAGES:
            self.lang = event.new
            self.session.lang = event.new
            self._label_form()

    def _say(self, text: str, kind: str = "danger") -> None:
        self._message.param.update(object=esc(text), alert_type=kind, visible=bool(text))

    @guarded
    def _on_join(self, *_):
        self.join(self._code.value, self._name.value)

    def join(self, code, name) -> bool:
        """What the Join button does; False (and a message) if refused."""
        if self._tries >= MAX_JOIN_TRIES:
            self._say(Refusal("room.refuse.too_fast").text(self.lang))
            return False
        room = self.rooms.find(code) if isinstance(code, str) else None
        if room is None:
            self._tries += 1
            self._say(Refusal("room.refuse.no_room").text(self.lang))
            return False
        person, token, why = room.join(name, self.lang)
        if why is not None:
            self._say(why.text(self.lang))
            return False
        self._keep.value = json.dumps(
            {"cookie": COOKIE + room.code, "token": token, "code": room.code, "age": COOKIE_MAX_AGE}
        )
        self._enter(room, token)
        return True

    # ------------------------------------------------------------------ the table
    def _enter(self, room: Room, token: str, welcome: bool = False) -> None:
        self.room, self.token = room, token
        person = room.participant(token)
        lang = person.lang if person is not None else self.lang
        self.lang = lang
        session = TableSession(room, token, teacher=False, lang=lang)
        self.session = session
        self.bar, self.board, self.decision = _table_parts(session, teacher=False)
        self.bar.redo_button.visible = False
        self.language = LanguageSelector(session)
        self._status = HTML("", sizing_mode="stretch_width", margin=(2, 10))
        self._error = pn.pane.Alert(
            "", alert_type="warning", visible=False, margin=(2, 10), css_classes=["room-error"]
        )
        self._away = pn.widgets.Button(width=230, css_classes=["room-away"])
        self._away.on_click(self._on_away)
        self.decision_box = pn.Column(
            self.decision,
            styles=CARD,
            sizing_mode="stretch_width",
            margin=(5, 5),
            css_classes=["room-decision"],
        )
        polls = room.polls
        learner_id = str(person.id) if person is not None else "0"
        self.poll_card = LearnerPollCard(
            polls, learner_id, lang=lang, submit=_submit_for(room, token, polls), board_width=320
        )
        self.poll_box = _poll_box(self.poll_card, css="room-poll")
        self.poll_box.visible = polls.current is not None
        self._poll_stop = polls.on_change(self._on_polls)
        main = pn.Column(self.bar, self.board, styles=MAIN)
        side = pn.Column(self._status, self._away, self._error, self.decision_box, styles=SIDE)
        self._layout.objects = [
            _header(self._title, self.language),
            self.poll_box,
            pn.FlexBox(
                main, side, flex_wrap="wrap", align_items="flex-start", sizing_mode="stretch_width"
            ),
            self._keep,
        ]
        session.param.watch(self._on_error, ["error"])
        session.param.watch(self._on_lang, ["lang"])
        session.param.watch(self._on_version, ["version"])
        person_id = person.id if person is not None else None
        self._follower = _Follower(room, self, _served_doc(), private_id=person_id)
        _on_close(self._follower.close)
        if welcome and person is not None:
            self._error.param.update(
                object=esc(tr(lang, "room.welcome_back", name=person.name)),
                alert_type="success",
                visible=True,
            )
        self.refresh()

    def follow(self) -> None:
        """The room changed (on this page's document)."""
        if self.room is None:
            return
        if self.room.participant(self.token) is None:  # removed
            self._layout.objects = [
                _header(self._title),
                pn.pane.Alert(esc(tr(self.lang, "room.removed_you")), alert_type="danger"),
            ]
            if self._follower is not None:
                self._follower.close()
            self.poll_card.detach()
            self._poll_stop()
            self.room = None
            return
        self.poll_box.visible = self.room.polls.current is not None
        self.session.sync()
        # the decision panel, if it is to be shown, comes with the version's update (on the
        # next tick, with the bar's words): the room's other pages get the move first
        self.refresh(show_decision=False)

    @guarded
    def _on_version(self, *_):
        # Every change of the table reaches this page through follow() (the status line, the
        # board) just before the version's update: here only the decision panel is left to show
        # (or keep hidden), with the bar's words.
        self._show_decision()

    def refresh(self, show_decision: bool = True) -> None:
        session, lang = self.session, self.session.lang
        self._title.object = (
            f"<h2 style='margin:6px 0;color:{HEADING}'>{esc(tr(lang, 'room.title'))}"
            f" · {esc(self.room.code)}</h2>"
        )
        self._status.object = _status_html(session, lang)
        self._away.name = tr(lang, "room.rejoin" if session.away else "room.break_away")
        self._away.button_type = "success" if session.away else "default"
        self.bar.undo_button.visible = session.away
        self._show_decision(show=show_decision)

    def _show_decision(self, show: bool = True) -> None:
        """The decision panel shown when the learner can act now (``show``: now; else only
        hidden when they cannot). A hidden panel skips its refreshes; shown again, it is
        brought up to date first."""
        session = self.session
        shown = _decision_shown(session)
        if show or not shown:
            self.decision.set_shown(shown)
            self.decision_box.visible = shown
        if session.error and not self.decision_box.visible:
            self._error.param.update(object=esc(session.error), alert_type="warning", visible=True)

    @guarded
    def _on_error(self, *_):
        error = self.session.error
        if error:
            self._error.param.update(object=esc(error), alert_type="warning", visible=True)
        else:
            self._error.visible = False

    def _on_polls(self, polls, _what) -> None:
        """A question asked: the card comes up (on this page's next tick, with the room's)."""
        if self._follower is not None and _what == "push":
            self._follower.notify(0, "poll pushed")

    @guarded
    def _on_lang(self, event):
        self.lang = event.new
        self.poll_card.lang = event.new
        if self.room is not None:
            self.room.set_language(self.token, event.new)  # notifies: follow() relabels

    @guarded
    def _on_away(self, *_):
        self.toggle_away()

    def toggle_away(self) -> bool:
        session = self.session
        if session.away:
            why = self.room.rejoin(self.token)
            if why is None:
                session.away = False
        else:
            why = self.room.break_away(self.token)
            if why is None:
                session.away = True
        if why is not None:
            session.error = why.text(session.lang)
            return False
        session.sync()  # at once on this page (the room's notice follows on the next tick)
        self.refresh()
        return True


# ---------------------------------------------------------------------- the teacher's page
@functools.lru_cache(maxsize=64)
def _qr_svg(link: str) -> str:
    """The join link's QR code (made once per link, not on every refresh of the page)."""
    import segno

    return segno.make(link, error="m").svg_inline(scale=5, dark=INK, light=PAPER)


class TeacherPage(pn.viewable.Viewer):
    """``/classroom``: open a room; then the projector view of the table with the join code,
    the link and its QR code, the seats, the people, staging and pause.

    In the room, besides the table's parts (``bar``, ``board``, ``decision``) and the polls'
    (``poll_panel``, ``class_view``): ``decision_box``, the decision panel's card (hidden while a
    learner holds the deciding seat), ``remove_select`` and ``remove_button`` (remove a
    learner), ``pause_button`` (pause or resume the room)."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(
        self, rooms: Rooms, code: str = "", key: str = "", host: str = "", lang="en", **params
    ):
        self.rooms = rooms
        self.host = host or "127.0.0.1:5006"
        self.lang = lang if lang in LANGUAGES else "en"
        self.room: Room | None = None
        self.key = ""
        self._follower = None
        super().__init__(session=GameSession(lang=self.lang), **params)
        self._keep = pn.widgets.TextInput(visible=False)
        self._keep.jscallback(value=TEACHER_JS)
        self._title = HTML("", margin=(4, 10))
        self._intro = HTML("", margin=(4, 10), sizing_mode="stretch_width")
        self._open = pn.widgets.Button(color="primary", width=200, css_classes=["room-open"])
        self._open.on_click(self._on_open)
        self._message = pn.pane.Alert("", alert_type="danger", visible=False)
        self._layout = pn.Column(
            _header(self._title),
            pn.Column(self._intro, self._open, self._message, styles={**CARD, "padding": "10px"}),
            self._keep,
            sizing_mode="stretch_width",
            styles=PAGE,
        )
        self._label_start()
        if code or key:
            room = rooms.find(code)
            if room is not None and room.is_teacher(key):
                self._enter(room, key)
            else:
                self._message.param.update(object=esc(tr(self.lang, "room.no_key")), visible=True)

    def __panel__(self):
        return self._layout

    def _label_start(self) -> None:
        lang = self.lang
        self._title.object = (
            f"<h2 style='margin:6px 0;color:{HEADING}'>{esc(tr(lang, 'room.title'))}</h2>"
        )
        self._intro.object = f"<p>{esc(tr(lang, 'room.open_intro'))}</p>"
        self._open.name = tr(lang, "room.open")

    @guarded
    def _on_open(self, *_):
        self.open_room()

    def open_room(self) -> bool:
        room, key, why = self.rooms.open()
        if why is not None:
            self._message.param.update(object=esc(why.text(self.lang)), visible=True)
            return False
        self._keep.value = json.dumps({"code": room.code, "key": key})
        self._enter(room, key)
        return True

    @property
    def learner_link(self) -> str:
        return f"http://{self.host}/join?code={self.room.code}"

    def _enter(self, room: Room, key: str) -> None:
        self.room, self.key = room, key
        session = TableSession(room, key, teacher=True, lang=self.lang)
        self.session = session
        self.bar, self.board, self.decision = _table_parts(session, teacher=True)
        self.language = LanguageSelector(session)
        self._join_card = HTML("", sizing_mode="stretch_width", css_classes=["room-join-card"])
        self._people = HTML("", sizing_mode="stretch_width", css_classes=["room-people"])
        self._seat_selects = [
            pn.widgets.Select(width=170, css_classes=[f"room-seat-{seat}"]) for seat in range(4)
        ]
        for seat, select in enumerate(self._seat_selects):
            select.param.watch(functools.partial(self._on_seat, seat), "value")
        self.remove_select = pn.widgets.Select(width=170, css_classes=["room-remove-who"])
        self.remove_button = pn.widgets.Button(
            color="danger", width=110, css_classes=["room-remove"]
        )
        self.remove_button.on_click(self._on_remove)
        self._stage_select = pn.widgets.Select(width=190, css_classes=["room-stage-what"])
        self._stage = pn.widgets.Button(color="primary", width=150, css_classes=["room-stage"])
        self._stage.on_click(self._on_stage)
        self.pause_button = pn.widgets.Button(width=160, css_classes=["room-pause"])
        self.pause_button.on_click(self._on_pause)
        self._seats_title = HTML("")
        self._stage_title = HTML("")
        self._error = pn.pane.Alert("", alert_type="warning", visible=False)
        self._updating = False
        self.decision_box = pn.Column(
            self.decision,
            styles=CARD,
            sizing_mode="stretch_width",
            margin=(5, 5),
            css_classes=["room-decision"],
        )
        people_card = pn.Column(
            self._people,
            self._seats_title,
            pn.Row(*self._seat_selects[:2]),
            pn.Row(*self._seat_selects[2:]),
            pn.Row(self.remove_select, self.remove_button),
            styles=CARD,
            sizing_mode="stretch_width",
            margin=(5, 5),
        )
        lead_card = pn.Column(
            self._stage_title,
            pn.Row(self._stage_select, self._stage),
            self.pause_button,
            self._error,
            styles=CARD,
            sizing_mode="stretch_width",
            margin=(5, 5),
        )
        polls = room.polls
        self.poll_panel = TeacherPollPanel(
            polls, learners=room.learner_names, lang=self.lang, font_px=20, board=True
        )
        self.class_view = ClassView(
            polls, learners=lambda: list(room.learner_names()), lang=self.lang
        )
        polls_row = pn.FlexBox(
            pn.Column(
                _poll_box(self.poll_panel, css="room-poll-teacher"),
                styles={"flex": "2 1 640px", "min-width": "0"},
            ),
            pn.Column(
                _poll_box(self.class_view, css="room-class-view"),
                styles={"flex": "1 1 400px", "min-width": "0"},
            ),
            flex_wrap="wrap",
            align_items="flex-start",
            sizing_mode="stretch_width",
        )
        main = pn.Column(self.bar, self.board, styles=MAIN)
        side = pn.Column(
            pn.Column(self._join_card, styles=CARD, sizing_mode="stretch_width", margin=(5, 5)),
            self.decision_box,
            people_card,
            lead_card,
            styles=SIDE,
        )
        self._layout.objects = [
            _header(self._title, self.language),
            pn.FlexBox(
                main, side, flex_wrap="wrap", align_items="flex-start", sizing_mode="stretch_width"
            ),
            polls_row,
            self._keep,
        ]
        session.param.watch(self._on_lang, ["lang"])
        session.param.watch(self._on_error, ["error"])
        self._follower = _Follower(room, self, _served_doc())
        _on_close(self._follower.close)
        self.refresh()

    def follow(self) -> None:
        self.session.sync()
        self.refresh()

    @guarded
    def _on_lang(self, event):
        self.lang = event.new
        self.poll_panel.lang = self.class_view.lang = event.new
        self.session.sync_seats()
        self.refresh()

    @guarded
    def _on_error(self, *_):
        error = self.session.error
        self._error.param.update(object=esc(error), visible=bool(error))

    def refresh(self) -> None:
        room, lang, session = self.room, self.session.lang, self.session
        state = room.table.state
        self._title.object = (
            f"<h2 style='margin:6px 0;color:{HEADING}'>{esc(tr(lang, 'room.title'))}"
            f" · <span class='room-code'>{esc(room.code)}</span></h2>"
        )
        self._join_card.object = self._join_html(lang)
        people = sorted(room.participants.values(), key=lambda p: p.id)
        items = []
        for person in people:
            seat = ""
            if person.seat is not None and person.seat < state.n:
                colour = state.colours[person.seat]
                seat = (
                    f" <span style='color:{PLAYER_COLOURS.get(colour, NO_PLAYER_TEXT)}'>●"
                    f" {esc(tr(lang, f'colour.{colour}'))}</span>"
                )
            items.append(
                f"<li class='room-person' data-id='{person.id}'>{esc(person.name)}{seat}</li>"
            )
        listing = (
            f"<ul style='margin:2px 0 4px 0'>{''.join(items)}</ul>"
            if items
            else f"<p style='color:{TEXT_NONE}'>{esc(tr(lang, 'room.nobody'))}</p>"
        )
        self._people.object = (
            f"<b>{esc(tr(lang, 'room.people', n=len(people)))}</b>{listing}"
            f"<span class='room-table-step' data-step='{room.table.step}'></span>"
        )
        self._seats_title.object = f"<b>{esc(tr(lang, 'room.seats'))}</b>"
        teacher = tr(lang, "room.seat_teacher")
        options = {teacher: 0}
        options.update({f"{person.name} (#{person.id})": person.id for person in people})
        self._updating = True
        try:
            for seat, select in enumerate(self._seat_selects):
                if seat < state.n:
                    holder = room.seat_holder(seat)
                    select.param.update(
                        name=tr(lang, f"colour.{state.colours[seat]}"),
                        options=options,
                        value=holder.id if holder is not None else 0,
                        visible=True,
                    )
                else:
                    select.visible = False
            remove_options = {f"{p.name} (#{p.id})": p.id for p in people}
            self.remove_select.param.update(
                options=remove_options,
                value=self.remove_select.value
                if self.remove_select.value in remove_options.values()
                else (people[0].id if people else None),
                name=tr(lang, "room.people", n=len(people)),
            )
            stage_options = {tr(lang, "room.new_game"): "new"}
            stage_options.update({name: name for name in scenario_names()})
            self._stage_select.param.update(
                options=stage_options,
                value=self._stage_select.value or "new",
                name=tr(lang, "room.stage"),
            )
        finally:
            self._updating = False
        self.remove_button.param.update(name=tr(lang, "room.remove"), disabled=not people)
        self._stage.name = tr(lang, "room.stage_button")
        self._stage_title.object = f"<b>{esc(tr(lang, 'room.stage'))}</b>" + (
            f" <span class='room-staged'>· {esc(tr(lang, 'room.staged', title=room.title))}</span>"
            if room.title
            else ""
        )
        self.pause_button.param.update(
            name=tr(lang, "room.resume" if room.paused else "room.pause"),
            button_type="warning" if room.paused else "default",
        )
        # a seat a learner holds is played from their device
        shown = _decision_shown(session)
        self.decision.set_shown(shown)
        self.decision_box.visible = shown

    def _join_html(self, lang: str) -> str:
        qr = _qr_svg(self.learner_link)
        join_url = f"http://{self.host}/join"
        return (
            "<div style='display:flex;gap:12px;align-items:center;flex-wrap:wrap'>"
            f"<div class='room-qr' style='flex:0 0 auto'>{qr}</div>"
            "<div style='flex:1 1 150px'>"
            f"<div style='font-size:13px;color:{LABEL}'>{esc(tr(lang, 'room.code'))}</div>"
            f"<div class='room-join-code' style='font:700 34px monospace;letter-spacing:3px;"
            f"color:{INK}'>{esc(self.room.code[:4])} {esc(self.room.code[4:])}</div>"
            f"<div style='font-size:14px'>"
            f"{esc(tr(lang, 'room.join_at', link='LINK')).replace('LINK', f'<b>{esc(join_url)}</b>')}"
            "</div></div></div>"
        )

    # ------------------------------------------------------------------ the teacher's actions
    @guarded
    def _on_seat(self, seat: int, event):
        if self._updating:
            return
        self.give_seat(seat, event.new)

    def give_seat(self, seat: int, participant_id: int) -> bool:
        if participant_id in (0, None):
            why = self.room.free_seat(self.key, seat)
        else:
            why = self.room.assign_seat(self.key, participant_id, seat)
        return self.session.refuse(why)

    @guarded
    def _on_remove(self, *_):
        if self.remove_select.value is not None:
            self.session.refuse(self.room.remove(self.key, self.remove_select.value))

    @guarded
    def _on_stage(self, *_):
        self.session.refuse(self.room.stage(self.key, self._stage_select.value))

    @guarded
    def _on_pause(self, *_):
        self.session.refuse(self.room.pause(self.key, not self.room.paused))


# ---------------------------------------------------------------------- serving
def _arg(name: str, limit: int = 80) -> str:
    values = pn.state.session_args.get(name) or [b""]
    value = values[0]
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return text[:limit]


def _deferred(build):
    """A spinner; the page itself once the browser's websocket is there (like the Sandbox)."""
    holder = pn.Column(
        pn.indicators.LoadingSpinner(value=True, size=48, margin=(40, 60)),
        sizing_mode="stretch_width",
        styles={"background": PAGE_BACKGROUND, "min-height": "400px"},
    )

    def load():
        page = build()
        holder.page = page
        holder.objects = [page]

    pn.state.onload(load)
    return holder


def teacher_app():
    code, key = _arg("room", 40), _arg("key", 80)
    host = (pn.state.headers or {}).get("Host", "")[:200]
    lang = browser_language()
    return _deferred(lambda: TeacherPage(rooms(), code=code, key=key, host=host, lang=lang))


def learner_app():
    code = normal_code(_arg("code", 40)) or ""
    cookies = {k: v for k, v in (pn.state.cookies or {}).items() if k.startswith(COOKIE)}
    lang = browser_language()
    return _deferred(lambda: LearnerPage(rooms(), code=code, cookies=cookies, lang=lang))
