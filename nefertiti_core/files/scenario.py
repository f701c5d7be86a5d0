"""Position (scenario) files: a game position a teacher writes by hand, and any state saved exactly.

The format (version 1) is documented with examples in ``docs/scenario-format.md``. Loading is
safe (a YAML subset read by :mod:`.yaml_subset`, no code runs) and checks everything; every error
names the file, the line, the field's path and what is wrong, e.g.::

    gizeh-four.yaml: line 14: markets.gizeh.servants.9: Gizeh's left stall has squares 0 to 6

A position that breaks a conservation rule on purpose (extra Deben for a what-if) loads with a
warning that says so. :func:`save` writes any state so that :func:`load` gives it back identical
(the same :meth:`GameState.state_hash`), mid-resolution included.
"""

from __future__ import annotations

import base64
import json
import random
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from ..engine import options as O
from ..engine import rules as R
from ..engine.errors import NefertitiError
from ..engine.i18n import LANGUAGES
from ..engine.invariants import violations
from ..engine.limits import (
    MAX_FORCED_ROLLS,
    MAX_RANDOM_STATE_BYTES,
    MAX_RANDOM_STATE_CHARS,
    MAX_TEXT_CHARS,
    MAX_TITLE_CHARS,
    FileLimitError,
    echo,
    read_text,
)
from ..engine.said import file_limit, in_lang, refused, said
from ..engine.state import (
    AFTER_ACTION,
    AFTER_REROLL,
    CLOSED,
    OPEN,
    P_BID,
    P_CHIEF,
    P_EXCHANGE_GIVE,
    P_EXCHANGE_TAKE,
    P_OVER,
    P_PLACE,
    P_REROLL,
    P_ROYAL,
    P_SCRIBE,
    P_SHAME,
    P_TAKE,
    P_TREASURER_AMOUNT,
    P_TREASURER_MARKET,
    P_TURN,
    Config,
    GameState,
    with_item,
)
from .exercise_block import read_block
from .reader import Reader, ScenarioError, read_moves
from .yaml_subset import Document, YamlError, dumps, loads

FORMAT_VERSION = 1

TOP_LEVEL = (
    "nefertiti",
    "title",
    "players",
    "turn",
    "turn_number",
    "seed",
    "random_state",
    "options",
    "markets",
    "characters",
    "deck",
    "out_of_game",
    "dice",
    "pending",
    "forced",
    "moves",
    "teaching",
    "exercises",
)
SEAT_FIELDS = ("colour", "deben", "seals", "prestige", "gifts")
MARKET_FIELDS = ("stall", "state", "reserve", "upper", "seal", "lower", "servants")
MARKET_STATES = ("open", "tile", "closed", "akhenaton")
OPTION_FIELDS = ("characters", "variants", "gift_values")
DECK_FIELDS = ("order", "top", "shuffle", "akhenaton")
DICE_FIELDS = ("holder", "rolled_on_turn", "last_roll")
PENDING_FIELDS = (
    "phase",
    "decider",
    "placements_left",
    "recruited",
    "resolution",
    "character",
    "exchanges_done",
    "exchange_partners",
    "exchange_take",
    "treasurer_market",
)
PHASES = (
    P_TURN,
    P_PLACE,
    P_TAKE,
    P_SHAME,
    P_BID,
    P_EXCHANGE_TAKE,
    P_EXCHANGE_GIVE,
    P_CHIEF,
    P_ROYAL,
    P_SCRIBE,
    P_TREASURER_MARKET,
    P_TREASURER_AMOUNT,
    P_REROLL,
    P_OVER,
)


@dataclass
class Scenario:
    """A loaded position, with what the file says to do with it."""

    state: GameState
    title: str = ""
    teaching: str = ""
    moves: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    source: str = "<text>"
    titles: dict[str, str] = field(default_factory=dict)  # language -> title, when translated
    teachings: dict[str, str] = field(default_factory=dict)  # language -> teaching text
    #: The questions the file asks on the position (its ``exercises:`` block), checked as data;
    #: :func:`.exercises.exercises_in` makes them exercises and has the engine check them.
    exercises: list = field(default_factory=list)

    def title_in(self, lang: str) -> str:
        """The title in ``lang`` when the file has it, else the English one."""
        return self.titles.get(lang) or self.title

    def warnings_in(self, lang: str) -> list[str]:
        """The file's warnings in ``lang`` (``warnings`` holds them in English)."""
        return [in_lang(warning, lang) for warning in self.warnings]

    def teaching_in(self, lang: str) -> str:
        """The teaching text in ``lang`` when the file has it, else the English one."""
        return self.teachings.get(lang) or self.teaching

    def play_moves(self, upto: int | None = None) -> GameState:
        """Play the file's moves (all, or the first ``upto``) on the position; returns the state."""
        from ..engine.steps import apply_step, parse_step  # moves may fix chance: "roll 3 5" (R4.4)

        for index, text in enumerate(self.moves[:upto]):
            try:
                apply_step(self.state, parse_step(self.state, text))
            except NefertitiError as error:
                problem = refused(self.state, error)
                raise ScenarioError(self.source, ("moves", index), problem) from None
        return self.state


