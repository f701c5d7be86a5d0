"""The learner's page (``/join``): join a room with its code and a name, then the shared table
with the seat the teacher gave (or watching), the class questions, and breaking away to try
steps alone. A reload or a restart comes back to the same room and seat (an HttpOnly cookie
keeps the learner's token for each room joined)."""

from __future__ import annotations

import json

import panel as pn
import param

from nefertiti_core.engine.i18n import LANGUAGES, tr
from widgets.classroom import rejoin
from widgets.classroom.chapters_view import chapter_note_html
from widgets.classroom.marks_layer import MarksLayer
from widgets.classroom.poll_view import LearnerPollCard
from widgets.classroom.presence import PRESENCE
from widgets.classroom.rejoin_view import RejoinForm, pin_note_html
from widgets.classroom.room import (
    MAX_NAME,
    Refusal,
    Room,
    Rooms,
    new_secret,
    normal_code,
    valid_token,
)
from widgets.classroom.room_work import change_room, off_loop
from widgets.classroom.table import (
    CARD,
    MAIN,
    MAX_JOIN_TRIES,
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
    status_html,
    submit_for,
    table_parts,
)
from widgets.classroom.table_boards import TableLog, TablePlayers
from widgets.game.board_text import BoardText
from widgets.game.common import HTML, esc, guarded
from widgets.game.language import LanguageSelector, browser_language
from widgets.game.reconnect import reconnecting_page
from widgets.game.session import GameSession, served_document
from widgets.server.cookies import DEVICE, LEARNER, grant, page_secrets
from widgets.server.cookies import KEEP_JS as POST_GRANT_JS
from widgets.theme import (
    HEADING,
)

#: Runs in the learner's browser when they join: posts the one-time grant for their token and
#: the device's id (the server sets both as HttpOnly cookies: a reload or a restart reconnects;
#: neither ever reaches the page) and puts the code in the address.
KEEP_JS = (
    POST_GRANT_JS
    + """
if (!cb_obj.value) return;
const kept = JSON.parse(cb_obj.value);
keep(kept.grant);
const url = new URL(window.location.href);
url.searchParams.set("code", kept.code);
window.history.replaceState(window.history.state, "", url);
"""
)


