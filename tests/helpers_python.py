"""Parsing the project's own Python source in tests that check its design.

CPython 3.11 before 3.11.8 keeps one shared counter while it turns a parse into ``ast`` objects;
when another thread parses at the same moment, ``ast.parse`` fails with ``SystemError: AST
constructor recursion depth mismatch`` although both sources are fine (CPython gh-106905). Another
thread does parse in these test processes: since 3.11, formatting any traceback (a served app
logging an error) parses the failing line to draw its ``^^^`` marks. The parse is redone then;
each try starts the counter afresh.
"""

from __future__ import annotations

import ast

_RACE = "AST constructor recursion depth mismatch"


def parse(source: str, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse(source)``, redone (at most five times) when another thread's parse interfered."""
    for _ in range(4):
        try:
            return ast.parse(source, filename=filename)
        except SystemError as error:
            if _RACE not in str(error):
                raise
    return ast.parse(source, filename=filename)