# ------------------------------------------------------------------------------------- loading
def load(path: str | Path) -> Scenario:
    """Load a scenario file. Raises :class:`ScenarioError` naming what is wrong and where."""
    path = Path(path)
    try:
        text = read_text(path)  # a regular file of at most MAX_FILE_BYTES (limits.py)
    except FileLimitError as error:
        raise ScenarioError(str(path), (), file_limit(error)) from None
    return loads_scenario(text, path.name)


def loads_scenario(text: str, source: str = "<text>") -> Scenario:
    """Load a scenario from YAML text."""
    if not isinstance(text, str):
        raise ScenarioError(str(source), (), said("file.not_text", value=echo(text)))
    try:
        doc = loads(text)
    except YamlError as error:
        raise ScenarioError(source, (), error.problem, error.line) from None
    return from_data(doc.data, source, doc)


def from_data(data, source: str = "<data>", doc: Document | None = None) -> Scenario:
    """Build the position from already-parsed data (a dict in the file format)."""
    rd = Reader(source, doc or Document(data))
    if not isinstance(data, dict):
        rd.fail((), said("file.not_mapping"))
    rd.mapping(data, (), TOP_LEVEL)
    if "nefertiti" not in data:
        rd.fail((), said("file.no_version"))
    version = data["nefertiti"]
    if version != FORMAT_VERSION:
        rd.fail(("nefertiti",), said("file.bad_version", version=echo(version)))

    # --- players (R1) -------------------------------------------------------------------------
    seats = rd.sequence(data.get("players"), ("players",))
    if len(seats) not in (3, 4):
        rd.fail(("players",), said("file.player_count", count=str(len(seats))))
    colours = []
    for i, seat in enumerate(seats):
        seat = rd.mapping(seat, ("players", i), SEAT_FIELDS)
        if "colour" not in seat:
            rd.fail(("players", i), said("file.player_needs_colour"))
        colour = rd.choice(seat["colour"], ("players", i, "colour"), R.COLOURS, "colour")
        if colour in colours:
            rd.fail(("players", i, "colour"), said("file.colour_taken", colour=colour))
        colours.append(colour)
    n = len(seats)

    def seat_of(value, path):
        return colours.index(rd.choice(value, path, colours, "player colour"))

    turn = seat_of(data.get("turn", colours[0]), ("turn",))

    # --- options and the random source ----------------------------------------------------------
    opts = rd.mapping(data.get("options"), ("options",), OPTION_FIELDS)
    characters_on = rd.boolean(opts.get("characters", True), ("options", "characters"))
    variants = tuple(rd.sequence(opts.get("variants"), ("options", "variants")))
    for i, v in enumerate(variants):
        rd.choice(v, ("options", "variants", i), tuple(R.VARIANTS), "variant")
    values = [list(row) for row in R.GIFT_VALUES]
    edits = rd.mapping(opts.get("gift_values"), ("options", "gift_values"), R.GIFT_TYPES)
    for name, row in edits.items():
        path = ("options", "gift_values", name)
        row = rd.sequence(row, path)
        if len(row) != 4:
            rd.fail(path, said("file.four_values"))
        values[R.GIFT_TYPES.index(name)] = [
            rd.integer(v, path + (j,), 0) for j, v in enumerate(row)
        ]
    seed = data.get("seed", 0)
    if seed is not None:
        rd.integer(seed, ("seed",))

    state = GameState(
        Config(
            players=n,
            seed=seed,
            characters=characters_on,
            first_player=turn,
            colours=tuple(colours),
            gift_values=tuple(tuple(r) for r in values),
            variants=variants,
        )
    )
    if "random_state" in data:
        _decode_random_state(rd, data["random_state"], state.rng)

    warnings: list[str] = []
    box = [0 if n == 3 and R.KIND_TYPE[k] == R.SENET else c for k, c in enumerate(R.CARDS_PER_KIND)]
    used_cards = [0] * R.NUM_KINDS  # cards placed anywhere but the deck, checked against the box

    def card(value, path) -> int:
        kind = R.CARD_KINDS.index(rd.choice(value, path, R.CARD_KINDS, "gift card"))
        if box[kind] == 0:
            rd.fail(path, said("file.no_senet"))
        used_cards[kind] += 1
        if used_cards[kind] > box[kind]:
            rd.fail(
                path,
                said("file.card_too_many", card=str(value), count=str(box[kind])),
            )
        return kind

    # --- seats' pieces ----------------------------------------------------------------------------
    state.gifts = [[0] * R.NUM_KINDS for _ in range(n)]
    for i, seat in enumerate(seats):
        path = ("players", i)
        default_deben = R.STARTING_DEBEN[n][(i - turn) % n]
        state.deben[i] = rd.integer(seat.get("deben", default_deben), path + ("deben",), 0)
        state.seals[i] = rd.integer(seat.get("seals", 0), path + ("seals",), 0, R.SEALS)
        state.prestige[i] = rd.integer(seat.get("prestige", 0), path + ("prestige",), 0)
        gifts = rd.mapping(seat.get("gifts"), path + ("gifts",), R.CARD_KINDS)
        for name, count in gifts.items():
            count = rd.integer(count, path + ("gifts", name), 0)
            for _ in range(count):
                state.gifts[i][card(name, path + ("gifts", name))] += 1
    out = rd.mapping(data.get("out_of_game"), ("out_of_game",), R.CARD_KINDS)
    state.out_of_game = [0] * R.NUM_KINDS
    for name, count in out.items():
        for _ in range(rd.integer(count, ("out_of_game", name), 0)):
            state.out_of_game[card(name, ("out_of_game", name))] += 1

    # --- markets (R3, R6) -------------------------------------------------------------------------
    markets = rd.mapping(data.get("markets"), ("markets",), R.MARKETS)
    # A market left out is as at the start of a first game (R2.8): open on its left stall,
    # Louqsor under the tile; its cards are dealt from the deck.
    markets = {
        name: markets[name] if name in markets else DEFAULT_MARKETS[name] for name in R.MARKETS
    }
    state.hand = [R.SERVANTS_PER_PLAYER] * n
    state.seal_supply = R.SEALS - sum(state.seals)
    tile = []
    dead = []
    to_check = []  # open stalls, checked once the pending decision is known
    deal = []  # open markets whose cards are dealt from the deck
    for m, name in enumerate(R.MARKETS):
        path = ("markets", name)
        spec = rd.mapping(markets[name], path, MARKET_FIELDS)
        if status_is_open(spec) and "upper" not in spec and "lower" not in spec:
            deal.append(m)  # no cards given: deal four from the deck once it is built
        side = R.SIDES.index(
            rd.choice(spec.get("stall", "left"), path + ("stall",), R.SIDES, "stall")
        )
        status = rd.choice(spec.get("state", "open"), path + ("state",), MARKET_STATES, "state")
        state.side = with_item(state.side, m, side)  # replaced, never changed (Field.replaced)
        stall = R.STALLS[m * 2 + side]
        state.status = with_item(state.status, m, OPEN if status == "open" else CLOSED)
        if status == "tile":
            tile.append(m)
        if status == "akhenaton":
            dead.append(m)
        state.reserve[m] = rd.integer(spec.get("reserve", 1), path + ("reserve",), 0)
        cards = [-1] * R.MARKET_CARDS
        if spec.get("upper") is not None:
            cards[0] = card(spec["upper"], path + ("upper",))
        lower = rd.sequence(spec.get("lower"), path + ("lower",))
        if len(lower) > 3:
            rd.fail(path + ("lower",), said("file.lower_cards", count=str(len(lower))))
        for j, kind in enumerate(lower):
            if kind is not None:  # null: an empty slot (after a purchase, before the refill)
                cards[1 + j] = card(kind, path + ("lower", j))
        state.cards[m] = cards
        seal = rd.boolean(spec.get("seal", cards[0] >= 0 or m in deal), path + ("seal",))
        if seal and cards[0] < 0 and m not in deal:
            rd.fail(path + ("seal",), said("file.seal_no_upper"))
        state.seal_on_upper[m] = seal
        state.seal_supply -= seal
        owners = [-1] * len(stall.squares)
        servants = _servants(rd, spec.get("servants"), path + ("servants",), stall)
        for index, owner in servants.items():
            sq_path = path + ("servants", index)
            if not 0 <= index < len(stall.squares):
                rd.fail(
                    sq_path,
                    said(
                        "file.stall_squares",
                        stall_field=stall.name,
                        last=str(len(stall.squares) - 1),
                    ),
                )
            seat = seat_of(owner, sq_path)
            if status != "open":
                rd.fail(sq_path, said("file.servant_on_closed", market=name))
            owners[index] = seat
            state.hand[seat] -= 1
            if state.hand[seat] < 0:
                rd.fail(
                    sq_path,
                    said(
                        "file.fifth_servant", colour=colours[seat], count=str(R.SERVANTS_PER_PLAYER)
                    ),
                )
        state.owners[m] = owners
        state.mask[m] = sum(1 << i for i, o in enumerate(owners) if o >= 0)
        if status == "open":
            to_check.append((m, path + ("servants",)))
    if state.seal_supply < 0:
        rd.fail(("players",), said("file.too_many_seals", count=str(R.SEALS - state.seal_supply)))
    if len(tile) != 1:
        rd.fail(
            ("markets",),
            said("file.one_tile", count=str(len(tile))),
        )
    state.tile = tile[0]
    if len(dead) > 1:
        rd.fail(("markets",), said("file.one_dead"))

    # --- the deck (R2.2) ------------------------------------------------------------------------
    deck_spec = rd.mapping(data.get("deck"), ("deck",), DECK_FIELDS)
    akh = deck_spec.get("akhenaton", "drawn" if dead else "bottom5")
    drawn = akh == "drawn"
    if dead and not drawn:
        rd.fail(("deck", "akhenaton"), said("file.dead_so_drawn"))
    if drawn and not dead:
        rd.fail(
            ("deck", "akhenaton"),
            said("file.drawn_so_dead"),
        )
    closed_plain = [m for m in range(4) if state.status[m] == CLOSED and m not in tile + dead]
    if closed_plain and not drawn:
        rd.fail(
            ("markets", R.MARKETS[closed_plain[0]], "state"),
            said("file.closed_before_akhenaton"),
        )
    if not drawn and state.status.count(OPEN) != 3:
        rd.fail(("markets",), said("file.three_open"))
    if "order" in deck_spec:
        if "top" in deck_spec or "shuffle" in deck_spec:
            rd.fail(("deck",), said("file.order_or_top"))
        order = rd.sequence(deck_spec["order"], ("deck", "order"))
        deck_top_first = []
        for j, name in enumerate(order):
            if name == "akhenaton":
                if drawn or R.AKHENATON in deck_top_first:
                    rd.fail(("deck", "order", j), said("file.akhenaton_once"))
                deck_top_first.append(R.AKHENATON)
            else:
                deck_top_first.append(card(name, ("deck", "order", j)))
        if not drawn and R.AKHENATON not in deck_top_first:
            rd.fail(("deck", "order"), said("file.akhenaton_missing"))
        state.deck = deck_top_first[::-1]
    else:
        top = [
            card(name, ("deck", "top", j))
            for j, name in enumerate(rd.sequence(deck_spec.get("top"), ("deck", "top")))
        ]
        shuffle = deck_spec.get("shuffle", True)
        rd.boolean(shuffle, ("deck", "shuffle"))
        rest = []
        for kind in range(R.NUM_KINDS):
            rest.extend([kind] * (box[kind] - used_cards[kind]))
        if shuffle:
            state.rng.shuffle(rest)
        if not drawn:
            if akh == "bottom5":
                bottom = rest[:4] + [R.AKHENATON]  # rest[0] is the bottom card
                state.rng.shuffle(bottom) if shuffle else None
                rest = bottom + rest[4:]
            elif isinstance(akh, int) and not isinstance(akh, bool):
                size = len(top) + len(rest)
                if not 0 <= akh <= size:
                    rd.fail(("deck", "akhenaton"), said("file.akhenaton_position", size=str(size)))
                top_first = top + rest[::-1]
                top_first.insert(akh, R.AKHENATON)
                top, rest = [], top_first[::-1]
            else:
                rd.fail(
                    ("deck", "akhenaton"),
                    said("file.akhenaton_value", value=echo(akh)),
                )
        state.deck = rest + top[::-1]
    for m in deal:  # R2.9: upper card first, then the lower row left to right
        for slot in range(R.MARKET_CARDS):
            if not state.deck or state.deck[-1] == R.AKHENATON:
                rd.fail(
                    ("markets", R.MARKETS[m]),
                    said("file.deck_runs_out"),
                )
            state.cards[m][slot] = state.deck.pop()
    state.akhenaton_drawn = drawn
    state.dead_market = dead[0] if dead else -1
    placed = (
        sum(1 for c in state.deck if c != R.AKHENATON)
        + sum(1 for cards in state.cards for c in cards if c >= 0)
        + sum(map(sum, state.gifts))
        + sum(state.out_of_game)
    )
    if placed < sum(box):
        warnings.append(said("file.cards_missing", count=str(sum(box) - placed)))

    # --- characters (R2.3) -----------------------------------------------------------------------
    _read_characters(rd, state, data.get("characters", "all" if characters_on else "none"), n)

    # --- Louqsor's dice (R4) ---------------------------------------------------------------------
    state.turn_no = rd.integer(data.get("turn_number", 1), ("turn_number",), 1)
    dice = rd.mapping(data.get("dice"), ("dice",), DICE_FIELDS)
    state.holder, state.holder_turn, state.last_roll = -1, 0, ()
    if dice.get("holder") is not None:
        state.holder = seat_of(dice["holder"], ("dice", "holder"))
        if state.status[R.LOUQSOR] != OPEN:
            rd.fail(("dice", "holder"), said("file.louqsor_closed"))
        state.holder_turn = rd.integer(
            dice.get("rolled_on_turn", state.turn_no - 1), ("dice", "rolled_on_turn"), 0
        )
    roll = rd.sequence(dice.get("last_roll"), ("dice", "last_roll"))
    state.last_roll = tuple(
        rd.integer(d, ("dice", "last_roll", j), 1, 6) for j, d in enumerate(roll)
    )

    forced = rd.mapping(data.get("forced"), ("forced",), ("rolls", "draws"))
    if len(rd.sequence(forced.get("rolls"), ("forced", "rolls"))) > MAX_FORCED_ROLLS:
        rd.fail(("forced", "rolls"), said("file.forced_rolls", most=str(MAX_FORCED_ROLLS)))
    state.forced_rolls = [
        rd.integer(d, ("forced", "rolls", j), 1, 6)
        for j, d in enumerate(rd.sequence(forced.get("rolls"), ("forced", "rolls")))
    ]
    draws = rd.sequence(forced.get("draws"), ("forced", "draws"))
    names = list(R.CARD_KINDS) + ["akhenaton"]
    fixed: list[int] = []
    for j, name in enumerate(draws):
        kind = names.index(rd.choice(name, ("forced", "draws", j), names, "card"))
        if state.deck.count(kind) <= fixed.count(kind):
            rd.fail(("forced", "draws", j), said("file.no_card_left", card=name))
        fixed.append(kind)
    state.forced_draws = fixed

    # --- whose decision ------------------------------------------------------------------------
    state.turn_player = turn
    _read_pending(rd, state, data.get("pending"), seat_of)
    for m, path in to_check:
        if m != state.res_market:  # the market being resolved has closed already
            _check_not_closing(rd, state, m, path)
    state.log = None
    state.decisions = 0
    state.final = None
    if state.phase == P_OVER:
        from ..engine.scoring import final_scores

        state.final = final_scores(state)
    state.refresh()  # the pending decision's options (none once the game is over)
    if state.phase != P_OVER and not state.legal_options():
        rd.fail(
            ("pending", "phase"),
            said("file.no_option", phase=state.phase, colour=state.colours[state.decider]),
        )
    for problem in violations(state):
        warnings.append(problem)
    moves = read_moves(rd, data.get("moves"))
    teaching, teachings = _read_teaching(rd, data.get("teaching"))
    for lang, text in [("", teaching)] + sorted(teachings.items()):
        if len(text) > MAX_TEXT_CHARS:
            rd.fail(
                ("teaching", lang) if lang else ("teaching",),
                said("file.teaching_too_long", count=f"{len(text):,}", most=f"{MAX_TEXT_CHARS:,}"),
            )
    title, titles = _read_title(rd, data.get("title"))
    exercises = []
    if data.get("exercises") is not None:
        exercises = read_block(rd, data["exercises"], state)
    return Scenario(state, title, teaching, moves, warnings, source, titles, teachings, exercises)


