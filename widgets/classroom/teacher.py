"""The teacher's page (``/classroom``): open a room (its code and QR code for the learners),
give and free seats, remove learners, pause, stage positions, lead the table (undo, redo), ask
the class questions and see the class view."""

from __future__ import annotations

import functools
import json

import panel as pn
import param

from nefertiti_core.engine.i18n import LANGUAGES, tr
from widgets.classroom.chapters_view import ChapterPanel, chapter_note_html, sandbox_game
from widgets.classroom.class_panel import ClassPanel
from widgets.classroom.marks_layer import MarksLayer, MarkTools
from widgets.classroom.poll_view import ClassView, TeacherPollPanel
from widgets.classroom.presence import PRESENCE
from widgets.classroom.projector_links import ProjectorLinks
from widgets.classroom.rejoin_view import RejoinRequests, presence_html
from widgets.classroom.room import (
    Refusal,
    Room,
    Rooms,
)
from widgets.classroom.room_work import off_loop
from widgets.classroom.table import (
    CARD,
    MAIN,
    PAGE,
    SIDE,
    Follower,
    StorageNote,
    TableSession,
    decision_shown,
    header,
    on_close,
    page_arg,
    poll_box,
    rooms,
    table_parts,
)
from widgets.classroom.table_boards import TableLog, TablePlayers
from widgets.game.common import HTML, esc, guarded, on_page
from widgets.game.language import LanguageSelector, browser_language
from widgets.game.reconnect import reconnecting_page
from widgets.game.session import GameSession, served_document
from widgets.server.addresses import link_base
from widgets.server.cookies import BROWSER, CLASS, KEEP_JS, TEACHER, grant, page_secrets
from widgets.theme import (
    DANGER_BUTTON,
    HEADING,
    INK,
    LABEL,
    NO_PLAYER_TEXT,
    PAPER,
    PLAYER_COLOURS,
    PROBLEM_BACKGROUND,
    PROBLEM_TEXT,
    TEXT_NONE,
)

