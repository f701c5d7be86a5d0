"""Rule IDs one click away: the rule's title on hover and its text on click, and the Rules view.

Every component that shows rule IDs (the log, the decision panel's previews, the hints, the
exercise feedback, the lessons' summaries and coverage) passes the HTML of its pane through
:func:`link_rule_ids` just before it sets it. Each ID in the text (``R3.5``, both ends of
``R2.6-R2.8``) becomes a small button: its ``title`` is the rule's title (the
browser shows it on hover), and a click opens the rule's text below it, from the project's own
rules reference (:mod:`nefertiti_core.teaching.rules_reference`) in the pane's language. The texts of the
IDs a pane cites are put into the pane once each (hidden), and one click handler per pane copies
a text into the box that is being opened, so a long log stays small.

In the Sandbox the open box also offers "Open in the Rules view": the click reaches the server
through a hidden text box (:func:`rules_bridge`), and the Sandbox shows the Rules view at that ID.
Outside the Sandbox (a notebook) that link stays hidden unless a :class:`RulesView` is around
it: its display comes from the CSS variable ``--nf-rules-link``, which the Sandbox and the
RulesView set.

:class:`RulesView` is the searchable reference: a search box, the matching rules with their
titles, and the text of the one picked, in the session's language.
"""

from __future__ import annotations

import html
import re

import panel as pn
import param

from nefertiti_core.engine.i18n import DEFAULT_LANGUAGE, LANGUAGES, tr
from nefertiti_core.teaching import rules_reference as RR
from widgets.game.accessible import name_for_readers
from widgets.game.common import HTML, guarded
from widgets.game.session import GameSession
from widgets.theme import (
    ACCENT,
    FOCUS_RING,
    HEADING,
    INK_MUTED,
    PAPER_WARM,
    POPUP_LINE,
    POPUP_TEXT,
    TEXT_FAINT,
    TEXT_HINT,
)

__all__ = ["BRIDGE_CLASS", "RulesView", "link_rule_ids", "rule_ids_html", "rules_bridge"]

BRIDGE_CLASS = "nf-rules-bridge"
LINK_VARIABLE = "--nf-rules-link"
SCOPE_CLASS = "nfr-scope"

_STYLE = (
    "<style>"
    ".nfr>.nfs{cursor:pointer;text-decoration:underline dotted;text-underline-offset:2px}"
    f".nfr>.nfs:focus-visible{{outline:2px solid {FOCUS_RING}}}"
    ".nfr>.nft[hidden]{display:none}"
    ".nfr>.nft:not([hidden]){display:block;margin:4px 0 6px;padding:6px 9px;max-width:520px;"
    f"background:{PAPER_WARM};color:{POPUP_TEXT};border:1px solid {POPUP_LINE};border-radius:5px;"
    "font-size:12.5px;font-weight:normal;line-height:1.4;white-space:normal;text-align:left}"
    f".nft .nfm{{color:{ACCENT};font-style:italic}}"
    f".nft .nfo{{display:var({LINK_VARIABLE},none);margin-top:4px;color:{INK_MUTED}}}"
    "</style>"
)

# One handler for the whole pane (event delegation): a click on an ID fills its box with the
# rule's text (the first time) and shows or hides it; a click on "Open in the Rules view" tells
# the page's bridge (a hidden Bokeh text input) which ID to open. No double quotes: it sits in
# an attribute. Enter or Space on a focused ID does what a click does.
_HANDLER = (
    "var e=event,o=e.target.closest('[data-open]');"
    "if(o){e.preventDefault();var v=o.getAttribute('data-open')+'|'+Date.now();"
    "var ds=(window.Bokeh&&window.Bokeh.documents)||[];"
    "for(var d of ds){for(var m of d.all_models){"
    f"if(m.css_classes&&m.css_classes.indexOf('{BRIDGE_CLASS}')>=0){{m.value=v;}}}}}}return;}}"
    "var r=e.target.closest('[data-r]');if(!r)return;var b=r.nextElementSibling;if(!b)return;"
    "if(!b.innerHTML){for(var t of this.querySelectorAll('[data-nfr]')){"
    "if(t.getAttribute('data-nfr')==r.getAttribute('data-r')){b.innerHTML=t.innerHTML;}}}"
    "b.hidden=!b.hidden;r.setAttribute('aria-expanded',String(!b.hidden));"
)
_KEYS = (
    "if((event.key=='Enter'||event.key==' ')&&event.target.matches('[data-r]'))"
    "{event.preventDefault();event.target.click();}"
)

#: Elements whose text is left alone (code, scripts, a link's text, an ID already linked).
_SKIP = {"style", "script", "textarea", "summary", "a", "code", "pre", "option", "title", "button"}
_TAG = re.compile(r"(<[^>]*>)")
_TAG_NAME = re.compile(r"<\s*(/?)\s*([a-zA-Z][a-zA-Z0-9-]*)")
_VOID = {"br", "img", "hr", "input", "meta", "link", "wbr", "source", "col", "area", "base"}


