"""What a tutorial notebook shows, in one call each: a live board staged from a scenario, the
exercises of a topic, and the learner's rule coverage.

    from widgets.lesson import Lesson, exercises, coverage_view
    Lesson("abou-simbel-left-sums")          # the board, its decisions, the log, undo
    exercises("closing-abou-simbel")         # the topic's self-checking exercises
    coverage_view()                          # which rules the learner has triggered so far
"""

from __future__ import annotations

import html

import panel as pn
import param

from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.variants import with_rules
from nefertiti_core.files.exercises import exercises_for, scenario_path
from nefertiti_core.files.scenario import load
from nefertiti_core.teaching.coverage import (
    ALL_RULE_IDS,
    KINDS,
    SHOWN_ONLY,
    Coverage,
    rules_shown,
    section_of,
)
from nefertiti_core.teaching.explain import narrate
from nefertiti_core.teaching.rules_reference import ids_in
from widgets.game.board import Board
from widgets.game.board_text import BoardText
from widgets.game.common import md_escape
from widgets.game.decision import DecisionPanel
from widgets.game.exercise import ExerciseCard
from widgets.game.log import Log
from widgets.game.rules_view import link_rule_ids
from widgets.game.session import GameSession
from widgets.lesson.language import in_lesson_language, lesson_language
from widgets.theme import CELL_LINE, TABLE_HEAD, TEXT_NOTE, WARNING_TEXT

_COVERAGE: Coverage | None = None


def learner_coverage() -> Coverage:
    """The learner's record (one per kernel, kept in ``$NEFERTITI_HOME/coverage.json`` or
    ``~/.nefertiti/coverage.json``). It saves in a background thread, so a click on a board never
    waits for the disk; other kernels' marks are merged in, never overwritten."""
    global _COVERAGE
    if _COVERAGE is None:
        _COVERAGE = Coverage(background=True)
    return _COVERAGE


