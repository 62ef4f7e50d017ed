"""Wake when the journal's files are written, by this process or another (Linux inotify).

SQLite tells no other process of a commit, and ``companion act`` from a shell writes the journal
the table has open. Asking the journal a few times a second wakes a Pi at rest for nothing; the
kernel's inotify says when the journal or its write-ahead log was written (or replaced), and the
reader then asks once. Where inotify cannot be had (another system, the instance limit reached),
:func:`watch` returns None and the caller asks at its interval as before.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import select
import struct
import threading
from pathlib import Path

log = logging.getLogger(__name__)

IN_MODIFY, IN_CLOSE_WRITE, IN_MOVED_TO, IN_CREATE, IN_DELETE = 0x2, 0x8, 0x80, 0x100, 0x200
IN_NONBLOCK, IN_CLOEXEC = os.O_NONBLOCK, os.O_CLOEXEC
MASK = IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE
HEADER = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len, then the name


class JournalWatch:
    """Waits until the journal (``path``) or its ``-wal`` is written; one inotify descriptor and a pipe."""

    def __init__(self, path: Path, fd: int):
        self.names = {path.name.encode(), (path.name + "-wal").encode()}
        self._fd = fd
        self._wake_r, self._wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self._poll = select.poll()
        self._poll.register(self._fd, select.POLLIN)
        self._poll.register(self._wake_r, select.POLLIN)
        self._lock = threading.Lock()  # a descriptor is never written after it closed (its number may be reused)
        self.closed = False

    def wait(self, timeout: float | None = None) -> bool:
        """Sleep until the journal is written (True), :meth:`interrupt` or ``timeout`` seconds (False)."""
        if self.closed:
            return False
        ready = self._poll.poll(None if timeout is None else max(0, int(timeout * 1000)))
        written = False
        for fd, _ in ready:
            if fd == self._fd:
                written = self._drain() or written
            else:
                try:
                    os.read(self._wake_r, 512)
                except OSError:
                    pass
        return written

    def _drain(self) -> bool:
        written = False
        while True:
            try:
                data = os.read(self._fd, 16 * 1024)
            except BlockingIOError:
                return written
            except OSError:
                return written
            at = 0
            while at + HEADER.size <= len(data):
                _, _, _, size = HEADER.unpack_from(data, at)
                name = data[at + HEADER.size:at + HEADER.size + size].rstrip(b"\0")
                written = written or name in self.names
                at += HEADER.size + size

    def interrupt(self) -> None:
        """End a :meth:`wait` now (the reader is stopping)."""
        with self._lock:
            if self.closed:
                return
            try:
                os.write(self._wake_w, b"!")
            except OSError:
                pass

    def close(self) -> None:
        """Close the descriptors (from the thread that waits, once it no longer does)."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
            for fd in (self._fd, self._wake_r, self._wake_w):
                os.close(fd)


def watch(path: Path) -> JournalWatch | None:
    """A watch on ``path``'s folder for the journal's writes; None where inotify is not to be had."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6", use_errno=True)
        init, add = libc.inotify_init1, libc.inotify_add_watch
    except (OSError, AttributeError):
        return None
    fd = init(IN_NONBLOCK | IN_CLOEXEC)
    if fd < 0:
        log.info("no inotify (%s): the journal is asked at intervals", os.strerror(ctypes.get_errno()))
        return None
    folder = os.fsencode(str(path.resolve().parent))
    if add(fd, folder, MASK) < 0:
        log.info("no inotify watch on %s (%s): the journal is asked at intervals",
                 path.parent, os.strerror(ctypes.get_errno()))
        os.close(fd)
        return None
    return JournalWatch(path, fd)
