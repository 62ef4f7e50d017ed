#!/usr/bin/env bash
# Install the Galapagos Table Companion on Raspberry Pi OS (Debian based). Idempotent: run it again
# after every `git pull`. It
#   1. installs the build tools the `pi` extra needs where no wheel exists (spidev, lgpio on
#      aarch64) and creates .venv with that extra (lgpio, rpi-lgpio, smbus2, spidev),
#   2. installs the config (kept if present): a minimal one (the OLED and the buttons) by default,
#   3. enables in config.txt, under [all], what that config uses: I2C at 400 kHz (the OLED),
#      SPI0/SPI1 (MFRC522 readers), the header UART (a PN532 on it, the login console taken off),
#   4. installs the udev rule for the reader microcontroller,
#   5. adds the user to the i2c, spi, gpio and dialout groups,
#   6. installs a hardened systemd unit (Restart=on-failure but not after exit status 2, a bad
#      config; lgpio's files in the runtime directory; the database in the state directory).
#
# Environment (for tests and unusual set-ups): PREFIX (a root to install under, default /),
# APP_USER (default: the user who ran sudo), SKIP_APT=1, SKIP_VENV=1, SYSTEMCTL (default systemctl).
set -euo pipefail

APP_DIR="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX="${PREFIX:-}"
APP_USER="${APP_USER:-${SUDO_USER:-$(id -un)}}"
SYSTEMCTL="${SYSTEMCTL:-systemctl}"
DB_DIR="$PREFIX/var/lib/galapagos-companion"
DB="$DB_DIR/companion.db"
ETC="$PREFIX/etc/galapagos-companion"
UNIT="$PREFIX/etc/systemd/system/galapagos-companion.service"
UDEV="$PREFIX/etc/udev/rules.d/99-galapagos-bridge.rules"

say() { printf '==> %s\n' "$*"; }

# 1. packages and the virtual environment
if [ "${SKIP_APT:-0}" != 1 ]; then
  say "Installing system packages (and the compilers for the pi extra's source-only packages)"
  apt-get update -qq
  apt-get install -y -qq python3-venv python3-dev build-essential swig i2c-tools fonts-dejavu-core libopenjp2-7 >/dev/null
  apt-get install -y -qq liblgpio-dev >/dev/null 2>&1 || true  # lgpio's C library, where Pi OS packages it
fi
if [ "${SKIP_VENV:-0}" != 1 ]; then
  say "Creating $APP_DIR/.venv with the pi extra"
  [ -x "$APP_DIR/.venv/bin/python" ] || python3 -m venv "$APP_DIR/.venv"
  "$APP_DIR/.venv/bin/pip" install --quiet --upgrade pip
  "$APP_DIR/.venv/bin/pip" install --quiet -e "$APP_DIR[pi]"
fi

# 2. the config: a minimal one that starts on any Pi with an OLED and buttons
mkdir -p "$ETC" "$DB_DIR"
FRESH=0
if [ ! -e "$ETC/config.toml" ]; then
  FRESH=1
  say "Installing $ETC/config.toml (the OLED and buttons; add readers from docs/config.example.toml)"
  install -m 0644 "$APP_DIR/deploy/pi.toml" "$ETC/config.toml"
fi

# 3. the interfaces that config uses, in config.txt under [all]
PY="$APP_DIR/.venv/bin/python"
[ -x "$PY" ] || PY=python3
if ! NEEDS="$(cd "$APP_DIR" && "$PY" -m companion.board.config needs "$ETC/config.toml")"; then
  echo "Fix $ETC/config.toml first (the line above says which key), then run this again." >&2
  exit 2
