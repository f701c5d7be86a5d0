"""What moves on a served page, read in Chromium: for the reduced-motion check of
test_accessibility.py (widgets/server/motion.py makes the pages still when asked).

Three things move on the served pages, all Panel's: the spinner while a page is built, the fade
of a column's scroll button, and a notification's toast. :data:`WATCH_SPINNER` (an init script)
notes the spinner's animation in every frame while it is shown (it is replaced by the page a
moment later); :func:`motion` reads the other two: the scroll buttons in the widgets' shadow
roots and a toast made for the purpose (Notyf's stylesheet is the page's own).
"""

from __future__ import annotations

#: Before the page's own scripts: every animation name the spinner's disc shows while it is on
#: the page (``window.nefertitiSpinner``), read in each frame for at most a minute.
WATCH_SPINNER = """(() => {
  const seen = window.nefertitiSpinner = [];
  const started = Date.now();
  const look = root => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) {
        if (el.classList.contains('loader')) {
          const disc = el.shadowRoot.querySelector('div');
          if (disc) {
            const style = getComputedStyle(disc, '::after');
            const seenNow = `${style.animationName} ${style.animationDuration}`;
            if (!seen.includes(seenNow)) seen.push(seenNow);
          }
        }
        look(el.shadowRoot);
      }
    }
  };
  const frame = () => { look(document); if (Date.now() - started < 60000) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
})();"""

#: The scroll buttons' transitions and a toast's animation, as the page computes them.
MOTION = """() => {
  const scroll = [];
  const walk = root => {
    for (const el of root.querySelectorAll('*')) {
      if (el.classList.contains('scroll-button')) scroll.push(getComputedStyle(el).transitionDuration);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  const toast = document.createElement('div');
  toast.className = 'notyf__toast notyf__toast--upper';
  document.body.appendChild(toast);
  const style = getComputedStyle(toast);
  const out = {scroll, toast: `${style.animationName} ${style.animationDuration}`,
               spinner: window.nefertitiSpinner || []};
  toast.remove();
  return out;
}"""


def motion(page) -> dict:
    """{"scroll": [each scroll button's transition-duration], "toast": "<animation-name>
    <animation-duration>" of a toast, "spinner": [each animation the spinner showed]}."""
    return page.evaluate(MOTION)


def moving(found: dict) -> list[str]:
    """What still moves in ``found`` (:func:`motion`): a transition or animation that takes
    time, or a spinner that turns."""
    out = [
        f"scroll button {d}"
        for d in found["scroll"]
        if any(float(s[:-1]) > 0 for s in d.split(","))
    ]
    name, duration = found["toast"].split(" ", 1)
    if name != "none" and float(duration.split(",")[0][:-1]) > 0:
        out.append(f"toast {found['toast']}")
    out += [f"spinner {s}" for s in found["spinner"] if not s.startswith("none ")]
    return list(dict.fromkeys(out))  # each once


#: Every element of the page (shadow roots too) under ``selector`` that moves: an animation
#: (other than none) or a transition that takes time, as "<tag>.<class> <what> <duration>".
MOVING_UNDER = """(selector) => {
  const out = [];
  const takes = d => d.split(',').some(s => parseFloat(s) > 0);
  const walk = root => {
    for (const el of root.querySelectorAll('*')) {
      const style = getComputedStyle(el);
      const host = el.getRootNode().host;
      const name = `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join('.')}` +
        (host ? ` in ${host.className.split(' ').slice(-2).join('.')}` : '');
      if (style.animationName !== 'none' && takes(style.animationDuration))
        out.push(`${name} animation ${style.animationName} ${style.animationDuration}`);
      if (takes(style.transitionDuration))
        out.push(`${name} transition ${style.transitionProperty} ${style.transitionDuration}`);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  for (const top of document.querySelectorAll(selector)) walk(top);
  return [...new Set(out)];
}"""


def moving_under(page, selector: str) -> list[str]:
    """What moves, or would move when it changes, inside the elements ``selector`` finds (their
    shadow roots included): a notebook's outputs, where the tutor's components are."""
    return page.evaluate(MOVING_UNDER, selector)
