"""Names of stalls for learners, declined for German sentences.

A stall is named by its market and side: "Gizeh's left stall", "die linke Preistabelle von
Gizeh", "吉萨的左大厅". German declines the phrase with its article and adjective, and its most
frequent sentence needs the genitive: "Grün setzt einen Diener auf die 4 der linken
Preistabelle von Gizeh" (and "auf der linken Preistabelle" after a preposition of place). So the
name is a ``str`` in the nominative (also the accusative of this feminine noun) that a German
template formats as ``{stall:dat}`` or ``{stall:gen}``; the catalogs give those forms as
``stall.name.dat`` / ``stall.name.gen`` with the side's adjective after the article in those
cases, ``side.<side>.weak`` ("der linken"). English and Chinese have one form and accept the same specs.
"""

from __future__ import annotations

from . import rules as R
from .i18n import DEFAULT_LANGUAGE, tr

#: Format spec -> catalog suffix of the form it asks for ("" the nominative).
_CASES = {"": "", "nom": "", "acc": "", "dat": ".dat", "gen": ".gen"}


class StallPhrase(str):
    """A stall's name in the nominative with its dative and genitive for German templates:
    ``format(name, "gen")``; "", "nom", "acc", "dat" and "gen" are the specs."""

    forms: dict[str, str]

    def __new__(cls, nominative: str, dative: str | None = None, genitive: str | None = None):
        obj = super().__new__(cls, nominative)
        obj.forms = {
            "": nominative,
            ".dat": nominative if dative is None else dative,
            ".gen": nominative if genitive is None else genitive,
        }
        return obj

    def __format__(self, spec: str) -> str:
        if spec not in _CASES:
            raise ValueError(f"unknown case {spec!r} for a stall's name: one of nom, acc, dat, gen")
        return self.forms[_CASES[spec]]


def stall_name(stall: int | R.Stall, lang: str = DEFAULT_LANGUAGE) -> StallPhrase:
    """The learner's name of ``stall`` (a stall id or a :class:`Stall`) in every case."""
    st = stall if isinstance(stall, R.Stall) else R.STALLS[stall]
    market = tr(lang, f"market.{R.MARKETS[st.market]}")
    side = R.SIDES[st.side]
    plain, weak = tr(lang, f"side.{side}"), tr(lang, f"side.{side}.weak")
    return StallPhrase(
        tr(lang, "stall.name", market=market, side=plain),
        tr(lang, "stall.name.dat", market=market, side=weak),
        tr(lang, "stall.name.gen", market=market, side=weak),
    )
