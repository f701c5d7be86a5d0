"""The command line's help and usage errors in the reader's language (``nefertiti_core.teaching.cli_words``).

Notebook 15 shows ``nefertiti serve --help`` on its page: in German and Chinese it must hold no
English sentence (``tests/browser/english_words.py``) and none of argparse's English words. Every
command's summary, description and option help has its catalogue words in each language, and
the English catalogue says what the code says, so a changed English help fails here until it is
translated. argparse's words change only for the command running: another parser in the same
process stays English.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "browser"))

from english_words import english_sentences  # noqa: E402

from nefertiti_core import cli  # noqa: E402
from nefertiti_core.engine.i18n import catalog  # noqa: E402
from nefertiti_core.play.bots import bot_kinds  # noqa: E402

ARGPARSE_ENGLISH = ("usage:", "options:", "positional arguments", "show this help message")


def options(monkeypatch) -> list[tuple[argparse.ArgumentParser, argparse.Action]]:
    """Every parser of the ``nefertiti`` command with each option it adds, as it builds them."""
    added = []
    add = argparse.ArgumentParser.add_argument

    def recording(parser, *args, **kwargs):
        action = add(parser, *args, **kwargs)
        added.append((parser, action))
        return action

    monkeypatch.setattr(argparse.ArgumentParser, "add_argument", recording)
    cli.build_parser()
    monkeypatch.undo()
    return added


def expanded(action: argparse.Action, text: str) -> str:
    """``text`` as argparse prints it as ``action``'s help (``%(default)s`` filled in)."""
    return text % dict(vars(action), prog="nefertiti")


def test_every_command_and_option_has_its_words_and_the_english_is_the_codes(monkeypatch):
    english = catalog("en")
    kinds = ", ".join(bot_kinds())
    keys, commands = {"cli.description"}, set()
    for parser, option in options(monkeypatch):
        name = parser.prog.split()[-1]
        if name == "nefertiti":
            continue
        commands.add(name)
        keys |= {f"cli.{name}.help", f"cli.{name}.description"}
        assert english[f"cli.{name}.description"] == parser.description, name
        if option.dest == "help":  # argparse's own -h: argparse's words
            continue
        key = f"cli.{name}.{option.dest}"
        keys.add(key)
        said = english[key].format(kinds=kinds) if "{" in english[key] else english[key]
        assert expanded(option, said) == expanded(option, option.help), key
    assert {"serve", "explain", "odds", "check"} <= commands
    for lang in ("de", "zh"):
        assert keys <= set(catalog(lang)), sorted(keys - set(catalog(lang)))


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_every_commands_help_is_said_in_german_and_chinese(lang, monkeypatch):
    commands = {parser.prog.split()[-1] for parser, _ in options(monkeypatch)} - {"nefertiti"}
    for name in ["", *sorted(commands)]:
        said = cli.output_of([name, "--help"] if name else ["--help"], lang)
        assert english_sentences(said) == [], (name, english_sentences(said))
        assert not [w for w in ARGPARSE_ENGLISH if w in said], (name, said)
        assert catalog(lang)["cli.argparse.help"] in said, name


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_notebook_15s_serve_help_holds_no_english_sentence(lang):
    said = cli.output_of(["serve", "--help"], lang)
    assert english_sentences(said) == [] and "--public-url URL" in said, said
    assert catalog(lang)["cli.serve.show"] in said
    heading = {"de": "\nOptionen:\n", "zh": "\n选项：\n"}[lang]  # Chinese takes its own colon
    assert heading in said and "60" in said  # the default, filled in by argparse


def test_the_english_help_is_as_before_and_other_parsers_stay_english():
    said = cli.output_of(["serve", "--help"])
    assert said.startswith("usage: nefertiti serve") and "\noptions:\n" in said
    assert "games open at once; more page loads are refused (default 60)" in " ".join(said.split())
    cli.output_of(["serve", "--help"], "de")
    other = argparse.ArgumentParser(prog="other").format_help()
    assert other.startswith("usage: other") and "show this help message and exit" in other


@pytest.mark.parametrize(
    "lang, start",
    [
        ("en", "nefertiti explain: error: the following arguments are required: file (see"),
        ("de", "nefertiti explain: Fehler: diese Angaben fehlen: file (siehe"),
        ("zh", "nefertiti explain：错误：缺少以下参数：file（见"),
    ],
)
def test_a_usage_error_is_said_in_the_commands_language(lang, start, capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.main(["explain", "--lang", lang])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(start) and err.count("\n") == 1, err


def test_a_files_error_is_said_with_the_commands_error_word(tmp_path, capsys):
    assert cli.main(["explain", "--lang", "de", str(tmp_path / "x.yaml")]) == 2
    assert capsys.readouterr().err.startswith("nefertiti explain: Fehler: ")
    assert cli.main(["explain", "--lang", "zh", str(tmp_path / "x.yaml")]) == 2
    assert capsys.readouterr().err.startswith("nefertiti explain：错误：")
    assert cli.main(["explain", str(tmp_path / "x.yaml")]) == 2
    assert capsys.readouterr().err.startswith("nefertiti explain: error: ")
