"""The rules data summed up in small tables for the lessons, in the learner's language: what each
gift is worth (estimates flagged), how each of the eight stalls closes (one line each), and what
the final scoring adds up.

Every cell comes from ``nefertiti_core`` (the gift-value table, the stalls, the rules reference's
titles, the scoring constants), so an edited value or a variant's table shows here unchanged by
hand. Each table is a function returning its rows (plain data, for tests and other views) and one
returning a Panel pane whose rule IDs show their title on hover and their text on click. (The
detailed tables of the box, the piles and the stalls' squares are in ``widgets.rule_tables``.)

    from widgets.lesson.rule_summaries import gift_values_table, stall_conditions_table, scoring_table
    gift_values_table()                # 7 gift types x 1, 2, 3, 4 holders; * marks an estimate
    gift_values_table(players=3)       # no senets with three players (R2.1), up to 3 holders
    stall_conditions_table(lang="de")  # one line per stall: market, stall, closes when, rule
"""

from __future__ import annotations

import html
import re

import panel as pn

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import LANGUAGES, tr
from nefertiti_core.engine.scoring import DEBEN_PER_POINT, POINTS_PER_SEAL
from nefertiti_core.teaching import rules_reference as RR
from widgets.game.rules_view import link_rule_ids
from widgets.lesson.language import in_lesson_language
from widgets.theme import TABLE_HEAD, TABLE_LINE, TEXT_NOTE

__all__ = [
    "ESTIMATE_MARK",
    "gift_values",
    "gift_values_html",
    "gift_values_table",
    "scoring_html",
    "scoring_parts",
    "scoring_table",
    "stall_conditions",
    "stall_conditions_html",
    "stall_conditions_table",
]

#: Marks an estimated value in the gift table (R8).
ESTIMATE_MARK = "*"
#: The rules reference's stall titles read "<market>, <side> stall: <condition>"; the part after
#: the colon (Western or full-width) is the condition.
_AFTER_COLON = re.compile(r"^[^:：]*[:：]\s*")


def _language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    return lang


@in_lesson_language
def gift_values(
    players: int = 4, lang: str | None = None, values=None, estimated=None
) -> list[dict]:
    """One row per gift type in play: ``gift`` (its name), ``type``, ``values`` (per gift, for
    1, 2, ... ``players`` holders) and ``estimated`` (a bool per value: the project's estimate,
    R8). With three players the senets stay in the box (R2.1) and are left out. ``values`` and
    ``estimated`` default to the rules data (``rules.GIFT_VALUES``, ``rules.ESTIMATED_VALUES``)."""
    _language(lang)
    if players not in R.STARTING_DEBEN:
        raise ValueError(f"players must be one of {sorted(R.STARTING_DEBEN)}, not {players!r}")
    values = R.GIFT_VALUES if values is None else values
    estimated = R.ESTIMATED_VALUES if estimated is None else estimated
    holders = range(1, players + 1)
    return [
        {
            "gift": tr(lang, f"gift.{name}"),
            "type": name,
            "values": [values[t][h - 1] for h in holders],
            "estimated": [h in estimated[name] for h in holders],
        }
        for t, name in enumerate(R.GIFT_TYPES)
        if not (players == 3 and t == R.SENET)
    ]


@in_lesson_language
def stall_conditions(lang: str | None = None) -> list[dict]:
    """One row per stall (Gizeh left ... Louqsor right): ``market``, ``side``, ``condition`` (when
    it closes, in one line), ``title`` (the rules reference's title of the stall's rule, after its
    colon) and ``rule`` (its ID; hover it for the title, click it for the rule's text)."""
    _language(lang)
    rows = []
    for stall in R.STALLS:
        title = RR.get(stall.rule_id, lang).title
        rows.append(
            {
                "market": tr(lang, f"market.{R.MARKETS[stall.market]}"),
                "side": tr(lang, f"summary.side.{R.SIDES[stall.side]}"),
                "condition": tr(lang, f"summary.closes.{stall.rule_id}"),
                "title": _AFTER_COLON.sub("", title, count=1),
                "rule": stall.rule_id,
            }
        )
    return rows


