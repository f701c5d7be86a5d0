"""The tutor's lessons: ``scenarios/lessons/lessons.yaml`` gives the topics in the order of the
notebooks and each topic's exercises in order; the exercises are those of the shipped position
files (:func:`build_lessons` checks that each is listed exactly once). They are read on first
use (:func:`shipped_lessons`). Standard library only.
"""

from __future__ import annotations

import threading
from pathlib import Path

from ...engine.limits import FileLimitError, echo, read_text
from ...engine.said import file_limit, said
from ..exercise_block import TOPIC_PATTERN, ExerciseEntry
from ..reader import Reader, ScenarioError
from ..scenario import Scenario, load
from ..yaml_subset import Document, YamlError, loads
from .base import Exercise, scenarios_folder
from .entries import build_exercise

#: The file (under ``scenarios/``) that lists the tutorial's topics in the order of the notebooks,
#: each with its exercises' ids in the order they are asked.
LESSONS_FILE = "lessons/lessons.yaml"


def read_lessons(path: str | Path) -> tuple[dict[str, tuple[str, ...]], Document]:
    """The lessons file: {topic: exercise ids in order}, and its document (for line numbers)."""
    path = Path(path)
    try:
        doc = loads(read_text(path))
    except FileLimitError as error:
        raise ScenarioError(path.name, (), file_limit(error)) from None
    except YamlError as error:
        raise ScenarioError(path.name, (), error.problem, error.line) from None
    rd = Reader(path.name, doc)
    data = rd.mapping(doc.data, (), ("lessons", "topics"))
    if data.get("lessons") != 1:
        rd.fail(("lessons",), said("lessons.file.version"))
    topics = data.get("topics")
    if not isinstance(topics, dict) or not topics:
        rd.fail(("topics",), said("lessons.file.topics"))
    order: dict[str, tuple[str, ...]] = {}
    listed: dict[str, tuple] = {}
    for topic, ids in topics.items():
        if not isinstance(topic, str) or not TOPIC_PATTERN.fullmatch(topic):
            rd.fail(("topics", topic), said("lessons.file.topic_name", value=echo(topic)))
        items = rd.sequence(ids, ("topics", topic))
        for j, ident in enumerate(items):
            where = ("topics", topic, j)
            if not isinstance(ident, str) or not ident.startswith(f"{topic}/"):
                rd.fail(where, said("lessons.file.exercise_id", topic=topic, value=echo(ident)))
            if ident in listed:
                also = f"topics.{topic}.{listed[ident][-1]}"
                rd.fail(where, said("lessons.file.twice", id=repr(ident), also=also))
            listed[ident] = where
        order[topic] = tuple(items)
    return order, doc


def build_lessons(
    folder: str | Path | None = None, lessons: str | Path | None = None
) -> tuple[tuple[str, ...], dict[str, Exercise]]:
    """(topics, exercises by id) of a folder of position files and its lessons file (default: the
    shipped ones). Every exercise of the files must be listed exactly once and every listed id
    must exist: otherwise :class:`.scenario.ScenarioError` names the file, line and field."""
    folder = Path(folder) if folder is not None else scenarios_folder()
    lessons_path = Path(lessons) if lessons is not None else folder / LESSONS_FILE
    order, doc = read_lessons(lessons_path)
    found: dict[str, tuple[Path, Scenario, ExerciseEntry]] = {}
    for path in sorted(folder.glob("*.yaml")):
        scenario = load(path)
        for entry in scenario.exercises:
            if entry.id in found:
                raise entry.error(
                    ("id",), f"the id {entry.id!r} is taken already, in {found[entry.id][0].name}"
                )
            found[entry.id] = (path, scenario, entry)
    exercises: dict[str, Exercise] = {}
    for topic, ids in order.items():
        for j, ident in enumerate(ids):
            if ident not in found:
                raise ScenarioError(
                    lessons_path.name,
                    ("topics", topic, j),
                    f"no position file in {folder.name}/ has an exercise {ident!r}",
                    doc.line_of(("topics", topic, j)),
                )
            path, scenario, entry = found[ident]
            exercises[ident] = build_exercise(
                entry, scenario.state, scenario=path.stem, topic=topic
            )
    for ident, (_, _, entry) in found.items():
        if ident not in exercises:
            raise entry.error(
                ("id",), f"exercise {ident!r} is in no lesson: list it in {lessons_path.name}"
            )
    return tuple(order), exercises


_LESSONS: tuple[tuple[str, ...], dict[str, Exercise]] | None = None
_LESSONS_LOCK = threading.Lock()


def shipped_lessons() -> tuple[tuple[str, ...], dict[str, Exercise]]:
    """(topics, exercises by id) of the shipped files: built on the first call, then kept."""
    global _LESSONS
    with _LESSONS_LOCK:
        if _LESSONS is None:
            _LESSONS = build_lessons()
        return _LESSONS


def exercises_for(topic: str) -> list[Exercise]:
    """The exercises of one tutorial topic (one of :data:`.exercises.TOPICS`), in order."""
    topics, exercises = shipped_lessons()
    if topic not in topics:
        raise KeyError(f"unknown topic {topic!r}: one of {', '.join(topics)}")
    return [ex for ex in exercises.values() if ex.topic == topic]
