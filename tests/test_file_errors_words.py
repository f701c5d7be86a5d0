"""A position file's errors and warnings in the reader's language (German, Chinese), the English
unchanged: ``ScenarioError.message(lang)``, ``Scenario.warnings_in(lang)`` and
``nefertiti explain --lang``.

Each kind of error is made by a small bad file; its German and Chinese sentences must hold no
English sentence (``tests/browser/english_words.py``), name the file, the line and the field path
as the file writes them, and make the command line's one short line (at most 200 characters).
The files of ``tests/corpus/bad`` are read too: whatever their error, each is one short line.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "browser"))

from english_words import english_sentences  # noqa: E402

from nefertiti_core import cli  # noqa: E402
from nefertiti_core.engine.errors import NefertitiError  # noqa: E402
from nefertiti_core.engine.i18n import placeholders  # noqa: E402
from nefertiti_core.engine.limits import one_line  # noqa: E402
from nefertiti_core.engine.said import in_lang  # noqa: E402
from nefertiti_core.files.history import load_any  # noqa: E402
from nefertiti_core.files.scenario import ScenarioError, loads_scenario  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MESSAGES = ROOT / "nefertiti_core" / "messages"
MARKETS = ("gizeh", "akhet_aton", "abou_simbel")
BAD = ROOT / "tests" / "corpus" / "bad"
PLAYERS = "nefertiti: 1\nplayers:\n- {colour: red}\n- {colour: blue}\n- {colour: green}\n"
EXERCISE = PLAYERS + "exercises:\n- {id: a/b"

#: (what is wrong, the file's text, the English problem's start, the field path)
CASES = [
    ("unknown field", "nefertiti: 1\nplayrs: 3\n", "unknown field 'playrs'", "playrs"),
    ("unknown colour", PLAYERS.replace("blue", "blu"), "unknown colour 'blu'", "players.1.colour"),
    ("unknown market", PLAYERS + "markets:\n  gize: {}\n", "unknown field 'gize'", "markets.gize"),
    ("unknown stall", PLAYERS + "markets:\n  gizeh: {stall: middle}\n", "unknown stall", ""),
    ("whole number", PLAYERS + "seed: x\n", "expected a whole number", "seed"),
    ("below", PLAYERS + "turn_number: 0\n", "0 is below the smallest allowed", "turn_number"),
    ("above", PLAYERS + "dice:\n  last_roll: [7]\n", "7 is above the largest", "dice.last_roll.0"),
    ("true or false", PLAYERS + "options: {characters: 3}\n", "expected true or false", ""),
    ("a list", PLAYERS + "moves: 3\n", "expected a list", "moves"),
    ("a mapping", PLAYERS + "options: 3\n", "expected a mapping of", "options"),
    ("players", "nefertiti: 1\nplayers:\n- {colour: red}\n", "Nefertiti is for 3 or 4", ""),
    ("same colour", PLAYERS.replace("blue", "red"), "red is already the colour", ""),
    ("version", "nefertiti: 2\n", "format version 2 is not supported", "nefertiti"),
    ("a card too many", PLAYERS + "out_of_game: {harp: 9}\n", "one harp too many", ""),
    ("move step", PLAYERS + "moves: [[1]]\n", "a step is a text like", "moves.0"),
    ("title", PLAYERS + "title: [1]\n", "a title is a text", "title"),
    ("exercise kind", EXERCISE + "}\n", "each exercise needs a kind", "exercises.0"),
    (
        "exercise rule",
        EXERCISE + ", kind: click-closing-square, market: gizeh, rules: R99}\n",
        "unknown rule ID 'R99'",
        "",
    ),
    (
        "exercise text",
        EXERCISE + ", kind: click-closing-square, market: gizeh, question: {de: x}}\n",
        "a text in several languages",
        "",
    ),
]


def words(lang: str) -> dict:
    return json.loads((MESSAGES / lang / "file_errors.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_every_file_message_has_its_german_and_chinese_with_the_same_placeholders(lang):
    english, other = words("en"), words(lang)
    assert set(other) == set(english)
    for key, text in english.items():
        if not key.startswith("_"):
            assert placeholders(other[key]) == placeholders(text), key
            assert other[key] != text or key == "file.sep", key  # written, not copied


def refusal(text: str, source: str = "lesson.yaml") -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        loads_scenario(text, source).play_moves()
    return info.value


def check_said(error: ScenarioError, lang: str, path: str) -> str:
    said = error.message(lang)
    assert said.startswith("lesson.yaml"), said
    if error.line:
        assert {"de": f"Zeile {error.line}", "zh": f"第 {error.line} 行"}[lang] in said, said
    assert path in said, said
    assert english_sentences(said) == [], said
    assert "\n" not in said
    return said


@pytest.mark.parametrize("what, text, english, path", CASES, ids=[c[0] for c in CASES])
def test_each_kind_of_error_is_said_in_german_and_chinese_and_in_english_as_before(
    what, text, english, path
):
    error = refusal(text)
    assert english in str(error) and str(error) == error.message("en")
    assert error.line, what  # every case names its line
    for lang in ("de", "zh"):
        said = check_said(error, lang, path)
        assert english not in said, said


def test_a_refused_move_is_said_with_the_engines_refusal_in_the_language():
    error = refusal(PLAYERS + "moves: ['place louqsor.left#0']\n")
    assert str(error).startswith("lesson.yaml: moves.0: 'place louqsor.left#0' is not allowed")
    assert "Luxor ist geschlossen" in check_said(error, "de", "moves.0")
    assert "Louqsor已关闭" in check_said(error, "zh", "moves.0")


def test_a_warning_is_english_in_warnings_and_german_or_chinese_in_warnings_in():
    markets = "".join(f"  {m}: {{upper: harp, lower: [gold]}}\n" for m in MARKETS)
    text = PLAYERS + "markets:\n" + markets + "deck: {order: [akhenaton]}\n"
    scenario = loads_scenario(text, "lesson.yaml")
    english = [w for w in scenario.warnings if "gift cards are missing" in w]
    assert english and english[0].startswith(tuple("0123456789"))
    for lang in ("de", "zh"):
        told = scenario.warnings_in(lang)
        assert len(told) == len(scenario.warnings)
        said = told[scenario.warnings.index(english[0])]
        assert english_sentences(said) == [] and "R12" in said, said
    assert scenario.warnings_in("en") == scenario.warnings


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_the_command_line_says_a_bad_file_in_one_short_line_in_its_language(lang, tmp_path, capsys):
    for _what, text, english, _path in CASES + [("corpus", None, "", "")]:
        files = sorted(BAD.glob("*.yaml")) if text is None else [tmp_path / "lesson.yaml"]
        if text is not None:
            files[0].write_text(text, encoding="utf-8")
        for file in files:
            assert cli.main(["explain", "--lang", lang, str(file)]) == 2, file
            lines = capsys.readouterr().err.splitlines()
            assert len(lines) == 1 and len(lines[0]) <= 200, (file, lines)
            assert "Traceback" not in lines[0]
            if english:
                assert english not in lines[0] and file.name in lines[0], lines


def test_the_corpus_of_bad_files_names_file_and_line_in_each_language():
    """Every bad file of the corpus: one line per language, the English unchanged; a file's own
    error (not the YAML syntax's or the engine's) in German and Chinese words."""
    worded = 0
    for file in sorted(BAD.glob("*.yaml")):
        try:
            load_any(file.read_bytes().decode("utf-8", "replace"), file.name)
            continue  # a file that loads and fails only when played
        except ScenarioError as error:
            assert error.message("en") == str(error)
            for lang in ("de", "zh"):
                said = one_line(error.message(lang))
                assert said.startswith(file.name) and len(said) <= 200, said
            if in_lang(error.problem, "de") != str(error.problem):
                worded += 1
                assert english_sentences(error.message("de")) == [], file.name
        except NefertitiError:
            pass
    assert worded >= 10


def test_a_game_records_errors_are_said_in_german_and_chinese_too():
    with pytest.raises(ScenarioError) as info:
        load_any("nefertiti_record: 3\n", "partie.yaml")
    assert str(info.value) == "partie.yaml: line 1: nefertiti_record: record format 3 is not 1 or 2"
    assert info.value.message("de").endswith("das Aufzeichnungsformat 3 ist weder 1 noch 2")
    assert info.value.message("zh").endswith("记录格式 3 既不是 1 也不是 2")


def _broken_positions():
    """Fresh three-player games, each broken in one way the engine's checks (R12) refuse."""
    import nefertiti_core as N
    from nefertiti_core.engine.state import P_OVER

    def broken(change):
        state = N.new_game(players=3)
        change(state)
        return state

    def fill(state, m):
        state.owners[m] = [p % 3 for p in range(len(state.owners[m]))]
        state.mask[m] = (1 << len(state.owners[m])) - 1

    yield broken(lambda s: s.gifts[0].__setitem__(0, -1))
    yield broken(lambda s: (s.seal_on_upper.__setitem__(0, True), s.cards[0].__setitem__(0, -1)))
    yield broken(lambda s: s.owners[3].__setitem__(0, 0))
    for m in range(3):
        yield broken(lambda s, m=m: fill(s, m))
        yield broken(lambda s, m=m: s.owners[m].__setitem__(0, 0))  # 1 servant, 2 for colours
    yield broken(lambda s: s.mask.__setitem__(0, 1))
    yield broken(lambda s: s.status.__setitem__(3, s.status[0]))
    yield broken(lambda s: setattr(s, "phase", P_OVER))
    yield broken(lambda s: s.status.__setitem__(slice(None), [1, 1, 1, 1]))


