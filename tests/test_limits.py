"""Limits on everything a user can send (issue #14; the figures are in nefertiti_core/engine/limits.py).

Each limit refuses with one line naming the file, the line and the field; nothing is read past a
limit; a BOM is accepted. The fuzz test of the commands (test_cli_fuzz.py) runs the same kinds
of files through the command line; these tests check each limit where it is enforced.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import tracemalloc
import zlib

import pytest

import nefertiti_core as N
from nefertiti_core.cli import main
from nefertiti_core.engine import limits as L
from nefertiti_core.engine.steps import parse_step
from nefertiti_core.files.history import History
from nefertiti_core.files.scenario import ScenarioError, dumps_scenario, load, loads_scenario
from nefertiti_core.files.yaml_subset import YamlError, loads

SIMPLE = "nefertiti: 1\nplayers:\n- colour: red\n- colour: blue\n- colour: green\n- colour: black\n"


def refused(text: str, *needles: str, source: str = "f.yaml") -> str:
    with pytest.raises(ScenarioError) as info:
        loads_scenario(text, source)
    message = str(info.value)
    assert "\n" not in message and len(message) <= L.MAX_MESSAGE_CHARS, message
    for needle in needles:
        assert needle in message, message
    return message


# ------------------------------------------------------------------------------ files
def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    done = []
    worker = threading.Thread(target=lambda: done.append(_refusal(fifo)), daemon=True)
    worker.start()
    worker.join(5)
    assert done and "not a regular file" in done[0]


def _refusal(path) -> str:
    try:
        load(path)
    except ScenarioError as error:
        return str(error)
    return "loaded"


def test_dev_zero_and_a_folder_are_refused_without_reading(tmp_path):
    assert "not a regular file" in _refusal("/dev/zero")
    assert "a folder" in _refusal(tmp_path)
    assert "no such file" in _refusal(tmp_path / "missing.yaml")


def test_a_file_over_the_size_limit_is_refused_by_its_size(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (L.MAX_FILE_BYTES + 1))
    assert "too large (1,048,577 bytes)" in _refusal(big)
    exact = tmp_path / "exact.yaml"
    exact.write_bytes((SIMPLE + "#" * (L.MAX_FILE_BYTES - len(SIMPLE) - 1) + "\n").encode())
    assert load(exact).state.n == 4  # exactly at the limit: read


def test_read_text_reads_at_most_the_limit_plus_one_byte(tmp_path, monkeypatch):
    path = tmp_path / "f.yaml"
    path.write_bytes(b"x" * 100)
    asked = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: asked.append(n) or real_read(fd, n))
    with pytest.raises(L.FileLimitError):
        L.read_text(path, limit=10)  # the stat says 100 > 10: not even opened
    assert asked == []
    assert L.read_text(path, limit=200) == "x" * 100
    assert sum(asked) <= 201 + 201


def test_a_windows_bom_is_accepted_in_a_file_and_in_text(tmp_path):
    path = tmp_path / "notepad.yaml"
    path.write_bytes(("\ufeff" + SIMPLE).replace("\n", "\r\n").encode("utf-8"))
    assert load(path).state.n == 4
    assert loads_scenario("\ufeff" + SIMPLE).state.n == 4
    assert main(["explain", str(path)]) == 0


def test_not_utf8_names_the_byte(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(SIMPLE.encode() + b"title: caf\xe9\n")
    assert "not a UTF-8 text file (byte" in _refusal(path)


# ------------------------------------------------------------------------------ the YAML reader
@pytest.mark.parametrize(
    "text, needle",
    [
        ("a: " + "[" * 900 + "]" * 900, "brackets nested more than 32 deep"),
        ("a: " + "{b: " * 40 + "1" + "}" * 40, "brackets nested more than 32 deep"),
        ("".join("  " * i + f"k{i}:\n" for i in range(40)) + "  " * 40 + "x: 1", "blocks nested"),
        ("a:\n" + "".join("  " * i + f"- b{i}:\n" for i in range(40)), "blocks nested"),
        ("a: " + "9" * 5000, "a number of 5000 digits is too long (at most 40)"),
        ("{[1, 2]: right}", "a key must be a word or a number, not a list or a mapping"),
        ("a: {{b: 1}: 2}", "a key must be a word or a number"),
    ],
    ids=[
        "900 brackets",
        "40 maps",
        "40 blocks",
        "list-map chain",
        "5000 digits",
        "list key",
        "map key",
    ],  # fmt: skip
)
def test_the_yaml_reader_refuses_in_one_line(text, needle):
    with pytest.raises(YamlError) as info:
        loads(text)
    assert needle in str(info.value)
    assert len(str(info.value)) <= L.MAX_MESSAGE_CHARS


def test_nesting_up_to_the_limit_is_read():
    assert loads("a: " + "[" * 32 + "]" * 32).data["a"] is not None
    assert loads("a: " + "9" * 40).data["a"] == int("9" * 40)


def test_echoed_input_is_cut_to_40_characters():
    with pytest.raises(YamlError) as info:
        loads("a: {" + "x" * 10_000_000)
    assert len(str(info.value)) < 120 and "…" in str(info.value)
    assert L.echo("y" * 1000) == repr("y" * 1000)[:39] + "…"
    assert "digits" in L.echo(10**5000)


# ------------------------------------------------------------------------------ the fields
def test_counts_have_at_most_12_digits():
    refused(
        SIMPLE.replace("colour: red", "colour: red\n  deben: 1000000000000"),
        "line 4",
        "players.0.deben",
        "above the largest allowed, 999999999999",
    )
    assert loads_scenario(SIMPLE.replace("colour: red", "colour: red\n  deben: 999999999999"))


def _random_state(raw) -> str:
    return base64.b64encode(zlib.compress(json.dumps(raw).encode(), 9)).decode()


def test_a_zlib_bomb_in_random_state_is_inflated_only_to_16_kib():
    bomb = base64.b64encode(zlib.compress(b"[" + b" " * 11_000_000 + b"]", 9)).decode()
    assert len(bomb) <= L.MAX_RANDOM_STATE_CHARS
    tracemalloc.start()
    try:
        refused(SIMPLE + f"random_state: {bomb}\n", "line 7", "random_state", "unpacks to over")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000  # 11 MB if inflated


def test_a_long_random_state_is_refused_by_its_length():
    text = SIMPLE + "random_state: " + "A" * (L.MAX_RANDOM_STATE_CHARS + 4) + "\n"
    refused(text, "random_state", "too long for a random state")


@pytest.mark.parametrize(
    "raw",
    [
        [3, list(range(100)), None],  # wrong size
        [2, list(range(624)) + [624], None],  # wrong version
        [3, ["x"] * 625, None],  # wrong types
        [3, [True] * 624 + [624], None],  # booleans for words
        [3, [2**40] * 624 + [624], None],  # a word over 32 bits
        [3, list(range(624)) + [9999], None],  # index out of range
        [3, list(range(624)) + [624], "gauss"],  # gauss not a float
        {"a": 1},
    ],
    ids=["size", "version", "types", "bools", "word", "index", "gauss", "mapping"],
)
def test_a_crafted_random_state_is_refused_before_setstate(raw):
    refused(SIMPLE + f"random_state: {_random_state(raw)}\n", "random_state", "not a random state")


def test_a_saved_random_state_still_loads_exactly():
    g = N.new_game(4, seed=5)
    g.apply(g.legal_options()[3])
    again = loads_scenario(dumps_scenario(g)).state
    assert again.state_hash() == g.state_hash()


def test_a_resolution_queue_past_the_stall_is_refused():
    text = (
        SIMPLE
        + "markets:\n  gizeh: {servants: {0: red}}\n"
        + "pending:\n  phase: take\n  resolution: {market: gizeh, queue: [7, 0], position: 1}\n"
    )
    refused(text, "pending.resolution.queue.0", "square 7 is past the stall")


def test_a_pending_decision_with_no_option_is_refused_not_called_over(capsys, tmp_path):
    text = (
        SIMPLE.replace("colour: blue", "colour: blue\n  gifts: {harp: 1}")
        + "pending:\n  phase: exchange_give\n  exchange_take: [blue, harp]\n"
    )
    refused(text, "pending.phase", "would have no option at all")
    path = tmp_path / "stuck.yaml"
    path.write_text(text)
    assert main(["hint", str(path)]) == 2
    assert "game is over" not in capsys.readouterr().err


def test_steps_texts_and_titles_have_limits():
    moves = "moves:\n" + "- roll 3\n" * (L.MAX_STEPS + 1)
    refused(SIMPLE + moves, "moves", "5,001 steps; a file has at most 5,000")
    refused(SIMPLE + "moves:\n- place " + "x" * 300 + "\n", "moves.0", "a step of 306 characters")
    refused(SIMPLE + "title: " + "t" * 201 + "\n", "title", "at most 200 characters")
    refused(SIMPLE + "teaching: " + "t" * 20_001 + "\n", "teaching", "20,001 characters")


def test_dice_per_roll_and_dice_fixed_ahead_are_limited_r4_4():
    g = N.new_game(4, seed=1)
    with pytest.raises(N.NotationError, match="at most 6 dice"):
        parse_step(g, "roll 1 2 3 4 5 6 1")
    with pytest.raises(N.NotationError, match="dice show 1 to 6"):
        parse_step(g, "roll 5555555")
    refused(SIMPLE + "forced:\n  rolls: [" + ", ".join(["3"] * 13) + "]\n", "forced.rolls")


def test_memory_of_many_roll_steps_is_no_longer_quadratic():
    """A record of many big roll steps kept a copy of every pending die in every history node:
    memory grew with the square of the steps (1.75 GB for 0.62 MB). Dice fixed ahead are now at
    most 12, so each node holds at most 12; the 13th die is refused."""
    h = History(N.new_game(4, seed=1))
    h.play("roll 6 6 6 6 6 6")
    h.play("roll 6 6 6 6 6 6")
    before = h.state.state_hash()
    with pytest.raises(N.IllegalOptionError, match="fixed ahead"):
        h.play("roll 6")
    assert h.state.state_hash() == before and h.length() == 2
    tracemalloc.start()
    try:
        for _ in range(300):  # placements and their forced rolls: each node stays small
            h.undo()
            h.play("roll 6 6 6 6 6 6")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000


# ------------------------------------------------------------------------------ the command line
@pytest.mark.parametrize("budget", ["1e-300", "0", "-1", "inf", "nan", "1e9"])
def test_time_budget_out_of_range_is_refused(budget, capsys, tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SIMPLE)
    with pytest.raises(SystemExit) as stop:
        main(["hint", str(path), "--time-budget", budget])
    assert stop.value.code == 2
    assert "0.001 to 86400" in capsys.readouterr().err or budget == "nan"


def test_a_huge_seed_argument_is_refused(capsys, tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SIMPLE)
    with pytest.raises(SystemExit):
        main(["hint", str(path), "--seed", "9" * 5000])
    err = capsys.readouterr().err
    assert "at most 12 digits" in err and len(err) < 200


def test_hints_and_odds_refuse_numbers_that_overflow():
    from nefertiti_core.play.hints import hints
    from nefertiti_core.play.odds import odds

    g = N.new_game(4, seed=1)
    g.deben[0] = 10**400
    with pytest.raises(N.NefertitiError, match="too large to study"):
        hints(g)
    with pytest.raises(N.NefertitiError, match="too large to study"):
        odds(g, playouts=2, workers=1)


# ------------------------------------------------------------------------------ uploads (served)
def test_the_upload_worker_refuses_bombs_and_passes_good_files():
    from widgets.server.upload import check_in_worker, load_checked

    bomb = base64.b64encode(zlib.compress(b"[" + b" " * 11_000_000 + b"]", 9)).decode()
    assert "unpacks to over" in check_in_worker((SIMPLE + f"random_state: {bomb}\n").encode(), "b")
    assert "too large" in check_in_worker(b"#" * (L.MAX_FILE_BYTES + 1), "big.yaml")
    nested = (SIMPLE + "title: " + "[" * 900 + "]" * 900).encode()
    assert check_in_worker(nested, "n.yaml").startswith("n.yaml: line 7: brackets nested")
    assert check_in_worker(("\ufeff" + SIMPLE).encode(), "bom.yaml") is None
    upload = load_checked(("\ufeff" + SIMPLE).encode(), "bom.yaml")
    assert not upload.error and upload.scenario.state.n == 4


def test_the_upload_worker_is_refused_when_it_exceeds_its_memory(monkeypatch):
    import widgets.server.upload as U

    monkeypatch.setattr(U, "WORKER_MEMORY_MIB", 1)  # less than Python has: nothing more fits
    big = (SIMPLE + "# a comment\n" * 70_000).encode()
    message = U.check_in_worker(big, "s.yaml")
    assert message.startswith("s.yaml: refused: reading it needs more than"), message


def _v2_record(branches: str) -> str:
    from nefertiti_core.files.scenario import dumps_scenario as dump

    start = "".join("  " + line + "\n" for line in dump(N.new_game(4, seed=1)).splitlines())
    return "nefertiti_record: 2\nstart:\n" + start + "branches:\n" + branches


def test_a_record_has_at_most_5000_steps_in_all_its_branches():
    from nefertiti_core.files.history import is_record, record_from_data

    text = History(N.new_game(4, seed=1)).record().dumps().rstrip()
    text = text[: -len("moves: []")] + "moves:\n" + "  - roll 3\n" * (L.MAX_STEPS + 1)
    doc = loads(text)
    assert is_record(doc.data)
    with pytest.raises(ScenarioError, match="5,001 steps; a record has at most 5,000"):
        record_from_data(doc.data, "r.yaml", doc)
    many = "".join(
        f"  - {{name: b{k}{', from: {branch: b0, step: 0}' if k else ''}, moves: []}}\n"
        for k in range(L.MAX_BRANCHES + 1)
    )
    doc = loads(_v2_record(many))
    with pytest.raises(ScenarioError, match="101 branches; a record has at most 100"):
        record_from_data(doc.data, "r.yaml", doc)
    spread = "".join(
        f"  - {{name: b{k}{', from: {branch: b0, step: 0}' if k else ''}, moves: ["
        + ", ".join(["roll 3"] * 100)
        + "]}\n"
        for k in range(51)
    )
    doc = loads(_v2_record(spread))
    with pytest.raises(ScenarioError, match="over 5,000 steps in all the branches"):
        record_from_data(doc.data, "r.yaml", doc)


def test_uploads_beyond_the_servers_workers_wait_then_are_refused(monkeypatch):
    import threading as T

    import widgets.server.upload as U

    monkeypatch.setattr(U, "WORKER_SLOTS", T.BoundedSemaphore(1))
    monkeypatch.setattr(U, "WORKER_QUEUE_SECONDS", 0.2)
    U.WORKER_SLOTS.acquire()  # another upload is being read
    try:
        message = U.check_in_worker(SIMPLE.encode(), "s.yaml")
    finally:
        U.WORKER_SLOTS.release()
    assert message == "s.yaml: refused: the server is busy reading other files; try again soon"
    assert U.check_in_worker(SIMPLE.encode(), "s.yaml") is None  # its turn now


def test_a_list_item_whose_first_key_is_quoted_reads_back():
    """Found by test_yaml_subset's round trip: ``- "no": 1`` (a reserved word as a key is written
    quoted) was read as the text '"no": 1'."""
    from nefertiti_core.files.yaml_subset import dumps

    for data in ({"a": [{"no": "0"}]}, {"a": [{"no": None, "b": 1}]}, {"a": ["x: y"]}):
        assert loads(dumps(data)).data == data
