"""The ``nefertiti`` command.

    nefertiti simulate --players 4 --games 200 --seed 1 --json
    nefertiti hint position.yaml --lang de
    nefertiti tournament --players 4 --bots greedy,random,random,random --games 400 --seed 1
    nefertiti odds position.yaml --playouts 1000 --bots greedy --option "place louqsor.left#2"

A bad argument gets one line naming it and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib.metadata import entry_points

from .engine.errors import NefertitiError
from .engine.i18n import DEFAULT_LANGUAGE, LANGUAGES, CatalogError, language_from_environment, tr
from .engine.limits import MAX_COUNT, one_line
from .engine.said_text import in_lang
from .teaching.cli_words import (
    WordedFormatter,
    current_language,
    described,
    headed,
    help_language,
    listed,
    noted,
    said,
    said_error,
    speaking,
)


class _ArgumentParser(argparse.ArgumentParser):
    """argparse, with errors on one line (the usage is one ``--help`` away), in the language of
    the command's help (:mod:`.teaching.cli_words`)."""

    def error(self, message: str):  # noqa: D401 (argparse's signature)
        self.exit(2, said_error(self.lang, self.prog, message, see_help=True) + "\n")

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", WordedFormatter)
        super().__init__(*args, **kwargs)
        self.lang = current_language()

    def format_help(self) -> str:
        english = self.description
        self.description = described(self.prog, english)
        try:
            return headed(super().format_help(), self.lang)
        finally:
            self.description = english


def _positive_int(text: str) -> int:
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(said("cli.value.at_least_1", value=repr(text[:40])))
    return value


def number_in(low: float, high: float, kind=int, name: str | None = None):
    """An argparse ``type`` reading a ``kind`` (int or float) from ``low`` to ``high``, refused
    in one line otherwise (in the running command's language); ``name`` (the option) is what
    argparse's message calls it. Used by ``nefertiti serve``'s limits and the benchmark scripts."""
    word = "cli.value.not_whole" if kind is int else "cli.value.not_number"

    def read(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(said(word, value=repr(text[:40]))) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                said("cli.value.not_in_range", value=value, low=low, high=high)
            )
        return value

    if name:
        read.__name__ = name  # argparse names the option in its message
    return read


def _int(text: str) -> int:
    if len(text.strip().lstrip("+-")) > 12:
        raise argparse.ArgumentTypeError(said("cli.value.digits", value=repr(text[:40])))
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            said("cli.value.not_whole", value=repr(text[:40]))
        ) from None
    if abs(value) > MAX_COUNT:
        raise argparse.ArgumentTypeError(said("cli.value.digits", value=repr(text[:40])))
    return value


def _players(text: str) -> int:
    value = _int(text)
    if value not in (3, 4):
        raise argparse.ArgumentTypeError(said("cli.value.players", value=repr(text[:40])))
    return value


