#!/usr/bin/env bash
# The table's own Wi-Fi when no known Wi-Fi is in range (docs/network.md). Run as root, by
# deploy/install.sh on a fresh install, or by hand at any time:
#     sudo deploy/hotspot.sh          # on unless NetworkManager already has a saved Wi-Fi
#     sudo deploy/hotspot.sh on       # on (the password is kept if there is one)
#     sudo deploy/hotspot.sh off      # the settings kept, the hotspot never started
# It
#   1. writes the [network] table of the config (the hotspot's name, a generated WPA2 password kept on
#      later runs) and NetworkManager's hotspot profile, written by `nmcli --offline` (0600),
#   2. installs galapagos-hotspot.timer: `companion network check` 40 s after boot and every 2 minutes
#      starts the hotspot only when nothing is connected and no known Wi-Fi is in range, and never
#      takes a wired or Wi-Fi link down,
#   3. makes sure avahi-daemon answers <hostname>.local (Raspberry Pi OS ships it).
#
# Environment (for tests): PREFIX (a root to install under), SKIP_APT=1, SYSTEMCTL (default systemctl).
set -euo pipefail

APP_DIR="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX="${PREFIX:-}"
SYSTEMCTL="${SYSTEMCTL:-systemctl}"
ETC="$PREFIX/etc/galapagos-companion"
PROFILES="$PREFIX/etc/NetworkManager/system-connections"
UNITS="$PREFIX/etc/systemd/system"
MODE="${1:-auto}"

say() { printf '==> %s\n' "$*"; }

case "$MODE" in
  on|off) ;;
  auto)
    MODE=on
    # a Wi-Fi NetworkManager already knows (Raspberry Pi Imager writes preconfigured.nmconnection)
    for f in "$PROFILES"/*.nmconnection; do
      [ -e "$f" ] && [ "$(basename "$f")" != galapagos-hotspot.nmconnection ] || continue
      if grep -qx 'type=wifi' "$f" && ! grep -qx 'mode=ap' "$f"; then
        say "NetworkManager knows a Wi-Fi ($(basename "$f" .nmconnection)): hotspot off (deploy/hotspot.sh on to turn it on)"
        MODE=off
        break
      fi
    done ;;
  *) echo "usage: deploy/hotspot.sh [on|off]" >&2; exit 2 ;;
esac

if [ "${SKIP_APT:-0}" != 1 ] && ! command -v avahi-daemon >/dev/null; then
  say "Installing avahi-daemon (phones reach $(hostname).local)"
  apt-get install -y -qq avahi-daemon >/dev/null
fi

PY="$APP_DIR/.venv/bin/python"
[ -x "$PY" ] || PY=python3
ARGS=(network setup --config "$ETC/config.toml" --keyfile-dir "$PROFILES")
[ "$MODE" = on ] || ARGS+=(--off)
[ -z "$PREFIX" ] || ARGS+=(--no-reload)
say "Setting up the hotspot ($MODE)"
(cd "$APP_DIR" && "$PY" -m companion "${ARGS[@]}")

say "Installing galapagos-hotspot.timer"
mkdir -p "$UNITS"
sed -e "s|@APP_DIR@|$APP_DIR|g" "$APP_DIR/deploy/galapagos-hotspot.service" >"$UNITS/galapagos-hotspot.service.new"
mv "$UNITS/galapagos-hotspot.service.new" "$UNITS/galapagos-hotspot.service"
install -m 0644 "$APP_DIR/deploy/galapagos-hotspot.timer" "$UNITS/galapagos-hotspot.timer"
if [ -z "$PREFIX" ]; then
  "$SYSTEMCTL" daemon-reload
  "$SYSTEMCTL" enable --now galapagos-hotspot.timer
  "$SYSTEMCTL" enable --now avahi-daemon.service >/dev/null 2>&1 || true
fi
