"""GameState's fields are declared once (``state.FIELDS``), and copies and keys follow it (#15).

A copy shares no mutable object with its original (every field walked to the bottom, for
positions of seeded self-play games, mid-resolution ones included); every field is shown in
``public_key`` or declared hidden with a reason, and each declaration is checked by changing the
field; the bots, the odds and the self-play read the state through its public API only.
"""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest

from nefertiti_core.engine import rules as R
from nefertiti_core.engine import state as S
from nefertiti_core.engine.errors import NefertitiError
from nefertiti_core.engine.state import FIELDS, GameState, fast_copy, new_game
from nefertiti_core.play.bots import GreedyBot

ROOT = Path(__file__).resolve().parents[1]
IMMUTABLE_TYPES = (int, float, str, bytes, bool, type(None), range)


def _positions():
    """Positions from seeded games (greedy and random players, 3 and 4 seats, with and
    without an event log), every phase that occurred, mid-resolution ones included."""
    out = []
    for seed, players, greedy, events in (
        (1, 4, True, True),
        (2, 3, False, False),
        (3, 4, False, True),
        (4, 4, True, False),
    ):
        state = new_game(players, seed, record_events=events, layout="random")
        bots = [GreedyBot(seed=seed * 10 + i) for i in range(players)]
        rng = random.Random(seed)
        seen = set()
        while not state.is_over:
            key = (state.phase, state.res_market >= 0)
            if key not in seen or rng.random() < 0.05:
                seen.add(key)
                out.append(state.copy())
            legal = state.legal
            option = bots[state.decider].choose(state) if greedy else rng.choice(legal)
            state.apply_unchecked(option)
        out.append(state)
    return out


POSITIONS = _positions()


def test_the_positions_include_every_kind_of_moment():
    phases = {s.phase for s in POSITIONS}
    assert {S.P_TURN, S.P_TAKE, S.P_BID, S.P_OVER} <= phases
    assert any(s.resolution() is not None for s in POSITIONS)  # mid-resolution
    assert any(s.log for s in POSITIONS) and any(s.log is None for s in POSITIONS)


def _mutables(value, path: str, out: dict[int, str]) -> None:
    """Every mutable object reachable from ``value`` (containers walked to the bottom)."""
    if isinstance(value, IMMUTABLE_TYPES):
        return
    if isinstance(value, (tuple, frozenset)):
        for i, item in enumerate(value):
            _mutables(item, f"{path}[{i}]", out)
        return
    if dataclasses.is_dataclass(value) and value.__dataclass_params__.frozen:
        for f in dataclasses.fields(value):
            _mutables(getattr(value, f.name), f"{path}.{f.name}", out)
        return
    out[id(value)] = path  # a list, dict, set, random source, any other object
    if isinstance(value, dict):
        for k, item in value.items():
            _mutables(item, f"{path}[{k!r}]", out)
    elif isinstance(value, (list, set)):
        for i, item in enumerate(value):
            _mutables(item, f"{path}[{i}]", out)


def _shared(original: GameState, copy: GameState, skip=()) -> list[str]:
    """Paths in ``copy`` of mutable objects that ``original`` holds too."""
    mine: dict[int, str] = {}
    theirs: dict[int, str] = {}
    for f in FIELDS:
        if f.name in skip:
            continue
        value = getattr(original, f.name)
        if f.copy == S.EVENTS and value is not None:
            # The events themselves are shared by design (never changed once emitted): the
            # log list is checked, and each event is an immutable (name, data) pair.
            assert all(type(e) is tuple and len(e) == 2 for e in value)
            mine[id(value)] = f.name
            theirs[id(getattr(copy, f.name))] = f.name
            continue
        _mutables(value, f.name, mine)
        _mutables(getattr(copy, f.name), f.name, theirs)
    return sorted(path for obj, path in theirs.items() if obj in mine)


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_a_copy_shares_no_mutable_object(index):
    original = POSITIONS[index]
    copy = original.copy()
    assert _shared(original, copy) == []
    assert copy.key() == original.key() and copy.legal == original.legal
    if original.log is not None:
        assert copy.log == original.log and copy.log is not original.log


