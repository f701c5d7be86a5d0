"""Tables of one stall for the lessons, in the learner's language, every cell asked of the engine.

- :func:`square_by_square`: each empty square of a market's visible stall in a position: its bid,
  the total of the bids it makes (on Abou Simbel, where totals decide, R3.5, R3.6), and whether a
  servant there closes the market — yes / no, or on Louqsor the exact chance that the roll after
  it closes it (R3.7, R3.8). From :func:`nefertiti_core.teaching.status.stall_status`. Folded by default,
  so that the learner works the answer out before looking.
- :func:`closing_totals`: for a market that closes on a total (Abou Simbel), which totals close
  each stall and which leave it open, from the engine's closing table.
- :func:`settling_order`: the order in which a stall's bids are settled, highest first and equal
  bids lower row first, right to left (R3.9, R6.1).
- :func:`louqsor_odds`: the chance that a Louqsor roll closes the market, by the number of values
  taken (left stall, two dice) or the length of the run (right stall, one die).

Squares are named by their bid ("the 7", "the Deben 2", "the second 1"), never by an index.

    from widgets.lesson.stall_tables import square_by_square, closing_totals, louqsor_odds
    square_by_square("abou-simbel-left-sums", "abou_simbel")   # a position file, its market
    square_by_square(state, "louqsor", folded=False)          # or a GameState
"""

from __future__ import annotations

import html
from fractions import Fraction

import panel as pn

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import LANGUAGES, tr
from nefertiti_core.engine.squares import square_name
from nefertiti_core.engine.stall_names import stall_name
from nefertiti_core.files.exercises import scenario_path
from nefertiti_core.files.scenario import load
from nefertiti_core.teaching.status import format_probability, louqsor_probability, stall_status
from widgets.game.rules_view import link_rule_ids
from widgets.lesson.language import in_lesson_language
from widgets.theme import TABLE_HEAD, TABLE_LINE, TABLE_NOTE

__all__ = [
    "closing_totals",
    "louqsor_odds",
    "louqsor_odds_rows",
    "position",
    "settling_order",
    "settling_order_rows",
    "square_by_square",
    "square_rows",
    "totals_rows",
]

_STYLE = (
    "<style>.stall-table{border-collapse:collapse;font-size:14px;margin:4px 0}"
    f".stall-table th,.stall-table td{{border-bottom:1px solid {TABLE_LINE};padding:4px 10px;"
    f"text-align:left}}.stall-table th{{background:{TABLE_HEAD}}}.stall-table td.num{{text-align:right}}"
    f".stall-table-note{{font-size:13px;color:{TABLE_NOTE};margin:2px 0 6px}}</style>"
)


def _language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    return lang


def _market(market) -> int:
    if isinstance(market, int) and 0 <= market < len(R.MARKETS):
        return market
    if market in R.MARKETS:
        return R.MARKETS.index(market)
    raise ValueError(f"unknown market {market!r}: one of {', '.join(R.MARKETS)}")


def position(scenario, *steps: str):
    """The state of position file ``scenario`` (its name) after ``steps``; a state is copied."""
    if isinstance(scenario, str):
        state = load(scenario_path(scenario)).state
    else:
        state = scenario.copy() if hasattr(scenario, "copy") else scenario
    for step in steps:
        state.apply(state.parse(step))
    return state


def _sums(stall: R.Stall) -> bool:
    return stall.rule in (R.SUM_11_14_17, R.SUM_17)


def _outcomes(stall: R.Stall) -> int:
    """How many equally likely rolls a Louqsor stall has (36 for two dice, 6 for one); 0 else."""
    dice = R.dice_rolled(stall.id)
    return R.roll_count(dice) if dice else 0


@in_lesson_language
def square_rows(state, market, lang: str | None = None) -> list[dict]:
    """One row per empty square of ``market``'s visible stall (none when it is not open):
    ``square`` (its name), ``bid``, ``total`` (the bids after it; Abou Simbel only, else None),
    ``chance`` (a Fraction: 0 or 1, or Louqsor's roll) and ``closes`` (the cell's text)."""
    _language(lang)
    status = stall_status(state, _market(market))
    stall = R.STALLS[status.stall_id]
    now = R.bids_total(stall, state.mask[_market(market)])
    out = _outcomes(stall)
    rows = []
    for index, chance in status.closing_chances:
        value = stall.squares[index].value
        if out:
            closes = format_probability(chance, out, lang)
        else:
            closes = tr(lang, "stalltable.yes" if chance == 1 else "stalltable.no")
        rows.append(
            {
                "square": str(square_name(stall, index, lang)),
                "index": index,
                "bid": value,
                "total": now + value if _sums(stall) else None,
                "chance": Fraction(chance),
                "closes": closes,
            }
        )
    return rows


