"""The ``nefertiti`` command: simulate's JSON report, and one-line errors for bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from nefertiti_core.cli import main

REQUIRED = {
    "games",
    "players",
    "seed",
    "decisions",
    "seconds",
    "games_per_second",
    "microseconds_per_decision",
    "invariant_violations",
    "mean_score_by_seat",
    "mean_decisions_per_game",
}


def run_json(capsys, *argv):
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("players", [3, 4])
def test_simulate_json_reports_every_field(capsys, players):
    report = run_json(capsys, "simulate", "--players", str(players), "--games", "12", "--json")
    assert REQUIRED <= set(report)
    assert report["games"] == 12 and report["players"] == players
    assert report["invariant_violations"] == 0
    assert len(report["mean_score_by_seat"]) == players
    assert report["decisions"] == pytest.approx(12 * report["mean_decisions_per_game"], abs=1)
    assert report["decisions"] > 12 * 50  # a game is dozens of decisions, not a handful


def test_simulate_is_deterministic_for_a_seed(capsys):
    first = run_json(capsys, "simulate", "--games", "5", "--seed", "9", "--json")
    second = run_json(capsys, "simulate", "--games", "5", "--seed", "9", "--json")
    other = run_json(capsys, "simulate", "--games", "5", "--seed", "10", "--json")
    assert first["decisions"] == second["decisions"]
    assert first["mean_score_by_seat"] == second["mean_score_by_seat"]
    assert first["mean_score_by_seat"] != other["mean_score_by_seat"]


def test_simulate_plain_text_report(capsys):
    assert main(["simulate", "--games", "3", "--no-check"]) == 0
    out = capsys.readouterr().out
    assert "microseconds_per_decision" in out and "invariant_violations" in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["simulate", "--players", "5"], "3 or 4 players"),
        (["simulate", "--players", "two"], "not a whole number"),
        (["simulate", "--games", "0"], "at least 1"),
        (["simulate", "--games", "-3"], "at least 1"),
        (["simulate", "--seed", "1.5"], "not a whole number"),
        (["simulate", "--layout", "diagonal"], "invalid choice"),
        (["simulate", "--frobnicate"], "unrecognized arguments"),
        (["fly"], "invalid choice"),
        ([], "required"),
    ],
)
def test_bad_arguments_get_one_line_and_exit_2(capsys, argv, words):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert words in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_console_script_runs_as_a_module():
    """The installed command and ``python -m nefertiti_core`` are the same entry point."""
    done = subprocess.run(
        [sys.executable, "-m", "nefertiti_core", "simulate", "--games", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 2
    bad = subprocess.run(
        [sys.executable, "-m", "nefertiti_core", "simulate", "--players", "9"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


# --------------------------------------------------------------------------- explain and replay
SCENARIOS = Path(str(resources.files("nefertiti_core").joinpath("scenarios")))


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_explain_prints_the_position_options_and_statuses(capsys, lang):
    assert main(["explain", str(SCENARIOS / "abou-simbel-left-sums.yaml"), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert "place abou_simbel.left#5" in out  # the options, in the notation
    assert "R3.5" in out  # each stall's closing rule is named
    assert "{" not in out
    if lang == "en":
        assert "A bid of 7 makes exactly 14 and closes it" in out
        assert "Red decides now" in out


def test_replay_narrates_each_step(capsys):
    assert main(["replay", str(SCENARIOS / "scribe.yaml")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "1. recruit scribe"
    assert "28" in out and "R10.7" in out


def test_replay_to_a_step_prints_a_scenario_that_loads_back(capsys, tmp_path):
    from nefertiti_core.files.history import History
    from nefertiti_core.files.scenario import load, loads_scenario

    assert main(["replay", str(SCENARIOS / "merchant.yaml"), "--to", "3"]) == 0
    out = capsys.readouterr().out
    position = loads_scenario(out, "out.yaml").state
    scenario = load(SCENARIOS / "merchant.yaml")
    history = History(scenario.state)
    for step in scenario.moves[:3]:
        history.play(step)
    assert position.state_hash() == history.state.state_hash()


def test_a_record_replays_through_the_command(capsys, tmp_path):
    from nefertiti_core import new_game
    from nefertiti_core.files.history import History

    history = History(new_game(4, 8))
    for _ in range(12):
        history.play(history.state.legal_options()[-1])
    history.record().save(tmp_path / "game.yaml")
    assert main(["replay", str(tmp_path / "game.yaml")]) == 0
    out = capsys.readouterr().out
    assert out.count("\n12. ") == 1
    assert main(["explain", str(tmp_path / "game.yaml"), "--no-previews"]) == 0
    assert "Scores if the game ended now" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["explain", "missing.yaml"], "missing.yaml: no such file"),
        (["replay", "{scenarios}/scribe.yaml", "--to", "9"], "the file has 2 steps"),
        (["explain", "{bad}"], "line 2: players: Nefertiti is for 3 or 4 players"),
    ],
)
def test_bad_files_get_one_line_naming_the_problem(capsys, tmp_path, argv, words):
    bad = tmp_path / "bad.yaml"
    bad.write_text("nefertiti: 1\nplayers: [{colour: red}]\n")
    argv = [a.format(scenarios=SCENARIOS, bad=bad) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_bad_language_is_refused(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["explain", str(SCENARIOS / "vizier.yaml"), "--lang", "fr"])
    assert stop.value.code == 2
    assert "invalid choice: 'fr'" in capsys.readouterr().err


def test_odds_reports_win_chances_and_the_exact_louqsor_chance(capsys):
    path = str(SCENARIOS / "louqsor-what-if.yaml")
    option = "place louqsor.left#2"
    argv = ["odds", path, "--playouts", "60", "--bots", "random", "--workers", "1"]
    report = run_json(capsys, *argv, "--option", option, "--json")
    assert report["playouts"] == 60 and report["option"] == option
    assert sum(report["wins"]) == pytest.approx(60)
    assert report["louqsor_exact"]["fraction"] == "1/9"  # R3.7: dice on 2, 3, 7 after the 3
    assert main([*argv, "--option", option]) == 0
    text = capsys.readouterr().out
    assert "win chance" in text and "Louqsor closes: exact 11.1% (1/9)" in text


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--playouts", "0"], "'0' must be at least 1"),
        (["--bots", "random,greedy"], "one kind for all seats or one per seat (4)"),
        (["--bots", "nobody"], "'nobody' is not a bot kind"),
        (["--option", "place gizeh.left#99"], "is not an option in the move notation"),
    ],
)
def test_odds_bad_arguments_get_one_line(capsys, argv, words):
    try:
        code = main(["odds", str(SCENARIOS / "louqsor-what-if.yaml"), "--playouts", "2", *argv])
    except SystemExit as stop:  # argparse's own refusals
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
