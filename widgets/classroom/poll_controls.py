"""The teacher's controls over a class question, as data (no view here): asked anonymously,
answers locked, a time limit.

* **Anonymous** (chosen when asking, :meth:`~.poll.Polls.push`): no page ever shows a name with
  an answer, nor who has answered and who not: not the teacher's page, not the class view, not
  the projector, not at the reveal; only how many answered and, at the reveal, how many gave
  each answer. The server still knows each learner's answer (so that they may change it and
  read their own verdict), but the class record does not count an anonymous question's answers
  as right or wrong for anyone: a count kept per learner would name them after all.
* **Locked** (:meth:`~.poll.Polls.lock`): no answer is taken or changed any more, until the
  teacher unlocks it or reveals it; a forged late answer is refused on the server.
* **A time limit** (:data:`TIMER_CHOICES`, seconds): the question's ``deadline`` (seconds since
  the epoch, the server's clock: one clock for every process of a PostgreSQL deployment) is
  stored with it in the polls' JSON; once it has passed the answers are locked, checked on
  every answer and every read (:meth:`~.poll.Poll.answers_locked`), so the lock holds after a
  restart and with no page open. The pages count down in the browser from the deadline (no
  message per second); each view refreshes itself once when it passes. Unlocking a question
  whose time ran out takes its time limit away (the teacher decided to let answers in again).
"""

from __future__ import annotations

import math
import time

__all__ = ["MAX_TIMER_S", "TIMER_CHOICES", "deadline_after", "now", "timer_seconds"]

#: The time limits the teacher's menu offers, in seconds (0: none). A test may patch it in the
#: served process to offer a short one.
TIMER_CHOICES: tuple[int, ...] = (0, 30, 60, 120)
#: The longest time limit a question may have (a forged one is refused).
MAX_TIMER_S = 3600


def now() -> float:
    """The server's clock for deadlines (seconds since the epoch, shared by every process)."""
    return time.time()


def timer_seconds(value) -> int:
    """A time limit as asked (0 for none); ValueError for anything but a whole number of
    seconds from 0 to :data:`MAX_TIMER_S`."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TIMER_S:
        raise ValueError(f"not a time limit: {str(value)[:20]!r}")
    return value


def deadline_after(seconds: int) -> float | None:
    """The deadline of a question asked now with ``seconds`` to answer (None: no time limit)."""
    seconds = timer_seconds(seconds)
    return now() + seconds if seconds else None


def stored_deadline(value) -> float | None:
    """A deadline read back from the store (a finite number, or None)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)
