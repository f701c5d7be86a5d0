"""The browser tests' waits (support.LOAD_MS and STEP_MS) stretch with the machine: twice as
long on 2 cores or fewer, as ``$NEFERTITI_WAIT_SCALE`` says when it is set, and a value that is
not a number is refused with a message that names it. No browser is started here."""

from __future__ import annotations

import pytest
from support import LOAD_MS, STEP_MS, wait_scale


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


def test_a_page_load_may_take_longer_than_a_step():
    assert LOAD_MS >= STEP_MS >= 60_000