# ---------------------------------------------------------------------- the learner's page
class LearnerPage(pn.viewable.Viewer):
    """``/join``: a code and a name, then the table from the learner's seat.

    In the room, besides the table's parts (``bar``, ``board``, ``decision``) and the poll card
    (``poll_card``): ``decision_box``, the card holding the decision panel, shown only when the
    learner can act now; ``poll_box``, the poll card's box, shown while a question is asked;
    ``players`` and ``table_log``, every player's board and the table's log (table_boards.py)."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(
        self,
        rooms: Rooms,
        code: str = "",
        tokens=None,
        lang: str = "en",
        device: str = "",
        client: str = "",
        **params,
    ):
        self.rooms = rooms
        self.lang = lang if lang in LANGUAGES else "en"
        #: this browser's tokens, by room code (its HttpOnly cookie, redeemed on the server)
        self.tokens = dict(tokens or {})
        #: this device's id (its HttpOnly cookie ``widgets.server.cookies.DEVICE``, or a new one
        #: it is given when it joins): a learner the teacher removed cannot join again from it
        self.device = device if valid_token(device) else new_secret()
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
        # a name a present participant holds: their PIN, or the teacher's leave (rejoin_view.py)
        self.rejoin_form = RejoinForm(
            self._rejoined, self.lang, self.device, self._count_try, client=client
        )
        self._person_id: int | None = None
        self._leave = None
        self._form = pn.Column(
            self._lang,
            self._code,
            self._name,
            self._join,
            self._message,
            self.rejoin_form.pane,
            styles={**CARD, "padding": "10px"},
            margin=(10, 10),
            css_classes=["room-join-form"],
        )
        self._layout = pn.Column(
            header(self._title), self._form, self._keep, sizing_mode="stretch_width", styles=PAGE
        )
        self._code.value = code
        self._label_form()
        # a browser that joined this room before: back to the same participant
        room = rooms.find(code) if code else None
        if room is not None:
            # the token kept for this code, else any kept token of this room's participants
            token = self.tokens.get(room.code, "")
            if not (valid_token(token) and room.participant(token) is not None):
                token = next(
                    (t for t in self.tokens.values() if room.participant(t) is not None), token
                )
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
            self.rejoin_form.label(event.new)

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
        rooms, lang, device, answer = self.rooms, self.lang, self.device, []
        tokens = dict(self.tokens)

        def work():  # off the event loop: finding the room and joining it may wait for the store
            room = rooms.find(code) if isinstance(code, str) else None
            if room is None:
                return None, None, "", Refusal("room.refuse.no_room"), ""
            holder = rejoin.claimant(room, name)
            if holder is not None:  # this browser's own participant: in; else a PIN or ask
                kept = tokens.get(room.code, "")
                mine = room.participant(kept) if valid_token(kept) else None
                return room, None, kept if mine is holder else "", None, None
            person, token, why = room.join(name, lang, device=device, code=code)
            pin = rejoin.new_pin(room, token)[0] if why is None else ""  # shown once
            return room, person, token, why, pin

        def done(result) -> None:
            if isinstance(result, Refusal):  # the work itself failed
                result = (None, None, "", result, "")
            room, person, token, why, pin = result
            if pin is None and token:
                self._enter(room, token, welcome=True)
                answer.append(True)
                return
            if pin is None:
                self._say("")
                self.rejoin_form.claim(room, name, code)
                answer.append(False)
                return
            self.rejoin_form.pane.visible = False
            answer.append(self._joined(room, person, token, why, pin))

        off_loop("join:" + str(code)[:20], work, done)
        return answer[0] if answer else True

    def _count_try(self) -> bool:
        """One more PIN try, counted with the wrong codes; False past the page's limit."""
        self._tries += 1
        return self._tries <= MAX_JOIN_TRIES

    def _rejoined(self, room, token, pin) -> None:
        """The seat moved to this device (a right PIN, or the teacher let it in)."""
        self._joined(room, None, token, None, pin)

    def _joined(self, room, person, token, why, pin="") -> bool:
        if room is None:
            self._tries += 1
        if why is not None:
            if why.key == "room.refuse.old_code":  # counted as a wrong code
                self._tries += 1
            self._say(why.text(self.lang))
            return False
        kept = grant(
            (LEARNER, room.code, token),
            (DEVICE, "", self.device),
            check=lambda: not room.expired() and room.participant(token) is not None,
        )
        self._keep.value = json.dumps({"code": room.code, "grant": kept})
        self._enter(room, token, pin=pin)
        return True

    # ------------------------------------------------------------------ the table
    def _enter(self, room: Room, token: str, welcome: bool = False, pin: str = "") -> None:
        self.room, self.token = room, token
        person = room.participant(token)
        self._person_id = person.id if person is not None else None
        lang = person.lang if person is not None else self.lang
        self.lang = lang
        polls = room.polls
        learner_id = str(person.id) if person is not None else "0"
        # the card (and its board) before the table's session: that is the page's own
        self.poll_card = LearnerPollCard(
            polls, learner_id, lang=lang, submit=submit_for(room, token, polls), board_width=320
        )
        session = TableSession(room, token, teacher=False, lang=lang)
        self.session = session
        self.bar, self.board, self.decision = table_parts(session, teacher=False)
        self.bar.redo_button.visible = False
        self.language = LanguageSelector(session)
        self._status = HTML("", sizing_mode="stretch_width", margin=(2, 10))
        # the PIN to come back on another device: shown once, on this page only
        self._pin = pin
        self._pin_note = HTML(
            pin_note_html(pin, lang) if pin else "", visible=bool(pin), margin=(2, 10)
        )
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
        self.poll_box = poll_box(self.poll_card, css="room-poll")
        self.poll_box.visible = polls.current is not None
        self.poll_card.box = self.poll_box  # shown and hidden with the question, by the card
        self.marks_layer = MarksLayer(self.board, room)  # the teacher's marks (marks_layer.py)
        # the table's chapter, its title and teaching text in the learner's language
        self.chapter_note = HTML("", sizing_mode="stretch_width", margin=(0, 5))
        #: what the page last saw of the chapters: a break-away that ends with a change of
        #: them was the teacher's doing, and the page says so
        self._chapters_seen = (room.chapters.current, room.chapters.recalls)
        #: The board in words, each step announced (board_text.py; the board's keys: board_keys.py).
        self.board_text = BoardText(session)
        main = pn.Column(self.chapter_note, self.bar, self.board, styles=MAIN)
        self.storage = StorageNote(room, session, teacher=False)
        # every player's board and the table's log: below "your turn" and the decision
        self.players, self.table_log = TablePlayers(session), TableLog(session)
        side = pn.Column(
            self._status,
            self._pin_note,
            self.storage.pane,
            self._away,
            self._error,
            self.decision_box,
            # after "your turn" and the decision: on a phone they stay in the first screen
            self.board_text,
            self.players,
            self.table_log,
            styles=SIDE,
        )
        self._layout.objects = [
            header(self._title, self.language),
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
        self._follower = Follower(room, self, served_document(), private_id=person_id)
        on_close(self._follower.close)
        if person is not None:  # online while this page is open (presence.py)
            self._leave = PRESENCE.arrive(room.code, person.id)
            on_close(self._leave)
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
        if self.room.participant(self.token) is None:  # removed, or the seat moved
            moved = self._person_id in self.room.participants
            words = tr(self.lang, "room.moved_away" if moved else "room.removed_you")
            self._layout.objects = [
                header(self._title),
                pn.pane.Alert(
                    esc(words),
                    alert_type="warning" if moved else "danger",
                    css_classes=["room-moved" if moved else "room-removed"],
                ),
            ]
            if self._leave is not None:
                self._leave()
            if self._follower is not None:
                self._follower.close()
            self.poll_card.detach()
            self.room = None
            return
        self.poll_box.visible = self.room.polls.current is not None
        was_away = self.session.away
        self.session.sync()
        chapters = self.room.chapters
        seen, self._chapters_seen = self._chapters_seen, (chapters.current, chapters.recalls)
        if was_away and not self.session.away and seen != self._chapters_seen:
            lang = self.session.lang
            self._error.param.update(
                object=esc(tr(lang, "chapters.brought_back", title=chapters.shown.title_in(lang))),
                alert_type="info",
                visible=True,
            )
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
            f" · {esc(self.room.join_code)}</h2>"
        )
        self._status.object = status_html(session, lang)
        self.chapter_note.object = chapter_note_html(self.room, lang, font_px=14)
        self.chapter_note.visible = bool(self.chapter_note.object)
        self._away.name = tr(lang, "room.rejoin" if session.away else "room.break_away")
        self._away.button_type = "success" if session.away else "default"
        self.bar.undo_button.visible = session.away
        self._show_decision(show=show_decision)

    def _show_decision(self, show: bool = True) -> None:
        """The decision panel shown when the learner can act now (``show``: now; else only
        hidden when they cannot). A hidden panel skips its refreshes; shown again, it is
        brought up to date first."""
        session = self.session
        shown = decision_shown(session)
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

    @guarded
    def _on_lang(self, event):
        self.lang = event.new
        if self._pin:
            self._pin_note.object = pin_note_html(self._pin, event.new)
        self.poll_card.lang = event.new
        if self.room is not None:
            room, token, lang = self.room, self.token, event.new
            change_room(room, lambda: room.set_language(token, lang))  # follow() relabels

    @guarded
    def _on_away(self, *_):
        self.toggle_away()

    def toggle_away(self) -> bool:
        """Break away from the table, or back to it (through the room, off the event loop);
        False (and a message) if refused."""
        session, room, token = self.session, self.room, self.token
        back = session.away
        answer: list[bool] = []

        def done(why) -> None:
            if why is not None:
                session.error = why.text(session.lang)
                answer.append(False)
                return
            session.away = not back
            session.sync()  # at once on this page (the room's notice follows on the next tick)
            self.refresh()
            answer.append(True)

        work = (lambda: room.rejoin(token)) if back else (lambda: room.break_away(token))
        change_room(room, work, done)
        return answer[0] if answer else True


def learner_app():
    code = normal_code(page_arg("code", 40)) or ""
    # this browser's tokens and device id (redeemed once, on the server, for the page's ticket)
    kept = page_secrets()
    tokens, device = kept.rooms(LEARNER), kept.id(DEVICE)
    context = pn.state.curdoc.session_context if pn.state.curdoc is not None else None
    client = getattr(getattr(context, "request", None), "remote_ip", "") or ""
    lang = browser_language()
    # covers itself when the server goes away and reloads when it is back: to the same seat by
    # the address's code and the browser's cookie for the room (widgets.game.reconnect)
    return reconnecting_page(
        lambda _room: LearnerPage(
            rooms(), code=code, tokens=tokens, lang=lang, device=device, client=client
        ),
        prepare=lambda: rooms().find(code) if code else None,  # the store read off the loop
        lang=lang,
    )
