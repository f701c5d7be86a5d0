"""History and what-if: undo, redo, jump, named branches, comparisons, and game records.

A :class:`History` is a tree of steps over one starting position. Each step is a decision (an
option id) or a fixed chance outcome (``roll 3 5``, ``draw harp``: R4.4), and each node keeps the
state after it, so moving around is instant and exact. Playing something new where a step
already follows starts a new branch; nothing is ever thrown away.

A game is its start, its seed and its list of steps: :class:`GameRecord` writes that as a file
(``nefertiti_record: 1``) and replays it exactly (the same :meth:`GameState.state_hash`). A whole
game, every branch with where it is and who plays each seat, is format 2
(:meth:`History.whole_record`; docs/scenario-format.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..engine import rules as R
from ..engine.errors import ArgumentError, NefertitiError, require_int, require_state
from ..engine.limits import (
    MAX_BRANCHES,
    MAX_MOVE_CHARS,
    MAX_NAME_CHARS,
    MAX_STEPS,
    echo,
)
from ..engine.said import refused, said
from ..engine.scoring import totals, winners
from ..engine.state import GameState
from ..engine.steps import Step, apply_step, check_step, parse_step, step_text


class HistoryError(NefertitiError):
    """An undo past the start, an unknown branch name, a step that does not exist, ..."""


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
        root = require_state(start, "a History's start").copy()
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
        if branch is not None and not isinstance(branch, str):
            raise ArgumentError(f"a branch name is a text, not {echo(branch)}")
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

    def transitions(self, branch: str | None = None):
        """(node id, state before, state after, step) for every step of ``branch`` (the current
        one by default), from the start: what a step did, for the words that announce it. The
        states are the history's own snapshots: read them, never change them."""
        for index in self.line(branch)[1:]:
            node = self._nodes[index]
            yield index, self._nodes[node.parent].state, node.state, node.step

    def last_transition(self) -> tuple[GameState, GameState, Step | None] | None:
        """(state before, state after, step) of the step that led here; None at the start."""
        node = self._nodes[self._cursor]
        if node.parent < 0:
            return None
        return self._nodes[node.parent].state, node.state, node.step

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
        else:
            step = check_step(step)
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
        require_int(step, "a step number")
        line = self.line()
        if not -len(line) <= step < len(line):
            raise HistoryError(
                f"step {echo(step)} does not exist: branch {self._branch!r} has steps 0 to {len(line) - 1}"
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

    def whole_record(self, seats: list[str] | None = None, bot_seed: int | None = None):
        """Every branch, the current branch and step (and, if given, the seats and the bots'
        seed) as a record (format 2) whose :meth:`GameRecord.replay` gives this history back.

        Each branch is written as the steps it adds to an earlier branch it shares its start
        with: its name, the step of that branch it forks from, and its own moves. (A branch
        name that was deleted is not kept; neither are steps only it reached.)
        """
        written: list[tuple[str, list[int]]] = []
        branches = []
        for name in self._tips:
            line, texts = self.line(name), self.steps(name)
            parent, shared = None, 1  # every line shares the start (node 0)
            for other, other_line in written:
                k = 0
                while k < min(len(line), len(other_line)) and line[k] == other_line[k]:
                    k += 1
                if k > shared or parent is None:
                    parent, shared = other, k
            branches.append(
                BranchRecord(name, texts[shared - 1 :], parent, shared - 1 if parent else 0)
            )
            written.append((name, line))
        return GameRecord(
            self._nodes[0].state.copy(),
            self.steps(),
            branches=branches,
            current=(self._branch, self.step),
            seats=list(seats) if seats is not None else None,
            bot_seed=bot_seed,
        )

    @classmethod
    def from_branches(cls, start: GameState, record: GameRecord, source: str) -> History:
        """The history a format-2 record describes (see :meth:`whole_record`)."""
        from .scenario import ScenarioError

        history = cls(start)
        history._tips = {}
        for b, branch in enumerate(record.branches):
            node = 0
            if branch.parent is not None:
                line = history.line(branch.parent)
                node = line[branch.fork]
            for m, text in enumerate(branch.moves):
                state = history._nodes[node].state
                try:
                    step = parse_step(state, text)
                    new_state = state.copy()
                    apply_step(new_state, step)
                except NefertitiError as error:
                    why = refused(state, error)
                    raise ScenarioError(source, ("branches", b, "moves", m), why) from None
                history._nodes.append(_Node(node, step, new_state, history._nodes[node].depth + 1))
                history._nodes[node].children.append(len(history._nodes) - 1)
                node = len(history._nodes) - 1
            history._tips[branch.name] = node
        name, step = record.current or (record.branches[0].name, None)
        history._branch = name
        line = history.line(name)
        history._cursor = line[-1 if step is None else step]
        return history

    # ------------------------------------------------------------------ helpers
    def _check_branch(self, name: str) -> str:
        if not isinstance(name, str):
            raise ArgumentError(f"a branch name is a text, not {echo(name)}")
        if name not in self._tips:
            raise HistoryError(
                f"no branch called {echo(name)}; the branches are: {', '.join(self._tips)}"
            )
        return name

    def _valid_new_name(self, name: str) -> str:
        if not isinstance(name, str):
            raise ArgumentError(f"a branch name is a text, not {echo(name)}")
        name = name.strip()
        if not name:
            raise HistoryError("a branch needs a name")
        if len(name) > MAX_NAME_CHARS:
            raise HistoryError(f"a branch name has at most {MAX_NAME_CHARS} characters")
        if name in self._tips:
            raise HistoryError(f"a branch called {echo(name)} already exists")
        return name

    def _fresh_name(self) -> str:
        k = 2
        while f"{self._branch}-{k}" in self._tips:
            k += 1
        return f"{self._branch}-{k}"

    def _step_index(self, at: int) -> int:
        require_int(at, "a step number")
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
#: Format 2 adds every branch, the current branch and step, the seats and the bots' seed.
WHOLE_RECORD_VERSION = 2
_V1_FIELDS = ("nefertiti_record", "start", "moves", "title")
_V2_FIELDS = (*_V1_FIELDS, "branches", "current", "seats", "bot_seed")


@dataclass
class BranchRecord:
    """One branch of a whole record: the steps it adds after step ``fork`` of ``parent``
    (an earlier branch; ``None`` for the first branch, which starts at the start)."""

    name: str
    moves: list[str]
    parent: str | None = None
    fork: int = 0


@dataclass
class GameRecord:
    """A game as its starting position and its steps; replays exactly.

    ``steps`` is one line of play (the current branch, from the start). A whole record (format
    2, from :meth:`History.whole_record`) also has ``branches`` (every branch), ``current``
    (the branch and step the game was at) and, optionally, ``seats`` and ``bot_seed``.
    """

    start: GameState
    steps: list[str]
    branches: list[BranchRecord] | None = None
    current: tuple[str, int] | None = None
    seats: list[str] | None = None
    bot_seed: int | None = None

    def replay(self, upto: int | None = None, source: str = "<record>") -> History:
        """A :class:`History` with the steps played (all, or the first ``upto``).

        A whole record without ``upto`` gives back every branch, at its current branch and step.
        """
        if self.branches and upto is None:
            return History.from_branches(self.start, self, source)
        history = History(self.start)
        for index, text in enumerate(self.steps[:upto]):
            try:
                history.play(text)
            except NefertitiError as error:
                from .scenario import ScenarioError

                why = refused(history.state, error)
                raise ScenarioError(source, ("moves", index), why) from None
        return history

    @property
    def is_whole(self) -> bool:
        return any(v is not None for v in (self.branches, self.current, self.seats, self.bot_seed))

    def to_data(self) -> dict:
        from .scenario import to_data

        if not self.is_whole:
            return {
                "nefertiti_record": RECORD_VERSION,
                "start": to_data(self.start),
                "moves": list(self.steps),
            }
        data = {"nefertiti_record": WHOLE_RECORD_VERSION, "start": to_data(self.start)}
        if self.branches:
            data["branches"] = []
            for branch in self.branches:
                item = {"name": branch.name}
                if branch.parent is not None:
                    item["from"] = {"branch": branch.parent, "step": branch.fork}
                item["moves"] = list(branch.moves)
                data["branches"].append(item)
        else:
            data["moves"] = list(self.steps)
        if self.current is not None:
            data["current"] = {"branch": self.current[0], "step": self.current[1]}
        if self.seats is not None:
            data["seats"] = list(self.seats)
        if self.bot_seed is not None:
            data["bot_seed"] = self.bot_seed
        return data

    def dumps(self) -> str:
        from .yaml_subset import dumps

        version = WHOLE_RECORD_VERSION if self.is_whole else RECORD_VERSION
        return (
            f"# Nefertiti game record, format {version}: replay with 'nefertiti replay FILE'\n"
            + dumps(self.to_data())
        )

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps(), encoding="utf-8")


