"""The one wording layer: catalog look-ups that turn the engine's numbers into sentences.

Every text the tutor shows comes from the message catalogs (``messages/<lang>/*.json``, read by
:func:`.i18n.tr`). This module is the one place that names the pieces in the reader's language
(players by colour, markets, stalls, squares by their bids, cards, gift types, characters),
joins them into lists and sentences, points at a rule (``(Market Closing, R6.2)``: the rulebook
section follows from the rule ID) and fills in a :class:`Message` (a catalog key with
language-neutral parameters, as a stall's status holds them). :mod:`.explain`, :mod:`.status`,
:mod:`.exercises`, :mod:`.practice`, :mod:`.hints` and the widgets all word through it.

- :class:`Words` - one language and one game's colours: ``w.player(seat)``, ``w.join([...])``,
  ``w.s("key", ...)`` (a whole sentence), ``w.ref_to("R6.2")``, ``w.render(message)``.
- :class:`Message` and its parameter types (:class:`Squares`, :class:`Seats`,
  :class:`Probability`, ...) and :func:`render`: a sentence to be, kept apart from its language.
- :func:`format_probability`: ``4/36 (11%)``.

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..engine import rules as R
from ..engine.i18n import tr
from ..engine.squares import square_name, square_names
from ..engine.stall_names import stall_name

# --- language-neutral message parameters -------------------------------------------------------
# A Message holds a catalog key and parameters, never sentences. Parameters that need words in
# the reader's language are wrapped in these small types; plain ints and strings are shown as
# they are.


@dataclass(frozen=True)
class Squares:
    """Squares of one stall, named by their bids (:func:`.squares.square_name`: "the 7", "the
    Deben 2"); ``conj`` joins the last one."""

    stall: int
    indices: tuple[int, ...]
    conj: str = "and"


@dataclass(frozen=True)
class Numbers:
    """Plain numbers joined as a list (``2, 3 and 7``)."""

    values: tuple[int, ...]
    conj: str = "and"


@dataclass(frozen=True)
class Seats:
    """Players, shown by their colour."""

    seats: tuple[int, ...]
    conj: str = "and"


@dataclass(frozen=True)
class Probability:
    """An exact probability, shown over the dice's denominator: ``4/36 (11%)``."""

    value: Fraction
    denominator: int = R.roll_count(2)


@dataclass(frozen=True)
class Market:
    market: int


@dataclass(frozen=True)
class Side:
    side: int


@dataclass(frozen=True)
class StallName:
    stall: int


@dataclass(frozen=True)
class Text:
    """Another catalog message, rendered in the same language (for example a line's name)."""

    key: str


@dataclass(frozen=True)
class Chances:
    """Per square, the probability that the roll after a placement there closes the stall."""

    stall: int
    chances: tuple[tuple[int, Fraction], ...]
    denominator: int


@dataclass(frozen=True)
class Cards:
    """Card kinds (rules.CARD_KINDS indices), joined as a list."""

    kinds: tuple[int, ...]


@dataclass(frozen=True)
class Message:
    """One sentence to be: a catalog key and its parameters (hashable)."""

    key: str
    params: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, key: str, **params) -> Message:
        return cls(key, tuple(sorted(params.items())))

    @property
    def kwargs(self) -> dict[str, object]:
        return dict(self.params)


def format_probability(value: Fraction, denominator: int, lang: str = "en") -> str:
    """``4/36 (11%)``: over the dice's denominator when it divides evenly, rounded percent."""
    numerator = value * denominator
    if numerator.denominator == 1:
        fraction = f"{numerator.numerator}/{denominator}"
    else:
        fraction = f"{value.numerator}/{value.denominator}"
    percent = int(value * 100 + Fraction(1, 2))
    return tr(lang, "status.probability", fraction=fraction, percent=percent)


# --- rules and the rulebook's sections ----------------------------------------------------------
#: The rulebook section a rule ID belongs to (the first ID of a list decides): the first rule
#: here that is the ID or contains it. ``section.<name>`` is its title in the catalogs.
_SECTIONS = (
    ("R5.1", "character"),  # recruiting a character is the turn's first step
    ("R10", "characters"),
    ("R1", "setup"),
    ("R2", "setup"),
    ("R3", "markets"),
    ("R4", "markets"),
    ("R5", "place"),
    ("R6", "closing"),
    ("R7", "scoring"),
    ("R8", "scoring"),
    ("R9", "scoring"),
    ("R13", "scoring"),
)


def section_of(rule: str) -> str:
    """The rulebook section of ``rule`` (``"R6.2"`` -> ``"closing"``; ``"R3.7, R4.1"`` ->
    ``"markets"``)."""
    first = rule.split(",")[0].split("-")[0].strip()
    for prefix, section in _SECTIONS:
        if first == prefix or first.startswith(prefix + "."):
            return section
    raise ValueError(f"no rulebook section for the rule {rule!r}")


# --- words --------------------------------------------------------------------------------------
def capital(text: str) -> str:
    """The first letter upper-case (a sentence may start with a name that is lower-case)."""
    return text[:1].upper() + text[1:] if text else text