def _attr(text: str) -> str:
    return html.escape(str(text), quote=True)


def _hover(rule_id: str, rule: RR.Rule, lang: str) -> str:
    """The hover text of an ID: its title (its section's, for a ruling without an entry)."""
    shown = (
        f"{rule.id} · {rule.title}"
        if rule.id == rule_id
        else f"{rule_id} → {rule.id} · {rule.title}"
    )
    if rule.reading:
        shown += f" ({tr(lang, 'rules.reading_mark')})"
    return shown


def _summary(rule_id: str, rule: RR.Rule, lang: str, label: str) -> str:
    return (
        f'<span class="nfr"><span class="nfs" role="button" tabindex="0" aria-expanded="false" '
        f'data-r="{_attr(rule.id)}" title="{_attr(_hover(rule_id, rule, lang))}">{label}</span>'
        '<span class="nft" hidden></span></span>'
    )


def _text_box(rule: RR.Rule, lang: str) -> str:
    """The hidden text of one rule, copied into an ID's box when it is opened."""
    mark = (
        f' <span class="nfm">({_attr(tr(lang, "rules.reading_mark"))})</span>'
        if rule.reading
        else ""
    )
    return (
        f'<div hidden data-nfr="{_attr(rule.id)}"><b>{_attr(rule.id)} · {_attr(rule.title)}</b>'
        f"{mark}<br>{_attr(rule.text)}"
        f'<div class="nfo"><a href="#" data-open="{_attr(rule.id)}">'
        f"{_attr(tr(lang, 'rules.open_view'))} ›</a></div></div>"
    )