def test_the_engines_checks_of_a_position_are_said_in_german_and_chinese():
    """A file's warnings include the engine's own checks (``invariants.violations``): each is a
    catalogue message, said in the reader's language with no English sentence left."""
    from nefertiti_core.engine.invariants import violations
    from nefertiti_core.engine.said import Said

    keys = set()
    for state in _broken_positions():
        for found in violations(state):
            assert isinstance(found, Said), f"not in the catalogue: {found!r}"
            keys.add(found.key)
            for lang in ("de", "zh"):
                assert english_sentences(in_lang(found, lang)) == [], in_lang(found, lang)
    new = {
        "negative_gifts",
        "seal_on_empty",
        "servants_on_closed",
        "open_full",
        "mask",
        "open_markets",
        "over_open",
        "none_open",
    }
    assert {f"file.check.{key}" for key in new} <= keys, sorted(keys)
    assert keys & {"file.check.open_by_colours", "file.check.open_closing"}, sorted(keys)


#: A small file for each syntax error the YAML reader (``yaml_subset``) can raise: (its catalogue
#: key, the file's text, the line it names). Every ``yaml.*`` key of the catalogue is here.
YAML_CASES = [
    ("yaml.unknown_escape", 'title: "a\\q"\n', 1),
    ("yaml.long_number", "seed: " + "9" * 400 + "\n", 1),
    ("yaml.anchor", "nefertiti: 1\nseed: &x 3\n", 2),
    ("yaml.unclosed_double", 'title: "open\n', 1),
    ("yaml.unclosed_single", "title: 'open\n", 1),
    ("yaml.in_flow", "players: [1, 2\n", 1),
    ("yaml.brackets_deep", "a: " + "[" * 80 + "]" * 80 + "\n", 1),
    ("yaml.value_missing", "players: [1,\n", 1),
    ("yaml.unclosed_quote", "players: ['red\n", 1),
    ("yaml.expected_comma", "players: [1, 2\n", 1),
    ("yaml.flow_key", "a: {[1]: 2}\n", 1),
    ("yaml.expected_colon", "a: {b}\n", 1),
    ("yaml.key_twice", "nefertiti: 1\nseed: 1\nseed: 2\n", 3),
    ("yaml.after_bracket", "a: [1] x\n", 1),
    ("yaml.tabs", "nefertiti: 1\nplayers:\n\t- red\n", 3),
    ("yaml.one_document", "nefertiti: 1\n---\nseed: 2\n", 2),
    ("yaml.dedent", "  nefertiti: 1\nseed: 2\n", 2),
    ("yaml.blocks_deep", "".join(" " * i + f"k{i}:\n" for i in range(80)), 0),
    ("yaml.expected_key_or_item", "just words\nmore words\n", 1),
    ("yaml.indentation", "nefertiti: 1\nseed: 2\n    turn: 3\n", 3),
    ("yaml.item_not_key", "nefertiti: 1\n- red\n", 2),
    ("yaml.expected_key", "nefertiti: 1\njust words\n", 2),
    ("yaml.key_kind", "nefertiti: 1\nnull: 2\n", 2),
]


