"""Checks shared by the first-game path's claims (notebooks 00-03): squares named by value and
mark, reserves, and what a stall's bids add up to, all read from a position file."""

from __future__ import annotations

from nefertiti_core.engine import rules as R

from .engine import position


def market(name: str) -> int:
    return R.MARKETS.index(name)


def square(scenario: str, market_name: str, index: int):
    """The square ``index`` of ``market_name``'s visible stall in position ``scenario``."""
    state = position(scenario)
    return state.visible_stall(market(market_name)).squares[index]


def is_square(scenario: str, market_name: str, index: int, value: int, symbol: str = "") -> bool:
    sq = square(scenario, market_name, index)
    assert (sq.value, sq.symbol) == (value, symbol), (scenario, market_name, index, sq)
    return True


def reserve(scenario: str, market_name: str, *steps: str) -> int:
    return position(scenario, *steps).reserve[market(market_name)]


def bids_total(scenario: str, market_name: str) -> int:
    """What the bids of the servants on ``market_name``'s visible stall add up to."""
    state = position(scenario)
    m = market(market_name)
    stall = state.visible_stall(m)
    return sum(
        sq.value
        for sq, owner in zip(stall.squares, state.square_owners(m), strict=True)
        if owner >= 0
    )


def empty_stall(scenario: str, market_name: str) -> bool:
    return all(owner < 0 for owner in position(scenario).square_owners(market(market_name)))


def deben_gain(scenario: str, colour: str, step: str) -> int:
    before = position(scenario)
    after = position(scenario, step)
    seat = before.colours.index(colour)
    return after.deben[seat] - before.deben[seat]


def option_texts(scenario: str, *steps: str) -> list[str]:
    """The decider's legal options after ``steps``, in the engine's notation."""
    from nefertiti_core.engine.options import option_text

    state = position(scenario, *steps)
    return [option_text(o, state.colours) for o in state.legal_options()]


def decider(scenario: str, *steps: str) -> str:
    state = position(scenario, *steps)
    return state.colours[state.decider]
