"""Claims of the position files' notes (``teaching: en`` in ``nefertiti_core/scenarios/*.yaml``),
checked against the engine (issue #13 item 9).

Every lesson board shows its position file's note (folded under the title), and the notes state
numbers: a total, a bid, a price, a chance, a gift's value. ``CLAIMS`` maps a file's stem to its
claims; ``tests/test_scenario_notes.py`` checks that each phrase is in the English note, that the
engine agrees, and that no number of the note is left without a claim (the German and Chinese
notes state the same numbers: ``tests/test_teaching_numbers.py``).
"""

from __future__ import annotations

from fractions import Fraction

from claims import Claim
from claims._stalls import bid_sum, index, place, stall
from claims.engine import deben, is_open, position, seat
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.chance import closing_probability, roll_outcomes
from nefertiti_core.engine.scoring import totals, winners
from nefertiti_core.teaching.status import stall_status


# ---------------------------------------------------------------------------- small questions
def _stall_id(name: str, market: str, *steps: str) -> int:
    return stall_status(position(name, *steps), market).stall_id


def _empty_of_value(name: str, market: str, value: int) -> list[int]:
    """The empty squares of ``market``'s visible stall showing ``value`` (at least one)."""
    st = stall(name, market)
    empty = stall_status(position(name), market).empty
    found = [i for i in empty if st.squares[i].value == value]
    assert found, (name, market, value, "no empty square of that value")
    return found


def _on(name: str, market: str, i: int) -> str:
    return f"place {stall(name, market).name}#{i}"


def _total_with(name: str, market: str, i: int) -> int:
    """The sum of the bids with a servant on square ``i`` (before any settling sends them home)."""
    return bid_sum(name, market) + stall(name, market).squares[i].value


def _every(name: str, market: str, value: int, total: int, closes: bool) -> bool:
    """A servant on any empty square of ``value`` brings the bids to ``total`` and closes the
    market (or leaves it open)."""
    for i in _empty_of_value(name, market, value):
        step = _on(name, market, i)
        assert _total_with(name, market, i) == total, (name, value, _total_with(name, market, i))
        assert is_open(name, market, step) is not closes, (name, value, "closes?", closes)
    return True


def _occupied_values(name: str, market: str, *steps: str) -> set[int]:
    status = stall_status(position(name, *steps), market)
    st = R.STALLS[status.stall_id]
    return {st.squares[i].value for i in status.occupied}


def _closing_values(name: str, market: str) -> set[int]:
    """The values of the empty squares on which the player to move closes the market at once."""
    st = stall(name, market)
    return {
        st.squares[i].value
        for i in stall_status(position(name), market).empty
        if not is_open(name, market, _on(name, market, i))
    }


def _gain(name: str, colour: str, *steps: str, before: tuple[str, ...] = ()) -> int:
    """How many Deben ``colour`` gains by ``steps`` after ``before``."""
    start = position(name, *before)
    end = position(name, *before, *steps)
    return end.deben[seat(end, colour)] - start.deben[seat(start, colour)]


def _prestige_gain(name: str, colour: str, *steps: str, before: tuple[str, ...] = ()) -> int:
    start = position(name, *before)
    end = position(name, *before, *steps)
    return end.prestige[seat(end, colour)] - start.prestige[seat(start, colour)]


def _line(name: str, values: tuple[int, ...]) -> bool:
    """The squares of ``values`` on Akhet-Aton's right stall are one of its lines (R3.4)."""
    st = stall(name, "akhet_aton")
    squares = tuple(sorted(index(st, f"the {v}") for v in values))
    return squares in {tuple(sorted(g)) for g in st.groups}


def _moves(name: str) -> tuple[str, ...]:
    from nefertiti_core.files.exercises import scenario_path
    from nefertiti_core.files.scenario import load

    return tuple(load(scenario_path(name)).moves)


def _played(name: str):
    return position(name, *_moves(name))


def _louqsor(name: str, square: str, *, p: Fraction, values: set[int], rolls=None) -> bool:
    """After the player to move places on ``square`` of Louqsor: the occupied values, the exact
    chance that the roll closes, and (if given) exactly which rolls close."""
    st = stall(name, "louqsor")
    mask = position(name).mask[R.LOUQSOR] | 1 << index(st, square)
    occupied = {sq.value for sq in st.squares if mask >> sq.index & 1}
    assert occupied == values, occupied
    assert closing_probability(st.id, mask) == p, closing_probability(st.id, mask)
    if rolls is not None:
        closing = {o.value for o in roll_outcomes(st.id, mask) if o.closes}
        assert closing == rolls, closing
    return True