#: The teacher's key for each room they opened is kept in this browser's HttpOnly cookie
#: (``widgets.server.cookies.TEACHER``: the server sets it, no script of a page can read it),
#: never in the address: not in the history, the server's access log, nor on a projected address
#: bar. The page only posts a one-time grant for it, puts the room's code (alone) into the
#: address (a reload or a restart comes back to the room), and takes an old link's key out of it.
TEACHER_JS = (
    KEEP_JS
    + """
if (!cb_obj.value) return;
const kept = JSON.parse(cb_obj.value);
keep(kept.grant);
const url = new URL(window.location.href);
url.searchParams.set("room", kept.code);
url.searchParams.delete("key");
window.history.replaceState(window.history.state, "", url);
"""
)


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
    learner, who may then not join again), ``pause_button`` (pause or resume the room),
    ``lock_button`` (lock the room to newcomers, or open it again), ``code_button`` (a new join
    code: the one shown so far admits no one any more), ``close_button`` (close the room for
    good); ``players`` and ``table_log``, every player's board and the table's log."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(
        self,
        rooms: Rooms,
        code: str = "",
        key: str = "",
        host: str = "",
        lang="en",
        client: str = "",
        browser: str = "",
        **params,
    ):
        self.rooms = rooms
        #: this browser's id (its HttpOnly cookie): the teacher's own Sandbox games, as chapters
        self.browser = browser
        #: the address the page was opened from (rooms per address are capped)
        self.client = client
        #: where the learners' devices reach the server (the join link, its QR code, the
        #: projector link), and a warning when they cannot (widgets.server.addresses)
        self.link = link_base(host)
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
            header(self._title),
            pn.Column(self._intro, self._open, self._message, styles={**CARD, "padding": "10px"}),
            self._keep,
            sizing_mode="stretch_width",
            styles=PAGE,
        )
        self._label_start()
        if code or key:
            room = rooms.find(code)
            if room is not None and room.is_teacher(key):
                self._keep_key(room, key)
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
        """What Open a room does (the new room is written to the store off the event loop);
        False (and a message) if refused."""
        rooms, client, answer = self.rooms, self.client, []

        def opened(result) -> None:
            if isinstance(result, Refusal):  # the work itself failed
                result = (None, "", result)
            room, key, why = result
            if why is not None:
                self._message.param.update(object=esc(why.text(self.lang)), visible=True)
                answer.append(False)
                return
            self._keep_key(room, key)
            self._enter(room, key)
            answer.append(True)

        off_loop("open:" + client, lambda: rooms.open(client=client), opened)
        return answer[0] if answer else True

    @property
    def learner_link(self) -> str:
        return f"{self.link.base}/join?code={self.room.join_code}"

    def _keep_key(self, room: Room, key: str) -> None:
        """The key into this browser's HttpOnly cookie (through a one-time grant the page posts;
        the key itself never goes to the page), the room's code (alone) into the address."""
        kept = grant(
            (TEACHER, room.code, key), check=lambda: not room.expired() and room.is_teacher(key)
        )
        self._keep.value = json.dumps({"code": room.code, "grant": kept})

    def _enter(self, room: Room, key: str) -> None:
        self.room, self.key = room, key
        session = TableSession(room, key, teacher=True, lang=self.lang)
        self.session = session
        self.bar, self.board, self.decision = table_parts(session, teacher=True)
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
            color="danger",
            width=110,
            css_classes=["room-remove"],
            stylesheets=[f".bk-btn-danger {{ background-color: {DANGER_BUTTON}; }}"],
        )
        self.remove_button.on_click(self._on_remove)
        # the chapters: staging, switching, files, bringing everyone back (chapters_view.py)
        self.chapters = ChapterPanel(
            room, key, session, lang=self.lang, saved_game=sandbox_game(self.browser)
        )
        self.chapter_note = HTML("", sizing_mode="stretch_width", margin=(0, 5))
        self.pause_button = pn.widgets.Button(width=160, css_classes=["room-pause"])
        self.pause_button.on_click(self._on_pause)
        self.lock_button = pn.widgets.Button(width=160, css_classes=["room-lock"])
        self.lock_button.on_click(self._on_lock)
        self.code_button = pn.widgets.Button(width=160, css_classes=["room-new-code"])
        self.code_button.on_click(self._on_new_code)
        self.close_button = pn.widgets.Button(width=160, css_classes=["room-close"])
        self.close_button.on_click(self._on_close_room)
        self._seats_title = HTML("")
        self._error = pn.pane.Alert("", alert_type="warning", visible=False)
        self._updating = False
        self.decision_box = pn.Column(
            self.decision,
            styles=CARD,
            sizing_mode="stretch_width",
            margin=(5, 5),
            css_classes=["room-decision"],
        )
        # learners asking to come back on a new device: Let in / Refuse (rejoin_view.py)
        self.rejoin_requests = RejoinRequests(room, key, self.lang, self._say_error)
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
        chapters_card = pn.Column(
            self.chapters,
            styles=CARD,
            sizing_mode="stretch_width",
            margin=(5, 5),
        )
        lead_card = pn.Column(
            # wraps: the buttons are wider than the side column at 1024 px (the last was cut)
            pn.FlexBox(
                self.pause_button,
                self.lock_button,
                self.code_button,
                self.close_button,
                flex_wrap="wrap",
                sizing_mode="stretch_width",
            ),
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
                poll_box(self.poll_panel, css="room-poll-teacher"),
                styles={"flex": "2 1 640px", "min-width": "0"},
            ),
            pn.Column(
                poll_box(self.class_view, css="room-class-view"),
                styles={"flex": "1 1 400px", "min-width": "0"},
            ),
            flex_wrap="wrap",
            align_items="flex-start",
            sizing_mode="stretch_width",
        )
        # the class this room's record is kept in, across lessons (classes.py), and its record
        self.class_panel = ClassPanel(room, key, page_secrets().rooms(CLASS), lang=self.lang)
        class_card = pn.Column(
            self.class_panel, styles={**CARD, "padding": "6px 10px"}, sizing_mode="stretch_width"
        )
        # the projector view: in a new window here, or a read-only link for another computer
        self.projector_links = ProjectorLinks(room, key, base=self.link.base, lang=self.lang)
        # the teacher's marks on the board, drawn on every page's board (marks_layer.py)
        self.marks_layer = MarksLayer(self.board, room)
        self.mark_tools = MarkTools(room, key, self.board, session)
        main = pn.Column(self.chapter_note, self.bar, self.board, self.mark_tools, styles=MAIN)
        # every player's board and the table's log
        self.players, self.table_log = TablePlayers(session), TableLog(session)
        side = pn.Column(
            pn.Column(
                self._join_card,
                self.projector_links,
                styles=CARD,
                sizing_mode="stretch_width",
                margin=(5, 5),
            ),
            self.rejoin_requests.pane,  # near the top: a learner waits for it
            self.decision_box,
            self.players,
            people_card,
            chapters_card,
            lead_card,
            self.table_log,
            styles=SIDE,
        )
        self.storage = StorageNote(room, session, teacher=True)
        self._layout.objects = [
            header(self._title, self.language),
            self.storage.pane,
            pn.FlexBox(
                main, side, flex_wrap="wrap", align_items="flex-start", sizing_mode="stretch_width"
            ),
            polls_row,
            class_card,
            self._keep,
        ]
        session.param.watch(self._on_lang, ["lang"])
        session.param.watch(self._on_error, ["error"])
        self._follower = Follower(room, self, served_document())
        on_close(self._follower.close)
        # who is online: a learner's page opened or closed (presence.py)
        self._presence_due = False
        watch = PRESENCE.subscribe(room.code, self._presence_changed)
        on_close(lambda: PRESENCE.unsubscribe(room.code, watch))
        self.refresh()

    def _presence_changed(self) -> None:
        """A learner came online or went away (any thread): the list follows on the next tick."""
        doc = self._follower.doc  # this page's own document (not the thread's current one)
        if doc is None:
            self.refresh()
            return
        if not self._presence_due:
            self._presence_due = True
            on_page(doc, self._presence_refresh)

    def _presence_refresh(self) -> None:
        self._presence_due = False
        self.refresh()

    def _say_error(self, text: str) -> None:
        self.session.error = text

    def follow(self) -> None:
        self.session.sync()
        self.refresh()
        self.class_panel.refresh()

    @guarded
    def _on_lang(self, event):
        self.lang = event.new
        self.poll_panel.lang = self.class_view.lang = self.class_panel.lang = event.new
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
            f" · <span class='room-code'>{esc(room.join_code)}</span></h2>"
        )
        self._join_card.object = self._join_html(lang)
        self.projector_links.lang = lang
        people = sorted(room.people(), key=lambda p: p.id)
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
                f"<li class='room-person' data-id='{person.id}'>{esc(person.name)}{seat}"
                f"{presence_html(room, person.id, lang)}</li>"
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
        self.rejoin_requests.refresh(lang)
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
        finally:
            self._updating = False
        self.remove_button.param.update(name=tr(lang, "room.remove"), disabled=not people)
        self.chapters.refresh(lang)
        self.chapter_note.object = chapter_note_html(room, lang)
        self.chapter_note.visible = bool(self.chapter_note.object)
        self.pause_button.param.update(
            name=tr(lang, "room.resume" if room.paused else "room.pause"),
            button_type="warning" if room.paused else "default",
        )
        self.code_button.param.update(
            name=tr(lang, "room.new_code"), description=tr(lang, "room.new_code_help")
        )
        self.close_button.param.update(
            name=tr(lang, "room.close"), description=tr(lang, "room.close_help")
        )
        self.lock_button.param.update(
            name=tr(lang, "room.unlock" if room.locked else "room.lock"),
            button_type="warning" if room.locked else "default",
            description=tr(lang, "room.locked") if room.locked else None,
        )
        # a seat a learner holds is played from their device
        shown = decision_shown(session)
        self.decision.set_shown(shown)
        self.decision_box.visible = shown

    def _join_html(self, lang: str) -> str:
        qr = _qr_svg(self.learner_link)
        code = self.room.join_code
        join_url = f"{self.link.base}/join"
        warning = ""
        if self.link.warning:  # phones cannot reach this address: said, with what to do
            warning = (
                f"<div class='room-address-warning' role='note' style='color:{PROBLEM_TEXT};"
                f"background:{PROBLEM_BACKGROUND};padding:6px 10px;border-radius:4px;"
                f"margin-top:6px;font-size:14px'>"
                f"{esc(tr(lang, self.link.warning, host=self.link.host))}</div>"
            )
        return (
            "<div style='display:flex;gap:12px;align-items:center;flex-wrap:wrap'>"
            f"<div class='room-qr' data-link='{esc(self.learner_link)}' style='flex:0 0 auto'>"
            f"{qr}</div>"
            "<div style='flex:1 1 150px'>"
            f"<div style='font-size:13px;color:{LABEL}'>{esc(tr(lang, 'room.code'))}</div>"
            f"<div class='room-join-code' style='font:700 34px monospace;letter-spacing:3px;"
            f"color:{INK}'>{esc(code[:4])} {esc(code[4:])}</div>"
            f"<div style='font-size:14px'>"
            f"{esc(tr(lang, 'room.join_at', link='LINK')).replace('LINK', f'<b>{esc(join_url)}</b>')}"
            f"</div></div></div>{warning}"
        )

    # ------------------------------------------------------------------ the teacher's actions
    @guarded
    def _on_seat(self, seat: int, event):
        if self._updating:
            return
        self.give_seat(seat, event.new)

    def give_seat(self, seat: int, participant_id: int) -> bool:
        room, key = self.room, self.key
        if participant_id in (0, None):
            return self.session.through_room(lambda: room.free_seat(key, seat))
        return self.session.through_room(lambda: room.assign_seat(key, participant_id, seat))

    @guarded
    def _on_remove(self, *_):
        room, key, who = self.room, self.key, self.remove_select.value
        if who is not None:
            self.session.through_room(lambda: room.remove(key, who))

    @guarded
    def _on_pause(self, *_):
        room, key, paused = self.room, self.key, not self.room.paused
        self.session.through_room(lambda: room.pause(key, paused))

    @guarded
    def _on_close_room(self, *_):
        room, key = self.room, self.key
        self.session.through_room(lambda: room.close(key))

    @guarded
    def _on_new_code(self, *_):
        room, key, taken = self.room, self.key, self.rooms.taken
        self.session.through_room(lambda: room.change_join_code(key, taken=taken))

    @guarded
    def _on_lock(self, *_):
        room, key, locked = self.room, self.key, not self.room.locked
        self.session.through_room(lambda: room.lock_room(key, locked))


