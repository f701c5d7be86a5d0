"""widgets/server/patches.py: each patch's problem is reproduced with the patch off and is gone
with it on, so a Panel or Bokeh release that changes the behaviour under a patch fails here
(the patch may then be unneeded, or wrong). And a version outside a patch's bounds leaves Panel
as it is, with one clear warning.

The reproductions run in fresh interpreters (tests/panel_patch_probe.py), both at once: in this
process ``import widgets`` has applied the notebook patches already.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from helpers_python import parse

from widgets.server import patches as PP

PROBE = Path(__file__).with_name("panel_patch_probe.py")


@pytest.fixture(scope="module")
def probe() -> dict[str, dict]:
    runs = {
        mode: subprocess.Popen(
            [sys.executable, str(PROBE), mode],
            cwd=PROBE.parents[1],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for mode in ("off", "on")
    }
    out = {}
    for mode, run in runs.items():
        stdout, stderr = run.communicate(timeout=180)
        assert run.returncode == 0, f"probe {mode} failed:\n{stderr[-3000:]}"
        out[mode] = json.loads(stdout.strip().splitlines()[-1])
    return out


@pytest.mark.slow  # two fresh interpreters with Panel (about 3 s of CPU)
def test_inline_stylesheets_panel_still_recomputes_the_document_per_model_without_the_patch(probe):
    """The problem: one recompute of the whole model graph per model inlined (quadratic)."""
    small, large = probe["off"]["recomputes"]
    assert large > small and large >= 40, probe["off"]


@pytest.mark.slow  # two fresh interpreters with Panel (about 3 s of CPU)
def test_inline_stylesheets_with_the_patch_a_few_recomputes_whatever_the_size(probe):
    small, large = probe["on"]["recomputes"]
    assert large <= 10 and small <= 10, probe["on"]
    # the same output (ids differ from run to run, the sizes do not)
    assert probe["on"]["bundle_sizes"] == probe["off"]["bundle_sizes"]


@pytest.mark.slow  # two fresh interpreters with Panel (about 3 s of CPU)
def test_inline_stylesheets_in_voila_panel_links_the_cdn_without_the_patch_and_not_with_it(probe):
    """Over ipywidgets comms (Voilà) Panel leaves the stylesheets on cdn.holoviz.org even with
    inline=True; the patch inlines them, and leaves no document frozen."""
    assert probe["off"]["cdn_links"] > 0
    assert probe["on"]["cdn_links"] == 0
    assert probe["on"]["left_frozen"] == 0


@pytest.mark.slow  # two fresh interpreters with Panel (about 3 s of CPU)
def test_local_stylesheets_a_component_built_later_links_the_cdn_without_the_patch_not_with_it(
    probe,
):
    """In a notebook (``inline=True``) Panel inlines the stylesheets of an output when it is
    first shown only: a component added later linked cdn.holoviz.org. With the patch it carries
    Panel's own file as a data: address."""
    assert probe["off"]["late_links"] > 0
    assert probe["on"]["late_links"] == 0


@pytest.mark.slow  # two fresh interpreters with Panel (about 3 s of CPU)
def test_voila_click_runs_with_another_document_current_without_the_patch_and_not_with_it(probe):
    """Over ipywidgets comms Panel runs a click with the document it rendered into current, not
    the one jupyter_bokeh put the model in: what the click builds took another output's cached
    stylesheets and Voilà's "Show what happens" sometimes did nothing. The patch runs it with
    the model's own document."""
    assert probe["off"]["click_in_its_document"] is False
    assert probe["on"]["click_in_its_document"] is True


@pytest.mark.slow  # two fresh interpreters with Panel (about 3 s of CPU)
def test_websocket_nodelay_panel_does_not_set_it_and_the_patch_does(probe):
    assert probe["off"]["nodelay"] is False
    assert probe["on"]["nodelay"] is True


@pytest.mark.slow  # two fresh interpreters with Panel (about 3 s of CPU)
def test_forged_choices_raise_or_pick_from_the_end_without_the_patch_and_are_refused_with_it(probe):
    """The attack of #29: an index past the end raises "list index out of range" (a traceback
    in the log, that text on the page), a negative one picks an option counted from the end, a
    value no option has raises "not in list". With the patch each leaves the widget as it was."""
    off, on = probe["off"]["forged_choices"], probe["on"]["forged_choices"]
    assert off["RadioButtonGroup 99"] == "IndexError: list index out of range"
    assert off["RadioButtonGroup -1"] == "zh"
    assert off["Select bogus"].startswith("ValueError") and "not in list" in off["Select bogus"]
    assert on == {"RadioButtonGroup 99": "en", "RadioButtonGroup -1": "en", "Select bogus": "en"}


def test_every_patch_covers_the_installed_versions():
    """The installed Panel/Bokeh are within every patch's bounds (else the patches are not
    applied: widen the bounds once the tests above pass on the new version)."""
    for patch in PP.PATCHES:
        assert PP.in_bounds(patch) is None, (patch.name, PP.installed_versions())


