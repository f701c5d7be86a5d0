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
    assert err.startswith("nefertiti explain: error: NEFERTITI_LANG: unknown language 'fr'")
    assert "en, de, zh" in err and "Traceback" not in err


def test_a_bad_variable_is_said_alike_by_commands_and_lessons(monkeypatch, capsys):
    """One reader of the variable (``engine.i18n.language_from_environment``): a command and a
    notebook's lesson name a bad code in the same words."""
    from widgets.lesson import lesson_language

    monkeypatch.setenv("NEFERTITI_LANG", "fr")
    with pytest.raises(ValueError) as raised:
        lesson_language()
    assert main(["rules", "R3.5"]) == 2
    assert capsys.readouterr().err.strip() == f"nefertiti rules: error: {raised.value}"


@pytest.mark.parametrize("argv", [["simulate", "--help"], ["serve", "--help"]])
def test_a_bad_variable_does_not_stop_a_command_without_lang(monkeypatch, capsys, argv):
    """Only a command with ``--lang`` reads the variable: ``simulate`` and ``serve`` speak
    English and run whatever it says."""
    monkeypatch.setenv("NEFERTITI_LANG", "fr")
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 0 and "usage: nefertiti" in capsys.readouterr().out


def test_a_bad_variable_does_not_matter_when_lang_is_given(monkeypatch):
    monkeypatch.setenv("NEFERTITI_LANG", "fr")
    assert tr("de", "view.options") in output_of(["explain", MERCHANT, "--lang", "de"])


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
    assert "NEFERTITI_LANG" not in os.environ


def test_a_notebook_command_leaves_the_environment_alone(monkeypatch):
    """The lesson language reaches the command as its ``--lang`` default, not through
    ``NEFERTITI_LANG``: a thread of another session reading the variable meanwhile would speak
    this notebook's language."""
    from nefertiti_core import cli
    from widgets.lesson import output_of as in_lesson
    from widgets.lesson import use_language

    seen = []
    real_main = cli.main

    def main_seeing(*args, **kwargs):
        seen.append(os.environ.get("NEFERTITI_LANG"))
        return real_main(*args, **kwargs)

    monkeypatch.setattr(cli, "main", main_seeing)
    monkeypatch.setenv("NEFERTITI_LANG", "zh")
    use_language("de")
    try:
        said = in_lesson(["explain", MERCHANT, "--no-previews"])
    finally:
        use_language(None)
    assert seen == ["zh"] and tr("de", "view.options") in said
