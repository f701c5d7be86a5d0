"""Claims of tutorials/de/09-closing-abou-simbel.ipynb: the English notebook's checks
(``claims.nb09``), each quoted with the German phrase that states the same number."""

from __future__ import annotations

from claims import nb09, translated

CLAIMS = translated(
    nb09,
    {
        "exactly 11, exactly 14, or 17 and more": "genau 11, genau 14 oder bei 17 und mehr",
        "12, 13, 15 or 16 leaves it open": "12, 13, 15 oder 16 bleibt sie offen",
        "it closes at 17 or more. Its 12 is an extra-card square": "Sie schließt bei 17 oder mehr. Ihre 12 ist ein Feld mit\n  Extrakarten-Symbol",
        "the Deben 2 and the plain 2, the first 1 and the second 1": "die 2 mit Münzsymbol und\ndie 2 ohne Symbol, die erste 1 und die zweite 1",
        "14 closes, 15 does not": "14 schließt, 15 nicht",
        "Green holds the plain 2 and Blue the 5, so the bids add up to 7": "Grün hat die 2 ohne Symbol besetzt und Blau die 5, die Gebote ergeben also zusammen 7",
        "click the 8 and read what happens": "auf die 8 und lies, was\npassiert",
        "and click the 7": "und klicke auf die 7",
        "11 closes too, and so does anything from 17": "Auch 11 schließt, ebenso alles ab 17",
        "Green holds the plain 2 and Blue the 8, so 10 is on the stall": "Grün hat die 2 ohne Symbol besetzt und Blau die 8, zusammen also 10",
        "Red puts a servant on the first 1": "Rot setzt einen Diener auf die erste 1",
        "Red takes the 7 instead: the sum jumps past 14 to 17": "nimmt Rot stattdessen die 7: Die Summe springt über 14\nhinweg auf 17",
        "Right stall: 17 or more": "Rechte Preistabelle: 17 oder mehr",
        "Red holds the first 2 and Blue the 6: 8 in all": "Rot hat die erste 2 besetzt und Blau die 6: zusammen 8",
        "Green puts her servant on the 7": "Grün setzt ihren Diener auf die 7",
        "only the 12 reaches 17 in one step": "nur die 12 mit einem Schritt die 17",
        "she has 8 Deben": "Sie hat 8 Deben",
        "put Green's servant on the 12": "Setze Grüns Diener auf die\n12",
        "closes at 17 or more (R3.6); the 12 there carries the extra card": "schließt bei 17 oder mehr (R3.6); die 12 dort trägt das\n  Extrakarten-Symbol",
    },
)
