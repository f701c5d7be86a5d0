"""Click-to-update latency in Chromium: our served board against a stock, bare Panel app.

    .venv/bin/python benchmarks/click_latency.py [--clicks 40]

Both apps are served on 127.0.0.1 in the same run. For the tutor, a click on an empty square of
the served Sandbox is timed until (a) the new servant is in the board's drawn data and (b) the whole
page has updated: the log shows the placement and the scores chart has new data. For the bare
app, a click on a button is timed until its text shows the new count. Clicks use
``page.mouse.click`` and ``wait_for_function(polling=5)`` (../shared/STACK-NOTES.md). The goal:
the board's median at most half the bare app's, and the whole page under 100 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT))

from support import BARE_PANEL_APP, SANDBOX, canvas_point, launch, served  # noqa: E402

from widgets import geometry as G  # noqa: E402

FIND_TEXT = """([needle, count]) => {
    let seen = 0;
    for (const doc of Bokeh.documents) {
        for (const model of doc.all_models) {
            const t = model.text ?? model.object;
            if (typeof t === "string" && t.includes(needle)) seen += 1;
        }
    }
    return seen >= count;
}"""

SOURCE_ROWS = """(name) => {
    for (const doc of Bokeh.documents) {
        const m = doc.get_model_by_name(name);
        if (m) { const c = m.data instanceof Map ? m.data.get("x") : m.data["x"]; return c.length; }
    }
    return -1;
}"""

SOURCE_SIGNATURE = """(name) => {
    for (const doc of Bokeh.documents) {
        const m = doc.get_model_by_name(name);
        if (m) { const d = m.data instanceof Map ? Object.fromEntries(m.data) : m.data;
                 return JSON.stringify(d); }
    }
    return "";
}"""


def measure_bare(page, url: str, clicks: int) -> list[float]:
    page.goto(url)
    button = page.get_by_role("button", name="Press")
    button.wait_for()
    box = button.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    times = []
    for n in range(1, clicks + 1):
        start = time.perf_counter()
        page.mouse.click(x, y)
        page.wait_for_function(FIND_TEXT, arg=[f"count: {n}", 1], polling=5)
        times.append((time.perf_counter() - start) * 1000)
        time.sleep(0.35)  # two clicks within 300 ms would be a double click
    return times


def _placement_targets(page):
    """One empty square in each open market, from what the board has drawn.

    One servant per market closes none of them, so each click is a plain placement.
    """
    data = json.loads(page.evaluate(SOURCE_SIGNATURE, "board-squares"))
    targets = {}
    for x, y, label, fill in zip(data["x"], data["y"], data["label"], data["fill"], strict=True):
        market = (x > G.REGION_W, y > G.REGION_H)  # the 2 x 2 grid of regions
        if label and fill == "#fffaf0" and market not in targets:  # empty and open
            targets[market] = (x, y)
    return list(targets.values())


ALL_TEXTS = """() => { const out = [];
    for (const doc of Bokeh.documents) for (const m of doc.all_models) {
        const t = m.text ?? m.object; if (typeof t === "string") out.push(t); }
    return out.join("|"); }"""

CHANGED = """([kind, name, before]) => {
    if (kind === "texts") {
        const out = [];
        for (const doc of Bokeh.documents) for (const m of doc.all_models) {
            const t = m.text ?? m.object; if (typeof t === "string") out.push(t); }
        return out.join("|") !== before;
    }
    for (const doc of Bokeh.documents) {
        const m = doc.get_model_by_name(name);
        if (m) { const d = m.data instanceof Map ? Object.fromEntries(m.data) : m.data;
                 return JSON.stringify(d) !== before; }
    }
    return false; }"""

VIEWS = {
    # view shown beside the board -> what must have changed for the page to be up to date
    "Log": ("texts", ""),
    "Scores": ("source", "scores-projected"),
}


def measure_board(page, url: str, clicks: int, view: str) -> tuple[list[float], list[float]]:
    """Click empty squares of the served Sandbox with ``view`` shown beside the board."""
    kind, name = VIEWS[view]
    drawn, whole = [], []
    done = 0
    while done < clicks:
        page.goto(url)
        page.locator(".bk-Canvas").first.wait_for(timeout=60_000)
        page.get_by_role("button", name=view, exact=True).click()
        time.sleep(1.5)
        for target in _placement_targets(page):
            if done >= clicks:
                break
            servants = page.evaluate(SOURCE_ROWS, "board-servants")
            before = (
                page.evaluate(ALL_TEXTS)
                if kind == "texts"
                else page.evaluate(SOURCE_SIGNATURE, name)
            )
            x, y = canvas_point(page, target[0], target[1], G.WIDTH, G.HEIGHT)
            start = time.perf_counter()
            page.mouse.click(x, y)
            page.wait_for_function(
                "([rows, name]) => { for (const d of Bokeh.documents) {"
                " const m = d.get_model_by_name(name); if (m) {"
                " const c = m.data instanceof Map ? m.data.get('x') : m.data['x'];"
                " return c.length > rows; } } return false; }",
                arg=[servants, "board-servants"],
                polling=5,
            )
            drawn.append((time.perf_counter() - start) * 1000)
            page.wait_for_function(CHANGED, arg=[kind, name, before], polling=5)
            whole.append((time.perf_counter() - start) * 1000)
            done += 1
            time.sleep(0.4)  # two clicks within 300 ms would be a double click
    return drawn, whole


def summary(name: str, values: list[float]) -> dict:
    return {
        "what": name,
        "clicks": len(values),
        "median_ms": round(statistics.median(values), 1),
        "p90_ms": round(sorted(values)[int(0.9 * (len(values) - 1))], 1),
        "min_ms": round(min(values), 1),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=40)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with served(BARE_PANEL_APP, "bare") as bare_url, served(SANDBOX, "tutor") as board_url:
        with sync_playwright() as p:
            browser = launch(p)
            page = browser.new_page(viewport={"width": 1500, "height": 1100})
            bare = measure_bare(page, bare_url, args.clicks)
            drawn_log, whole_log = measure_board(page, board_url, args.clicks, "Log")
            drawn_scores, whole_scores = measure_board(page, board_url, args.clicks, "Scores")
            browser.close()
    report = [
        summary("bare Panel app: button click -> text updated", bare),
        summary("tutor board: square click -> servant drawn", drawn_log + drawn_scores),
        summary(
            "tutor page, log shown: click -> board, decision, players and log updated", whole_log
        ),
        summary(
            "tutor page, scores shown: click -> board, decision, players and scores updated",
            whole_scores,
        ),
    ]
    for row in report:
        print(json.dumps(row))
    ratio = report[1]["median_ms"] / report[0]["median_ms"]
    print(
        json.dumps(
            {
                "board_median_over_bare_median": round(ratio, 2),
                "goal": "<= 0.5 and whole page median < 100 ms",
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
