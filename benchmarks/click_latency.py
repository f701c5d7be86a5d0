"""Click-to-update latency in Chromium: our served board against a stock, bare Panel app.

    .venv/bin/python benchmarks/click_latency.py [--clicks 40] [--hold-ms 100]

Both apps are served on 127.0.0.1 in the same run, in the same browser page. For the tutor, a
click on an empty square of the served Sandbox is timed until

* **drawn**: the new servant is in the board's drawn data (``board-servants``);
* **confirmed**: the server's board update has arrived (the legal squares of the next decider);
* **whole page**: the decision panel names the next decider, the players' tableaus changed, and
  the view beside the board has: the log shows more entries, or the scores chart has new data.

For the bare app, a click on a button is timed until its text shows the new count. Each click
is made as a person makes it, in both apps: the pointer rests on its target for 0.3 s, then the
button is pressed and held ``--hold-ms`` (default 100 ms, a typical click's length; 0 is
Playwright's instant click) before it is released.

Two clocks, both reported:

* **in page** (the goal is judged on these): from the release (the browser's ``pointerup``
  event, ``event.timeStamp``: a click is complete when the button is released, and the bare
  app's button acts then) to the moment the condition holds in the page's Bokeh models, checked
  on every change of the document from the press on, and to the end of the next frame after it
  (``painted``). What already holds, or is already painted, at the release counts 0 ms: the
  board draws the servant at the press (``widgets/game/board.py``, CLICKS_JS), so a person waits
  for nothing after releasing. The board's times from the press are reported too. This is
  what a person at the screen waits for; it leaves out Playwright's own round trips.
* **harness**: wall clock in this script from before ``page.mouse.up`` until
  ``wait_for_function(polling=5)`` sees the condition (../shared/STACK-NOTES.md). On a loaded
  2-core machine Playwright's own overhead (tens of ms per call) is part of these figures.

The goal: the board's median at most half the bare app's, and the whole page under
100 ms. The machine's load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT))

from support import BARE_PANEL_APP, SANDBOX, canvas_point, launch, served  # noqa: E402

from widgets.game import geometry as G  # noqa: E402

# --- in-page probe ---------------------------------------------------------------------------
# window.__probe.arm(tests) snapshots what the tests compare against and waits for the next
# pointerdown; from then on every change of a Bokeh document runs the tests, and the first time
# each holds its time (from the press) is noted, then the end of the next frame (a message
# posted from requestAnimationFrame runs after that frame is painted); the release's time is
# the mark "released".
PROBE = """() => {
    if (window.__probe) return;
    const models = () => { const out = []; for (const d of Bokeh.documents) out.push(...d.all_models); return out; };
    const text = (m) => { const t = m.text ?? m.object; return typeof t === "string" ? t : null; };
    const source = (name) => { for (const d of Bokeh.documents) { const m = d.get_model_by_name(name); if (m) return m; } return null; };
    const column = (m, key) => (m.data instanceof Map ? m.data.get(key) : m.data[key]);
    const signature = (m) => JSON.stringify(m.data instanceof Map ? Object.fromEntries(m.data) : m.data);
    const count = (s, needle) => s.split(needle).length - 1;
    const P = window.__probe = {t0: null, marks: {}, tests: {}, base: {}};
    // markers of our own HTML (English page): a log row, a player's tableau
    const LOG_ROW = "border-bottom:1px solid #eee3c8";
    const TABLEAU = "border-left:6px solid";
    let textModels = [];  // the models with a text, listed when armed (a click adds none)
    const texts = (needle) => textModels.map(text).filter((t) => t !== null && t.includes(needle));
    const decider = () => texts("decides now").join("|");
    const tableaus = () => texts(TABLEAU).join("|");
    const logRows = () => texts(LOG_ROW).reduce((n, t) => n + count(t, LOG_ROW), 0);
    const legalWho = () => { const m = source("board-legal"); return m ? JSON.stringify(Array.from(column(m, "who"))) : ""; };
    const KINDS = {
        bare: (b) => ({ text: () => texts(b.needle).length > 0 }),
        board: (b) => ({
            drawn: () => column(source("board-servants"), "x").length > b.servants,
            confirmed: () => { const w = legalWho(); return w !== b.legal && w !== "[]"; },
            decision: () => decider() !== b.decider,
            players: () => tableaus() !== b.tableaus,
            log: () => logRows() > b.logRows,
            scores: () => signature(source("scores-projected")) !== b.scores,
        }),
    };
    P.snapshot = (kind, needle) => kind === "bare" ? {needle} : {
        servants: column(source("board-servants"), "x").length, legal: legalWho(),
        decider: decider(), tableaus: tableaus(), logRows: logRows(),
        scores: source("scores-projected") ? signature(source("scores-projected")) : "",
    };
    P.arm = (kind, needle) => {
        textModels = models().filter((m) => text(m) !== null);
        P.base = P.snapshot(kind, needle); P.tests = KINDS[kind](P.base); P.marks = {}; P.t0 = null; P.armed = true; };
    const afterFrame = (name) => requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { P.marks[name + "_painted"] = performance.now() - P.t0; };
        channel.port2.postMessage(0);
    });
    P.check = () => {
        if (P.t0 === null) return;
        for (const [name, test] of Object.entries(P.tests)) {
            if (name in P.marks) continue;
            let ok = false; try { ok = test(); } catch (e) { ok = false; }
            if (ok) { P.marks[name] = performance.now() - P.t0; afterFrame(name); }
        }
    };
    // times from the press; the release's time is noted as the mark "released"
    document.addEventListener("pointerdown", (e) => { if (P.armed) { P.armed = false; P.t0 = e.timeStamp; P.check(); } }, true);
    document.addEventListener("pointerup", (e) => { if (P.t0 !== null && !("released" in P.marks)) { P.marks.released = e.timeStamp - P.t0; P.check(); } }, true);
    for (const d of Bokeh.documents) d.on_change(() => P.check(), true);  // once per batch
}"""

MARKS = "() => window.__probe.marks"
#: The pointer rests on the target this long before each click (as a person's does), so the hover
#: it causes (the board's tooltip, the button's hover style) is not counted as the click's.
HOVER_S = 0.3


def wait_marks(page, names: list[str], timeout: float = 30_000) -> dict:
    """Wait (harness clock) until the probe has noted every mark in ``names``; return all."""
    page.wait_for_function(
        "(names) => names.every((n) => n in window.__probe.marks)",
        arg=names,
        polling=5,
        timeout=timeout,
    )
    return page.evaluate(MARKS)


def click(page, x: float, y: float, hold_s: float, first_mark: str) -> float:
    """Press at (x, y), hold, release; the harness clock (ms) from the release to ``first_mark``."""
    page.mouse.move(x, y)  # a person's pointer is on the target before the click
    time.sleep(HOVER_S)
    page.mouse.down()
    if hold_s:
        time.sleep(hold_s)
    start = time.perf_counter()
    page.mouse.up()
    page.wait_for_function(
        "(name) => name in window.__probe.marks && 'released' in window.__probe.marks",
        arg=first_mark,
        polling=5,
    )
    return (time.perf_counter() - start) * 1000


def from_release(marks: dict, name: str) -> float:
    """A mark's time from the release; 0 if it already held at the release."""
    return max(0.0, marks[name] - marks["released"])


