"""The classroom's poll components, for the room's pages to place:

- :class:`TeacherPollPanel`: pick an exercise (the lessons' in order, or a generated practice
  one), ask the class, watch the answers arrive (a bar per answer, who has answered and who not),
  reveal the engine's right answer with its explanation; sized for a projector.
- :class:`LearnerPollCard`: one learner's card: the question, its position on a small board,
  the choices (or a box for a number), their answer kept, and their verdict after the reveal.
- :class:`ClassView`: a table of the class: learner, rules seen, right, wrong, and for the
  current question whether each has answered (what, only once it is revealed).
- :class:`ProjectorPollView`: the class question for the projector view: the question, how
  many have answered, and at the reveal the answers' bars and the right answer; no name.

Until the reveal no view shows what anyone answered, nor how many gave each answer
(:meth:`~.poll.Poll.tally`): only how many have answered, and on the teacher's page who.

Each takes the room's :class:`~widgets.classroom.poll.Polls` and follows it (``polls.on_change``):
a change made from another learner's page is applied to this page's own document on its next
tick (Bokeh documents are per session). Every text is in ``messages/<lang>/polls.json``; learner
names and every other text are escaped. Nothing here decides a rule: choices, right answers and
verdicts are the engine's (:meth:`Exercise.check`, through :mod:`.poll`).

The room wires them::

    panel = TeacherPollPanel(polls, learners=lambda: room_learners_by_id, lang="en")
    card = LearnerPollCard(polls, learner_id, lang="de", submit=None)  # submit: (id, choice)
    table = ClassView(polls, learners=None)  # learners: a callable giving the ids to list
    projected = ProjectorPollView(polls, lang="de")  # no name, no control

``submit`` (default ``polls.answer``) lets the room check its own rules first (a paused room, a
removed learner): it must return the key or raise :class:`~.poll.PollError`.
"""

from __future__ import annotations

import functools
import logging

import panel as pn
import param
from panel.io.state import set_curdoc

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.practice import Generated
from widgets.classroom import poll_controls as controls
from widgets.classroom.countdown import Countdown, at_deadline, timer_label
from widgets.classroom.poll import (
    CARD_CHANGES,
    Poll,
    PollError,
    Polls,
    lesson_exercises,
    practice_exercises,
)
from widgets.classroom.question_push import QUESTION_VIEWS, QuestionSession
from widgets.game.accessible import LabelledCheckbox
from widgets.game.board import Board
from widgets.game.common import HTML, esc
from widgets.game.exercise import feedback_html
from widgets.game.live_verdict import LiveVerdict, verdict_words
from widgets.game.rules_view import link_rule_ids
from widgets.game.session import served_document
from widgets.theme import (
    ACCENT,
    ALERT,
    BAR_TRACK,
    EXPLANATION,
    FONT_STACK,
    POLL_BAR,
    PROBLEM_BACKGROUND,
    PROBLEM_TEXT,
    TABLE_HEAD_LINE,
    TEXT_HINT,
    TEXT_NONE,
    TEXT_NOTE,
    TEXT_OFF,
    VERDICT_COLOURS,
)

__all__ = ["ClassView", "LearnerPollCard", "ProjectorPollView", "TeacherPollPanel", "bars_html"]

log = logging.getLogger("widgets.classroom")

LANGS = ["en", "de", "zh"]
RIGHT = VERDICT_COLOURS["right"]  # text, background, bar
WRONG = VERDICT_COLOURS["wrong"]
BAR = POLL_BAR
PRACTICE_SHOWN = 24  # generated exercises offered in the teacher's menu
QUESTION_CHARS = 90  # a question in the menu is cut here


