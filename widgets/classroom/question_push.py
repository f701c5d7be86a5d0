"""A class question as the learners' pages show it, made once per question and language.

When the teacher asks, every learner's page of the process shows the same question: the same
position, the same words, the same choices, in one of three languages. Built by each page in
turn on the server's event loop (a board and its data, the choices' labels, the texts), the
30th learner of a class waited about 15 s for it. Here what is the same for everyone is made
once per question and language (:data:`QUESTION_VIEWS`), on the thread that made the change
(the room's change runs off the event loop, widgets/classroom/room_work.py) before the pages
hear of it; each page then only hands its existing widgets the finished parts, on its own
document's next tick (one slow page does not hold the others'). The position is one state
object per question, shared by every page: the board's data is computed once for it and each
language (:data:`~widgets.game.position_memo.SHARED_POSITIONS`).

Nothing here decides a rule: the choices and the question are the engine's (:mod:`.poll`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.state import GameState
from widgets.classroom.poll import Poll
from widgets.game.common import esc
from widgets.game.exercise import collections_text
from widgets.game.session import GameSession
from widgets.theme import FONT_STACK

__all__ = ["QUESTION_VIEWS", "AskedQuestion", "QuestionSession", "QuestionViews"]


@dataclass(frozen=True)
class AskedQuestion:
    """One question in one language, as a learner's card shows it (texts escaped)."""

    number: int
    state: GameState  #: the position, shared by every page (never played on)
    question_html: str
    options: dict  #: ``{label: key}`` for the choice buttons (empty for a typed answer)
    holdings_html: str  #: what each player holds (the board does not show it)
    placeholder: str  #: a typed answer's hint
    send: str  #: the send button's word


class QuestionViews:
    """:class:`AskedQuestion` per question and language, each built once; the newest kept.

    ``builds`` counts what was built (a test checks that asking builds once per language, not
    once per page)."""

    def __init__(self, size: int = 24):
        self.size = size
        self._views: OrderedDict[tuple[int, str], tuple[Poll, AskedQuestion]] = OrderedDict()
        self._states: OrderedDict[int, tuple[Poll, GameState]] = OrderedDict()
        self._lock = threading.Lock()
        self.builds = 0

    def get(self, poll: Poll, lang: str) -> AskedQuestion:
        """The question ``poll`` in ``lang``: built the first time, the same object after."""
        key = (id(poll), lang)
        with self._lock:  # held while building: two pages at once build it once
            item = self._views.get(key)
            if item is not None and item[0] is poll:
                self._views.move_to_end(key)
                return item[1]
            view = self._build(poll, lang)
            self.builds += 1
            self._views[key] = (poll, view)
            while len(self._views) > self.size:
                self._views.popitem(last=False)
            return view

    def prepare(self, poll: Poll | None, langs) -> None:
        """Build ``poll``'s view in each of ``langs`` now (off the event loop, before the pages
        are told)."""
        if poll is None:
            return
        for lang in dict.fromkeys(langs):
            self.get(poll, lang)

    def _state(self, poll: Poll) -> GameState:
        item = self._states.get(id(poll))
        if item is None or item[0] is not poll:
            item = (poll, poll.exercise.state())
            self._states[id(poll)] = item
            while len(self._states) > self.size:
                self._states.popitem(last=False)
        return item[1]

    def _build(self, poll: Poll, lang: str) -> AskedQuestion:
        state = self._state(poll)
        font = esc(FONT_STACK)
        question = (
            f"<div class='poll-card-asked' data-poll='{poll.number}' "
            f"style='font-family:{font};font-size:18px;line-height:1.4'>"
            f"<b>{esc(tr(lang, 'poll.number', number=poll.number))}</b> "
            f"<span class='poll-prompt'>{esc(poll.prompt(lang))}</span></div>"
        )
        holdings = (
            f"<span style='font-size:14px;font-family:{font}'>"
            f"{esc(collections_text(state, lang))}</span>"
        )
        free = poll.free
        return AskedQuestion(
            number=poll.number,
            state=state,
            question_html=question,
            options={} if free else {label: key for key, label in poll.choices(lang)},
            holdings_html=holdings,
            placeholder=(
                tr(lang, f"poll.learner.placeholder.{poll.exercise.answer_kind}") if free else ""
            ),
            send=tr(lang, "poll.learner.send"),
        )


#: The process's question views (every room's pages share it).
QUESTION_VIEWS = QuestionViews()


class QuestionSession(GameSession):
    """A learner's card's game: it shows the question's shared position itself (the state
    object every page shows, so that the board's data is computed once for all), never played
    on. Made once per card, with the card: a new question only changes what it shows."""

    _shown: GameState | None = None
    page_game = False  # the page's game is its table's, made before or after this one

    @property
    def state(self) -> GameState:
        return self._shown if self._shown is not None else self.history.state

    def show(self, state: GameState) -> None:
        """Show ``state`` (shared: not copied, never changed here)."""
        if state is self._shown:
            return
        self._shown = state
        self.load_state(state)  # the history (a copy) for what reads it; the board redraws
