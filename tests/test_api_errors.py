"""API errors are the project's errors (issue #14): every public entry point answers a value of
the wrong type or range with a NefertitiError (never a bare TypeError, AttributeError or
IndexError), and the state and the history are unchanged. Booleans are not dice (R4.4)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nefertiti_core as N
from nefertiti_core.engine.errors import ArgumentError
from nefertiti_core.files.history import History
from nefertiti_core.files.scenario import from_data, loads_scenario

# Values of every kind a caller might pass by mistake (and a few nasty ones).
WRONG = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.text(max_size=20),
    st.binary(max_size=8),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.tuples(st.text(max_size=6), st.integers()),
    st.tuples(st.sampled_from(["option", "roll", "draw", "zz"]), st.none() | st.booleans()),
    st.just(("roll", (True,))),
    st.just(("option", "x")),
    st.builds(object),
)


def _game():
    g = N.new_game(players=4, seed=3)
    g.apply(g.legal_options()[0])
    return g


def _history():
    h = History(N.new_game(players=4, seed=3))
    h.play(h.state.legal_options()[0])
    h.play(h.state.legal_options()[0])
    h.new_branch("other", at=1)
    h.switch("main")
    return h


def _history_view(h):
    return (
        h.branch,
        tuple(h.branches),
        h.step,
        tuple((b, tuple(h.steps(b))) for b in h.branches),
        h.state.state_hash(),
    )


def _refused_or_fine(call, value=None):
    """Run ``call``: it may succeed, or raise a NefertitiError (one line that quotes the value
    at most 40 characters long); anything else fails the test."""
    try:
        call()
    except N.NefertitiError as error:
        message = str(error)
        assert message and "\n" not in message, message
        if isinstance(value, (str, bytes, list, dict, tuple)) and len(repr(value)) > 40:
            assert repr(value) not in message, message
    return True


GAME_CALLS = {
    "apply": lambda g, v: g.apply(v),
    "option_text": lambda g, v: g.option_text(v),
    "parse": lambda g, v: g.parse(v),
    "is_legal": lambda g, v: g.is_legal(v),
    "holders": lambda g, v: g.holders(v),
    "type_count seat": lambda g, v: g.type_count(v, 0),
    "type_count type": lambda g, v: g.type_count(0, v),
    "gift_value": lambda g, v: g.gift_value(v),
    "gift_value holders": lambda g, v: g.gift_value(0, v),
    "visible_stall": lambda g, v: g.visible_stall(v),
    "force_roll": lambda g, v: g.force_roll(v),
    "force_roll pair": lambda g, v: g.force_roll(3, v),
    "force_draw": lambda g, v: g.force_draw(v),
    "score_breakdown": lambda g, v: N.score_breakdown(g, v),
}


@pytest.mark.parametrize("name", sorted(GAME_CALLS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=WRONG)
def test_game_state_methods_answer_wrong_values_with_the_projects_error(name, value):
    g = _game()
    before = (g.state_hash(), g.public_key(), g.legal_options())
    _refused_or_fine(lambda: GAME_CALLS[name](g, value), value)
    if name not in ("apply", "force_roll", "force_roll pair", "force_draw"):
        assert (g.state_hash(), g.public_key(), g.legal_options()) == before


HISTORY_CALLS = {
    "play": lambda h, v: h.play(v),
    "jump": lambda h, v: h.jump(v),
    "switch": lambda h, v: h.switch(v),
    "new_branch": lambda h, v: h.new_branch(v),
    "new_branch at": lambda h, v: h.new_branch("fresh", at=v),
    "rename new": lambda h, v: h.rename("other", v),
    "rename old": lambda h, v: h.rename(v, "fresh"),
    "delete": lambda h, v: h.delete(v),
    "compare": lambda h, v: h.compare("main", v),
    "line": lambda h, v: h.line(v),
    "steps": lambda h, v: h.steps(v),
    "length": lambda h, v: h.length(v),
    "record": lambda h, v: h.record(v),
}


@pytest.mark.parametrize("name", sorted(HISTORY_CALLS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=WRONG)
def test_history_methods_answer_wrong_values_with_the_projects_error(name, value):
    h = _history()
    before = _history_view(h)
    try:
        HISTORY_CALLS[name](h, value)
    except N.NefertitiError:
        assert _history_view(h) == before  # refused: nothing changed
        return


@pytest.mark.parametrize(
    "call",
    [
        lambda v: N.new_game(v),
        lambda v: N.new_game(4, seed=v),
        lambda v: N.new_game(4, layout=v),
        lambda v: N.new_game(4, first_player=v),
        lambda v: N.new_game(4, characters=v),
        lambda v: N.option_text(v),
        lambda v: N.parse_option(v),
        lambda v: N.final_scores(v),
        lambda v: N.winners(v),
        lambda v: N.violations(v),
        lambda v: N.score_breakdown(v, 0),
        lambda v: History(v),
        lambda v: loads_scenario(v),
        lambda v: from_data(v),
    ],
    ids=[
        "new_game players",
        "new_game seed",
        "new_game layout",
        "new_game first_player",
        "new_game characters",
        "option_text",
        "parse_option",
        "final_scores",
        "winners",
        "violations",
        "score_breakdown",
        "History",
        "loads_scenario",
        "from_data",
    ],
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=WRONG)
def test_module_functions_answer_wrong_values_with_the_projects_error(call, value):
    _refused_or_fine(lambda: call(value), value)


# --- the cases the issue names, one by one ------------------------------------------------------
def test_a_boolean_is_not_a_die_r4_4():
    g = _game()
    before = g.state_hash()
    for die in (True, False):
        with pytest.raises(N.IllegalOptionError, match="a die shows 1 to 6"):
            g.force_roll(die)
    with pytest.raises(N.IllegalOptionError):
        g.force_roll(3, True)  # the good first die is not kept either
    assert g.state_hash() == before and g.forced_rolls == []


def test_too_many_dice_at_once_are_refused_r4_4():
    g = _game()
    with pytest.raises(N.IllegalOptionError, match="at most 6 dice"):
        g.force_roll(*[3] * 7)
    g.force_roll(*[3] * 6)
    g.force_roll(*[3] * 6)
    with pytest.raises(N.IllegalOptionError, match="fixed ahead"):
        g.force_roll(3)
    assert len(g.forced_rolls) == 12


def test_history_play_of_an_unknown_step_kind_is_refused_not_drawn():
    h = _history()
    before = _history_view(h)
    with pytest.raises(ArgumentError):
        h.play(("zz", 1))  # was taken as drawing card 1
    with pytest.raises(ArgumentError):
        h.play(("roll", (True, 2)))
    assert _history_view(h) == before


@pytest.mark.parametrize(
    "call",
    [
        lambda h: h.play(None),
        lambda h: h.jump(1.5),
        lambda h: h.jump(True),
        lambda h: h.switch([]),
        lambda h: h.new_branch(["x"]),
        lambda h: h.new_branch("x" * 61),
    ],
    ids=["play None", "jump 1.5", "jump True", "switch []", "new_branch list", "long name"],
)
def test_history_wrong_types_raise_the_projects_error_and_change_nothing(call):
    h = _history()
    before = _history_view(h)
    with pytest.raises(N.NefertitiError):
        call(h)
    assert _history_view(h) == before


def test_wrong_types_are_still_type_errors_for_old_callers():
    h = _history()
    with pytest.raises(TypeError):
        h.jump(1.5)


def test_loads_scenario_of_none_is_a_scenario_error():
    from nefertiti_core.files.scenario import ScenarioError

    with pytest.raises(ScenarioError, match="YAML text"):
        loads_scenario(None)


def test_a_huge_option_id_or_text_is_quoted_short():
    g = _game()
    with pytest.raises(N.NefertitiError) as info:
        g.apply("place " + "x" * 10_000_000)
    assert len(str(info.value)) < 200
    with pytest.raises(N.NefertitiError) as info:
        g.apply(10**5000)
    assert len(str(info.value)) < 200


def test_every_error_words_itself_in_a_language():
    """Callers ask any engine error for its words the same way (``message(lang)``): a file's
    error is translated, any other says the text it was raised with."""
    from nefertiti_core.files.reader import ScenarioError

    with pytest.raises(N.NefertitiError) as raised:
        N.new_game(players="two")
    assert raised.value.message("de") == str(raised.value)
    assert ScenarioError("a.yaml", (), "bad", line=3).message("de") == "a.yaml: Zeile 3: bad"