REPLACED = sorted(f.name for f in FIELDS if f.replaced)


@pytest.mark.parametrize("index", range(0, len(POSITIONS), 3))
def test_a_fast_copy_shares_only_the_random_source_and_the_replaced_lists(index):
    original = POSITIONS[index]
    rng = random.Random(5)
    copy = fast_copy(original, rng)
    assert copy.rng is rng and copy.log is None
    assert _shared(original, copy, skip={"rng", "log", *REPLACED}) == []
    for name in REPLACED:  # shared by design: the engine puts new lists in their place
        assert getattr(copy, name) is getattr(original, name)
    assert copy.public_key() == original.public_key() and copy.deck == original.deck
    own = S.own_lists(fast_copy(original, rng))  # a copy kept beyond the look-ahead
    assert _shared(original, own, skip={"rng", "log"}) == []
    assert own.public_key() == original.public_key()


def test_the_replaced_lists_are_the_rarely_changed_ones():
    assert REPLACED == [
        "exchange_partners",
        "forced_draws",
        "forced_rolls",
        "piles",
        "res_queue",
        "side",
        "status",
        "used_characters",
    ]
    with pytest.raises(AssertionError, match="only a list"):
        S.check_fields((*FIELDS, S.Field("x", S.IMMUTABLE, S.PUBLIC, replaced=True)))


# A replaced list changed in place: an item or slice assigned (any operator), a mutating method,
# ``del``; ``self.``/``state.``... or any other name before the field.
IN_PLACE = re.compile(
    r"\.(" + "|".join(REPLACED) + r")\b(?:\[[^\]]*\])*"
    r"(?:\[[^\]]*\]\s*(?:<<|>>|//|\*\*|[-+*/%&|^@])?=(?!=)"
    r"|\.(?:append|extend|pop|insert|remove|clear|sort|reverse)\s*\(|\s*(?:\+|\*)=)"
    r"|\bdel\s+[\w.]+\.(?:" + "|".join(REPLACED) + r")\b\s*\["
)
# A name given to such a list or an item of it (not to a copy: a slice with ``:``).
ALIAS = re.compile(r"^\s*(\w+)\s*=\s*[\w.]+\.(" + "|".join(REPLACED) + r")\b(?:\[[^\]:]*\])?\s*$")


def test_the_in_place_search_finds_each_kind_of_change():
    found = [
        bool(IN_PLACE.search(line))
        for line in (
            "self.side[m] ^= 1",
            "state.status[m] = CLOSED",
            "card = self.piles[pile].pop(0)",
            "copy.forced_rolls.extend(value)",
            "g.used_characters += [3]",
            "del state.res_queue[0]",
            "self.piles[2][0] = 5",
            "x = self.side[m] == 1",
            "self.side = side",
            "status = self.status[:]",
        )
    ]
    assert found == [True, True, True, True, True, True, True, False, False, False]
    assert ALIAS.match("    pile = state.piles[R.PILES.index(name)]")
    assert not ALIAS.match("    status, side = self.status[:], self.side[:]")
    assert not ALIAS.match("        piles = self.piles[:]")