def _holder_rolled(name: str, colour: str, roll: tuple[int, ...], is_open_after: bool) -> bool:
    state = _played_until_roll(name)
    assert state.last_roll == roll, state.last_roll
    assert stall_status(state, "louqsor").is_open is is_open_after
    return True


def _played_until_roll(name: str):
    """The state after the file's first move (its placement on Louqsor, dice fixed by the file)."""
    return position(name, _moves(name)[0])


def _gift_value(state, gift: str) -> int:
    return state.gift_value(R.GIFT_TYPES.index(gift))


def _holders(state, gift: str) -> int:
    return state.holders(R.GIFT_TYPES.index(gift))


def _kinds_held(state, colour: str) -> int:
    s = seat(state, colour)
    return sum(1 for t in range(len(R.GIFT_TYPES)) if state.type_count(s, t))


def _max_value(gift: str) -> int:
    return max(R.GIFT_VALUES[R.GIFT_TYPES.index(gift)])


def _paid_for(name: str, colour: str, amount: int, gift: str) -> bool:
    """``colour`` pays ``amount`` for a ``gift`` card when the file's first move closes a market."""
    before, after = position(name), position(name, _moves(name)[0])
    s = seat(before, colour)
    assert before.deben[s] - after.deben[s] == amount, (before.deben[s], after.deben[s])
    t = R.GIFT_TYPES.index(gift)
    assert after.type_count(s, t) == before.type_count(s, t) + 1, "no new " + gift
    return True


# ---------------------------------------------------------------------------- the claims
SUMS, ELEVEN, RIGHT17 = "abou-simbel-left-sums", "abou-simbel-left-eleven", "abou-simbel-right-17"
LEVELS, LINE = "akhet-aton-left-levels", "akhet-aton-right-line"
DICE, REROLL, RUN, WHAT_IF = (
    "louqsor-left-dice",
    "louqsor-reroll",
    "louqsor-right-run",
    "louqsor-what-if",
)


def _a_turn_bonus(market: str, reserve: int, paid: int) -> bool:
    state = position("a-turn")
    m = R.MARKETS.index(market)
    assert state.reserve[m] == reserve, state.reserve[m]
    st = state.visible_stall(m)
    deben_square = next(sq.index for sq in st.squares if sq.symbol == "D")
    assert not state.mask[m], "the stall is empty: a first servant"
    return _gain("a-turn", "red", f"place {st.name}#{deben_square}") == paid


def _bottom_level() -> bool:
    st = stall(LEVELS, "akhet_aton")
    bottom = max(st.groups, key=lambda g: st.squares[g[0]].row)
    assert {st.squares[i].value for i in bottom} == {6, 7, 8, 10}
    assert st.squares[index(st, "the 10")].symbol == "X", "the 10 carries the extra card"
    state = position(LEVELS)
    assert not any(state.mask[R.AKHET_ATON] >> i & 1 for i in bottom), "the bottom level is empty"
    for group in st.groups:
        if group != bottom:
            assert any(state.mask[R.AKHET_ATON] >> i & 1 for i in group), group
    return _closing_values(LEVELS, "akhet_aton") == {6, 7, 8, 10}


def _akhet_line(have: tuple[int, int], need: int) -> bool:
    assert set(have) <= _occupied_values(LINE, "akhet_aton")
    assert _line(LINE, (*have, need))
    return not is_open(LINE, "akhet_aton", place(LINE, "akhet_aton", f"the {need}"))


def _resolution_values(name: str, market: str, *steps: str) -> list[tuple[int, int]]:
    """(value, column) of each bid in the order the market settles them (R3.9)."""
    st = R.STALLS[_stall_id(name, market, *steps)]
    state = position(name, *steps)
    m = R.MARKETS.index(market)
    order = [i for i in R.RESOLUTION_ORDER[st.id] if state.mask[m] >> i & 1]
    return [(st.squares[i].value, st.squares[i].col) for i in order]


def _blue_not_promoted() -> bool:
    """After Red, who cannot pay, throws away a gift (R6.3), Blue settles her 5 as any bidder:
    one card for her bid or half the reserve, not the highest bidder's choice (R6.1, R6.4)."""
    name = "cannot-pay"
    st = stall(name, "abou_simbel")
    state = position(name)
    assert state.colours[state.owners[R.ABOU_SIMBEL][index(st, "the 5")]] == "blue"
    closed = position(name, *_moves(name))
    assert closed.colours[closed.decider] == "red"
    discard = next(closed.option_text(o) for o in closed.legal)
    assert discard.startswith("discard"), discard
    after = position(name, *_moves(name), discard)
    assert after.colours[after.decider] == "blue"
    options = {after.option_text(o).split()[0] for o in after.legal}
    return options == {"buy", "half"}


