"""The greedy bot's estimated look-ahead (#15): a placement that closes its market is scored by
the settlement's direct estimate (weight 1, R3, R6) without a copy; ``greedy-exact`` keeps the
full search (its choices are pinned by ``test_greedy_golden.py``)."""

from __future__ import annotations

import random

from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.state import new_game
from nefertiti_core.play import bots as B
from nefertiti_core.play.tournament import tournament


def _closing_placements():
    out = []
    for seed in (3, 4, 5):
        state = new_game(4, seed)
        bots = [B.GreedyBot(seed=seed + i) for i in range(4)]
        while not state.is_over and len(out) < 40:
            if state.phase in ("turn", "place"):
                for o in state.legal:
                    if O.OPTION_KIND[o] != O.PLACE or B.chances(state, o) is not B.NO_ROLL:
                        continue
                    stall = O.SQUARE_STALL[o]
                    m = stall >> 1
                    after = state.mask[m] | 1 << O.SQUARE_INDEX[o]
                    if R.CLOSED_BY[stall] == R.BY_SQUARES and R.stall_closes(stall, after):
                        out.append((state.copy(), o))
            state.apply(bots[state.decider].choose(state))
    return out


def test_a_closing_placement_is_scored_in_place_at_weight_one():
    found = _closing_placements()
    assert len(found) >= 10
    for state, o in found:
        base = B.public_copy(state, random.Random(1))
        before = base.key()
        fast = B.Search(B.Evaluator(base), state.decider, 2)
        exact = B.Search(B.Evaluator(base), state.decider, 2, exact=True)
        assert exact.placement(base, o, 2, None) is None  # the old search copies it
        value = fast.placement(base, o, 2, None)
        assert value is not None and base.key() == before  # scored in place and undone
        # By hand: the other markets as before, the closed market's settlement at weight 1.
        ev = fast.evaluate
        ctx = ev.context(base)
        m = O.SQUARE_STALL[o] >> 1
        copy = base.copy()
        i = O.SQUARE_INDEX[o]
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
        gains = ev.market_gains(copy, m, ctx[0][1], ctx[0][0], ctx[0][3])
        est = [e + g for e, g in zip(est, gains, strict=True)]
        left = base.placements_left - 1
        assert abs(value - ev.relative(est, state.decider) - left * fast.place_gain) < 1e-9


def test_the_estimating_greedy_still_beats_random_bots():
    report = tournament(["greedy", "random", "random", "random"], 12, seed=7, workers=1)
    assert report.as_dict()["bots"][0]["wins"] >= 11
