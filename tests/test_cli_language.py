"""The commands' language: ``--lang``, else ``NEFERTITI_LANG``, else English; a bad variable is
named, not a traceback. A notebook's ``output_of`` (``widgets.lesson.commands``) speaks the lesson
language the same way."""

from __future__ import annotations

import os

import pytest

from nefertiti_core.cli import main, output_of
from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.exercises import scenario_path

MERCHANT = str(scenario_path("merchant"))


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_the_environment_chooses_the_language(monkeypatch, lang):
    monkeypatch.setenv("NEFERTITI_LANG", lang)
    said = output_of(["explain", MERCHANT, "--no-previews"])
    assert tr(lang, "view.options") in said


def test_lang_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("NEFERTITI_LANG", "zh")
    said = output_of(["explain", MERCHANT, "--no-previews", "--lang", "de"])
    assert tr("de", "view.options") in said and tr("zh", "view.options") not in said


def test_english_without_either(monkeypatch):
    monkeypatch.delenv("NEFERTITI_LANG", raising=False)
    assert tr("en", "view.options") in output_of(["explain", MERCHANT, "--no-previews"])


def test_a_bad_variable_is_named(monkeypatch, capsys):
    monkeypatch.setenv("NEFERTITI_LANG", "fr")
    assert main(["explain", MERCHANT]) == 2
    err = capsys.readouterr().err
    assert "NEFERTITI_LANG='fr'" in err and "en, de, zh" in err and "Traceback" not in err


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_a_notebook_shows_a_command_in_the_lesson_language(monkeypatch, lang):
    from widgets.lesson import output_of as in_lesson
    from widgets.lesson import use_language

    monkeypatch.delenv("NEFERTITI_LANG", raising=False)
    use_language(lang)
    try:
        said = in_lesson(["explain", MERCHANT, "--no-previews"])
    finally:
        use_language(None)
    assert tr(lang, "view.options") in said
    assert "NEFERTITI_LANG" not in os.environ  # put back as it was
