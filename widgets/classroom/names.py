"""A participant's name: what may be typed, how it is shown, and when two names look alike.

A name is shown to the whole class (the projector, the teacher's seat menus, the class view), so
it must be readable and tell one learner from another. :func:`clean_name` normalises it (NFKC:
full-width letters, ligatures and composed accents become their ordinary forms; runs of spaces
become one) and refuses what would hide or imitate another name: control and formatting
characters, blank-looking letters (the Hangul fillers, the blank Braille pattern), a pile of
combining marks, a name with no letter or digit. :func:`looks_like` compares two names by their
skeleton (Unicode TR 39's idea, with a small table of its most common cases): letters from other
scripts that look like Latin ones, accents and case are set aside, so ``Аnna`` with a Cyrillic
``А`` or ``Anna`` with a combining stroke look like ``Anna``.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 24
#: The longest text accepted before it is even looked at.
MAX_INPUT = 200
#: Letters that show as nothing (category Lo or So, so the general check does not catch them).
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
#: Categories refused anywhere in a name: control, format (zero-width joiners, direction marks),
#: surrogates, private use, unassigned, line and paragraph separators.
REFUSED_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
#: More combining marks than this on one letter is not a name but a smear.
MAX_MARKS = 2

#: Letters that look like Latin ones (Cyrillic, Greek, Latin look-alikes and digits), mapped to
#: the Latin letter they imitate, after case folding.
_CONFUSABLE = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j", "к": "k",
    "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ɡ": "g",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c",
    # Latin and digits that pass for one another
    "ı": "i", "ł": "l", "ø": "o", "0": "o", "1": "l", "|": "l", "5": "s", "ß": "ss",
}  # fmt: skip


def clean_name(name) -> tuple[str | None, str | None]:
    """``(the name as shown, None)``, or ``(None, why)`` with ``why`` a refusal's message id:
    ``room.refuse.name_empty``, ``name_long`` or ``name_control``."""
    if not isinstance(name, str) or not name.strip():
        return None, "room.refuse.name_empty"
    if len(name) > MAX_INPUT:
        return None, "room.refuse.name_long"
    name = unicodedata.normalize("NFKC", name)
    marks = 0
    for char in name:
        if unicodedata.category(char) in REFUSED_CATEGORIES or char in BLANK_LOOKING:
            return None, "room.refuse.name_control"
        marks = marks + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            return None, "room.refuse.name_control"
    name = " ".join(name.split())
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        return None, "room.refuse.name_empty"
    if len(name) > MAX_NAME:
        return None, "room.refuse.name_long"
    return name, None


def skeleton(name: str) -> str:
    """What a name looks like, for comparing: accents, marks, case, spaces and punctuation set
    aside, look-alike letters replaced by the Latin ones they imitate."""
    decomposed = unicodedata.normalize("NFKD", name).casefold()
    kept = (c for c in decomposed if unicodedata.category(c)[0] in "LN" or c == "|")
    return "".join(_CONFUSABLE.get(c, c) for c in kept)


def looks_like(a: str, b: str) -> bool:
    """Whether two names would be taken for one another on the projector."""
    return skeleton(a) == skeleton(b)