def _read_teaching(rd: Reader, value) -> tuple[str, dict[str, str]]:
    """``teaching: |`` text, or one text per language (``en:`` required, ``de:``, ``zh:``)."""
    if value is None:
        return "", {}
    if isinstance(value, str):
        return value, {}
    if not isinstance(value, dict):
        rd.fail(("teaching",), said("file.teaching_not_text"))
    teachings = rd.mapping(value, ("teaching",), LANGUAGES)
    for lang, text in teachings.items():
        if not isinstance(text, str) or not text.strip():
            rd.fail(
                ("teaching", lang),
                said("file.teaching_lang_not_text", lang=lang),
            )
    if "en" not in teachings:
        rd.fail(("teaching",), said("file.teaching_needs_en"))
    return teachings["en"], dict(teachings)


def _read_title(rd: Reader, value) -> tuple[str, dict[str, str]]:
    """``title: text``, or one title per language (``en:`` required, ``de:``, ``zh:``)."""
    if value is None:
        return "", {}
    if not isinstance(value, dict):
        if isinstance(value, list):
            rd.fail(("title",), said("file.title_not_text", value=echo(value)))
        value = str(value)
        if len(value) > MAX_TITLE_CHARS:
            rd.fail(("title",), said("file.title_too_long", most=str(MAX_TITLE_CHARS)))
        return value, {}
    titles = rd.mapping(value, ("title",), LANGUAGES)
    for lang, text in titles.items():
        if not isinstance(text, str) or not text.strip():
            rd.fail(("title", lang), said("file.title_lang_not_text", lang=lang, value=echo(text)))
        if len(text) > MAX_TITLE_CHARS:
            rd.fail(("title", lang), said("file.title_too_long", most=str(MAX_TITLE_CHARS)))
    if "en" not in titles:
        rd.fail(("title",), said("file.title_needs_en"))
    return titles["en"], dict(titles)


