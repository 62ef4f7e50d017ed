"""Python source read as a syntax tree, for the tests that read the house's code.

CPython 3.11 (seen on 3.11.7) can raise a spurious ``SystemError: AST constructor recursion depth
mismatch`` from ``ast.parse`` when another thread of the process (a server a test started) builds
syntax trees at another stack depth (its AST constructor keeps one depth counter for the whole
interpreter and can leave it unbalanced on an error path). The source is fine: parsing it again
gives its tree, and a real syntax error still raises.
"""

from __future__ import annotations

import ast

#: the words of CPython 3.11's spurious error
SPURIOUS = "AST constructor recursion depth mismatch"


def parse(source: str) -> ast.Module:
    """``ast.parse(source)``, parsed again once when CPython says its spurious recursion-depth error."""
    try:
        return ast.parse(source)
    except SystemError as exc:
        if SPURIOUS not in str(exc):
            raise
        return ast.parse(source)