@in_lesson_language
def _table(
    header: list[str], rows: list[list], css: str, note: str = "", lang: str | None = None
) -> str:
    head = "".join(f"<th>{html.escape(str(cell))}</th>" for cell in header)
    body = "".join(
        "<tr>"
        + "".join(
            f"<td{' class=num' if isinstance(cell, int) else ''}>{html.escape(str(cell))}</td>"
            for cell in row
        )
        + "</tr>"
        for row in rows
    )
    text = f"{_STYLE}<table class='stall-table {css}'><tr>{head}</tr>{body}</table>"
    if note:
        text += f"<div class='stall-table-note'>{html.escape(note)}</div>"
    return link_rule_ids(text, lang)


@in_lesson_language
def square_by_square_html(state, market, lang: str | None = None) -> str:
    status = stall_status(state, _market(market))
    stall = R.STALLS[status.stall_id]
    if not status.is_open:
        note = tr(lang, "stalltable.not_open", stall=stall_name(stall, lang))
        return f"<div class='stall-table-note'>{html.escape(note)}</div>"
    rows = square_rows(state, market, lang)
    sums = _sums(stall)
    header = [tr(lang, "stalltable.square"), tr(lang, "stalltable.bid")]
    if sums:
        header.append(tr(lang, "stalltable.total"))
    header.append(tr(lang, "stalltable.chance" if _outcomes(stall) else "stalltable.closes"))
    cells = [
        [row["square"], row["bid"]] + ([row["total"]] if sums else []) + [row["closes"]]
        for row in rows
    ]
    notes = []
    if sums:
        now = R.bids_total(stall, state.mask[_market(market)])
        notes.append(tr(lang, "stalltable.now", total=now))
    if status.louqsor_next_roll_probability is not None and status.dice_holder >= 0:
        chance = format_probability(status.louqsor_next_roll_probability, _outcomes(stall), lang)
        player = tr(lang, f"colour.{state.colours[status.dice_holder]}")
        notes.append(tr(lang, "stalltable.reroll", player=player, chance=chance))
    return _table(header, cells, "square-by-square", " ".join(notes), lang)


@in_lesson_language
def square_by_square(scenario, market, *steps: str, lang: str | None = None, folded: bool = True):
    """Each empty square of ``market``'s stall in position ``scenario`` (a position file's name
    or a state) after ``steps``: its bid, the total it makes (Abou Simbel), whether it closes the
    market (or Louqsor's chance). Folded in a card the learner opens after predicting."""
    state = position(scenario, *steps)
    pane = pn.pane.HTML(
        square_by_square_html(state, market, _language(lang)),
        css_classes=["square-by-square"],
        sizing_mode="stretch_width",
    )
    if not folded:
        return pane
    stall = R.STALLS[stall_status(state, _market(market)).stall_id]
    title = tr(lang, "stalltable.fold", stall=stall_name(stall, lang))
    return pn.Card(
        pane, title=title, collapsed=True, sizing_mode="stretch_width", css_classes=["lesson-fold"]
    )


def _ranges(values: list[int], lang: str = "en") -> str:
    """Sorted whole numbers written short: 1, 2, 3, 5, 7, 8, 9 -> "1–3, 5, 7–9" (in Chinese
    "1–3、5、7–9": the catalogue's list separator)."""
    parts, start = [], None
    for i, value in enumerate(values):
        if start is None:
            start = value
        if i + 1 == len(values) or values[i + 1] != value + 1:
            parts.append(str(start) if start == value else f"{start}–{value}")
            start = None
    return tr(lang, "status.list.sep").join(parts)


