"""The rules reference (nefertiti_core/teaching/rules_reference.py, messages/<lang>/rules.json).

- Every rule ID cited anywhere in the product (code, messages, scenarios, exercises, notebooks,
  docs) has its own entry, with a title and a text, in English, German and Chinese.
- No entry copies the rulebook: no run of 8 words in common with it (checked against fingerprints
  of the rulebook's 8-word runs in tests/data, since the rulebook is not part of the repository).
- The project's readings (first-game layout R2.8, Gizeh's adjacency R3.1, the estimated gift
  values R8, ...) are flagged and say so in every language.
- Lookup (with the fallback to the section), search by words, and ``nefertiti rules``.
- Nothing shipped points outside the repository (at the team's shared folder).
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from importlib import resources
from pathlib import Path

import pytest

from nefertiti_core.cli import main
from nefertiti_core.engine.i18n import LANGUAGES
from nefertiti_core.teaching import rules_reference as RR

ROOT = Path(__file__).resolve().parents[1]
SHINGLE_FILE = Path(__file__).with_name("data") / "rulebook-shingles.txt"
SHINGLE_WORDS = 8
CJK = re.compile(r"[\u4e00-\u9fff]")
READING_WORDS = {"en": "project's reading", "de": "Lesart des Projekts", "zh": "本项目的解读"}
#: Where the product cites rule IDs: the packages, their data, the tutorials and the docs.
CITING = [
    *sorted((ROOT / "nefertiti_core").rglob("*.py")),
    *sorted((ROOT / "nefertiti_core").rglob("*.json")),
    *sorted((ROOT / "nefertiti_core").rglob("*.yaml")),
    *sorted((ROOT / "widgets").rglob("*.py")),
    *sorted((ROOT / "tutorials").rglob("*.ipynb")),
    *sorted((ROOT / "tutorials").rglob("*.yaml")),
    *sorted((ROOT / "docs").rglob("*.md")),
]


# --- helpers -----------------------------------------------------------------------------------
def words(text: str) -> list[str]:
    """The words of an English text, lower case; numbers left out (facts carry over)."""
    return re.findall(r"[a-z]+(?:'[a-z]+)?", text.lower())


def shingle(run: list[str]) -> str:
    return hashlib.sha1(" ".join(run).encode()).hexdigest()[:12]


def shingles(text: str, size: int = SHINGLE_WORDS) -> set[str]:
    found = words(text)
    return {shingle(found[i : i + size]) for i in range(len(found) - size + 1)}


def copied_runs(text: str, fingerprints: set[str], size: int = SHINGLE_WORDS) -> list[str]:
    """The runs of ``size`` words of ``text`` whose fingerprint is among ``fingerprints``."""
    found = words(text)
    return [
        " ".join(found[i : i + size])
        for i in range(len(found) - size + 1)
        if shingle(found[i : i + size]) in fingerprints
    ]


def rulebook_fingerprints() -> set[str]:
    lines = SHINGLE_FILE.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def cited_ids() -> dict[str, set[str]]:
    """Every rule ID cited in the product, with the files that cite it."""
    cited: dict[str, set[str]] = {}
    for path in CITING:
        text = path.read_text(encoding="utf-8")
        for rule_id in RR.ids_in(text):
            cited.setdefault(rule_id, set()).add(str(path.relative_to(ROOT)))
    return cited


def catalog_file(lang: str) -> dict:
    path = resources.files("nefertiti_core").joinpath("messages", lang, "rules.json")
    return json.loads(path.read_text(encoding="utf-8"))


# --- every cited ID has an entry in every language -------------------------------------------
def test_the_scan_finds_the_ids_the_product_cites():
    cited = cited_ids()
    assert {"R2.8", "R3.5", "R6.6", "R6.7", "R10.7", "R2", "R8"} <= set(cited)
    assert (
        "nefertiti_core/engine/state.py" in cited["R3.5"]
        or "nefertiti_core/engine/rules.py" in cited["R3.5"]
    )
    assert any(name.endswith(".ipynb") for name in cited["R3.5"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_cited_rule_id_has_its_own_entry_in_every_language(lang):
    missing = {
        rule_id: sorted(where)[:3]
        for rule_id, where in cited_ids().items()
        if rule_id not in RR.ids()
    }
    assert missing == {}
    data = catalog_file(lang)
    for rule_id in cited_ids():
        title, text = data.get(f"rule.{rule_id}.title"), data.get(f"rule.{rule_id}.text")
        assert title and text, f"{lang}: {rule_id} lacks its title or text"


def test_every_ruling_and_every_section_has_an_entry():
    """R1 to R13 and the rulings under them (the RULINGS numbering: 63 IDs)."""
    ids = RR.ids()
    assert len(ids) == 63
    assert [rule_id for rule_id in ids if "." not in rule_id] == [f"R{n}" for n in range(1, 14)]
    assert {"R3.10", "R6.8", "R10.8", "R9.2", "R7.2"} <= set(ids)


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_translations_are_translations(lang):
    for en, other in zip(RR.all_rules("en"), RR.all_rules(lang), strict=True):
        assert other.id == en.id
        assert other.text != en.text and other.title.strip()
        if lang == "zh":
            assert CJK.search(other.text), other.id


@pytest.mark.parametrize("lang", LANGUAGES)
def test_entries_are_short_plain_explanations(lang):
    """A title of a few words, a text of two to six sentences."""
    end = re.compile(r"[.!?。！？]")
    for rule in RR.all_rules(lang):
        assert 2 <= len(rule.title) <= 70, (rule.id, rule.title)
        plain = re.sub(r"(?<=\w)\.(?=\w)", "", rule.text)  # R3.5, 3.5: not a sentence's end
        sentences = len(end.findall(plain))
        assert 2 <= sentences <= 6, (rule.id, sentences)
        assert "{" not in rule.text and "}" not in rule.text


# --- no sentence of the rulebook --------------------------------------------------------------
def test_the_copy_check_catches_a_copied_run_of_words():
    source = "The stall closes as soon as the bids of the servants reach seventeen or more."
    prints = shingles(source)
    assert copied_runs("Note: the bids of the servants reach seventeen or more here.", prints)
    assert copied_runs("The bids reach seventeen: the stall closes.", prints) == []


def test_the_fingerprints_match_the_rulebook_when_it_is_at_hand():
    """The team's copy of the rulebook (outside the repository) gives the same fingerprints."""
    fingerprints = rulebook_fingerprints()
    assert len(fingerprints) > 2000
    rulebook = ROOT.parent / "shared" / "rules" / "rulebook.en.txt"
    if not rulebook.exists():
        pytest.skip("the rulebook is not beside this checkout; the stored fingerprints are used")
    assert shingles(rulebook.read_text(encoding="utf-8")) == fingerprints


