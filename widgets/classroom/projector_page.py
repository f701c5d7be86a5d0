"""The classroom's projector view (``/projector``): what the whole class looks at, read-only.

Large enough to read from the back of the room at 1024 x 768 and 1920 x 1080 without
scrolling: the table's board, whose decision it is and the last step (the class bar), how to
join (the join code in big letters, the short link and the QR code), every player's board (a
compact strip: colour, who holds the seat, Deben, seals, servants in hand, gifts, score) and the
table's log (``table_boards.py``), and the current class question, which takes the strip's and
the log's place while it is up: while it is open only how many have answered, at the reveal the
answers' bars and the right answer (``ProjectorPollView``). It follows the room and its questions live, as the
other pages do. It holds no control (no button, no menu, the board does nothing on a click: its
session refuses every step) and nothing secret: no learner's answer before the reveal and no
name of who answered what ever, no teacher's key and no projector token in its address, its
HTML or its models.

Who may open it: the teacher's own browser (its teacher cookie for the room: a second window
on the projector's screen, ``/projector?room=CODE``), or another computer with the room's
projector link (``projector_links.py``; ``/projector?room=CODE&projector=TOKEN``, the token
moved into a cookie for the path ``/projector`` by :data:`TOKEN_TO_COOKIE` before the page is
drawn, the address keeping only the code). A wrong, old or missing token gets one sentence in
the page's language and no table; a projector let in by a link the teacher has since renewed
is turned away at the room's next change.

The decision is made when the page is requested (:func:`admission`, Bokeh's
``Application.process_request``): what the session keeps of the request, and so what its
page's HTML carries in its session token, is the room's code, the language and the pass the
room gave, instead of the browser's cookies and the address's arguments (Bokeh puts every cookie
and argument of the request in that token, signed but readable).
"""

from __future__ import annotations

import functools
import logging

import panel as pn
import param

from nefertiti_core.engine.i18n import LANGUAGES, tr
from widgets.classroom.chapters_view import chapter_note_html
from widgets.classroom.marks_layer import MarksLayer
from widgets.classroom.poll import CARD_CHANGES
from widgets.classroom.poll_view import ProjectorPollView
from widgets.classroom.projector_links import PROJECTOR_ARG, PROJECTOR_COOKIE, PROJECTOR_PATH
from widgets.classroom.room import Refusal, Room, Rooms, normal_code
from widgets.classroom.table import (
    CARD,
    MAIN,
    PAGE,
    SIDE,
    ClassBar,
    Follower,
    TableSession,
    header,
    on_close,
    poll_box,
    rooms,
)
from widgets.classroom.table_boards import TableLog, TablePlayers
from widgets.game.board import Board
from widgets.game.common import HTML, esc
from widgets.game.language import browser_language
from widgets.game.reconnect import reconnecting_page
from widgets.game.session import GameSession, served_document
from widgets.server.addresses import link_base
from widgets.server.cookies import OneTime
from widgets.theme import ALERT, HEADING, INK, LABEL, PAPER

log = logging.getLogger("widgets.classroom")

