"""The Sandbox's decision panel previews a placement on Louqsor that a forced second roll follows.

A teacher loads a game record where Red may place on Louqsor's left stall and, if Red's roll leaves
it open, Blue's only square is the last one there: the engine would place Blue's servant and roll
again at once (R3.7). The preview under the drop-down said nothing for such an option (the preview
raised and the panel hid it); now it says who must place where and the second roll's chance. One
server for the module (conftest.py); Chromium missing is a failure, never a skip.
"""

from __future__ import annotations

import random

from playwright.sync_api import expect
from support import ARTIFACTS

from nefertiti_core import new_game
from nefertiti_core.files.history import History


def _record(folder) -> str:
    """The reported position: a 4-player game, seed 9, after 133 random options."""
    history = History(new_game(4, seed=9))
    rng = random.Random(9)
    for _ in range(133):
        history.play(rng.choice(history.state.legal_options()))
    path = folder / "louqsor-second-roll.yaml"
    path.write_text(history.record().dumps(), encoding="utf-8")
    return str(path)


def test_the_preview_of_a_louqsor_placement_names_the_forced_second_roll(page, tmp_path):
    page.get_by_role("button", name="New game and files", exact=True).click()
    page.locator("input[type=file]").set_input_files(_record(tmp_path))
    expect(page.get_by_text("Loaded louqsor-second-roll.yaml", exact=False)).to_be_visible()
    expect(page.get_by_text("Red decides now")).to_be_visible()
    choice = page.locator("select").filter(has_text="Place on the 1 of Louqsor's left stall")
    choice.select_option(label=choice.locator("option").first.inner_text())
    expect(
        page.get_by_text(
            "If it stays open: Then Blue must place a servant on the 5 of Louqsor's left stall "
            "(the only empty square left), and roll: every possible roll closes Louqsor.",
            exact=False,
        )
    ).to_be_visible()
    expect(
        page.get_by_text("closes Louqsor with probability 25/36 (69%)", exact=False)
    ).to_be_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sandbox-preview-second-roll.png"))
    page.get_by_role("button", name="Deutsch", exact=True).click()
    expect(
        page.get_by_text(
            "Danach muss Blau einen Diener auf die 5 der linken Preistabelle von Luxor setzen "
            "(das einzige freie Feld) und würfeln: Jeder mögliche Wurf schließt Luxor.",
            exact=False,
        )
    ).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "sandbox-preview-second-roll-de.png"))