def test_a_version_outside_the_bounds_is_not_patched_and_warned_about_once(monkeypatch):
    installed = []
    patch = PP.Patch(
        name="probe-only",
        panel=((1, 9), (1, 10)),
        bokeh=((3, 9), (3, 10)),
        install=lambda: installed.append(1) or True,
        what_is_lost="nothing (a test's patch)",
    )
    monkeypatch.setattr(PP, "installed_versions", lambda: {"panel": "1.10.0", "bokeh": "3.9.2"})
    # the module's records of patches warned about and applied: this test's own, dropped after it
    monkeypatch.setattr(PP, "_warned", set())
    monkeypatch.setattr(PP, "_applied", set())
    with pytest.warns(PP.PanelPatchSkipped, match=r"'probe-only' not applied \(panel 1\.10\.0"):
        assert PP.apply(patch) is False
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert PP.apply(patch) is False  # no second warning
    assert installed == []

    monkeypatch.setattr(PP, "installed_versions", lambda: {"panel": "1.9.7", "bokeh": "3.8.0"})
    assert "bokeh 3.8.0" in PP.in_bounds(patch)
    monkeypatch.setattr(PP, "installed_versions", lambda: {"panel": "1.9.7", "bokeh": "3.9.0"})
    assert PP.apply(patch) is True and installed == [1]
    assert PP.apply(patch) is True and installed == [1]  # once


def test_a_patch_whose_panel_internals_are_gone_is_not_applied_and_says_so(monkeypatch):
    patch = PP.Patch(
        name="gone-internals",
        panel=((0, 0), (99, 0)),
        bokeh=((0, 0), (99, 0)),
        install=lambda: False,
        what_is_lost="nothing (a test's patch)",
    )
    monkeypatch.setattr(PP, "_warned", set())
    with pytest.warns(PP.PanelPatchSkipped, match="internals it wraps are not there"):
        assert PP.apply(patch) is False


def test_a_required_patch_out_of_its_bounds_stops_the_server_instead_of_serving_without_it(
    monkeypatch,
):
    patch = PP.Patch(
        name="a-limit",
        panel=((1, 9), (1, 10)),
        bokeh=((3, 9), (3, 10)),
        install=lambda: True,
        what_is_lost="no cap on sessions (a test's patch)",
        required=True,
    )
    monkeypatch.setattr(PP, "installed_versions", lambda: {"panel": "2.0.0", "bokeh": "3.9.2"})
    with pytest.raises(PP.PanelPatchMissing, match=r"'a-limit' not applied \(panel 2\.0\.0"):
        PP.apply(patch)


def test_the_bokeh_internals_read_still_answer_on_the_installed_bokeh():
    """The fast probe (it runs in ``make test-fast``): the two reads of Bokeh internals find what
    they read, on a real Bokeh server that is made but never started."""
    from bokeh.application import Application
    from bokeh.server.server import Server

    server = Server({"/app": Application()}, port=0, address="127.0.0.1")
    try:
        application = PP.tornado_application(server)
        assert type(application).__name__ == "BokehTornado"
        assert set(application.applications) == {"/app"}
        assert PP.live_sessions(application) == 0
    finally:
        server.stop()


def test_the_served_app_wraps_each_framework_method_once_and_only_in_the_patches_module():
    """``apply_server`` twice wraps each handler method once; and no other module of the tutor
    assigns to a Panel, Bokeh or Tornado object or hangs its own attributes on one."""
    from bokeh.server.session import ServerSession
    from panel.io import server
    from panel.widgets import RadioButtonGroup, Select

    PP.apply_server()
    PP.apply_server()
    for method in (
        server.WSHandler.open,
        server.WSHandler.on_message,
        server.DocHandler.get,
        server.AutoloadJsHandler.get,
        RadioButtonGroup._process_property_change,  # private: the method the patch wraps
        Select._process_property_change,  # private: the method the patch wraps
        ServerSession._handle_patch,  # private: the method the patch wraps
    ):
        assert "patches._install_" in f"{method.__module__}.{method.__qualname__}", method
        inner = method.__wrapped__
        assert "_install_" not in inner.__qualname__, f"{method.__qualname__} wrapped twice"

    import ast

    root = Path(__file__).resolve().parents[1] / "widgets"
    found = []
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "_nefertiti_" in text:
            found.append(f"{path.name}: an attribute named _nefertiti_*")
        if path.name == "patches.py":
            continue
        tree = parse(text)
        framework = {
            (alias.asname or alias.name).split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom | ast.Import)
            for alias in node.names
            if (getattr(node, "module", None) or alias.name).split(".")[0]
            in ("panel", "bokeh", "tornado")
        }
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else []
            for target in targets:
                if not isinstance(target, ast.Attribute):
                    continue
                owner = ast.unparse(target.value)
                # Panel's documented settings (pn.config, pn.state) and the session's current
                # document (pn.state.curdoc: its template, as Bokeh documents it) are public API
                public = owner in ("pn.config", "pn.state") or owner.startswith("pn.state.")
                if owner.split(".")[0] in framework and not public:
                    found.append(f"{path.name}:{node.lineno} {ast.unparse(target)} = ...")
    assert not found, "framework changed outside widgets/server/patches.py:\n" + "\n".join(found)
