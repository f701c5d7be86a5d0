"""A score sheet for the lessons: every player's score as the final scoring adds it up (R9.1),
with the winner and the tie-break under it (R9.2), in the learner's language.

Each row is one player: the gifts (kind, how many, what one is worth for the number of players
holding that kind, R8; a value the project estimated is marked), the Deben and what they bring,
the unspent Royal Seals and what they bring, the prestige scored during the game, the total. Every
figure is :func:`nefertiti_core.engine.scoring.score_breakdown`'s; the last line is
:func:`nefertiti_core.teaching.explain.winner_line`'s.

    from widgets.lesson.score_sheet import score_sheet
    score_sheet("last-market", "place akhet_aton.right#8")   # a position file and steps
    score_sheet(state)                                       # or a GameState
"""

from __future__ import annotations

import html

import panel as pn

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.scoring import final_scores
from nefertiti_core.teaching.explain import winner_line
from widgets.game.common import colour_name
from widgets.game.rules_view import link_rule_ids
from widgets.lesson.language import in_lesson_language
from widgets.lesson.stall_tables import _STYLE, _language, position

__all__ = ["ESTIMATE_MARK", "score_rows", "score_sheet"]

#: Marks a gift value the project estimated (R8).
ESTIMATE_MARK = "*"


def _estimated(state, gift_type: int, holders: int) -> bool:
    """Whether the value used is one of the project's estimates (the rules' own table in use)."""
    name = R.GIFT_TYPES[gift_type]
    return tuple(state.values[gift_type]) == tuple(R.GIFT_VALUES[gift_type]) and (
        holders in R.ESTIMATED_VALUES[name]
    )


@in_lesson_language
def score_rows(state, lang: str | None = None) -> list[dict]:
    """One row per player: ``player``, ``gifts`` (texts "chairs: 3 × 5", an estimate marked),
    ``gift_points``, ``deben``, ``deben_points``, ``seals``, ``seal_points``, ``prestige``,
    ``total`` and ``estimated`` (whether an estimated value counts in this player's score)."""
    _language(lang)
    rows = []
    for b in final_scores(state):
        gifts, estimated = [], False
        for line in b.gifts:
            t = R.GIFT_TYPES.index(line.gift_type)
            guess = _estimated(state, t, line.holders)
            estimated |= guess
            value = f"{line.value}{ESTIMATE_MARK if guess else ''}"
            gifts.append(
                tr(
                    lang,
                    "scoresheet.gift_line",
                    gift=tr(lang, f"gift.{line.gift_type}"),
                    count=line.count,
                    value=value,
                )
            )
        rows.append(
            {
                "player": colour_name(lang, b.colour),
                "gifts": gifts,
                "gift_points": b.gift_points,
                "deben": b.deben,
                "deben_points": b.deben_points,
                "seals": b.seals,
                "seal_points": b.seal_points,
                "prestige": b.prestige,
                "total": b.total,
                "estimated": estimated,
            }
        )
    return rows


@in_lesson_language
def score_sheet_html(state, lang: str | None = None) -> str:
    rows = score_rows(state, lang)
    keys = ("player", "gifts", "gift_points", "deben", "seals", "prestige", "total")
    head = "".join(f"<th>{html.escape(tr(lang, f'scoresheet.{k}'))}</th>" for k in keys)
    body = ""
    for r in rows:
        gifts = "<br>".join(html.escape(g) for g in r["gifts"]) or tr(lang, "scoresheet.none")
        cells = [
            html.escape(r["player"]),
            gifts,
            str(r["gift_points"]),
            html.escape(
                tr(lang, "scoresheet.deben_cell", deben=r["deben"], points=r["deben_points"])
            ),
            html.escape(
                tr(lang, "scoresheet.seals_cell", seals=r["seals"], points=r["seal_points"])
            ),
            str(r["prestige"]),
            f"<b>{r['total']}</b>",
        ]
        body += "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"
    notes = []
    if not state.is_over:
        notes.append(tr(lang, "scoresheet.so_far"))
    if any(r["estimated"] for r in rows):
        notes.append(tr(lang, "scoresheet.estimate_note", mark=ESTIMATE_MARK))
    notes.append(winner_line(state, lang))
    note = "".join(f"<div class='stall-table-note'>{html.escape(n)}</div>" for n in notes)
    table = f"{_STYLE}<table class='stall-table score-sheet'><tr>{head}</tr>{body}</table>"
    return link_rule_ids(table + note, lang)


@in_lesson_language
def score_sheet(
    scenario, *steps: str, play_moves: bool = False, lang: str | None = None, folded: bool = False
):
    """Every player's score in position ``scenario`` (a position file's name, whose own moves are
    played when ``play_moves``, or a state) after ``steps``, and who wins (R9.1, R9.2).
    ``folded``: in a closed card the learner opens (after predicting who wins)."""
    if isinstance(scenario, str) and play_moves:
        from nefertiti_core.files.exercises import scenario_path
        from nefertiti_core.files.scenario import load

        loaded = load(scenario_path(scenario))
        loaded.play_moves()
        scenario = loaded.state
    state = position(scenario, *steps)
    pane = pn.pane.HTML(
        score_sheet_html(state, _language(lang)),
        css_classes=["score-sheet"],
        sizing_mode="stretch_width",
    )
    if not folded:
        return pane
    title = tr(lang, "scoresheet.fold")
    return pn.Card(
        pane, title=title, collapsed=True, sizing_mode="stretch_width", css_classes=["lesson-fold"]
    )
