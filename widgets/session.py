"""One game as the components see it: the history, the language, the seats, the last message.

Every component is bound to one :class:`GameSession` and redraws when its ``version`` changes.
The session asks the engine for everything (legal options, explanations, statuses): no rule is
decided here. A refused action never raises into the page: the engine's message goes to
``error`` and the game is left as it was.
"""

from __future__ import annotations

import random

import param
from panel.io import hold

from nefertiti_core import NefertitiError, new_game
from nefertiti_core.history import History, is_record, record_from_data
from nefertiti_core.i18n import LANGUAGES
from nefertiti_core.scenario import ScenarioError, dumps_scenario, loads_scenario
from nefertiti_core.state import GameState
from nefertiti_core.yaml_subset import YamlError
from nefertiti_core.yaml_subset import loads as loads_yaml


def _server_document():
    """The Bokeh document of the served session we run in, if any (not in notebooks/tests)."""
    try:
        import panel as pn

        doc = pn.state.curdoc
        return doc if doc is not None and doc.session_context is not None else None
    except Exception:  # pragma: no cover - no Panel state at all
        return None


SEAT_KINDS = ("human", "random")  # the bots issue adds greedy and mcts
MAX_BOT_STEPS = 5_000  # a whole game is ~130 decisions; this only stops a runaway loop


class GameSession(param.Parameterized):
    lang = param.Selector(default="en", objects=list(LANGUAGES), doc="Language of every text")
    hints = param.Boolean(default=True, doc="Show closing hints on the board")
    board_version = param.Integer(default=0, doc="Bumped first after every change (the board)")
    version = param.Integer(default=0, doc="Bumped after every change of the game")
    error = param.String(default="", doc="Why the last action was refused (empty if it was not)")
    seats = param.List(default=[], doc="Per seat: 'human' or a bot kind")
    bot_seed = param.Integer(default=0, doc="Seed of the bots' choices")

    def __init__(self, state: GameState | None = None, **params):
        super().__init__(**params)
        self._pending = 0
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

    # ------------------------------------------------------------------ acting
    def play(self, option) -> bool:
        """Play an option (id or text) for whoever decides; then let bot seats move."""
        try:
            self.history.play(option)
        except NefertitiError as error:
            self.error = str(error)
            return False
        self.error = ""
        self._run_bots()
        self._changed()
        return True

    def run_bots(self) -> int:
        """Let bot seats play until a human must decide or the game ends; returns steps played."""
        played = self._run_bots()
        self._changed()
        return played

    def _run_bots(self) -> int:
        played = 0
        while not self.state.is_over and self.is_bot(self.state.decider) and played < MAX_BOT_STEPS:
            legal = self.state.legal_options()
            self.history.play(legal[self._bot_rng.randrange(len(legal))])
            played += 1
        return played

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
            try:
                doc = loads_yaml(text)
            except YamlError as error:
                raise ScenarioError(name, (), str(error).split(": ", 1)[-1], error.line) from None
            if is_record(doc.data):
                record = record_from_data(doc.data, name, doc)
                record.start.log = []
                history = record.replay(source=name)
                self._set_history(history.state, history)
                return []
            scenario = loads_scenario(text, name)
        except NefertitiError as error:
            self.error = str(error)
            return []
        scenario.state.log = []
        self._set_history(scenario.state)
        return scenario.warnings

    def load_state(self, state: GameState) -> None:
        """Start over from ``state`` (a copy is kept: the caller's state is not played on)."""
        state = state.copy()
        self._set_history(state)

    def save_text(self) -> str:
        return dumps_scenario(self.state, title="Saved from the tutor")

    def _set_history(self, state: GameState, history: History | None = None) -> None:
        if state.log is None:
            state.log = []
        self.history = history if history is not None else History(state)
        self.seats = (
            (list(self.seats) + ["human"] * 4)[: state.n] if self.seats else ["human"] * state.n
        )
        self._bot_rng = random.Random(self.bot_seed)
        self.error = ""
        self._run_bots()
        self._changed()

    def _changed(self) -> None:
        """Tell the views. The board goes first, in its own message: in a served app the rest
        is computed on the next tick of the event loop, after the board's update has left, so
        the servant appears without waiting for the log, the scores and the panels."""
        self.board_version += 1
        doc = _server_document()
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