DEFAULT_MARKETS = {
    "gizeh": {"stall": "left", "state": "open", "reserve": 1},
    "akhet_aton": {"stall": "left", "state": "open", "reserve": 1},
    "abou_simbel": {"stall": "left", "state": "open", "reserve": 1},
    "louqsor": {"stall": "left", "state": "tile", "reserve": 1},
}


def status_is_open(spec) -> bool:
    return isinstance(spec, dict) and spec.get("state", "open") == "open"


def _servants(rd: Reader, value, path, stall) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        rd.fail(path, said("file.servants_mapping"))
    for key in value:
        if not isinstance(key, int):
            rd.fail(path + (key,), said("file.square_number", last=str(len(stall.squares) - 1)))
    return value


def _check_not_closing(rd: Reader, state: GameState, m: int, path) -> None:
    """An open stall must not already meet its closing condition (it would have closed, R3)."""
    stall = R.STALLS[m * 2 + state.side[m]]
    closes = R.stall_closes(stall.id, state.mask[m], state.owners[m])
    if closes and R.CLOSED_BY[stall.id] == R.BY_COLOURS:
        on = R.seats_on(state.owners[m])
        rd.fail(
            path,
            said(
                "file.already_closed_colours",
                count=str(len(on)),
                colours=str(len(set(on))),
                stall_field=stall.name,  # the file's own name of it ("gizeh.left")
            ),
        )
    elif closes:
        rd.fail(
            path,
            said("file.already_closed", stall_field=stall.name, rule=stall.rule_id),
        )
    if state.owners[m] and all(o >= 0 for o in state.owners[m]):
        rd.fail(path, said("file.stall_full", stall_field=stall.name))


