"""The engine's own YAML subset: what it writes it reads back, and it reads like PyYAML does."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from nefertiti_core.files.yaml_subset import YamlError, dumps, loads

words = st.text(
    alphabet=st.sampled_from(
        list("abcdefghijklmnopqrstuvwxyz_#+.-0123456789 :'\"é中\\\n[]{},&*!|>")
    ),
    min_size=1,
    max_size=12,
)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), words)
keys = st.one_of(st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True), st.integers(0, 20))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(keys, inner, min_size=1, max_size=4)
    ),
    max_leaves=20,
)
documents = st.dictionaries(keys, values, min_size=1, max_size=5)


@settings(max_examples=150, deadline=None)
@given(documents)
def test_what_it_writes_it_reads_back(data):
    assert loads(dumps(data)).data == data


def test_a_block_string_on_a_list_items_first_key_ends_at_the_items_next_key():
    """Found by the property above (a random run): in ``- key: |`` the block belongs to the
    key after the dash, so a line at that key's column (the item's next key) ends it; it was
    read into the block ("  0\n  0\na: null\n")."""
    text = "b:\n  - b: |\n      0\n      0\n    a: null\n  - |\n    x\n"
    assert loads(text).data == {"b": [{"b": "0\n0\n", "a": None}, "x\n"]}
    assert loads(text).data == yaml.safe_load(text)
    data = {"a": None, "c": None, "b": [{"b": "0\n0\n", "a": None}]}
    assert loads(dumps(data)).data == data


@settings(max_examples=150, deadline=None)
@given(documents)
def test_its_output_reads_the_same_in_pyyaml(data):
    assert yaml.safe_load(dumps(data)) == data


TEXT = """\
# a comment
name: "Abou Simbel: 14"
list:
  - one
  - {a: 1, b: [x, y]}
  - key: value
    other: 2
same_indent:
- a
- b
block: |
  first line
  second: line

  after a blank
folded: >
  one
  two
nothing:
negative: -4
quoted: 'it''s'
"""


def test_reads_the_subset_like_pyyaml():
    assert loads(TEXT).data == yaml.safe_load(TEXT)


def test_remembers_lines_of_values():
    doc = loads(TEXT)
    assert doc.lines[("list", 2, "other")] == 7
    assert doc.line_of(("block",)) == 11
    assert doc.line_of(("list", 1, "deep", "missing")) == 5


@pytest.mark.parametrize(
    "text, words",
    [
        ("a: 1\na: 2\n", "appears twice"),
        ("a:\n\tb: 1\n", "tabs"),
        ("a: &x 1\n", "anchors"),
        ("a: *x\n", "anchors"),
        ("a: !!python/object:os.system x\n", "tags"),
        ("a: [1, 2\n", "expected"),
        ("a: {b 1}\n", "expected"),
        ("a: 'open\n", "unclosed"),
        ("a: 1\n---\nb: 2\n", "one document"),
        ("a: 1\n  b: 2\n", "indentation"),
        ("- a\nb: 1\n", "indented less"),
    ],
)
def test_refuses_what_it_does_not_read_with_the_line(text, words):
    with pytest.raises(YamlError) as refused:
        loads(text)
    assert words in str(refused.value)
    assert refused.value.line is not None
