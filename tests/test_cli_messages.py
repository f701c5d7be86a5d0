"""The command line's own messages in the reader's language: an option's value refused while
parsing (the argparse ``type`` functions), the error lines a command prints, the reason a file
cannot be read, and ``nefertiti odds``' report.

Each runs the real ``nefertiti`` entry (``cli.main``) in German and in Chinese and must print the
catalogue's words in that language, no English sentence (``tests/browser/english_words.py``) and
not the English message; English is checked elsewhere (``test_cli.py``) and is unchanged.
"""

from __future__ import annotations

import errno
import os
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "browser"))

from english_words import english_sentences  # noqa: E402

from nefertiti_core import cli  # noqa: E402
from nefertiti_core.engine.i18n import catalog, tr  # noqa: E402
from nefertiti_core.engine.said_text import Said  # noqa: E402
from nefertiti_core.files.exercises import scenario_path  # noqa: E402
from nefertiti_core.play.bots import bot_kinds  # noqa: E402
from nefertiti_core.teaching.explain import count_key

LANGS = ["de", "zh"]
MERCHANT = str(scenario_path("merchant"))
WHAT_IF = str(scenario_path("louqsor-what-if"))


def run(argv: list[str], lang: str, capsys) -> tuple[int, str, str]:
    """``nefertiti <argv>`` with ``lang`` as its language: (exit status, stdout, stderr)."""
    try:
        code = cli.main(argv, lang)
    except SystemExit as stop:  # argparse's refusals
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_said(text: str, lang: str, key: str, **values) -> None:
    """``text`` holds message ``key`` in ``lang`` (and not in English), and no English sentence."""
    assert tr(lang, key, **values) in text, (tr(lang, key, **values), text)
    assert tr("en", key, **values) not in text, text
    assert english_sentences(text) == [], english_sentences(text)
    assert "Traceback" not in text


def listed(items, lang: str) -> str:
    return tr(lang, "status.list.sep").join(items)