def _read_characters(rd: Reader, state: GameState, spec, n: int) -> None:
    full = R.starting_piles(n)
    if spec == "all":
        piles = [list(p) for p in full]
    elif spec == "none":
        piles = [[] for _ in full]
    else:
        spec = rd.mapping(spec, ("characters",), R.PILES)
        piles = []
        for i, name in enumerate(R.PILES):
            cards = rd.sequence(spec.get(name), ("characters", name))
            ids = []
            for j, card in enumerate(cards):
                rd.choice(card, ("characters", name, j), R.CHARACTER_CARDS, "character card")
                cid = R.CHARACTER_CARDS.index(card)
                if R.CARD_PILE[cid] != i:
                    rd.fail(("characters", name, j), said("file.other_pile", card=card))
                ids.append(cid)
            if ids != full[i][len(full[i]) - len(ids) :] if ids else False:
                rd.fail(
                    ("characters", name),
                    said(
                        "file.pile_rest",
                        cards=str(cards),
                        full=str([R.CHARACTER_CARDS[c] for c in full[i]]),
                    ),
                )
            piles.append(ids)
    state.piles = piles
    left = sum(len(p) for p in piles)
    if not state.config.characters:
        state.characters_set_aside = R.TOTAL_CHARACTERS[n] - left
        state.used_characters = []
    else:
        state.characters_set_aside = 0
        state.used_characters = [c for i, p in enumerate(full) for c in p[: len(p) - len(piles[i])]]