def build_parser(lang: str | None = None) -> argparse.ArgumentParser:
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

    exp = sub.add_parser(
        "explain",
        help="a position in words: who decides, the options with previews, each market's status",
        description="Explain a position: a scenario file (its starting position, before its "
        "moves) or a game record (the position after its moves).",
    )
    exp.add_argument("file", help="a scenario (.yaml) or a game record")
    _add_lang(exp, lang)
    exp.add_argument("--no-previews", action="store_true", help="list options without previews")
    exp.set_defaults(run=_run_explain)

    rep = sub.add_parser(
        "replay",
        help="narrate a game record (or a scenario's moves) step by step",
        description="Play a record's moves (or a scenario's moves) and explain every step. "
        "With --to N, stop after step N and print that position as a scenario file.",
    )
    rep.add_argument("file", help="a game record or a scenario with moves")
    rep.add_argument(
        "--to", type=_non_negative_int, default=None, metavar="N", help="stop at step N"
    )
    _add_lang(rep, lang)
    rep.set_defaults(run=_run_replay)

    hint = sub.add_parser(
        "hint",
        help="the options of a position ranked, with reasons in the rules' terms",
        description="Rank the options of a position (a scenario file's starting position, or a "
        "game record's position after its moves) and give each one's reasons with rule IDs. "
        "VALUE is an estimate in prestige points ahead of the opponents (higher is better).",
    )
    hint.add_argument("file", help="a scenario (.yaml) or a game record")
    _add_lang(hint, lang)
    hint.add_argument("--seed", type=_int, default=0, help="seed of the playouts (0)")
    hint.add_argument(
        "--time-budget",
        type=_positive_float,
        default=1.0,
        metavar="SECONDS",
        help="most time to spend (1.0)",
    )
    hint.set_defaults(run=_run_hint)

    odd = sub.add_parser(
        "odds",
        help="play a position out many times with bots: win chances, scores, next market to close",
        description="Play a position (a scenario file's starting position, or a game record's "
        "position after its moves) out to the end PLAYOUTS times with bots in every seat. Each "
        "playout reshuffles the cards nobody has seen (the Akhenaton card kept among the bottom "
        "five, R2.2) and rolls its own dice. Reports each seat's win chance with its 95% "
        "interval (a shared win counts 1/k, R9.2), mean final score, and how often each market "
        "closes next. With --option, every playout plays that option first (what-if); for a "
        "Louqsor roll the exact closing chance is given beside the sampled one. The same seed "
        "gives the same report whatever --workers.",
    )
    odd.add_argument("file", help="a scenario (.yaml) or a game record")
    _add_lang(odd, lang)
    odd.add_argument("--playouts", type=_positive_int, default=1000, help="playouts (1000)")
    odd.add_argument(
        "--bots",
        type=_bot_list,
        default=("greedy",),
        metavar="KIND[,KIND,...]",
        help="one bot kind for every seat, or one per seat (default greedy; kinds: "
        + ", ".join(_kinds())
        + ")",
    )
    odd.add_argument("--option", default=None, help="an option of the position to study first")
    odd.add_argument("--seed", type=_int, default=0, help="seed of the playouts (0)")
    odd.add_argument(
        "--workers", type=_positive_int, default=None, help="local processes (all cores)"
    )
    odd.add_argument(
        "--cluster",
        type=_scheduler_address,
        default=None,
        metavar="ADDRESS",
        help="play on a Dask cluster: its scheduler's address (tcp://host:port); the run "
        "survives losing workers while one is left, and says how many were lost",
    )
    odd.add_argument("--json", action="store_true", help="print one JSON object")
    odd.set_defaults(run=_run_odds)

    tour = sub.add_parser(
        "tournament",
        help="bots play seat-rotated games: win rates with 95%% intervals and mean scores",
        description="Bots play complete games against each other. Game i is set up with seed "
        "SEED+i and the --bots list is rotated by i seats (seat s gets entry (s-i) mod players), "
        "so over a multiple of the players every entry sits in every seat equally often. Wins "
        "are counted per seat and game, fractionally: a win shared by k players (R9.2) counts "
        "1/k for each, so par is 1/players. A kind listed several times is aggregated over its "
        "seats. Intervals are Wilson's 95% score intervals over the seat-games. The results do "
        "not depend on --workers.",
    )
    tour.add_argument(
        "--bots",
        type=_bot_list,
        required=True,
        metavar="KIND,KIND,...",
        help="one bot kind per seat, comma-separated (kinds: " + ", ".join(_kinds()) + ")",
    )
    tour.add_argument("--players", type=_players, default=4, help="3 or 4 (default 4)")
    tour.add_argument("--games", type=_positive_int, default=400, help="games to play (400)")
    tour.add_argument("--seed", type=_int, default=0, help="seed of the first game (0)")
    tour.add_argument(
        "--workers",
        type=_positive_int,
        default=None,
        help="worker processes (default: the machine's cores)",
    )
    tour.add_argument(
        "--time-limit",
        type=_positive_float,
        default=None,
        metavar="SECONDS",
        help="thinking time per decision, for the bots that take it (mcts)",
    )
    tour.add_argument(
        "--iterations",
        type=_positive_int,
        default=None,
        help="search iterations per decision, for the bots that take it (mcts)",
    )
    tour.add_argument(
        "--layout", choices=("first", "random"), default="first", help="stall layout (R2.8)"
    )
    tour.add_argument("--json", action="store_true", help="print one JSON object")
    tour.set_defaults(run=_run_tournament)

    rules = sub.add_parser(
        "rules",
        help="the rules reference: a rule's text by ID (R3.5), a search by words, or the list",
        description="Read the rules reference. With an ID (R3.5, r6), print that rule's title "
        "and text; with words (closing, Louqsor dice), list the rules that use them; with "
        "nothing, list every rule. Entries marked * are the project's reading or estimate.",
    )
    rules.add_argument("query", nargs="*", help="a rule ID, or words to search for")
    _add_lang(rules, lang)
    rules.set_defaults(run=_run_rules)

    check = sub.add_parser(
        "check",
        help="check a position file and its exercises: every answer asked of the engine",
        description="Load a position file (a scenario) and check it, then make each exercise "
        "of its exercises: block and ask the engine: the steps must be legal, the question must "
        "have one answer, and a written answer must be the engine's. A mistake is one line with "
        "the file, the line and the field (docs/scenario-format.md).",
    )
    check.add_argument("file", help="a scenario (.yaml)")
    _add_lang(check, lang)
    check.set_defaults(run=_run_check)

    # Commands of other packages (the widgets' ``serve``) plug in through an entry point, so the
    # engine never imports UI code.
    for entry in entry_points(group="nefertiti.commands"):
        try:
            entry.load()(sub)
        except ImportError as error:  # that package's dependencies are not installed
            missing = sub.add_parser(entry.name, help=f"(unavailable: {error})")
            missing.set_defaults(run=lambda args, e=error, n=entry.name: _unavailable(n, e))
    return parser


