"""The pages' side of coming back on another device (``widgets.classroom.rejoin``) and of who is
online (``widgets.classroom.presence``).

* :class:`RejoinForm` on the learner's ``/join`` page: a name that is a present participant's
  asks for their PIN ("Come back") or the teacher's leave ("Ask the teacher") instead of
  refusing; a waiting request follows the room and enters the seat when the teacher lets it in.
* :class:`RejoinRequests` on the teacher's page: "Anna asks to come back on a new device —
  Let in / Refuse", one line per waiting request (names escaped).
* :func:`presence_html`: online or away, as the teacher's list of people shows it.

Every change is made off the event loop (``room_work.change_room``); every sentence is in the
page's language.
"""

from __future__ import annotations

import functools

import panel as pn

from nefertiti_core.engine.i18n import tr
from widgets.classroom import rejoin
from widgets.classroom.presence import PRESENCE
from widgets.classroom.room import Refusal, Room
from widgets.classroom.room_work import change_room
from widgets.game.common import HTML, esc, guarded, on_page
from widgets.game.session import served_document
from widgets.theme import ACCENT, GOOD, LABEL


def presence_html(room: Room, person_id: int, lang: str) -> str:
    """A participant's "online" or "away" mark (``data-online`` for tests and styles)."""
    online = PRESENCE.online(room.code, person_id)
    colour = GOOD if online else LABEL
    word = tr(lang, "room.presence.online" if online else "room.presence.away")
    return (
        f" <span class='room-presence' data-online='{'yes' if online else 'no'}' "
        f"style='color:{colour};font-size:13px'>{'●' if online else '○'} {esc(word)}</span>"
    )


def pin_note_html(pin: str, lang: str) -> str:
    """The PIN, shown once on the learner's page after they joined or came back."""
    return (
        f"<div class='room-pin-note' style='font-size:15px'>"
        f"{esc(tr(lang, 'room.pin_note', pin='@@PIN@@')).replace('@@PIN@@', f'<b>{esc(pin)}</b>')}"
        "</div>"
    )


class _Watch:
    """A room's changes (and presence's) handed to ``callback`` on a page's next tick, once per
    tick; outside a served page, at once."""

    def __init__(self, room: Room, callback):
        self.room, self.callback, self.doc = room, callback, served_document()
        self._scheduled = False
        self._key = room.subscribe(self._notify)

    def _notify(self, *_):
        if self._scheduled:
            return
        if self.doc is None:
            self.callback()
            return
        self._scheduled = True
        on_page(self.doc, self._run)

    def _run(self) -> None:
        self._scheduled = False
        self.callback()

    def close(self) -> None:
        self.room.unsubscribe(self._key)


