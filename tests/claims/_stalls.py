"""Small questions about one stall for the claims of notebooks 09-12: squares by their learners'
names ("the Deben 2"), who holds them, the sum of the bids, whether a placement closes."""

from __future__ import annotations

from claims.engine import position
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.squares import square_name
from nefertiti_core.teaching.status import stall_status


def stall(name: str, market: str, *steps: str) -> R.Stall:
    return R.STALLS[stall_status(position(name, *steps), market).stall_id]


def index(st: R.Stall, square: str) -> int:
    """The index of the square a learner calls ``square`` ("the first 1"); fails if none."""
    found = [i for i in range(len(st.squares)) if str(square_name(st, i)) == square]
    assert len(found) == 1, (
        st.name,
        square,
        [str(square_name(st, i)) for i in range(len(st.squares))],
    )
    return found[0]


def holds(name: str, market: str, colour: str, square: str) -> bool:
    state = position(name)
    st = stall(name, market)
    owner = state.owners[R.MARKETS.index(market)][index(st, square)]
    assert state.colours[owner] == colour, (name, square, state.colours[owner])
    return True


def bid_sum(name: str, market: str, *steps: str) -> int:
    status = stall_status(position(name, *steps), market)
    st = R.STALLS[status.stall_id]
    return sum(st.squares[i].value for i in status.occupied)


def place(name: str, market: str, square: str) -> str:
    """The move that puts the current player's servant on ``square`` (asserting it is empty)."""
    st = stall(name, market)
    i = index(st, square)
    assert i in stall_status(position(name), market).empty, (name, square, "is taken")
    return f"place {st.name}#{i}"


def closes(name: str, market: str, square: str) -> bool:
    """Whether the current player's servant on ``square`` closes the market (no dice)."""
    return not stall_status(position(name, place(name, market, square)), market).is_open


def to_play(name: str, colour: str) -> bool:
    state = position(name)
    return state.colours[state.turn_player] == colour


def totals(market: str, side: int) -> tuple[set[int], set[int]]:
    """The sums of bids a stall's squares can make: (those that close it, those that do not)."""
    st = R.stall_of(R.MARKETS.index(market), side)
    close, stay = set(), set()
    for mask, verdict in enumerate(R.CLOSES_TABLE[st.id]):
        if mask:
            total = sum(sq.value for sq in st.squares if mask >> sq.index & 1)
            (close if verdict else stay).add(total)
    assert not close & stay, "a sum that both closes and does not"
    return close, stay
