"""One home per rule (#15): a rule's predicate, outcome table or constant is written once.

Each shape below is the way a rule was written again outside its home before (at 9c6c70f):
the dice's denominators (36 / 6), the dice counted per stall, Abou Simbel's closing totals
(R3.5, R3.6), the longest run of consecutive values (R3.8), Gizeh right's colours (R3.2), the
Louqsor roll's outcome (R3.7, R3.8), "does this option roll the dice?" and the hidden deck's
order (R2.2, R12); and the questions every layer asks of a stall (R3): what decides whether
it closes and whether it does, who is on it, its connected groups. The test greps the engine and the widgets for each shape outside its home
and fails on any reappearance. ``test_the_shapes_find_the_old_duplicates`` runs the same grep
on the files as they were at 9c6c70f and checks that every shape finds what it was written
for, so that the grep cannot pass by matching nothing.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OLD = "9c6c70f"  # before the rules got one home each (#15)

#: name -> (regex, the files allowed to hold it: the rule's home, with why)
SHAPES: dict[str, tuple[str, dict[str, str]]] = {
    "dice denominator (36 or 6 equally likely rolls, R3.7, R3.8)": (
        r"\b36\s+if\b.*\belse\s+6\b|\bTWO_DICE\s*:\s*36\b|(?<![\w.])6\s*\*\*\s*[\w(]",
        {"nefertiti_core/engine/rules.py": "rules.roll_count"},
    ),
    "dice counted per stall (2 on R3.7, 1 on R3.8)": (
        r"\b2\s+if\b[^\n]*(TWO_DICE|LOUQSOR_LEFT|R\.LEFT)[^\n]*\belse\s+1\b",
        {"nefertiti_core/engine/rules.py": "rules.dice_rolled"},
    ),
    "Abou Simbel's closing totals 11 / 14 / 17 (R3.5, R3.6)": (
        r"\(\s*11\s*,\s*14\b|(==|>=|<=|!=)\s*1[147]\b|\b1[147]\s*-\s*[a-z_]",
        {"nefertiti_core/engine/rules.py": "rules.SUM_EXACT, SUM_AT_LEAST, sum_closes"},
    ),
    "longest run of consecutive values (R3.8)": (
        r"\[-1\]\s*\+\s*1\b|\bprevious\s*\+\s*1\b",
        {"nefertiti_core/engine/rules.py": "rules.longest_run_values"},
    ),
    "Gizeh right's colours (R3.2)": (
        r"len\(set\([^)]*\)\)\s*>=\s*3|>=\s*4\s+or\s+len\(set|\b3\s*-\s*len\(set\(",
        {"nefertiti_core/engine/rules.py": "rules.colours_close, colours_needed"},
    ),
    "Louqsor roll's outcome (R3.7, R3.8)": (
        r"occupied\[d\w*\s*-\s*1\]|\bd\w*\s+in\s+occupied\s+for\b"
        r"|\b(d|d\w*\[0\]|full\[0\])\s*<=\s*(R\.RUN_TABLE|RUN_TABLE|run\b)",
        {"nefertiti_core/engine/rules.py": "rules.roll_closes"},
    ),
    "does this option roll the dice? (R3.7, R3.8, R4.2)": (
        r"mask\[R\.LOUQSOR\]\s*\|\s*1\s*<<\s*O\.SQUARE_INDEX\[",
        {"nefertiti_core/engine/chance.py": "chance.roll_at"},
    ),
    "the hidden deck's order (R2.2, R12)": (
        r"\.shuffle\(",
        {
            "nefertiti_core/engine/deck.py": "deck.reshuffled / deck.unseen: the order players imagine",
            "nefertiti_core/engine/state.py": "the real deal at setup (R2.2), not an imagined order",
            "nefertiti_core/files/scenario.py": "the real deal of a staged position (deck: shuffle)",
        },
    ),
    "half the reserve, rounded up (R6.4)": (
        r"\+\s*1\)\s*//\s*2\b",
        {"nefertiti_core/engine/rules.py": "rules.half_reserve"},
    ),
    "a score recomputed in a widget (R8, R9.1)": (
        r"\bgift_value\(",
        {"nefertiti_core/": "scoring.score_breakdown and the engine"},
    ),
    "a file read as scenario or record outside history.load_any": (
        r"\bis_record\(\s*doc\b|\brecord_from_data\(\s*doc\.data\s*,\s*(name|file\.name)\b",
        {"nefertiti_core/files/history.py": "history.load_any"},
    ),
    "does this stall close? (the kind of stall and its verdict, R3.1-R3.8)": (
        r"(==|!=)\s*(R\.)?COLOURS3_OR_4\b|\bCOLOURS3_OR_4\s*(==|!=)"
        r"|\bCLOSES_TABLE\s*\[|\bcolours_(close|needed)\(",
        {
            "nefertiti_core/engine/rules.py": "rules.CLOSED_BY, stall_closes, placement_closes, "
            "servants_needed"
        },
    ),
    "who is on a stall (the seats of its occupied squares)": (
        r"[\[(]\s*(\w+)\s+for\s+\1\s+in\s+\S*owners\S*\s+if\s+\1\s*(>=\s*0|!=\s*-1|>\s*-1)\b",
        {"nefertiti_core/engine/rules.py": "rules.seats_on"},
    ),
    "a connected group's flood fill (R3.1)": (
        r"\bfor\s+\w+\s*,\s*\w+\s+in\s+[\w.]*\bgroups\b|\bstack\.pop\(\)",
        {"nefertiti_core/engine/rules.py": "rules.connected_groups"},
    ),
}


#: Places still to switch to the home, each with why it waits (a file another engineer is
#: editing). The test fails when one of them is gone, so that the entry is removed with it.
PENDING: dict[str, set[str]] = {}


def _sources() -> dict[str, str]:
    files = sorted((ROOT / "nefertiti_core").rglob("*.py")) + sorted(
        (ROOT / "widgets").rglob("*.py")
    )
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in files}


def _allowed(path: str, homes: dict[str, str]) -> bool:
    return any(path == h or (h.endswith("/") and path.startswith(h)) for h in homes)


def offences(sources: dict[str, str]) -> dict[str, list[str]]:
    """Per shape, the places (``file:line: text``) that write it outside its home."""
    found: dict[str, list[str]] = {}
    for name, (pattern, homes) in SHAPES.items():
        regex = re.compile(pattern)
        for path, text in sources.items():
            if _allowed(path, homes):
                continue
            for n, line in enumerate(text.splitlines(), 1):
                code = line.split("#", 1)[0]
                if regex.search(code):
                    found.setdefault(name, []).append(f"{path}:{n}: {line.strip()}")
    return found


def test_no_rule_is_written_outside_its_home():
    found = offences(_sources())
    for name, files in PENDING.items():
        left = [p for p in found.get(name, []) if p.split(":", 1)[0] not in files]
        waiting = {p.split(":", 1)[0] for p in found.get(name, [])} & files
        assert waiting == files, f"{name}: {sorted(files - waiting)} switched: drop it from PENDING"
        if left:
            found[name] = left
        else:
            found.pop(name, None)
    report = "\n".join(
        f"{name} (home: {', '.join(SHAPES[name][1])}):\n  " + "\n  ".join(places)
        for name, places in found.items()
    )
    assert not found, "a rule is written again outside its home; call the home instead:\n" + report


def _old_sources() -> dict[str, str]:
    try:
        listing = subprocess.run(
            ["git", "ls-tree", "-r", "--name-only", OLD, "nefertiti_core", "widgets"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip(f"the commit {OLD} is not in this checkout (a shallow clone)")
    out = {}
    for path in listing:
        if path.endswith(".py"):
            out[path] = subprocess.run(
                ["git", "show", f"{OLD}:{path}"], cwd=ROOT, capture_output=True, text=True
            ).stdout
    return out


#: What each shape found at 9c6c70f (at least these files): the duplicates issue #15 lists
#: (the paths of then, before the modules moved into their layers).
OLD_DUPLICATES = {
    "dice denominator (36 or 6 equally likely rolls, R3.7, R3.8)": {
        "widgets/odds.py",
        "nefertiti_core/status.py",
        "nefertiti_core/exercises.py",
        "nefertiti_core/hints.py",
    },
    "Abou Simbel's closing totals 11 / 14 / 17 (R3.5, R3.6)": {"nefertiti_core/status.py"},
    "longest run of consecutive values (R3.8)": {
        "nefertiti_core/explain.py",
        "nefertiti_core/status.py",
    },
    "Gizeh right's colours (R3.2)": {
        "nefertiti_core/state.py",
        "nefertiti_core/status.py",
        "nefertiti_core/bots.py",
    },
    "Louqsor roll's outcome (R3.7, R3.8)": {"nefertiti_core/state.py"},
    "does this option roll the dice? (R3.7, R3.8, R4.2)": {
        "nefertiti_core/status.py",
        "nefertiti_core/exercises.py",
        "nefertiti_core/bots.py",
    },
    "the hidden deck's order (R2.2, R12)": {"nefertiti_core/status.py"},
    "half the reserve, rounded up (R6.4)": {
        "nefertiti_core/state.py",
        "nefertiti_core/explain.py",
        "nefertiti_core/bots.py",
        "nefertiti_core/hints.py",
    },
    "a score recomputed in a widget (R8, R9.1)": {"widgets/players.py"},
    "does this stall close? (the kind of stall and its verdict, R3.1-R3.8)": {
        "nefertiti_core/state.py",
        "nefertiti_core/invariants.py",
        "nefertiti_core/status.py",
        "nefertiti_core/explain.py",
        "nefertiti_core/hints.py",
        "nefertiti_core/bots.py",
        "nefertiti_core/scenario.py",
        "nefertiti_core/practice.py",
    },
    "who is on a stall (the seats of its occupied squares)": {
        "nefertiti_core/state.py",
        "nefertiti_core/invariants.py",
        "nefertiti_core/status.py",
        "nefertiti_core/explain.py",
        "nefertiti_core/hints.py",
        "nefertiti_core/bots.py",
        "nefertiti_core/scenario.py",
    },
    "a connected group's flood fill (R3.1)": {"nefertiti_core/explain.py"},
    "a file read as scenario or record outside history.load_any": {
        "nefertiti_core/cli.py",
        "widgets/session.py",
    },
}


def test_the_shapes_find_the_old_duplicates():
    """The grep is not vacuous: on the code before #15 each shape finds the duplicates it was
    written for (the issue's table)."""
    found = offences(_old_sources())
    for name, files in OLD_DUPLICATES.items():
        where = {place.split(":", 1)[0] for place in found.get(name, [])}
        assert files <= where, f"{name}: expected in {sorted(files)}, found in {sorted(where)}"
    assert set(OLD_DUPLICATES) <= set(SHAPES)


#: Each stall question written again, as it stood in the code before it asked the engine: what
#: each new shape must find wherever it is planted (the widgets included).
PLANTED = {
    "does this stall close? (the kind of stall and its verdict, R3.1-R3.8)": (
        "    if rule == R.COLOURS3_OR_4:  # R3.2\n",
        "    return Fraction(int(R.CLOSES_TABLE[stall][mask]))\n",
        "        for mask, closes in enumerate(R.CLOSES_TABLE[stall.id]):\n",
        "        needed = R.colours_needed(on)\n",
    ),
    "who is on a stall (the seats of its occupied squares)": (
        "        on = [o for o in state.owners[m] if o >= 0]\n",
        "    return R.colours_close([seat for seat in owners if seat != -1] + [p])\n",
    ),
    "a connected group's flood fill (R3.1)": (
        "    for a, b in stall.groups:\n",
        "            sq = stack.pop()\n",
    ),
}


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_the_stall_shapes_find_a_planted_copy(name):
    """The stall questions' grep is not vacuous: each line planted in a widget and in a module of
    the engine other than its home is found, and the same line in its home is not."""
    for n, line in enumerate(PLANTED[name]):
        for path in ("widgets/planted.py", "nefertiti_core/engine/state.py"):
            assert name in offences({path: "x = 1\n" + line}), f"{name}: missed {line!r} in {path}"
        assert name not in offences({"nefertiti_core/engine/rules.py": line}), f"{name}: {n}"
