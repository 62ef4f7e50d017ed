"""Writing one table of the config file back, keeping every other line (and its comments) as it was.

The standard library reads TOML but does not write it; the config is the builder's file, so a
command that records something in it (the hotspot's password, what the first-boot walk found)
replaces its own table only, by text.
"""

from __future__ import annotations

from pathlib import Path


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string (backslash, quote and control characters escaped)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(ch if ord(ch) >= 32 and ord(ch) != 127 else f"\\u{ord(ch):04x}" for ch in escaped) + '"'


def without_table(text: str, name: str) -> str:
    """``text`` with its ``[name]`` table (from its header to the next table's) taken out."""
    out, skipping = [], False
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith("[["):
            skipping = False
        elif stripped.startswith("["):
            skipping = stripped.split("#", 1)[0].strip() == f"[{name}]"
        if not skipping:
            out.append(line)
    return "".join(out).rstrip("\n") + "\n"


def replace_table(path: Path, name: str, lines: list[str]) -> None:
    """Write ``path`` again with its ``[name]`` table replaced by ``lines`` (appended at the end), through a
    temporary file beside it and a rename, so a power cut leaves the old file or the new one."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    new = without_table(text, name) + "\n" + "\n".join([f"[{name}]", *lines]) + "\n"
    tmp = path.with_name(path.name + ".new")
    tmp.write_text(new.lstrip("\n"), encoding="utf-8")
    try:
        tmp.chmod(path.stat().st_mode & 0o7777)
    except OSError:
        pass
    tmp.replace(path)
