#!/usr/bin/env bash
# Install the Galapagos Table Companion on Raspberry Pi OS. Idempotent: run it again after every
# update of the code.
#
# Supported: Raspberry Pi OS (or Debian) 13 "trixie" with Python 3.13 and 12 "bookworm" with
# Python 3.11, 64-bit (aarch64) on a Pi Zero 2 W, 3, 4 or 5; 32-bit (armv7l) on the same boards
# on Debian 13 only, with Debian's Pillow and cbor2 instead of wheels. Refused: ARMv6 (Pi 1, Zero,
# Zero W), a 32-bit Debian 12 (its Pillow 9.4 is too old) and any Python older than 3.11. `make pi-install-check` proves it in arm64 Debian root filesystems.
#
# In this order, so a failed download never leaves a Pi half set up:
#   1. the config (kept if present): a minimal one (the OLED and the buttons) by default,
#   2. I2C for the OLED in config.txt under [all], at 400 kHz, and the i2c-dev module loaded now
#      and at every boot (/etc/modules), as raspi-config's do_i2c does,
#   3. the udev rule for the reader microcontroller, the groups (i2c, spi, gpio, dialout),
#      the state directory and the systemd unit (enabled; started once the libraries are in),
#   4. the system packages (compilers for the libraries without a wheel),
#   5. .venv with the `pi` extra (and mpremote, for `companion firmware install`) at the versions
#      of deploy/constraints.txt, built as the owner of
#      the checkout (nothing in it becomes root's); lgpio from its bundled C library where it has
#      no wheel (Debian packages no liblgpio-dev),
#   6. what else the config needs (SPI0/SPI1 for MFRC522 readers, the header UART for a PN532),
#      read from the config by the venv, then the service (re)started.
#
# Environment (for tests and unusual set-ups): PREFIX (a root to install under, default /),
# APP_USER (default: the user who ran sudo), SKIP_APT=1, SKIP_VENV=1, SYSTEMCTL (default
# systemctl), MODPROBE (default modprobe), ARCH (default uname -m), PYTHON (default python3).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

APP_DIR="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX="${PREFIX:-}"
APP_USER="${APP_USER:-${SUDO_USER:-$(id -un)}}"
SYSTEMCTL="${SYSTEMCTL:-systemctl}"
MODPROBE="${MODPROBE:-modprobe}"
ARCH="${ARCH:-$(uname -m)}"
PYTHON="${PYTHON:-python3}"
DB_DIR="$PREFIX/var/lib/galapagos-companion"
DB="$DB_DIR/companion.db"
ETC="$PREFIX/etc/galapagos-companion"
UNIT="$PREFIX/etc/systemd/system/galapagos-companion.service"
UDEV="$PREFIX/etc/udev/rules.d/99-galapagos-bridge.rules"
MODULES="$PREFIX/etc/modules"
VENV="$APP_DIR/.venv"
PY="$VENV/bin/python"
PROBLEMS=()  # one sentence each, said again at the end

say() { printf '==> %s\n' "$*"; }
problem() { printf '!!! %s\n' "$*" >&2; PROBLEMS+=("$*"); }
refuse() { printf '%s\n' "$*" >&2; exit 3; }

# 0. what this can run on
case "$ARCH" in
  aarch64|x86_64) BITS=64 ;;
  armv7l|armv8l) BITS=32 ;;
  armv6l) refuse "This Pi has an ARMv6 processor (Pi 1, Zero or Zero W), which the companion does not support: use a Pi Zero 2 W, 3, 4 or 5 with Raspberry Pi OS Lite (64-bit)." ;;
  *) refuse "Unsupported processor $ARCH: install Raspberry Pi OS Lite (64-bit) on a Pi Zero 2 W, 3, 4 or 5." ;;
esac
if [ "${SKIP_VENV:-0}" != 1 ]; then
  command -v "$PYTHON" >/dev/null || refuse "No $PYTHON: this needs Raspberry Pi OS (Debian 12 or 13), which has it."
  "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
    refuse "$("$PYTHON" -V 2>&1) is too old: the companion needs Python 3.11 or newer (Raspberry Pi OS 12 \"bookworm\" or 13 \"trixie\")."
  if [ "$BITS" = 32 ] && ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 13))'; then
    refuse "A 32-bit Raspberry Pi OS 12 (bookworm) has Pillow 9.4, older than the companion needs, and PyPI has no 32-bit wheel of a newer one: install Raspberry Pi OS Lite (64-bit) (or a 32-bit one based on Debian 13)."
  fi
fi
if [ -z "$PREFIX" ] && [ "$(id -u)" != 0 ]; then
  refuse "Run it with sudo: sudo $0"
fi
# who builds the venv: the owner of the checkout (the user who cloned it), never root in a user's folder
OWNER="$(stat -c %U "$APP_DIR")"
as_owner() {
  if [ "$(id -un)" = "$OWNER" ] || [ "$OWNER" = root ]; then "$@"
  else runuser -u "$OWNER" -- env HOME="$(getent passwd "$OWNER" | cut -d: -f6)" "$@"; fi
}

