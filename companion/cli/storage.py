"""Where the journal can live: a card that keeps it, a root file system in memory, a read-only folder.

Raspberry Pi OS can run with its root file system as an overlay in memory (raspi-config's
« Overlay File System »: ``overlayroot=tmpfs`` on the kernel's command line, ``/`` mounted as
``overlay``): everything the table writes, its journal too, is gone at the next power-off. A
card mounted read-only (or a journal folder the service cannot write) would refuse every action.
At start :func:`place_journal` looks at the journal's folder the way the kernel sees it
(``/proc/self/mountinfo``, ``/proc/cmdline``) and decides:

* a folder on a persistent, writable file system: the journal stays there, nothing is said;
* a folder in memory (overlay root, tmpfs): the journal stays (it is writable), and a sentence
  says on every screen that games will be lost at power-off;
* a read-only folder: the journal is copied to a writable place in memory (the service's runtime
  directory, else the user's, else the temporary folder) and played there, with the same
  sentence; with no writable place at all it opens read-only, as before (one sentence, no traceback).

To keep games with the overlay on, point ``COMPANION_DB`` at a partition the overlay leaves
persistent (docs/appliance.md).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

#: file systems whose contents are gone at power-off
IN_MEMORY = {"overlay", "tmpfs", "ramfs"}


@dataclasses.dataclass(frozen=True)
class Placement:
    """The journal to open, and the sentence every screen shows (None: the card keeps the games)."""

    path: Path
    warning: str | None = None
    #: set when there is no journal to start with at all (a read-only folder without one, nowhere to write)
    refusal: str | None = None


def _unescape(field: str) -> str:
    """mountinfo writes a space, tab, newline or backslash in a path as an octal escape (``\\040``)."""
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and i + 3 < len(field) and field[i + 1:i + 4].isdigit():
            out.append(chr(int(field[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def mount_of(folder: Path, mountinfo: str) -> tuple[str, str, set[str]]:
    """(mount point, file system type, mount options) of the mount holding ``folder``: the longest
    mount point that contains it, the last one mounted when several share that point."""
    best: tuple[str, str, set[str]] = ("/", "", set())
    target = str(folder)
    for line in mountinfo.splitlines():
        left, sep, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if not sep or len(fields) < 6 or not tail:
            continue
        point = _unescape(fields[4])
        inside = target == point or target.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best[0]):
            best = (point, tail[0], set(fields[5].split(",")))
    return best


def _upper_in_memory(folder: Path, mountinfo: str) -> bool:
    """The overlay holding ``folder`` writes into a tmpfs (its ``upperdir``), as overlayroot's does; an
    overlay whose upper layer is on a disk (a container's) keeps what is written."""
    for line in mountinfo.splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3 or tail[0] != "overlay":
            continue
        point = _unescape(fields[4])
        if not (str(folder) == point or str(folder).startswith(point.rstrip("/") + "/")):
            continue
        for option in tail[2].split(","):
            if option.startswith("upperdir="):
                upper = Path(_unescape(option[len("upperdir="):]))
                return mount_of(upper, mountinfo)[1] in IN_MEMORY - {"overlay"}
    return False


def overlay_root(cmdline: str) -> bool:
    """raspi-config's overlay file system is on (``overlayroot=tmpfs`` now, ``boot=overlay`` before)."""
    words = cmdline.split()
    return any(w.startswith("overlayroot=tmpfs") for w in words) or "boot=overlay" in words


def writable(folder: Path) -> bool:
    """A file can be created in ``folder`` now (created, with its parents, if missing)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".write-test-", dir=folder)
        os.close(fd)
        os.unlink(name)
        return True
    except OSError:
        return False


def memory_folders(environ: Mapping[str, str]) -> list[Path]:
    """Writable places in memory, best first: the service's runtime directory (systemd's
    ``$RUNTIME_DIRECTORY``), the user's (``$XDG_RUNTIME_DIR``), the temporary folder."""
    found = []
    if environ.get("RUNTIME_DIRECTORY"):
        found.append(Path(environ["RUNTIME_DIRECTORY"].split(":")[0]))
    if environ.get("XDG_RUNTIME_DIR"):
        found.append(Path(environ["XDG_RUNTIME_DIR"]) / "galapagos-companion")
    try:
        found.append(Path(tempfile.gettempdir()) / "galapagos-companion")
    except OSError:  # no usable temporary folder at all (FileNotFoundError)
        pass
    return found


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


LOST = "games will be lost at power-off"


def place_journal(db_path: Path, *, sim: bool = False, mountinfo: str | None = None, cmdline: str | None = None,
                  environ: Mapping[str, str] | None = None) -> Placement:
    """Where ``companion run`` opens its journal, and what every screen must say about it."""
    env = os.environ if environ is None else environ
    folder = db_path.parent
    if not writable(folder):
        for place in memory_folders(env):
            if place.resolve() == folder.resolve() or not writable(place):
                continue
            # one folder per journal (its path's digest): another journal's copy is never taken for it
            copy = place / f"journal-{hashlib.sha256(str(db_path.absolute()).encode()).hexdigest()[:12]}" / db_path.name
            if not writable(copy.parent):
                continue
            if not copy.exists():  # already there: a restart in the same boot plays on from it
                for suffix in ("", "-wal"):
                    source = Path(str(db_path) + suffix)
                    try:
                        if source.exists():
                            shutil.copyfile(source, Path(str(copy) + suffix))
                    except OSError:
                        pass  # what could not be read is missing from the copy; the card keeps it
            return Placement(copy, f"The journal's folder {folder} is read-only: the table plays on a copy in "
                                   f"memory ({copy}), and {LOST}.")
        if not db_path.exists():
            return Placement(db_path, refusal=f"The journal's folder {folder} is read-only and no folder in memory "
                                              "is writable, so the table has no journal to start with: make the card "
                                              "writable or point --db (COMPANION_DB) at a writable folder.")
        return Placement(db_path, f"The journal's folder {folder} is read-only and no folder in memory is "
                                  "writable: the games can be seen, but nothing new is recorded.")
    mounts = _read("/proc/self/mountinfo") if mountinfo is None else mountinfo
    _, fstype, _ = mount_of(folder.resolve(), mounts)
    cmd = _read("/proc/cmdline") if cmdline is None else cmdline
    if fstype == "overlay" and (overlay_root(cmd) or _upper_in_memory(folder.resolve(), mounts)):
        return Placement(db_path, f"The card's root file system is an overlay in memory (raspi-config's overlay "
                                  f"file system): {LOST}. Turn the overlay off to keep them.")
    if fstype in IN_MEMORY - {"overlay"} and not sim:
        return Placement(db_path, f"The journal is in memory ({fstype} at {folder}): {LOST}.")
    return Placement(db_path)
