"""``companion network``: which network the table is on, the hotspot's set-up and its boot-time check.

* ``companion network`` (``status``): the network, the address phones are given, what the boot check
  would do now.
* ``companion network setup``: the ``[network]`` table of the config (the hotspot's name and a
  generated WPA2 password, kept if already there) and NetworkManager's hotspot profile, written by
  ``nmcli --offline`` into ``/etc/NetworkManager/system-connections`` (root; ``deploy/hotspot.sh``).
* ``companion network check``: at boot (``galapagos-hotspot.service``): the hotspot comes up only
  when nothing is connected and no known Wi-Fi is in range; it never takes a link down.
"""

from __future__ import annotations

import argparse
import re
import secrets
import sys
from pathlib import Path
from typing import Any

from companion.board.config_text import replace_table, toml_string
from companion.cli.hw import load_config
from companion.cli.main import UsageError, command, emit, subcommands

KEYFILE_DIR = "/etc/NetworkManager/system-connections"


@subcommands
def _parsers(sub: Any) -> None:
    p = sub.add_parser("network", help="the table's network: which one, the hotspot's set-up, the boot check")
    p.add_argument("action", nargs="?", default="status", choices=("status", "setup", "check"))
    p.add_argument("--config", help="TOML config file (default: $COMPANION_CONFIG, then the user's)")
    p.add_argument("--json", action="store_true", help="status: one JSON object")
    p.add_argument("--ssid", help="setup: the hotspot's name (default: kept, else Galapagos- and four random letters or digits, e.g. Galapagos-7F3K)")
    p.add_argument("--password", help="setup: its WPA2 password (default: kept, else generated)")
    p.add_argument("--new-password", action="store_true", help="setup: generate a new password")
    p.add_argument("--ifname", help="setup: the Wi-Fi device (default: kept, else wlan0)")
    p.add_argument("--off", action="store_true", help="setup: keep the settings but never start the hotspot")
    p.add_argument("--keyfile-dir", default=KEYFILE_DIR, help=f"setup: NetworkManager's profiles ({KEYFILE_DIR})")
    p.add_argument("--no-reload", action="store_true",
                   help="setup: do not ask NetworkManager to read the profile now (an install into another root)")


@command("network")
def cmd_network(args: argparse.Namespace) -> int:
    from companion.board import network  # late: nmcli's client; network only
    from hw import network as nm  # late: nmcli's client; network only

    cfg = load_config(args.config)
    settings = network.settings_of(cfg)
    manager = nm.NetworkManager()
    try:
        if args.action == "setup":
            return _setup(args, cfg, settings)
        decision = manager.decide(enabled=settings.hotspot)
    except nm.NetworkError as exc:
        raise UsageError(str(exc)) from None
    if args.action == "check":
        if decision.action == "hotspot":
            try:
                manager.hotspot_up(decision.device)
            except nm.NetworkError as exc:
                sys.stderr.write(f"companion: {decision.reason}; the hotspot could not start: {exc}\n")
                return 1
            print(f"{decision.reason}: hotspot {settings.ssid} started on {decision.device}")
        else:
            print(f"{decision.reason}: nothing to do ({decision.action})")
        return 0
    link = decision.link
    host = nm.address_for(link)
    if args.json:
        emit({"network": link.kind, "name": link.name, "device": link.device, "address": link.address,
              "phones": host, "hotspot": settings.hotspot, "next": decision.action, "reason": decision.reason})
    else:
        print(f"The table is on {link.sentence()}; phones are given {host}.")
        print(f"Hotspot {'on' if settings.hotspot else 'off'}: {decision.reason} (next: {decision.action}).")
    return 0


def _setup(args: argparse.Namespace, cfg: Any, settings: Any) -> int:
    from companion.board import network  # late: nmcli's client; network only
    from hw import network as nm  # late: nmcli's client; network only

    path = Path(cfg.source)
    if not path.is_file():
        raise UsageError("Name the config file to write (--config /etc/galapagos-companion/config.toml).")
    ssid = args.ssid or settings.ssid or "Galapagos-" + "".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
                                                                for _ in range(4))
    password = args.password or ("" if args.new_password else settings.password) or nm.new_password()
    ifname = args.ifname or settings.ifname or "wlan0"
    try:  # every value checked as the config will be read, before anything is written
        chosen = network.parse({"hotspot": not args.off, "ssid": ssid, "password": password, "ifname": ifname},
                               "--")
        target = Path(args.keyfile_dir) / f"{nm.HOTSPOT_CONNECTION}.nmconnection"
        keyfile = nm.hotspot_keyfile(chosen.ssid, chosen.password, ifname=chosen.ifname, uuid=_uuid_of(target))
    except network.NetworkSettingError as exc:
        raise UsageError(str(exc).replace("--: network.", "--")) from None
    replace_table(path, "network", [
        "# the table's own Wi-Fi when no known Wi-Fi is in range (companion network setup; docs/network.md)",
        f"hotspot = {'false' if args.off else 'true'}",
        f"ssid = {toml_string(chosen.ssid)}",
        f"password = {toml_string(chosen.password)}",
        f"ifname = {toml_string(chosen.ifname)}",
    ])
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".new")
    tmp.touch(mode=0o600)
    tmp.chmod(0o600)  # NetworkManager ignores a keyfile others can read; it holds the password
    tmp.write_text(keyfile, encoding="utf-8")
    tmp.replace(target)
    print(f"Wrote [network] to {path} and the hotspot profile {target}.")
    print(f"Hotspot {chosen.ssid!r} ({'off' if args.off else 'on when no known Wi-Fi is in range'}), "
          f"password {chosen.password}")
    if args.no_reload:
        return 0
    try:
        reload = nm.run_nmcli(["connection", "reload"])
    except nm.NetworkError as exc:
        reload = nm.Answer(1, "", str(exc))
    if reload.returncode != 0:
        said = (reload.stderr or reload.stdout).strip().splitlines()
        print(f"NetworkManager will read the profile when it starts ({said[-1] if said else 'not running'}).")
    return 0


def _uuid_of(keyfile: Path) -> str | None:
    """The ``uuid=`` of an existing profile (written again, it stays the same connection)."""
    try:
        found = re.search(r"^uuid=([0-9a-fA-F-]{36})$", keyfile.read_text(encoding="utf-8"), re.M)
    except OSError:
        return None
    return found.group(1) if found else None