def measure_bare(page, url: str, clicks: int, hold_s: float) -> dict[str, list[float]]:
    page.goto(url)
    button = page.get_by_role("button", name="Press")
    button.wait_for()
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.length > 0")
    page.evaluate(PROBE)
    box = button.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    out = {"harness": [], "text": [], "text_painted": []}
    for n in range(1, clicks + 1):
        page.evaluate("(needle) => window.__probe.arm('bare', needle)", f"count: {n}")
        out["harness"].append(click(page, x, y, hold_s, "text"))
        marks = wait_marks(page, ["text", "text_painted"])
        out["text"].append(from_release(marks, "text"))
        out["text_painted"].append(from_release(marks, "text_painted"))
        time.sleep(0.35)
    return out


def _placement_targets(page):
    """One empty square in each open market, from what the board has drawn.

    One servant per market closes none of them, so each click is a plain placement.
    """
    read = """(name) => { for (const d of Bokeh.documents) { const m = d.get_model_by_name(name);
        if (m) { const e = m.data instanceof Map ? Object.fromEntries(m.data) : m.data;
                 const o = {}; for (const k in e) o[k] = Array.from(e[k]); return o; } } }"""
    squares = page.evaluate(read, "board-squares")
    servants = page.evaluate(read, "board-servants")
    taken = set(zip(servants["x"], servants["y"], strict=True))
    targets = {}
    for x, y, fill in zip(squares["x"], squares["y"], squares["fill"], strict=True):
        market = (x > G.REGION_W, y > G.REGION_H)  # the 2 x 2 grid of regions
        if (x, y) not in taken and fill == "#fffaf0" and market not in targets:  # empty, open
            targets[market] = (x, y)
    return list(targets.values())


BOARD_MARKS = ["drawn", "confirmed", "decision", "players"]