#: What the projector's session keeps of its request (:func:`admission`), under this key of
#: the session's token.
PAYLOAD_KEY = "nefertiti_projector"
#: The board below the banner, the last step and the page's title line.
BOARD_MAX_HEIGHT = "100vh - 230px"
#: The column of the join code and the question: a little wider than the other pages' (a question
#: and its reveal fit at 1024 x 768 beside a board still over half the window wide).
PROJECTOR_SIDE = {**SIDE, "flex": "0 1 440px"}
#: On a wide screen (1920 x 1080) the join code and the question grow with the room they have:
#: the side column is drawn larger (CSS zoom), read from the back of a room as at 1024 x 768.
WIDE_SCREEN_CSS = (
    "@media (min-width: 1500px) { :host { zoom: 1.4; "
    "height: calc((100vh - 56px) / 1.4) !important; } }"
)
#: How long a projector's browser keeps a projector link's token (a school day).
COOKIE_MAX_AGE = 12 * 3600
#: Runs in the projector's browser as its page is first read, before anything is drawn: a
#: projector link's token goes from the address into a cookie for this room (path /projector:
#: no other page of the server gets it) and out of the address (not in the history, nor on the
#: projected address bar). Fixed text: nothing of the request is written into it.
TOKEN_TO_COOKIE = f"""<script>
(function () {{
  const url = new URL(window.location.href);
  const token = url.searchParams.get("{PROJECTOR_ARG}");
  if (token === null) return;
  const room = (url.searchParams.get("room") || "").replace(/[\\s-]/g, "").toUpperCase();
  if (/^[A-Za-z0-9_-]{{20,64}}$/.test(token) && /^[A-Z0-9]{{4,16}}$/.test(room)) {{
    const secure = window.location.protocol === "https:" ? "; Secure" : "";
    document.cookie = "{PROJECTOR_COOKIE}" + room + "=" + token + "; path={PROJECTOR_PATH}; " +
      "max-age={COOKIE_MAX_AGE}; SameSite=Strict" + secure;
  }}
  url.searchParams.delete("{PROJECTOR_ARG}");
  window.history.replaceState(window.history.state, "", url);
}})();
</script>"""


# ---------------------------------------------------------------------- who may see it
#: A projector request's credentials kept on the server for a minute, until the page's
#: ``prepare`` (off the event loop) has read the room from the store and checked them: the
#: session's token (in the page's HTML) holds only this one-time ticket, never a key or token.
WAITING_CHECKS = OneTime(60.0, limit=200)


def check_later(ticket) -> int | None:
    """The pass of a request :func:`admission` could not check on the event loop (its room read
    from the store now, off the loop); None when it gives none."""
    credentials = WAITING_CHECKS.take(ticket)
    if credentials is None:
        return None
    code, key, token = credentials
    room = rooms().find(code)
    return room.projector_pass(key, token) if room is not None else None


def _first(arguments, name: str, limit: int = 80) -> str:
    values = (arguments or {}).get(name) or [b""]
    value = values[0]
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return text[:limit]


def teacher_key(cookies, code: str) -> str:
    """The teacher's key for room ``code`` that this browser keeps ("" for none): the server's
    HttpOnly teacher cookie (``widgets.server.cookies.TEACHER``; an older script-set one too).
    The one place the projector reads it."""
    from widgets.server.cookies import TEACHER, read

    kept = read(cookies)[0].get(TEACHER.name)
    return kept.get(code, "") if isinstance(kept, dict) else ""


def admission(request, find=None) -> dict:
    """What the projector page's session keeps of its request (Bokeh's
    ``Application.process_request``, merged over what Bokeh took from the request): no cookie,
    only the ``room`` and ``lang`` arguments, and under :data:`PAYLOAD_KEY` the room's code, the
    language and the pass the room gives this request (``Room.projector_pass``: the teacher's
    cookie for the room, or the projector link's token from the address or this browser's
    cookie), None when it gives none. ``find``: the rooms' ``find`` (the server's by default).
    Never raises: anything unexpected lets nobody in."""
    arguments = getattr(request, "arguments", None) or {}
    code = normal_code(_first(arguments, "room", 40)) or ""
    lang = _first(arguments, "lang", 8)
    lang = lang if lang in LANGUAGES else ""
    projector_pass, ticket = None, ""
    try:
        cookies = {name: morsel.value for name, morsel in (request.cookies or {}).items()}
        token = _first(arguments, PROJECTOR_ARG) or cookies.get(PROJECTOR_COOKIE + code, "")[:80]
        key = teacher_key(cookies, code)
        room = (find or rooms().find)(code) if code else None
        if room is not None:
            projector_pass = room.projector_pass(key, token)
        elif code and (key or token):
            # a room this process does not hold yet (another process opened it): read from the
            # store off the event loop as the page opens, and checked then (check_later)
            ticket = WAITING_CHECKS.put((code, key, token))
    except Exception:  # a broken request, a store away: nobody in, said in the log
        log.warning("projector: the request could not be checked", exc_info=True)
    headers = getattr(request, "headers", None) or {}
    kept_arguments = {"room": [code.encode()]} if code else {}
    if lang:
        kept_arguments["lang"] = [lang.encode()]
    return {
        "cookies": {},
        "headers": {k: v for k, v in headers.items() if k.lower() != "cookie"},
        "arguments": kept_arguments,
        PAYLOAD_KEY: {"code": code, "lang": lang, "pass": projector_pass, "ticket": ticket},
    }


