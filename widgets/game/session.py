"""One game as the components see it: the history, the language, the seats, the last message.

Every component is bound to one :class:`GameSession` and redraws when its ``version`` changes.
The session asks the engine for everything (legal options, explanations, statuses): no rule is
decided here. A refused action never raises into the page: the engine's message goes to
``error`` and the game is left as it was.
"""

from __future__ import annotations

import functools
import logging
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import param
from panel.io import hold
from panel.io.state import state as panel_state

from nefertiti_core import NefertitiError, new_game
from nefertiti_core.engine.i18n import LANGUAGES
from nefertiti_core.engine.state import GameState
from nefertiti_core.files.history import GameRecord, History, load_any
from nefertiti_core.files.scenario import ScenarioError, dumps_scenario
from nefertiti_core.play.bots import bot_kinds, make_bot
from nefertiti_core.teaching.refusal import refusal
from widgets.server import patches as _panel_patches

# Every component is bound to a session: this is where the notebook patches (the inline
# stylesheet speed fix, Voilà's ipywidgets comms) are applied, once, before anything is shown.
_panel_patches.apply_notebook()


def served_document():
    """The Bokeh document of the served session we run in, if any (not in notebooks/tests)."""
    try:
        import panel as pn

        doc = pn.state.curdoc
        return doc if doc is not None and doc.session_context is not None else None
    except Exception:  # pragma: no cover - no Panel state at all
        return None


log = logging.getLogger("widgets")

#: What a seat can be: a person at the screen (hot seat) or one of the engine's bot kinds.
SEAT_KINDS = ("human", *bot_kinds())
MAX_BOT_STEPS = 5_000  # a whole game is ~130 decisions; this only stops a runaway loop
MCTS_SECONDS = 1.0  # an mcts seat thinks at most this long per decision
BOT_DELAY_MS = 350  # served app: the pause before each bot move, so people can follow the game
#: Served app: a change of the game is saved this long after it (changes in between are saved
#: together), on the event loop's own time, never inside a click's callback.
AUTOSAVE_DELAY_MS = 700
#: One thread writes every session's saves to the store, in order.
_SAVER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
#: Sessions with a save scheduled and not yet made: a server that is stopped writes them first
#: (flush_saves), so that a move made in the last AUTOSAVE_DELAY_MS is not lost.
_UNSAVED: weakref.WeakSet = weakref.WeakSet()
#: Per Bokeh document (a page), the game session it made last: the one the page shows. What
#: comes from outside the page's components (a choice its browser forged) is told there, in the
#: page's language (:func:`page_session`).
_PAGE_SESSIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def page_session(doc=None):
    """The game session the page (``doc``: the current document by default) made last, or
    None."""
    doc = panel_state.curdoc if doc is None else doc
    return _PAGE_SESSIONS.get(doc) if doc is not None else None


def flush_saves(timeout: float = 10.0) -> int:
    """Write every scheduled save now and wait (at most ``timeout`` seconds) for the writes;
    returns how many games were written. For a server being stopped (SIGTERM, Ctrl+C)."""
    futures = [f for s in list(_UNSAVED) if (f := s.save_now()) is not None]
    for future in futures:
        try:
            future.result(timeout=timeout)
        except Exception:  # pragma: no cover - logged by _save_quietly
            log.exception("a save at shutdown failed")
    return len(futures)


def make_seat_bot(kind: str, seed: int):
    """The bot for one seat; an mcts seat thinks at most ``MCTS_SECONDS`` per decision."""
    if kind == "mcts":
        return make_bot(kind, seed=seed, time_limit=MCTS_SECONDS)
    return make_bot(kind, seed=seed)


#: Where a session made without ``lang=`` off a served page takes its language from: None
#: (English) until a higher layer names a source with :func:`set_notebook_language`.
_notebook_language: Callable[[], str] | None = None


def set_notebook_language(source: Callable[[], str] | None) -> None:
    """Name where a session made without ``lang=`` outside a served page takes its language
    (``None``: English again). The lesson layer names its notebook language here
    (``widgets.lesson.language``), so that a session a German notebook makes itself
    (``GameSession(seats=…)``) speaks German like the lesson widgets around it; this layer cannot
    ask the lesson layer itself, which sits above it."""
    global _notebook_language
    _notebook_language = source


def default_language() -> str:
    """The language of a session made without ``lang=``. On a served page always English: a page
    passes its own language (its browser's or its room's), and a served session must not hang on
    the server's ``NEFERTITI_LANG`` or working folder, which only choose a notebook's language.
    Elsewhere (a notebook, a script) the source named by :func:`set_notebook_language`, if any."""
    if _notebook_language is None or served_document() is not None:
        return "en"
    return _notebook_language()


