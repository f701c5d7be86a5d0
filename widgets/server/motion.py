"""The served pages and the notebooks' components hold still for a visitor whose system asks
for less motion (``prefers-reduced-motion: reduce``, WCAG 2.3.3; a setting people with
vestibular disorders or attention difficulties turn on).

The tutor's own styles move nothing; what moves comes with Panel: the spinner a page shows while
it is built (``LoadingSpinner``: a disc turning for ever), the fade of a column's scroll button,
and the notifications' toasts (Notyf: sliding in and out). Those live in the page's head and in
each widget's shadow root, which a page's own ``<style>`` does not reach; Panel adds
``pn.config.raw_css`` to both, so :data:`REDUCED_MOTION_CSS` goes there (:func:`hold_still`,
called by ``widgets.serve`` before any page is built, and in a notebook, JupyterLab or Voilà,
by ``widgets.server.patches.apply_notebook`` before any component is shown).

Under ``reduce`` every animation and transition takes no time (the element is at once where it
would end: a toast still appears and goes, as Notyf waits for its animation's end to remove it)
and the spinner does not turn at all. Without the setting nothing changes.
"""

from __future__ import annotations

__all__ = ["REDUCED_MOTION_CSS", "hold_still"]

#: Instant changes instead of movement, when the visitor asks for it; the spinner stands still.
REDUCED_MOTION_CSS = """@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after {
    animation-duration: 0s !important;
    animation-delay: 0s !important;
    animation-iteration-count: 1 !important;
    transition-duration: 0s !important;
    transition-delay: 0s !important;
    scroll-behavior: auto !important;
  }
  :host(.loader) div::after { animation-name: none !important; }
}"""


def hold_still() -> None:
    """Add :data:`REDUCED_MOTION_CSS` to Panel's stylesheets for every page and widget (once)."""
    import panel as pn

    if REDUCED_MOTION_CSS not in pn.config.raw_css:
        pn.config.raw_css = [*pn.config.raw_css, REDUCED_MOTION_CSS]
