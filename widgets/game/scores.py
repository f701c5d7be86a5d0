"""Scores as a bar chart: prestige scored so far and the final score each player would have if the
game ended now (R9.1), with the engine's breakdown (``explain.score_lines``) on hover.

The figure and its sources are built once; a change of the game or the language only replaces
the sources' data, the axis labels and the title.
"""

from __future__ import annotations

import math

import panel as pn
import param
from bokeh.core.properties import value
from bokeh.models import ColumnDataSource, FixedTicker, HoverTool, Range1d
from bokeh.plotting import figure

from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.scoring import totals
from nefertiti_core.teaching.explain import score_lines, winner_line
from widgets.game.common import HTML, DeferredView, esc, player_name, players_legend
from widgets.game.rules_view import link_rule_ids
from widgets.game.session import GameSession
from widgets.theme import CHART_BACKGROUND, CHART_LINE, PRESTIGE_FILL, PROJECTED_FILL, TEXT_HINT

BAR = 0.36


class Scores(DeferredView):
    """Prestige so far and projected final score, per player."""

    session = param.ClassSelector(class_=GameSession)
    width = param.Integer(default=460)
    height = param.Integer(default=300)

    def __init__(self, session: GameSession, **params):
        super().__init__(session=session, **params)
        empty = dict(x=[], top=[], label=[], tip=[])
        #: The bars' data: the prestige held now.
        self.prestige = ColumnDataSource(data=dict(empty), name="scores-prestige")
        #: The bars' data: the totals counted now (the final scores once the game is over).
        self.projected = ColumnDataSource(data=dict(empty), name="scores-projected")
        #: The Bokeh chart of the scores.
        self.figure = self._build_figure()
        self._pane = pn.pane.Bokeh(self.figure, sizing_mode="fixed")
        self._title = HTML("", margin=(0, 5))
        self._leader = HTML("", sizing_mode="stretch_width", margin=(0, 5))
        self._layout = pn.Column(self._title, self._pane, self._leader)
        self.refresh()
        session.param.watch(self._on_change, ["version", "lang"])

    def __panel__(self):
        return self._layout

    # ------------------------------------------------------------------ building (once)
    def _build_figure(self):
        fig = figure(
            width=self.width,
            height=self.height,
            x_range=Range1d(-0.6, 3.6),
            y_range=Range1d(0, 10),
            toolbar_location=None,
            tools="",
            background_fill_color=CHART_BACKGROUND,
            border_fill_color=CHART_BACKGROUND,
        )
        fig.xgrid.visible = False
        fig.xaxis.ticker = FixedTicker(ticks=[0, 1, 2, 3])
        fig.xaxis.major_label_text_font_size = "13px"
        fig.outline_line_color = None
        bars = []
        for source, fill in ((self.prestige, PRESTIGE_FILL), (self.projected, PROJECTED_FILL)):
            bars.append(
                fig.vbar(
                    x="x",
                    top="top",
                    width=BAR,
                    source=source,
                    fill_color=fill,
                    line_color=CHART_LINE,
                )
            )
            fig.text(
                x="x",
                y="top",
                text="label",
                source=source,
                text_align="center",
                text_baseline="bottom",
                text_font_size="12px",
                y_offset=-2,
            )
        #: The chart's legend, in the session's language.
        self.legend_items = players_legend(fig, bars)
        fig.add_tools(
            HoverTool(
                renderers=bars,
                tooltips="<div style='max-width:300px;font-size:12px'>@tip{safe}</div>",
            )
        )
        return fig

    # ------------------------------------------------------------------ updating (data only)
    def refresh(self) -> None:
        self._stale = False  # see DeferredView
        state, lang = self.session.state, self.session.lang
        n = state.n
        scores = totals(state)
        tips = []
        for seat in range(n):
            name = esc(player_name(lang, state.colours, seat))
            lines = "<br>".join(esc(line) for line in score_lines(state, seat, lang))
            tips.append(f"<b>{name}</b><br>{lines}")
        prestige_kind = tr(lang, "panel.scores.prestige")
        projected_kind = tr(
            lang, "panel.scores.final" if state.is_over else "panel.scores.projected"
        )
        self.prestige.data = dict(
            x=[seat - BAR / 2 for seat in range(n)],
            top=list(state.prestige),
            label=[str(v) for v in state.prestige],
            tip=tips,
        )
        self.projected.data = dict(
            x=[seat + BAR / 2 for seat in range(n)],
            top=scores,
            label=[str(v) for v in scores],
            tip=tips,
        )
        fig = self.figure
        self.legend_items[0].label = value(prestige_kind)
        self.legend_items[1].label = value(projected_kind)
        fig.xaxis.ticker.ticks = list(range(n))
        fig.xaxis.major_label_overrides = {
            seat: player_name(lang, state.colours, seat) for seat in range(n)
        }
        fig.x_range.end = n - 0.4
        # in steps of 10 points: a new end re-lays out the axis, so most clicks keep it
        fig.y_range.end = 10 * math.ceil(max(scores + list(state.prestige) + [8]) * 1.25 / 10)
        fig.yaxis.axis_label = tr(lang, "panel.scores.points")
        self._title.object = f"<h3 style='margin:4px 0'>{esc(tr(lang, 'panel.scores.title'))}</h3>"
        self._leader.object = link_rule_ids(  # the winner line's R9.2: its text on click
            f"<div style='font-size:13px'>{esc(winner_line(state, lang))}</div>"
            f"<div style='font-size:12px;color:{TEXT_HINT}'>{esc(tr(lang, 'panel.scores.hover'))}</div>",
            lang,
        )