def test_every_yaml_syntax_error_is_a_catalogue_message_in_three_languages():
    keys = {key for key in words("en") if key.startswith("yaml.")}
    keys |= {
        k for k in json.loads((MESSAGES / "en" / "yaml_errors.json").read_text()) if k[0] != "_"
    }
    assert {case[0] for case in YAML_CASES} == keys
    for lang in ("de", "zh"):
        other = json.loads((MESSAGES / lang / "yaml_errors.json").read_text(encoding="utf-8"))
        english = json.loads((MESSAGES / "en" / "yaml_errors.json").read_text(encoding="utf-8"))
        assert set(other) == set(english)
        for key in keys:
            assert (
                placeholders(other[key]) == placeholders(english[key])
                and other[key] != english[key]
            ), key


@pytest.mark.parametrize("key, text, line", YAML_CASES, ids=[c[0] for c in YAML_CASES])
def test_each_yaml_syntax_error_is_said_in_german_and_chinese_with_its_line(key, text, line):
    error = refusal(text)
    problem = error.problem
    said_keys = {problem.key} | {p.key for p in problem.params.values() if hasattr(p, "key")}
    assert key in said_keys, (key, str(error))
    assert str(error) == error.message("en") and str(error).startswith("lesson.yaml")
    assert error.line == (line or error.line) and error.line, str(error)
    for lang in ("de", "zh"):
        said = check_said(error, lang, "")
        assert str(problem) not in said, said
        for part in problem.params.values():
            if hasattr(part, "key"):  # a problem inside "… in '[1, 2'": worded too
                assert str(part) not in said, said


