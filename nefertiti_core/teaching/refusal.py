"""A refused option told in words: what the learner tried and what they may do instead.

The engine says why an option is refused (``engine.explain_illegal``) and names options in move
notation, which is what a player of the command line types. A page names them as its buttons
do: "“The 4 of Gizeh's left stall” is not allowed now: … The options are: a servant on one of
22 free squares (Gizeh, Akhet-Aton, Abou Simbel); Recruit the Vizier". Placements are counted,
not listed (a turn offers up to 26 of them); every other option is named on its own.
"""

from __future__ import annotations

from ..engine import options as O
from ..engine import rules as R
from ..engine.explain_illegal import why_illegal
from ..engine.i18n import DEFAULT_LANGUAGE, tr
from ..engine.state import GameState
from .explain import describe_option
from .words import Words

#: Up to this many placements are named one by one; more are counted.
NAMED_PLACEMENTS = 3


def legal_in_words(state: GameState, lang: str = DEFAULT_LANGUAGE) -> str:
    """The decider's legal options, in words, in one line."""
    w = Words(lang, state.colours)
    legal = state.legal_options()
    places = [o for o in legal if O.OPTION_KIND[o] == O.PLACE]
    parts = []
    if len(places) > NAMED_PLACEMENTS:
        markets = []
        for option in places:
            market = R.STALLS[O.SQUARE_STALL[option]].market
            if market not in markets:
                markets.append(market)
        names = w.join([w.market(m) for m in markets])
        parts.append(tr(lang, "refuse.legal.places", n=len(places), markets=names))
        legal = [o for o in legal if o not in places]
    parts += [describe_option(state, o, lang, short=True) for o in legal]
    return tr(lang, "refuse.legal.sep").join(parts)


def refusal(state: GameState, option: int, lang: str = DEFAULT_LANGUAGE) -> tuple[str, str]:
    """(message, rule id): why ``option`` is refused, every option named in words."""
    return why_illegal(
        state,
        option,
        lang,
        name=lambda refused: describe_option(state, refused, lang, short=True),
        legal_words=lambda: legal_in_words(state, lang),
    )