def _unavailable(name: str, error: Exception) -> int:
    why = said("cli.run.unavailable", why=_missing(error))
    print(said_error(current_language(), f"nefertiti {name}", why), file=sys.stderr)
    return 2


def _missing(error: ImportError) -> str:
    """What an ImportError lacks, in the running command's language: a package it names (the
    English is Python's own sentence), else Python's message."""
    name = getattr(error, "name", None)
    if (
        isinstance(error, ModuleNotFoundError)
        and name
        and str(error) == f"No module named {name!r}"
    ):
        return said("cli.run.no_module", name=name)
    return str(error)


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            said("cli.value.not_number", value=repr(text[:40]))
        ) from None
    if not 0.001 <= value <= 86_400:
        raise argparse.ArgumentTypeError(said("cli.value.seconds", value=repr(text[:40])))
    return value


def _kinds() -> tuple[str, ...]:
    from .play.bots import bot_kinds

    return bot_kinds()


def _bot_list(text: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(","))
    known = _kinds()
    for kind in kinds:
        if kind not in known:
            raise argparse.ArgumentTypeError(
                said("cli.value.bot_kind", value=repr(kind[:40]), kinds=listed(known))
            )
    return kinds


def _non_negative_int(text: str) -> int:
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(said("cli.value.at_least_0", value=repr(text[:40])))
    return value


def _add_lang(parser: argparse.ArgumentParser, default: str | None) -> None:
    """A command's ``--lang``; left out, it is ``default`` (a notebook's lesson language,
    :func:`output_of`), else ``NEFERTITI_LANG``, else English (:func:`_lang`)."""
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=default,
        help="language (en, de, zh; default: NEFERTITI_LANG, else en)",
    )


