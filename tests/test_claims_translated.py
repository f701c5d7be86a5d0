"""``claims.translated``: a German or Chinese notebook's claims are its phrases quoted with the
English notebook's checks, so that a check is written once for the three languages."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from claims import Claim, nb09, translated
from claims.de import nb09 as german


def _english(**checks) -> SimpleNamespace:
    """A stand-in English claims module: one claim per keyword, its text the keyword."""
    return SimpleNamespace(
        __name__="claims.nbXX", CLAIMS=[Claim(text, check) for text, check in checks.items()]
    )


def test_a_translated_phrase_is_checked_by_the_english_check_itself():
    (claim,) = translated(nb09, {"she has 8 Deben": "Sie hat 8 Deben"})
    (english,) = [c for c in nb09.CLAIMS if c.text == "she has 8 Deben"]
    assert claim == Claim("Sie hat 8 Deben", english.check)
    assert claim in german.CLAIMS


def test_one_english_phrase_may_stand_for_several_translated_ones_and_extras_follow():
    extra = Claim("zwei", lambda: True)
    claims = translated(_english(two=lambda: True), {"two": ("zwei", "beide")}, extra=[extra])
    assert [c.text for c in claims] == ["zwei", "beide", "zwei"] and claims[-1] is extra


@pytest.mark.parametrize(("first", "second", "holds"), [(True, True, True), (True, False, False)])
def test_a_phrase_saying_what_the_english_says_in_several_needs_all_their_checks(
    first, second, holds
):
    english = _english(a=lambda: first, b=lambda: second)
    (claim,) = translated(english, {("a", "b"): "a und b"})
    assert claim.check() is holds


def test_an_english_phrase_that_is_gone_is_named_with_its_module():
    with pytest.raises(KeyError, match=r"claims.nbXX has no claim 'three'"):
        translated(_english(two=lambda: True), {("two", "three"): "zwei und drei"})
