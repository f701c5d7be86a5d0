"""The move notation (nefertiti_core.engine.options): ids <-> texts, forgiving input, stable ids.

Option ids are stored in game records and used by bots, so their layout is pinned here: a change
must be made on purpose, with these numbers updated in the same commit.
"""

from __future__ import annotations

import pytest
from helpers_chars import GREEN, fresh_game

from nefertiti_core import NotationError, new_game, option_text, parse_option
from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.files import staging as S

CUSTOM = ("black", "blue", "red", "green")


@pytest.mark.parametrize("colours", [R.COLOURS, CUSTOM, ("red", "blue", "green")])
def test_every_option_id_round_trips_through_text_and_parse(colours):
    texts = [option_text(o, colours) for o in range(O.NUM_OPTIONS)]
    assert len(set(texts)) == O.NUM_OPTIONS  # no two ids share a text
    for option, text in enumerate(texts):
        assert parse_option(text, colours) == option, text


def test_seats_in_exchange_texts_follow_the_game_colours():
    option = O.EXCHANGE_TAKE_BASE + 0 * R.NUM_KINDS + R.K_CHAIR  # seat 0's chair
    assert option_text(option) == "exchange green:chair"
    assert option_text(option, CUSTOM) == "exchange black:chair"
    assert parse_option("exchange black:chair", CUSTOM) == option
    g = new_game(players=4, seed=0, colours=CUSTOM)
    assert g.option_text(option) == "exchange black:chair"
    assert g.parse("exchange black:chair") == option
    with pytest.raises(NotationError):
        parse_option("exchange green:chair", ("red", "blue", "black"))  # no green in the game


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("PLACE Gizeh.Left#0", "place gizeh.left#0"),
        ("  place   abou_simbel.left#3  ", "place abou_simbel.left#3"),
        ("Take Upper + Lower2", "take upper+lower2"),
        ("take  lower1 +  lower3", "take lower1+lower3"),
        ("EXCHANGE   Red : Chair", "exchange red:chair"),
        ("exchange\tdone", "exchange done"),
        ("Treasurer   3", "treasurer 3"),
        ("HALF", "half"),
    ],
)
def test_parsing_forgives_case_and_extra_spaces(text, expected):
    assert option_text(parse_option(text)) == expected


def test_parsing_forgives_a_space_on_one_side_of_a_separator():
    """parse_option: "spacing and case are forgiven" -- also a space on one side of '+' or ':'
    (a space on both sides is already forgiven, see above)."""
    cases = {
        "take upper +lower2": "take upper+lower2",
        "take upper+ lower2": "take upper+lower2",
        "exchange red: chair": "exchange red:chair",
        "exchange red :chair": "exchange red:chair",
    }
    refused = []
    for text, expected in cases.items():
        try:
            assert option_text(parse_option(text)) == expected
        except NotationError:
            refused.append(text)
    assert refused == []


@pytest.mark.parametrize(
    ("option", "text"),
    [
        (0, "place gizeh.left#0"),
        (6, "place gizeh.left#6"),
        (7, "place gizeh.right#0"),
        (34, "place abou_simbel.left#0"),
        (63, "place louqsor.right#6"),
        (64, "close gizeh"),
        (68, "recruit vizier"),
        (74, "recruit treasurer"),
        (76, "take upper"),
        (81, "take lower1+lower2"),
        (91, "discard senet"),
        (99, "buy upper"),
        (103, "half"),
        (104, "pass"),
        (105, "exchange green:senet"),
        (136, "exchange black:gold"),
        (137, "give senet"),
        (145, "exchange done"),
        (146, "chief upper"),
        (150, "royal senet"),
        (157, "scribe senet"),
        (164, "treasurer gizeh"),
        (168, "treasurer 1"),
        (171, "treasurer 4"),
        (172, "reroll"),
        (173, "keep"),
    ],
)
def test_option_ids_are_stable(option, text):
    assert option_text(option) == text
    assert parse_option(text) == option


def test_option_id_layout_is_stable():
    assert O.NUM_OPTIONS == 174
    assert O.place_id(R.GIZEH, R.LEFT, 0) == 0
    assert O.place_id(R.ABOU_SIMBEL, R.LEFT, 3) == 37
    assert O.take_id([0]) == 76 and O.take_id([1, 2, 3]) == 89
    assert O.RECRUIT_BASE + R.SCRIBE == 73
    assert (O.HALF_ID, O.PASS_ID, O.EXCHANGE_DONE_ID, O.REROLL_ID, O.KEEP_ID) == (
        103,
        104,
        145,
        172,
        173,
    )


def test_option_text_outside_the_id_space_raises_notation_error():
    for bad in (-1, O.NUM_OPTIONS):
        with pytest.raises(NotationError) as info:
            option_text(bad)
        assert str(O.NUM_OPTIONS - 1) in str(info.value)


def test_a_game_accepts_the_text_and_the_id_of_an_option_alike():
    g1, g2 = fresh_game(), fresh_game()
    S.start_turn(g1, GREEN)
    S.start_turn(g2, GREEN)
    g1.apply("Place  Akhet_Aton.Left#4")
    g2.apply(O.place_id(R.AKHET_ATON, R.LEFT, 4))
    assert g1.state_hash() == g2.state_hash()
    assert g1.owners[R.AKHET_ATON][4] == GREEN
