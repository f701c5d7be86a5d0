"""History and what-if: undo, redo, jump, named branches, comparisons, and game records.

A :class:`History` is a tree of steps over one starting position. Each step is a decision (an
option id) or a fixed chance outcome (``roll 3 5``, ``draw harp``: R4.4), and each node keeps the
state after it, so moving around is instant and exact. Playing something new where a step
already follows starts a new branch; nothing is ever thrown away.

A game is its start, its seed and its list of steps: :class:`GameRecord` writes that as a file
(``nefertiti_record: 1``) and replays it exactly (the same :meth:`GameState.state_hash`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import rules as R
from .errors import NefertitiError, NotationError
from .scoring import totals, winners
from .state import GameState

# A step: ("option", id) | ("roll", (d1, d2, ...)) | ("draw", kind)
Step = tuple


class HistoryError(NefertitiError):
    """An undo past the start, an unknown branch name, a step that does not exist, ..."""


def step_text(state: GameState, step: Step) -> str:
    """A step in the move notation (chance steps as ``roll 3 5`` / ``draw harp``)."""
    kind, value = step
    if kind == "option":
        return state.option_text(value)
    if kind == "roll":
        return "roll " + " ".join(str(d) for d in value)
    name = "akhenaton" if value == R.AKHENATON else R.CARD_KINDS[value]
    return f"draw {name}"


def parse_step(state: GameState, text: str) -> Step:
    """The inverse of :func:`step_text`."""
    words = str(text).split()
    if words and words[0] == "roll":
        try:
            dice = tuple(int(w) for w in words[1:])
        except ValueError:
            raise NotationError(f"{text!r}: write a fixed roll as 'roll 3' or 'roll 3 5'") from None
        if not dice or any(not 1 <= d <= 6 for d in dice):
            raise NotationError(f"{text!r}: dice show 1 to 6")
        return ("roll", dice)
    if words and words[0] == "draw":
        names = list(R.CARD_KINDS) + ["akhenaton"]
        if len(words) != 2 or words[1] not in names:
            raise NotationError(f"{text!r}: write 'draw harp'; cards are {', '.join(names)}")
        return ("draw", names.index(words[1]))
    return ("option", state.parse(text))


def apply_step(state: GameState, step: Step) -> None:
    """Apply one step to ``state`` (checked: an illegal step raises and changes nothing)."""
    kind, value = step
    if kind == "option":
        state.apply(value)
    elif kind == "roll":
        state.force_roll(*value)
    else:
        state.force_draw(value)


@dataclass
class _Node:
    parent: int  # -1 for the root
    step: Step | None
    state: GameState
    depth: int
    children: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class PlayerComparison:
    colour: str
    scores: tuple[int, int]  # each branch's score as if the game ended there (R9)
    deben: tuple[int, int]
    prestige: tuple[int, int]
    gifts: tuple[dict[str, int], dict[str, int]]  # gift type -> count (a double senet counts 2)


@dataclass(frozen=True)
class BranchComparison:
    branches: tuple[str, str]
    steps: tuple[int, int]
    players: tuple[PlayerComparison, ...]
    leaders: tuple[tuple[str, ...], tuple[str, ...]]  # who leads (R9.2 tie-break) in each
    over: tuple[bool, bool]


class History:
    """The steps of one game from a starting position, as a tree with named branches."""

    MAIN = "main"

    def __init__(self, start: GameState):
        root = start.copy()
        self._nodes: list[_Node] = [_Node(-1, None, root, 0)]
        self._tips: dict[str, int] = {self.MAIN: 0}
        self._branch = self.MAIN
        self._cursor = 0

    # ------------------------------------------------------------------ where we are
    @property
    def state(self) -> GameState:
        """The current state. Read it; change it only through :meth:`play` (it is a snapshot)."""
        return self._nodes[self._cursor].state

    @property
    def branch(self) -> str:
        return self._branch

    @property
    def branches(self) -> list[str]:
        return list(self._tips)

    @property
    def step(self) -> int:
        """How many steps from the start the current state is."""
        return self._nodes[self._cursor].depth

    def line(self, branch: str | None = None) -> list[int]:
        """Node indices from the start to the tip of a branch."""
        node = self._tips[self._check_branch(branch or self._branch)]
        path = []
        while node >= 0:
            path.append(node)
            node = self._nodes[node].parent
        return path[::-1]

    def steps(self, branch: str | None = None) -> list[str]:
        """The branch's steps in the move notation."""
        nodes = self.line(branch)
        return [
            step_text(self._nodes[self._nodes[i].parent].state, self._nodes[i].step)
            for i in nodes[1:]
        ]

    def length(self, branch: str | None = None) -> int:
        return len(self.line(branch)) - 1

    @property
    def can_undo(self) -> bool:
        return self._cursor != 0

    @property
    def can_redo(self) -> bool:
        return self.step < self.length()

    # ------------------------------------------------------------------ moving
    def play(self, step: int | str | Step) -> GameState:
        """Play an option (id or text) or a chance step (``roll 3 5``, ``draw harp``).

        At the tip of the branch the branch grows. Behind the tip, the same step as the branch's
        next one simply moves forward (redo); a different one starts a new branch.
        """
        current = self._nodes[self._cursor].state
        if isinstance(step, str):
            step = parse_step(current, step)
        elif isinstance(step, int) and not isinstance(step, bool):
            step = ("option", step)
        line = self.line()
        position = line.index(self._cursor) if self._cursor in line else -1
        if 0 <= position < len(line) - 1 and self._nodes[line[position + 1]].step == step:
            self._cursor = line[position + 1]
            return self.state
        new_state = current.copy()
        apply_step(new_state, step)  # raises on an illegal step; nothing has changed then
        node = _Node(self._cursor, step, new_state, self._nodes[self._cursor].depth + 1)
        self._nodes.append(node)
        index = len(self._nodes) - 1
        self._nodes[self._cursor].children.append(index)
        if self._cursor == self._tips[self._branch]:
            self._tips[self._branch] = index
        else:
            self._tips[self._fresh_name()] = index
            self._branch = list(self._tips)[-1]
        self._cursor = index
        return self.state

    def undo(self) -> GameState:
        if not self.can_undo:
            raise HistoryError("nothing to undo: this is the start of the game")
        self._cursor = self._nodes[self._cursor].parent
        return self.state

    def redo(self) -> GameState:
        if not self.can_redo:
            raise HistoryError("nothing to redo: this is the latest step of the branch")
        line = self.line()
        self._cursor = line[line.index(self._cursor) + 1]
        return self.state

    def jump(self, step: int) -> GameState:
        """Go to step ``step`` of the current branch (0 is the start; negative counts from the end)."""
        line = self.line()
        if not -len(line) <= step < len(line):
            raise HistoryError(
                f"step {step} does not exist: branch {self._branch!r} has steps 0 to {len(line) - 1}"
            )
        self._cursor = line[step]
        return self.state

    # ------------------------------------------------------------------ branches
    def new_branch(self, name: str, at: int | None = None) -> GameState:
        """Start a branch called ``name`` at step ``at`` of the current branch (default: here)."""
        name = self._valid_new_name(name)
        node = self._cursor if at is None else self.line()[self._step_index(at)]
        self._tips[name] = node
        self._branch = name
        self._cursor = node
        return self.state

    def switch(self, name: str) -> GameState:
        """Go to the tip of branch ``name``."""
        self._branch = self._check_branch(name)
        self._cursor = self._tips[name]
        return self.state

    def rename(self, old: str, new: str) -> None:
        self._check_branch(old)
        new = self._valid_new_name(new)
        self._tips = {(new if k == old else k): v for k, v in self._tips.items()}
        if self._branch == old:
            self._branch = new

    def delete(self, name: str) -> None:
        """Forget a branch's name (its steps stay reachable from other branches that share them)."""
        self._check_branch(name)
        if len(self._tips) == 1:
            raise HistoryError("the last branch cannot be deleted")
        del self._tips[name]
        if self._branch == name:
            self.switch(next(iter(self._tips)))

    def compare(self, a: str, b: str) -> BranchComparison:
        """Two branches side by side at their tips: scores (R9, as if ended now), Deben, gifts."""
        sa, sb = (
            self._nodes[self._tips[self._check_branch(a)]].state,
            self._nodes[self._tips[self._check_branch(b)]].state,
        )
        ta, tb = totals(sa), totals(sb)
        players = []
        for p in range(sa.n):
            players.append(
                PlayerComparison(
                    sa.colours[p],
                    (ta[p], tb[p]),
                    (sa.deben[p], sb.deben[p]),
                    (sa.prestige[p], sb.prestige[p]),
                    (_gift_counts(sa, p), _gift_counts(sb, p)),
                )
            )
        return BranchComparison(
            (a, b),
            (self.length(a), self.length(b)),
            tuple(players),
            (
                tuple(sa.colours[p] for p in winners(sa)),
                tuple(sb.colours[p] for p in winners(sb)),
            ),
            (sa.is_over, sb.is_over),
        )

    # ------------------------------------------------------------------ records
    def record(self, branch: str | None = None) -> GameRecord:
        """The branch as a game record: its start and its steps in the notation."""
        return GameRecord(self._nodes[0].state.copy(), self.steps(branch))

    # ------------------------------------------------------------------ helpers
    def _check_branch(self, name: str) -> str:
        if name not in self._tips:
            raise HistoryError(
                f"no branch called {name!r}; the branches are: {', '.join(self._tips)}"
            )
        return name

    def _valid_new_name(self, name: str) -> str:
        name = str(name).strip()
        if not name:
            raise HistoryError("a branch needs a name")
        if name in self._tips:
            raise HistoryError(f"a branch called {name!r} already exists")
        return name

    def _fresh_name(self) -> str:
        k = 2
        while f"{self._branch}-{k}" in self._tips:
            k += 1
        return f"{self._branch}-{k}"

    def _step_index(self, at: int) -> int:
        length = self.length()
        if not -length - 1 <= at <= length:
            raise HistoryError(f"step {at} does not exist: this branch has steps 0 to {length}")
        return at


