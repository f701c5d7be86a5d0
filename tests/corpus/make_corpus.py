"""Write the bad-file corpus (``tests/corpus/bad``) and its valid twins (``tests/corpus/good``).

Every kind of hostile or careless file issue #14 found is here, small enough to commit (the
huge ones, FIFOs and devices are made at test time by ``tests/test_cli_fuzz.py``):

    .venv/bin/python tests/corpus/make_corpus.py

The files are committed; run this again only to change them.
"""

from __future__ import annotations

import base64
import json
import sys
import zlib
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent.parent))

from nefertiti_core import new_game  # noqa: E402
from nefertiti_core.files.history import History  # noqa: E402
from nefertiti_core.files.scenario import dumps_scenario  # noqa: E402

SIMPLE = "nefertiti: 1\nplayers:\n- colour: red\n- colour: blue\n- colour: green\n- colour: black\n"


def _random_state(raw) -> str:
    return base64.b64encode(zlib.compress(json.dumps(raw).encode(), 9)).decode()


def _record(steps: list[str], seed: int = 1) -> str:
    history = History(new_game(4, seed=seed))
    text = history.record().dumps()
    assert text.rstrip().endswith("moves: []")
    body = text.rstrip()[: -len("moves: []")]
    return body + "moves:\n" + "".join(f"  - {s}\n" for s in steps)