class Words:
    """Catalog look-ups for one language and one game's colours (seat by seat).

    ``say_nothing``: an empty list is the word "nothing" (status lines, exercises) instead of
    an empty string (explanations, whose lists are never empty).
    """

    def __init__(self, lang: str, colours=(), say_nothing: bool = False):
        self.lang = lang
        self.colours = tuple(colours)
        self.say_nothing = say_nothing

    def __call__(self, key: str, **params) -> str:
        return tr(self.lang, key, **params)

    def s(self, key: str, **params) -> str:
        """A whole sentence: its first letter upper-case."""
        return capital(tr(self.lang, key, **params))

    # lists and sentences
    def join(self, items, conj: str = "and") -> str:
        """``a, b and c`` (``conj``: "and" or "or")."""
        items = [str(i) for i in items]
        if not items:
            return self("status.list.nothing") if self.say_nothing else ""
        if len(items) == 1:
            return items[0]
        head = self("status.list.sep").join(items[:-1])
        return self(f"status.list.{conj}", head=head, last=items[-1])

    def semi(self, items) -> str:
        return self("status.list.semicolon").join(items)

    def sentences(self, *parts) -> str:
        """Sentences one after the other (empty parts left out); a single list is its parts."""
        if len(parts) == 1 and isinstance(parts[0], (list, tuple)):
            parts = tuple(parts[0])
        return self("status.sentence_sep").join(p for p in parts if p)

    # pieces
    def player(self, seat: int) -> str:
        if 0 <= seat < len(self.colours):
            return self(f"colour.{self.colours[seat]}")
        return self("status.nobody")

    def players(self, seats, conj: str = "and") -> str:
        return self.join((self.player(p) for p in seats), conj)

    def market(self, m: int) -> str:
        return self(f"market.{R.MARKETS[m]}")

    def side(self, side: int | str) -> str:
        return self(f"side.{side if isinstance(side, str) else R.SIDES[side]}")

    def stall(self, stall: R.Stall | int) -> str:
        """The stall's name, declined for German templates (``{stall:gen}``, ``{stall:dat}``)."""
        return stall_name(stall, self.lang)

    def square(self, stall: R.Stall | int, index: int) -> str:
        return square_name(stall, index, self.lang)

    def squares(self, stall: R.Stall | int, indices, conj: str = "and") -> str:
        return square_names(stall, indices, self.lang, conj)

    def card(self, kind: int) -> str:
        if kind == R.AKHENATON:
            return self("card.akhenaton")
        return self(f"card.{R.CARD_KINDS[kind]}")

    def cards(self, kinds) -> str:
        return self.join(self.card(k) for k in kinds)

    def slot(self, slot: int) -> str:
        return self(f"slot.{R.SLOTS[slot]}")

    def gift(self, gift_type: int, count: int = 2) -> str:
        """A gift type's name: singular for one gift, plural otherwise."""
        name = R.GIFT_TYPES[gift_type]
        return self(f"card.{name}") if count == 1 else self(f"gift.{name}")

    def count(self, gift_type: int, count: int, double_senet: bool = False) -> str:
        """``3 harps``; ``double_senet``: the note that a double senet counts as two (R9.1)."""
        key = "count.senet_double" if double_senet else "count.gift"
        return self(key, n=count, gift=self.gift(gift_type, count))

    def holders(self, holders: int) -> str:
        return self("holders.one") if holders == 1 else self("holders.many", n=holders)

    def seals(self, seals: int) -> str:
        return self("count.seal.one") if seals == 1 else self("count.seal.many", n=seals)

    def character(self, card: str) -> str:
        return self(f"character.{card}")

    # rules
    def ref(self, section: str, rule: str) -> str:
        return self("ref", section=self(f"section.{section}"), rule=rule)

    def ref_to(self, rule: str) -> str:
        """``(Market Closing, R6.2)``: the rule with its rulebook section (:func:`section_of`)."""
        return self.ref(section_of(rule), rule)

    def estimate(self, gift_type: int, holders: int, value: int) -> str | None:
        """A note when a gift value comes from no printed card (R8's estimates)."""
        name = R.GIFT_TYPES[gift_type]
        if (
            holders
            and holders in R.ESTIMATED_VALUES[name]
            and value == R.GIFT_VALUES[gift_type][holders - 1]
        ):
            return self.s(
                "note.estimate",
                value=value,
                gift=self.gift(gift_type),
                holders=self.holders(holders),
            )
        return None

    def probability(self, value: Fraction, denominator: int) -> str:
        return format_probability(value, denominator, self.lang)

    # messages
    def value(self, value) -> str:
        """A message parameter in words (plain ints and strings as they are)."""
        if isinstance(value, Squares):
            return self.squares(value.stall, value.indices, value.conj)
        if isinstance(value, Numbers):
            return self.join([str(v) for v in value.values], value.conj)
        if isinstance(value, Seats):
            return self.players(value.seats, value.conj)
        if isinstance(value, Probability):
            return self.probability(value.value, value.denominator)
        if isinstance(value, Market):
            return self.market(value.market)
        if isinstance(value, Side):
            return self.side(value.side)
        if isinstance(value, StallName):
            return self.stall(value.stall)
        if isinstance(value, Text):
            return self(value.key)
        if isinstance(value, Chances):
            items = [
                self(
                    "status.louqsor.chance_item",
                    square=self.square(value.stall, i),
                    probability=self.probability(p, value.denominator),
                )
                for i, p in value.chances
            ]
            return self("status.list.semicolon").join(items)
        if isinstance(value, Cards):
            return self.join([self.card(k) for k in value.kinds])
        return str(value)

    def render(self, message: Message) -> str:
        """One message, its parameters put into words; starts with a capital letter."""
        return self.s(message.key, **{k: self.value(v) for k, v in message.params})


def render(message: Message, colours, lang: str = "en") -> str:
    """One message in ``lang`` (``colours``: the game's colours, seat by seat)."""
    return Words(lang, colours, say_nothing=True).render(message)