# ---------------------------------------------------------------------- the page
class ProjectorSession(TableSession):
    """The projector's view of the table: every seat worded as its holder's (a learner's name or
    the teacher); nothing is ever played from it, whatever a page sends."""

    def __init__(self, room: Room, **params):
        super().__init__(room, "", teacher=False, **params)

    def can_play_seat(self, seat: int) -> bool:
        return False

    def play(self, option, by_learner: bool = False) -> bool:
        return self.refuse(Refusal("room.refuse.teacher_only"))

    def undo(self) -> bool:
        return self.refuse(Refusal("room.refuse.teacher_only"))

    def redo(self) -> bool:
        return self.refuse(Refusal("room.refuse.teacher_only"))


def _no_square(_cell) -> None:
    """A click on the projector's board does nothing."""


@functools.lru_cache(maxsize=64)
def _qr_svg(link: str) -> str:
    """The join link's QR code, sized for the projector."""
    import segno

    return segno.make(link, error="m").svg_inline(scale=3, border=2, dark=INK, light=PAPER)


class ProjectorPage(pn.viewable.Viewer):
    """``/projector``: the room for the class to look at (see the module's doc).

    In the room: ``bar`` (whose decision it is, the last step: no Undo or Redo), ``board`` (the
    table's, which does nothing on a click), ``join_card`` (the code, the link, the QR code),
    ``poll`` (the class question, :class:`ProjectorPollView`) in ``poll_box`` (shown while there
    is a question), ``players`` (every player's board, a compact strip, in ``players_box``) and
    ``table_log`` (the table's log), both hidden while there is a question, and ``status``
    (paused), ``chapter_note`` (the table's chapter: its title and teaching text). Turned
    away: ``message``."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(
        self,
        rooms: Rooms,
        code: str = "",
        projector_pass: int | None = None,
        host: str = "",
        lang: str = "en",
        **params,
    ):
        self.rooms = rooms
        #: where the learners' devices reach the server (widgets.server.addresses)
        self.link = link_base(host)
        self.lang = lang if lang in LANGUAGES else "en"
        self.projector_pass = projector_pass
        self.room: Room | None = None
        self._follower = None
        self._poll_stop = None
        super().__init__(session=GameSession(lang=self.lang), **params)
        self._title = HTML("", margin=(2, 10))
        self.message = pn.pane.Alert(
            "",
            alert_type="danger",
            visible=False,
            styles={"font-size": "20px"},
            css_classes=["room-projector-refused"],
        )
        self._layout = pn.Column(
            header(self._title), self.message, sizing_mode="stretch_width", styles=PAGE
        )
        self._label(code)
        room = rooms.find(code) if code else None
        if room is not None and room.projector_admits(projector_pass):
            self._enter(room)
        else:
            self._turn_away("room.projector.no_access")

    def __panel__(self):
        return self._layout

    def _label(self, code: str) -> None:
        shown = f" · {esc(code[:4])} {esc(code[4:])}" if code else ""
        self._title.object = (
            f"<h2 style='margin:4px 0;color:{HEADING};font-size:22px'>"
            f"{esc(tr(self.lang, 'room.title'))}{shown} · "
            f"{esc(tr(self.lang, 'room.projector.title'))}</h2>"
        )

    def _turn_away(self, key: str) -> None:
        """One sentence, no table (and no longer following the room)."""
        self._stop_following()
        self.room = None
        self.message.param.update(object=esc(tr(self.lang, key)), visible=True)
        self._layout.objects = [header(self._title), self.message]

    def _stop_following(self) -> None:
        if self._follower is not None:
            self._follower.close()
            self._follower = None
        if self._poll_stop is not None:
            self._poll_stop()
            self._poll_stop = None
            self.poll.detach()

    def _enter(self, room: Room) -> None:
        self.room = room
        session = ProjectorSession(room, lang=self.lang)
        self.session = session
        self.bar = ClassBar(session, buttons=False)
        self.board = Board(
            session,
            fit=True,
            max_height=BOARD_MAX_HEIGHT,
            fit_window=True,
            shared=True,
            on_square=_no_square,
        )
        self.marks_layer = MarksLayer(self.board, room)  # the teacher's marks (marks_layer.py)
        self.status = HTML("", sizing_mode="stretch_width", css_classes=["room-projector-status"])
        self.join_card = HTML("", sizing_mode="stretch_width", css_classes=["room-join-card"])
        self.poll = ProjectorPollView(room.polls, lang=self.lang, font_px=20)
        self.poll_box = poll_box(self.poll, css="room-poll-projected")
        # the column ends at the window's bottom: a long explanation scrolls in its box, the
        # question, the counts and the right answer above it stay in view
        self.poll_box.styles = {
            **self.poll_box.styles,
            "overflow-y": "auto",
            "min-height": "0",
            "flex": "0 1 auto",
        }
        self.poll_box.visible = self.poll.has_question
        self._poll_stop = room.polls.on_change(self._on_polls)
        # every player's board in a compact strip, and the log in the room left below it; a
        # question takes their place (its reveal fits at 1024 x 768 with the join code)
        self.players = TablePlayers(session, compact=True)
        self.players_box = pn.Column(
            self.players,
            styles=CARD,
            sizing_mode="stretch_width",
            margin=(5, 5),
            css_classes=["room-players-strip"],
            visible=not self.poll.has_question,
        )
        self.table_log = TableLog(
            session, fill=True, earlier=False, visible=not self.poll.has_question
        )
        main = pn.Column(self.bar, self.board, styles=MAIN)
        # the table's chapter, its title and teaching text (chapters_view.py)
        self.chapter_note = HTML("", sizing_mode="stretch_width", margin=(0, 5))
        side = pn.Column(
            pn.Column(self.join_card, styles=CARD, sizing_mode="stretch_width", margin=(5, 5)),
            self.chapter_note,
            self.players_box,
            self.poll_box,
            self.table_log,
            styles={**PROJECTOR_SIDE, "height": "calc(100vh - 56px)"},
            stylesheets=[WIDE_SCREEN_CSS],
        )
        self._layout.objects = [
            header(self._title, self.status),
            pn.FlexBox(
                main, side, flex_wrap="wrap", align_items="flex-start", sizing_mode="stretch_width"
            ),
        ]
        self._follower = Follower(room, self, served_document())
        on_close(self._stop_following)
        self.refresh()

    def follow(self) -> None:
        """The room changed (on this page's document): still let in, then as the room is."""
        room = self.room
        if room is None:
            return
        if not room.projector_admits(self.projector_pass):
            self._turn_away(
                "room.projector.closed" if room.expired() else "room.projector.no_access"
            )
            return
        self.poll_box.visible = self.poll.has_question
        # the question first: the players' strip and the log make room for it
        self.players_box.visible = self.table_log.visible = not self.poll.has_question
        self.session.sync()
        self.refresh()

    def _on_polls(self, _polls, what) -> None:
        """A question asked or closed: its box comes up or goes (on this page's next tick,
        with the room's)."""
        if self._follower is not None and what in CARD_CHANGES:
            self._follower.notify(0, "poll pushed")

    @property
    def learner_link(self) -> str:
        return f"{self.link.base}/join?code={self.room.join_code}"  # the code that admits

    def refresh(self) -> None:
        room, lang = self.room, self.lang
        self._label(room.join_code)
        notes = []
        if room.paused:
            notes.append(f"<b style='color:{ALERT}'>{esc(tr(lang, 'room.projector.paused'))}</b>")
        # the table's chapter: its title and teaching text beside the join card
        self.chapter_note.object = chapter_note_html(room, lang, font_px=17, open_up_to=600)
        self.chapter_note.visible = bool(self.chapter_note.object)
        self.status.object = (
            f"<div style='font-size:18px;margin:8px 10px' data-step='{room.table.step}'>"
            + " · ".join(notes)
            + "</div>"
        )
        self.join_card.object = self._join_html(lang)

    def _join_html(self, lang: str) -> str:
        code = self.room.join_code  # a new one replaces a code that got out
        join_url = f"{self.link.base}/join"
        link = esc(tr(lang, "room.join_at", link="LINK")).replace("LINK", f"<b>{esc(join_url)}</b>")
        return (
            "<div style='display:flex;gap:12px;align-items:center'>"
            f"<div class='room-qr' data-link='{esc(self.learner_link)}' "
            "style='flex:0 0 auto;line-height:0'>"
            f"{_qr_svg(self.learner_link)}</div>"
            "<div style='flex:1 1 auto;min-width:0'>"
            f"<div style='font-size:16px;color:{LABEL}'>{esc(tr(lang, 'room.code'))}</div>"
            f"<div class='room-join-code' style='font:700 38px monospace;letter-spacing:2px;"
            f"color:{INK};white-space:nowrap'>{esc(code[:4])} {esc(code[4:])}</div>"
            "</div></div>"
            f"<div style='font-size:16px;line-height:1.35;overflow-wrap:anywhere'>{link}</div>"
        )


# ---------------------------------------------------------------------- served
def _granted() -> dict:
    """What :func:`admission` kept of this session's request (``{}`` when not served)."""
    context = pn.state.curdoc.session_context if pn.state.curdoc is not None else None
    try:
        payload = context.token_payload if context is not None else {}
    except Exception:  # no token (not served through admission)
        payload = {}
    granted = payload.get(PAYLOAD_KEY)
    return granted if isinstance(granted, dict) else {}


def projector_app():
    granted = _granted()
    code = granted.get("code") or ""
    projector_pass = granted.get("pass")
    if not isinstance(projector_pass, int) or isinstance(projector_pass, bool):
        projector_pass = None
    lang = granted.get("lang") or browser_language()
    host = (pn.state.headers or {}).get("Host", "")[:200]
    ticket = granted.get("ticket")
    # covers itself when the server goes away and reloads when it is back: to this room by the
    # address's code and the browser's cookie (widgets.game.reconnect)
    return reconnecting_page(
        lambda later: ProjectorPage(
            rooms(),
            code=code,
            projector_pass=projector_pass if projector_pass is not None else later,
            host=host,
            lang=lang,
        ),
        # the room read off the event loop (and a request checked then, if it had to wait)
        prepare=lambda: check_later(ticket) if ticket else (rooms().find(code) and None),
        head=TOKEN_TO_COOKIE,
        lang=lang,
    )


def projector_application(title: str):
    """The served ``/projector`` app: Panel's application for :func:`projector_app`, each of
    whose requests goes through :func:`admission` first (``Application.process_request``)."""
    from panel.io.application import build_applications

    application = build_applications({PROJECTOR_PATH: projector_app}, title=title)[PROJECTOR_PATH]
    panel_request = application.process_request

    def process_request(request) -> dict:
        return {**panel_request(request), **admission(request)}

    application.process_request = process_request
    return application