@in_lesson_language
def totals_rows(market="abou_simbel", lang: str | None = None) -> list[dict]:
    """Per stall of a market that closes on a total: ``stall`` (its name), ``close`` and ``open``
    (sorted lists of the totals that can occur), ``rule`` (R3.5, R3.6). From the closing table."""
    _language(lang)
    m = _market(market)
    rows = []
    for side in range(len(R.SIDES)):
        stall = R.stall_of(m, side)
        if not _sums(stall):
            raise ValueError(
                tr(lang, "stalltable.no_sum", market=tr(lang, f"market.{R.MARKETS[m]}"))
            )
        verdicts: dict[int, bool] = {}
        for mask in range(1, 1 << len(stall.squares)):
            verdicts[R.bids_total(stall, mask)] = bool(R.stall_closes(stall.id, mask))
        rows.append(
            {
                "stall": stall_name(stall, lang),
                "close": sorted(t for t, c in verdicts.items() if c),
                "open": sorted(t for t, c in verdicts.items() if not c),
                "rule": stall.rule_id,
            }
        )
    return rows


@in_lesson_language
def closing_totals(market="abou_simbel", lang: str | None = None):
    """Which totals of bids close each stall of ``market`` and which leave it open (R3.5, R3.6)."""
    rows = totals_rows(market, lang)
    header = [
        tr(lang, k)
        for k in (
            "stalltable.stall",
            "stalltable.totals_close",
            "stalltable.totals_open",
            "stalltable.rule",
        )
    ]
    cells = [
        [r["stall"], _ranges(r["close"], lang), _ranges(r["open"], lang), r["rule"]] for r in rows
    ]
    return pn.pane.HTML(
        _table(header, cells, "closing-totals", "", lang),
        css_classes=["closing-totals"],
        sizing_mode="stretch_width",
    )


@in_lesson_language
def settling_order_rows(market, lang: str | None = None) -> list[dict]:
    """Per stall of ``market``: ``stall`` and ``order`` (the squares' names, first settled first:
    the highest bid, equal bids lower row first and then right to left; R3.9, R6.1)."""
    _language(lang)
    m = _market(market)
    rows = []
    for side in range(len(R.SIDES)):
        stall = R.stall_of(m, side)
        order = R.RESOLUTION_ORDER[stall.id]
        rows.append(
            {
                "stall": stall_name(stall, lang),
                "order": [str(square_name(stall, i, lang)) for i in order],
            }
        )
    return rows


@in_lesson_language
def settling_order(market, lang: str | None = None):
    """The order in which each stall's bids are settled (R3.9, R6.1)."""
    header = [tr(lang, "stalltable.stall"), tr(lang, "stalltable.order")]
    sep = "，" if lang == "zh" else ", "
    cells = [[r["stall"], sep.join(r["order"])] for r in settling_order_rows(market, lang)]
    return pn.pane.HTML(
        _table(header, cells, "settling-order", "", lang),
        css_classes=["settling-order"],
        sizing_mode="stretch_width",
    )


def louqsor_odds_rows() -> list[dict]:
    """``k`` from 1 to 6: ``left`` the chance two dice close the left stall with the values 1 to
    k taken (R3.7), ``right`` the chance one die closes the right stall with a run of k (R3.8)."""
    left, right = R.stall_of(R.LOUQSOR, R.LEFT), R.stall_of(R.LOUQSOR, R.RIGHT)
    rows = []
    for k in range(1, 7):
        first = (
            1 << k
        ) - 1  # the first k squares: values 1..k on the left, a run of k on the right
        rows.append(
            {
                "k": k,
                "left": louqsor_probability(left.id, first),
                "right": louqsor_probability(right.id, first),
            }
        )
    return rows


@in_lesson_language
def louqsor_odds(lang: str | None = None):
    """The chance that a Louqsor roll closes the market, by values taken or run length."""
    _language(lang)
    header = [
        tr(lang, k) for k in ("stalltable.odds.k", "stalltable.odds.left", "stalltable.odds.right")
    ]
    cells = [
        [
            r["k"],
            format_probability(r["left"], R.roll_count(2), lang),
            format_probability(r["right"], R.roll_count(1), lang),
        ]
        for r in louqsor_odds_rows()
    ]
    return pn.pane.HTML(
        _table(header, cells, "louqsor-odds", "", lang),
        css_classes=["louqsor-odds"],
        sizing_mode="stretch_width",
    )