def _gift_counts(state: GameState, seat: int) -> dict[str, int]:
    return {
        name: state.type_count(seat, t)
        for t, name in enumerate(R.GIFT_TYPES)
        if state.type_count(seat, t)
    }


# ----------------------------------------------------------------------------------- records
RECORD_VERSION = 1


@dataclass
class GameRecord:
    """A game as its starting position and its steps; replays exactly."""

    start: GameState
    steps: list[str]

    def replay(self, upto: int | None = None, source: str = "<record>") -> History:
        """A :class:`History` with the steps played (all, or the first ``upto``)."""
        history = History(self.start)
        for index, text in enumerate(self.steps[:upto]):
            try:
                history.play(text)
            except NefertitiError as error:
                from .scenario import ScenarioError

                raise ScenarioError(source, ("moves", index), str(error)) from None
        return history

    def to_data(self) -> dict:
        from .scenario import to_data

        return {
            "nefertiti_record": RECORD_VERSION,
            "start": to_data(self.start),
            "moves": list(self.steps),
        }

    def dumps(self) -> str:
        from .yaml_subset import dumps

        return "# Nefertiti game record, format 1: replay with 'nefertiti replay FILE'\n" + dumps(
            self.to_data()
        )

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps(), encoding="utf-8")


def is_record(data) -> bool:
    return isinstance(data, dict) and "nefertiti_record" in data