@pytest.mark.parametrize(
    "path",
    sorted(
        str(p.relative_to(ROOT))
        for folder in ("nefertiti_core", "widgets")
        for p in (ROOT / folder).rglob("*.py")
    ),
)
def test_no_code_changes_a_replaced_list_in_place(path):
    """The lists fast_copy shares (``Field.replaced``) are replaced, never changed: a change
    in place would reach every look-ahead copy of the position, and the position itself."""
    lines = (ROOT / path).read_text().splitlines()
    changed = [
        f"{path}:{i}: {line.strip()}" for i, line in enumerate(lines, 1) if IN_PLACE.search(line)
    ]
    assert changed == []
    aliases = [(i, m.group(1)) for i, line in enumerate(lines, 1) if (m := ALIAS.match(line))]
    for i, name in aliases:  # a name for such a list, then changed through the name
        change = re.compile(
            rf"\b{name}(?:\[[^\]]*\]\s*(?:[-+*/%&|^])?=(?!=)|\.(?:append|extend|pop|insert|remove|clear|sort|reverse)\s*\()"
            rf"|\bdel\s+{name}\["
        )
        later = [
            f"{path}:{j}" for j, line in enumerate(lines[i : i + 40], i + 1) if change.search(line)
        ]
        assert later == [], f"{name} (line {i}) is changed in place at {later}"


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_play_on_a_fast_copy_leaves_the_original_as_it_was(index):
    """To the end of the game, with random options (closings flip stalls and close markets,
    recruits take characters, merchants exchange) and dice fixed ahead on the copy."""
    original = POSITIONS[index]
    before = original.copy()
    lists = {name: getattr(original, name) for name in REPLACED}
    rng = random.Random(index)
    copy = fast_copy(original, random.Random(index))
    steps = 0
    while copy.legal:
        if steps % 5 == 0 and len(copy.forced_rolls) < 4:
            copy.force_roll(rng.randint(1, 6))
        if steps % 7 == 0 and copy.deck and not copy.forced_draws:
            copy.force_draw(copy.deck[-1])
        copy.apply_unchecked(rng.choice(copy.legal))
        steps += 1
    assert copy.is_over
    assert original.key() == before.key() and original.legal == before.legal
    for name, value in lists.items():
        assert getattr(original, name) is value  # the same list, unchanged
        assert value == getattr(before, name)


def test_the_walk_finds_what_a_shallow_copy_shares():
    """The check above can fail: a copy that shares one inner list is caught."""
    original = POSITIONS[3]
    copy = original.copy()
    copy.gifts[2] = original.gifts[2]
    assert _shared(original, copy) == ["gifts[2]"]


def test_every_field_is_declared_once_with_its_kinds():
    names = [f.name for f in FIELDS]
    assert len(names) == len(set(names))
    assert GameState.__slots__ == tuple(names)
    state = POSITIONS[5]
    for f in FIELDS:  # every declared field is set on a game
        getattr(state, f.name)
    for f in FIELDS:
        if f.key != S.PUBLIC:
            assert len(f.why) > 10, f"{f.name}: {f.key} needs its reason"


def _changed(value, copy_kind: str):
    """Another value of the same kind, for the declaration checks."""
    if copy_kind == S.EVENTS:
        return [*(value or ()), ("an event", {})]
    if copy_kind == S.FLAT:
        return [*value, 99]
    if copy_kind == S.NESTED:
        return [[*value[0], 99], *value[1:]]
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 7
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, frozenset):
        return value | {"x"}
    if isinstance(value, tuple):
        return (*value, 99)
    if value is None:
        return (1, 2)
    if isinstance(value, S.Config):
        return dataclasses.replace(value, seed=12345)
    if isinstance(value, random.Random):
        return random.Random(99)
    raise AssertionError(f"no change known for {value!r}")


@pytest.mark.parametrize("field", FIELDS, ids=lambda f: f.name)
def test_a_field_is_in_the_public_key_exactly_when_it_is_declared_public(field):
    for state in (POSITIONS[4], POSITIONS[-1]):
        before = state.public_key()
        copy = state.copy()
        setattr(copy, field.name, _changed(getattr(state, field.name), field.copy))
        shows = copy.public_key() != before
        assert shows == (field.key != S.HIDDEN), f"{field.name} is declared {field.key}"


