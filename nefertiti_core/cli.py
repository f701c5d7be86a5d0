"""The ``nefertiti`` command.

    nefertiti simulate --players 4 --games 200 --seed 1 --json

A bad argument gets one line naming it and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys

from .errors import NefertitiError


class _ArgumentParser(argparse.ArgumentParser):
    """argparse, with errors on one line (the usage is one ``--help`` away)."""

    def error(self, message: str):  # noqa: D401 (argparse's signature)
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _players(text: str) -> int:
    value = _int(text)
    if value not in (3, 4):
        raise argparse.ArgumentTypeError(f"{text!r}: Nefertiti is for 3 or 4 players (R1.1)")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _ArgumentParser(
        prog="nefertiti", description="The Nefertiti rules tutor's command line."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_ArgumentParser)
    sub.required = True

    sim = sub.add_parser(
        "simulate",
        help="play complete games with random legal choices and report speed and scores",
        description="Play complete games with uniformly random legal choices. Game i is set "
        "up with seed SEED+i. R12's invariants are checked after every step unless --no-check.",
    )
    sim.add_argument("--players", type=_players, default=4, help="3 or 4 (default 4)")
    sim.add_argument("--games", type=_positive_int, default=200, help="games to play (200)")
    sim.add_argument("--seed", type=_int, default=0, help="seed of the first game (0)")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.add_argument(
        "--no-check", action="store_true", help="skip the invariant checks (for timing)"
    )
    sim.add_argument(
        "--layout", choices=("first", "random"), default="first", help="stall layout (R2.8)"
    )
    sim.add_argument(
        "--no-characters", action="store_true", help="the basic game, without characters"
    )
    sim.set_defaults(run=_run_simulate)
    return parser


def _run_simulate(args: argparse.Namespace) -> int:
    from .simulate import simulate

    report = simulate(
        args.games,
        args.players,
        args.seed,
        check=not args.no_check,
        layout=args.layout,
        characters=not args.no_characters,
    ).as_dict()
    if args.json:
        print(json.dumps(report))
    else:
        width = max(len(k) for k in report)
        for key, value in report.items():
            print(f"{key:<{width}}  {value}")
    return 1 if report["invariant_violations"] else 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except NefertitiError as error:
        print(f"nefertiti {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nefertiti: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