def record_from_data(data, source: str = "<record>", doc=None) -> GameRecord:
    """A record from file data: ``nefertiti_record: 1``, ``start`` (a position), ``moves``."""
    from .scenario import ScenarioError, from_data
    from .yaml_subset import Document

    doc = doc or Document(data)

    def fail(path, message):
        raise ScenarioError(source, path, message, doc.line_of(path))

    if data.get("nefertiti_record") != RECORD_VERSION:
        fail(("nefertiti_record",), f"record format {data.get('nefertiti_record')!r} is not 1")
    unknown = set(data) - {"nefertiti_record", "start", "moves", "title"}
    if unknown:
        fail(
            (sorted(map(str, unknown))[0],), "unknown field; fields: nefertiti_record, start, moves"
        )
    start = data.get("start")
    if not isinstance(start, dict):
        fail(("start",), "the record's starting position (a scenario) is missing")
    sub = Document(start, {k[1:]: v for k, v in doc.lines.items() if k[:1] == ("start",)})
    try:
        scenario = from_data(start, source, sub)
    except ScenarioError as error:
        raise ScenarioError(source, ("start",) + error.path, error.problem, error.line) from None
    moves = data.get("moves") or []
    if not isinstance(moves, list):
        fail(("moves",), "moves are a list of steps in the move notation")
    return GameRecord(scenario.state, [str(m) for m in moves])