def _on_board(state, colour: str) -> int:
    s = seat(state, colour)
    return sum(row.count(s) for row in state.owners)


def _stall_colours(name: str, market: str, *extra: str) -> tuple[int, set[str]]:
    """(servants, colours) on ``market``'s stall, with ``extra`` colours' servants added."""
    state = position(name)
    owners = [o for o in state.owners[R.MARKETS.index(market)] if o >= 0]
    colours = {state.colours[o] for o in owners} | set(extra)
    return len(owners) + len(extra), colours


def _two_colours_third_servant() -> bool:
    name = "gizeh-right-two-colours"
    assert R.COLOURS_TO_CLOSE == 3 and R.SERVANTS_TO_CLOSE == 4
    assert _stall_colours(name, "gizeh") == (2, {"red", "blue"})
    assert _stall_colours(name, "gizeh", "red") == (3, {"red", "blue"})
    step = _moves(name)[0]
    assert position(name).colours[position(name).turn_player] == "red"
    return is_open(name, "gizeh", step)


def _fourth_closes() -> bool:
    """After Red's third servant, the next one closes Gizeh whatever its colour (R3.2)."""
    name = "gizeh-right-two-colours"
    after = position(name, *_moves(name))
    st = after.visible_stall(R.GIZEH)
    empty = [i for i in range(len(st.squares)) if not after.mask[R.GIZEH] >> i & 1]
    assert len(empty) > 1, "several squares to try"
    return all(not is_open(name, "gizeh", *_moves(name), f"place {st.name}#{i}") for i in empty)


def _colours_third_arrives() -> bool:
    name = "gizeh-right-colours"
    assert _stall_colours(name, "gizeh") == (2, {"red", "blue"})
    empty = stall_status(position(name), "gizeh").empty
    return all(not is_open(name, "gizeh", _on(name, "gizeh", i)) for i in empty)


def _chief_three_cards() -> bool:
    state = position("chief")
    cards = [c for c in state.cards[R.GIZEH] if c >= 0]
    assert len(cards) == 3, cards
    return state.seal_on_upper[R.GIZEH] and R.KIND_TYPE[state.cards[R.GIZEH][0]] == R.GOLD


def _step_by_step_order() -> bool:
    name = "closing-step-by-step"
    state = position(name, *_moves(name))
    green = seat(state, "green")
    first = state.res_queue[state.res_pos] if state.res_market == R.ABOU_SIMBEL else None
    st = stall(name, "abou_simbel")
    assert first == index(st, "the 5"), first
    assert state.owners[R.ABOU_SIMBEL][first] == green
    order = _resolution_values(name, "abou_simbel", *_moves(name))
    values = [v for v, _ in order]
    assert values == [5, 2, 2, 1, 1], values
    assert order[1][1] > order[2][1] and order[3][1] > order[4][1], "right before left"
    return True


def _first_game_deben() -> bool:
    state = position("first-game")
    return [state.deben[seat(state, c)] for c in ("green", "red", "blue", "black")] == [8, 9, 9, 10]


def _first_game_reserves() -> bool:
    state = position("first-game")
    return all(r == 1 for r in state.reserve)


def _chain(name: str, values: set[int]) -> bool:
    st = stall(name, "gizeh")
    squares = {index(st, f"the {v}") for v in values}
    seen, todo = set(), [min(squares)]
    while todo:
        i = todo.pop()
        seen.add(i)
        todo += [j for g in st.groups if i in g for j in g if j in squares and j not in seen]
    return seen == squares


def _touching_closes() -> bool:
    name = "gizeh-left-connected"
    st = stall(name, "gizeh")
    chain = stall_status(position(name), "gizeh").occupied
    touching = {
        j for g in st.groups for i in g for j in g if i in chain and j not in chain and j != i
    }
    assert touching, "no square touches the chain"
    return {st.squares[j].value for j in touching} == _closing_values(name, "gizeh")


def _high_bids_touch() -> bool:
    name = "gizeh-left-high-bids"
    st = stall(name, "gizeh")
    four, five, six, seven = (index(st, f"the {v}") for v in (4, 5, 6, 7))
    edges = {frozenset(g) for g in st.groups}
    assert all(frozenset((five, x)) in edges for x in (four, six, seven))
    assert not any(frozenset(p) in edges for p in ((four, six), (four, seven), (six, seven))), (
        "they touch one another"
    )
    return not is_open(name, "gizeh", place(name, "gizeh", "the 5"))


