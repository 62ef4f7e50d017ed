"""Template for a new reader backend: copy this folder to ``hw/rfid/<name>/``.

Then add ``<name>`` to ``BACKENDS`` in ``hw/rfid/__init__.py`` and describe
its options in ``docs/config.example.toml``. A reader in the config file is::

    [[readers]]
    point = "scan"          # the reader point's name
    backend = "<name>"
    # ...any options your backend reads from self.options

Rules for a backend:

* ``open`` acquires the hardware and raises ``ReaderError`` with a sentence
  that says how to fix the problem ("enable SPI: sudo raspi-config ...");
* ``read_uid`` returns the UID on the antenna *now* (str, bytes or a list of
  ints) or None; it must return within a few tens of milliseconds and never
  debounce by itself (the base class does). It may raise whatever its chip's
  library raises: the poll counts it as a missed read, and after several in
  a row the reader is re-opened (``reopen``, by default ``close`` + ``open``)
  and reported as not answering;
* a push source sets ``polled = False`` and calls ``self.report(uid)`` /
  ``self.report(None)`` from its own callback instead;
* import the chip's library inside ``open`` so the module imports anywhere.
"""

from __future__ import annotations

from hw.rfid.base import Reader, ReaderError


class Backend(Reader):
    backend = "template"

    def open(self) -> None:
        raise ReaderError("The template reader is not a real backend: copy hw/rfid/template/ and fill it in.")

    def read_uid(self) -> str | None:
        return None