# 1. the config: a minimal one that starts on any Pi with an OLED and buttons
mkdir -p "$ETC" "$DB_DIR"
FRESH=0
if [ ! -e "$ETC/config.toml" ]; then
  FRESH=1
  say "Installing $ETC/config.toml (the OLED and buttons; add readers from docs/config.example.toml)"
  install -m 0644 "$APP_DIR/deploy/pi.toml" "$ETC/config.toml"
fi

# 2. config.txt and kernel modules
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
load_module() {  # load_module NAME: at every boot (/etc/modules) and now, as raspi-config does
  local name="$1"
  mkdir -p "$(dirname "$MODULES")"; touch "$MODULES"
  grep -qx "$name" "$MODULES" || echo "$name" >>"$MODULES"
  if [ -z "$PREFIX" ] && ! grep -q "^${name//-/_} " /proc/modules 2>/dev/null; then
    local why
    if ! why="$("$MODPROBE" "$name" 2>&1)"; then
      problem "The $name module could not be loaded now (${why:-$MODPROBE failed}); it loads at the next boot from /etc/modules."
    fi
  fi
}
enable_interface() {  # enable_interface NEED: one line of `python -m companion.board.config needs`
  case "$1" in
    i2c)
      say "Enabling I2C at 400 kHz in $BOOT (the OLED) and loading i2c-dev"
      enable_param "$BOOT" "dtparam=i2c_arm=on"
      enable_param "$BOOT" "dtparam=i2c_arm_baudrate=400000"
      load_module i2c-dev ;;
    spi0)
      say "Enabling SPI0 in $BOOT"
      enable_param "$BOOT" "dtparam=spi=on" ;;
    spi1-*)
      say "Enabling SPI1 in $BOOT"
      enable_param "$BOOT" "dtoverlay=$1" ;;
    uart)
      say "Enabling the header UART in $BOOT (GPIO 14/15) without a login console on it"
      enable_param "$BOOT" "enable_uart=1"
      case "$MODEL" in "Raspberry Pi 5"*|"Raspberry Pi Compute Module 5"*) enable_param "$BOOT" "dtparam=uart0=on" ;; esac
      if [ -e "$CMDLINE" ]; then sed -i -E 's/(^| )console=(serial0|ttyAMA0|ttyS0),[0-9]+//g; s/^ +//' "$CMDLINE"; fi
      if [ -z "$PREFIX" ]; then
        for getty in serial-getty@ttyAMA0.service serial-getty@serial0.service serial-getty@ttyS0.service; do
          if "$SYSTEMCTL" is-enabled --quiet "$getty" 2>/dev/null || "$SYSTEMCTL" is-active --quiet "$getty" 2>/dev/null; then
            "$SYSTEMCTL" disable --now "$getty" || problem "The login console $getty could not be stopped; sudo raspi-config nonint do_serial_cons 1 does it."
          fi
        done
      fi ;;
    *) problem "The config needs '$1', which this script does not know how to turn on." ;;
  esac
}
# every config but a dummy display's needs I2C; the readers' needs come in step 6, from the venv
I2C_DONE=0
if ! grep -Eq '^[[:space:]]*type[[:space:]]*=[[:space:]]*"dummy"' "$ETC/config.toml"; then
  enable_interface i2c
  I2C_DONE=1
fi

# 3. udev rule, groups, state directory, unit
say "Installing the udev rule"
RULE_SRC="$APP_DIR/firmware_bridge/udev/99-galapagos-bridge.rules"
mkdir -p "$(dirname "$UDEV")"
install -m 0644 "$RULE_SRC" "$UDEV"
if [ -z "$PREFIX" ] && command -v udevadm >/dev/null && [ -d /run/udev ]; then
  if ! { udevadm control --reload-rules && udevadm trigger; }; then
    problem "udev did not reload its rules; the bridge's link appears after a reboot."
  fi
fi
if [ -z "$PREFIX" ]; then
  say "Adding $APP_USER to i2c, spi, gpio and dialout"
  for group in i2c spi gpio dialout; do
    getent group "$group" >/dev/null || groupadd --system "$group"
    id -nG "$APP_USER" | tr ' ' '\n' | grep -qx "$group" || usermod -aG "$group" "$APP_USER"
  done
  chown "$APP_USER" "$DB_DIR"
fi
say "Installing the systemd unit"
mkdir -p "$(dirname "$UNIT")"
sed -e "s|@APP_DIR@|$APP_DIR|g" -e "s|@USER@|$APP_USER|g" -e "s|@DB@|${DB#"$PREFIX"}|g" \
  "$APP_DIR/deploy/galapagos-companion.service" >"$UNIT.new"