def test_the_deck_order_is_hidden_its_size_is_not():
    """R2.2, R12: the players know which cards are left, never their order."""
    state = POSITIONS[2]
    assert len(set(state.deck)) > 1
    shuffled = state.copy()
    random.Random(1).shuffle(shuffled.deck)
    assert shuffled.deck != state.deck
    assert shuffled.public_key() == state.public_key()
    assert shuffled.key() != state.key()  # the whole key still tells them apart
    shorter = state.copy()
    shorter.deck.pop()
    assert shorter.public_key() != state.public_key()
    deck_field = next(f for f in FIELDS if f.name == "deck")
    assert deck_field.key == S.PUBLIC_SIZE and "hidden" in deck_field.why


def test_an_undeclared_or_unexplained_field_is_refused():
    with pytest.raises(AssertionError, match="say why"):
        S.check_fields((*FIELDS, S.Field("secret", S.IMMUTABLE, S.HIDDEN)))
    with pytest.raises(AssertionError, match="twice"):
        S.check_fields((*FIELDS, FIELDS[3]))


# --- the read API -----------------------------------------------------------------------------
def test_the_read_api_answers_from_the_state():
    for state in POSITIONS[::4]:
        assert state.legal == state.legal_options()
        for m in range(4):
            assert state.market_cards(m) == tuple(state.cards[m])
            assert state.market_seal(m) is state.seal_on_upper[m]
            assert state.square_owners(m) == tuple(state.owners[m])
        res = state.resolution()
        if state.res_market < 0:
            assert res is None
        else:
            assert res.market == state.res_market
            assert res.squares == tuple(state.res_queue[state.res_pos :])
            assert (
                state.current_bid()
                == R.stall_of(res.market, state.side[res.market]).squares[res.squares[0]].value
            )


def test_the_read_api_refuses_a_bad_market():
    state = POSITIONS[0]
    for bad in (4, -1, "gizeh", None, True):
        with pytest.raises(NefertitiError, match="market"):
            state.market_cards(bad)
        with pytest.raises(NefertitiError, match="market"):
            state.closed_since(state, bad)


def test_closed_since_says_which_market_a_step_closed():
    """Checked against the event log: a step closed market m exactly when it logged
    ``market_closes`` for m (R3, R5.4), including closings forced within the step."""
    closed_steps = 0
    for seed in range(6):
        state = new_game(4 - seed % 2, seed, record_events=True)
        rng = random.Random(seed)
        while not state.is_over:
            before = state.copy()
            start = len(state.log)
            state.apply_unchecked(rng.choice(state.legal))
            logged = {d["market"] for name, d in state.log[start:] if name == "market_closes"}
            said = {m for m in range(4) if state.closed_since(before, m)}
            assert said == logged
            closed_steps += bool(logged)
    assert closed_steps > 20


# --- nobody else reads private names of a state ---------------------------------------------
PRIVATE = sorted(
    {n for n in dir(GameState) if n.startswith("_") and not n.startswith("__")}
    | {f.name for f in FIELDS if f.name.startswith("_")}
)
# ``self._x`` is the module's own object's attribute (a widget's ``_legal`` source), not a state's.
PRIVATE_READ = re.compile(r"(?<!\bself)\.(" + "|".join(map(re.escape, PRIVATE)) + r")\b")


def test_the_private_name_search_finds_a_state_read():
    assert "_legal" in PRIVATE and "_settle" in PRIVATE
    assert PRIVATE_READ.findall("while game._legal: eng._settle()") == ["_legal", "_settle"]
    assert PRIVATE_READ.findall("self._legal = ColumnDataSource()") == []


@pytest.mark.parametrize(
    "path",
    [
        "nefertiti_core/play/bots.py",
        "nefertiti_core/play/odds.py",
        "nefertiti_core/play/simulate.py",
    ]
    + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "widgets").glob("*.py")),
)
def test_no_private_name_of_a_state_is_read_outside_the_engine(path):
    found = PRIVATE_READ.findall((ROOT / path).read_text())
    assert found == [], f"{path} reads {found}"
