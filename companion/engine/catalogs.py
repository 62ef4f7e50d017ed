"""Compile the gettext catalogs with Babel (``make catalogs``; a test checks they are current).

Every domain (each game package's ``locale/`` and the interface's
``companion/locale/``) keeps ``<lang>/LC_MESSAGES/<domain>.po``, edited by
hand or with ``pybabel update``; this writes the ``.mo`` beside each, which the
standard library's :mod:`gettext` reads at run time. Babel is needed only here,
at build time, never on the table.
"""

from __future__ import annotations

import io
import os
import sys

from companion import games
from companion.engine import texts


def po_files() -> list[tuple[str, str]]:
    """(domain, path of the .po) for every catalog of every registered domain."""
    games.packages()  # registers each game's domain
    out = []
    for _domain, localedir in sorted(texts.domains().items()):
        if not os.path.isdir(localedir):
            continue
        for lang in sorted(os.listdir(localedir)):
            folder = os.path.join(localedir, lang, "LC_MESSAGES")
            # the domain's own catalog, and any other sharing its folder (the interface's "network")
            for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
                entry = (name[:-3], os.path.join(folder, name))
                if name.endswith(".po") and entry not in out:
                    out.append(entry)
    return out


def compiled(po_path: str) -> bytes:
    """The .mo bytes of one .po file."""
    from babel.messages.mofile import write_mo  # late: build-time only, not on the table
    from babel.messages.pofile import read_po  # late: build-time only, not on the table

    with open(po_path, "rb") as handle:
        catalog = read_po(handle)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def main() -> int:
    for _domain, po in po_files():
        mo = po[:-3] + ".mo"
        data = compiled(po)
        old = open(mo, "rb").read() if os.path.exists(mo) else b""
        if data != old:
            with open(mo, "wb") as handle:
                handle.write(data)
            print(f"compiled {mo}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