def _read_pending(rd: Reader, state: GameState, spec, seat_of) -> None:
    p = rd.mapping(spec, ("pending",), PENDING_FIELDS)
    phase = rd.choice(p.get("phase", P_TURN), ("pending", "phase"), PHASES, "phase")
    state.phase = phase
    state.decider = -1 if phase == P_OVER else state.turn_player
    if "decider" in p:
        state.decider = seat_of(p["decider"], ("pending", "decider"))
    state.placements_left = rd.integer(
        p.get("placements_left", 1), ("pending", "placements_left"), 0, 2
    )
    state.recruited = rd.boolean(p.get("recruited", False), ("pending", "recruited"))
    state.res_market, state.res_queue, state.res_pos, state.res_after = -1, [], 0, AFTER_ACTION
    res = rd.mapping(
        p.get("resolution"), ("pending", "resolution"), ("market", "queue", "position", "after")
    )
    if res:
        path = ("pending", "resolution")
        m = R.MARKETS.index(rd.choice(res.get("market"), path + ("market",), R.MARKETS, "market"))
        queue = [
            rd.integer(q, path + ("queue", j), 0, 9)
            for j, q in enumerate(rd.sequence(res.get("queue"), path + ("queue",)))
        ]
        pos = rd.integer(res.get("position", 0), path + ("position",), 0, len(queue))
        if phase in (P_TAKE, P_SHAME, P_BID) and pos >= len(queue):
            rd.fail(
                path + ("position",),
                said("file.queue_position", phase=phase, last=str(len(queue) - 1), pos=str(pos))
                if queue
                else said("file.queue_empty", phase=phase),
            )
        squares = len(state.owners[m])
        for j, sq in enumerate(queue):
            if sq >= squares:
                rd.fail(
                    path + ("queue", j),
                    said("file.past_stall", square=str(sq), last=str(squares - 1)),
                )
        for j, sq in enumerate(queue[pos:]):
            if state.owners[m][sq] < 0:
                rd.fail(path + ("queue", pos + j), said("file.no_servant_there"))
        after = rd.choice(
            res.get("after", "action"), path + ("after",), ("action", "reroll"), "continuation"
        )
        state.res_market, state.res_queue, state.res_pos = m, queue, pos
        state.res_after = AFTER_REROLL if after == "reroll" else AFTER_ACTION
    elif phase in (P_TAKE, P_SHAME, P_BID):
        rd.fail(("pending", "resolution"), said("file.needs_resolution", phase=phase))
    char = p.get("character")
    state.character = -1
    if char is not None:
        state.character = R.CHARACTER_CARDS.index(
            rd.choice(char, ("pending", "character"), R.CHARACTER_CARDS, "character card")
        )
    state.exchanges_done = rd.integer(
        p.get("exchanges_done", 0), ("pending", "exchanges_done"), 0, 2
    )
    state.exchange_partners = [
        seat_of(c, ("pending", "exchange_partners", j))
        for j, c in enumerate(
            rd.sequence(p.get("exchange_partners"), ("pending", "exchange_partners"))
        )
    ]
    state.exchange_take = None
    if p.get("exchange_take") is not None:
        take = rd.sequence(p["exchange_take"], ("pending", "exchange_take"))
        if len(take) != 2:
            rd.fail(("pending", "exchange_take"), said("file.write_colour_card"))
        who = seat_of(take[0], ("pending", "exchange_take", 0))
        kind = R.CARD_KINDS.index(
            rd.choice(take[1], ("pending", "exchange_take", 1), R.CARD_KINDS, "card")
        )
        state.exchange_take = (who, kind)
    state.treasurer_market = -1
    if p.get("treasurer_market") is not None:
        state.treasurer_market = R.MARKETS.index(
            rd.choice(p["treasurer_market"], ("pending", "treasurer_market"), R.MARKETS, "market")
        )
    needs = {
        P_EXCHANGE_GIVE: state.exchange_take is not None,
        P_TREASURER_AMOUNT: state.treasurer_market >= 0,
        P_SCRIBE: state.character in R.SCRIBE_BONUS,
        P_EXCHANGE_TAKE: state.character in (R.C_FIRST_MERCHANT, R.C_MERCHANT),
    }
    if not needs.get(phase, True):
        rd.fail(("pending",), said("file.needs_context", phase=phase))
    if phase in (P_CHIEF,) and not any(c >= 0 for c in state.cards[state.tile]):
        rd.fail(("pending", "phase"), said("file.chief_needs_card"))