def measure_board(page, url: str, clicks: int, view: str, hold_s: float) -> dict[str, list[float]]:
    """Click empty squares of the served Sandbox with ``view`` ("Log" or "Scores") shown."""
    beside = "log" if view == "Log" else "scores"
    names = BOARD_MARKS + [beside]
    out: dict[str, list[float]] = {"harness_drawn": [], "harness_whole": []}
    done = 0
    while done < clicks:
        page.goto(url)
        page.locator(".bk-Canvas").first.wait_for(timeout=60_000)
        page.get_by_role("button", name=view, exact=True).click()
        time.sleep(1.5)
        page.evaluate(PROBE)
        for target in _placement_targets(page):
            if done >= clicks:
                break
            x, y = canvas_point(page, target[0], target[1], G.WIDTH, G.HEIGHT)
            page.evaluate("() => window.__probe.arm('board')")
            out["harness_drawn"].append(click(page, x, y, hold_s, "drawn"))
            start = time.perf_counter()
            page.wait_for_function(
                "(names) => names.every((n) => n in window.__probe.marks)", arg=names, polling=5
            )
            out["harness_whole"].append(
                out["harness_drawn"][-1] + (time.perf_counter() - start) * 1000
            )
            marks = wait_marks(page, [f"{n}_painted" for n in names])
            for name in names:
                for mark in (name, f"{name}_painted"):
                    out.setdefault(mark, []).append(from_release(marks, mark))
            out.setdefault("drawn_painted_from_press", []).append(marks["drawn_painted"])
            out.setdefault("whole", []).append(max(from_release(marks, n) for n in names))
            out.setdefault("whole_painted", []).append(
                max(from_release(marks, f"{n}_painted") for n in names)
            )
            done += 1
            time.sleep(0.4)
    return out


def summary(name: str, values: list[float]) -> dict:
    return {
        "what": name,
        "clicks": len(values),
        "median_ms": round(statistics.median(values), 1),
        "p90_ms": round(sorted(values)[int(0.9 * (len(values) - 1))], 1),
        "min_ms": round(min(values), 1),
    }


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=40)
    parser.add_argument(
        "--hold-ms",
        type=float,
        default=100.0,
        help="how long each click holds the button down (default 100; 0: an instant click)",
    )
    args = parser.parse_args(argv)
    if args.clicks < 1 or not 0 <= args.hold_ms <= 2000:
        parser.error("--clicks must be at least 1 and --hold-ms between 0 and 2000")
    hold_s = args.hold_ms / 1000
    from playwright.sync_api import sync_playwright

    print(json.dumps({"load_average_at_start": load(), "hold_ms": args.hold_ms}), flush=True)
    with served(BARE_PANEL_APP, "bare") as bare_url, served(SANDBOX, "tutor") as board_url:
        with sync_playwright() as p:
            browser = launch(p)
            page = browser.new_page(viewport={"width": 1500, "height": 1100})
            bare = measure_bare(page, bare_url, args.clicks, hold_s)
            log = measure_board(page, board_url, args.clicks, "Log", hold_s)
            scores = measure_board(page, board_url, args.clicks, "Scores", hold_s)
            browser.close()
    keys = ("drawn", "drawn_painted", "drawn_painted_from_press", "confirmed", "harness_drawn")
    both = {k: log[k] + scores[k] for k in keys}
    both["confirmed_painted"] = log["confirmed_painted"] + scores["confirmed_painted"]
    report = [
        summary("bare Panel app: button click -> text updated (in page)", bare["text"]),
        summary(
            "bare Panel app: button click -> text updated, painted (in page)", bare["text_painted"]
        ),
        summary("tutor board: square click -> servant drawn (in page)", both["drawn"]),
        summary(
            "tutor board: square click -> servant drawn, painted (in page)", both["drawn_painted"]
        ),
        summary(
            "tutor board: square pressed -> servant drawn, painted, from the press (in page)",
            both["drawn_painted_from_press"],
        ),
        summary("tutor board: square click -> server's board update (in page)", both["confirmed"]),
        summary(
            "tutor page, log shown: click -> board, decision, players and log updated, painted "
            "(in page)",
            log["whole_painted"],
        ),
        summary(
            "tutor page, scores shown: click -> board, decision, players and scores updated, "
            "painted (in page)",
            scores["whole_painted"],
        ),
        summary("harness clock: bare app click -> text updated", bare["harness"]),
        summary("harness clock: tutor click -> servant drawn", both["harness_drawn"]),
        summary("harness clock: tutor page, log shown, whole page", log["harness_whole"]),
        summary("harness clock: tutor page, scores shown, whole page", scores["harness_whole"]),
    ]
    for row in report:
        print(json.dumps(row))
    by_name = {row["what"]: row for row in report}

    def median(prefix: str) -> float:
        return next(v["median_ms"] for k, v in by_name.items() if k.startswith(prefix))

    bare_painted = median("bare Panel app: button click -> text updated, painted")
    drawn_painted = median("tutor board: square click -> servant drawn, painted")
    print(
        json.dumps(
            {
                "hold_ms": args.hold_ms,
                "board_painted_median_over_bare_painted_median": round(
                    drawn_painted / bare_painted, 2
                ),
                "whole_page_painted_medians_ms": [
                    median("tutor page, log shown"),
                    median("tutor page, scores shown"),
                ],
                "goal": "board <= 0.5 x bare, and whole page median < 100 ms (in page, painted, "
                "from the release)",
                "load_average_at_end": load(),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
