"""The tutor's colours and fonts, in one place: every view takes them from here, by a name that
says what the colour is for (no view writes a colour of its own).

Player colours are the game's own (Green, Red, Blue, Black); the gift cards' colours follow the
cards' art; the rest is the tutor's papyrus palette (ink on paper) for text, panels and lines.
Some roles share a value today; each keeps its own name so that one can change without the other.
"""

from __future__ import annotations

# Players: the four seats' servants and seals, by the seat's colour name; a seat without one.
# Green leans to blue-green: told from Red under protanopia and deuteranopia (CIELAB distance
# about 18 and 38, Machado 2009), white on it is 5:1 (tests/browser/test_colour_vision.py).
PLAYER_COLOURS = {"green": "#1f7a5c", "red": "#c0392b", "blue": "#2863c4", "black": "#222222"}
NO_PLAYER = "#888"  # the dot, bar or banner of a seat whose colour is unknown
NO_PLAYER_TEXT = "#333"  # a learner's name in the classroom when their seat has no colour
NO_PLAYER_STRIPE = "#c9b98f"  # a timeline step no seat took
NO_PLAYER_SEAL = "#6b4f2a"  # the last step's outline, the projector banner's edge, with no seat

# Gift cards, by type.
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

# Ink: the papyrus palette's text, darkest first.
INK_DARK = "#1e1608"  # the board's gift-card labels and its tooltip
INK = "#3b2f1e"  # body text, the board's labels, big figures (banner, room code), the QR code
POPUP_TEXT = "#3a2e1a"  # a rule's text opened beside its ID
STEP_DETAIL = "#4d4432"  # what a timeline step changed
HEADING = "#5a4220"  # page and panel headings
INK_MUTED = "#6b4f2a"  # notes and labels: the bot's status, a hint's value, a rule's link
LABEL = "#6b5b3a"  # small captions over a figure: the projector's "Last", the room code's
CARD_LABEL = "#7a5c22"  # the caption over the projector's card
ACCENT = "#8a5a00"  # the decider's mark, a bot, what is still awaited, a rule's mark

# Grey text, darkest first. Every text colour here is at least 4.5:1 against the pages' and
# panels' backgrounds (PAGE_BACKGROUND, PAPER, PAPER_WARM; WCAG 2.2 AA for normal text;
# tests/test_theme_contrast.py), the faintest too: "faint" is a role, not a licence to be unread.
EXPLANATION = "#2b2b2b"  # the reason under a verdict, a poll's "why"
TEXT_STRONG = "#333"  # a character pile that still has cards
TABLE_NOTE = "#444"  # the note under a stall table
TEXT_NOTE = "#555"  # notes, captions, a row's label
TEXT_HINT = "#666"  # counts and small hints
TEXT_NONE = "#5e5e5e"  # "none", "nobody yet", a pile's size
TEXT_FAINT = "#636363"  # times, step numbers, footnotes
TEXT_OFF = "#6b6b6b"  # an empty pile, a question not asked yet
ON_COLOUR = "#fff"  # text and rings on a coloured tag or dot

# Backgrounds.
PAGE_BACKGROUND = "#f7f1e3"  # the pages and the Sandbox's panel header
PAPER = "#fffdf7"  # panels and cards, the board's tooltip, the QR code's light
PAPER_WARM = "#fffaf0"  # charts, a seat's card, a rule's popup
DECIDING_BACKGROUND = "#f3f9ef"  # the card of the seat that decides now
CURRENT_STEP = "#f3e6c4"  # the timeline's step shown on the board
TABLE_HEAD = "#f3ede2"  # a lesson table's header row
CHIP = "#efe6d2"  # the practice's theme
CODE_BACKGROUND = "#efe6cf"  # code on the home page
PROJECTOR_CARD = "#fff8e6"  # the projector's position card
BAR_TRACK = "#eee"  # behind a poll's answer bar