class Lesson(pn.viewable.Viewer):
    """A live board staged from a scenario: its teaching text, the board, the decision panel,
    the explanation log and undo/redo. Every step played counts towards the learner's coverage."""

    lang = param.Selector(default="en", objects=["en", "de", "zh"])

    def __init__(
        self,
        scenario: str,
        *,
        lang: str | None = None,
        variants=None,
        play_moves: bool = False,
        width: int = 760,
        note: str = "folded",
        hints: bool = False,
        coverage: Coverage | None = None,
        **params,
    ):
        lang = lesson_language(lang)  # not given: the notebook's language (use_language)
        super().__init__(lang=lang, **params)
        loaded = load(scenario_path(scenario))
        if play_moves:
            loaded.play_moves()
        state = loaded.state if variants is None else with_rules(loaded.state, variants=variants)
        state.log = []
        self.scenario = loaded
        # No closing hints on a lesson's board: its question is often "which square closes
        # it?", and an outlined square would answer it (predict first). Demonstrations show them.
        self.session = GameSession(state, lang=lang, hints=hints)
        self.coverage = coverage if coverage is not None else learner_coverage()
        self.coverage.add(rules_shown(state))  # a board as setup leaves it shows R2
        # The board fits the notebook's column (at most ``width`` wide): a projector's narrow
        # window shows the whole board, smaller, instead of cutting off its right-hand markets.
        self.board = Board(self.session, width=width, fit=True, keys=True)
        self.decision = DecisionPanel(self.session)
        #: The board in words, each step announced (board_text.py; the board's keys: board_keys.py).
        self.board_text = BoardText(self.session)
        self.log = Log(self.session)
        self._undo = pn.widgets.Button(min_width=100)
        self._undo.on_click(lambda _e: self.session.undo())
        self._redo = pn.widgets.Button(min_width=100)
        self._redo.on_click(lambda _e: self.session.redo())
        self._restart = pn.widgets.Button(min_width=100)  # as wide as its words
        self._restart.on_click(lambda _e: self.session.jump(0))
        #: The lesson's title (the scenario's, in the board's language).
        self.heading = pn.pane.Markdown(sizing_mode="stretch_width")
        #: The lesson's teaching text and the rules it links. The file's note often says what a
        #: move will do: folded until the learner opens it, so that the prediction comes first;
        #: a demonstration shows it open.
        self.teaching = pn.pane.Markdown(sizing_mode="stretch_width", css_classes=["lesson-note"])
        #: The card holding the lesson's note (folded in a lesson, open in a demonstration).
        self.note_card = pn.Card(
            self.teaching,
            collapsed=note == "folded",
            sizing_mode="stretch_width",
            css_classes=["lesson-note-card"],
        )
        self.session.param.watch(self._on_play, "version")
        self.param.watch(self._on_lang, "lang")
        #: The log, folded, under the heading "What happened, step by step" in the lesson's
        #: language (the notebooks' prose names it so).
        self.log_card = pn.Card(self.log, collapsed=True, sizing_mode="stretch_width")
        self._layout = pn.Column(
            self.heading,
            self.note_card,
            # the decision beside the board, or below it in a narrow notebook column
            pn.FlexBox(
                pn.Column(
                    self.board,
                    sizing_mode="stretch_width",
                    max_width=width,
                    min_width=320,
                    styles={"flex": f"1 1 {min(width, 560)}px"},
                ),
                pn.Column(
                    # wraps when the words are long (German): never cut at the column's edge
                    pn.FlexBox(self._undo, self._redo, self._restart, flex_wrap="wrap"),
                    self.decision,
                    # the rest of the row's width: no empty strip beside a wide notebook's board
                    sizing_mode="stretch_width",
                    min_width=300,
                    styles={"flex": "1 1 380px"},
                    css_classes=["lesson-side"],
                ),
                flex_wrap="wrap",
                align_items="flex-start",
                sizing_mode="stretch_width",
            ),
            self.board_text,
            self.log_card,
            sizing_mode="stretch_width",
        )
        self._on_lang()

    def __panel__(self):
        return self._layout

    def play(self, *steps) -> Account:
        """Play steps (option texts, ``roll 3 5``, ``draw harp``) from a notebook cell, and tell
        them in the engine's words. A refused step stops there and is told, not raised: a cell
        run twice, or out of order, says why the step is not possible now."""
        seen = len(self.session.state.log)
        refused = ""
        for step in steps:
            if not self.session.play(step):
                refused = self.session.error
                break
        lines = narrate(self.session.state, self.lang, start=seen)
        return Account(lines, refused, self.lang)

    def _on_play(self, *_):
        # seen: every step on this board; practised: the learner's own clicks and choices
        self.coverage.record(
            self.session.state, learner=self.session.learner_events, source=self.session
        )

    def _on_lang(self, *_):
        lang = self.lang
        self.session.lang = lang
        teaching = self.scenario.teaching_in(lang).strip()  # the file's text in this language
        # the file's texts shown as themselves: no HTML, no Markdown
        self.heading.object = f"### {md_escape(self.scenario.title_in(lang))}"
        self.teaching.object = md_escape(teaching)
        self.note_card.title = tr(lang, "lesson.note")
        self.note_card.visible = bool(teaching)
        cited = ids_in(teaching)
        if cited:  # the rules the text cites, each with its title on hover and text on click
            line = html.escape(f"{tr(lang, 'rules.in_lesson')} {' · '.join(cited)}")
            self.teaching.object += (
                f"\n\n<div style='font-size:13px'>{link_rule_ids(line, lang)}</div>\n"
            )
        self._undo.name = tr(lang, "lesson.undo")
        self._redo.name = tr(lang, "lesson.redo")
        self._restart.name = tr(lang, "lesson.restart")
        self.log_card.title = tr(lang, "lesson.log")


def lines_html(lines, lang: str) -> str:
    """The engine's sentences as an HTML list, each rule ID readable (title on hover)."""
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    return link_rule_ids(f"<ul style='margin:4px 0;padding-left:20px'>{items}</ul>", lang)


class Account(list):
    """The engine's sentences about steps played from a cell (a list of str), shown as a list;
    ``refused`` says why a step was not played (empty when all were)."""

    def __init__(self, lines, refused: str = "", lang: str = "en"):
        super().__init__(lines)
        self.refused, self.lang = refused, lang

    def __str__(self) -> str:
        refusal = [tr(self.lang, "lesson.demo.refused", why=self.refused)] if self.refused else []
        return "\n".join([*self, *refusal])

    def _repr_html_(self) -> str:
        return lines_html(str(self).splitlines(), self.lang)


@in_lesson_language
def exercises(topic, lang: str | None = None, board_width: int = 760) -> pn.Column:
    """The topic's exercises (or those of a position file: ``exercises("lesson.yaml")``, each
    checked on the engine first), one per tab, each with its own board.

    The tabs are dynamic: a card's board is built and sent to the page when its tab is opened,
    so a notebook shows (and executes) one board here, not one per exercise. Each card lays its
    question beside its board (at most ``board_width`` wide), or above it in a narrow column.
    """
    import os

    from nefertiti_core.files.exercises import exercises_in

    if isinstance(topic, os.PathLike) or str(topic).endswith((".yaml", ".yml")):
        asked = exercises_in(topic)  # a teacher's file: ScenarioError names file, line, field
    else:
        asked = exercises_for(topic)
    coverage = learner_coverage()
    cards = [
        (
            tr(lang, "lesson.exercise_tab", number=number),
            ExerciseCard(exercise, lang=lang, coverage=coverage, board_width=board_width),
        )
        for number, exercise in enumerate(asked, start=1)
    ]
    return pn.Column(
        pn.pane.Markdown(f"_{tr(lang, 'lesson.exercises_intro')}_", margin=(0, 10)),
        pn.Tabs(*cards, dynamic=True, sizing_mode="stretch_width"),
        sizing_mode="stretch_width",
    )