def teacher_app():
    code = page_arg("room", 40)
    # the keys this browser's cookie keeps (redeemed once, on the server, for the page's ticket);
    # an old link's key is still taken (and moved into the cookie, out of the address, by the page)
    kept = page_secrets().rooms(TEACHER)
    browser = page_secrets().id(BROWSER)  # the Sandbox's games of this browser, as chapters
    link_key = page_arg("key", 80)
    host = (pn.state.headers or {}).get("Host", "")[:200]
    context = pn.state.curdoc.session_context if pn.state.curdoc is not None else None
    client = getattr(getattr(context, "request", None), "remote_ip", "") or ""
    lang = browser_language()

    def build(room):  # room: read from the store off the event loop (prepare)
        # the key kept for this code, or any kept key that is this room's teacher's
        keys = [link_key, kept.get(code, ""), *kept.values()]
        key = next((k for k in keys if k and room is not None and room.is_teacher(k)), "")
        key = key or link_key or kept.get(code, "")
        return TeacherPage(
            rooms(), code=code, key=key, host=host, lang=lang, client=client, browser=browser
        )

    # covers itself when the server goes away and reloads when it is back: to this room by the
    # address's code and the browser's teacher cookie (widgets.game.reconnect)
    return reconnecting_page(build, prepare=lambda: rooms().find(code) if code else None, lang=lang)