def _merchant() -> bool:
    name = "merchant"
    moves = _moves(name)
    assert moves[1:3] == ("exchange green:statuette", "give harp"), moves
    assert _gain(name, "red", "give harp", before=moves[:2]) == -2
    assert _gain(name, "green", "give harp", before=moves[:2]) == 2
    return _max_value("statuette") - _max_value("harp") == 2


def _merchant_second_swap_free() -> bool:
    name = "merchant"
    moves = _moves(name)
    assert moves[3:] == ("exchange blue:statuette", "give necklace"), moves
    assert _max_value("necklace") > _max_value("statuette")
    return _gain(name, "red", *moves[3:], before=moves[:3]) == 0


def _mid_game_black() -> bool:
    name = "mid-game"
    st = stall(name, "akhet_aton")
    state = position(name)
    ten = index(st, "the 10")
    assert state.colours[state.owners[R.AKHET_ATON][ten]] == "black"
    occupied = stall_status(state, "akhet_aton").occupied
    assert max(st.squares[i].value for i in occupied) == 10, "her 10 is the highest bid"
    assert not is_open(name, "akhet_aton", place(name, "akhet_aton", "the 0"))
    return state.deben[seat(state, "black")] == 8


def _royal_before() -> bool:
    state = position("royal-servant")
    return _holders(state, "chair") == 3 and _gift_value(state, "chair") == 5


def _royal_each_scores() -> bool:
    name = "royal-servant"
    state = position(name)
    holders = [c for c in state.colours if state.type_count(seat(state, c), R.CHAIR)]
    assert len(holders) == 3, holders
    for c in holders:
        assert _prestige_gain(name, c, *_moves(name)) == 5, c
    return True


def _royal_after() -> bool:
    state = _played("royal-servant")
    green = seat(state, "green")
    assert _holders(state, "chair") == 1 and state.type_count(green, R.CHAIR) == 4
    return _gift_value(state, "chair") == 9 and state.gift_value(R.CHAIR, 3) == 5


def _scribe() -> bool:
    name = "scribe"
    state = position(name)
    blue = seat(state, "blue")
    assert state.type_count(blue, R.SENET) == 4
    assert _holders(state, "senet") == 2 and _gift_value(state, "senet") == 5
    assert R.SCRIBE_BONUS[R.C_SCRIBE2] == 2
    return _prestige_gain(name, "blue", *_moves(name)) == 4 * (5 + 2) == 28


def _scribe_after() -> bool:
    state = _played("scribe")
    assert state.type_count(seat(state, "blue"), R.SENET) == 0
    assert state.type_count(seat(state, "black"), R.SENET) > 0
    return _holders(state, "senet") == 1 and _gift_value(state, "senet") == 6


def _ending(name: str, deben: dict[str, int], won: set[str]) -> bool:
    state = _played(name)
    assert state.is_over, "the game has not ended"
    for colour, amount in deben.items():
        assert state.deben[seat(state, colour)] == amount, (colour, state.deben)
    points = totals(state)
    assert points[seat(state, "green")] == points[seat(state, "blue")], points
    return {state.colours[s] for s in winners(state)} == won


def _single_card() -> bool:
    name = "single-card"
    st = stall(name, "louqsor")
    state = position(name)
    blue_three = index(st, "the 3")
    assert state.colours[state.owners[R.LOUQSOR][blue_three]] == "blue"
    occupied = _occupied_values(name, "louqsor") | {2}
    assert max(occupied) == 3, occupied
    return st.squares[blue_three].symbol == "S"


def _single_card_dice() -> bool:
    name = "single-card"
    after = position(name, place(name, "louqsor", "the 2"))
    assert sorted(after.last_roll) == [2, 3], after.last_roll
    assert set(after.last_roll) <= _occupied_values(name, "louqsor") | {2}
    return not stall_status(after, "louqsor").is_open


def _treasurer() -> bool:
    name = "treasurer"
    state = position(name)
    assert state.reserve[R.ABOU_SIMBEL] == 6
    assert R.TREASURER_MAX == 4
    chosen = position(name, *_moves(name)[:2])
    legal = {chosen.option_text(o) for o in chosen.legal}
    return "treasurer 4" in legal and "treasurer 5" not in legal


def _vizier() -> bool:
    name = "vizier"
    state = position(name)
    assert _kinds_held(state, "black") == 4
    assert R.VIZIER_POINTS_PER_TYPE == 2
    after = _played(name)
    assert after.gifts[seat(after, "black")] == state.gifts[seat(state, "black")], "she keeps"
    return _prestige_gain(name, "black", *_moves(name)) == 8