class GameSession(param.Parameterized):
    lang = param.Selector(default="en", objects=list(LANGUAGES), doc="Language of every text")
    hints = param.Boolean(default=True, doc="Show closing hints on the board")
    board_version = param.Integer(default=0, doc="Bumped first after every change (the board)")
    version = param.Integer(default=0, doc="Bumped after every change of the game")
    error = param.String(default="", doc="Why the last action was refused (empty if it was not)")
    seats = param.List(default=[], doc="Per seat: 'human' or a bot kind")
    bot_seed = param.Integer(default=0, doc="Seed of the bots' choices")
    bot_thinking = param.Integer(
        default=-1, doc="Served app: the bot seat choosing its move in the background, or -1"
    )

    #: Whether this session is its page's game (``page_session``: where a refused choice or
    #: an error is told); a session that only shows a position (a question's) is not.
    page_game = True

    def __init__(self, state: GameState | None = None, **params):
        if params.get("lang") is None:
            params["lang"] = default_language()
        super().__init__(**params)
        if panel_state.curdoc is not None and self.page_game:
            _PAGE_SESSIONS[panel_state.curdoc] = self
        self._pending = 0
        self._bots: dict[int, object] = {}  # seat -> its bot, made when first needed
        self._bot_token = 0  # bumped when the game or the seats change: a late bot move is dropped
        self._bot_scheduled = False
        self.param.watch(self._on_seats_changed, ["seats", "bot_seed"])
        self._set_history(state if state is not None else new_game(4, 0, record_events=True))

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> GameState:
        return self.history.state

    @property
    def colours(self) -> tuple[str, ...]:
        return self.state.colours

    def is_bot(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat] != "human"

    def _refusal(self, error: NefertitiError) -> str:
        """The engine's refusal in the session's language, the options named in words (the
        engine raises in English, in move notation); a mistyped move in the session's language."""
        option = getattr(error, "option", None)
        if isinstance(option, int) and not self.state.is_legal(option):
            return refusal(self.state, option, self.lang)[0]
        return error.message(self.lang)

    # ------------------------------------------------------------------ acting
    def play(self, option, by_learner: bool = False) -> bool:
        """Play an option (id or text) for whoever decides; then let bot seats move.

        In a notebook (and in tests) the bots move at once, before this returns. In a served app
        they move one at a time in the background (see :meth:`run_bots`).

        ``by_learner``: only the page's click and choice handlers say True; the events this step
        emits then go to :attr:`learner_events` (what the learner practised, not what a notebook
        cell or a bot played; see nefertiti_core.teaching.coverage).
        """
        before = self.state.log
        try:
            self.history.play(option)
        except NefertitiError as error:
            self.error = self._refusal(error)
            return False
        self.error = ""
        after = self.state.log
        if by_learner and isinstance(before, list) and isinstance(after, list):
            self.learner_events.extend(after[len(before) :])
        self._bot_token += 1
        self._start_bots()
        self._changed()
        return True

    def run_bots(self) -> int:
        """Let bot seats play until a human must decide or the game ends; returns steps played.

        In a served app this only starts them: each bot chooses in a background thread and its
        move is played on the page's next tick after a short pause (``BOT_DELAY_MS``), so the
        page updates between moves and an mcts seat never freezes it; returns 0 then.
        """
        played = self._start_bots()
        self._changed()
        return played

    def bot_for(self, seat: int):
        """The bot playing ``seat`` (made with ``make_bot`` from the seat's kind and seed)."""
        kind = self.seats[seat]
        bot = self._bots.get(seat)
        if bot is None or getattr(bot, "kind", kind) != kind:
            bot = make_seat_bot(kind, seed=self.bot_seed * 16 + seat)
            self._bots[seat] = bot
        return bot

    def _bot_deciding(self) -> bool:
        return not self.state.is_over and self.is_bot(self.state.decider)

    def _start_bots(self) -> int:
        doc = served_document()
        if doc is None:
            return self._run_bots()
        self._doc = doc
        self._schedule_bot()
        return 0

    def _run_bots(self) -> int:
        """Every bot move in a row, here and now (notebooks, tests)."""
        played = 0
        while self._bot_deciding() and played < MAX_BOT_STEPS:
            option, error = self._bot_choice(self.state.decider, self.state)
            if option is None:
                self.error = error
                break
            self.history.play(option)
            played += 1
        return played

    def _bot_choice(self, seat: int, state: GameState, bot=None) -> tuple[int | None, str]:
        """(the option the seat's bot chooses on a copy of ``state``, "") or (None, why not) if
        the bot cannot be made or fails. Changes nothing of the session but its bots."""
        kind = self.seats[seat] if seat < len(self.seats) else "?"
        try:
            bot = bot if bot is not None else self.bot_for(seat)
            return bot.choose(state.copy()), ""
        except (ImportError, NefertitiError) as error:
            return None, f"{kind}: {error}"
        except Exception as error:  # a broken bot must not break the page
            log.exception("bot %s failed", kind)
            return None, f"{kind}: {error}"

    # --- served app: one bot move at a time, chosen in a background thread
    def _schedule_bot(self) -> None:
        doc = getattr(self, "_doc", None)
        if doc is None or self._bot_scheduled or not self._bot_deciding():
            return
        self._bot_scheduled = True
        doc.add_timeout_callback(
            functools.partial(self._bot_think, doc, self._bot_token), BOT_DELAY_MS
        )

    def _bot_think(self, doc, token: int) -> None:
        if token != self._bot_token or not self._bot_deciding():
            self._bot_scheduled = False
            self.bot_thinking = -1
            self._schedule_bot()
            return
        state, seat = self.state, self.state.decider
        try:
            bot = self.bot_for(seat)  # made here, on the page's thread
        except Exception as error:
            self._bot_scheduled = False
            self.error = f"{self.seats[seat]}: {error}"
            self._changed()
            return
        self.bot_thinking = seat

        def work():  # only the bot's thinking runs in the thread; the page changes on its tick
            option, error = self._bot_choice(seat, state, bot)
            doc.add_next_tick_callback(
                functools.partial(self._bot_move, doc, token, state, option, error)
            )

        threading.Thread(target=work, name=f"bot-seat-{seat}", daemon=True).start()

    def _bot_move(self, doc, token: int, state: GameState, option: int | None, error="") -> None:
        from panel.io.state import set_curdoc

        with set_curdoc(doc):
            self._bot_scheduled = False
            self.bot_thinking = -1
            if option is None:
                self.error = error
                self._changed()  # shows the error
                return
            if token == self._bot_token and self.state is state:
                try:
                    self.history.play(option)
                except NefertitiError as error:
                    self.error = str(error)
                    self._changed()
                    return
                self._changed()
            self._schedule_bot()

    def _on_seats_changed(self, *_):
        self._bots = {}
        self._bot_token += 1
        self.schedule_save()  # the seats are part of the saved game

    def undo(self) -> bool:
        return self._move(self.history.undo)

    def redo(self) -> bool:
        return self._move(self.history.redo)

    def jump(self, step: int) -> bool:
        return self._move(lambda: self.history.jump(step))

    def new_branch(self, name: str, at: int | None = None) -> bool:
        return self._move(lambda: self.history.new_branch(name, at))

    def switch(self, name: str) -> bool:
        return self._move(lambda: self.history.switch(name))

    def rename_branch(self, old: str, new: str) -> bool:
        return self._move(lambda: self.history.rename(old, new))

    def compare(self, a: str, b: str):
        return self.history.compare(a, b)

    def _move(self, action) -> bool:
        try:
            action()
        except NefertitiError as error:
            self.error = str(error)
            return False
        self.error = ""
        self._bot_token += 1  # a bot's move chosen for the old position is dropped
        self._changed()
        return True

    # ------------------------------------------------------------------ games and files
    def new_game(self, players: int = 4, seed: int = 0, **options) -> bool:
        try:
            state = new_game(players, seed, record_events=True, **options)
        except NefertitiError as error:
            self.error = str(error)
            return False
        self._set_history(state)
        return True

    def load_text(self, text: str, name: str = "scenario.yaml") -> list[str]:
        """Load a scenario or a game record; returns the scenario's warnings.

        A record's moves are replayed into the history (undo goes back through them). A broken
        file leaves the game as it was.
        """
        try:
            if not isinstance(text, str):
                raise ScenarioError(name, (), f"a file's text is a str, not {type(text).__name__}")
            loaded = load_any(text, name)
            if isinstance(loaded, GameRecord):
                self.load_record(loaded, name)
                return []
            scenario = loaded
        except NefertitiError as error:  # a file's error in the page's language
            self.error = error.message(self.lang)
            return []
        scenario.state.log = []
        self._set_history(scenario.state)
        return scenario.warnings_in(self.lang)

    def load_record(
        self, record: GameRecord, name: str = "game.yaml", resume=False, history=None
    ) -> None:
        """Load a game record: every branch of a whole record (at its branch and step), its seats
        and bots' seed if it has them. Raises the engine's error (and changes nothing) if the
        record does not replay. ``resume``: the game goes on as it was left, so bot seats move
        only at the tip of the branch (behind it, the learner was looking back)."""
        if history is None:  # else replayed already, off the event loop (widgets.server.upload)
            record.start.log = []
            history = record.replay(source=name)
        seats = record.seats
        if record.bot_seed is not None:
            self.bot_seed = record.bot_seed
        if seats is not None:
            self.seats = list(seats)
        bots = not resume or history.step == history.length()
        self._set_history(history.state, history, bots=bots)

    def load_upload(self, upload) -> list[str] | None:
        """Install a file read off the event loop (a :class:`widgets.server.upload.Upload`): returns
        the scenario's warnings, or None (and sets ``error``) if the file was refused."""
        if upload.error:
            self.error = upload.error
            return None
        if upload.record is not None:
            self.load_record(upload.record, upload.name, history=upload.history)
            return []
        upload.scenario.state.log = []
        self._set_history(upload.scenario.state)
        return list(upload.warnings)

    def whole_record(self) -> GameRecord:
        """The game as a whole record: every branch, where we are, the seats and bots' seed."""
        return self.history.whole_record(seats=list(self.seats), bot_seed=self.bot_seed)

    def load_state(self, state: GameState) -> None:
        """Start over from ``state`` (a copy is kept: the caller's state is not played on)."""
        state = state.copy()
        self._set_history(state)

    def save_text(self) -> str:
        return dumps_scenario(self.state, title="Saved from the tutor")

    def _set_history(
        self, state: GameState, history: History | None = None, bots: bool = True
    ) -> None:
        if state.log is None:
            state.log = []
        self.history = history if history is not None else History(state)
        self.learner_events: list = []  # events the learner's own steps emitted (see play)
        self.seats = (
            (list(self.seats) + ["human"] * 4)[: state.n] if self.seats else ["human"] * state.n
        )
        self._bots = {}
        self._bot_token += 1
        self.error = ""
        if bots:
            self._start_bots()
        self._changed()

    # ------------------------------------------------------------------ autosave
    def autosave(self, save, key=None) -> None:
        """Save the game after every change: ``save(text, branch, step, key)`` is called with the
        whole record's text in a background thread (one for all sessions), at most every
        ``AUTOSAVE_DELAY_MS`` in a served app, at once elsewhere. ``None`` stops it.
        (The record is taken on the page's thread, about 2 ms for a whole game with a branch
        on a loaded 2-core machine; writing it as text, 4-5 ms, and the store are in the thread.)"""
        self._saver = save
        self._save_scheduled = False
        self.autosave_key = key  # passed along as it was when the record was taken (a token)

    @property
    def save_pending(self) -> bool:
        """A change is waiting for its autosave (due within ``AUTOSAVE_DELAY_MS``)."""
        return bool(getattr(self, "_save_scheduled", False))

    def save_now(self):
        """Write the game now (the record's text is made here; the store is written in the
        background thread); returns the background write's future, or None."""
        self._save_scheduled = False
        _UNSAVED.discard(self)
        save = getattr(self, "_saver", None)
        if save is None:
            return None
        try:  # here only the record (about 2 ms for a whole game); its text in the thread
            record = self.whole_record()
        except Exception:  # pragma: no cover - never into the page
            log.exception("the game could not be written as a record")
            return None
        where = (self.history.branch, self.history.step, self.autosave_key)
        return _SAVER.submit(_save_quietly, save, record, *where)

    def schedule_save(self) -> None:
        if getattr(self, "_saver", None) is None or self._save_scheduled:
            return
        doc = served_document()
        if doc is None:
            self.save_now()
            return
        self._save_scheduled = True
        _UNSAVED.add(self)
        doc.add_timeout_callback(self.save_now, AUTOSAVE_DELAY_MS)

    def _changed(self) -> None:
        """Tell the views. The board goes first, in its own message: in a served app the rest
        is computed on the next tick of the event loop, after the board's update has left, so
        the servant appears without waiting for the log, the scores and the panels."""
        self.board_version += 1
        self.schedule_save()
        doc = served_document()
        if doc is None:
            self._bump_version()
        else:
            self._pending += 1
            if self._pending == 1:
                doc.add_next_tick_callback(self._bump_version)

    def _bump_version(self) -> None:
        self._pending = 0
        # hold(): every other component's update goes to the browser as one message.
        with hold():
            self.version += 1


def _save_quietly(save, record: GameRecord, branch: str, step: int, key) -> None:
    """One save in the background (the record is the session's snapshot: a copy of the start,
    lists of texts): a failure is logged, never raised into a page."""
    try:
        save(record.dumps(), branch, step, key)
    except Exception as error:
        log.warning("autosave failed: %s", error)
