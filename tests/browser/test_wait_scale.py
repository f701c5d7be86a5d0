"""The browser tests' waits (support.LOAD_MS, STEP_MS and KERNEL_MS) stretch with the machine:
twice as long on 2 cores or fewer, as ``$NEFERTITI_WAIT_SCALE`` says when it is set, and a value
that is not a number is refused with a message that names it. No browser is started here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import wait_scale

HERE = Path(__file__).resolve().parent


def test_a_small_machine_waits_twice_as_long_as_a_big_one():
    assert wait_scale(cores=2, told="") == 2.0
    assert wait_scale(cores=1, told="") == 2.0
    assert wait_scale(cores=8, told="") == 1.0


def test_the_environment_sets_the_scale_but_never_below_one():
    assert wait_scale(cores=8, told="3.5") == 3.5
    assert wait_scale(cores=2, told="0.1") == 1.0


def test_a_scale_that_is_not_a_number_is_named_in_the_message():
    with pytest.raises(ValueError, match="NEFERTITI_WAIT_SCALE must be a number, not 'slow'"):
        wait_scale(told="slow")


def _waits(scale: str) -> list[int]:
    """support's LOAD_MS, STEP_MS and KERNEL_MS as a fresh Python imports them with
    ``$NEFERTITI_WAIT_SCALE`` set to ``scale``."""
    env = {**os.environ, "NEFERTITI_WAIT_SCALE": scale}
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
    out = subprocess.run(
        [sys.executable, "-c", "import support as s; print(s.LOAD_MS, s.STEP_MS, s.KERNEL_MS)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    return [int(n) for n in out.split()]


def test_the_environments_scale_reaches_every_wait():
    """The waits the journeys use are the scaled ones: 3 times the scale-1 waits at scale 3."""
    assert _waits("3") == [3 * 120_000, 3 * 60_000, 3 * 120_000]
