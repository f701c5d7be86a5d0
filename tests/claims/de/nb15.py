"""Claims of tutorials/de/15-teaching-a-group.ipynb: the English notebook's checks
(``claims.nb15``), each quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import nb15, translated

CLAIMS = translated(
    nb15,
    {
        "It covers four things": "Es geht um vier Dinge",
        "reserves of 1": "Vorräte von 1",
        "for three players without characters": "für drei Spieler ohne\nPersonenkarten",
        "A suggested course in three sessions": "in drei Einheiten",
        "the four markets, stall by stall": "die vier Märkte",
        "use all seven characters": "alle sieben Arten von Personenkarten",
        "These three show the fixed dice": "Diese drei",
    },
)
