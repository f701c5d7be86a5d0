"""One step in one line of words (nefertiti_core.files.announce, #16 item 1): a person's placement, a
bot's, the single-option steps the engine takes by itself (E3) with what they did, the square
named by its bid (never the move notation), in English, German and Chinese; where the last step
happened, for the board's outline; the timeline's words cached by node."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nefertiti_core import new_game
from nefertiti_core.engine import options as O
from nefertiti_core.files.announce import (
    branch_steps,
    describe_step,
    first_sentence,
    last_step,
    last_step_place,
)
from nefertiti_core.files.history import History
from nefertiti_core.files.scenario import loads_scenario

#: Blue holds senets only: the Scribe scores them at once, a single-option step (R10.7).
FORCED_SCRIBE = (Path(__file__).parent / "data" / "forced-scribe.yaml").read_text(encoding="utf-8")


NOTATION = re.compile(r"\b(place|buy|take|scribe|recruit) [a-z_]+[.#]|#\d")


def first_game() -> History:
    return History(new_game(4, 0, record_events=True))


def test_a_placement_is_one_sentence_naming_the_player_the_square_by_its_bid_and_r5_2():
    history = first_game()
    assert last_step(history) is None and last_step_place(history) is None  # the start
    history.play("place gizeh.left#4")  # Blue, the 5 of Gizeh's left stall
    words = last_step(history, "en")
    assert words.seat == 2 and words.forced == ()
    assert words.text == (
        "Blue puts a servant on the 5 of Gizeh's left stall: a bid of 5 (Place a Servant, R5.2)."
    )
    assert words.square == (0, 4) and words.market == 0
    assert last_step_place(history) == (2, (0, 4), 0)
    assert not NOTATION.search(words.line)


def test_undo_announces_the_step_before():
    history = first_game()
    history.play("place gizeh.left#4")
    history.play("place abou_simbel.left#2")
    assert last_step(history).text.startswith("Black puts a servant on the Deben 2 of Abou")
    history.undo()
    assert last_step(history).text.startswith("Blue puts a servant on the 5 of Gizeh")
    history.undo()
    assert last_step(history) is None


@pytest.mark.parametrize(
    "lang, expected",
    [
        ("de", "Blau setzt einen Diener auf die 5 der linken Preistabelle von Gizeh"),
        ("zh", "蓝方把一个仆人放在Gizeh的左侧大厅的标有5的方块上"),
    ],
)
def test_the_words_are_the_pages_language(lang, expected):
    history = first_game()
    history.play("place gizeh.left#4")
    assert last_step(history, lang).text.startswith(expected)


def test_r10_7_a_single_gift_type_scribe_is_announced_with_what_it_scored():
    """Blue holds senets only: recruiting the Scribe leaves one gift type, which the engine
    scores at once (R10.7, E3); the announcement says so and gives the points."""
    state = loads_scenario(FORCED_SCRIBE, "forced.yaml").state
    state.log = []
    history = History(state)
    recruit = next(
        o
        for o in history.state.legal_options()
        if O.OPTION_KIND[o] == O.RECRUIT and "scribe" in history.state.option_text(o)
    )
    history.play(recruit)
    words = last_step(history, "en")
    assert words.seat == 2
    assert words.text.startswith("Blue spends a Royal Seal")
    assert len(words.forced) == 1 and words.forced_seats == (2,)
    assert words.forced[0].startswith(
        "Blue holds a single gift type, so the Scribe scores senets (Characters sheet, R10.7)."
    )
    assert re.search(r"Blue scores \d+ with the Scribe", words.forced[0])
    assert words.forced[0] in words.line and words.text in words.line
    zh = last_step(history, "zh")  # Chinese sentences follow each other without a space
    assert zh.forced and zh.sep == "" and zh.line == zh.text + "".join(zh.forced)


def test_a_closing_placement_says_the_stall_closes_and_a_buy_says_the_card():
    history = first_game()
    for step in [
        "place gizeh.left#4",
        "place abou_simbel.left#2",
        "place gizeh.left#2",
        "place akhet_aton.left#3",
        "place gizeh.left#5",
        "place abou_simbel.left#3",
        "place abou_simbel.left#1",
        "place abou_simbel.left#5",
        "place akhet_aton.left#9",
        "place abou_simbel.left#0",
        "place gizeh.left#6",  # Green closes Gizeh's left stall (R3.1)
    ]:
        history.play(step)
    words = last_step(history, "en")
    assert words.text.endswith("Gizeh's left stall closes.")
    assert words.square == (0, 6)
    for step in ["take upper", "half", "buy lower1"]:
        history.play(step)
    words = last_step(history, "en")
    assert "Blue takes the harp (lower card 1) from Gizeh." in words.text
    assert words.square is None and words.market == 0
    # then the engine took Green's only option, half the reserve (R6.4), and said why
    assert words.forced_seats == (0,)
    assert words.forced[0].startswith("Green can only take half the reserve")
    assert last_step_place(history) == (2, None, 0)


def test_a_branch_in_words_is_every_step_in_order_and_cached_by_node():
    history = first_game()
    for step in ["place gizeh.left#4", "place abou_simbel.left#2", "place gizeh.left#2"]:
        history.play(step)
    cache: dict = {}
    words = branch_steps(history, "en", cache=cache)
    assert [w.seat for w in words] == [2, 3, 0]
    assert [w.text.split(" puts")[0] for w in words] == ["Blue", "Black", "Green"]
    assert len(cache) == 3
    again = branch_steps(history, "en", cache=cache)
    assert all(a is b for a, b in zip(words, again, strict=True))  # from the cache
    history.undo()
    assert len(branch_steps(history, "en")) == 3  # the whole branch, also ahead of here


def test_a_game_without_events_names_the_option_in_words():
    start = new_game(4, 0)  # no events recorded
    after = start.copy()
    after.apply(start.parse("place gizeh.left#4"))
    words = describe_step(start, after, "en", ("option", start.parse("place gizeh.left#4")))
    assert words.text == "The 5 of Gizeh's left stall"  # as the option's button says, no notation


def test_first_sentence_keeps_rule_ids_whole():
    assert first_sentence("A bid of 5 (Place a Servant, R5.2). More.") == (
        "A bid of 5 (Place a Servant, R5.2)."
    )
    assert first_sentence("出价5（R5.2）。还有。") == "出价5（R5.2）。"
