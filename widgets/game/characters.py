"""The character piles: each pile's top card, how many are left, its effect in one line, and a
"Recruit" button that is enabled exactly when the engine offers ``recruit <pile>`` now (R5.1,
R10.1). Clicking it plays that option for the deciding player.
"""

from __future__ import annotations

from string import Template

import panel as pn
import param

from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.teaching.explain import describe_option
from widgets.game.common import (
    HTML,
    PHONE_MIN_TEXT,
    DeferredView,
    esc,
    guarded,
    player_name,
    tooltip,
)
from widgets.game.rules_view import link_rule_ids
from widgets.game.session import GameSession
from widgets.theme import (
    DISABLED_BACKGROUND,
    DISABLED_LINE,
    DISABLED_TEXT,
    TEXT_NONE,
    TEXT_NOTE,
    TEXT_OFF,
    TEXT_STRONG,
)

#: A disabled "Recruit" button must look unavailable at a glance (Panel's native style only fades
#: the blue a little).
DISABLED_BUTTON_CSS = Template("""
.bk-btn:disabled, .bk-btn[disabled] {
    background-color: $background !important; border-color: $line !important;
    color: $text !important; opacity: 1; cursor: not-allowed; box-shadow: none;
}
""").substitute(background=DISABLED_BACKGROUND, line=DISABLED_LINE, text=DISABLED_TEXT)


class Characters(DeferredView):
    """The seven piles beside the board, with their effects and recruit buttons."""

    session = param.ClassSelector(class_=GameSession)

    def __init__(self, session: GameSession, **params):
        super().__init__(session=session, **params)
        self._title = HTML("", margin=(0, 5))
        #: Who may play a character now, and the rule (or that the game has none).
        self.note = HTML("", sizing_mode="stretch_width", margin=(0, 5))
        #: Each character's card in words, by character.
        self.texts = [HTML("", sizing_mode="stretch_width") for _ in R.PILES]
        #: Each character's play button, by character.
        self.buttons = []
        for pile in range(len(R.PILES)):
            button = pn.widgets.Button(
                color="primary", width=120, disabled=True, stylesheets=[DISABLED_BUTTON_CSS]
            )
            button.on_click(lambda _event, pile=pile: self._on_recruit(pile))
            self.buttons.append(button)
        rows = [
            pn.Row(text, button, sizing_mode="stretch_width", styles={"align-items": "center"})
            for text, button in zip(self.texts, self.buttons, strict=True)
        ]
        self._layout = pn.Column(self._title, self.note, *rows, sizing_mode="stretch_width")
        self.refresh()
        session.param.watch(self._on_change, ["version", "lang"])

    def __panel__(self):
        return self._layout

    # for tests
    def recruitable(self) -> list[str]:
        """The piles whose button is enabled now."""
        return [R.PILES[p] for p, b in enumerate(self.buttons) if not b.disabled]

    def recruit(self, pile: str) -> None:
        """Press the button of ``pile``; a disabled button does nothing (as in the browser)."""
        button = self.buttons[R.PILES.index(pile)]
        if not button.disabled:
            button.clicks += 1

    def refresh(self) -> None:
        self._stale = False  # see DeferredView
        state, lang = self.session.state, self.session.lang
        self._title.object = (
            f"<h3 style='margin:4px 0'>{esc(tr(lang, 'panel.characters.title'))}</h3>"
        )
        legal = set(state.legal_options())
        can = [p for p in range(len(R.PILES)) if O.RECRUIT_BASE + p in legal]
        lines = []
        if not any(state.piles):
            lines.append(tr(lang, "panel.characters.none"))
        else:
            if can:
                player = player_name(lang, state.colours, state.decider)
                lines.append(tr(lang, "panel.characters.can", player=player))
            elif not state.is_over:
                lines.append(tr(lang, "panel.characters.cannot"))
            lines.append(tr(lang, "panel.characters.rule"))
        notes = "".join(f"<div style='color:{TEXT_NOTE}'>{esc(line)}</div>" for line in lines)
        self.note.object = link_rule_ids(notes, lang)  # R5.1, R10.1: titles on hover
        for pile, name in enumerate(R.PILES):
            cards = state.piles[pile]
            effect = tr(lang, f"panel.effect.{name}")
            if cards:
                top = tr(lang, f"character.{R.CHARACTER_CARDS[cards[0]]}")
                count = tr(lang, "panel.characters.left", n=len(cards))
                head = f"<b>{esc(top)}</b> <span style='color:{TEXT_NONE}'>· {esc(count)}</span>"
            else:
                empty = tr(lang, "panel.characters.empty")
                head = (
                    f"<b style='color:{TEXT_OFF}'>{esc(tr(lang, f'pile.{name}'))}</b> "
                    f"<span style='color:{TEXT_OFF}'>· {esc(empty)}</span>"
                )
            colour = TEXT_STRONG if cards else TEXT_OFF
            self.texts[pile].object = link_rule_ids(
                f"<div style='font-size:{PHONE_MIN_TEXT.format(13)}'>{head}"
                f"<div style='color:{colour};font-size:{PHONE_MIN_TEXT.format(12)}'>"
                f"{esc(effect)}</div></div>",
                lang,
            )
            button = self.buttons[pile]
            button.name = tr(lang, "panel.characters.recruit")
            enabled = pile in can
            button.disabled = not enabled
            button.description = (
                tooltip(describe_option(state, O.RECRUIT_BASE + pile, lang)) if enabled else None
            )

    @guarded
    def _on_recruit(self, pile: int):
        self.session.play(O.RECRUIT_BASE + pile)
