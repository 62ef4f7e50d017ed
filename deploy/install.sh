#!/usr/bin/env bash
# Install the Galapagos Table Companion on Raspberry Pi OS (Debian based). Idempotent: run it again
# after every `git pull`. It
#   1. creates .venv with the `pi` extra (lgpio, rpi-lgpio, smbus2, spidev),
#   2. enables I2C and SPI,
#   3. installs the udev rule for the reader microcontroller,
#   4. adds the user to the i2c, spi, gpio and dialout groups,
#   5. installs the config (kept if present) and a systemd unit (Restart=on-failure, after the network).
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
  say "Installing system packages"
  apt-get update -qq
  apt-get install -y -qq python3-venv python3-dev i2c-tools fonts-dejavu-core libopenjp2-7 >/dev/null
fi
if [ "${SKIP_VENV:-0}" != 1 ]; then
  say "Creating $APP_DIR/.venv with the pi extra"
  [ -x "$APP_DIR/.venv/bin/python" ] || python3 -m venv "$APP_DIR/.venv"
  "$APP_DIR/.venv/bin/pip" install --quiet --upgrade pip
  "$APP_DIR/.venv/bin/pip" install --quiet -e "$APP_DIR[pi]"
fi

# 2. I2C (the OLED) and SPI (MFRC522 readers on the Pi's own bus)
enable_param() {  # enable_param FILE LINE: add LINE once, uncommenting it if it is there commented
  local file="$1" line="$2"
  mkdir -p "$(dirname "$file")"; touch "$file"
  if grep -qxF "$line" "$file"; then return; fi
  if grep -qxF "#$line" "$file"; then sed -i "s|^#$line\$|$line|" "$file"; else echo "$line" >>"$file"; fi
}
if [ -z "$PREFIX" ] && command -v raspi-config >/dev/null; then
  say "Enabling I2C and SPI with raspi-config"
  raspi-config nonint do_i2c 0
  raspi-config nonint do_spi 0
else
  BOOT="$PREFIX/boot/firmware/config.txt"
  [ -e "$BOOT" ] || [ ! -e "$PREFIX/boot/config.txt" ] || BOOT="$PREFIX/boot/config.txt"
  say "Enabling I2C and SPI in $BOOT"
  enable_param "$BOOT" "dtparam=i2c_arm=on"
  enable_param "$BOOT" "dtparam=spi=on"
fi

# 3. udev rule: a stable /dev/galapagos-bridge and group dialout for the reader microcontroller
say "Installing the udev rule"
RULE_SRC="$(ls "$APP_DIR"/firmware_bridge/udev/*.rules 2>/dev/null | head -n1 || true)"
mkdir -p "$(dirname "$UDEV")"
if [ -n "$RULE_SRC" ]; then install -m 0644 "$RULE_SRC" "$UDEV"; fi
if [ -z "$PREFIX" ] && command -v udevadm >/dev/null; then udevadm control --reload-rules && udevadm trigger || true; fi

# 4. groups
say "Adding $APP_USER to i2c, spi, gpio and dialout"
if [ -z "$PREFIX" ]; then
  for group in i2c spi gpio dialout; do
    getent group "$group" >/dev/null || groupadd --system "$group"
    id -nG "$APP_USER" | tr ' ' '\n' | grep -qx "$group" || usermod -aG "$group" "$APP_USER"
  done
fi

# 5. config, database folder and the service
mkdir -p "$ETC" "$DB_DIR"
if [ ! -e "$ETC/config.toml" ]; then
  say "Installing $ETC/config.toml (edit pins and readers there)"
  if [ -e "$APP_DIR/deploy/pi.toml" ]; then install -m 0644 "$APP_DIR/deploy/pi.toml" "$ETC/config.toml";
  else install -m 0644 "$APP_DIR/docs/config.example.toml" "$ETC/config.toml"; fi
fi
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
say "Log out and in again (or reboot) for the new groups; reboot once after enabling I2C/SPI."
