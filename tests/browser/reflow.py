"""A page at 200 % zoom, read in Chromium: for the reflow check of test_accessibility.py
(WCAG 1.4.4 Resize Text and 1.4.10 Reflow).

Browser zoom halves the CSS pixels a window has: a 1280 x 800 window at 200 % lays a page out
as a 640 x 400 viewport drawn at twice the density (:data:`ZOOMED`). :data:`REFLOW` reads, through
the widgets' shadow roots, what such a page would lose: its width beyond the window (a reader
would scroll sideways for every line), buttons, fields and text lying left or right of the window
(not reachable by scrolling down), and text cut by a box that hides its overflow (a box narrower
than 2 px is the screen readers' hidden heading and labels, not text anyone sees).
"""

from __future__ import annotations

#: A 1280 x 800 window at 200 % zoom, as Chromium lays it out.
ZOOMED = {"viewport": {"width": 640, "height": 400}, "device_scale_factor": 2}

#: {"width": the page's scroll width, "window": innerWidth, "outside": [what lies beside the
#: window], "clipped": [text cut by its box]}.
REFLOW = """() => {
  const outside = [], clipped = [], W = innerWidth;
  const name = el => `${el.tagName.toLowerCase()} "${(el.innerText || el.value || '').trim().slice(0, 40)}"`;
  const walk = root => {
    for (const el of root.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      const visible = box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
      if (visible && el.matches('button, select, input, textarea, a, p, li, label, h2, h3, h4, td, th')
          && (box.left < -1 || box.right > W + 1))
        outside.push(`${name(el)} ${Math.round(box.left)}..${Math.round(box.right)}`);
      const style = getComputedStyle(el);
      if (visible && el.clientWidth > 2 && el.scrollWidth > el.clientWidth + 1
          && ['hidden', 'clip'].includes(style.overflowX) && (el.innerText || '').trim())
        clipped.push(`${name(el)} ${el.scrollWidth} > ${el.clientWidth}`);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return {width: document.scrollingElement.scrollWidth, window: W, outside, clipped};
}"""


def lost(page) -> list[str]:
    """What ``page`` loses at its width: sideways scrolling, things beside the window, cut text
    (empty when nothing)."""
    found = page.evaluate(REFLOW)
    out = []
    if found["width"] > found["window"] + 1:
        out.append(f"the page scrolls sideways: {found['width']} > {found['window']} px")
    out += [f"beside the window: {o}" for o in found["outside"]]
    out += [f"cut: {c}" for c in found["clipped"]]
    return out
