"""The ``companion`` command line called in the test's own process: ``main(argv)`` as ``python -m companion`` runs it.

What a shell sees of a call is its exit status, its standard output and its standard error; this gives
the same three (a :class:`subprocess.CompletedProcess`) without starting Python again for each call.
``python -m companion`` is ``raise SystemExit(main())``, so the status is what ``main`` returns. Tests
about the process itself (signals, kill -9, a table left running) start a real one instead.
"""

from __future__ import annotations

import io
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from companion.cli.main import main


def _stream(errors: str) -> io.TextIOWrapper:
    """A standard stream as a piped process has it: UTF-8, strict on stdout and lenient on stderr, so
    text a real shell could not be given (a lone surrogate) fails here as it would there."""
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors=errors, newline="\n")


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8", errors="replace")  # type: ignore[attr-defined]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``companion ARGS...``: its exit status, standard output and standard error."""
    out, err = _stream("strict"), _stream("backslashreplace")
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as stop:  # as the interpreter turns it into a status
                code = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
    finally:
        sys.stdin = saved
    return subprocess.CompletedProcess(["companion", *args], code, _text(out), _text(err))


def companion(db: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``companion --db DB ARGS...`` (the journal named, as the shell tests name it)."""
    return run("--db", str(db), *args, stdin=stdin)
