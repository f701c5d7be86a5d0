"""The views' colours all come from ``widgets.theme``: no other module of ``widgets`` writes a
hex colour in a string (checked on the source with ``tokenize``), so a change of palette, e.g.
for contrast, is made in one place."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from widgets import theme

WIDGETS = Path(__file__).resolve().parent.parent / "widgets"
#: ``#rgb``, ``#rgba``, ``#rrggbb`` or ``#rrggbbaa``, not part of a longer word.
HEX_COLOUR = re.compile(
    r"#(?:[0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{4}|[0-9a-f]{3})(?![0-9a-z_])", re.IGNORECASE
)
#: The tokens that hold a string's text (Python 3.12 splits an f-string into several).
STRING_TOKENS = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}


def hex_colours(source: str) -> list[tuple[int, str]]:
    """Each hex colour written in a string of ``source``, with its line (comments do not count)."""
    return [
        (token.start[0], colour)
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type in STRING_TOKENS
        for colour in HEX_COLOUR.findall(token.string)
    ]


def test_no_view_writes_a_hex_colour():
    found = [
        f"{path.relative_to(WIDGETS.parent)}:{line}: {colour}"
        for path in sorted(WIDGETS.rglob("*.py"))
        if path.name != "theme.py"
        for line, colour in hex_colours(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "colours belong in widgets/theme.py:\n" + "\n".join(found)


def test_the_check_finds_a_planted_colour():
    planted = (
        "# a comment may say #abc\n"
        'A = "#fffdf7"\n'
        "B = f\"<div style='color:#555;border:1px solid {A}'>\"\n"
        "C = '.x{background:#F3EDE2}'\n"
        'D = """\nbody { color: #3b2f1eff; }\n"""\n'
        'E = "#section-2, #12345, #face0ff"\n'
    )
    assert hex_colours(planted) == [
        (2, "#fffdf7"),
        (3, "#555"),
        (4, "#F3EDE2"),
        (5, "#3b2f1eff"),
    ]


def test_the_theme_holds_colours():
    """Every colour the theme names is a hex colour (a typo would show as a broken style)."""
    colours = []
    for name, value in vars(theme).items():
        if name.isupper() and name != "FONT_STACK":
            for one in value.values() if isinstance(value, dict) else [value]:
                colours.extend(one if isinstance(one, tuple) else [one])
    assert len(colours) > 70
    assert all(isinstance(c, str) and HEX_COLOUR.fullmatch(c) for c in colours), colours