def _gift_values_change() -> bool:
    name = "gift-values-change"
    state = position(name)
    red = seat(state, "red")
    assert _holders(state, "necklace") == 1 and state.type_count(red, R.NECKLACE) == 2
    return _gift_value(state, "necklace") == _max_value("necklace")


def _reroll_story() -> bool:
    state = position(REROLL)
    st = stall(REROLL, "louqsor")
    green = seat(state, "green")
    assert state.owners[R.LOUQSOR][index(st, "the 3")] == green
    assert state.holder == green and state.last_roll == (5, 3), (state.holder, state.last_roll)
    assert state.turn_no - state.holder_turn == 4, (state.turn_no, state.holder_turn)
    return index(st, "the 5") in stall_status(state, "louqsor").empty


def _run() -> bool:
    st = stall(RUN, "louqsor")
    state = position(RUN)
    mask = state.mask[R.LOUQSOR] | 1 << index(st, "the 5")
    assert R.longest_run(st, mask) == 3
    assert {3, 4} <= _occupied_values(RUN, "louqsor")
    closing = {o.value for o in roll_outcomes(st.id, mask) if o.closes}
    assert closing == {(1,), (2,), (3,)}, closing
    return closing_probability(st.id, mask) == Fraction(1, 2)


def _what_if_fixed() -> bool:
    after = position(WHAT_IF, "roll 3 2", place(WHAT_IF, "louqsor", "the 3"))
    return after.last_roll == (3, 2)