# Lines and borders.
RULE_LINE = "#e0d6bd"  # panels' borders, separators
ROW_LINE = "#eee3c8"  # between the log's and the timeline's rows
TABLE_HEAD_LINE = "#c9b98f"  # under a table's header
TABLE_LINE = "#ddd"  # between a lesson table's rows
CELL_LINE = "#d8cfbf"  # the coverage table's cells
SEAT_LINE = "#d8cfb8"  # a seat's card
POPUP_LINE = "#d9c9a3"  # a rule's popup
PROJECTOR_CARD_LINE = "#e0c98f"  # the projector's position card
LINK_HOVER_LINE = "#8a6a2f"  # a home-page link under the pointer
FOCUS_RING = "#b8860b"  # a rule ID focused from the keyboard
SWATCH_RING = "#999"  # around a player's dot

# Feedback: right and wrong, errors, warnings, alerts.
GOOD = "#2e7d32"  # the deciding seat's badge and card border
BAD = "#7a1f1f"  # a market closed on the board
#: A verdict's (text, background, border): green for right, a warm orange for "not quite", grey
#: for what was not an answer at all.
VERDICT_COLOURS = {
    "right": ("#1b5e20", "#e8f5e9", "#2e7d32"),
    "wrong": ("#8a3b00", "#fff3e0", "#e07b00"),
    "invalid": ("#37474f", "#eceff1", "#90a4ae"),
}
ERROR_TEXT = "#a33"  # a computation that failed
PROBLEM_TEXT = "#8a1c1c"  # a poll's refusal...
PROBLEM_BACKGROUND = "#fdecea"  # ...and its box
WARNING_TEXT = "#8a4b00"  # the coverage warning
ALERT = "#8b1e1e"  # the game is paused; the banner when the connection is lost
DANGER_BUTTON = (
    "#b02a37"  # a button that removes someone: white words on it at 6:1 (Bokeh's is 4:1)
)
YOUR_TURN = "#1e6b2a"  # a learner's "your turn"

# Tags and bars: white text on a colour.
TURN_TAG = "#6b5b3a"  # whose turn it is, a log entry's rule
FORCED_TAG = "#5a6b2a"  # a step that had only one option
POLL_BAR = "#44699f"  # a poll answer's bar (a right one is VERDICT_COLOURS["right"])

# The board. The players' colours, the outlines and the servants' letters are at least 3:1
# against the board and its squares (WCAG 1.4.11 non-text contrast; tests/test_theme_contrast.py).
BOARD_BACKGROUND = "#efe3c2"
#: A stall's area: open, closed, or dead (can no longer close).
REGION_FILL = {"open": "#f6ead0", "closed": "#d8d2c4", "dead": "#b9b2a6"}
REGION_LINE = "#a0895a"  # a stall's outline
EMPTY_FILL = "#fffaf0"  # an empty square
CLOSED_SQUARE = "#cfc8b8"  # a square of a closed market
SQUARE_LINE = "#8a7a5a"  # a square's outline, the tooltip's border
PLAYABLE_LINE = "#4a7a2a"  # a square the decider may take (solid)
CLOSING_LINE = "#a85800"  # a square that would close its market now (a hint; dashed)
CARD_LINE = "#5a4a2a"  # a gift card's outline
SEAL_FILL = "#b8860b"  # a market's seal...
SEAL_LINE = "#5a3a00"  # ...and its outline
MARK_LINE = "#c2185b"  # the teacher's marks on a classroom's board: highlights, arrows

# Charts: the odds and the scores.
CHART_BACKGROUND = "#fffaf0"
CHART_LINE = "#3b2f1e"  # the bars' outlines
CHART_BAR = "#888"  # a bar before its seat's colour is known
PRESTIGE_FILL = "#d9b26f"  # prestige so far
PROJECTED_FILL = "#6b4f2a"  # what the gifts would add

# A disabled button (Panel's own only fades the blue a little).
DISABLED_BACKGROUND = "#ece6d8"
DISABLED_LINE = "#d3c9b2"
DISABLED_TEXT = "#9a917f"

# Fonts: the board's and the panes', Latin first, then a CJK face (Debian's fonts-noto-cjk) so
# that Chinese shows as glyphs, not boxes, wherever the browser has one of them.
FONT_STACK = (
    '"Noto Sans", "DejaVu Sans", "Noto Sans CJK SC", "Source Han Sans SC", '
    '"WenQuanYi Micro Hei", "Microsoft YaHei", "PingFang SC", sans-serif'
)