def _decode_random_state(rd: Reader, text, rng: random.Random) -> None:
    """Set ``rng`` to the state the file wrote, checked fully first (a crafted one is refused).

    The text is base64 of zlib-compressed JSON; it is decompressed at most to
    MAX_RANDOM_STATE_BYTES (a zlib bomb stops there, its rest never inflated).
    """
    path = ("random_state",)
    why = said("file.bad_random_state")
    if not isinstance(text, str):
        rd.fail(path, why)
    if len(text) > MAX_RANDOM_STATE_CHARS:
        rd.fail(path, said("file.random_state_long", count=f"{len(text):,}"))
    try:
        inflater = zlib.decompressobj()
        unpacked = inflater.decompress(base64.b64decode(text), MAX_RANDOM_STATE_BYTES)
    except (ValueError, zlib.error):
        rd.fail(path, why)
    if inflater.unconsumed_tail:
        rd.fail(
            path,
            said("file.random_state_big", most=f"{MAX_RANDOM_STATE_BYTES:,}"),
        )
    try:
        raw = json.loads(unpacked)
    except (ValueError, RecursionError):
        rd.fail(path, why)
    # Python's Mersenne Twister state: version 3, 624 words and an index from 0 to 624, and the
    # cached gauss value (None or a float).
    if not (isinstance(raw, list) and len(raw) == 3 and raw[0] == 3 and isinstance(raw[1], list)):
        rd.fail(path, why)
    words, gauss = raw[1], raw[2]
    if (
        len(words) != 625
        or not all(type(w) is int and 0 <= w < 1 << 32 for w in words[:624])
        or not (type(words[624]) is int and 0 <= words[624] <= 624)
        or not (gauss is None or type(gauss) is float)
    ):
        rd.fail(path, why)
    try:
        rng.setstate((3, tuple(words), gauss))
    except (ValueError, TypeError, OverflowError):
        rd.fail(path, why)


def _encode_random_state(rng: random.Random) -> str:
    version, internal, gauss = rng.getstate()
    raw = json.dumps([version, list(internal), gauss], separators=(",", ":")).encode()
    return base64.b64encode(zlib.compress(raw, 9)).decode()