def _cut(text: str, limit: int = QUESTION_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


class _FollowsPolls(pn.viewable.Viewer):
    """A view that refreshes when the room's polls change, on its own page's document."""

    lang = param.Selector(default="en", objects=LANGS)

    def _follow(self, polls: Polls) -> None:
        self.polls = polls
        self._doc = served_document()
        self._pending = False
        self._deadlines: set = set()  # the deadlines this view waits for (countdown.at_deadline)
        self._stop = polls.on_change(self._on_polls)
        # A served page follows the polls only once its browser has loaded it: changes made to
        # its models before that were lost in Chromium (a learner's page opened as the teacher
        # asked showed the question but kept the answer box hidden), so they wait for onload.
        self._ready = self._doc is None
        if self._doc is not None:
            self._doc.on_session_destroyed(lambda _context: self.detach())
            pn.state.onload(self._on_load)
        self.param.watch(lambda *_: self.refresh(), "lang")

    def _on_load(self) -> None:
        self._ready = True
        self._refresh_safely()

    def detach(self) -> None:
        """Stop following the polls (a closed page)."""
        stop, self._stop = getattr(self, "_stop", None), None
        if stop is not None:
            stop()

    def _on_polls(self, _polls, _what) -> None:
        if not self._ready:  # _on_load refreshes
            return
        doc = self._doc
        if doc is None or doc is served_document():
            self._refresh_safely()
            return
        if self._pending:  # one refresh per tick, however many answers came
            return
        self._pending = True

        def run():
            self._pending = False
            with set_curdoc(doc):
                self._refresh_safely()

        try:
            doc.add_next_tick_callback(run)
        except Exception:  # the page is gone
            self._pending = False
            self.detach()

    def _change(self, work, then=None):
        """A change of the polls (a question asked, revealed, answered) is a change of the room,
        written to the store first: made off the event loop on a served page
        (:func:`~widgets.classroom.room_work.off_loop`, in order per room), ``then(result)`` on
        this page after it. A refusal (``PollError``) shows on the view. Outside a served page,
        at once; returns ``then``'s answer then (None while the change is on its way)."""
        from widgets.classroom.room import Refusal
        from widgets.classroom.room_work import off_loop

        answer = []

        def guarded():
            try:
                return work()
            except PollError as error:
                return error

        def done(result) -> None:
            if isinstance(result, PollError | Refusal):
                self._show_error(result.text(self.lang))
                self._refresh_safely()  # back to what the room actually kept
                answer.append(None)
                return
            answer.append(then(result) if then is not None else result)

        off_loop(f"polls:{id(self.polls)}", guarded, done)
        return answer[0] if answer else None

    def _refresh_safely(self) -> None:
        try:
            self.refresh()
        except Exception:  # one page's bug never reaches the learner who answered
            log.exception("%s refresh failed", type(self).__name__)

    def refresh(self) -> None:  # pragma: no cover - every subclass defines it
        raise NotImplementedError


def _guard(method):
    """A button's callback: a refusal becomes the view's error line, never a traceback."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            self.error.object = ""
            return method(self, *args, **kwargs)
        except PollError as error:
            self._show_error(error.text(self.lang))
        except Exception as error:  # a bug: say so in the view
            log.exception("%s failed", method.__qualname__)
            self._show_error(str(error))
        return None

    return wrapper


def _error_html(text: str) -> str:
    return (
        f"<div class='poll-error' style='color:{PROBLEM_TEXT};background:{PROBLEM_BACKGROUND};padding:6px 10px;"
        f"border-radius:4px;font-family:{esc(FONT_STACK)}'>{esc(text)}</div>"
    )


def bars_html(poll: Poll, lang: str, *, size: int = 22, compact: bool = False) -> str:
    """The answers as horizontal bars (label, bar, count), the right ones in green with a mark;
    nothing until the reveal (:meth:`Poll.tally`: while answers can change, a class view shows
    only who has answered). ``compact``: each answer on one line (a projector's narrow column).
    Texts escaped."""
    tally = poll.tally()
    if not tally.revealed:
        return ""
    counts = tally.counts
    total = max(1, len(tally.answered))
    right = tally.right
    rows = []
    for key, n in counts.items():
        is_right = key in right
        colour = RIGHT[2] if is_right else BAR
        said = "" if compact else f" {esc(tr(lang, 'poll.right_mark'))}"
        mark = (
            f" <span class='poll-right-mark' style='color:{RIGHT[0]};font-weight:700'>"
            f"\u2714{said}</span>"
            if is_right
            else ""
        )
        width = 100 * n / total
        if compact:
            rows.append(
                f"<div class='poll-bar{' poll-bar-right' if is_right else ''}' "
                f"data-key='{esc(key)}' style='display:flex;align-items:center;gap:10px;"
                f"margin:4px 0'><span class='poll-bar-label' style='flex:0 0 42%;"
                f"overflow-wrap:anywhere'>{esc(poll.label(key, lang))}{mark}</span>"
                f"<div style='flex:1 1 auto;background:{BAR_TRACK};border-radius:4px;"
                f"height:{size * 0.75:.0f}px'><div style='background:{colour};"
                f"width:{width:.1f}%;height:100%;border-radius:4px'></div></div>"
                f"<span class='poll-bar-count' style='flex:0 0 auto;min-width:1.2em;"
                f"text-align:right;font-weight:700'>{n}</span></div>"
            )
            continue
        rows.append(
            f"<div class='poll-bar{' poll-bar-right' if is_right else ''}' data-key='{esc(key)}'"
            f" style='margin:6px 0'>"
            f"<div style='display:flex;justify-content:space-between;gap:12px'>"
            f"<span class='poll-bar-label'>{esc(poll.label(key, lang))}{mark}</span>"
            f"<span class='poll-bar-count' style='font-weight:700'>{n}</span></div>"
            f"<div style='background:{BAR_TRACK};border-radius:4px;height:{size * 0.8:.0f}px'>"
            f"<div style='background:{colour};width:{width:.1f}%;height:100%;"
            f"border-radius:4px'></div></div></div>"
        )
    if not counts:
        rows.append(
            f"<div style='color:{TEXT_NONE}'>{esc(tr(lang, 'poll.teacher.nobody_yet'))}</div>"
        )
    return (
        f"<div class='poll-bars' style='font-family:{esc(FONT_STACK)};font-size:{size}px;"
        f"line-height:1.3'>{''.join(rows)}</div>"
    )


def _progress_html(poll: Poll, lang: str, size: int) -> str:
    """How many of those asked have answered (never what), and that the answers stay hidden
    until the reveal."""
    tally = poll.tally()
    progress = tr(lang, "poll.teacher.progress", answered=len(tally.answered), total=tally.total)
    hidden = (
        ""
        if tally.revealed
        else f"<div class='poll-hidden' style='color:{TEXT_HINT};font-size:0.7em;font-weight:400'>"
        f"{esc(tr(lang, 'poll.hidden'))}</div>"
    )
    hidden += _locked_html(poll, lang)
    return (
        f"<div class='poll-progress' data-answered='{len(tally.answered)}' "
        f"data-total='{tally.total}' style='font-family:{esc(FONT_STACK)};font-size:{size}px;"
        f"font-weight:700;line-height:1.3'>{esc(progress)}{hidden}</div>"
    )


def _locked_html(poll: Poll, lang: str) -> str:
    """ "Answers are locked" while a question's answers are locked (by the teacher or its time
    limit) and not yet revealed; "" otherwise."""
    if poll.revealed or not poll.answers_locked():
        return ""
    return (
        f"<div class='poll-locked' style='color:{ALERT};font-weight:700;font-size:0.8em'>"
        f"{esc(tr(lang, 'poll.locked'))}</div>"
    )


def _reveal_html(poll: Poll, lang: str, size: int) -> str:
    result = poll.result
    ink, paper, edge = RIGHT
    explanation = esc(result.explanation(lang))
    return link_rule_ids(
        f"<div class='poll-reveal' style='font-family:{esc(FONT_STACK)};color:{ink};"
        f"background:{paper};border-left:6px solid {edge};padding:10px 14px;border-radius:4px;"
        f"line-height:1.45;font-size:{size}px'>"
        f"<div class='poll-right-answer' style='font-weight:700;font-size:1.15em'>\u2714 "
        f"{esc(tr(lang, 'poll.right_answer', answer=result.right_answer(lang)))}</div>"
        f"<div style='color:{EXPLANATION};margin-top:6px'><b>{esc(tr(lang, 'poll.why'))}</b> "
        f"{explanation}</div></div>",
        lang,
    )


# ------------------------------------------------------------------------------------ the teacher
class TeacherPollPanel(_FollowsPolls):
    """The teacher's poll panel: pick, ask, watch the answers, reveal (for a projector).

    Its parts are public, for a page to place and a test to drive as the teacher does: the menu
    ``pick``, the buttons ``push_button`` (Ask), ``reveal_button`` and ``close_button`` (the
    question goes from every page; the history and the class record keep it), and the panes
    ``question``, ``bars`` (the answers), ``who`` (who has answered), ``result`` (the revealed
    answer) and ``error``."""

    def __init__(
        self,
        polls: Polls,
        *,
        learners=None,
        lang: str = "en",
        font_px: int = 22,
        board: bool = True,
        **p,
    ):
        """``learners``: a callable giving the learners to ask now (ids, or ``{id: name}``);
        default: every learner of the class record. ``board``: the question's position beside
        the answers (for the class to look at on the projector)."""
        super().__init__(lang=lang, **p)
        self.show_board = board
        self.session: QuestionSession | None = None
        self.board: Board | None = None
        if board:
            # made with the panel, as a learner's card makes its own (question_push.py): were it
            # made with the first question, its widgets would be built on the event loop just
            # when every learner's page waits for that question
            self.session = QuestionSession(lang=lang, hints=False)
            self.board = Board(
                self.session,
                fit=True,
                max_height="70vh",
                on_square=lambda _cell: None,
                shared=True,
                names="poll-board",  # the page's table has the "board-..." sources
            )
        self.learners = learners or (lambda: list(polls.record.learners()))
        self.font_px = font_px
        self._lessons = lesson_exercises()
        self._practice: list[Generated] = practice_exercises()[:PRACTICE_SHOWN]
        self._title = HTML("", sizing_mode="stretch_width", css_classes=["poll-title"])
        self.pick = pn.widgets.Select(
            sizing_mode="stretch_width", css_classes=["poll-pick"], stylesheets=[self._big_css()]
        )
        big = [f".bk-btn {{ font-size: {max(16, font_px - 4)}px; }}"]
        self.push_button = pn.widgets.Button(
            color="primary", css_classes=["poll-push"], width=220, height=52, stylesheets=big
        )
        self.push_button.on_click(self._on_push)
        self.reveal_button = pn.widgets.Button(
            color="success",
            css_classes=["poll-reveal-button"],
            width=260,
            height=52,
            stylesheets=big,
        )
        self.reveal_button.on_click(self._on_reveal)
        self.close_button = pn.widgets.Button(
            color="default",
            css_classes=["poll-close-button"],
            width=220,
            height=52,
            stylesheets=big,
        )
        self.close_button.on_click(self._on_close)
        # the controls of the next question (poll_controls.py): anonymous, a time limit; and of
        # the current one: lock or unlock its answers, the time left
        self.anonymous_box = LabelledCheckbox(css_classes=["poll-anonymous"])
        self.timer_pick = pn.widgets.Select(width=170, css_classes=["poll-timer-pick"])
        self.lock_button = pn.widgets.Button(
            color="warning", css_classes=["poll-lock-button"], width=220, height=52, stylesheets=big
        )
        self.lock_button.on_click(self._on_lock)
        self.countdown = Countdown(
            css_classes=["poll-countdown"], styles={"font-size": f"{font_px}px"}
        )
        self.question = HTML("", sizing_mode="stretch_width", css_classes=["poll-question"])
        self.bars = HTML("", sizing_mode="stretch_width", css_classes=["poll-counts"])
        self.who = HTML("", sizing_mode="stretch_width", css_classes=["poll-who"])
        self.result = HTML("", sizing_mode="stretch_width", css_classes=["poll-result"])
        self.error = HTML("", sizing_mode="stretch_width", css_classes=["poll-error-line"])
        self._board_box = pn.Column(
            *([self.board] if self.board is not None else []),
            sizing_mode="stretch_width",
            css_classes=["poll-board"],
        )
        buttons = pn.FlexBox(
            self.reveal_button,
            self.lock_button,
            self.close_button,
            flex_wrap="wrap",
            sizing_mode="stretch_width",
        )
        answers = pn.Column(
            self.countdown, self.bars, self.who, buttons, sizing_mode="stretch_width"
        )
        self._layout = pn.Column(
            self._title,
            pn.Row(self.pick, self.push_button, sizing_mode="stretch_width"),
            pn.Row(self.timer_pick, self.anonymous_box, sizing_mode="stretch_width"),
            self.error,
            self.question,
            self.result,  # under the question: on a 1024 x 768 projector it stays in view
            pn.Row(answers, self._board_box, sizing_mode="stretch_width") if board else answers,
            sizing_mode="stretch_width",
            css_classes=["poll-teacher"],
        )
        self._follow(polls)
        self.refresh()

    def __panel__(self):
        return self._layout

    def _big_css(self) -> str:
        return f"select, .bk-input {{ font-size: {max(14, self.font_px - 6)}px; }}"

    def _show_error(self, text: str) -> None:
        self.error.object = _error_html(tr(self.lang, "poll.error", reason=text))

    # --- the menu
    def _menu(self) -> dict:
        lang = self.lang
        groups: dict[str, dict[str, str]] = {}
        topics: list[str] = []
        for n, (topic, exercise) in enumerate(self._lessons, start=1):
            if topic not in topics:
                topics.append(topic)
            group = tr(
                lang,
                "poll.teacher.lesson_group",
                number=len(topics),
                topic=tr(lang, f"poll.topic.{topic}"),
            )
            label = tr(lang, "poll.teacher.item", number=n, question=_cut(exercise.prompt(lang)))
            groups.setdefault(group, {})[label] = f"lesson:{exercise.id}"
        practice: dict[str, str] = {}
        for n, g in enumerate(self._practice, start=len(self._lessons) + 1):
            question = _cut(g.exercise.prompt(lang))
            label = tr(
                lang,
                "poll.teacher.practice_item",
                theme=tr(lang, f"practice.theme.{g.theme}"),
                level=g.difficulty,
                question=question,
            )
            practice[f"{n}. {label}"] = f"practice:{g.key}"
        groups[tr(lang, "poll.teacher.practice_group")] = practice
        return groups

    def select(self, ref: str) -> None:
        """Choose the exercise to ask (what the menu does), by its ref."""
        self.pick.value = ref

    # --- actions
    @_guard
    def _on_push(self, _event=None) -> None:
        self.push()

    def push(self, ref: str | None = None) -> Poll | None:
        """Ask the chosen exercise (or ``ref``) of the learners now in the room."""
        ref = ref or self.pick.value
        learners = self.learners()
        if not learners:
            self._show_error(tr(self.lang, "poll.teacher.no_learners"))
            return None
        polls, anonymous = self.polls, bool(self.anonymous_box.value)
        seconds = self.timer_pick.value or 0
        return self._change(lambda: polls.push(ref, learners, anonymous=anonymous, seconds=seconds))

    @_guard
    def _on_lock(self, _event=None) -> None:
        poll = self.polls.current
        self.lock(not (poll is not None and poll.answers_locked()))

    def lock(self, locked: bool = True) -> bool | None:
        """Lock the current question's answers, or unlock them (what the Lock button does):
        off the event loop, through the room (:meth:`Polls.lock`)."""
        polls = self.polls
        return self._change(lambda: polls.lock(locked))

    @_guard
    def _on_reveal(self, _event=None) -> None:
        self._change(self.polls.reveal)

    @_guard
    def _on_close(self, _event=None) -> None:
        self.close()

    def close(self) -> bool | None:
        """Close the current question (what the Close button does): off the event loop, through
        the room (:meth:`Polls.close`); True when closed, None while on its way."""
        return self._change(self.polls.close)

    # --- showing
    def _show_position(self, poll: Poll) -> None:
        """The question's position on the panel's board beside the answers, never played on:
        the same position object the learners' cards show (built once per language)."""
        if self.session is None:
            return
        self.session.lang = self.lang
        self.session.show(QUESTION_VIEWS.get(poll, self.lang).state)  # shared with the learners

    def refresh(self) -> None:
        lang, size = self.lang, self.font_px
        font = esc(FONT_STACK)
        self._title.object = (
            f"<h2 style='margin:2px 0;font-family:{font};font-size:{size + 4}px'>"
            f"{esc(tr(lang, 'poll.teacher.title'))}</h2>"
        )
        menu = self._menu()
        if self.pick.groups != menu:
            value = self.pick.value
            self.pick.groups = menu
            refs = [ref for group in menu.values() for ref in group.values()]
            self.pick.value = value if value in refs else refs[0]
        self.pick.name = tr(lang, "poll.teacher.pick")
        self.push_button.name = tr(lang, "poll.teacher.push")
        self.reveal_button.name = tr(lang, "poll.teacher.reveal")
        self.close_button.name = tr(lang, "poll.teacher.close")
        self.anonymous_box.name = tr(lang, "poll.teacher.anonymous")
        timers = {timer_label(n, lang): n for n in controls.TIMER_CHOICES}
        if self.timer_pick.options != timers:
            value = self.timer_pick.value
            self.timer_pick.options = timers
            self.timer_pick.value = value if value in timers.values() else 0
        self.timer_pick.name = tr(lang, "poll.teacher.timer")
        poll = self.polls.current
        self.close_button.visible = self._board_box.visible = poll is not None
        self.countdown.show(poll, lang)
        self.lock_button.visible = poll is not None and not poll.revealed
        locked = poll is not None and poll.answers_locked()
        # named even while hidden (no question yet): a button without a name is what a screen
        # reader and axe-core's button-name rule refuse, hidden or not
        self.lock_button.name = tr(lang, "poll.teacher.unlock" if locked else "poll.teacher.lock")
        if poll is not None:
            at_deadline(poll, self._doc, self._refresh_safely, self._deadlines)
        if poll is None:
            last = self.polls.last  # closed by the teacher, or none asked yet
            none = (
                tr(lang, "poll.teacher.closed", number=last.number)
                if last is not None
                else tr(lang, "poll.teacher.none")
            )
            self.question.object = (
                f"<div class='poll-none' style='font-family:{font};font-size:{size}px;"
                f"color:{TEXT_NOTE}'>{esc(none)}</div>"
            )
            self.bars.object = self.who.object = self.result.object = ""
            self.reveal_button.visible = False
            return
        note = (
            f"<div style='color:{TEXT_HINT};font-size:0.7em'>{esc(tr(lang, 'poll.teacher.free'))}</div>"
            if poll.free
            else ""
        )
        self.question.object = (
            f"<div style='font-family:{font};font-size:{size}px;line-height:1.4'>"
            f"<b>{esc(tr(lang, 'poll.number', number=poll.number))}</b> "
            f"<span class='poll-prompt'>{esc(poll.prompt(lang))}</span>{note}</div>"
        )
        # until the reveal: who has answered and who not (names, never what they answered)
        self.bars.object = bars_html(poll, lang, size=size)
        self._show_position(poll)
        tally = poll.tally()
        if tally.anonymous:  # how many, never who
            self.who.object = (
                f"<div style='font-family:{font};font-size:{max(14, size - 4)}px;line-height:1.4'>"
                f"{_progress_html(poll, lang, max(14, size - 4))}"
                f"<div class='poll-anonymous-note' style='color:{TEXT_HINT}'>"
                f"{esc(tr(lang, 'poll.teacher.anonymous_note'))}</div></div>"
            )
            self.reveal_button.visible = not poll.revealed
            self.result.object = _reveal_html(poll, lang, size) if poll.revealed else ""
            return
        names = tr(lang, "status.list.sep").join(esc(self.polls.name(x)) for x in tally.answered)
        if tally.waiting:  # after the reveal they will not answer any more
            key = "poll.teacher.no_answer" if tally.revealed else "poll.teacher.waiting"
            still = tr(
                lang,
                key,
                names=tr(lang, "status.list.sep").join(map(self.polls.name, tally.waiting)),
            )
        else:
            still = tr(lang, "poll.teacher.all_answered")
        self.who.object = (
            f"<div style='font-family:{font};font-size:{max(14, size - 4)}px;line-height:1.4'>"
            f"{_progress_html(poll, lang, max(14, size - 4))}"
            f"<div class='poll-answered-names'>{names}</div>"
            f"<div class='poll-waiting' style='color:{ACCENT}'>{esc(still)}</div></div>"
        )
        self.reveal_button.visible = not poll.revealed
        self.result.object = _reveal_html(poll, lang, size) if poll.revealed else ""


# ------------------------------------------------------------------------------------ the projector
class ProjectorPollView(_FollowsPolls):
    """The class question as the projector shows it, large, to the whole room: its number and
    words, then how many have answered (nothing of what, until the reveal), and at the reveal
    the answers' bars and the engine's right answer with its reason. No learner's name, no
    control: nothing here changes anything.

    Its parts are public, for the page to place and a test to read: the panes ``question``,
    ``progress``, ``bars`` and ``result``; ``has_question`` says whether there is one."""

    def __init__(self, polls: Polls, *, lang: str = "en", font_px: int = 24, **p):
        super().__init__(lang=lang, **p)
        self.font_px = font_px
        self.question = HTML("", sizing_mode="stretch_width", css_classes=["poll-question"])
        self.progress = HTML("", sizing_mode="stretch_width", css_classes=["poll-counts-only"])
        self.bars = HTML("", sizing_mode="stretch_width", css_classes=["poll-counts"])
        self.result = HTML("", sizing_mode="stretch_width", css_classes=["poll-result"])
        self.countdown = Countdown(
            css_classes=["poll-countdown"], styles={"font-size": f"{font_px}px"}
        )
        self._layout = pn.Column(
            self.question,
            self.countdown,
            self.progress,
            self.bars,
            self.result,
            sizing_mode="stretch_width",
            css_classes=["poll-projected"],
        )
        self._follow(polls)
        self.refresh()

    def __panel__(self):
        return self._layout

    @property
    def has_question(self) -> bool:
        return self.polls.current is not None

    def refresh(self) -> None:
        lang, size = self.lang, self.font_px
        poll = self.polls.current
        self.countdown.show(poll, lang)
        if poll is None:
            self.question.object = self.progress.object = ""
            self.bars.object = self.result.object = ""
            return
        at_deadline(poll, self._doc, self._refresh_safely, self._deadlines)
        self.question.object = (
            f"<div style='font-family:{esc(FONT_STACK)};font-size:{size}px;line-height:1.35'>"
            f"<b>{esc(tr(lang, 'poll.number', number=poll.number))}</b> "
            f"<span class='poll-prompt'>{esc(poll.prompt(lang))}</span></div>"
        )
        self.progress.object = _progress_html(poll, lang, size)
        self.bars.object = bars_html(poll, lang, size=size - 2, compact=True)
        self.result.object = _reveal_html(poll, lang, size - 4) if poll.revealed else ""


# ------------------------------------------------------------------------------------ a learner
class LearnerPollCard(_FollowsPolls):
    """One learner's card: the question, its position, the choices, their answer, the verdict.

    Its parts are public, for a test to drive as the learner does: ``choices`` (the buttons of
    a multiple-choice question), ``free`` (the row shown for a typed answer: ``typed`` and
    ``send_button``), the panes ``question``, ``status`` (their answer kept), ``error`` and
    ``verdict``, and ``verdict_live`` (the verdict's words for a screen reader, live_verdict.py)."""

    def __init__(
        self,
        polls: Polls,
        learner_id: str,
        *,
        lang: str = "en",
        submit=None,
        board_width: int = 360,
        **p,
    ):
        super().__init__(lang=lang, **p)
        self.learner_id = str(learner_id)
        self.submit = submit or polls.answer
        self._poll: Poll | None = None  # the poll the widgets show
        self._setting = False  # the card itself sets the choice (not the learner)
        self.board_width = board_width
        #: A layout shown only while a question is asked (the page's box around the card), or
        #: None; the card shows and hides it with the question, in the same update.
        self.box = None
        # The question's position, on a board made once with the card (never played on): a
        # new question only hands it the shared position (question_push.py).
        self.session = QuestionSession(lang=lang, hints=False)
        # A square's answer by a click or by the keyboard grid (board_keys.py: Tab onto the
        # board, the arrows, Enter or Space), for a learner who uses no mouse. The grid is named
        # for answering ("keys.board.answer"), the table's above it for placing ("keys.board"):
        # two grids on one page, each named for what Enter does there.
        self.board = Board(
            self.session,
            width=board_width,
            fit=True,
            max_height="45vh",
            on_square=self._on_square,
            shared=True,
            names="poll-board",  # the page's table has the "board-..." sources
            keys=True,
        )
        self._collections = HTML("", sizing_mode="stretch_width", css_classes=["poll-holds"])
        self._board_box = pn.Column(
            self._collections, self.board, sizing_mode="stretch_width", css_classes=["poll-board"]
        )
        self.question = HTML("", sizing_mode="stretch_width", css_classes=["poll-card-question"])
        self.choices = pn.widgets.RadioButtonGroup(
            options={},
            orientation="vertical",
            color="primary",
            variant="outline",
            sizing_mode="stretch_width",
            css_classes=["poll-choices"],
            stylesheets=[".bk-btn { font-size: 17px; padding: 8px 12px; white-space: normal; }"],
        )
        self.choices.param.watch(self._on_choice, "value")
        self.typed = pn.widgets.TextInput(
            max_length=40, sizing_mode="stretch_width", css_classes=["poll-typed"]
        )
        self.send_button = pn.widgets.Button(
            name=tr(lang, "poll.learner.send"),  # named while hidden too: a reader finds it
            color="primary",
            width=110,
            css_classes=["poll-send"],
            stylesheets=[".bk-btn { font-size: 17px; }"],
        )
        self.send_button.on_click(self._on_send)
        self.free = pn.Row(self.typed, self.send_button, sizing_mode="stretch_width")
        self.status = HTML("", sizing_mode="stretch_width", css_classes=["poll-card-status"])
        self.error = HTML("", sizing_mode="stretch_width", css_classes=["poll-error-line"])
        self.verdict = HTML("", sizing_mode="stretch_width", css_classes=["poll-verdict"])
        #: The verdict's words for a screen reader: a polite live region in the card from the
        #: start (live_verdict.py), announced when the reveal brings the verdict.
        self.verdict_live = LiveVerdict(css_classes=["poll-verdict-live"])
        # the question's controls (poll_controls.py): anonymous, locked, the time left
        self.controls = HTML("", sizing_mode="stretch_width", css_classes=["poll-card-controls"])
        self.countdown = Countdown(
            margin=(5, 10), css_classes=["poll-countdown"], styles={"font-size": "17px"}
        )
        self._layout = pn.Column(
            self.question,
            self.controls,
            self.countdown,
            self.choices,
            self.free,
            self.error,
            self.status,
            self.verdict,
            self.verdict_live,
            self._board_box,
            sizing_mode="stretch_width",
            css_classes=["poll-card"],
        )
        self._follow(polls)
        self.refresh()

    def __panel__(self):
        return self._layout

    def _show_error(self, text: str) -> None:
        self.error.object = _error_html(text)

    # --- answering
    def answer(self, choice) -> str | None:
        """Send ``choice`` (a key of the choices, or a typed answer) as this learner's answer;
        the key counted, or None (the refusal shown on the card)."""
        self.error.object = ""
        submit, learner = self.submit, self.learner_id
        return self._change(lambda: submit(learner, choice))

    def _on_choice(self, event) -> None:
        if self._setting or event.new is None:
            return
        self.answer(event.new)

    def _on_send(self, _event=None) -> None:
        self.answer(self.typed.value_input or self.typed.value)

    def _on_square(self, cell) -> None:
        poll = self.polls.current
        if poll is not None and poll.answers_locked():  # inert (the server refuses it too)
            return
        if poll is not None and poll.square and str(cell.index) in dict(poll.choices()):
            if cell.market == poll.exercise.market:
                self.answer(str(cell.index))

    # --- showing
    def _on_polls(self, polls, what) -> None:
        # on the thread that made the change (off the event loop when served): the question as
        # every page in this language shows it, built once for all of them before they hear
        if what in CARD_CHANGES:
            QUESTION_VIEWS.prepare(polls.current, [self.lang])
        super()._on_polls(polls, what)

    def _rebuild(self, poll: Poll | None) -> None:
        """A new poll: the answer typed for the last one goes."""
        self._poll = poll
        self.error.object = ""
        self.typed.value = ""

    def refresh(self) -> None:
        lang = self.lang
        font = esc(FONT_STACK)
        poll = self.polls.current
        if self.box is not None:
            self.box.visible = poll is not None
        if poll is None or self.learner_id not in poll.learners:
            key = "poll.learner.idle" if poll is None else "poll.learner.not_asked"
            self.question.object = (
                f"<div style='font-family:{font};font-size:17px;color:{TEXT_NOTE}'>"
                f"{esc(tr(lang, key))}</div>"
            )
            self.choices.visible = self.free.visible = self._board_box.visible = False
            self.status.object = self.verdict.object = self.controls.object = ""
            self.verdict_live.show("")
            self.countdown.show(None, lang)
            return
        if poll is not self._poll:
            self._rebuild(poll)
        view = QUESTION_VIEWS.get(poll, lang)  # built once per question and language
        self.session.lang = lang
        self.session.show(view.state)
        self._board_box.visible = True
        self._collections.object = view.holdings_html
        self.question.object = view.question_html
        given = poll.given(self.learner_id)
        closed = poll.revealed
        locked = not closed and poll.answers_locked()
        self._show_controls(poll, lang, locked)
        self._setting = True
        try:
            if poll.free:
                self.choices.visible = False
                self.free.visible = not closed
                self.typed.placeholder = view.placeholder
                self.send_button.name = view.send
                self.typed.disabled = self.send_button.disabled = locked
            else:
                self.free.visible = False
                self.choices.visible = True
                options = view.options
                if self.choices.options != options:
                    self.choices.value = None
                    self.choices.options = options
                self.choices.value = given
                self.choices.disabled = closed or locked
        finally:
            self._setting = False
        if given is not None:
            shown = poll.label(poll.answer_of(self.learner_id), lang)
            status = esc(tr(lang, "poll.learner.your_answer", answer=shown))
            if not closed and not locked:
                status += f" <span style='color:{TEXT_HINT}'>{esc(tr(lang, 'poll.learner.change'))}</span>"
            self.status.object = (
                f"<div class='poll-your-answer' style='font-family:{font};font-size:16px'>"
                f"{status}</div>"
            )
        else:
            self.status.object = ""
        if not closed:
            self.verdict.object = ""
            self.verdict_live.show("")
            return
        verdict = poll.result.verdict(self.learner_id, lang)
        if verdict is not None:  # their own, on their own page (anonymous too)
            self.verdict.object = link_rule_ids(feedback_html(verdict), lang)
            self.verdict_live.show(verdict_words(verdict))  # said once, when it is new
        else:
            self.verdict_live.show(tr(lang, "poll.learner.no_answer"))
            self.verdict.object = (
                f"<div style='font-family:{font};color:{TEXT_NOTE}'>"
                f"{esc(tr(lang, 'poll.learner.no_answer'))}</div>" + _reveal_html(poll, lang, 16)
            )

    def _show_controls(self, poll: Poll, lang: str, locked: bool) -> None:
        """That the question is anonymous, that its answers are locked, the time left."""
        font = esc(FONT_STACK)
        parts = []
        if poll.anonymous:
            parts.append(
                f"<div class='poll-anonymous-note' style='color:{TEXT_NOTE}'>"
                f"{esc(tr(lang, 'poll.learner.anonymous'))}</div>"
            )
        if locked:
            parts.append(
                f"<div class='poll-locked' style='color:{ALERT};font-weight:700'>"
                f"{esc(tr(lang, 'poll.locked'))}</div>"
            )
        self.controls.object = (
            f"<div style='font-family:{font};font-size:16px;line-height:1.4'>{''.join(parts)}</div>"
            if parts
            else ""
        )
        self.countdown.show(poll, lang)
        at_deadline(poll, self._doc, self._refresh_safely, self._deadlines)


# ------------------------------------------------------------------------------------ the class
#: A class view's cell per :class:`~.poll.ClassAnswer` kind that shows no answer: its words and
#: colour (until the reveal only whether a learner answered, never what).
_CLASS_CELLS = {
    "not_asked": ("poll.class.not_asked", TEXT_OFF),
    "waiting": ("poll.class.not_yet", ACCENT),
    "answered": ("poll.class.answered", TEXT_NOTE),
    "no_answer": ("poll.class.no_answer", TEXT_OFF),
    "anonymous": ("poll.class.anonymous", TEXT_OFF),
}


def _class_answer_html(poll: Poll, learner: str, lang: str) -> str:
    cell = poll.class_answer(learner)
    if cell.kind in _CLASS_CELLS:
        key, colour = _CLASS_CELLS[cell.kind]
        return (
            f"<span class='poll-class-{cell.kind.replace('_', '-')}' style='color:{colour}'>"
            f"{esc(tr(lang, key))}</span>"
        )
    mark = " \u2714" if cell.kind == "right" else " \u2717"
    return f"<span class='poll-class-{cell.kind}'>{esc(poll.label(cell.key, lang))}{mark}</span>"


class ClassView(_FollowsPolls):
    """The class at a glance: per learner the rules seen, the answers right and wrong, and their
    answer to the current question; the pane ``table`` shows it."""

    def __init__(self, polls: Polls, *, learners=None, lang: str = "en", **p):
        """``learners``: a callable giving the learner ids to list (default: the record's)."""
        super().__init__(lang=lang, **p)
        self.learners = learners
        self.table = HTML("", sizing_mode="stretch_width", css_classes=["poll-class"])
        self._follow(polls)
        self.refresh()

    def __panel__(self):
        return self.table

    def refresh(self) -> None:
        lang = self.lang
        record = self.polls.record
        ids = list(self.learners()) if self.learners is not None else list(record.learners())
        poll = self.polls.current
        heads = ("learner", "rules", "right", "wrong", "current")
        cells = "".join(
            f"<th style='text-align:left;padding:4px 10px;border-bottom:2px solid {TABLE_HEAD_LINE}'>"
            f"{esc(tr(lang, f'poll.class.{h}'))}</th>"
            for h in heads
        )
        rows = []
        for learner in ids:
            if learner not in record:
                continue
            row = record.row(learner)
            current = "" if poll is None else _class_answer_html(poll, learner, lang)
            rules = esc(tr(lang, "status.list.sep").join(row.rules_seen))
            rows.append(
                f"<tr class='poll-class-row'>"
                f"<td style='padding:4px 10px'>{esc(row.name)}</td>"
                f"<td style='padding:4px 10px' title='{rules}'>{len(row.rules_seen)}"
                f"<div style='color:{TEXT_NONE};font-size:0.8em'>{rules}</div></td>"
                f"<td style='padding:4px 10px;color:{RIGHT[0]}' title='{esc(', '.join(row.right))}'>"
                f"{len(row.right)}</td>"
                f"<td style='padding:4px 10px;color:{WRONG[0]}' title='{esc(', '.join(row.wrong))}'>"
                f"{len(row.wrong)}</td>"
                f"<td style='padding:4px 10px'>{current}</td></tr>"
            )
        if not rows:
            rows.append(
                f"<tr><td colspan='5' style='padding:6px 10px;color:{TEXT_NONE}'>"
                f"{esc(tr(lang, 'poll.class.empty'))}</td></tr>"
            )
        self.table.object = (
            f"<div style='font-family:{esc(FONT_STACK)};font-size:16px'>"
            f"<h3 style='margin:4px 0'>{esc(tr(lang, 'poll.class.title'))}</h3>"
            f"<table style='border-collapse:collapse;width:100%'><thead><tr>{cells}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>"
        )
