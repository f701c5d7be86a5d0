"""widgets/server/motion.py: the stylesheet that holds the served pages and the notebooks' components
still for a visitor who asks for less motion, and its one entry in Panel's stylesheets. The
browser journeys (tests/browser/test_accessibility.py, test_jupyterlab.py, test_voila.py) check
what Chromium computes with and without the setting."""

from __future__ import annotations

import re

import panel as pn

from widgets.server.motion import REDUCED_MOTION_CSS, hold_still


def test_the_stylesheet_acts_only_when_motion_is_to_be_reduced():
    """Everything in it sits in one ``prefers-reduced-motion: reduce`` block: a visitor who
    asks for nothing sees the pages as they are."""
    css = REDUCED_MOTION_CSS.strip()
    assert css.startswith("@media (prefers-reduced-motion: reduce) {") and css.endswith("}")
    inner = css[css.index("{") + 1 : -1]
    assert "@media" not in inner
    assert inner.count("{") == inner.count("}") == 2


def test_animations_and_transitions_take_no_time_and_the_spinner_stands():
    for rule in (
        "animation-duration: 0s !important",
        "animation-iteration-count: 1 !important",
        "transition-duration: 0s !important",
        "scroll-behavior: auto !important",
    ):
        assert rule in REDUCED_MOTION_CSS, rule
    spinner = re.search(r":host\(\.loader\) div::after \{([^}]*)\}", REDUCED_MOTION_CSS)
    assert spinner and "animation-name: none !important" in spinner.group(1)


def test_hold_still_adds_the_stylesheet_once_beside_what_is_there():
    before = list(pn.config.raw_css)
    try:
        pn.config.raw_css = [*before, "/* another */"]
        hold_still()
        hold_still()
        assert pn.config.raw_css.count(REDUCED_MOTION_CSS) == 1
        assert "/* another */" in pn.config.raw_css
    finally:
        pn.config.raw_css = before


def test_a_notebook_holds_still_too():
    """What a notebook applies before it shows a component (JupyterLab, Voilà) includes the
    stylesheet: the lessons' and the Sandbox's components there hold still as the served pages
    do (tests/browser/test_jupyterlab.py and test_voila.py read it in Chromium)."""
    from widgets.server import patches

    before = list(pn.config.raw_css)
    try:
        pn.config.raw_css = [css for css in before if css != REDUCED_MOTION_CSS]
        patches.apply_notebook()
        assert pn.config.raw_css.count(REDUCED_MOTION_CSS) == 1
    finally:
        pn.config.raw_css = before
