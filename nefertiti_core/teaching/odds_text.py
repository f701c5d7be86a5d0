"""``nefertiti odds``' report as lines of text, in the language of the command's ``--lang``.

The English is the command's table as it always was (colours and markets by their ids, which a
script reading the output may rely on); German and Chinese name the colours and markets as the
board does (``names.json``) and head the columns in their own words (``odds.json``,
``odds.cli.*``). Columns are padded by the width a terminal gives each character, so a Chinese
heading (two columns a character) stays above its figures.
"""

from __future__ import annotations

import unicodedata

from ..engine.i18n import DEFAULT_LANGUAGE, tr


def odds_lines(report, lang: str) -> list[str]:
    """The report's lines (:class:`..play.odds.OddsReport`): the run, a row per seat, which
    market closes next, and the studied option's exact Louqsor chance when there is one."""
    english = lang == DEFAULT_LANGUAGE
    count = (
        tr(lang, "odds.cli.some", done=report.playouts, requested=report.requested)
        if report.playouts < report.requested
        else f"{report.playouts}"
    )
    studied = tr(lang, "odds.cli.studying", option=repr(report.option)) if report.option else ""
    where = tr(lang, "odds.cli.on_dask", workers=report.workers) if report.backend == "dask" else ""
    head = tr(
        lang,
        "odds.cli.head",
        count=count,
        bots=tr(lang, "status.list.sep").join(dict.fromkeys(report.bots)),
        studied=studied,
        seed=report.seed,
        where=where,
        seconds=_decimal(f"{report.seconds:.1f}", lang),
    )
    columns = [tr(lang, f"odds.cli.{name}") for name in ("seat", "win", "interval", "mean")]
    lines = [head, _row(columns)]
    for seat, colour in enumerate(report.colours):
        low, high = report.win_interval(seat)
        name = colour if english else tr(lang, f"colour.{colour}")
        interval = f"{_percent(low, lang)} - {_percent(high, lang)}"
        win = _percent(report.win_probability(seat), lang)
        mean = _decimal(f"{report.mean_score(seat):.1f}", lang)
        lines.append(_row([name, win, interval, mean]))
    closes = tr(lang, "status.list.sep").join(
        tr(lang, "odds.cli.closes_one", market=_market(k, lang), percent=_percent(v, lang, 0))
        for k, v in report.next_close_frequency().items()
    )
    lines.append(tr(lang, "odds.cli.closes", closes=closes))
    if report.louqsor_exact is not None:
        lines.append(
            tr(
                lang,
                "odds.cli.louqsor",
                exact=_percent(float(report.louqsor_exact), lang),
                fraction=report.louqsor_exact,
                sampled=_percent(report.louqsor_sampled, lang),
            )
        )
    return lines


def _market(key: str, lang: str) -> str:
    if lang == DEFAULT_LANGUAGE:
        return key
    return tr(lang, "odds.cli.game_end" if key == "game_end" else f"market.{key}")


def _percent(share: float, lang: str, digits: int = 1) -> str:
    """``share`` as a percentage, rounded as the English table always was (``format``'s %)."""
    return tr(lang, "odds.cli.percent", value=_decimal(f"{share:.{digits}%}"[:-1], lang))


def _decimal(figure: str, lang: str) -> str:
    """A figure with ``lang``'s decimal sign (German writes 2,5)."""
    return figure.replace(".", tr(lang, "odds.cli.point"))


def _row(cells: list[str]) -> str:
    """Four cells as the English table sets them: 8 columns left, then 10, 15 and 10 right."""
    widths = (8, 10, 15, 10)
    first = _padded(cells[0], widths[0], left=True)
    rest = [_padded(cell, width) for cell, width in zip(cells[1:], widths[1:], strict=True)]
    return f"{first} {rest[0]}  {rest[1]}  {rest[2]}"


def _padded(text: str, width: int, left: bool = False) -> str:
    shown = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    fill = " " * max(0, width - shown)
    return text + fill if left else fill + text