@in_lesson_language
def coverage_view(lang: str | None = None, coverage: Coverage | None = None) -> pn.pane.HTML:
    """The learner's record, section by section: the rules seen on a board, practised by their
    own clicks and choices, and answered right or wrong in exercises. It redraws itself
    after every change of the record, and shows the warning about the record's file, if any."""
    coverage = coverage if coverage is not None else learner_coverage()
    coverage.refresh()  # what other kernels have added meanwhile
    # every rule ID in the table: its title on hover, its text on click
    pane = pn.pane.HTML(
        link_rule_ids(coverage_html(coverage, lang), lang), sizing_mode="stretch_width"
    )

    def redraw():
        pane.object = link_rule_ids(coverage_html(coverage, lang), lang)

    coverage.on_change(redraw)
    return pane


@in_lesson_language
def coverage_rows(coverage: Coverage, lang: str | None = None) -> list[list[str]]:
    """The view's table: a header, then one row per section with rules the engine tracks (and
    any other section with answers): seen and practised ("2 of 8: R3.1, R3.5"), the rules
    answered right, the rules answered wrong."""
    marks = coverage.marks()
    tracked = {section_of(r) for r in ALL_RULE_IDS}
    rows = [[tr(lang, f"coverage.view.{k}") for k in ("section", *KINDS)]]
    for name, section in coverage.by_section().items():
        if name not in tracked and not any(section_of(r) == name for r in marks):
            continue
        ids = [r for r in ALL_RULE_IDS if section_of(r) == name]
        steps = [r for r in ids if r not in SHOWN_ONLY]  # R2 is shown, never a step's doing
        rows.append(
            [
                name,
                _cell(section.seen, len(ids), lang),
                _cell(section.practised, len(steps), lang),
                _cell(section.right, 0, lang),
                _cell(section.wrong, 0, lang),
            ]
        )
    return rows


@in_lesson_language
def coverage_html(coverage: Coverage, lang: str | None = None) -> str:
    """The HTML of :func:`coverage_view` (every text escaped: a path or an error from the file
    is shown as text)."""
    e = html.escape
    head, *rows = coverage_rows(coverage, lang)
    cell = f"padding:3px 10px;border:1px solid {CELL_LINE};text-align:left"
    table = (
        "<table style='border-collapse:collapse;margin:6px 0'><tr>"
        + "".join(f"<th style='{cell};background:{TABLE_HEAD}'>{e(h)}</th>" for h in head)
        + "</tr>"
        + "".join(
            "<tr>" + "".join(f"<td style='{cell}'>{e(c)}</td>" for c in row) + "</tr>"
            for row in rows
        )
        + "</table>"
    )
    missing = coverage.missing()
    rest = (
        tr(lang, "coverage.view.not_yet", ids=tr(lang, "status.list.sep").join(missing))
        if missing
        else tr(lang, "coverage.view.all_seen")
    )
    parts = [
        f"<div style='font-weight:bold;margin-bottom:4px'>{e(tr(lang, 'coverage.view.title'))}</div>",
        f"<div style='font-style:italic;color:{TEXT_NOTE}'>{e(tr(lang, 'coverage.view.legend'))}</div>",
        table,
        f"<div>{e(rest)}</div>",
    ]
    if coverage.warning:
        parts.append(
            f"<div class='coverage-warning' style='margin-top:6px;color:{WARNING_TEXT}'>"
            f"\u26a0 {e(coverage.warning)}</div>"
        )
    return "<div class='coverage-view'>" + "".join(parts) + "</div>"


def _cell(ids: tuple[str, ...], total: int, lang: str) -> str:
    """A table cell: "2 of 8: R3.1, R3.5" (of the section's tracked rules), or the IDs, or a dash."""
    listed = tr(lang, "status.list.sep").join(ids) if ids else "\u2014"
    if not total:
        return listed
    share = tr(lang, "coverage.view.of", count=len(set(ids) & set(ALL_RULE_IDS)), total=total)
    return tr(lang, "coverage.view.listed", share=share, ids=listed) if ids else share
