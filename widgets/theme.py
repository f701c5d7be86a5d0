"""The tutor's colours and fonts, in one place: every view takes them from here.

Player colours are the game's own (Green, Red, Blue, Black); the gift cards' colours follow the
cards' art; the rest is the tutor's papyrus palette (ink on paper) for text, panels and lines.
"""

from __future__ import annotations

#: The four players' servants and seals, by the seat's colour name.
PLAYER_COLOURS = {"green": "#2e8b57", "red": "#c0392b", "blue": "#2e6fd8", "black": "#222222"}

#: Gift cards, by type.
CARD_COLOURS = {
    "senet": "#d9b26f",
    "double_senet": "#c8913a",
    "harp": "#9b6bb3",
    "chair": "#8d6e4c",
    "mirror": "#7fb6c9",
    "statuette": "#b07f5a",
    "necklace": "#d4657d",
    "gold": "#e0b400",
}

#: A stall's area on the board: open, closed, or dead (can no longer close).
REGION_FILL = {"open": "#f6ead0", "closed": "#d8d2c4", "dead": "#b9b2a6"}
#: An empty square.
EMPTY_FILL = "#fffaf0"
#: The outline of a square that would close its market now (a hint).
CLOSING_LINE = "#e07b00"

#: The board's and the panes' fonts: Latin first, then a CJK face (Debian's fonts-noto-cjk) so
#: that Chinese shows as glyphs, not boxes, wherever the browser has one of them.
FONT_STACK = (
    '"Noto Sans", "DejaVu Sans", "Noto Sans CJK SC", "Source Han Sans SC", '
    '"WenQuanYi Micro Hei", "Microsoft YaHei", "PingFang SC", sans-serif'
)

# The papyrus palette: text and panels.
INK = "#3b2f1e"  # body text
INK_SOFT = "#5a4220"  # secondary text, captions
INK_MUTED = "#6b4f2a"  # notes, labels
PAPER = "#fffdf7"  # panels
PAPER_WARM = "#fffaf0"  # cards, empty squares
PAPER_SAND = "#f7f1e3"  # headers, highlights
RULE_LINE = "#e0d6bd"  # borders and separators
ACCENT = "#8a5a00"  # links, the decider's mark
GOOD = "#2e7d32"  # right, closed as asked
BAD = "#7a1f1f"  # wrong, refused