def is_record(data) -> bool:
    return isinstance(data, dict) and "nefertiti_record" in data


def load_any(text: str, name: str):
    """A scenario or a game record from a file's text (``name``: the file's name in messages):
    a :class:`GameRecord` when the file is a record (``nefertiti_record:``), else a
    :class:`~nefertiti_core.files.scenario.Scenario`. Broken YAML or data raises a one-line
    ScenarioError naming the file, line and field. The command line and the Sandbox both read
    files through this one function."""
    from .scenario import ScenarioError, from_data
    from .yaml_subset import YamlError, loads

    try:
        doc = loads(text)
    except YamlError as error:
        raise ScenarioError(name, (), error.problem, error.line) from None
    if is_record(doc.data):
        return record_from_data(doc.data, name, doc)
    return from_data(doc.data, name, doc)


def record_from_data(data, source: str = "<record>", doc=None) -> GameRecord:
    """A record from file data: ``nefertiti_record: 1``, ``start`` (a position), ``moves``;
    format 2 may have ``branches``, ``current``, ``seats`` and ``bot_seed`` as well."""
    from .scenario import ScenarioError, from_data
    from .yaml_subset import Document

    doc = doc or Document(data)

    def fail(path, message):
        raise ScenarioError(source, path, message, doc.line_of(path))

    version = data.get("nefertiti_record")
    if not _is_int(version) or version not in (RECORD_VERSION, WHOLE_RECORD_VERSION):
        fail(("nefertiti_record",), said("file.rec.version", version=repr(version)))
    fields = _V1_FIELDS if version == RECORD_VERSION else _V2_FIELDS
    unknown = set(data) - set(fields)
    if unknown:
        fail(
            (sorted(map(str, unknown))[0],),
            said("file.rec.unknown_field", fields=", ".join(f for f in fields if f != "title")),
        )
    start = data.get("start")
    if not isinstance(start, dict):
        fail(("start",), said("file.rec.no_start"))
    sub = Document(start, {k[1:]: v for k, v in doc.lines.items() if k[:1] == ("start",)})
    try:
        scenario = from_data(start, source, sub)
    except ScenarioError as error:
        raise ScenarioError(source, ("start",) + error.path, error.problem, error.line) from None
    if "branches" in data and "moves" in data:
        fail(("moves",), said("file.rec.moves_or_branches"))
    moves = data.get("moves") or []
    if not isinstance(moves, list):
        fail(("moves",), said("file.rec.moves_list"))
    record = GameRecord(scenario.state, _steps(moves, ("moves",), fail))
    if version == RECORD_VERSION:
        return record
    if "branches" in data:
        record.branches = _read_branches(data["branches"], fail)
    lines = _branch_lines(record.branches or [BranchRecord(History.MAIN, record.steps)])
    if "current" in data:
        current = data["current"]
        if not isinstance(current, dict) or set(current) - {"branch", "step"}:
            fail(("current",), said("file.rec.current"))
        name = current.get("branch", next(iter(lines)))
        if not isinstance(name, str) or name not in lines:
            fail(
                ("current", "branch"),
                said("file.rec.no_branch", name=repr(name), branches=", ".join(lines)),
            )
        step = current.get("step", len(lines[name]))
        if not _is_int(step) or not 0 <= step <= len(lines[name]):
            fail(
                ("current", "step"),
                said(
                    "file.rec.no_step",
                    step=repr(step),
                    branch=repr(name),
                    last=str(len(lines[name])),
                ),
            )
        record.current = (name, step)
        if record.branches is None:
            record.branches = [BranchRecord(History.MAIN, record.steps)]
    name = record.current[0] if record.current else next(iter(lines))
    record.steps = lines[name]
    if "seats" in data:
        record.seats = _read_seats(data["seats"], scenario.state.n, fail)
    if "bot_seed" in data:
        seed = data["bot_seed"]
        if not _is_int(seed) or not 0 <= seed < 2**32:
            fail(("bot_seed",), said("file.rec.bot_seed", value=repr(seed)))
        record.bot_seed = seed
    return record


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _steps(moves: list, path: tuple, fail) -> list[str]:
    """A record's steps, within the limits (nefertiti_core/engine/limits.py): at most MAX_STEPS, each a
    text of at most MAX_MOVE_CHARS."""
    if len(moves) > MAX_STEPS:
        fail(path, said("file.rec.too_many_steps", count=f"{len(moves):,}", most=f"{MAX_STEPS:,}"))
    out = []
    for j, move in enumerate(moves):
        if isinstance(move, (list, dict)):
            fail(path + (j,), said("file.step_not_text", value=echo(move)))
        text = "null" if move is None else str(move)
        if len(text) > MAX_MOVE_CHARS:
            fail(path + (j,), said("file.step_too_long", count=f"{len(text):,}", value=echo(text)))
        out.append(text)
    return out