def _lang(args: argparse.Namespace) -> str:
    """The language a command speaks: ``--lang`` (or the caller's default), else
    ``NEFERTITI_LANG`` (a bad one raises CatalogError, said by :func:`main`), else English. A
    command without ``--lang`` prints English figures; its help and its error lines speak the
    help's language (:func:`.teaching.cli_words.help_language`), where a bad variable is not an
    error but English."""
    if not hasattr(args, "lang"):
        return DEFAULT_LANGUAGE
    return args.lang or language_from_environment() or DEFAULT_LANGUAGE


def _load_any(path: str, lang: str = "en"):
    """A scenario or a game record from a file: (start state, steps, teaching text by language)."""
    from pathlib import Path

    from .engine.limits import FileLimitError, echo, read_text
    from .engine.said import file_limit
    from .files.history import GameRecord, load_any
    from .files.scenario import ScenarioError

    file = Path(path)
    try:
        text = read_text(file)  # a regular file, at most MAX_FILE_BYTES, BOM dropped (limits.py)
    except FileLimitError as error:
        raise ScenarioError(echo(path, 80)[1:-1], (), file_limit(error)) from None
    loaded = load_any(text, file.name)
    if isinstance(loaded, GameRecord):
        return loaded.start, loaded.steps, "", True, file.name
    scenario = loaded
    for warning in scenario.warnings_in(lang):
        print(said("cli.run.warning", file=file.name, message=warning), file=sys.stderr)
    teaching = {lang: scenario.teaching_in(lang) for lang in ("en", "de", "zh")}
    return scenario.state, scenario.moves, teaching, False, file.name


def _run_explain(args: argparse.Namespace) -> int:
    from .files.history import GameRecord
    from .teaching.textview import position_text

    start, steps, teaching, is_record, name = _load_any(args.file, _lang(args))
    state = start
    if is_record:
        state = GameRecord(start, steps).replay(source=name).state
    if teaching and teaching.get(args.lang):  # in the language asked for, else English
        print(teaching[args.lang].rstrip() + "\n")
    print(position_text(state, args.lang, previews=not args.no_previews, notation=True))
    return 0


def _run_replay(args: argparse.Namespace) -> int:
    from .engine.said import refused
    from .engine.said_text import Said
    from .files.history import History
    from .files.scenario import ScenarioError, dumps_scenario
    from .teaching.explain import narrate

    start, steps, _, _, name = _load_any(args.file, _lang(args))
    start.log = []
    if args.to is not None and args.to > len(steps):
        too_far = Said("cli.run.replay_too_far", to=args.to, steps=len(steps))
        raise ScenarioError(name, ("moves",), too_far)
    history = History(start)
    upto = len(steps) if args.to is None else args.to
    seen = 0
    for index, text in enumerate(steps[:upto]):
        try:
            state = history.play(text)
        except NefertitiError as error:
            raise ScenarioError(name, ("moves", index), refused(history.state, error)) from None
        if args.to is None:
            print(f"{index + 1}. {text}")
            for line in narrate(state, args.lang, seen):
                print(f"   {line}")
        seen = len(state.log)
    if args.to is not None:
        print(dumps_scenario(history.state, title=f"{name}, after step {upto}"), end="")
    return 0


def _run_simulate(args: argparse.Namespace) -> int:
    from .play.simulate import simulate

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


def _run_hint(args: argparse.Namespace) -> int:
    from .files.history import GameRecord
    from .play.hints import hints

    start, steps, _, is_record, name = _load_any(args.file, _lang(args))
    state = GameRecord(start, steps).replay(source=name).state if is_record else start
    found = hints(state, args.lang, time_budget=args.time_budget, seed=args.seed)
    if not found:
        why = said("cli.run.game_over" if state.is_over else "cli.run.no_option", file=name)
        print(said_error(args.lang, "nefertiti hint", why), file=sys.stderr)
        return 2
    for h in found:
        print(f"{h.rank}. [{h.value:+.1f}] {h.text}")
        for reason in h.reasons:
            print(f"     - {reason}")
    return 0


