"""The greedy look-ahead's shortcuts (#15, "look-ahead ten times faster"), each pinned against the
plain computation it replaces: the dice holder's re-roll scored in place (R4.2), a character's
decision searched only where a deeper search can change its value (R10), the markets a position
did not change kept at the searched position's value, the highest bidder's card set (R6.2) and
the settlement estimate with the same values as their plain definitions. ``greedy-exact`` keeps
the search before #15 (``test_greedy_golden.py`` holds its choices)."""

from __future__ import annotations

import itertools
import random

import pytest

from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.state import P_PLACE, fast_copy, new_game
from nefertiti_core.play import bots as B


def _positions(pick, seeds=(3, 4, 5, 6), players=4, limit=40):
    """(position, option) pairs of seeded greedy games that ``pick(state)`` chooses."""
    out = []
    for seed in seeds:
        state = new_game(players, seed)
        bots = [B.GreedyBot(seed=seed + i) for i in range(players)]
        while not state.is_over and len(out) < limit:
            out += [(state.copy(), o) for o in pick(state)]
            state.apply(bots[state.decider].choose(state))
    return out


def _closes_nothing(state, o):
    """A placement on a shape or sum stall (R3.1, R3.3-R3.6) that does not close it."""
    stall = O.SQUARE_STALL[o]
    after = state.mask[stall >> 1] | 1 << O.SQUARE_INDEX[o]
    return R.CLOSED_BY[stall] == R.BY_SQUARES and not R.stall_closes(stall, after)


def _rerolls(state):
    """The last placement of a turn (closing nothing) whose player holds Louqsor's dice and may
    roll again."""
    if (
        state.phase in ("turn", "place")
        and state.placements_left == 1
        and state.holder == state.decider
        and state.holder_turn < state.turn_no
        and state.status[R.LOUQSOR] == B.OPEN
    ):
        return [
            o
            for o in state.legal
            if O.OPTION_KIND[o] == O.PLACE
            and B.chances(state, o) is B.NO_ROLL
            and _closes_nothing(state, o)
        ]
    return []


def _placed(search, base, o):
    """The position's estimates after placement ``o``, by hand: the other markets as before the
    placement (the placer's paid Deben at their worth), the market placed in evaluated again."""
    ev = search.evaluate
    ctx = ev.context(base)
    m = O.SQUARE_STALL[o] >> 1
    i = O.SQUARE_INDEX[o]
    copy = base.copy()
    paid = min(
        (copy.mask[m] == 0) + (R.STALLS[O.SQUARE_STALL[o]].squares[i].symbol == R.DEBEN),
        copy.reserve[m],
    )
    copy.owners[m][i] = base.decider
    copy.mask[m] |= 1 << i
    copy.reserve[m] -= paid
    copy.deben[base.decider] += paid
    est = ev.sums(ctx)[m][:]
    est[base.decider] += paid * ev.deben
    weight = ev.closing_weight(copy, m)
    gains = ev.market_gains(copy, m, ctx[0][1], ctx[0][0], None)
    return [e + weight * g for e, g in zip(est, gains, strict=True)], ctx


def test_r4_2_a_reroll_after_the_last_placement_is_scored_in_place():
    """Keeping the dice leaves the position as placed; a re-roll that closes Louqsor settles its
    bids at weight 1 (its closing chance counted from the dice, R3.7, R3.8); the better of the
    two is the placement's value. The search before #15 played it on a copy."""
    found = _positions(_rerolls)
    assert len(found) >= 20
    closing = 0
    for state, o in found:
        base = B.public_copy(state, random.Random(1))
        before = base.key()
        fast = B.Search(B.Evaluator(base), state.decider, 2)
        exact = B.Search(B.Evaluator(base), state.decider, 2, exact=True)
        assert exact.placement(base, o, 2, None) is None
        value = fast.placement(base, o, 2, None)
        assert value is not None and base.key() == before
        est, ctx = _placed(fast, base, o)
        ev = fast.evaluate
        keep = ev.relative(est, state.decider)
        weight, gains = ctx[2][R.LOUQSOR]
        roll = 0.0
        for p, _, closes in B.chances(base, O.REROLL_ID):
            if closes:
                closed = [e + (1.0 - weight) * g for e, g in zip(est, gains, strict=True)]
                roll += p * ev.relative(closed, state.decider)
                closing += 1
            else:
                roll += p * keep
        assert value == max(keep, roll)
    assert closing  # rolls that can close were among them


