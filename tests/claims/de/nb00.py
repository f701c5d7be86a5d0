"""Claims of tutorials/de/00-welcome.ipynb: the English notebook's checks (``claims.nb00``), each
quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import nb00, translated

CLAIMS = translated(
    nb00,
    {
        "gift cards in four markets": "in vier Märkten auf Geschenkkarten",
        "Akhet-Aton's 10 is an X square": "Die 10 von Akhet-Aton ist ein X-Feld",
        "A gold craft held by a single player is worth 14": "Eine Goldschmiedearbeit, die nur ein Spieler besitzt, ist\n14 wert",
    },
)
