"""The teacher's way to the projector view (``/projector``, ``projector_page.py``): a link that
opens it in a new window of the teacher's own browser (no token: the browser's teacher cookie
lets it in), and a read-only **projector link** for another computer, made on demand.

The projector link carries its own token (``Room.renew_projector``: random, only its hash kept
in the room and the store), never the teacher's key: a photo of the projector, its address bar
or its browser's history gives read-only access at most, and a new link turns the old one away.
It is shown only when the teacher asks for it (a teacher who still projects their own page does
not show it to the class unasked), and only until the page is reloaded: the server cannot show
it again (it keeps only the hash); a new one can be made at any time.
"""

from __future__ import annotations

import panel as pn
import param

from nefertiti_core.engine.i18n import LANGUAGES, tr
from widgets.classroom.room import Refusal, Room
from widgets.classroom.room_work import change_room
from widgets.game.common import HTML, esc, guarded
from widgets.theme import ACCENT, LABEL, PAPER, RULE_LINE

#: The query parameter of a projector link; the projector's browser moves it into the cookie
#: ``PROJECTOR_COOKIE + code`` at once (``projector_page.TOKEN_TO_COOKIE``), the address keeps
#: only the room's code, and the server's log never shows it (``widgets.server.access_log``).
PROJECTOR_ARG = "projector"
PROJECTOR_COOKIE = "nefertiti_projector_"
#: The projector page's path on the server.
PROJECTOR_PATH = "/projector"


def projector_link(base: str, code: str, token: str) -> str:
    """A projector link for another computer (``base``: ``scheme://host[:port]`` where other
    computers reach the server, ``widgets.server.addresses.link_base``; ``token``:
    ``Room.renew_projector``'s)."""
    return f"{base}{PROJECTOR_PATH}?room={code}&{PROJECTOR_ARG}={token}"


class ProjectorLinks(pn.viewable.Viewer):
    """The teacher's projector links, for the teacher's page to place: ``open_link`` (opens the
    projector view in a new window of this browser), ``link_button`` (makes a new projector link
    for another computer, which ends the one before) and ``link`` (the link made, shown after
    the button is pressed)."""

    lang = param.Selector(default="en", objects=list(LANGUAGES))

    def __init__(self, room: Room, key: str, *, base: str, lang: str = "en", **params):
        super().__init__(lang=lang if lang in LANGUAGES else "en", **params)
        self.room, self.key, self.base = room, key, base
        self._made = ""  # the link made on this page (shown until it is reloaded)
        self._why = ""
        self.open_link = HTML("", margin=(5, 10, 5, 5), css_classes=["room-projector-open"])
        self.link_button = pn.widgets.Button(
            variant="outline", width=290, css_classes=["room-projector-link-button"]
        )
        self.link_button.on_click(self._on_make)
        self.link = HTML("", sizing_mode="stretch_width", css_classes=["room-projector-link"])
        self._layout = pn.Column(
            pn.FlexBox(
                self.open_link,
                self.link_button,
                flex_wrap="wrap",
                align_items="center",
                sizing_mode="stretch_width",
            ),
            self.link,
            sizing_mode="stretch_width",
            margin=0,
        )
        self.param.watch(lambda *_: self.refresh(), "lang")
        self.refresh()

    def __panel__(self):
        return self._layout

    @guarded
    def _on_make(self, *_):
        self.make_link()

    def make_link(self) -> str:
        """A new projector link (the old one stops working; written to the store off the event
        loop); "" if refused (said on the page) or while it is on its way (a served page)."""
        room, key, made = self.room, self.key, []

        def done(result) -> None:
            if isinstance(result, Refusal):  # the change itself failed
                result = ("", 0, result)
            token, _number, why = result
            self._made = projector_link(self.base, room.code, token) if why is None else ""
            self._why = why.text(self.lang) if why is not None else ""
            self.refresh()
            made.append(self._made)

        change_room(room, lambda: room.renew_projector(key), done)
        return made[0] if made else ""

    def refresh(self) -> None:
        lang = self.lang
        here = f"{PROJECTOR_PATH}?room={self.room.code}&lang={lang}"
        self.open_link.object = (
            f"<a href='{esc(here)}' target='_blank' rel='noopener' "
            f"title='{esc(tr(lang, 'room.projector.open_help'))}' "
            f"style='display:inline-block;padding:6px 12px;border:2px solid {ACCENT};"
            f"border-radius:6px;color:{ACCENT};background:{PAPER};font-weight:700;"
            f"text-decoration:none;white-space:nowrap'>"
            f"\u25a3 {esc(tr(lang, 'room.projector.open'))}</a>"
        )
        made = bool(self._made)
        self.link_button.param.update(
            name=tr(lang, "room.projector.new_link" if made else "room.projector.make_link"),
            description=tr(lang, "room.projector.link_help"),
        )
        if self._why:
            self.link.object = f"<div style='color:{ACCENT}'>{esc(self._why)}</div>"
        elif made:
            self.link.object = (
                f"<div style='font-size:12px;color:{LABEL}'>{esc(tr(lang, 'room.projector.link'))}"
                f"</div><code class='room-projector-url' style='display:block;padding:4px 6px;"
                f"border:1px solid {RULE_LINE};border-radius:4px;word-break:break-all;"
                f"user-select:all;font-size:12px'>{esc(self._made)}</code>"
            )
        else:
            self.link.object = ""