def _read_branches(items, fail) -> list[BranchRecord]:
    if not isinstance(items, list) or not items:
        fail(("branches",), said("file.rec.branches"))
    if len(items) > MAX_BRANCHES:
        fail(
            ("branches",),
            said("file.rec.too_many_branches", count=f"{len(items):,}", most=str(MAX_BRANCHES)),
        )
    total = 0
    branches: list[BranchRecord] = []
    lengths: dict[str, int] = {}
    for b, item in enumerate(items):
        if not isinstance(item, dict) or set(item) - {"name", "from", "moves"}:
            fail(("branches", b), said("file.rec.branch"))
        name = item.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > 100:
            fail(("branches", b, "name"), said("file.rec.branch_name"))
        if name in lengths:
            fail(("branches", b, "name"), said("file.rec.branch_twice", name=repr(name)))
        moves = item.get("moves") or []
        if not isinstance(moves, list):
            fail(("branches", b, "moves"), said("file.rec.moves_list"))
        parent, fork = None, 0
        if b == 0 and "from" in item:
            fail(("branches", 0, "from"), said("file.rec.first_branch"))
        if b > 0:
            source = item.get("from")
            if not isinstance(source, dict) or set(source) != {"branch", "step"}:
                fail(("branches", b, "from"), said("file.rec.from"))
            parent, fork = source["branch"], source["step"]
            if not isinstance(parent, str) or parent not in lengths:
                fail(
                    ("branches", b, "from", "branch"),
                    said("file.rec.no_parent", branch=repr(parent)),
                )
            if not _is_int(fork) or not 0 <= fork <= lengths[parent]:
                fail(
                    ("branches", b, "from", "step"),
                    said(
                        "file.rec.no_fork",
                        step=repr(fork),
                        branch=repr(parent),
                        last=str(lengths[parent]),
                    ),
                )
        total += len(moves)
        if total > MAX_STEPS:
            fail(
                ("branches", b, "moves"), said("file.rec.steps_in_branches", most=f"{MAX_STEPS:,}")
            )
        branches.append(
            BranchRecord(name, _steps(moves, ("branches", b, "moves"), fail), parent, fork)
        )
        lengths[name] = fork + len(moves)
    return branches


def _branch_lines(branches: list[BranchRecord]) -> dict[str, list[str]]:
    """Each branch's steps from the start (its parent's first ``fork`` steps, then its own)."""
    lines: dict[str, list[str]] = {}
    for branch in branches:
        before = lines[branch.parent][: branch.fork] if branch.parent is not None else []
        lines[branch.name] = before + list(branch.moves)
    return lines


def _read_seats(seats, players: int, fail) -> list[str]:
    from ..play.bots import bot_kinds

    kinds = ("human", *bot_kinds())
    if not isinstance(seats, list) or len(seats) != players:
        fail(("seats",), said("file.rec.seats", count=str(players), kinds=", ".join(kinds)))
    for s, kind in enumerate(seats):
        if kind not in kinds:
            fail(
                ("seats", s),
                said("file.rec.seat_kind", kind=repr(str(kind)[:40]), kinds=", ".join(kinds)),
            )
    return [str(kind) for kind in seats]
