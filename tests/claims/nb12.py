"""Claims of tutorials/12-common-misreadings.ipynb, checked against the engine (R3, R6, R13)."""

from __future__ import annotations

from claims import Claim
from claims import _facts as F
from claims._stalls import bid_sum, closes, place, to_play
from claims.engine import is_open, position
from nefertiti_core.engine import rules as R
from nefertiti_core.teaching.status import stall_status

HIGH = "gizeh-left-high-bids"


def _high_bids() -> bool:
    status = stall_status(position(HIGH), "gizeh")
    st = R.STALLS[status.stall_id]
    assert sorted(st.squares[i].value for i in status.occupied) == [4, 6, 7]
    return bid_sum(HIGH, "gizeh") == 17 and status.is_open and to_play(HIGH, "green")


def _nothing_touches() -> bool:
    status = stall_status(position(HIGH), "gizeh")
    st = R.STALLS[status.stall_id]
    mask = position(HIGH).mask[R.GIZEH]
    return st.rule == R.CONNECTED4 and max(R.connected_component_sizes(st, mask)) < 4


CLAIMS = [
    Claim(
        "Red's servant on the 7 closes Abou Simbel's left stall",
        lambda: (
            to_play("abou-simbel-left-sums", "red")
            and closes("abou-simbel-left-sums", "abou_simbel", "the 7")
        ),
    ),
    Claim("holds bids of 4, 6 and 7, already 17", _high_bids),
    Claim("no 4 taken squares touch", _nothing_touches),
    Claim("Green puts her servant on the 5", lambda: bool(place(HIGH, "gizeh", "the 5"))),
    Claim(
        "put Green's servant on the 1 instead",
        lambda: bool(place(HIGH, "gizeh", "the 1")) and not closes(HIGH, "gizeh", "the 1"),
    ),
]


# ---------------------------------------------------------------- numbers written as words
def _two_texts() -> bool:
    """The German play report and the Chinese guide: the two the glossary names."""
    from nefertiti_core.engine.i18n import tr

    names = {tr("en", "term.german_report"), tr("en", "term.chinese_guide")}
    return len(names) == 2 and all(name.lower() in F.prose("12").lower() for name in names)


def _akhenaton_closes_one_market() -> bool:
    """The Akhenaton card comes up as Gizeh closes: Gizeh stays closed, Louqsor under the tile
    does not reopen (R6.8), the two other markets stay open and the game goes on (R7.1)."""
    before = [is_open("akhenaton-appears", m) for m in R.MARKETS]
    after = [is_open("akhenaton-appears", m, "place gizeh.right#3") for m in R.MARKETS]
    state = position("akhenaton-appears", "place gizeh.right#3")
    return (
        before == [True, True, True, False]
        and after == [False, True, True, False]
        and (not state.is_over)
    )


CLAIMS += [
    Claim("Two texts often passed around", _two_texts),
    Claim("closes one market for good", _akhenaton_closes_one_market),
]