class RejoinForm:
    """Below the join form: come back as ``name`` with a PIN, or ask the teacher.

    ``entered(room, token, pin)`` is the learner page's way in (cookie, then the table).
    ``pane`` is shown only while a name is being claimed; ``pin_input``, ``pin_button``,
    ``ask_button`` and ``message`` are its parts."""

    def __init__(self, entered, lang: str, device: str, tries, client: str = ""):
        self.entered, self.lang, self.device = entered, lang, device
        #: the page's client address: wrong PINs are also counted per address (rejoin.py)
        self.client = client
        #: the page's counter of refused tries (shared with wrong codes): ``tries()`` adds one
        #: and says whether more may be made
        self.tries = tries
        self.room: Room | None = None
        self.name = ""
        self.code = ""
        self._request: tuple[int, str] | None = None
        self._watch: _Watch | None = None
        self.text = HTML("", sizing_mode="stretch_width", css_classes=["room-rejoin-text"])
        self.pin_input = pn.widgets.PasswordInput(
            max_length=8, width=120, css_classes=["room-pin-input"]
        )
        self.pin_button = pn.widgets.Button(color="primary", width=150, css_classes=["room-pin-go"])
        self.pin_button.on_click(self._on_pin)
        self.ask_button = pn.widgets.Button(width=200, css_classes=["room-ask-teacher"])
        self.ask_button.on_click(self._on_ask)
        self.message = pn.pane.Alert(
            "", alert_type="danger", visible=False, css_classes=["room-rejoin-message"]
        )
        self.pane = pn.Column(
            self.text,
            pn.Row(self.pin_input, self.pin_button),
            self.ask_button,
            self.message,
            visible=False,
            css_classes=["room-rejoin"],
        )
        self.label()

    def label(self, lang: str | None = None) -> None:
        self.lang = lang or self.lang
        self.text.object = (
            f"<p style='margin:4px 0'>{esc(tr(self.lang, 'room.name_held', name=self.name))}</p>"
        )
        self.pin_input.param.update(name=tr(self.lang, "room.pin"), placeholder="0000")
        self.pin_button.name = tr(self.lang, "room.come_back")
        self.ask_button.name = tr(self.lang, "room.ask_teacher")

    def claim(self, room: Room, name: str, code: str) -> None:
        """The typed name is a present participant's: ask for their PIN (or the teacher)."""
        self.room, self.name, self.code = room, name, code
        self.label()
        self.say("")
        self.pane.visible = True

    def say(self, text: str, kind: str = "danger") -> None:
        self.message.param.update(object=esc(text), alert_type=kind, visible=bool(text))

    @guarded
    def _on_pin(self, *_):
        self.with_pin(self.pin_input.value)

    def with_pin(self, pin) -> None:
        """What "Come back" does: the PIN checked off the event loop; in, or a message."""
        room, name, code, device = self.room, self.name, self.code, self.device
        if room is None:
            return
        if not self.tries():
            self.say(Refusal("room.refuse.too_fast").text(self.lang))
            return

        def done(result) -> None:
            if isinstance(result, Refusal):
                result = (None, "", "", result)
            _person, token, pin_now, why = result
            if why is not None:
                self.say(why.text(self.lang))
                return
            self.pane.visible = False
            self.entered(room, token, pin_now)

        client = self.client
        change_room(
            room,
            lambda: rejoin.with_pin(room, name, pin, device=device, code=code, client=client),
            done,
        )

    @guarded
    def _on_ask(self, *_):
        self.ask()

    def ask(self) -> None:
        """What "Ask the teacher" does: the request made (off the event loop), then the page
        waits for the teacher's answer."""
        room, name, code, device = self.room, self.name, self.code, self.device
        if room is None:
            return

        def done(result) -> None:
            if isinstance(result, Refusal):
                result = (0, "", result)
            person_id, token, why = result
            if why is not None:
                self.say(why.text(self.lang))
                return
            self._request = (person_id, token)
            self.ask_button.disabled = self.pin_button.disabled = True
            self.say(tr(self.lang, "room.asked_waiting"), kind="info")
            self._watch = _Watch(room, self._check)
            self._check()

        change_room(room, lambda: rejoin.ask(room, name, device=device, code=code), done)

    def _check(self) -> None:
        """The room changed while a request waits: let in, refused, or still waiting."""
        if self._request is None or self.room is None:
            return
        room, (person_id, token) = self.room, self._request
        state = rejoin.request_state(room, person_id, token)
        if state == "waiting":
            return
        self._request = None
        if self._watch is not None:
            self._watch.close()
        if state == "in":
            self.pane.visible = False

            def done(result) -> None:
                pin = result[0] if isinstance(result, tuple) else ""
                self.entered(room, token, pin)

            change_room(room, lambda: rejoin.new_pin(room, token), done)
            return
        self.ask_button.disabled = self.pin_button.disabled = False
        key = "room.asked_refused" if state == "refused" else "room.asked_gone"
        self.say(tr(self.lang, key))


class RejoinRequests:
    """The teacher's card of learners asking to come back on a new device (hidden when none)."""

    def __init__(self, room: Room, key: str, lang: str, on_error):
        self.room, self.key, self.lang, self.on_error = room, key, lang, on_error
        self._shown: tuple = ()
        self.pane = pn.Column(
            visible=False,
            sizing_mode="stretch_width",
            margin=(5, 5),
            css_classes=["room-rejoin-requests"],
            styles={"border": f"2px solid {ACCENT}", "border-radius": "6px", "padding": "6px"},
        )

    def refresh(self, lang: str) -> None:
        waiting = rejoin.asking(self.room)
        shown = (lang, tuple((p.id, p.name, p.rejoin.get("ask")) for p in waiting))
        if shown == self._shown:
            return
        self._shown, self.lang = shown, lang
        rows = []
        for person in waiting:
            let_in = pn.widgets.Button(
                label=tr(lang, "room.let_in"), color="success", width=110,
                css_classes=["room-let-in"],
            )  # fmt: skip
            refuse = pn.widgets.Button(
                label=tr(lang, "room.refuse_in"), width=110, css_classes=["room-refuse-in"]
            )
            let_in.on_click(functools.partial(self._on_answer, person.id, True))
            refuse.on_click(functools.partial(self._on_answer, person.id, False))
            words = HTML(
                f"<span class='room-asks' data-id='{person.id}'>"
                f"{esc(tr(lang, 'room.asks_back', name=person.name))}</span>",
                sizing_mode="stretch_width",
            )
            rows.append(pn.Column(words, pn.Row(let_in, refuse), sizing_mode="stretch_width"))
        self.pane.objects = rows
        self.pane.visible = bool(rows)

    def _on_answer(self, person_id: int, let_in: bool, *_):
        self.answer(person_id, let_in)

    def answer(self, person_id: int, let_in: bool) -> None:
        """Let the waiting device in, or refuse it (off the event loop); a refusal is shown."""
        room, key = self.room, self.key

        def done(why) -> None:
            if why is not None:
                self.on_error(why.text(self.lang))

        change_room(room, lambda: rejoin.answer(room, key, person_id, let_in), done)