# --- values refused while parsing --------------------------------------------------------------
VALUES = [
    (["simulate", "--games", "0"], "cli.value.at_least_1", {"value": "'0'"}),
    (["simulate", "--players", "5"], "cli.value.players", {"value": "'5'"}),
    (["simulate", "--seed", "x"], "cli.value.not_whole", {"value": "'x'"}),
    (["simulate", "--seed", "1234567890123"], "cli.value.digits", {"value": "'1234567890123'"}),
    (["hint", MERCHANT, "--time-budget", "0"], "cli.value.seconds", {"value": "'0'"}),
    (["hint", MERCHANT, "--time-budget", "soon"], "cli.value.not_number", {"value": "'soon'"}),
    (
        ["hint", MERCHANT, "--time-budget", "z" * 99],
        "cli.value.not_number",
        {"value": repr("z" * 40)},
    ),
    (["replay", MERCHANT, "--to", "-1"], "cli.value.at_least_0", {"value": "'-1'"}),
    (["odds", WHAT_IF, "--bots", "nobody"], "cli.value.bot_kind", {"value": "'nobody'"}),
    (["serve", "--max-sessions", "many"], "cli.value.not_whole", {"value": "'many'"}),
    (
        ["serve", "--idle-minutes", "-1"],
        "cli.value.not_in_range",
        {"value": -1, "low": 0, "high": 10080},
    ),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("argv, key, values", VALUES, ids=[f"{c[1]}-{c[0][0]}" for c in VALUES])
def test_a_refused_value_is_said_in_the_commands_language(capsys, lang, argv, key, values):
    if key == "cli.value.bot_kind":
        values = {**values, "kinds": listed(bot_kinds(), lang)}
    code, _, err = run(argv, lang, capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(tr(lang, "cli.error", prog=f"nefertiti {argv[0]}", message="")), err
    assert_said(err, lang, key, **values)


def test_a_chinese_list_of_bot_kinds_is_joined_with_the_enumeration_comma(capsys):
    _, _, err = run(["odds", WHAT_IF, "--bots", "nobody"], "zh", capsys)
    assert "、".join(bot_kinds()) in err


# --- the commands' error lines -----------------------------------------------------------------
@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> str:
    """A position file of a game that is over: nobody has anything left to choose."""
    from nefertiti_core.files.scenario import dumps_scenario, load

    state = load(scenario_path("end-game")).state
    rng = random.Random(3)
    while not state.is_over:
        state.apply(rng.choice(state.legal_options()))
    path = tmp_path_factory.mktemp("over") / "over.yaml"
    path.write_text(dumps_scenario(state), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("lang", LANGS)
def test_hint_on_a_finished_game_says_there_is_nothing_to_choose(capsys, lang, finished):
    code, _, err = run(["hint", finished, "--lang", lang], None, capsys)
    assert code == 2
    assert_said(err, lang, "cli.run.game_over", file="over.yaml")


@pytest.mark.parametrize("lang", LANGS)
def test_hint_without_an_option_says_there_is_nothing_to_choose(capsys, monkeypatch, lang):
    import nefertiti_core.play.hints as hints

    monkeypatch.setattr(hints, "hints", lambda *args, **kwargs: [])  # a position without options
    code, _, err = run(["hint", MERCHANT, "--lang", lang], None, capsys)
    assert code == 2
    assert_said(err, lang, "cli.run.no_option", file="merchant.yaml")


@pytest.mark.parametrize("lang", LANGS)
def test_serve_without_its_packages_says_what_is_missing(capsys, monkeypatch, lang):
    class Entry:
        name = "serve"

        def load(self):
            raise ModuleNotFoundError("No module named 'panel'", name="panel")

    monkeypatch.setattr(cli, "entry_points", lambda group: [Entry()])
    code, _, err = run(["serve"], lang, capsys)
    assert code == 2
    why = tr(lang, "cli.run.no_module", name="panel")
    assert_said(err, lang, "cli.run.unavailable", why=why)
    assert err.startswith(tr(lang, "cli.error", prog="nefertiti serve", message=""))


@pytest.mark.parametrize("lang", LANGS)
def test_odds_with_a_mistyped_option_names_the_file_in_the_commands_language(capsys, lang):
    argv = ["odds", WHAT_IF, "--lang", lang, "--playouts", "2", "--option", "place gizeh.left#99"]
    code, _, err = run(argv, None, capsys)
    assert code == 2 and err.count("\n") == 1, err
    head = tr(lang, "cli.error", prog="nefertiti odds", message="")
    assert err.startswith(
        head + tr(lang, "cli.run.in_file", file="louqsor-what-if.yaml", message="")
    )
    assert english_sentences(err) == [] and "is not an option" not in err


def stopped_report(requested=200, lost=1, stopped: str | None = None):
    """What :func:`odds` returns after a Dask run that lost workers (and perhaps stopped)."""
    from nefertiti_core.play.odds import OddsReport

    report = OddsReport(requested, 4, ("green", "red", "blue", "black"), ("random",) * 4, 0)
    report.playouts = 50 if stopped else requested
    report.wins, report.scores = [12.5] * 4, [[40] * report.playouts] * 4
    report.first_close = {"gizeh": report.playouts}
    report.backend, report.workers, report.workers_lost, report.stopped = "dask", 2, lost, stopped
    return report


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lost", [1, 2])
def test_odds_says_the_workers_lost_and_why_it_stopped(capsys, monkeypatch, lang, lost):
    import nefertiti_core.play.odds as odds

    reason = Said("odds.stopped.all_lost", count=2)  # as the Dask run says why it stopped
    monkeypatch.setattr(odds, "odds", lambda *a, **k: stopped_report(lost=lost, stopped=reason))
    code, out, err = run(["odds", WHAT_IF, "--lang", lang], None, capsys)
    assert code == 1
    assert_said(out, lang, count_key("cli.run.lost", lost), count=lost)
    said = tr(lang, "cli.run.stopped", reason=reason.in_lang(lang), done=50, requested=200)
    assert tr(lang, "cli.error", prog="nefertiti odds", message=said) in err
    assert str(reason) not in err and english_sentences(err) == []


@pytest.mark.parametrize("lang", LANGS)
def test_odds_json_says_the_workers_lost_and_replayed(capsys, monkeypatch, lang):
    import nefertiti_core.play.odds as odds

    monkeypatch.setattr(odds, "odds", lambda *a, **k: stopped_report(lost=2))
    code, _, err = run(["odds", WHAT_IF, "--lang", lang, "--json"], None, capsys)
    assert code == 0
    assert_said(err, lang, "cli.run.replayed", count=2)
    assert err.startswith(tr(lang, "cli.note", prog="nefertiti odds", message=""))


@pytest.mark.parametrize("lang", LANGS)
def test_odds_on_a_finished_game_says_there_is_nothing_to_play_out(capsys, lang, finished):
    code, _, err = run(["odds", finished, "--lang", lang], None, capsys)
    assert code == 2
    assert_said(err, lang, "odds.refuse.game_over")


@pytest.mark.parametrize("lang", LANGS)
def test_odds_with_bots_for_some_seats_says_one_or_one_per_seat(capsys, lang):
    code, _, err = run(["odds", MERCHANT, "--lang", lang, "--bots", "random,greedy"], None, capsys)
    assert code == 2
    kinds = listed(["random", "greedy"], lang)
    assert_said(err, lang, "odds.refuse.bots_count", seats=4, count=2, kinds=kinds)


@pytest.mark.parametrize("lang", LANGS)
def test_odds_studying_an_option_not_legal_now_says_so(capsys, lang):
    argv = ["odds", WHAT_IF, "--lang", lang, "--option", "place gizeh.left#0"]
    code, _, err = run(argv, None, capsys)
    assert code == 2
    assert_said(err, lang, "odds.refuse.illegal_option", option="'place gizeh.left#0'")


@pytest.mark.parametrize("lang", LANGS)
def test_odds_with_a_bot_whose_package_is_missing_names_the_package(capsys, monkeypatch, lang):
    import nefertiti_core.play.odds as odds

    def missing(kind, **kwargs):
        raise ModuleNotFoundError("No module named 'pyspiel'", name="pyspiel")

    monkeypatch.setattr(odds, "make_bot", missing)
    code, _, err = run(["odds", WHAT_IF, "--lang", lang, "--bots", "mcts"], None, capsys)
    assert code == 2
    assert_said(err, lang, "odds.refuse.needs_package", kind="'mcts'", package="pyspiel")


ADDRESSES = [
    ("a b", "odds.cluster.not_address", {}),
    ("tcp://h/x", "odds.cluster.not_address", {}),
    ("host", "odds.cluster.no_port", {}),
    ("ftp://a", "odds.cluster.protocol", {"scheme": "'ftp'"}),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("address, key, values", ADDRESSES)
def test_a_bad_cluster_address_is_said_in_the_commands_language(capsys, lang, address, key, values):
    code, _, err = run(["odds", WHAT_IF, "--lang", lang, "--cluster", address], None, capsys)
    assert code == 2
    if key == "odds.cluster.protocol":
        values = {**values, "schemes": listed(["tcp", "tls", "ws", "wss"], lang)}
    form = tr(lang, "odds.cluster.form")
    assert_said(err, lang, key, shown=repr(address), form=form, **values)


@pytest.mark.parametrize("lang", LANGS)
def test_tournament_with_too_few_bots_says_one_per_seat(capsys, lang):
    code, _, err = run(["tournament", "--bots", "greedy,random"], lang, capsys)
    assert code == 2
    assert_said(err, lang, "cli.run.bots_per_seat", count=2, players=4)
    assert tr(lang, "cli.see_help", prog="nefertiti tournament", message="x").split("x")[1] in err


@pytest.mark.parametrize("lang", LANGS)
def test_tournament_without_a_bots_package_says_what_is_missing(capsys, monkeypatch, lang):
    import nefertiti_core.play.tournament as tournament

    def missing(*args, **kwargs):
        raise ModuleNotFoundError("No module named 'pyspiel'", name="pyspiel")

    monkeypatch.setattr(tournament, "tournament", missing)
    code, _, err = run(["tournament", "--bots", "random,random,random,random"], lang, capsys)
    assert code == 2
    assert_said(err, lang, "cli.run.no_module", name="pyspiel")


@pytest.mark.parametrize("lang", LANGS)
def test_rules_without_a_match_says_so(capsys, lang):
    code, _, err = run(["rules", "zzzqqq", "--lang", lang], None, capsys)
    assert code == 1
    assert_said(err, lang, "cli.run.no_rule", query="'zzzqqq'")
    assert err.startswith(tr(lang, "cli.note", prog="nefertiti rules", message=""))


@pytest.mark.parametrize("lang", LANGS)
def test_a_files_warning_is_headed_in_the_commands_language(capsys, tmp_path, lang):
    from nefertiti_core import new_game
    from nefertiti_core.files.scenario import dumps_scenario

    state = new_game(4, 1)
    state.deben[0] += 5  # more Deben than the box holds: a what-if, loaded with a warning
    path = tmp_path / "rich.yaml"
    path.write_text(dumps_scenario(state), encoding="utf-8")
    code, _, err = run(["explain", str(path), "--lang", lang, "--no-previews"], None, capsys)
    assert code == 0
    assert err.startswith(tr(lang, "cli.run.warning", file="rich.yaml", message="")), err
    assert "warning:" not in err and english_sentences(err) == []


@pytest.mark.parametrize("lang", LANGS)
def test_check_says_what_it_checked_in_the_commands_language(capsys, lang):
    code, out, err = run(["check", str(scenario_path("a-turn")), "--lang", lang], None, capsys)
    assert code == 0, err
    exercises = tr(lang, "cli.run.exercises", count=2)
    answers = tr(lang, "cli.run.answers", count=2)
    summary = tr(
        lang, "cli.run.check_summary", file="a-turn.yaml", exercises=exercises, answers=answers
    )
    assert_said(out, lang, "cli.run.check_agrees")
    assert summary in out and english_sentences(out) == []
    assert "the position loads" not in out


@pytest.mark.parametrize("lang", LANGS)
def test_check_of_a_game_record_says_it_reads_position_files(capsys, tmp_path, lang):
    from nefertiti_core import new_game
    from nefertiti_core.files.history import GameRecord

    path = tmp_path / "game.yaml"
    path.write_text(GameRecord(new_game(4, 1), []).dumps(), encoding="utf-8")
    code, _, err = run(["check", str(path), "--lang", lang], None, capsys)
    assert code == 2
    assert_said(err.replace(str(tmp_path), ""), lang, "cli.run.check_record")


@pytest.mark.parametrize("lang", LANGS)
def test_replay_past_the_files_end_says_how_many_steps_it_has(capsys, lang):
    argv = ["replay", str(scenario_path("scribe")), "--to", "9", "--lang", lang]
    code, _, err = run(argv, None, capsys)
    assert code == 2
    assert_said(err, lang, "cli.run.replay_too_far", to=9, steps=2)


# --- a file the system does not let us read ------------------------------------------------------
def refusing(monkeypatch, name: str, number: int) -> None:
    """Opening a file called ``name`` fails with the system's error ``number``."""
    real = os.open

    def opening(path, *args, **kwargs):
        if Path(path).name == name:
            raise OSError(number, os.strerror(number), str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", opening)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "number, key",
    [
        (errno.EACCES, "file.os.denied"),
        (errno.EPERM, "file.os.denied"),
        (errno.ENOSPC, "file.os.no_space"),
    ],
)
def test_the_systems_reason_is_said_in_the_readers_language(capsys, monkeypatch, lang, number, key):
    refusing(monkeypatch, "merchant.yaml", number)
    code, _, err = run(["explain", MERCHANT, "--lang", lang], None, capsys)
    assert code == 2
    assert_said(err, lang, "file.limit.unreadable", why=tr(lang, key))
    assert os.strerror(number) not in err


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "number, key", [(errno.ENOENT, "file.limit.missing"), (errno.EISDIR, "file.limit.folder")]
)
def test_a_file_gone_or_a_folder_when_opened_is_said_as_before_opening(
    capsys, monkeypatch, lang, number, key
):
    refusing(monkeypatch, "merchant.yaml", number)
    code, _, err = run(["check", MERCHANT, "--lang", lang], None, capsys)
    assert code == 2
    assert_said(err, lang, key)
    assert os.strerror(number) not in err


@pytest.mark.parametrize("lang", LANGS)
def test_a_missing_file_and_a_folder_are_said_in_the_readers_language(
    capsys, monkeypatch, tmp_path, lang
):
    monkeypatch.chdir(tmp_path)  # the folder's own name holds English words
    code, _, err = run(["odds", "gone.yaml", "--lang", lang], None, capsys)
    assert code == 2
    assert_said(err, lang, "file.limit.missing")
    code, _, err = run(["hint", ".", "--lang", lang], None, capsys)
    assert code == 2
    assert_said(err, lang, "file.limit.folder")


def test_another_reason_is_the_systems_own(capsys, monkeypatch):
    refusing(monkeypatch, "merchant.yaml", errno.EIO)
    code, _, err = run(["explain", MERCHANT, "--lang", "de"], None, capsys)
    assert code == 2 and f"({os.strerror(errno.EIO)})" in err


# --- odds' report ------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_odds_reports_in_the_readers_language(capsys, lang):
    argv = ["odds", WHAT_IF, "--lang", lang, "--playouts", "6", "--bots", "random"]
    code, out, err = run(
        [*argv, "--workers", "1", "--option", "place louqsor.left#2"], None, capsys
    )
    assert code == 0, err
    words = catalog(lang)
    for key in ("odds.cli.seat", "odds.cli.win", "odds.cli.interval", "colour.red"):
        assert words[key] in out, key
    assert tr(lang, "odds.cli.closes", closes="") in out
    assert tr(lang, "odds.cli.louqsor", exact="X", fraction="1/9", sampled="").split("X")[0] in out
    assert english_sentences(out) == [], english_sentences(out)
    for english in ("win chance", "closes next", "playouts by", "seed ", "green", "studying"):
        assert english not in out, english