@pytest.mark.parametrize("lang, where", [("de", "Zeile 3"), ("zh", "第 3 行")])
def test_the_command_line_says_a_yaml_syntax_error_in_its_language(lang, where, tmp_path, capsys):
    file = tmp_path / "lesson.yaml"
    file.write_text("nefertiti: 1\nplayers:\n\t- red\n", encoding="utf-8")
    assert cli.main(["explain", "--lang", lang, str(file)]) == 2
    said = capsys.readouterr().err
    assert where in said and "indent with spaces" not in said, said


def test_a_file_that_is_not_read_at_all_is_said_in_german_and_chinese(tmp_path):
    """Missing, a folder, not UTF-8, too large: refused before the YAML is read, in words."""
    from nefertiti_core.engine.limits import MAX_FILE_BYTES
    from nefertiti_core.files.scenario import load

    (tmp_path / "latin1.yaml").write_bytes("title: Größe\n".encode("latin-1"))
    (tmp_path / "big.yaml").write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    (tmp_path / "folder.yaml").mkdir()
    english = {
        "missing.yaml": "no such file",
        "latin1.yaml": "not a UTF-8 text file",
        "big.yaml": "too large (1,048,577 bytes)",
        "folder.yaml": "a folder: give a position",
    }
    for name, start in english.items():
        with pytest.raises(ScenarioError) as info:
            load(tmp_path / name)
        assert start in str(info.value) and str(info.value) == info.value.message("en")
        for lang in ("de", "zh"):
            said = info.value.message(lang)
            assert name in said and start not in said, said
            assert english_sentences(info.value.detail(lang)) == [], said
    with pytest.raises(ScenarioError) as info:
        load(tmp_path / "big.yaml")
    assert "zu groß (1.048.577 Byte)" in info.value.message("de")


def test_an_upload_refused_before_it_is_read_is_said_in_the_pages_language():
    """The upload path's own refusals (too large, a worker's limits, a reader's bug) are said
    in the page's language; the English is as before."""
    from nefertiti_core.engine.limits import MAX_FILE_BYTES
    from widgets.server.upload import refusal, refused_in_worker

    big = b"#" * (MAX_FILE_BYTES + 1)
    assert "too large (1,048,577 bytes)" in refused_in_worker(big, "big.yaml").error
    german = refused_in_worker(big, "big.yaml", "de")
    assert german.error.startswith("big.yaml: zu groß (1.048.577 Byte)"), german.error
    chinese = refused_in_worker(big, "big.yaml", "zh")
    assert chinese.error.startswith("big.yaml：文件太大"), chinese.error
    assert english_sentences(chinese.problem) == [] and "too large" not in chinese.problem
    bug = refusal("x.yaml", RuntimeError("boom"), "de")
    assert bug.error == "x.yaml: lässt sich nicht lesen (boom)", bug.error


#: Mistyped moves of a file's ``moves:``: (the move, the English, the close word it suggests).
MISTYPED = [
    ("plaec gizeh.left#1", "is not an option in the move notation", "'place gizeh.left#1'"),
    ("place gizeh.lefty#1", "is not an option in the move notation", "'place gizeh.left#1'"),
    ("place gizeh.left#9", "squares counted from 0", None),
    ("close gize", "is not an option in the move notation", "'close gizeh'"),
    ("fly to the moon", "an option starts with place", None),
    ("roll 9", "dice show 1 to 6", None),
    ("draw harpp", "write 'draw harp'", None),
]


def check_move_said(said: str, move: str, english: str, near: str | None) -> None:
    assert repr(move) in said and english not in said, said
    assert english_sentences(said) == [] and "\n" not in said, said
    if near:
        assert near in said, said