def bad_files() -> dict[str, str | bytes]:
    state = new_game(4, seed=1)
    saved = dumps_scenario(state)
    version, internal, gauss = state.rng.getstate()
    files: dict[str, str | bytes] = {
        # RecursionError before #14
        "nested-brackets.yaml": "nefertiti: 1\nplayers: " + "[" * 900 + "]" * 900 + "\n",
        "nested-maps.yaml": "nefertiti: 1\ntitle: " + "{a: " * 500 + "1" + "}" * 500 + "\n",
        "nested-in-moves.yaml": SIMPLE + "moves: " + "[" * 900 + "]" * 900 + "\n",
        "nested-blocks.yaml": "nefertiti: 1\n" + "".join("  " * i + f"k{i}:\n" for i in range(400)),
        "nested-in-record-start.yaml": "nefertiti_record: 1\nstart:\n"
        + "".join("  " * (i + 1) + f"- k{i}:\n" for i in range(300)),
        # unhashable keys
        "unhashable-flow-key.yaml": SIMPLE
        + "markets:\n  gizeh: {stall: left, servants: {[1, 2]: right}}\n",
        "unhashable-map-key.yaml": SIMPLE + "title: {{a: 1}: x}\n",
        # huge numbers
        "huge-int-deben.yaml": SIMPLE.replace("colour: red", "colour: red\n  deben: " + "9" * 5000),
        "huge-int-die.yaml": SIMPLE + "dice:\n  last_roll: [" + "4" * 4300 + "]\n",
        "huge-int-seed.yaml": SIMPLE + "seed: " + "7" * 4400 + "\n",
        "thirteen-digit-deben.yaml": SIMPLE.replace(
            "colour: red", "colour: red\n  deben: 1000000000000"
        ),
        "huge-int-reserve.yaml": SIMPLE + "markets:\n  gizeh: {reserve: " + "1" * 60 + "}\n",
        "huge-akhenaton-position.yaml": SIMPLE + "deck:\n  akhenaton: " + "3" * 39 + "\n",
        # crafted random states
        "random-state-small-bomb.yaml": SIMPLE
        + "random_state: "
        + base64.b64encode(zlib.compress(b"[" + b" " * 11_000_000 + b"]", 9)).decode()
        + "\n",
        "random-state-wrong-size.yaml": SIMPLE
        + "random_state: "
        + _random_state([version, list(internal)[:100], gauss])
        + "\n",
        "random-state-wrong-version.yaml": SIMPLE
        + "random_state: "
        + _random_state([2, list(internal), gauss])
        + "\n",
        "random-state-wrong-types.yaml": SIMPLE
        + "random_state: "
        + _random_state([version, ["x"] * 625, "gauss"])
        + "\n",
        "random-state-word-too-big.yaml": SIMPLE
        + "random_state: "
        + _random_state([version, [2**40] * 624 + [624], None])
        + "\n",
        "random-state-index-out-of-range.yaml": SIMPLE
        + "random_state: "
        + _random_state([version, list(internal)[:624] + [9999], None])
        + "\n",
        "random-state-not-base64.yaml": SIMPLE + "random_state: '!!!!'\n",
        "random-state-a-list.yaml": SIMPLE + "random_state: [1, 2, 3]\n",
        "random-state-deep-json.yaml": SIMPLE
        + "random_state: "
        + base64.b64encode(zlib.compress(b"[" * 5000 + b"]" * 5000)).decode()
        + "\n",
        # a resolution queue pointing past the stall (IndexError before #14)
        "queue-past-stall.yaml": SIMPLE
        + "markets:\n  gizeh: {servants: {0: red, 1: blue}}\n"
        + "pending:\n  phase: take\n  resolution: {market: gizeh, queue: [1, 0, 9], position: 1}\n",
        "queue-before-position-past-stall.yaml": SIMPLE
        + "markets:\n  gizeh: {servants: {0: red}}\n"
        + "pending:\n  phase: take\n  resolution: {market: gizeh, queue: [12, 0], position: 1}\n",
        # a pending decision with nothing to choose ('hint' called it a finished game)
        "exchange-give-stuck.yaml": SIMPLE.replace(
            "colour: blue", "colour: blue\n  gifts: {harp: 1}"
        )
        + "pending:\n  phase: exchange_give\n  exchange_take: [blue, harp]\n",
        # long texts echoed back
        "huge-move-text.yaml": SIMPLE + "moves:\n- place " + "x" * 300_000 + "\n",
        "huge-die-move.yaml": SIMPLE + "moves:\n- roll " + "5" * 4000 + "\n",
        "huge-field-name.yaml": SIMPLE + "y" * 200_000 + ": 1\n",
        "huge-colour.yaml": SIMPLE.replace("colour: red", "colour: " + "r" * 100_000),
        "huge-title.yaml": SIMPLE + "title: " + "t" * 5000 + "\n",
        "huge-unclosed-quote.yaml": SIMPLE + 'title: "' + "q" * 200_000 + "\n",
        "moves-a-mapping.yaml": SIMPLE + "moves:\n- {place: 1}\n",
        # records: too many steps, too many dice (the quadratic memory of #14)
        "record-many-roll-steps.yaml": _record(["roll 6 6 6 6 6 6"] * 3000),
        "record-too-many-steps.yaml": _record(["roll 3"] * 5001),
        "record-seven-dice.yaml": _record(["roll 1 2 3 4 5 6 1"]),
        "record-bool-die.yaml": _record(["roll true"]),
        "record-unknown-step.yaml": _record(["zz 1"]),
        "record-start-a-list.yaml": "nefertiti_record: 1\nstart: [1, 2]\nmoves: []\n",
        "record-moves-nested.yaml": _record([]).replace("moves:\n", "moves: [[[[1]]]]\n"),
        # plain garbage
        "not-utf8.yaml": b"nefertiti: 1\ntitle: \xff\xfe\x00bad\n",
        "binary.yaml": bytes(range(256)) * 8,
        "empty.yaml": "",
        "only-bom.yaml": "\ufeff",
        "tabs.yaml": "nefertiti: 1\nplayers:\n\t- colour: red\n",
        "anchor.yaml": SIMPLE + "title: &a x\n",
        "two-documents.yaml": SIMPLE + "---\nnefertiti: 1\n",
        "saved-then-cut.yaml": saved[: len(saved) // 2],
        # a bid's resolution at the end of its queue: IndexError in explain and hint before
        "bid-position-at-queue-end.yaml": _bid_at_queue_end(),
    }
    return files


def _bid_at_queue_end() -> str:
    """A saved game in the bid phase whose resolution's position is the queue's length."""
    import random
    import re

    from nefertiti_core.engine.state import P_BID

    rng = random.Random(5)
    for seed in range(50):
        game = new_game(4, seed=seed)
        for _ in range(300):
            if game.is_over or (game.phase == P_BID and len(game.res_queue) >= 2):
                break
            game.apply(rng.choice(game.legal_options()))
        if game.phase == P_BID:
            break
    text = dumps_scenario(game)
    at = re.search(r"resolution:.*?position: (\d+)", text, re.S)
    return text[: at.start(1)] + str(len(game.res_queue)) + text[at.end(1) :]


def good_files() -> dict[str, str]:
    state = new_game(4, seed=2)
    return {
        "bom.yaml": "\ufeff" + SIMPLE,
        "bom-crlf.yaml": ("\ufeff" + SIMPLE).replace("\n", "\r\n"),
        "twelve-digit-deben.yaml": SIMPLE.replace(
            "colour: red", "colour: red\n  deben: 999999999999"
        ),
        "saved.yaml": dumps_scenario(state),
        "record-rolls.yaml": _record(["roll 3 5", "roll 2"]),
    }


#: Files larger than this are not committed: the test writes them where it runs.
COMMITTED_BYTES = 20_000


def write(files: dict[str, str | bytes], out: Path, small_only: bool = False) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, content in files.items():
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        if small_only and len(data) > COMMITTED_BYTES:
            continue
        path = out / name
        path.write_bytes(data)
        paths.append(path)
    return paths


def main() -> None:
    for folder, files in (("bad", bad_files()), ("good", good_files())):
        paths = write(files, HERE / folder, small_only=True)
        print(f"{len(paths)} of {len(files)} files in {HERE / folder} (the rest made by the test)")


if __name__ == "__main__":
    main()
