"""The largest message a page sends, and a client that sends the largest allowed without pause.

    .venv/bin/python benchmarks/message_flood.py [--seconds 10] [--skip-upload]

On 127.0.0.1 only:

1. **The largest legitimate message**: serves the Sandbox, opens it in Chromium, and uploads a
   file of exactly ``MAX_FILE_BYTES`` (1 MiB, the most a position file may be) through the real
   file input ("New game and files"); the websocket frames the page sends are recorded
   (Playwright's ``framesent``) and the largest is printed, with whether the file loaded.
2. **A flood of large messages**, twice: the Sandbox served as before #29 (``MAX_MESSAGE_BYTES``
   8 MiB, no byte budget per page) and as now. A client loads ``/tutor``, opens its websocket and
   sends, without pause, Bokeh messages whose content is just under the server's cap (an empty
   ``PATCH-DOC`` with padding: Bokeh reads it whole); when its connection is closed it loads the
   page again (within the per-client rate of ``nefertiti serve``'s defaults) and goes on. For ``--seconds`` the server's CPU time
   (``/proc/PID/stat``) and resident memory (``VmRSS``, sampled every 20 ms; its peak and at the
   end) are measured, with the bytes and messages the client got sent.

Prints one JSON line per figure, with the machine's load average (a shared 2-core machine).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from session_flood import cpu_seconds, load, start_server, stop  # noqa: E402

from nefertiti_core.engine.limits import MAX_FILE_BYTES  # noqa: E402

SIMPLE = "nefertiti: 1\nplayers:\n- colour: red\n- colour: blue\n- colour: green\n- colour: black\n"
#: The served app before #29's message limits: an 8 MiB cap and no byte budget per page.
BEFORE = ", max_message_bytes=8 * 1024 * 1024, message_bytes_per_window=0"
NOW = ""


def largest_file(path: Path) -> Path:
    """A position file of exactly MAX_FILE_BYTES (comments fill it)."""
    line = "# " + "x" * 97 + "\n"
    text = SIMPLE + "title: The largest file\n"
    while len(text.encode()) + len(line) <= MAX_FILE_BYTES:
        text += line
    text += "#" * (MAX_FILE_BYTES - len(text.encode()) - 1) + "\n"
    assert len(text.encode()) == MAX_FILE_BYTES
    path.write_text(text, encoding="utf-8")
    return path


def largest_upload() -> dict:
    from playwright.sync_api import sync_playwright
    from support import launch

    process, port = start_server()
    try:
        with sync_playwright() as p:
            browser = launch(p)
            context = browser.new_context(viewport={"width": 1500, "height": 1150})
            page = context.new_page()
            sent: list[int] = []
            page.on(
                "websocket",
                lambda ws: ws.on(
                    "framesent",
                    lambda payload: sent.append(
                        len(payload.encode() if isinstance(payload, str) else payload)
                    ),
                ),
            )
            page.goto(f"http://127.0.0.1:{port}/tutor", timeout=120_000)
            page.locator(".bk-Canvas").first.wait_for(timeout=120_000)
            page.get_by_role("button", name="New game and files", exact=True).click()
            path = largest_file(Path(tempfile.mkdtemp()) / "largest.yaml")
            page.locator("input[type=file]").set_input_files(str(path))
            loaded = page.get_by_text("Loaded largest.yaml", exact=False)
            loaded.first.wait_for(timeout=120_000)
            browser.close()
    finally:
        stop(process)
    return {
        "what": "largest message of a page: a MAX_FILE_BYTES upload",
        "file_bytes": MAX_FILE_BYTES,
        "largest_frame_bytes": max(sent),
        "loaded": True,
        "load_average": load(),
    }


def rss_mb(pid: int) -> float:
    match = re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{pid}/status").read_text())
    return int(match.group(1)) / 1024 if match else 0.0


class Flooder(threading.Thread):
    """Loads /tutor, opens its websocket, sends the largest messages the cap lets through until
    ``until``; reconnects when closed."""

    def __init__(self, port: int, size: int, until: float):
        super().__init__(daemon=True)
        self.port, self.size, self.until = port, size, until
        self.sent_bytes = self.messages = self.connections = self.refused_pages = 0

    def run(self) -> None:
        asyncio.run(self._flood())

    async def _flood(self) -> None:
        from tornado.httpclient import AsyncHTTPClient, HTTPRequest
        from tornado.websocket import WebSocketClosedError, websocket_connect

        client = AsyncHTTPClient()
        base = f"127.0.0.1:{self.port}"
        pad = "A" * (self.size - 64)
        while time.monotonic() < self.until:
            page = await client.fetch(f"http://{base}/tutor", raise_error=False)
            if page.code != 200:
                self.refused_pages += 1
                await asyncio.sleep(0.5)
                continue
            token = re.search(rb'"token":"([^"]+)"', page.body).group(1).decode()
            request = HTTPRequest(f"ws://{base}/tutor/ws", headers={"Origin": f"http://{base}"})
            ws = await websocket_connect(
                request, subprotocols=["bokeh", token], max_message_size=1 << 30
            )
            self.connections += 1
            await ws.read_message()  # Bokeh's ACK
            n = 0
            try:
                while time.monotonic() < self.until:
                    n += 1
                    header = json.dumps({"msgid": str(n), "msgtype": "PATCH-DOC", "num_buffers": 0})
                    content = '{"events":[],"pad":"' + pad + '"}'
                    for fragment in (header, "{}", content):
                        await ws.write_message(fragment)
                    self.sent_bytes += len(content)
                    self.messages += 1
                    if ws.protocol is None or ws.close_code is not None:
                        break
                    await asyncio.sleep(0)
            except (WebSocketClosedError, OSError):
                pass
            ws.close()


def flood(seconds: float, extra: str, name: str) -> dict:
    process, port = start_server(extra)
    try:
        import subprocess

        cap = int(
            subprocess.run(
                [sys.executable, "-c", "import widgets.serve as S; print(S.MAX_MESSAGE_BYTES)"],
                cwd=ROOT,
                capture_output=True,
                text=True,
            ).stdout
        )
        size = 8 * 1024 * 1024 - 4096 if "8 * 1024" in extra else cap - 4096
        time.sleep(1)
        rss_start, cpu_start = rss_mb(process.pid), cpu_seconds(process.pid)
        flooder = Flooder(port, size, time.monotonic() + seconds)
        flooder.start()
        peak = rss_start
        while flooder.is_alive():
            peak = max(peak, rss_mb(process.pid))
            time.sleep(0.02)
        cpu = cpu_seconds(process.pid) - cpu_start
        rss_end = rss_mb(process.pid)
    finally:
        stop(process)
    return {
        "what": f"{seconds:g} s of the largest messages from one client ({name})",
        "message_bytes": size,
        "messages_sent": flooder.messages,
        "mb_sent": round(flooder.sent_bytes / 1e6, 1),
        "connections": flooder.connections,
        "server_cpu_s": round(cpu, 2),
        "server_rss_mb_start": round(rss_start),
        "server_rss_mb_peak": round(peak),
        "server_rss_mb_end": round(rss_end),
        "load_average": load(),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--skip-upload", action="store_true")
    args = parser.parse_args(argv)
    if not args.skip_upload:
        print(json.dumps(largest_upload()), flush=True)
    for name, extra in (("before: 8 MiB, no budget", BEFORE), ("now", NOW)):
        print(json.dumps(flood(args.seconds, extra, name)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