# ------------------------------------------------------------------------------------- saving
def to_data(state: GameState, title: str = "", teaching: str = "", moves=()) -> dict:
    """The state as file data: :func:`from_data` of it gives the identical state."""
    colours = state.colours
    name = R.CARD_KINDS.__getitem__
    data: dict = {"nefertiti": FORMAT_VERSION}
    if title:
        data["title"] = title
    players = []
    for p in range(state.n):
        seat = {
            "colour": colours[p],
            "deben": state.deben[p],
            "seals": state.seals[p],
            "prestige": state.prestige[p],
        }
        gifts = {name(k): c for k, c in enumerate(state.gifts[p]) if c}
        if gifts:
            seat["gifts"] = gifts
        players.append(seat)
    data["players"] = players
    data["turn"] = colours[state.turn_player]
    data["turn_number"] = state.turn_no
    data["seed"] = state.config.seed if isinstance(state.config.seed, int) else 0
    data["random_state"] = _encode_random_state(state.rng)
    options: dict = {}
    if not state.config.characters:
        options["characters"] = False
    if state.variants:
        options["variants"] = sorted(state.variants)
    edits = {
        t: list(state.values[i])
        for i, t in enumerate(R.GIFT_TYPES)
        if tuple(state.values[i]) != tuple(R.GIFT_VALUES[i])
    }
    if edits:
        options["gift_values"] = edits
    if options:
        data["options"] = options
    markets = {}
    for m, mname in enumerate(R.MARKETS):
        if state.status[m] == OPEN:
            status = "open"
        elif m == state.tile:
            status = "tile"
        elif m == state.dead_market:
            status = "akhenaton"
        else:
            status = "closed"
        cards = state.cards[m]
        spec = {
            "stall": R.SIDES[state.side[m]],
            "state": status,
            "reserve": state.reserve[m],
            "upper": name(cards[0]) if cards[0] >= 0 else None,
            "seal": state.seal_on_upper[m],
        }
        lower = [name(c) for c in cards[1:] if c >= 0]
        if any(c < 0 for c in cards[1:]) and lower:
            # keep empty slots in the middle exactly: write them as the lower row with gaps
            lower = [name(c) if c >= 0 else None for c in cards[1:]]
        spec["lower"] = lower
        servants = {i: colours[o] for i, o in enumerate(state.owners[m]) if o >= 0}
        if servants:
            spec["servants"] = servants
        markets[mname] = spec
    data["markets"] = markets
    data["characters"] = {
        R.PILES[i]: [R.CHARACTER_CARDS[c] for c in pile] for i, pile in enumerate(state.piles)
    }
    deck = {"order": [("akhenaton" if c == R.AKHENATON else name(c)) for c in state.deck[::-1]]}
    if state.akhenaton_drawn:
        deck["akhenaton"] = "drawn"
    data["deck"] = deck
    out = {name(k): c for k, c in enumerate(state.out_of_game) if c}
    if out:
        data["out_of_game"] = out
    dice: dict = {}
    if state.holder >= 0:
        dice["holder"] = colours[state.holder]
        dice["rolled_on_turn"] = state.holder_turn
    if state.last_roll:
        dice["last_roll"] = list(state.last_roll)
    if dice:
        data["dice"] = dice
    if state.forced_rolls or state.forced_draws:
        data["forced"] = {
            "rolls": list(state.forced_rolls),
            "draws": [("akhenaton" if c == R.AKHENATON else name(c)) for c in state.forced_draws],
        }
    pending = _pending_data(state)
    if pending:
        data["pending"] = pending
    if moves:
        data["moves"] = list(moves)
    if teaching:
        data["teaching"] = teaching
    return data


def _pending_data(state: GameState) -> dict:
    colours = state.colours
    p: dict = {}
    at_turn_start = (
        state.phase == P_TURN
        and state.decider == state.turn_player
        and not state.recruited
        and state.placements_left == 1
        and state.res_market < 0
    )
    if at_turn_start:
        return p
    p["phase"] = state.phase
    if state.decider >= 0:
        p["decider"] = colours[state.decider]
    p["placements_left"] = state.placements_left
    p["recruited"] = state.recruited
    if state.res_market >= 0:
        p["resolution"] = {
            "market": R.MARKETS[state.res_market],
            "queue": list(state.res_queue),
            "position": state.res_pos,
            "after": "reroll" if state.res_after == AFTER_REROLL else "action",
        }
    if state.character >= 0:
        p["character"] = R.CHARACTER_CARDS[state.character]
    if state.exchanges_done:
        p["exchanges_done"] = state.exchanges_done
    if state.exchange_partners:
        p["exchange_partners"] = [colours[q] for q in state.exchange_partners]
    if state.exchange_take is not None:
        q, kind = state.exchange_take
        p["exchange_take"] = [colours[q], R.CARD_KINDS[kind]]
    if state.treasurer_market >= 0:
        p["treasurer_market"] = R.MARKETS[state.treasurer_market]
    return p


def dumps_scenario(state: GameState, title: str = "", teaching: str = "", moves=()) -> str:
    header = "# Nefertiti position, format 1: see docs/scenario-format.md\n"
    return header + dumps(to_data(state, title, teaching, moves))


def save(state: GameState, path: str | Path, title: str = "", teaching: str = "", moves=()) -> None:
    Path(path).write_text(dumps_scenario(state, title, teaching, moves), encoding="utf-8")


__all__ = [
    "FORMAT_VERSION",
    "Scenario",
    "ScenarioError",
    "dumps_scenario",
    "from_data",
    "load",
    "loads_scenario",
    "save",
    "to_data",
    "O",
]