@in_lesson_language
def scoring_parts(lang: str | None = None) -> list[dict]:
    """What the final scoring adds up (R9.1) and the tie-break (R9.2), one row per part:
    ``part``, ``points``, ``rule``."""
    _language(lang)
    parts = [
        ("gifts", {}, "R8"),
        ("deben", {"per": DEBEN_PER_POINT}, "R9.1"),
        ("seals", {"points": POINTS_PER_SEAL}, "R9.1"),
        ("prestige", {}, "R9.1"),
        ("tie", {}, "R9.2"),
    ]
    return [
        {
            "part": tr(lang, f"summary.score.{key}"),
            "points": tr(lang, f"summary.score.{key}_how", **params),
            "rule": rule,
        }
        for key, params, rule in parts
    ]


_STYLE = (
    "<style>.rule-summary{border-collapse:collapse;font-size:14px;margin:4px 0}"
    f".rule-summary th,.rule-summary td{{border-bottom:1px solid {TABLE_LINE};padding:4px 10px;"
    f"text-align:left;vertical-align:top}}.rule-summary th{{background:{TABLE_HEAD}}}"
    ".rule-summary td.num{text-align:right}"
    f".rule-summary-note{{font-size:13px;color:{TEXT_NOTE};margin:2px 0 6px;max-width:760px}}</style>"
)


def _table(header: list[str], rows: list[list[str]], css: str, note: str, lang: str) -> str:
    """HTML of a table of plain-text cells (escaped here), its rule IDs linked."""
    head = "".join(f"<th>{html.escape(cell)}</th>" for cell in header)
    body = "".join(
        "<tr>"
        + "".join(
            f"<td{' class=num' if cell.rstrip(ESTIMATE_MARK).isdigit() else ''}>"
            f"{html.escape(cell)}</td>"
            for cell in row
        )
        + "</tr>"
        for row in rows
    )
    text = f"{_STYLE}<table class='rule-summary {css}'><tr>{head}</tr>{body}</table>"
    if note:
        text += f"<div class='rule-summary-note'>{html.escape(note)}</div>"
    return link_rule_ids(text, lang)


def _holders_header(lang: str, holders: int) -> str:
    if holders == 1:
        return tr(lang, "summary.gift.held_by_one")
    return tr(lang, "summary.gift.held_by", n=holders)


@in_lesson_language
def gift_values_html(players: int = 4, lang: str | None = None, values=None, estimated=None) -> str:
    rows = gift_values(players, lang, values, estimated)
    header = [tr(lang, "summary.gift")] + [_holders_header(lang, h) for h in range(1, players + 1)]
    cells = [
        [row["gift"]]
        + [
            f"{value}{ESTIMATE_MARK}" if guess else str(value)
            for value, guess in zip(row["values"], row["estimated"], strict=True)
        ]
        for row in rows
    ]
    note = tr(lang, "summary.gift.note", mark=ESTIMATE_MARK)
    return _table(header, cells, "gift-values", note, lang)


@in_lesson_language
def gift_values_table(players: int = 4, lang: str | None = None, values=None, estimated=None):
    """What one gift is worth for each number of holders; estimates marked ``*`` (R8)."""
    text = gift_values_html(players, lang, values, estimated)
    return pn.pane.HTML(text, css_classes=["gift-values-table"], sizing_mode="stretch_width")


@in_lesson_language
def stall_conditions_html(lang: str | None = None) -> str:
    header = [tr(lang, f"summary.{key}") for key in ("market", "stall", "closes", "rule")]
    cells = [
        [row[key] for key in ("market", "side", "condition", "rule")]
        for row in stall_conditions(lang)
    ]
    return _table(header, cells, "stall-conditions", tr(lang, "summary.stall.note"), lang)


@in_lesson_language
def stall_conditions_table(lang: str | None = None):
    """How each of the eight stalls closes, one line each, with the rule behind it (R3)."""
    return pn.pane.HTML(
        stall_conditions_html(lang),
        css_classes=["stall-conditions-table"],
        sizing_mode="stretch_width",
    )


@in_lesson_language
def scoring_html(lang: str | None = None) -> str:
    header = [tr(lang, f"summary.{key}") for key in ("score.part", "score.points", "rule")]
    cells = [[row[key] for key in ("part", "points", "rule")] for row in scoring_parts(lang)]
    return _table(header, cells, "scoring-parts", "", lang)


@in_lesson_language
def scoring_table(lang: str | None = None):
    """The parts of the final scoring (R9.1) and the tie-break (R9.2)."""
    return pn.pane.HTML(
        scoring_html(lang), css_classes=["scoring-table"], sizing_mode="stretch_width"
    )
