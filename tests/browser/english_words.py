"""Finding English sentences on a page that should speak German or Chinese.

A German or Chinese lesson page may still show English where a text was never translated: a
widget's hard-coded label, a message missing from a catalogue, a sentence left in a notebook.
Such a sentence gives itself away by its small words: English strings its sentences together
with "the", "of", "you", "is", "to"..., words that a German or Chinese sentence does not use.
:func:`english_sentences` finds every place where at least :data:`AT_LEAST` of those
:data:`FUNCTION_WORDS` fall within :data:`WINDOW` consecutive words, and returns the line around
each. Words that German shares with English ("in", "an", "am", "so", "also", "was", "will",
"die", "man") are not on the list, so a German sentence is never mistaken for English.

Names stay out of the count: the game's proper names (Gizeh, Louqsor, Abou Simbel, Akhet-Aton,
Nefertiti, Deben: :data:`NAMES`) are never English to translate, and the language line under
each lesson's title ("English · Deutsch · 中文") is dropped before looking.
:func:`english_messages` finds the short English labels too: the English catalogue's texts
shown on the page, a one-word label ("Log", "Undo", a colour alone: "Blue") as a whole word.

:data:`VISIBLE_TEXT` is the JavaScript that reads a page's text the way a learner sees it,
through Panel's and Bokeh's shadow roots (``inner_text`` stops at them): pass it the elements
to read, e.g. ``page.locator(".jp-OutputArea-output, .jp-MarkdownOutput").evaluate_all(...)``.
"""

from __future__ import annotations

import re
from functools import cache

from nefertiti_core.engine.i18n import catalog

#: English words that carry no meaning of their own and that German and Chinese sentences do not
#: contain (German's homographs are left out: see the module's docstring).
FUNCTION_WORDS = frozenset(
    """
    the a of and or to is are were be been it its this that these those you your yours
    we our they their them he his she on with for from by at into onto what which when
    where who whom whose how why if then than there here each every can cannot must
    should would could does did has have had after before only just about over under
    """.split()
)
#: At least this many function words ...
AT_LEAST = 3
#: ... within this many consecutive words make an English sentence.
WINDOW = 6
#: The game's proper names: never English to be translated, whatever the page's language; and
#: JupyterLab's menu ("Run → Run All Cells"), which the notebooks name as JupyterLab shows it.
NAMES = re.compile(
    r"Gizeh|Louqsor|Luxor|Abou Simbel|Abu Simbel|Akhet-Aton|Nefertiti|Deben|Senet"
    r"|\bRun All Cells\b|\bRun\b"
)
#: Lines that name the other languages (links to the same lesson in each).
LANGUAGE_LINE = re.compile(r"English\s*·\s*Deutsch\s*·\s*中文")
#: A word: a run of Latin letters (with an apostrophe inside), or one Chinese character (which
#: takes a place in the window, so English words far apart in Chinese text are not a sentence).
_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?|[\u3400-\u9fff\uf900-\ufaff]")


def english_sentences(text: str) -> list[str]:
    """The lines of ``text`` that hold an English sentence (each once, in order)."""
    found: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or LANGUAGE_LINE.search(line):
            continue
        words = [w.lower() for w in _WORD.findall(line)]
        small = [w in FUNCTION_WORDS for w in words]
        if any(sum(small[i : i + WINDOW]) >= AT_LEAST for i in range(len(words))):
            found.append(line if len(line) <= 200 else line[:200] + "…")
    return list(dict.fromkeys(found))


@cache
def _english_fragments(lang: str) -> dict[str, str]:
    """The fixed parts (between placeholders) of the English catalogue's messages that are
    two words or more and appear nowhere in ``lang``'s catalogue: {fragment: its message id}."""
    own = "\n".join(catalog(lang).values())
    found: dict[str, str] = {}
    for key, template in catalog("en").items():
        # a one-word label ("Log", "Undo"), unless the language's catalogue has the word too
        word = template.strip(" .:")
        if re.fullmatch(r"[A-Z][a-z]{2,}", word) and not re.search(rf"\b{word}\b", own):
            if not NAMES.fullmatch(word):
                found.setdefault(word, key)
            continue
        for part in re.split(r"\{[^}]*\}", template):
            part = part.strip(" .,:;()–—-")
            words = re.findall(r"[A-Za-z]+", NAMES.sub(" ", part))
            if len(words) >= 2 and len(part) >= 10 and part not in own:
                found.setdefault(part, key)
    return found


def english_messages(text: str, lang: str) -> list[tuple[str, str]]:
    """The English catalogue's texts (of two words or more) that ``text`` shows although the
    page speaks ``lang``: (the text, its message id). This finds the short English labels
    that hold too few small words to look like a sentence ("Blue decides now"), and a label of
    one word ("Log") as a whole word, with its capitals."""
    text = NAMES.sub(" ", LANGUAGE_LINE.sub(" ", text))
    words = set(re.findall(r"[A-Za-z]+", text))
    return [
        (part, key)
        for part, key in _english_fragments(lang).items()
        if (part in words if part.isalpha() else part in text)
    ]


#: JavaScript: the text of the given elements as a learner sees it, through open shadow roots
#: (Panel's and Bokeh's widgets), without scripts and styles, each block on its own line (an
#: inline element stays within its line). Hidden text (a tab not open, a folded section) is
#: read too: the learner opens it later.
VISIBLE_TEXT = """(elements) => {
    const skip = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT"]);
    const out = [];
    const walk = (node) => {
        if (node.nodeType === Node.TEXT_NODE) { out.push(node.textContent); return; }
        if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE)
            return;
        if (node.nodeType === Node.ELEMENT_NODE) {
            if (skip.has(node.tagName)) return;
            if (node.shadowRoot) walk(node.shadowRoot);
        }
        for (const child of node.childNodes) walk(child);
        if (node.nodeType === Node.ELEMENT_NODE && (node.tagName === "BR"
                || !getComputedStyle(node).display.startsWith("inline"))) out.push("\\n");
    };
    for (const element of elements) walk(element);
    return out.join("");
}"""


def page_text(locator) -> str:
    """The text of every element ``locator`` finds, through their shadow roots."""
    return locator.evaluate_all(VISIBLE_TEXT)