def test_no_entry_copies_eight_words_of_the_rulebook():
    fingerprints = rulebook_fingerprints()
    copied = {
        rule.id: copied_runs(f"{rule.title}. {rule.text}", fingerprints)
        for rule in RR.all_rules("en")
    }
    assert {rule_id: runs for rule_id, runs in copied.items() if runs} == {}


# --- the project's readings are said to be readings ------------------------------------------
def test_the_reconstructions_are_flagged():
    flagged = {rule.id for rule in RR.all_rules("en") if rule.reading}
    assert {"R2.8", "R3.1", "R8"} <= flagged
    for lang in LANGUAGES:
        assert catalog_file(lang)["_readings"] == catalog_file("en")["_readings"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_flagged_entry_says_it_is_a_reading_and_no_other_does(lang):
    for rule in RR.all_rules(lang):
        says = READING_WORDS[lang] in rule.text
        assert says == rule.reading, (lang, rule.id, rule.text)


# --- lookup and search --------------------------------------------------------------------------
def test_lookup_normalises_the_id_and_falls_back_to_the_section():
    assert RR.lookup("R3.5").title.startswith("Abou Simbel, left stall")
    assert RR.lookup(" r03.05 ", "de").id == "R3.5"
    assert RR.lookup("R3.11").id == "R3"  # no such ruling: its section
    assert RR.lookup("R99") is None and RR.lookup("R0") is None and RR.lookup("3.5") is None
    assert RR.lookup("R3.5", "zh").lang == "zh" and CJK.search(RR.lookup("R3.5", "zh").title)


def test_get_names_the_unknown_id():
    with pytest.raises(RR.UnknownRule, match="R99"):
        RR.get("R99")
    with pytest.raises(ValueError, match="unknown language"):
        RR.lookup("R3.5", "fr")


def test_ids_in_reads_the_ids_of_a_text_once_each():
    text = "(Game Setup, R2.6-R2.8) then R3.5, R6.6, R3.5 again; not R0, R2D2 nor xR3"
    assert RR.ids_in(text) == ["R2.6", "R2.8", "R3.5", "R6.6"]


@pytest.mark.parametrize(
    "lang,query,expected",
    [
        ("en", "closing", {"R3.10", "R6.6", "R3.5", "R7.1"}),
        ("en", "half reserve", {"R6.4", "R13"}),
        ("de", "schließen", {"R3.10", "R6.6", "R3.5"}),
        ("de", "Luxor Würfel", {"R3.7", "R3.8", "R4"}),
        ("zh", "休市", {"R6.6", "R6.7", "R10.5"}),
    ],
)
def test_search_finds_rules_by_the_words_of_their_language(lang, query, expected):
    found = [rule.id for rule in RR.search(query, lang)]
    assert expected <= set(found), found
    assert len(found) < len(RR.ids())


def test_search_ranks_title_matches_first_and_takes_an_id():
    assert RR.search("closing")[0].title.casefold().count("clos")
    assert [rule.id for rule in RR.search("R6")][:3] == ["R6", "R6.1", "R6.2"]
    assert RR.search("xyzzy") == [] and len(RR.search("")) == len(RR.ids())


# --- nefertiti rules ------------------------------------------------------------------------------
def test_cli_prints_a_rule_by_id(capsys):
    assert main(["rules", "R3.5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("R3.5  Abou Simbel, left stall") and "exactly 14" in out


def test_cli_prints_a_rule_in_german_and_chinese(capsys):
    assert main(["rules", "r3.5", "--lang", "de"]) == 0
    assert "Abu Simbel" in capsys.readouterr().out
    assert main(["rules", "R2.8", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "本项目的解读" in out and "*" in out


def test_cli_searches_and_lists(capsys):
    assert main(["rules", "closing"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("R3.10 ") for line in lines)
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert sum(bool(re.match(r"R\d", line)) for line in out.splitlines()) == 63
    assert "* the project's reading" in out


def test_cli_falls_back_to_the_section_and_says_so(capsys):
    assert main(["rules", "R3.11"]) == 0
    out = capsys.readouterr().out
    assert "R3.11 has no entry of its own" in out and "\nR3  The eight stalls" in out


def test_cli_unknown_id_is_one_line_and_exit_2(capsys):
    assert main(["rules", "R99"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "R99" in captured.err
    assert main(["rules", "nothing-like-this"]) == 1
    assert "no rule matches" in capsys.readouterr().err


def test_cli_bad_language_is_one_line_and_exit_2(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["rules", "R3.5", "--lang", "fr"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


# --- nothing shipped points outside the repository ------------------------------------------
OUTSIDE = ("../shared", "RULINGS.md", "rulebook.en.txt", "shared/rules/")
SHIPPED = ("nefertiti_core", "widgets", "tutorials", "docs")


def test_nothing_shipped_points_at_the_shared_folder():
    """Users have the package, the tutorials and the docs, never the team's shared folder.
    (The README's section for developers may name it.)"""
    found = []
    for folder in SHIPPED:
        for path in sorted((ROOT / folder).rglob("*")):
            if not path.is_file() or path.suffix in {".png", ".pyc"} or "__pycache__" in path.parts:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for number, line in enumerate(text.splitlines(), 1):
                if any(marker in line for marker in OUTSIDE):
                    found.append(f"{path.relative_to(ROOT)}:{number}")
    assert found == []


# --- rule IDs in the widgets: title on hover, text on click ------------------------------------
def test_link_rule_ids_gives_each_id_its_title_and_its_text_once():
    from widgets.game.rules_view import link_rule_ids

    shown = link_rule_ids("Closes (Markets sheet, R3.5) and then R6.6-R6.7; R3.5 again.", "en")
    title = RR.lookup("R3.5").title
    assert f'data-r="R3.5" title="R3.5 · {html.escape(title)}"' in shown
    assert shown.count('data-nfr="R3.5"') == 1  # the text is in the pane once
    assert shown.count('data-r="R3.5"') == 2 and 'data-r="R6.7"' in shown
    assert html.escape(RR.lookup("R6.6").text) in shown


def test_link_rule_ids_escapes_titles_and_leaves_tags_attributes_and_unknown_ids_alone():
    from widgets.game.rules_view import link_rule_ids

    text = '<a href="R3.5">R3.5</a> <span title="R6.6">x</span> R0 R99 &lt;b&gt;'
    assert link_rule_ids(text, "en") == text  # nothing to link: unchanged
    shown = link_rule_ids("<b>R2.8</b> <code>R3.1</code>", "de")
    assert 'data-r="R2.8"' in shown and 'data-r="R3.1"' not in shown
    assert "<script" not in shown.lower()
    assert link_rule_ids(shown, "de") == shown  # linked once only
    # a title with quotes or angle brackets could not break out of the attribute
    hover = re.search(r'title="([^"]*)"', shown).group(1)
    assert "<" not in hover and ">" not in hover


def test_link_rule_ids_flags_a_reading_and_follows_the_language():
    from widgets.game.rules_view import link_rule_ids

    assert "本项目的解读" in link_rule_ids("R2.8", "zh")
    assert "Lesart des Projekts" in link_rule_ids("R2.8", "de")
    assert "R3.11 → R3" in link_rule_ids("R3.11", "en")  # a ruling without an entry: its section


def test_the_rules_view_searches_shows_and_switches_language():
    from widgets import GameSession, RulesView

    session = GameSession()
    view = RulesView(session)
    assert len(view.shown_ids) == 63
    found = view.search("closing")
    assert "R3.10" in found and len(found) < 63
    assert view.show("R3.5").id == "R3.5" and view.selected == "R3.5"
    assert "exactly 14" in view.text_html
    session.lang = "zh"
    assert CJK.search(view.text_html) and "R3.5" in view.text_html
    view.search("nothing-like-this")
    assert view.shown_ids == [] and view.show("R6.6") is not None  # shown: the search is cleared
    assert view.shown_ids and view.show("R99") is None


def test_a_click_on_open_in_the_rules_view_reaches_the_sandbox():
    from widgets import Sandbox

    sandbox = Sandbox()
    sandbox.rules_bridge.value = "R6.6|1712"  # what the page's click handler sets
    assert sandbox.visible_view == "rules" and sandbox.rules.selected == "R6.6"
    sandbox.rules_bridge.value = "<img src=x>|1"  # not an ID: nothing happens
    assert sandbox.rules.selected == "R6.6"


def test_a_lessons_teaching_text_lists_its_rules_linked():
    from widgets.lesson.notebook import Lesson

    lesson = Lesson("a-turn", lang="de")
    shown = lesson.teaching.object  # the note, folded under the title
    assert "Regeln hier:" in shown
    assert 'data-r="R5.1"' in shown and 'data-r="R5.3"' in shown
    assert html.escape(RR.lookup("R5.1", "de").title) in shown