def _characters():
    """Positions right after a recruit (R5.1): the character's first decision. A character
    with no decision of its own leaves the recruiter at its placement (R5.2): such a position is
    no character's decision (``Search.value`` scores a placement to come by its estimate) and is
    left out."""
    out = []
    for seed in (3, 4, 5, 6, 7):
        state = new_game(4, seed)
        bots = [B.GreedyBot(seed=seed + i) for i in range(4)]
        while not state.is_over:
            if state.phase == "turn":
                for o in state.legal:
                    if O.OPTION_KIND[o] == O.RECRUIT:
                        copy = state.copy()
                        copy.apply(o)
                        if (
                            copy.decider == state.decider
                            and copy.phase != P_PLACE
                            and len(copy.legal) > 1
                        ):
                            out.append((state.copy(), copy))
            state.apply(bots[state.decider].choose(state))
    return out


def test_r10_a_characters_decision_searches_only_what_a_deeper_search_changes():
    """Inside the look-ahead, a character's option whose one step ends the decider's decisions
    (``settled``) is worth the same at any depth, so it is not searched again; of the others
    only the best by one step is searched to the end (``_BEAM``)."""
    found = _characters()
    kinds = {O.OPTION_KIND[c.legal[0]] for _, c in found}
    assert {O.ROYAL, O.EXCHANGE_TAKE} <= kinds  # Royal Servant's and Merchant's decisions
    settled = 0
    for state, position in found:
        me = state.decider
        search = B.Search(B.Evaluator(state), me, 2)
        search.place_gain = 1.5
        for o in position.legal:
            copy = fast_copy(position, position.rng)
            copy.apply_unchecked(o)
            if search.settled(copy):
                settled += 1
                assert search.value(copy, 0) == search.value(copy, 2)
        # The decision's value by hand.
        best, unsettled = -float("inf"), {}
        for o in position.legal:
            copy = fast_copy(position, position.rng)
            copy.apply_unchecked(o)
            one = search.value(copy, 0)
            if search.settled(copy):
                best = max(best, one)
            else:
                unsettled[o] = one
        if unsettled:
            top = max(unsettled, key=unsettled.get)
            best = max(best, search.option(position, top, 2))
        assert search.value(position, 2) == best
    assert settled > 20


def test_a_market_a_position_did_not_change_keeps_the_searched_positions_value():
    """``estimates(near=bids(...))``: a market whose bids, cards, seal and reserve are as in
    the searched position keeps that position's value; one that changed is evaluated again; the
    rest (prestige, Deben, seals, gifts) is always the position's own."""
    checked = changed = 0
    for state, position in _characters()[:30]:
        ev = B.Evaluator(state)
        near = ev.bids(state)
        assert ev.estimates(state, near) == ev.estimates(state)
        for o in position.legal:
            copy = fast_copy(position, position.rng)
            copy.apply_unchecked(o)
            if copy.phase != P_PLACE:
                continue
            by_hand = ev.seat_part(copy, ev.gifts_held(copy))
            for m in range(len(R.MARKETS)):
                if not copy.mask[m]:
                    continue
                own = (
                    copy.side[m],
                    copy.owners[m],
                    copy.cards[m],
                    copy.seal_on_upper[m],
                    copy.reserve[m],
                )
                if near[m] is not None and near[m][0] == own:
                    weight, gains = near[m][1]
                    checked += 1
                else:
                    weight, gains = ev.market(copy, m, ev.gifts_held(copy), tuple(copy.deben))
                    changed += 1
                by_hand = [e + weight * g for e, g in zip(by_hand, gains, strict=True)]
            assert ev.estimates(copy, near) == by_hand
    assert checked > 50 and changed  # the Chief's or the Treasurer's market changed