fi
BOOT="$PREFIX/boot/firmware/config.txt"
[ -e "$BOOT" ] || [ ! -e "$PREFIX/boot/config.txt" ] || BOOT="$PREFIX/boot/config.txt"
CMDLINE="$(dirname "$BOOT")/cmdline.txt"
MODEL="$( { tr -d '\0' <"$PREFIX/proc/device-tree/model"; } 2>/dev/null || true)"
enable_param() {  # enable_param FILE LINE: LINE once, in the [all] section (or before any section)
  local file="$1" line="$2"
  mkdir -p "$(dirname "$file")"; touch "$file"
  # where LINE and #LINE are, and whether that spot applies to every board
  local found
  found="$(awk -v want="$line" '
    /^[[:space:]]*\[.*\][[:space:]]*$/ { gsub(/[[:space:]]/, ""); all = ($0 == "[all]"); seen = 1; next }
    $0 == want && (all || !seen) { print "on"; exit }
    $0 == "#" want && (all || !seen) && !c { c = NR }
    END { if (c) print "commented " c }' "$file")"
  case "$found" in
    on) return ;;
    commented*) sed -i "${found#commented }s|^#||" "$file"; return ;;
  esac
  local last
  last="$(grep -E '^[[:space:]]*\[.*\][[:space:]]*$' "$file" | tail -n1 | tr -d '[:space:]' || true)"
  if [ -n "$last" ] && [ "$last" != "[all]" ]; then printf '\n[all]\n' >>"$file"; fi
  [ -z "$(tail -c1 "$file")" ] || echo >>"$file"
  echo "$line" >>"$file"
}
for need in $NEEDS; do
  case "$need" in
    i2c)
      say "Enabling I2C at 400 kHz in $BOOT (the OLED)"
      enable_param "$BOOT" "dtparam=i2c_arm=on"
      enable_param "$BOOT" "dtparam=i2c_arm_baudrate=400000" ;;
    spi0)
      say "Enabling SPI0 in $BOOT"
      enable_param "$BOOT" "dtparam=spi=on" ;;
    spi1-*)
      say "Enabling SPI1 in $BOOT"
      enable_param "$BOOT" "dtoverlay=$need" ;;
    uart)
      say "Enabling the header UART in $BOOT (GPIO 14/15) without a login console on it"
      enable_param "$BOOT" "enable_uart=1"
      case "$MODEL" in "Raspberry Pi 5"*|"Raspberry Pi Compute Module 5"*) enable_param "$BOOT" "dtparam=uart0=on" ;; esac
      if [ -e "$CMDLINE" ]; then sed -i -E 's/(^| )console=(serial0|ttyAMA0|ttyS0),[0-9]+//g; s/^ +//' "$CMDLINE"; fi
      if [ -z "$PREFIX" ]; then
        "$SYSTEMCTL" disable --now serial-getty@ttyAMA0.service serial-getty@serial0.service serial-getty@ttyS0.service >/dev/null 2>&1 || true
      fi ;;
  esac
done

# 4. udev rule: a stable /dev/galapagos-bridge and group dialout for the reader microcontroller
say "Installing the udev rule"
RULE_SRC="$(ls "$APP_DIR"/firmware_bridge/udev/*.rules 2>/dev/null | head -n1 || true)"
mkdir -p "$(dirname "$UDEV")"
if [ -n "$RULE_SRC" ]; then install -m 0644 "$RULE_SRC" "$UDEV"; fi
if [ -z "$PREFIX" ] && command -v udevadm >/dev/null; then udevadm control --reload-rules && udevadm trigger || true; fi

# 5. groups
say "Adding $APP_USER to i2c, spi, gpio and dialout"
if [ -z "$PREFIX" ]; then
  for group in i2c spi gpio dialout; do
    getent group "$group" >/dev/null || groupadd --system "$group"
    id -nG "$APP_USER" | tr ' ' '\n' | grep -qx "$group" || usermod -aG "$group" "$APP_USER"
  done
fi

# 5b. the table's own Wi-Fi when no known Wi-Fi is in range: on a fresh install without a saved Wi-Fi
#     (HOTSPOT=on or off to choose, on any run; deploy/hotspot.sh, docs/network.md)
HOTSPOT="${HOTSPOT:-$([ "$FRESH" = 1 ] && echo auto || echo skip)}"
[ "$HOTSPOT" = skip ] || PREFIX="$PREFIX" SYSTEMCTL="$SYSTEMCTL" bash "$APP_DIR/deploy/hotspot.sh" "$HOTSPOT" \
  || say "The hotspot was not set up (see above); run deploy/hotspot.sh again once that is fixed."

# 6. the database folder (the unit's StateDirectory) and the service
[ -n "$PREFIX" ] || chown "$APP_USER" "$DB_DIR"
say "Installing the systemd unit"
mkdir -p "$(dirname "$UNIT")"
sed -e "s|@APP_DIR@|$APP_DIR|g" -e "s|@USER@|$APP_USER|g" -e "s|@DB@|${DB#"$PREFIX"}|g" \
  "$APP_DIR/deploy/galapagos-companion.service" >"$UNIT.new"
mv "$UNIT.new" "$UNIT"
if [ -z "$PREFIX" ]; then
  "$SYSTEMCTL" daemon-reload
  "$SYSTEMCTL" enable --now galapagos-companion.service
  "$SYSTEMCTL" restart galapagos-companion.service
fi
say "Done. Check the parts with: $APP_DIR/.venv/bin/companion doctor --config $ETC/config.toml"
say "Log out and in again (or reboot) for the new groups; reboot once after enabling I2C, SPI or the UART."