CLAIMS: dict[str, list[Claim]] = {
    "chief": [
        Claim("with three unsold cards", _chief_three_cards),
    ],
    "gizeh-right-two-colours": [
        Claim(
            "A second red servant makes three\nservants of two colours: neither three colours nor "
            "four servants, so the market stays\nopen",
            _two_colours_third_servant,
        ),
        Claim("The next servant closes it whatever its colour: it is the fourth.", _fourth_closes),
    ],
    "gizeh-right-colours": [
        Claim(
            "Two colours stand on the stall. Whatever square Green takes, a third colour arrives\n"
            "and the market closes.",
            _colours_third_arrives,
        ),
    ],
    "no-servant-left": [
        Claim(
            "All four of Black's servants are on the board",
            lambda: (
                position("no-servant-left").hand[seat(position("no-servant-left"), "black")] == 0
                and _on_board(position("no-servant-left"), "black") == R.SERVANTS_PER_PLAYER == 4
            ),
        ),
    ],
    "high-priest": [
        Claim(
            "Green has three servants on the board and one in hand.",
            lambda: (
                _on_board(position("high-priest"), "green") == 3
                and position("high-priest").hand[seat(position("high-priest"), "green")] == 1
            ),
        ),
    ],
    "a-turn": [
        Claim(
            "Red holds two Royal Seals",
            lambda: position("a-turn").seals[seat(position("a-turn"), "red")] == 2,
        ),
        Claim(
            "Akhet-Aton's\nreserve has 2 Deben, so a first servant on its Deben square collects both",
            lambda: _a_turn_bonus("akhet_aton", 2, 2),
        ),
        Claim(
            "Gizeh's has\nonly 1, so the same placement there pays 1",
            lambda: _a_turn_bonus("gizeh", 1, 1),
        ),
    ],
    ELEVEN: [
        Claim("The bids add up to 10.", lambda: bid_sum(ELEVEN, "abou_simbel") == 10),
        Claim(
            "A 1 makes exactly 11 and closes the market",
            lambda: _every(ELEVEN, "abou_simbel", 1, 11, True),
        ),
        Claim(
            "the 2 makes 12 and the 5\nmakes 15, neither of them a closing total",
            lambda: (
                _every(ELEVEN, "abou_simbel", 2, 12, False)
                and _every(ELEVEN, "abou_simbel", 5, 15, False)
            ),
        ),
        Claim("the 7 makes 17 and closes it", lambda: _every(ELEVEN, "abou_simbel", 7, 17, True)),
    ],
    SUMS: [
        Claim("The bids add up to 7.", lambda: bid_sum(SUMS, "abou_simbel") == 7),
        Claim(
            "A 7 makes exactly 14 and closes the market",
            lambda: _every(SUMS, "abou_simbel", 7, 14, True),
        ),
        Claim(
            "the 8 makes 15, which\nis none of the closing totals, so the market stays open",
            lambda: _every(SUMS, "abou_simbel", 8, 15, False),
        ),
        Claim(
            "The Deben square (the first 2)\nmakes 9: still open",
            lambda: (
                stall(SUMS, "abou_simbel")
                .squares[index(stall(SUMS, "abou_simbel"), "the Deben 2")]
                .symbol
                == "D"
                and index(stall(SUMS, "abou_simbel"), "the Deben 2")
                < index(stall(SUMS, "abou_simbel"), "the plain 2")
                and _total_with(
                    SUMS, "abou_simbel", index(stall(SUMS, "abou_simbel"), "the Deben 2")
                )
                == 9
                and is_open(SUMS, "abou_simbel", place(SUMS, "abou_simbel", "the Deben 2"))
            ),
        ),
    ],
    RIGHT17: [
        Claim("With 8 on the stall", lambda: bid_sum(RIGHT17, "abou_simbel") == 8),
        Claim(
            "only the 12 (which also carries the extra card) reaches 17 in one\nstep",
            lambda: (
                _closing_values(RIGHT17, "abou_simbel") == {12}
                and _total_with(
                    RIGHT17, "abou_simbel", index(stall(RIGHT17, "abou_simbel"), "the 12")
                )
                >= 17
                and stall(RIGHT17, "abou_simbel")
                .squares[index(stall(RIGHT17, "abou_simbel"), "the 12")]
                .symbol
                == "X"
            ),
        ),
        Claim(
            "the 7 makes 15 and leaves it open",
            lambda: _every(RIGHT17, "abou_simbel", 7, 15, False),
        ),
    ],
    "akhenaton-appears": [
        Claim(
            "Blue, the highest\nbidder, pays 6 for the only card",
            lambda: (
                max(_occupied_values("akhenaton-appears", "gizeh")) == 6
                and _paid_for("akhenaton-appears", "blue", 6, "gold")
            ),
        ),
    ],
    LEVELS: [
        Claim(
            "The bottom level (6, 7, 8 and the 10 with the extra\ncard) is still empty",
            _bottom_level,
        ),
    ],
    LINE: [
        Claim(
            "The 0 and 3 need the 6 to finish the left\ncolumn",
            lambda: _akhet_line((0, 3), 6),
        ),
        Claim("the 3 and 4 need the 5 to finish the middle row", lambda: _akhet_line((3, 4), 5)),
        Claim("the 0 and 4 need the 8 to finish\nthe diagonal", lambda: _akhet_line((0, 4), 8)),
        Claim(
            "Any of the three closes the market.",
            lambda: _closing_values(LINE, "akhet_aton") == {5, 6, 8},
        ),
    ],
    "cannot-pay": [
        Claim(
            "Red places on the 7 and the bids reach 14: the market closes.",
            lambda: _every("cannot-pay", "abou_simbel", 7, 14, True),
        ),
        Claim(
            "Red bid highest but holds\nonly 5 Deben, so Red pays nothing",
            lambda: (
                max(_occupied_values("cannot-pay", "abou_simbel")) == 5
                and _moves("cannot-pay")[0] == place("cannot-pay", "abou_simbel", "the 7")
                and deben("cannot-pay", "red") == 5
                and _gain("cannot-pay", "red", *_moves("cannot-pay")) == 0
                and sum(position("cannot-pay", *_moves("cannot-pay")).gifts[1]) > 0
            ),
        ),
        Claim(
            "Blue's 5 is\nnot promoted to highest bid: Blue buys one card or takes half the reserve",
            _blue_not_promoted,
        ),
    ],
    "closing-step-by-step": [
        Claim(
            "The bids on Abou Simbel add up to 6.",
            lambda: bid_sum("closing-step-by-step", "abou_simbel") == 6,
        ),
        Claim(
            "Green's servant on the 5 makes exactly 11 and the\nmarket closes",
            lambda: _every("closing-step-by-step", "abou_simbel", 5, 11, True),
        ),
        Claim(
            "Green settles first with the highest bid; then the two 2s, the\nright-hand one "
            "first, then the two 1s, again right before left",
            _step_by_step_order,
        ),
    ],
    "extra-card": [
        Claim(
            "Green's servant on the 12 brings the bids to 17 or more and Abou Simbel closes",
            lambda: (
                _total_with(
                    "extra-card", "abou_simbel", index(stall("extra-card", "abou_simbel"), "the 12")
                )
                >= 17
                and not is_open(
                    "extra-card", "abou_simbel", place("extra-card", "abou_simbel", "the 12")
                )
            ),
        ),
        Claim(
            "The 12 carries the extra-card symbol",
            lambda: (
                stall("extra-card", "abou_simbel")
                .squares[index(stall("extra-card", "abou_simbel"), "the 12")]
                .symbol
                == "X"
            ),
        ),
    ],
    "first-game": [
        Claim(
            "Green plays first and starts with 8 Deben; Red and Blue have 9, Black 10",
            lambda: position("first-game").turn_player == 0 and _first_game_deben(),
        ),
        Claim("Each reserve holds 1 Deben", _first_game_reserves),
        Claim(
            "earns two bonuses but is paid only one",
            lambda: _gain("first-game", "green", place("first-game", "gizeh", "the 4")) == 1,
        ),
    ],
    "gift-values-change": [
        Claim("each is worth the most a necklace can be worth", _gift_values_change),
        Claim(
            "Green's servant on the 7 brings Abou Simbel's bids to exactly 14 and\ncloses it",
            lambda: _every("gift-values-change", "abou_simbel", 7, 14, True),
        ),
    ],
    "gizeh-left-connected": [
        Claim(
            "Red, Blue and Black already hold 1, 3 and 5, a chain of three.",
            lambda: (
                _occupied_values("gizeh-left-connected", "gizeh") == {1, 3, 5}
                and _chain("gizeh-left-connected", {1, 3, 5})
            ),
        ),
        Claim("Any empty square that\ntouches this chain", _touching_closes),
        Claim(
            "4 is the\nrulebook's own example (1-3-4-5)",
            lambda: (
                _chain("gizeh-left-connected", {1, 3, 4, 5})
                and 4 in _closing_values("gizeh-left-connected", "gizeh")
            ),
        ),
    ],
    "gizeh-left-high-bids": [
        Claim(
            "The bids on Gizeh already add up to 17, yet the market is open",
            lambda: (
                bid_sum("gizeh-left-high-bids", "gizeh") == 17
                and is_open("gizeh-left-high-bids", "gizeh")
            ),
        ),
        Claim(
            "The 4, the 6 and the 7 all touch the 5 and not one another: a servant\non the 5 "
            "joins them into a group of four and closes the market",
            _high_bids_touch,
        ),
        Claim(
            "a servant on the 1 makes\nthe total 18 and closes nothing",
            lambda: _every("gizeh-left-high-bids", "gizeh", 1, 18, False),
        ),
    ],
    "last-market": [
        Claim(
            "Green's servant on\nthe 8 completes the diagonal 0-4-8 and closes it",
            lambda: (
                {0, 4} <= _occupied_values("last-market", "akhet_aton")
                and _line("last-market", (0, 4, 8))
                and not is_open("last-market", "akhet_aton", _moves("last-market")[0])
            ),
        ),
        Claim(
            "Green pays 8 for the sealed\nstatuette",
            lambda: (
                position("last-market").seal_on_upper[R.AKHET_ATON]
                and _paid_for("last-market", "green", 8, "statuette")
            ),
        ),
    ],
    DICE: [
        Claim(
            "Green places on the 3. Now 2, 3 and 7 are taken, so the rolls 2-2, 2-3, 3-2 and "
            "3-3\nclose the market: 4 chances in 36.",
            lambda: _louqsor(
                DICE,
                "the 3",
                p=Fraction(4, 36),
                values={2, 3, 7},
                rolls={(2, 2), (2, 3), (3, 2), (3, 3)},
            ),
        ),
        Claim(
            "The first roll here is fixed at 3 and 2 to show a\nclosing",
            lambda: _holder_rolled(DICE, "green", (3, 2), False),
        ),
    ],
    REROLL: [
        Claim(
            "Green put a servant on Louqsor's 3 and rolled 5 and 3: the 5 is empty",
            _reroll_story,
        ),
        Claim(
            "With 2, 3\nand 7 taken, 4 rolls in 36 close the market.",
            lambda: (
                _occupied_values(REROLL, "louqsor") == {2, 3, 7}
                and closing_probability(
                    _stall_id(REROLL, "louqsor"), position(REROLL).mask[R.LOUQSOR]
                )
                == Fraction(4, 36)
            ),
        ),
    ],
    RUN: [
        Claim(
            "Black places on the 5. The run 3-4-5 is three long, so a die of 3 or less closes "
            "the\nmarket: a one-in-two chance.",
            _run,
        ),
        Claim("The die is fixed at 4 here", lambda: _holder_rolled(RUN, "black", (4,), True)),
    ],
    WHAT_IF: [
        Claim("('roll 3 2', R4.4) to try one outcome", _what_if_fixed),
        Claim(
            "After Green's servant on the 3, the occupied values are 2, 3 and 7: 4 rolls in\n36 "
            "close the market.",
            lambda: _louqsor(WHAT_IF, "the 3", p=Fraction(4, 36), values={2, 3, 7}),
        ),
    ],
    "markets-bonuses": [
        Claim(
            "Abou Simbel is empty and its reserve holds 3 Deben.",
            lambda: (
                position("markets-bonuses").reserve[R.ABOU_SIMBEL] == 3
                and not position("markets-bonuses").mask[R.ABOU_SIMBEL]
            ),
        ),
        Claim(
            "The first servant to arrive earns 1\nDeben",
            lambda: (
                _gain("markets-bonuses", "green", place("markets-bonuses", "abou_simbel", "the 5"))
                == 1
            ),
        ),
        Claim(
            "the 2 with the Deben symbol earns 1 more: a servant there takes 2 from the\nreserve",
            lambda: (
                _gain(
                    "markets-bonuses",
                    "green",
                    place("markets-bonuses", "abou_simbel", "the Deben 2"),
                )
                == 2
            ),
        ),
    ],
    "merchant": [
        Claim(
            "A statuette is worth\nat most 11, her harp at most 9",
            lambda: _max_value("statuette") == 11 and _max_value("harp") == 9,
        ),
        Claim("costs her the\ndifference, 2 Deben, paid to Green", _merchant),
        Claim(
            "Her necklace (at most 14) is worth more than Blue's\nstatuette, so that swap costs "
            "nothing",
            lambda: _max_value("necklace") == 14 and _merchant_second_swap_free(),
        ),
    ],
    "mid-game": [
        Claim("Turn 25 of a game", lambda: position("mid-game").turn_no == 25),
        Claim(
            "Akhet-Aton's top level is the only one still empty:\na servant on the 0 closes it",
            lambda: _closing_values("mid-game", "akhet_aton") == {0},
        ),
        Claim(
            "her\nown 10, but she has only 8 Deben",
            _mid_game_black,
        ),
        Claim(
            "On Abou\nSimbel the bids add up to 10; a 7 takes them to 17 and the 12 to 22: "
            "either closes it",
            lambda: (
                bid_sum("mid-game", "abou_simbel") == 10
                and _every("mid-game", "abou_simbel", 7, 17, True)
                and _every("mid-game", "abou_simbel", 12, 22, True)
                and _closing_values("mid-game", "abou_simbel") == {7, 12}
            ),
        ),
        Claim(
            "Louqsor's reserve has grown to 12 Deben",
            lambda: position("mid-game").reserve[R.LOUQSOR] == 12,
        ),
        Claim(
            "Every player holds a statuette, so each is worth only 6",
            lambda: (
                _holders(position("mid-game"), "statuette") == 4
                and _gift_value(position("mid-game"), "statuette") == 6
            ),
        ),
    ],
    "royal-servant": [
        Claim("Three players hold chairs, so a chair is worth 5 right now.", _royal_before),
        Claim("Each of them discards one\nchair and scores 5.", _royal_each_scores),
        Claim(
            "only Green holds chairs: her four are now worth 9 each\nat the end of the game, "
            "instead of 5",
            _royal_after,
        ),
    ],
    "scribe": [
        Claim(
            "Blue counts four senets (the double counts twice). Two players hold senets, so a "
            "senet\nis worth 5; the Scribe +2 adds 2 to each: 4 x 7 = 28.",
            _scribe,
        ),
        Claim("as the only holder left each is now worth 6", _scribe_after),
    ],
    "shared-win": [
        Claim(
            "Blue has 4 Deben left, as many as Green",
            lambda: _ending("shared-win", {"blue": 4, "green": 4}, {"green", "blue"}),
        ),
    ],
    "single-card": [
        Claim(
            "Green places on Louqsor's 2; the dice are fixed at 2 and 3 for the lesson, both\n"
            "occupied values, so Louqsor closes",
            _single_card_dice,
        ),
        Claim("Blue's 3 is the highest bid, but it stands\non a single-card square", _single_card),
    ],
    "tie-break": [
        Claim(
            "Green's servant on the 8 completes the diagonal",
            lambda: (
                _line("tie-break", (0, 4, 8))
                and not is_open(
                    "tie-break", "akhet_aton", place("tie-break", "akhet_aton", "the 8")
                )
            ),
        ),
        Claim(
            "Blue, with 6 against Green's 4",
            lambda: _ending("tie-break", {"blue": 6, "green": 4}, {"blue"}),
        ),
    ],
    "treasurer": [
        Claim(
            "Abou Simbel's reserve has 6 Deben. The Treasurer takes at most 4 of them", _treasurer
        ),
    ],
    "vizier": [
        Claim("gives 4 x 2 = 8 prestige, and\nshe keeps every card", _vizier),
    ],
}
