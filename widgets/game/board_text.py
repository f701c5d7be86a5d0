"""The board as text: the position in words for a screen reader, and every step announced.

Under a heading ("The board in words") a short help on the board's keys (board_keys.py), a
live region (``aria-live="polite"``) that says each step as it happens (the log's sentence for
the step, :func:`nefertiti_core.files.announce.last_step`, then who decides now), a row of
buttons that read one market, the players or the last step into that live region (lichess's
blind mode has such commands), and the position itself: one heading per market (its stall,
reserve, cards, who stands where and how close it is to closing, the status the board's hint
shows) and one for the players (Deben, seals, servants in hand, prestige and gifts). All the
words are the engine's (:mod:`nefertiti_core.teaching.board_words`), in the session's language;
the page's script writes them as text (never as HTML), so nothing in them is markup.

Where a board is played, this is beside it: the Sandbox, a classroom learner's page, a lesson
notebook's board. Tests: tests/test_board_keys.py, tests/browser/test_keyboard_board.py.
"""

from __future__ import annotations

import param
from panel.reactive import ReactiveHTML

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.announce import last_step
from nefertiti_core.teaching.board_words import (
    market_title,
    market_words,
    player_words,
    who_decides,
)
from widgets.game.common import DeferredView, guarded
from widgets.game.position_memo import SHARED_POSITIONS
from widgets.game.session import GameSession
from widgets.theme import FONT_STACK, HEADING, INK, PAPER, RULE_LINE

__all__ = ["BoardText", "BoardTextView", "text_view"]

TEXT_CSS = f"""
:host {{ font-family: {FONT_STACK}; color: {INK}; }}
.board-text h2 {{ font-size: 1.1em; color: {HEADING}; margin: 6px 0 4px; }}
.board-text h3 {{ font-size: 1em; color: {HEADING}; margin: 8px 0 2px; }}
.board-text p {{ margin: 2px 0; line-height: 1.35; }}
.board-text .live {{ margin: 4px 0; padding: 4px 6px; border-left: 3px solid {HEADING};
    background: {PAPER}; min-height: 1.4em; }}
.board-text summary {{ cursor: pointer; margin: 4px 0; color: {HEADING}; font-weight: 600; }}
.board-text summary:focus-visible {{ outline: 3px solid {HEADING}; outline-offset: 1px; }}
.board-text .read {{ display: flex; flex-wrap: wrap; gap: 4px; margin: 4px 0; }}
.board-text button {{ min-height: 28px; padding: 2px 8px; font: inherit; color: {INK};
    background: {PAPER}; border: 1px solid {RULE_LINE}; border-radius: 4px; cursor: pointer; }}
.board-text button:focus-visible {{ outline: 3px solid {HEADING}; outline-offset: 1px; }}
"""

#: Builds the view from ``data.view`` as text nodes; the live region is made once (a region
#: made anew is not announced) and only its text changes.
RENDER_JS = """
if (!state.say) {
    // a read command: the text into the live region (emptied first, so the same text twice
    // is said twice)
    state.say = (text) => {
        state.said = true;
        state.live.textContent = "";
        setTimeout(() => { state.live.textContent = text; }, 50);
    };
}
if (!state.live) {
    state.live = document.createElement("div");
    state.live.className = "live";
    state.live.setAttribute("aria-live", "polite");
    state.live.setAttribute("aria-atomic", "true");
    state.head = document.createElement("div");
    state.rest = document.createElement("div");
    box.replaceChildren(state.head, state.live, state.rest);
}
const v = data.view || {};
const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
};
state.head.replaceChildren(el("h2", v.heading || ""), el("p", v.help || ""));
const buttons = el("div", undefined, "read");
buttons.setAttribute("role", "group");
buttons.setAttribute("aria-label", v.read || "");
const parts = [];
for (const s of v.sections || []) {
    const b = el("button", s.button);
    b.type = "button";
    b.addEventListener("click", () => state.say(s.lines.join(" ")));
    buttons.appendChild(b);
    parts.push(el("h3", s.title));
    for (const line of s.lines) parts.push(el("p", line));
}
if (!state.details) {
    // the markets and players in full: folded (a page stays short on a phone), one Tab and
    // Enter away; kept open across steps once opened
    state.details = document.createElement("details");
    state.summary = document.createElement("summary");
    state.sections = document.createElement("div");
    state.details.replaceChildren(state.summary, state.sections);
}
state.summary.textContent = v.more || "";
state.sections.replaceChildren(...parts);
state.rest.replaceChildren(buttons, state.details);
if (state.live.textContent !== data.announce && !state.said) state.live.textContent = data.announce;
"""

ANNOUNCE_JS = """
state.said = false;
if (state.live) state.live.textContent = data.announce;
"""


class BoardTextView(ReactiveHTML):
    """What the browser shows and says (see the module's doc): ``view`` the position's
    sections, ``announce`` the live region's words."""

    view = param.Dict(default={})
    announce = param.String(default="")

    _template = '<section id="box" class="board-text"></section>'
    _scripts = {
        "render": "self.draw()",
        "view": "self.draw()",
        "announce": ANNOUNCE_JS,
        "draw": RENDER_JS,
    }


def text_view(state, history, lang: str, hints: bool = True) -> tuple[dict, str]:
    """(the view's sections, the live region's words) for ``state`` after ``history``'s last
    step, in ``lang``; ``hints``: each market's closing status too (as the board shows it)."""
    sections = []
    for m, name in enumerate(R.MARKETS):
        market = tr(lang, f"market.{name}")
        sections.append(
            dict(
                title=market_title(state, m, lang),
                lines=market_words(state, m, lang, hints),
                button=tr(lang, "text.read_market", market=market),
            )
        )
    sections.append(
        dict(
            title=tr(lang, "text.players"),
            lines=[player_words(state, p, lang) for p in range(state.n)],
            button=tr(lang, "text.read_players"),
        )
    )
    step = last_step(history, lang)
    said = step.line if step is not None else tr(lang, "text.no_step")
    now = who_decides(state, lang)
    sections.insert(
        0,
        dict(title=tr(lang, "text.last"), lines=[said, now], button=tr(lang, "text.read_last")),
    )
    view = dict(
        heading=tr(lang, "text.heading"),
        help=tr(lang, "text.help"),
        read=tr(lang, "text.read"),
        more=tr(lang, "text.more"),
        sections=sections,
    )
    space = "" if lang == "zh" else " "  # Chinese sentences follow one another unspaced
    return view, f"{said}{space}{now}"


class BoardText(DeferredView):
    """The board as text for one :class:`GameSession` (see the module's doc)."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(self, session: GameSession, **params):
        super().__init__(session=session, **params)
        #: The component in the page.
        self.view = BoardTextView(
            stylesheets=[TEXT_CSS], sizing_mode="stretch_width", margin=(10, 5)
        )
        self.refresh()
        session.param.watch(self._on_change, ["version", "lang", "hints"])

    def __panel__(self):
        return self.view

    @property
    def announcement(self) -> str:
        """What the live region says now."""
        return self.view.announce

    @property
    def sections(self) -> list[dict]:
        """The view's sections: each with ``title``, ``lines`` and its read ``button``."""
        return list(self.view.view.get("sections", []))

    @guarded
    def refresh(self) -> None:
        self._stale = False  # see DeferredView
        session = self.session
        state, lang = session.state, session.lang
        view, said = SHARED_POSITIONS.get(
            state,
            ("text", lang, session.hints),
            lambda: text_view(state, session.history, lang, session.hints),
        )
        self.view.param.update(view=view, announce=said)