def test_placements_values_kept_between_decisions_are_the_values_computed_again(monkeypatch):
    """``Evaluator.placings``: the market values after each placement, kept in a bot's memory
    from one decision to the next (an mcts search asks its opponent model about sibling
    positions that differ in one market), give each option the value a bot without that memory
    computes; and they are used (fewer settlement estimates are made)."""
    calls = [0]
    market_gains = B.Evaluator.market_gains

    def counted(self, *args):
        calls[0] += 1
        return market_gains(self, *args)

    monkeypatch.setattr(B.Evaluator, "market_gains", counted)
    compared = with_memory = without = 0
    for seed in (3, 4, 5, 6, 7):
        state = new_game(4, seed)
        players = [B.GreedyBot(seed=seed + i) for i in range(4)]
        for _ in range(12 + 3 * seed):
            state.apply(players[state.decider].choose(state))
        model = B.GreedyBot(seed=seed)  # one memory for the siblings, as in an mcts search
        model.memory = {}  # its own, not the thread's (shared by default)
        for o in [o for o in state.legal if O.OPTION_KIND[o] == O.PLACE][:8]:
            sibling = state.copy()
            sibling.apply(o)
            if len(sibling.legal) < 2:
                continue
            remembering, forgetting = B.GreedyBot(seed=o), B.GreedyBot(seed=o)
            remembering.memory, forgetting.memory = model.memory, {}
            before = calls[0]
            kept = remembering.option_values(sibling.copy())
            with_memory += calls[0] - before
            before = calls[0]
            assert kept == forgetting.option_values(sibling.copy()), (seed, o)
            without += calls[0] - before
            compared += 1
    assert compared >= 12, compared
    assert with_memory < 0.8 * without, (with_memory, without)


def _edited(state):
    """Copies of a placing position each with one input of a market's settlement changed (a
    player's Deben or gifts, a market's reserve, its cards, the seal on its upper card, R6)."""
    out = []
    for q in range(state.n):
        for deben in (0, state.deben[q] + 4):
            copy = state.copy()
            copy.deben[q] = deben
            out.append(copy)
        copy = state.copy()
        copy.gifts[q][q % R.NUM_KINDS] += 1
        out.append(copy)
    for m in range(len(R.MARKETS)):
        copy = state.copy()
        copy.reserve[m] += 3
        out.append(copy)
        if state.cards[m][0] >= 0:
            copy = state.copy()
            copy.seal_on_upper[m] = not copy.seal_on_upper[m]
            out.append(copy)
        if len({c for c in state.cards[m] if c >= 0}) > 1:
            copy = state.copy()
            copy.cards[m].reverse()
            out.append(copy)
    for copy in out:
        copy.refresh()
    return out


def test_placements_values_kept_are_told_apart_by_every_input_of_the_market():
    """``Evaluator.placings`` keys the values by every input of the market's settlement: a
    position that differs in one (Deben, gifts, reserve, cards, seal) gets its own values, the ones a
    bot without that memory computes."""
    differ = 0
    for state, _ in _positions(lambda s: [None] if s.phase in ("turn", "place") else [])[::3]:
        model = B.GreedyBot(seed=1)
        model.memory = {}  # its own, not the thread's (shared by default)
        plain = model.option_values(state.copy())
        for edited in _edited(state):
            remembering, forgetting = B.GreedyBot(seed=2), B.GreedyBot(seed=2)
            remembering.memory, forgetting.memory = model.memory, {}
            kept = remembering.option_values(edited.copy())
            assert kept == forgetting.option_values(edited.copy())
            differ += any(kept[o] != plain.get(o) for o in kept if O.OPTION_KIND[o] == O.PLACE)
    assert differ > 20, differ


def _best_take_plain(worth, symbol):
    """R6.2 as first written: the card sets the winning square allows, the best by worth."""
    lower = sorted((s for s in (1, 2, 3) if worth[s] > -1.0), key=lambda s: -worth[s])
    upper = worth[0] > -1.0
    if symbol == R.SINGLE:
        present = [s for s in range(R.MARKET_CARDS) if worth[s] > -1.0]
        return (max(present, key=worth.__getitem__),) if present else ()
    if symbol == R.EXTRA:
        sets = [tuple(lower)] if lower else []
        if upper:
            sets.append((0, *lower[:1]))
    else:
        sets = [tuple(lower[:2])] if lower else []
        if upper:
            sets.append((0,))
    if not sets:
        return ()
    return max(sets, key=lambda slots: sum(worth[s] for s in slots))


@pytest.mark.parametrize("symbol", [R.PLAIN, R.DEBEN, R.SINGLE, R.EXTRA])
def test_r6_2_the_highest_bidders_cards_as_the_plain_definition(symbol):
    """Every worth combination of the four slots (taken: -1), ties included."""
    values = (-1.0, 0.0, 0.5, 1.0, 2.0, 4.5)
    for worth in itertools.product(values, repeat=R.MARKET_CARDS):
        assert B.best_take(list(worth), symbol) == _best_take_plain(list(worth), symbol), worth


