"""The theme's colours meet WCAG 2.2 AA contrast by role (widgets/theme.py names each colour by
what it is for): text at least 4.5:1 on the pages' and panels' backgrounds, white text at least
4.5:1 on the tags and the players' colours, and the board's signs (the players' colours, the
outlines of the squares one may take or that would close a market) at least 3:1 against the
board and an empty square (non-text contrast, 1.4.11). axe-core checks the rendered pages
(tests/browser/test_accessibility.py); this checks the colours a page may not have shown."""

from __future__ import annotations

import pytest

from widgets import theme as T


def luminance(colour: str) -> float:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio, 1 to 21."""
    low, high = sorted((luminance(a), luminance(b)))
    return (high + 0.05) / (low + 0.05)


TEXT = (
    "INK_DARK INK POPUP_TEXT STEP_DETAIL HEADING INK_MUTED LABEL CARD_LABEL ACCENT EXPLANATION "
    "TEXT_STRONG TABLE_NOTE TEXT_NOTE TEXT_HINT TEXT_NONE TEXT_FAINT TEXT_OFF NO_PLAYER_TEXT "
    "ERROR_TEXT PROBLEM_TEXT WARNING_TEXT ALERT YOUR_TURN"
).split()
BACKGROUNDS = ("PAGE_BACKGROUND", "PAPER", "PAPER_WARM", "DECIDING_BACKGROUND")


@pytest.mark.parametrize("role", TEXT)
def test_every_text_colour_is_readable_on_every_page_background(role):
    for background in BACKGROUNDS:
        ratio = contrast(getattr(T, role), getattr(T, background))
        assert ratio >= 4.5, f"{role} on {background}: {ratio:.2f}:1"


def test_white_text_on_tags_verdicts_and_players_colours():
    for role in ("TURN_TAG", "FORCED_TAG", "POLL_BAR", "ALERT", "GOOD"):
        assert contrast(T.ON_COLOUR, getattr(T, role)) >= 4.5, role
    for colour, value in T.PLAYER_COLOURS.items():
        assert contrast(T.ON_COLOUR, value) >= 4.5, colour  # a servant's letter, a seat's tag
    for kind, (text, background, _border) in T.VERDICT_COLOURS.items():
        assert contrast(text, background) >= 4.5, kind


def test_the_boards_signs_stand_out_from_the_board():
    for name, value in {
        **T.PLAYER_COLOURS,
        "playable": T.PLAYABLE_LINE,
        "closing": T.CLOSING_LINE,
    }.items():
        for background in ("BOARD_BACKGROUND", "EMPTY_FILL", "REGION_FILL"):
            fills = getattr(T, background)
            for fill in fills.values() if isinstance(fills, dict) else [fills]:
                if background == "REGION_FILL" and fill != T.REGION_FILL["open"]:
                    continue  # closed markets hold no servants or outlines
                ratio = contrast(value, fill)
                assert ratio >= 3, f"{name} on {background} {fill}: {ratio:.2f}:1"


def test_the_contrast_formula_matches_wcags_examples():
    assert contrast("#000", "#fff") == pytest.approx(21)
    assert contrast("#777", "#fff") == pytest.approx(4.48, abs=0.01)
