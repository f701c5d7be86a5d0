"""Names of squares for learners: by the bid printed on them, never by an index.

A learner sees a stall as a few rows of numbers, some of them marked (a Deben coin, a single-card
or an extra-card symbol, drawn ``D``, ``S`` and ``X`` on the board). So a square is named by its
value ("the 7"), and only where the stall prints that value more than once by what tells the
squares apart: the mark ("the Deben 2", "the plain 2") or else their place in reading order, rows
top to bottom and each row left to right ("the first 1", "the second 1"). Only Abou Simbel's
stalls repeat values (R3.5, R3.6).

The move notation (``place abou_simbel.left#2``) stays where people type or read records; it
never appears in these names.

German declines the name: the result is a ``str`` (the nominative, which is also the accusative
of these feminine nouns, "die 7") that a German template formats as ``{square:dat}`` for the
dative ("auf der 7"). English and Chinese have one form; they accept the same format specs.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import rules as R
from .i18n import DEFAULT_LANGUAGE, tr

_CASES = {"": "", "nom": "", "acc": "", "dat": ".dat", "gen": ".dat"}  # feminine: gen == dat
_MARKS = {R.DEBEN: "deben", R.SINGLE: "single", R.EXTRA: "extra"}


class SquareName(str):
    """A square's name (or a list of names) in the nominative, with its dative for German
    templates: ``format(name, "dat")``; "", "nom", "acc", "dat" and "gen" are the specs."""

    dative: str

    def __new__(cls, nominative: str, dative: str | None = None) -> SquareName:
        obj = super().__new__(cls, nominative)
        obj.dative = nominative if dative is None else dative
        return obj

    def __format__(self, spec: str) -> str:
        if spec not in _CASES:
            raise ValueError(f"unknown case {spec!r} for a square name: one of nom, acc, dat, gen")
        return self.dative if _CASES[spec] else str(self)


def _stall(stall: int | R.Stall) -> R.Stall:
    return stall if isinstance(stall, R.Stall) else R.STALLS[stall]


def distinction(stall: int | R.Stall, index: int) -> tuple[str, int]:
    """What sets square ``index`` apart from the other squares of its stall with the same value,
    language-neutral: ("", 0) nothing (the value is unique), ("deben" / "single" / "extra", 0) its
    mark, ("plain", 0) the one square of that value without a mark, ("nth", n) the n-th square
    of that value (and that mark) in reading order."""
    st = _stall(stall)
    square = st.squares[index]
    same = [s for s in st.squares if s.value == square.value]
    if len(same) == 1:
        return "", 0
    alike = [s for s in same if s.symbol == square.symbol]  # in reading order (rules._rows)
    if len(alike) == 1:
        return (_MARKS[square.symbol], 0) if square.symbol else ("plain", 0)
    return "nth", alike.index(square) + 1


def _forms(lang: str, key: str, **params) -> SquareName:
    return SquareName(tr(lang, key, **params), tr(lang, key + ".dat", **params))


def square_name(
    stall: int | R.Stall, index: int, lang: str = DEFAULT_LANGUAGE, marked: bool = False
) -> SquareName:
    """The learner's name of square ``index`` of ``stall`` (a stall id or a :class:`Stall`):
    "the 7", "the Deben 2", "the plain 2", "the second 1" (and the German and Chinese ones).
    ``marked``: name a marked square by its mark even where its value alone is enough ("the
    Deben 4" on Gizeh), for a note on the square itself."""
    st = _stall(stall)
    square = st.squares[index]
    value = square.value
    how, n = distinction(st, index)
    if marked and square.symbol and how != "nth":
        how = _MARKS[square.symbol]
    if how == "":
        return _forms(lang, "square.name", value=value)
    if how == "nth":
        nth = tr(lang, f"square.nth.{n}")
        return SquareName(
            tr(lang, "square.name.nth", value=value, nth=nth),
            tr(lang, "square.name.nth.dat", value=value, nth=tr(lang, f"square.nth.{n}.dat")),
        )
    return _forms(lang, f"square.name.{how}", value=value)


def join_names(names: Iterable[SquareName], lang: str = DEFAULT_LANGUAGE, conj: str = "and"):
    """Names joined as a list ("the 7, the 8 or the 10"), in both cases."""
    names = list(names)
    if not names:
        return SquareName(tr(lang, "status.list.nothing"))

    def joined(items: list[str]) -> str:
        if len(items) == 1:
            return items[0]
        head = tr(lang, "status.list.sep").join(items[:-1])
        return tr(lang, f"status.list.{conj}", head=head, last=items[-1])

    return SquareName(joined([str(n) for n in names]), joined([n.dative for n in names]))


def square_names(
    stall: int | R.Stall, indices: Iterable[int], lang: str = DEFAULT_LANGUAGE, conj: str = "and"
) -> SquareName:
    """Several squares of one stall named and joined ("the first 1 and the Deben 2")."""
    return join_names((square_name(stall, i, lang) for i in indices), lang, conj)
