"""``nefertiti serve``: the Sandbox as a web app for a group (one game per browser session).

The engine's command line knows nothing of Panel: this module plugs the ``serve`` command in
through the ``nefertiti.commands`` entry point (see pyproject.toml), and imports Panel only when
the command runs.
"""

from __future__ import annotations

import argparse
import logging
import sys

log = logging.getLogger("nefertiti.serve")

APP_NAME = "tutor"


def register(subparsers) -> None:
    """Add ``serve`` to the ``nefertiti`` command (called by nefertiti_core.cli)."""
    cmd = subparsers.add_parser(
        "serve",
        help="serve the Sandbox (live board, whole games) as a web app on this computer",
        description="Start the tutor's Sandbox as a web app. Each browser tab gets its own game. "
        "It listens on 127.0.0.1 unless --address says otherwise.",
    )
    cmd.add_argument("--port", type=_port, default=5006, help="TCP port (default 5006)")
    cmd.add_argument(
        "--address",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; 0.0.0.0 lets other computers connect)",
    )
    cmd.add_argument("--show", action="store_true", help="open a browser tab")
    cmd.set_defaults(run=run)


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r}: a port is from 1 to 65535")
    return value


def set_nodelay() -> None:
    """Send each websocket message at once (TCP_NODELAY).

    Bokeh writes one update as several small frames; with Nagle's algorithm on, the later ones
    wait for the browser's acknowledgement, about 40 ms per click here (../shared/STACK-NOTES.md).
    """
    from panel.io import server

    handler = server.WSHandler
    if getattr(handler, "_nefertiti_nodelay", False):
        return
    original = handler.open

    def open_with_nodelay(self, *args, **kwargs):
        try:
            self.set_nodelay(True)
        except Exception:  # pragma: no cover - a closed stream: nothing to speed up
            log.debug("could not set TCP_NODELAY", exc_info=True)
        return original(self, *args, **kwargs)

    handler.open = open_with_nodelay
    handler._nefertiti_nodelay = True


def _report_callback_error(error: BaseException) -> None:
    """A failing callback: logged on the server, shown to that browser session only."""
    import panel as pn

    log.error("callback failed", exc_info=error)
    try:
        if pn.state.notifications is not None:
            pn.state.notifications.error(f"Something went wrong: {error} (logged on the server)")
    except Exception:  # pragma: no cover - no session to tell
        log.debug("could not notify the session", exc_info=True)


def serve(port: int = 5006, address: str = "127.0.0.1", show: bool = False, **kwargs):
    """Serve the Sandbox; blocks until stopped (``threaded=True`` in kwargs returns a server)."""
    import panel as pn

    from .sandbox import make_app

    set_nodelay()
    pn.extension(notifications=True)
    pn.config.exception_handler = _report_callback_error
    origins = [f"{address}:{port}", f"localhost:{port}", f"127.0.0.1:{port}"]
    return pn.serve(
        {APP_NAME: make_app},
        port=port,
        address=address,
        show=show,
        title="Nefertiti tutor",
        websocket_origin=origins if address not in ("0.0.0.0", "::") else "*",
        **kwargs,
    )


def run(args: argparse.Namespace) -> int:
    try:
        import panel  # noqa: F401
    except ImportError:
        print(
            "nefertiti serve: error: Panel is not installed; install the tutor extras "
            "(make tutor, or pip install -e '.[tutor]')",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    host = args.address if args.address not in ("0.0.0.0", "::") else "127.0.0.1"
    print(f"Nefertiti tutor: http://{host}:{args.port}/{APP_NAME}  (Ctrl+C stops it)", flush=True)
    try:
        serve(args.port, args.address, args.show)
    except OSError as error:
        print(
            f"nefertiti serve: error: cannot listen on {args.address}:{args.port} ({error})",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        return 0
    return 0