mv "$UNIT.new" "$UNIT"
if [ -z "$PREFIX" ]; then
  "$SYSTEMCTL" daemon-reload
  "$SYSTEMCTL" enable galapagos-companion.service
fi

# 4. system packages
if [ "${SKIP_APT:-0}" != 1 ]; then
  PACKAGES=(python3-venv python3-dev build-essential swig i2c-tools fonts-dejavu-core kmod)
  # 32-bit: PyPI has no armv7l wheel of Pillow 13 or cbor2 6 (whose build needs Rust >= 1.85)
  [ "$BITS" = 64 ] || PACKAGES+=(python3-pil python3-cbor2)
  say "Installing system packages: ${PACKAGES[*]}"
  if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}"; }; then
    problem "apt-get could not install ${PACKAGES[*]} (its error is above); the libraries below may not build."
  fi
  if ! apt-cache show liblgpio-dev >/dev/null 2>&1; then
    say "This release packages no liblgpio-dev: where lgpio has no wheel (Python 3.13) it is built with its own copy of the C library."
  fi
fi

# 5. the virtual environment, as the checkout's owner
VENV_OK=1
if [ "${SKIP_VENV:-0}" != 1 ]; then
  CONSTRAINTS="$APP_DIR/deploy/constraints.txt"
  VENV_ARGS=()
  if [ "$BITS" = 32 ]; then  # Debian's Pillow and cbor2 stand in for the missing wheels
    VENV_ARGS=(--system-site-packages)
    CONSTRAINTS="$(mktemp)"; chmod 0644 "$CONSTRAINTS"
    grep -Ev '^(pillow|cbor2)==' "$APP_DIR/deploy/constraints.txt" >"$CONSTRAINTS"
  fi
  say "Creating $VENV with the pi extra as $OWNER (lgpio is compiled where it has no wheel: minutes on a Pi Zero 2 W)"
  # PYPI=1 makes lgpio's setup.py compile its bundled C library into the module, so no
  # liblgpio-dev is needed (Debian has none); it changes nothing for the packages with wheels.
  if ! { [ -x "$PY" ] || as_owner "$PYTHON" -m venv "${VENV_ARGS[@]}" "$VENV"; } ||
     ! as_owner env PYPI=1 "$PY" -m pip install --quiet --disable-pip-version-check -c "$CONSTRAINTS" -e "${APP_DIR}[pi]" mpremote; then
    VENV_OK=0
    problem "The Python libraries did not install (pip's error is above); the config, config.txt, udev rule, groups and unit are in place: run this again once the error is fixed."
  fi
  [ "$CONSTRAINTS" = "$APP_DIR/deploy/constraints.txt" ] || rm -f "$CONSTRAINTS"
fi
if ! [ -x "$PY" ] || ! (cd "$APP_DIR" && PYTHONDONTWRITEBYTECODE=1 "$PY" -c 'import gpiozero, PIL' 2>/dev/null); then
  VENV_OK=0
fi

# 6. what else the config needs, read by the companion itself, then the service
if [ "$VENV_OK" = 1 ]; then
  if ! NEEDS="$(cd "$APP_DIR" && PYTHONDONTWRITEBYTECODE=1 "$PY" -m companion.board.config needs "$ETC/config.toml")"; then
    echo "Fix $ETC/config.toml first (the line above says which key), then run this again." >&2
    exit 2
  fi
  for need in $NEEDS; do
    if [ "$need" != i2c ] || [ "$I2C_DONE" = 0 ]; then enable_interface "$need"; fi
  done
  # the table's own Wi-Fi when no known Wi-Fi is in range: on a fresh install without a saved Wi-Fi
  # (HOTSPOT=on or off to choose, on any run; deploy/hotspot.sh runs the companion, so after the venv)
  HOTSPOT="${HOTSPOT:-$([ "$FRESH" = 1 ] && echo auto || echo skip)}"
  if [ "$HOTSPOT" != skip ] && ! PREFIX="$PREFIX" SYSTEMCTL="$SYSTEMCTL" bash "$APP_DIR/deploy/hotspot.sh" "$HOTSPOT"; then
    problem "The hotspot was not set up (its error is above); run deploy/hotspot.sh again once that is fixed."
  fi
  if [ -z "$PREFIX" ]; then
    "$SYSTEMCTL" restart galapagos-companion.service || problem "The service did not start: journalctl -u galapagos-companion says why."
  fi
else
  problem "Without $VENV the config's readers were not read: SPI and the UART are not turned on yet, and the service is not started."
fi

if [ "${#PROBLEMS[@]}" -gt 0 ]; then
  printf '\nThe install finished with %d problem(s):\n' "${#PROBLEMS[@]}" >&2
  printf '  - %s\n' "${PROBLEMS[@]}" >&2
  exit 1
fi
say "Done. Check the parts with: $VENV/bin/companion doctor --config $ETC/config.toml"
say "Log out and in again (or reboot) for the new groups; reboot once after enabling I2C, SPI or the UART."