def test_the_bots_of_a_thread_share_its_memory_and_choose_as_bots_with_their_own():
    """``thread_memory``: the greedy bots of a game (every seat) keep their values in one memory
    per thread; every option value of their games is the one of bots each with a memory of
    its own, the shared memory holds the values, and another thread gets its own."""
    import threading

    decisions = 0
    for seed in (11, 12):
        shared, alone = new_game(4, seed), new_game(4, seed)
        sharing = [B.GreedyBot(seed=seed * 10 + i) for i in range(4)]
        separate = [B.GreedyBot(seed=seed * 10 + i) for i in range(4)]
        for bot in separate:
            bot.memory = {}
        while not shared.is_over:
            legal = shared.legal_options()
            if len(legal) > 1:
                assert sharing[shared.decider].option_values(shared) == separate[
                    alone.decider
                ].option_values(alone)
                decisions += 1
            option = sharing[shared.decider].choose(shared)
            assert option == separate[alone.decider].choose(alone)
            shared.apply(option)
            alone.apply(option)
        assert alone.is_over
    assert decisions > 100, decisions
    memory = B.thread_memory()
    assert memory and all(bot.memory is None for bot in sharing)
    assert any(len(kept[0]) for kept in memory.values())  # market values kept
    other = []
    thread = threading.Thread(target=lambda: other.append(B.thread_memory()))
    thread.start()
    thread.join()
    assert other[0] is not memory and other[0] == {}


@pytest.mark.parametrize("players", [3, 4])
def test_the_seat_sums_written_out_equal_their_plain_definitions(players):
    """``plus``, ``Evaluator.relative`` and ``Evaluator.seat_part`` are written out for speed,
    one way for 4 seats and another for 3: each gives, to the last bit, what the plain
    comprehension, ``max`` and ``sum`` give, on the estimates of seeded games' positions (and
    on ties and negative zeros)."""
    rng = random.Random(players)
    compared = 0
    for state, _ in _positions(lambda s: [None], seeds=(3, 4), players=players, limit=60):
        ev = B.Evaluator(state)
        gifts = ev.gifts_held(state)
        est = ev.seat_part(state, gifts)
        points = gifts[5]
        plain = [
            state.prestige[q] + state.deben[q] * ev.deben + state.seals[q] * ev.seal + points[q]
            for q in range(state.n)
        ]
        assert repr(est) == repr(plain)
        samples = [
            est,
            [0.0] * players,
            [-0.0] * players,
            [rng.choice([1.5, 1.5, -0.0, 2.0]) for _ in range(players)],
        ]
        for values in samples:
            gains = [rng.uniform(-3, 3) for _ in range(players)]
            for weight in (0.0, 0.45, 1.0, -0.7):
                summed = B.plus(values, weight, gains)
                assert repr(summed) == repr([e + weight * g for e, g in zip(values, gains)])  # noqa: B905
            for seat in range(players):
                others = [values[q] for q in range(players) if q != seat]
                expected = (
                    values[seat]
                    - ev.w.opponent_max * max(others)
                    - ev.w.opponent_mean * sum(others) / len(others)
                )
                assert repr(ev.relative(values, seat)) == repr(expected)
                compared += 1
    assert compared > 100, compared


def test_the_options_that_roll_are_the_louqsor_placements_and_the_reroll():
    """``chance.MAY_ROLL`` (what the look-ahead asks before ``roll_at``): exactly the placements on
    Louqsor's squares, either stall (R3.7, R3.8), and the dice holder's re-roll (R4.2); and
    ``roll_at`` says where the roll happens for each legal one on seeded positions."""
    from nefertiti_core.engine.chance import MAY_ROLL, roll_at

    expected = tuple(
        (O.OPTION_KIND[o] == O.PLACE and O.SQUARE_STALL[o] >> 1 == R.LOUQSOR) or o == O.REROLL_ID
        for o in range(O.NUM_OPTIONS)
    )
    assert MAY_ROLL == expected
    legal_rolls = 0
    for state, _ in _positions(lambda s: [None], seeds=(3,), limit=40):
        for o in range(O.NUM_OPTIONS):
            at = roll_at(state, o)
            assert (at is not None) == MAY_ROLL[o]
            if at is not None and o in state.legal:  # on the stall face up now
                assert at[0] >> 1 == R.LOUQSOR and at[0] == R.LOUQSOR * 2 + state.side[R.LOUQSOR]
                legal_rolls += 1
    assert legal_rolls > 10, legal_rolls