@pytest.mark.parametrize("move, english, near", MISTYPED, ids=[m[0] for m in MISTYPED])
def test_a_mistyped_move_is_said_in_the_readers_language_with_a_close_word(move, english, near):
    """A position file's, a record's and a notebook's mistyped move: the move as written, a
    close word when there is one, in German and Chinese; the English as before."""
    from nefertiti_core.engine.errors import NotationError

    error = refusal(PLAYERS + f"moves: ['{move}']\n")
    assert english in str(error) and str(error).startswith("lesson.yaml: moves.0: ")
    assert near is None or f"did you mean {near}?" in str(error), str(error)
    for lang in ("de", "zh"):
        check_move_said(check_said(error, lang, "moves.0"), move, english, near)
    start = PLAYERS.replace("\n", "\n  ").rstrip()
    record = load_any(f"nefertiti_record: 1\nstart:\n  {start}\nmoves: ['{move}']\n", "p.yaml")
    with pytest.raises(ScenarioError) as info:
        record.replay(source="partie.yaml")
    assert english in str(info.value)
    for lang in ("de", "zh"):
        said = info.value.message(lang)
        assert said.startswith("partie.yaml") and "moves.0" in said, said
        check_move_said(said, move, english, near)
    if not move.startswith(("roll", "draw")):  # a notebook's option: the same words
        with pytest.raises(NotationError) as typed:
            loads_scenario(PLAYERS, "x.yaml").state.parse(move)
        for lang in ("de", "zh"):
            check_move_said(typed.value.message(lang), move, english, near)


def test_a_mistyped_option_of_the_command_line_is_said_in_nefertiti_lang(capsys, monkeypatch):
    scenario = ROOT / "nefertiti_core" / "scenarios" / "louqsor-what-if.yaml"
    monkeypatch.setenv("NEFERTITI_LANG", "zh")
    argv = ["odds", str(scenario), "--playouts", "2", "--option", "plaec gizeh.left#1"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "'place gizeh.left#1'" in err and "不是记谱中的着法" in err, err
    assert english_sentences(err) == [] and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_every_notation_message_has_its_german_and_chinese(lang):
    def notation(lang):
        return json.loads((MESSAGES / lang / "move_notation.json").read_text(encoding="utf-8"))

    english, other = notation("en"), notation(lang)
    assert set(other) == set(english)
    for key, text in english.items():
        if not key.startswith("_"):
            assert placeholders(other[key]) == placeholders(text) and other[key] != text, key


#: Exercise entries the engine cannot ask: (the entry, the English, the field path).
ENTRIES = [
    ("option: 'place louqsor.left#0'", "is not legal in this position; green may choose", "option"),
    (
        "option: 'place louqsor.left#0', before: ['place gizeh.left#0']",
        "is not legal in this position (after before:)",
        "option",
    ),
    ("option: 'place gizeh.left#2', before: ['plaec gizeh.left#1']", "did you mean", "before.0"),
    (
        "option: 'place gizeh.left#2', before: ['place louqsor.left#1']",
        "is not allowed",
        "before.0",
    ),
    (
        "option: 'place gizeh.left#2', answer: yes",
        "the engine says no, the file says yes",
        "answer",
    ),
    ("option: 'place gizeh.left#2', answer: perhaps", "not an answer to this question", "answer"),
    ("option: 'place gizeh.left#2', answer: [1, 2]", "a list is an answer to a click", "answer"),
]


@pytest.mark.parametrize("entry, english, path", ENTRIES, ids=[e[2] + e[1][:9] for e in ENTRIES])
def test_an_exercise_the_engine_cannot_ask_is_said_in_german_and_chinese(
    entry, english, path, tmp_path
):
    """``check_entry``'s refusals (an option not legal, ``before`` moves that do not play, an
    answer that is not the engine's) in the reader's language; the English as before."""
    from nefertiti_core.files.exercises import exercises_in

    position = (ROOT / "nefertiti_core" / "scenarios" / "gizeh-left-high-bids.yaml").read_text()
    position = position[: position.index("exercises:")]
    file = tmp_path / "lesson.yaml"
    file.write_text(position + f"exercises:\n- {{id: a/b, kind: will-it-close, {entry}}}\n")
    with pytest.raises(ScenarioError) as info:
        exercises_in(file)
    error = info.value
    assert english in str(error) and f"exercises.0.{path}" in str(error), str(error)
    for lang in ("de", "zh"):
        said = error.message(lang)
        assert f"exercises.0.{path}" in said and english not in said, said
        assert english_sentences(said) == [], said
    if path == "option":  # who decides, in words: green, before any before: move
        assert " kann wählen: " in error.message("de"), error.message("de")
        assert "Grün kann" in error.message("de") or "before" in entry
