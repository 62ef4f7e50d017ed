"""The ``[mqtt]`` table of the config file: where a table publishes, under which name.

Off unless the table is there. Every bad value is refused with one sentence naming the key, like the
rest of :mod:`companion.board.config` (which calls :func:`parse`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

KEYS = {"url", "table", "username", "password", "ca_file", "cert_file", "key_file", "lang", "discovery"}
#: a table's name is one MQTT topic level, and the ACL's %u: letters, digits, - and _
TABLE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


class SettingError(ValueError):
    """One sentence naming the key."""


@dataclass(frozen=True)
class MqttSettings:
    host: str
    port: int
    tls: bool
    table: str
    username: str | None = None
    password: str | None = None
    ca_file: str | None = None
    cert_file: str | None = None
    key_file: str | None = None
    lang: str = "en"  # the language of the story lines (the table's)
    discovery: bool = True  # Home Assistant discovery messages

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def parse_url(url: Any, key: str = "mqtt.url") -> tuple[str, int, bool]:
    """``mqtt://host:1883`` or ``mqtts://host:8883`` → (host, port, tls); a bad one raises one sentence."""
    if not isinstance(url, str) or not url:
        raise SettingError(f'{key} must be text such as "mqtt://broker.local:1883", not {url!r}')
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise SettingError(f"{key} has a port that is not a number from 1 to 65535 ({url!r})") from None
    if parts.scheme not in ("mqtt", "mqtts"):
        raise SettingError(f'{key} must start with mqtt:// or mqtts:// (TLS), not {url!r}')
    if not parts.hostname:
        raise SettingError(f'{key} names no broker host ({url!r}); write it as "mqtt://host:1883"')
    if parts.path not in ("", "/") or parts.query or parts.username:
        raise SettingError(f"{key} must be only mqtt[s]://host:port (the username and password are settings "
                           f"of their own), not {url!r}")
    tls = parts.scheme == "mqtts"
    return parts.hostname, port or (8883 if tls else 1883), tls


def parse(table: dict[str, Any], source: str) -> MqttSettings | None:
    """The settings, or None when the config has no ``[mqtt]`` table (publishing is off by default)."""
    if not table:
        return None

    def fail(key: str, what: str) -> SettingError:
        return SettingError(f"{source}: mqtt.{key} {what}.")

    extra = sorted(set(table) - KEYS)
    if extra:
        raise fail(extra[0], f"is not a setting (known: {', '.join(sorted(KEYS))})")
    if "url" not in table:
        raise fail("url", 'is missing: name the broker, such as url = "mqtt://broker.local:1883"')
    try:
        host, port, tls = parse_url(table["url"])
    except SettingError as exc:
        raise SettingError(f"{source}: {exc}.") from None
    name = table.get("table")
    if not isinstance(name, str) or not TABLE_NAME.match(name):
        raise fail("table", f"must be the table's name in letters, digits, - or _ (one topic level, such as "
                            f'"t1"), not {name!r}')

    def text(key: str) -> str | None:
        value = table.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value:
            raise fail(key, f"must be text, not {value!r}")
        return value

    def file(key: str) -> str | None:
        value = text(key)
        if value is not None and not Path(value).is_file():
            raise fail(key, f"names {value}, which is not a readable file")
        return value

    files = {k: file(k) for k in ("ca_file", "cert_file", "key_file")}
    if not tls and any(files.values()):
        raise fail(next(k for k, v in files.items() if v), "is for TLS: write the url as mqtts://")
    if (files["cert_file"] is None) != (files["key_file"] is None):
        raise fail("key_file" if files["key_file"] is None else "cert_file",
                   "is needed too: a client certificate comes with its key")
    username, password = text("username"), text("password")
    if password is not None and username is None:
        raise fail("username", "is missing: a password goes with a username")
    lang = table.get("lang", "en")
    if lang not in ("en", "fr"):
        raise fail("lang", f'must be "en" or "fr", not {lang!r}')
    discovery = table.get("discovery", True)
    if not isinstance(discovery, bool):
        raise fail("discovery", f"must be true or false, not {discovery!r}")
    return MqttSettings(host=host, port=port, tls=tls, table=name, username=username, password=password,
                        lang=lang, discovery=discovery, **files)