def link_rule_ids(html_text: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """``html_text`` (already escaped HTML) with every rule ID in its text made readable: the
    title on hover, the text on click. Tags, attributes and the text of ``<a>``, ``<code>``,
    ``<style>`` and the like are left alone; a text without a known ID comes back unchanged.
    """
    if not html_text or SCOPE_CLASS in html_text:
        return html_text
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    cited: dict[str, RR.Rule] = {}
    out: list[str] = []
    skip: list[str] = []

    def replace(match: re.Match) -> str:
        rule_id = RR.normalise(match.group(0))
        rule = RR.lookup(rule_id, lang) if rule_id else None
        if rule is None:
            return match.group(0)
        cited.setdefault(rule.id, rule)
        return _summary(rule_id, rule, lang, match.group(0))

    for part in _TAG.split(html_text):
        if not part:
            continue
        if part.startswith("<"):
            name = _TAG_NAME.match(part)
            if name:
                closing, tag = name.group(1), name.group(2).lower()
                if tag in _SKIP and tag not in _VOID and not part.endswith("/>"):
                    if closing:
                        if tag in skip:
                            del skip[len(skip) - 1 - skip[::-1].index(tag)]
                    else:
                        skip.append(tag)
            out.append(part)
        elif skip:
            out.append(part)
        else:
            out.append(RR.ID_IN_TEXT.sub(replace, part))
    if not cited:
        return html_text
    boxes = "".join(_text_box(rule, lang) for rule in cited.values())
    scope = f'<div class="{SCOPE_CLASS}" onclick="{_attr(_HANDLER)}" onkeydown="{_attr(_KEYS)}">'
    return f"{scope}{_STYLE}{''.join(out)}{boxes}</div>"


def rule_ids_html(ids, lang: str = DEFAULT_LANGUAGE, sep: str = ", ") -> str:
    """Rule IDs (a list, or a text such as ``"R6.6, R6.7"``) as linked HTML, for a pane."""
    if isinstance(ids, str):
        ids = RR.ids_in(ids)
    return link_rule_ids(sep.join(html.escape(str(rule_id)) for rule_id in ids), lang)


def rules_bridge() -> pn.widgets.TextInput:
    """The hidden text box through which a click on "Open in the Rules view" reaches Python:
    its value becomes ``"<ID>|<time>"``; watch ``value`` and read the ID before the ``|``."""
    return pn.widgets.TextInput(value="", visible=False, css_classes=[BRIDGE_CLASS])


def bridge_id(value: str) -> str | None:
    """The rule ID a bridge value names (``"R3.5|1712345"`` -> ``"R3.5"``), if it is one."""
    return RR.normalise((value or "").split("|", 1)[0])


class RulesView(pn.viewable.Viewer):
    """The rules reference, searchable: a search box, the matching rules, the picked one's text.

    Give it a :class:`GameSession` to follow the session's language, or a ``lang``. ``show(id)``
    opens a rule; ``requests`` counts the clicks on "Open in the Rules view" it received.
    """

    session = param.ClassSelector(class_=GameSession, default=None, allow_None=True)
    lang = param.Selector(objects=list(LANGUAGES), default=DEFAULT_LANGUAGE)
    selected = param.String(default="", doc="The ID whose text is shown")
    requests = param.Integer(default=0, doc="Clicks on an ID's 'Open in the Rules view'")

    def __init__(self, session: GameSession | None = None, with_bridge: bool = True, **params):
        if session is not None:
            params.setdefault("lang", session.lang)
        super().__init__(session=session, **params)
        self._title = HTML("", margin=(0, 5))
        self._search = pn.widgets.TextInput(sizing_mode="stretch_width", margin=(0, 5))
        self._search.param.watch(self._on_search, ["value_input", "value"])
        self._count = HTML("", margin=(0, 5))
        self._list = pn.widgets.Select(size=16, width=330, margin=(5, 5))
        self._list.param.watch(self._on_pick, "value")
        self._text = HTML("", min_width=280, sizing_mode="stretch_width", margin=(5, 5))
        self.bridge = rules_bridge()
        self.bridge.param.watch(self._on_bridge, "value")
        self._query = ""
        self._layout = pn.Column(
            self._title,
            self._search,
            self._count,
            pn.Row(self._list, self._text, sizing_mode="stretch_width"),
            *([self.bridge] if with_bridge else []),
            sizing_mode="stretch_width",
            styles={LINK_VARIABLE: "block"},
        )
        self._refresh()
        if session is not None:
            session.param.watch(self._on_session_lang, ["lang"])

    def __panel__(self):
        return self._layout

    # ------------------------------------------------------------------ API
    def show(self, rule_id: str) -> RR.Rule | None:
        """Open a rule (its section's entry for a ruling without one); None if unknown."""
        rule = RR.lookup(rule_id, self.lang)
        if rule is None:
            return None
        if rule.id not in {found.id for found in RR.search(self._query, self.lang)}:
            self.search("")
        self.selected = rule.id
        return rule

    def search(self, query: str) -> list[str]:
        """Filter the list by words (what typing in the search box does); returns the IDs."""
        self._search.value = query
        self._apply_query(query)
        return list(self._list.options.values())

    @property
    def shown_ids(self) -> list[str]:
        return list(self._list.options.values())

    @property
    def text_html(self) -> str:
        return self._text.object

    # ------------------------------------------------------------------ events
    @guarded
    def _on_session_lang(self, event):
        self.lang = event.new

    @param.depends("lang", watch=True)
    @guarded
    def _on_lang(self):
        self._refresh()

    @param.depends("selected", watch=True)
    @guarded
    def _on_selected(self):
        if self._list.value != self.selected and self.selected in self._list.options.values():
            self._list.value = self.selected
        self._show_text()

    @guarded
    def _on_search(self, *events):
        # typing changes ``value_input``; Enter changes ``value`` as well, in the same batch, and
        # param then calls a watcher of both with both events: the last one holds the query
        self._apply_query(events[-1].new or "")

    @guarded
    def _on_pick(self, event):
        if event.new:
            self.selected = event.new

    @guarded
    def _on_bridge(self, event):
        rule_id = bridge_id(event.new)
        if rule_id and self.show(rule_id) is not None:
            self.requests += 1

    # ------------------------------------------------------------------ drawing
    def _apply_query(self, query: str) -> None:
        self._query = (query or "").strip()[:200]
        found = RR.search(self._query, self.lang)
        options = {
            f"{rule.id}  {rule.title}{' *' if rule.reading else ''}": rule.id for rule in found
        }
        keep = self.selected if self.selected in options.values() else None
        self._list.param.update(options=options, value=keep)
        total = len(RR.ids())
        if found:
            count = tr(self.lang, "rules.view.count", count=len(found), total=total)
        else:
            count = tr(self.lang, "rules.view.none", query=self._query)
        self._count.object = f"<div style='color:{TEXT_HINT};font-size:12px'>{_attr(count)}</div>"
        name_for_readers(self._list, f"{tr(self.lang, 'panel.view.rules')}: {count}")

    def _refresh(self) -> None:
        lang = self.lang
        self._title.object = (
            f"<h3 style='margin:4px 0;color:{HEADING}'>{_attr(tr(lang, 'panel.view.rules'))}</h3>"
        )
        self._search.param.update(
            name=tr(lang, "rules.view.search"), placeholder=tr(lang, "rules.view.placeholder")
        )
        self._apply_query(self._query)
        self._show_text()

    def _show_text(self) -> None:
        lang = self.lang
        rule = RR.lookup(self.selected, lang) if self.selected else None
        if rule is None:
            self._text.object = f"<div style='color:{TEXT_FAINT};font-size:13px'>{_attr(tr(lang, 'rules.footnote'))}</div>"
            return
        mark = (
            f"<div style='color:{ACCENT};font-style:italic;margin:4px 0'>"
            f"{_attr(tr(lang, 'rules.reading_mark'))}</div>"
            if rule.reading
            else ""
        )
        # IDs inside the text (R3.9 in R6.1) open in place; "Open in the Rules view" picks them
        self._text.object = (
            f"<h4 style='margin:2px 0 6px;color:{HEADING}'>{_attr(rule.id)} · {_attr(rule.title)}</h4>"
            f"{mark}<div class='nf-rule-text' style='font-size:14px;line-height:1.5'>"
            f"{link_rule_ids(_attr(rule.text), lang)}</div>"
        )