def _scheduler_address(text: str) -> str:
    from .play.odds import check_scheduler_address

    try:
        return check_scheduler_address(text)
    except NefertitiError as error:
        raise argparse.ArgumentTypeError(error.message(current_language())) from None


def _run_odds(args: argparse.Namespace) -> int:
    from .files.history import GameRecord
    from .play.odds import odds

    start, steps, _, is_record, name = _load_any(args.file, _lang(args))
    state = GameRecord(start, steps).replay(source=name).state if is_record else start
    bots = args.bots[0] if len(args.bots) == 1 else args.bots
    if args.cluster:
        import logging

        # Dask's client logs each chunk it fetches again after a worker is lost; the run says
        # what matters itself (the workers lost, or why it stopped), in one line. Dask sets its
        # loggers' levels when it is imported, so they are quietened after that.
        try:
            import distributed  # noqa: F401
        except ImportError:  # odds() says what is missing
            pass
        for logger in [*logging.root.manager.loggerDict, "distributed"]:
            if logger == "distributed" or logger.startswith("distributed."):
                logging.getLogger(logger).setLevel(logging.ERROR)
    try:
        report = odds(
            state,
            playouts=args.playouts,
            bots=bots,
            seed=args.seed,
            workers=args.workers,
            cluster=args.cluster,
            option=args.option,
        )
    except NefertitiError as error:  # a mistyped --option, in the command's language
        why = said("cli.run.in_file", file=name, message=error.message(args.lang))
        print(said_error(args.lang, "nefertiti odds", why), file=sys.stderr)
        return 2
    # A run that lost every Dask worker (or its scheduler) reports what it played, then fails.
    stopped = None
    if report.stopped:
        why = said(
            "cli.run.stopped",
            reason=in_lang(report.stopped, args.lang),
            done=report.playouts,
            requested=report.requested,
        )
        stopped = said_error(args.lang, "nefertiti odds", why)
    lost = None
    if report.workers_lost:
        from .teaching.explain import count_key

        kind = "lost" if stopped else "replayed"
        lost = said(count_key(f"cli.run.{kind}", report.workers_lost), count=report.workers_lost)
    if args.json:
        print(json.dumps(report.as_dict()))
        if lost:
            print(noted("nefertiti odds", lost), file=sys.stderr)
        if stopped:
            print(stopped, file=sys.stderr)
        return 1 if stopped else 0
    from .teaching.odds_text import odds_lines

    for line in odds_lines(report, args.lang):
        print(line)
    if lost:
        print(lost)
    if stopped:
        print(stopped, file=sys.stderr)
        return 1
    return 0


def _run_tournament(args: argparse.Namespace) -> int:
    from .play.tournament import tournament

    prog, lang = "nefertiti tournament", current_language()
    if len(args.bots) != args.players:
        why = said("cli.run.bots_per_seat", count=len(args.bots), players=args.players)
        print(said_error(lang, prog, why, see_help=True), file=sys.stderr)
        return 2
    try:
        report = tournament(
            args.bots,
            args.games,
            args.seed,
            workers=args.workers,
            bot_options={"time_limit": args.time_limit, "iterations": args.iterations},
            layout=args.layout,
        )
    except ImportError as error:  # a bot kind whose optional package is not installed
        print(said_error(lang, prog, _missing(error)), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.as_dict()))
    else:
        print(report.table())
    return 0


