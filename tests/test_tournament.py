"""``nefertiti tournament`` (#6): seat-rotated games, the JSON report's shape, win counting
(R9.2: a shared win counts 1/k), Wilson intervals, independence from the number of worker
processes, options passed to the bots that take them, and one-line errors for bad arguments."""

from __future__ import annotations

import json

import pytest

from nefertiti_core.cli import main
from nefertiti_core.play import bots as B
from nefertiti_core.play.tournament import seat_kinds, tournament, wilson_interval

RECORD = {"bot", "games", "wins", "win_rate", "ci95", "mean_score"}


def run_json(capsys, *argv):
    assert main(["tournament", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_has_one_record_per_bot_kind(capsys):
    report = run_json(
        capsys,
        "--players",
        "3",
        "--bots",
        "greedy,random,random",
        "--games",
        "3",
        "--seed",
        "3",
        "--workers",
        "1",
        "--json",
    )
    assert report["players"] == 3 and report["games"] == 3 and report["seed"] == 3
    assert [b["bot"] for b in report["bots"]] == ["greedy", "random"]
    greedy, rand = report["bots"]
    for record in report["bots"]:
        assert RECORD <= set(record)
        low, high = record["ci95"]
        assert 0 <= low <= record["win_rate"] <= high <= 1
    # A kind in several seats is aggregated: random plays two seats of every game.
    assert greedy["games"] == 3 and rand["games"] == 6
    # Fractional wins: every game hands out exactly one win in all.
    assert greedy["wins"] + rand["wins"] == pytest.approx(3)
    assert sum(report["win_share_by_seat"]) == pytest.approx(1, abs=1e-3)


def test_plain_table(capsys):
    assert (
        main(
            [
                "tournament",
                "--bots",
                "random,random,random,random",
                "--games",
                "4",
                "--workers",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "win rate" in out and "95% CI" in out and "random" in out


def test_each_kind_sits_in_each_seat_equally_often():
    assert seat_kinds(("a", "b", "c", "d"), 0) == ("a", "b", "c", "d")
    assert seat_kinds(("a", "b", "c", "d"), 1) == ("d", "a", "b", "c")
    report = tournament(["greedy", "random", "random"], games=6, seed=0, workers=1)
    by_seat = {b["bot"]: b["games_by_seat"] for b in report.as_dict()["bots"]}
    assert by_seat == {"greedy": [2, 2, 2], "random": [4, 4, 4]}
    for result in report.results:  # game i: seed SEED+i, the list rotated by i seats
        assert result.seed == result.index
        assert result.kinds == seat_kinds(("greedy", "random", "random"), result.index)


def test_results_do_not_depend_on_the_number_of_workers():
    lineup = ["random", "random", "random", "random"]
    one = tournament(lineup, games=12, seed=7, workers=1)
    two = tournament(lineup, games=12, seed=7, workers=2)
    assert [(r.scores, r.winners) for r in one.results] == [
        (r.scores, r.winners) for r in two.results
    ]
    assert one.as_dict()["bots"] == two.as_dict()["bots"]


def test_shared_wins_count_a_fraction_for_each_winner():
    from nefertiti_core.play.tournament import GameResult, TournamentReport

    results = [
        GameResult(0, 0, ("a", "b", "b"), (10, 10, 3), (0, 1), 1, 0.0),  # shared (R9.2)
        GameResult(1, 1, ("b", "a", "b"), (5, 9, 9), (1, 2), 1, 0.0),
    ]
    report = TournamentReport(("a", "b", "b"), 2, 0, 1, {}, results, 0.0)
    stats = {b["bot"]: b for b in report.as_dict()["bots"]}
    assert stats["a"]["wins"] == 1.0 and stats["b"]["wins"] == 1.0
    assert stats["a"]["games"] == 2 and stats["b"]["games"] == 4


def test_wilson_interval():
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson_interval(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(400, 400)[1] == pytest.approx(1.0)


def test_time_limit_and_iterations_reach_only_the_bots_that_take_them(monkeypatch):
    seen = []

    class Thinker(B.RandomBot):
        kind = "thinker"

        def __init__(self, seed=0, time_limit=None, iterations=None):
            super().__init__(seed)
            seen.append((time_limit, iterations))

    monkeypatch.setitem(B.FACTORIES, "thinker", Thinker)
    report = tournament(
        ["thinker", "random", "random"],
        games=3,
        workers=1,
        bot_options={"time_limit": 0.5, "iterations": 20},
    )
    assert seen and set(seen) == {(0.5, 20)}
    assert report.options == {"thinker": {"time_limit": 0.5, "iterations": 20}}


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--bots", "greedy,wizard,random,random"], "'wizard' is not a bot kind"),
        (["--bots", "greedy,random,random"], "--bots names 3 bot(s) for --players 4"),
        (["--bots", "greedy,random,random,random", "--games", "0"], "--games"),
        (["--players", "5", "--bots", "random,random,random,random,random"], "--players"),
        (["--bots", "random,random,random,random", "--workers", "0"], "--workers"),
        (["--bots", "random,random,random,random", "--time-limit", "-1"], "--time-limit"),
        (["--games", "3"], "--bots"),
    ],
)
def test_bad_arguments_get_one_line_and_exit_2(capsys, argv, needle):
    with pytest.raises(SystemExit) as exit_info:
        code = main(["tournament", *argv])
        raise SystemExit(code)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and len(err.splitlines()) == 1, err
