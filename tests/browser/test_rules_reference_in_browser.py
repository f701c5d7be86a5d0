"""The rules reference in the served Sandbox, as a learner meets it (#13).

A move is played on the board; in the log, a rule ID shows the rule's title on hover (its
``title`` attribute, which the browser shows as a tooltip) and its text on click; "Open in the
Rules view" under it opens the Rules view at that rule; there a search for "closing" lists the
matching rules, one is picked, and switching to Deutsch and 中文 changes the texts. The page is
photographed in Chinese (artifacts/rules-zh.png). A second test uses widgets.RulesView in a
JupyterLab notebook. One server for the module; Chromium missing is a failure, never a skip.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect
from support import (
    ARTIFACTS,
    KERNEL_MS,
    LOAD_MS,
    STEP_MS,
    canvas_point,
    code_notebook,
    notebook_in_jupyterlab,
)

from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.teaching import rules_reference as RR
from widgets.game import geometry as G

expect.set_options(timeout=STEP_MS)

START = new_game(4, 0)  # the Sandbox's first game: the first-game layout (R2.8)
GIZEH_1 = next(c for c in G.squares(START.side) if c.market == R.GIZEH and c.index == 0)


def view(page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def pick(listbox, rule_id: str) -> None:
    """Pick a rule in the list by its ID (an option's label is "ID  title")."""
    option = listbox.locator("option", has_text=re.compile("^" + re.escape(rule_id) + " "))
    listbox.select_option(label=option.inner_text())


def rule_text_shown(page, text: str) -> None:
    """The Rules view shows ``text`` (a rule's text, as the reference has it)."""
    expect(page.locator(".nf-rule-text").filter(has_text=text[:40])).to_be_visible()


def test_a_rule_id_in_the_log_has_its_title_on_hover_its_text_on_click_and_a_searchable_view(page):
    # play a move: Blue's servant on Gizeh's 1, the first in an empty stall (R5.3: a bonus)
    page.mouse.click(*canvas_point(page, GIZEH_1.x, GIZEH_1.y, G.WIDTH, G.HEIGHT))
    expect(page.get_by_text("Black decides now")).to_be_visible(timeout=LOAD_MS)

    view(page, "Log")
    badge = page.locator("[data-r='R5.3']").first
    expect(badge).to_be_visible()
    title = RR.lookup("R5.3").title
    expect(badge).to_have_attribute("title", f"R5.3 · {title}")
    badge.hover()  # the browser's tooltip shows the title attribute

    text = RR.lookup("R5.3").text
    box = badge.locator("xpath=following-sibling::*[contains(@class,'nft')]")
    expect(box).to_be_hidden()
    badge.click()
    expect(box).to_be_visible()
    expect(box).to_contain_text(text[:60])
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "rules-log-open.png"))
    badge.click()  # a second click closes it
    expect(box).to_be_hidden()

    # "Open in the Rules view" under an ID: the Sandbox shows the Rules view at that rule
    badge.click()
    box.get_by_role("link", name=re.compile("Open in the Rules view")).click()
    expect(page.locator(".nf-rule-text")).to_contain_text(text[:60])
    expect(page.get_by_role("heading", name=re.compile(r"^R5\.3 · "))).to_be_visible()

    # search the rules, pick one
    search = page.get_by_placeholder(re.compile("a word or an ID"))
    search.press_sequentially("closing")  # typed, then Enter: the box's value and its typed
    search.press("Enter")  # value reach the server in one change
    listbox = page.locator("select[size]")
    expect(listbox.locator("option", has_text="R3.10")).to_have_count(1)
    expect(listbox.locator("option", has_text="R1.1")).to_have_count(0)
    expect(page.get_by_text(re.compile(r"^\d+ of 63 rules$"))).to_be_visible()
    pick(listbox, "R6.6")
    rule_text_shown(page, RR.lookup("R6.6").text)
    expect(page.get_by_text(re.compile("positional argument"))).to_have_count(0)

    # the texts change with the language
    page.get_by_role("button", name="Deutsch", exact=True).click()
    rule_text_shown(page, RR.lookup("R6.6", "de").text)
    expect(
        page.get_by_role("heading", name=f"R6.6 · {RR.lookup('R6.6', 'de').title}")
    ).to_be_visible()
    page.get_by_role("button", name="中文", exact=True).click()
    rule_text_shown(page, RR.lookup("R6.6", "zh").text)
    expect(page.get_by_role("button", name="规则", exact=True)).to_be_visible()
    search = page.get_by_placeholder(re.compile("一个词或编号"))
    search.fill("休市")
    expect(listbox.locator("option", has_text="R6.7")).to_have_count(1)
    # an ID inside the rule's text opens in place, in Chinese
    search.fill("R6.1")  # an ID as the query: that rule first
    pick(listbox, "R6.1")
    inner = page.locator(".nf-rule-text [data-r='R3.9']")
    expect(inner).to_have_attribute(
        "title", f"R3.9 · {RR.lookup('R3.9', 'zh').title} (本项目的解读)"
    )
    inner.click()
    expect(page.locator(".nf-rule-text .nft").first).to_contain_text(
        RR.lookup("R3.9", "zh").text[:20]
    )
    page.screenshot(path=str(ARTIFACTS / "rules-zh.png"), full_page=True)


NOTEBOOK = code_notebook(
    "import panel as pn\npn.extension(inline=True)",
    "from widgets import RulesView\nview = RulesView(lang='de')\nview.show('R6.1')\nview",
)


def test_the_rules_view_works_in_a_jupyterlab_notebook(tmp_path, chromium):
    """widgets.RulesView in a notebook: an ID inside a rule's text opens in place (in German,
    flagged as the project's reading), "Open in the Rules view" reaches the kernel and opens it,
    and the search box filters the list."""
    with notebook_in_jupyterlab(chromium, tmp_path, "rules.ipynb", NOTEBOOK) as page:
        inner = page.locator(".nf-rule-text [data-r='R3.9']")
        inner.wait_for(timeout=KERNEL_MS)
        de = RR.lookup("R3.9", "de")
        expect(inner).to_have_attribute("title", f"R3.9 · {de.title} (Lesart des Projekts)")
        inner.click()
        box = page.locator(".nf-rule-text .nft").first
        expect(box).to_contain_text(de.text[:40])
        box.get_by_role("link").click()  # through the kernel
        expect(page.get_by_role("heading", name=f"R3.9 · {de.title}")).to_be_visible()
        page.get_by_placeholder(re.compile("ein Wort")).fill("schließen")
        listbox = page.locator("select[size]")
        expect(listbox.locator("option", has_text="R3.10")).to_have_count(1)
        expect(listbox.locator("option", has_text="R1.1")).to_have_count(0)
        page.screenshot(path=str(ARTIFACTS / "rules-jupyterlab-de.png"))