def _run_rules(args: argparse.Namespace) -> int:
    from .engine.i18n import tr
    from .teaching.rules_reference import get, normalise, search

    query = " ".join(args.query).strip()
    if query and normalise(query):
        rule = get(query, args.lang)  # an unknown ID: one line, exit 2 (main)
        if rule.id != normalise(query):
            print(tr(args.lang, "rules.section_of", asked=normalise(query), id=rule.id))
        print(f"{rule.id}  {rule.title}{' *' if rule.reading else ''}\n\n{rule.text}")
        return 0
    found = search(query, args.lang)
    if not found:
        print(
            noted("nefertiti rules", said("cli.run.no_rule", query=repr(query[:60]))),
            file=sys.stderr,
        )
        return 1
    width = max(len(rule.id) for rule in found)
    for rule in found:
        print(f"{rule.id:<{width}}  {rule.title}{' *' if rule.reading else ''}")
    if any(rule.reading for rule in found):
        print("\n" + tr(args.lang, "rules.footnote"))
    return 0


def _run_check(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .engine.limits import FileLimitError, echo, read_text
    from .engine.said import file_limit
    from .engine.said_text import Said
    from .files.exercises import build_exercise, check_entry
    from .files.history import GameRecord, load_any
    from .files.scenario import ScenarioError
    from .teaching.explain import count_key

    name = Path(args.file).name
    try:
        text = read_text(args.file)  # a regular file, at most MAX_FILE_BYTES (limits.py)
    except FileLimitError as error:
        raise ScenarioError(echo(args.file, 80)[1:-1], (), file_limit(error)) from None
    scenario = load_any(text, name)
    if isinstance(scenario, GameRecord):
        raise ScenarioError(name, (), Said("cli.run.check_record"))
    for warning in scenario.warnings_in(args.lang):
        print(said("cli.run.warning", file=name, message=warning), file=sys.stderr)
    written = 0
    for entry in scenario.exercises:
        exercise = build_exercise(entry, scenario.state, scenario=args.file)
        check_entry(entry, exercise, scenario.state)
        truth = exercise.right_answer()
        right = exercise.check(truth[0] if isinstance(truth, tuple) else truth, args.lang)
        agrees = said("cli.run.check_agrees") if entry.has_answer else ""
        written += entry.has_answer
        line = {"id": entry.id, "kind": entry.kind, "answer": right.right_answer}
        print(said("cli.run.check_line", **line, agrees=agrees))
    count = len(scenario.exercises)
    exercises = said(count_key("cli.run.exercises", count), count=count)
    answers = said(count_key("cli.run.answers", written), count=written)
    print(said("cli.run.check_summary", file=name, exercises=exercises, answers=answers))
    return 0


def output_of(argv: list[str], lang: str | None = None) -> str:
    """What ``nefertiti <argv>`` prints (its output and its messages), as text: for a notebook
    that shows a command's answer on the page. ``lang`` is the ``--lang`` of a command that has
    one when ``argv`` does not say (the process's environment is not touched, so sessions in
    other threads are not affected). Never raises, ``--help`` and errors included."""
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
        try:
            main(argv, lang)
        except SystemExit:  # argparse's --help and usage errors end this way
            pass
    return buffer.getvalue().rstrip()


def main(argv: list[str] | None = None, lang: str | None = None) -> int:
    """Run ``nefertiti <argv>``; ``lang`` is the default of a command's ``--lang``."""
    argv = sys.argv[1:] if argv is None else list(argv)
    help_lang = help_language(argv, lang)  # the help and a usage error speak it
    with speaking(help_lang, kinds=", ".join(_kinds())):
        args = build_parser(lang).parse_args(argv)
    prog = f"nefertiti {args.command}"
    if hasattr(args, "lang"):  # only a command that speaks a language reads NEFERTITI_LANG
        try:
            args.lang = _lang(args)
        except CatalogError as error:
            print(said_error(help_lang, prog, str(error)), file=sys.stderr)
            return 2
    # A command speaks its --lang; one without it, the language of its help (its messages).
    lang = args.lang if hasattr(args, "lang") else help_lang
    try:
        with speaking(lang):
            return args.run(args)
    except NefertitiError as error:  # a file's error in the command's language (ScenarioError)
        print(one_line(said_error(lang, prog, error.message(lang))), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(tr(lang, "cli.run.interrupted"), file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
