"""axe-core (the accessibility engine browsers' own audits use) on a page of a browser test.

``axe_playwright_python`` carries its own ``axe.min.js`` and evaluates it in the page (no request
to any server: it works offline), then runs ``axe.run``; axe reads open shadow roots, so Panel's
and Bokeh's widgets are checked too. A Bokeh canvas is opaque to it (the board's own text view and
labels are what it can check).

:func:`check` fails on any serious or critical violation (WCAG 2.2 A/AA rules, and axe's best
practices: one ``<main>``, one level-one heading, ...), printing each violation's rule, impact and
the first few nodes' selectors; :func:`counts` is what docs/accessibility.md records per page.
"""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

#: Impacts that fail a page; moderate and minor ones are counted and reported only.
FAILING = ("serious", "critical")
IMPACTS = ("critical", "serious", "moderate", "minor")
#: axe's tags for WCAG 2.0-2.2 levels A and AA, and its best practices (landmarks, headings).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
NODES_SHOWN = 4
#: Rules axe keeps off unless asked, asked by name: WCAG 2.2's target size (2.5.8, every control
#: at least 24 x 24 CSS px, or spaced as if it were) would run with the tag ``wcag22aa`` today,
#: and keeps running if the tags change.
ENABLED = {"target-size": {"enabled": True}}

_AXE = Axe()


def violations(page, include: str | None = None) -> list[dict]:
    """axe's violations on ``page`` (only inside the elements ``include`` selects, when given:
    a lesson's outputs in JupyterLab, not JupyterLab's own interface)."""
    options = {
        "resultTypes": ["violations"],
        "runOnly": {"type": "tag", "values": TAGS},
        "rules": ENABLED,
    }
    context = {"include": [[include]]} if include else None
    return _AXE.run(page, context=context, options=options).response["violations"]


def needs_review(page, rule: str) -> list[str]:
    """The elements axe could not decide ``rule`` for on ``page`` ("incomplete": a reader must
    look), each by the last part of its selector (the element inside its shadow root)."""
    options = {"resultTypes": ["incomplete"], "runOnly": {"type": "rule", "values": [rule]}}
    found = _AXE.run(page, options=options).response["incomplete"]
    out = []
    for node in (node for v in found for node in v["nodes"]):
        last = node["target"][-1]  # a selector, or the path through shadow roots to it
        out.append(str(last[-1] if isinstance(last, list) else last))
    return out


def counts(found: list[dict]) -> dict[str, tuple[int, int]]:
    """{impact: (violations, nodes)} for every impact."""
    out = {}
    for impact in IMPACTS:
        mine = [v for v in found if v.get("impact") == impact]
        out[impact] = (len(mine), sum(len(v["nodes"]) for v in mine))
    return out


def report(found: list[dict]) -> str:
    """Each violation: its rule, impact, help, and its first nodes' selectors."""
    lines = []
    for v in sorted(found, key=lambda v: IMPACTS.index(v.get("impact") or "minor")):
        lines.append(f"{v['id']} ({v.get('impact')}): {v['help']} [{len(v['nodes'])} nodes]")
        for node in v["nodes"][:NODES_SHOWN]:
            lines.append(f"    {node['target']}  {node.get('failureSummary', '')[:160]!r}")
    return "\n".join(lines)


def check(page, where: str, include: str | None = None) -> list[dict]:
    """Fail if axe finds a serious or critical violation on ``page`` (``where`` names it in the
    message); return all its violations (the moderate and minor ones pass)."""
    found = violations(page, include)
    failing = [v for v in found if v.get("impact") in FAILING]
    assert not failing, f"axe on {where}: {counts(found)}\n{report(failing)}"
    return found
