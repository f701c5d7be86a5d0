"""Claims of tutorials/de/12-common-misreadings.ipynb: the English notebook's checks
(``claims.nb12``), each quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import nb12, translated

CLAIMS = translated(
    nb12,
    {
        "Red's servant on the 7 closes Abou Simbel's left stall": "Rots Diener auf der 7 schließt die linke Preistabelle von Abu Simbel",
        "holds bids of 4, 6 and 7, already 17": "Gebote von 4, 6 und 7, zusammen\nschon 17",
        "no 4 taken squares touch": "keine 4 besetzten Felder einander berühren",
        "Green puts her servant on the 5": "Grün setzt ihren Diener auf die 5",
        "put Green's servant on the 1 instead": "Setze Grüns Diener stattdessen auf die 1",
    },
)
