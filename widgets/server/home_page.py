"""The served tutor's front page (``/``): what each of its pages is for, in the browser's
language, with a link to each.

Without it the server's root was Panel's own gallery of applications, which fetches fonts and
images from the internet (blank boxes in a classroom offline) and names the pages only by their
paths. This page is one small HTML document: no script, no request to any other server, every
text from the message catalogs and escaped.
"""

from __future__ import annotations

from html import escape
from string import Template

from nefertiti_core.engine.i18n import language_from_header, tr
from widgets.theme import (
    CODE_BACKGROUND,
    HEADING,
    INK,
    LINK_HOVER_LINE,
    PAGE_BACKGROUND,
    PAPER,
    RULE_LINE,
)

#: The served pages, in the order shown: (path, message id prefix). ``widgets.serve`` serves
#: each path; a test checks that every one answers.
PAGES = (("tutor", "home.sandbox"), ("classroom", "home.classroom"), ("join", "home.join"))

_STYLE = Template("""
body { margin: 0; background: $page; color: $ink;
       font-family: "Noto Sans", "Segoe UI", Arial, Helvetica, sans-serif; }
main { max-width: 880px; margin: 0 auto; padding: 32px 20px; }
h1 { margin: 0 0 8px; color: $heading; font-size: 30px; }
p.intro { margin: 0 0 24px; font-size: 17px; }
ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 16px;
     grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); }
li a { display: block; height: 100%; box-sizing: border-box; padding: 18px;
       background: $paper; border: 1px solid $line; border-radius: 6px;
       color: inherit; text-decoration: none; }
li a:hover, li a:focus { border-color: $hover; box-shadow: 0 2px 6px rgba(90, 66, 32, .25); }
li strong { display: block; font-size: 20px; color: $heading; margin-bottom: 6px; }
li span { font-size: 15px; line-height: 1.45; }
p.lessons { margin-top: 28px; font-size: 15px; }
code { background: $code; padding: 1px 4px; border-radius: 3px; }
""").substitute(
    page=PAGE_BACKGROUND,
    ink=INK,
    heading=HEADING,
    paper=PAPER,
    line=RULE_LINE,
    hover=LINK_HOVER_LINE,
    code=CODE_BACKGROUND,
)


def home_html(lang: str) -> str:
    """The front page in ``lang`` (one of the tutor's languages)."""
    cards = "".join(
        f'<li><a href="{path}" id="home-{path}"><strong>{escape(tr(lang, key + ".name"))}</strong>'
        f"<span>{escape(tr(lang, key + '.text'))}</span></a></li>"
        for path, key in PAGES
    )
    lessons = escape(tr(lang, "home.lessons", command="{command}")).replace(
        "{command}", "<code>make tutor</code>"
    )
    return (
        f'<!DOCTYPE html><html lang="{escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(tr(lang, 'panel.title'))}</title><style>{_STYLE}</style></head>"
        f"<body><main><h1>{escape(tr(lang, 'panel.title'))}</h1>"
        f'<p class="intro">{escape(tr(lang, "home.intro"))}</p><ul>{cards}</ul>'
        f'<p class="lessons">{lessons}</p></main></body></html>'
    )


def home_handler():
    """A tornado handler answering ``/`` with :func:`home_html` in the browser's language."""
    from tornado.web import RequestHandler

    class Home(RequestHandler):
        def get(self):
            lang = language_from_header(self.request.headers.get("Accept-Language", "")[:500])
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Content-Language", lang)
            self.set_header("Cache-Control", "no-cache")
            self.set_header("X-Content-Type-Options", "nosniff")
            # nothing on the page runs or loads from elsewhere: say so to the browser
            self.set_header(
                "Content-Security-Policy",
                "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; "
                "frame-ancestors 'self'; base-uri 'none'; form-action 'none'",
            )
            self.finish(home_html(lang))

        def head(self):
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish()

    return Home
