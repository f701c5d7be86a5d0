"""A class question's remaining time on a page, counted down in the browser.

The server sends the question's deadline once (and its own clock at that moment, so that a
device whose clock is off still counts the right seconds); the browser counts down four times a
second with no message to or from the server. At zero it says that the answers are locked; the
lock itself is the server's (:mod:`.poll_controls`: the deadline checked on every answer), and
each page's view refreshes itself once when the deadline passes (:func:`at_deadline`).
"""

from __future__ import annotations

import param
from panel.io.state import set_curdoc
from panel.reactive import ReactiveHTML

from nefertiti_core.engine.i18n import tr
from widgets.classroom import poll_controls as controls
from widgets.theme import ALERT, FONT_STACK

__all__ = ["Countdown", "at_deadline", "timer_label"]

#: Counts down from the deadline (ms since the epoch) less the device clock's offset from the
#: server's (``sent`` is the server's clock when it sent them); ``data-left`` holds the seconds
#: left, for tests.
COUNT_JS = """
if (state.interval) { clearInterval(state.interval); state.interval = null; }
state.offset = data.sent - Date.now();
const tick = () => {
  if (!data.deadline) { timer.textContent = ""; timer.dataset.left = ""; return false; }
  const left = Math.max(0, Math.ceil((data.deadline - (Date.now() + state.offset)) / 1000));
  const m = Math.floor(left / 60), s = left % 60;
  const time = m + ":" + String(s).padStart(2, "0");
  timer.textContent = left > 0 ? data.running.replace("{time}", time) : data.done;
  timer.dataset.left = String(left);
  return left > 0;
};
if (tick()) {
  state.interval = setInterval(() => {
    if (!tick()) { clearInterval(state.interval); state.interval = null; }
  }, 250);
}
"""


class Countdown(ReactiveHTML):
    """The time left to answer, in the page's language (``running``: the words with
    ``{time}``; ``done``: what it says at zero). :meth:`show` sets it from a poll."""

    deadline = param.Number(default=0, doc="the deadline, ms since the epoch; 0: none")
    sent = param.Number(default=0, doc="the server's clock when the deadline was sent (ms)")
    running = param.String(default="{time}")
    done = param.String(default="")

    _template = (
        f'<div id="timer" class="poll-timer" role="timer" data-left="" '
        f'style="font-family:{FONT_STACK.replace(chr(34), chr(39))};font-weight:700;'
        f'color:{ALERT};font-size:inherit"></div>'
    )
    _scripts = {
        "render": "self.count()",
        "deadline": "self.count()",
        "sent": "self.count()",
        "count": COUNT_JS,
        "remove": "if (state.interval) { clearInterval(state.interval); state.interval = null; }",
    }

    def show(self, poll, lang: str) -> None:
        """Count down to ``poll``'s deadline (nothing for none, a revealed one, or one whose
        answers are locked: the view says so in words)."""
        deadline = getattr(poll, "deadline", None)
        running = poll is not None and deadline is not None and not poll.revealed
        running = running and not poll.answers_locked()
        self.param.update(
            deadline=deadline * 1000 if running else 0,
            sent=controls.now() * 1000,
            running=tr(lang, "poll.timer.left", time="{time}"),
            done=tr(lang, "poll.locked"),
        )
        self.visible = running


def timer_label(seconds: int, lang: str) -> str:
    """A time limit in the teacher's menu: "No time limit", "30 s", "2 min"."""
    if not seconds:
        return tr(lang, "poll.timer.none")
    if seconds % 60 == 0:
        return tr(lang, "poll.timer.minutes", n=seconds // 60)
    return tr(lang, "poll.timer.seconds", n=seconds)


def at_deadline(poll, doc, refresh, scheduled: set) -> None:
    """Call ``refresh`` (on the page's document ``doc``) once when ``poll``'s deadline passes:
    the view's buttons go inert, its words say the answers are locked. ``scheduled``: the
    view's own set of the deadlines it waits for (one wait per deadline). No page: nothing to
    refresh (the server checks the deadline on every answer)."""
    deadline = getattr(poll, "deadline", None)
    if doc is None or deadline is None or poll.revealed or poll.locked:
        return
    key = (id(poll), deadline)
    if deadline <= controls.now() or key in scheduled:
        return
    scheduled.add(key)
    wait_ms = max(0, int((deadline - controls.now()) * 1000)) + 150

    def run() -> None:
        scheduled.discard(key)
        with set_curdoc(doc):
            refresh()

    try:
        doc.add_timeout_callback(run, wait_ms)
    except Exception:  # the page is gone
        scheduled.discard(key)
