"""The verdict said to a screen reader: a polite live region that announces an answer's verdict.

An answer's verdict ("Right: …", "Not quite: …", then why) is shown in an HTML pane, in colour,
with its details folded and its rule IDs as links. Panel replaces such a pane's whole text on
each change, so a live region written inside that text would be made anew with each verdict, and
screen readers announce changes to a live region already in the page, not a region that appears
with its words. This region is made once, empty, with the card (``role="status"``,
``aria-live="polite"``, ``aria-atomic="true"``: said when the learner is not busy, and whole);
only its text changes, to the verdict's words (:func:`verdict_words`: the engine's explanation),
written by the page's script as text, never as HTML. It is visually hidden (the coloured verdict
beside it is what the eye reads); a screen reader reading on through the card meets the words
twice, once here and once in the shown verdict.

Where an answer gets a verdict: an exercise card (a lesson, a notebook, the Sandbox's Practice
view: :mod:`widgets.game.exercise`) and a classroom learner's question card
(:mod:`widgets.classroom.poll_view`). Tests: tests/test_live_verdict.py, the browser journeys
tests/browser/board_keyboard.py (an exercise answered by keyboard in JupyterLab and Voilà) and
tests/browser/test_classroom_poll_controls.py (a class question's verdict, in Chinese).
"""

from __future__ import annotations

import param
from panel.reactive import ReactiveHTML

from nefertiti_core.files.exercises import Feedback

__all__ = ["LiveVerdict", "verdict_words"]

#: Visually hidden, still read (the usual "screen-reader only" rules): the host takes no room.
LIVE_CSS = """
:host { height: 0; margin: 0; }
.verdict-live {
    position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
    overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap;
}
"""

#: The words into the region: emptied first, then written a moment later, so that the same
#: verdict twice (the same wrong answer given again) is said twice.
SAY_JS = """
clearTimeout(state.timer);
region.textContent = "";
const text = data.said[0] || "";
if (text) state.timer = setTimeout(() => { region.textContent = text; }, 50);
"""


def verdict_words(feedback: Feedback) -> str:
    """What the region says for a verdict: the engine's explanation (the verdict, then why), in
    the language it was checked in."""
    return feedback.explanation or feedback.headline


class LiveVerdict(ReactiveHTML):
    """The live region (see the module's doc). ``said``: [the words, a count], the count
    raised each time they are to be said; :meth:`say` and :meth:`show` set it."""

    said = param.List(default=["", 0])

    _template = (
        '<div id="region" class="verdict-live" role="status" aria-live="polite" '
        'aria-atomic="true"></div>'
    )
    _scripts = {
        "render": 'region.textContent = data.said[0] || "";',
        "said": SAY_JS,
    }

    def __init__(self, **params):
        params.setdefault("stylesheets", [LIVE_CSS])
        params.setdefault("margin", 0)
        params.setdefault("sizing_mode", "stretch_width")
        params.setdefault("height", 0)
        super().__init__(**params)

    @property
    def text(self) -> str:
        """The words the region holds now ("" before any verdict)."""
        return self.said[0]

    def say(self, text: str) -> None:
        """Say ``text`` (again, if it is the words already there)."""
        self.said = [str(text), self.said[1] + 1]

    def show(self, text: str) -> None:
        """Hold ``text``: said if it is new; nothing said for the same words or for none."""
        if str(text) != self.said[0]:
            self.say(text)
