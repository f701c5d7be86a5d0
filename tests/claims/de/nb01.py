"""Claims of tutorials/de/01-a-turn.ipynb: the English notebook's checks (``claims.nb01``), each
quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import nb01, translated

CLAIMS = translated(
    nb01,
    {
        "**place one servant**": "**setzt du genau einen Diener ein**",
        "Akhet-Aton's reserve holds 2 Deben and its stall is empty": "Im Vorrat von Akhet-Aton liegen 2 Deben, und seine Preistabelle ist leer",
        "its 4 marked D?": "für die 4 mit dem D?",
        "Gizeh's 4 marked D, where the reserve holds 1": "die 4 mit dem\nD bei Gizeh, wo im Vorrat nur 1 Deben liegt",
        "Each player has 4 servants": "Jeder Spieler hat 4 Diener",
    },
)
