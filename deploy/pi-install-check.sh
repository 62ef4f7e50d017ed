#!/usr/bin/env bash
# Prove deploy/install.sh on an arm64 Debian root filesystem under QEMU user emulation:
#   make pi-install-check DEBIAN=trixie     (or bookworm; 5-30 minutes, as root)
#
# It builds the root filesystem with Debian's debootstrap (--foreign, then the second stage under
# qemu-aarch64-static through binfmt_misc), puts the current checkout in /home/pi (copied as a
# tarball would be: Raspberry Pi OS Lite has no git), and runs, inside it (chroot):
#   1. sudo deploy/install.sh, timed, with systemctl and modprobe replaced by stubs that log their
#      calls (a chroot has no running systemd and no kernel of its own; nothing here reboots),
#   2. checks that nothing in the checkout belongs to root,
#   3. companion doctor (as pi; no GPIO, I2C or SPI exists here: its rows must fail with a fix,
#      never a traceback),
#   4. companion run --sim on a free loopback port: the dashboard answers, resident memory read,
#   5. a whole auction game through the CLI (companion script, then replayed through the table).
# Its report (Markdown) is written to $REPORT (default /tmp/pi-install-check-$DEBIAN.md); the
# wheel-or-compile path of every package comes from pip's own --report.
# The root filesystem is deleted at the end unless KEEP=1; BASE_TAR=FILE keeps the debootstrapped
# root filesystem in FILE (and reuses it when FILE exists) to skip debootstrap on the next run.
set -euo pipefail

DEBIAN="${DEBIAN:-trixie}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
SRC="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${WORK:-$(mktemp -d "/tmp/pi-install-check-$DEBIAN.XXXXXX")}"
ROOTFS="$WORK/rootfs"
REPORT="${REPORT:-/tmp/pi-install-check-$DEBIAN.md}"
APP=/home/pi/galapagos-companion

say() { printf '==> %s\n' "$*"; }
die() { printf 'pi-install-check: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap and chroot): sudo make pi-install-check"
command -v debootstrap >/dev/null || die "needs Debian's debootstrap: apt-get install debootstrap"
[ -x /usr/bin/qemu-aarch64-static ] || die "needs qemu-aarch64-static: apt-get install qemu-user-static"
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || die "cannot mount binfmt_misc"
fi
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  cat /usr/lib/binfmt.d/qemu-aarch64.conf >/proc/sys/fs/binfmt_misc/register || die "cannot register qemu-aarch64 with binfmt_misc"
fi

MOUNTED=()
cleanup() {
  local i
  for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do umount -l "${MOUNTED[$i]}" 2>/dev/null || true; done
  if [ -n "${SERVER_PID:-}" ]; then kill "$SERVER_PID" 2>/dev/null || true; fi
  if [ "${KEEP:-0}" != 1 ]; then
    # only once nothing is mounted below it
    if ! grep -q " $ROOTFS/" /proc/mounts; then rm -rf "$WORK"; fi
  fi
}
trap cleanup EXIT
in_root() { chroot "$ROOTFS" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
as_pi() { in_root runuser -u pi -- env HOME=/home/pi "$@"; }

START=$(date +%s)
say "debootstrap $DEBIAN arm64 into $ROOTFS"
if [ -n "${BASE_TAR:-}" ] && [ -e "$BASE_TAR" ]; then  # a root filesystem debootstrapped earlier
  mkdir -p "$ROOTFS" && tar -xpf "$BASE_TAR" -C "$ROOTFS"
else
  debootstrap --arch=arm64 --foreign --variant=minbase \
    --include=python3,ca-certificates,sudo,util-linux "$DEBIAN" "$ROOTFS" "$MIRROR" >"$WORK/debootstrap.log"
  chroot "$ROOTFS" /debootstrap/debootstrap --second-stage >>"$WORK/debootstrap.log"
  if [ -n "${BASE_TAR:-}" ]; then tar -cpf "$BASE_TAR" -C "$ROOTFS" .; fi
fi
echo "deb $MIRROR $DEBIAN main" >"$ROOTFS/etc/apt/sources.list"
for m in proc sys dev dev/pts; do
  case "$m" in
    proc) mount -t proc proc "$ROOTFS/proc" ;;
    sys) mount -t sysfs sys "$ROOTFS/sys" ;;
    dev) mount --bind /dev "$ROOTFS/dev" ;;
    dev/pts) mount --bind /dev/pts "$ROOTFS/dev/pts" ;;
  esac
  MOUNTED+=("$ROOTFS/$m")
done
cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
# the host's own certificate authorities (a TLS-inspecting proxy's, say) trusted in the chroot as
# on the host, for pip (given the system bundle: the pip of Debian 12 reads only certifi's)
PIP_CERT_ENV=()
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$ROOTFS/usr/local/share/ca-certificates/"
  in_root update-ca-certificates >/dev/null
  PIP_CERT_ENV=(PIP_CERT=/etc/ssl/certs/ca-certificates.crt)
fi
BOOTSTRAP_S=$(( $(date +%s) - START ))

# stubs for what a chroot cannot do: they log what the install asked for
for tool in systemctl modprobe reboot; do
  printf '#!/bin/sh\necho "%s $*" >>/var/log/install-stubs.log\n' "$tool" >"$ROOTFS/usr/local/sbin/$tool"
  chmod 0755 "$ROOTFS/usr/local/sbin/$tool"
done
# the boot partition of a fresh Raspberry Pi OS image
mkdir -p "$ROOTFS/boot/firmware"
printf '# For more options and information see\n# http://rptl.io/configtxt\n#dtparam=i2c_arm=on\n#dtparam=i2s=on\n#dtparam=spi=on\n\n[cm4]\notg_mode=1\n\n[all]\n' >"$ROOTFS/boot/firmware/config.txt"
echo 'console=serial0,115200 console=tty1 root=PARTUUID=1 rootfstype=ext4 fsck.repair=yes rootwait' >"$ROOTFS/boot/firmware/cmdline.txt"
in_root useradd -m -s /bin/bash pi

say "copying the checkout (working tree, no .git) to $APP"
mkdir -p "$ROOTFS$APP"
(cd "$SRC" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -xf - -C "$ROOTFS$APP"
in_root chown -R pi:pi "$APP"

say "running deploy/install.sh (the long part: Python packages under emulation)"
T0=$(date +%s)
set +e
in_root env SUDO_USER=pi PIP_REPORT=/tmp/pip-report.json "${PIP_CERT_ENV[@]}" bash "$APP/deploy/install.sh" >"$WORK/install.log" 2>&1
INSTALL_RC=$?
set -e
INSTALL_S=$(( $(date +%s) - T0 ))
cat "$WORK/install.log"
say "install.sh exited $INSTALL_RC after ${INSTALL_S} s"

ROOT_OWNED="$(in_root find "$APP" -not -user pi | head -n 20)"
PYV="$(in_root python3 -V 2>&1)"

say "companion doctor (as pi)"
set +e
as_pi "$APP/.venv/bin/companion" doctor --config /etc/galapagos-companion/config.toml >"$WORK/doctor.log" 2>&1
DOCTOR_RC=$?
set -e
cat "$WORK/doctor.log"

say "companion run --sim"
SERVER_LOG="$WORK/run.log"
chroot "$ROOTFS" runuser -u pi -- env HOME=/home/pi PATH=/usr/bin:/bin COMPANION_DB=/home/pi/sim.db \
  "$APP/.venv/bin/companion" run --sim --port 0 >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!
URL=""; T0=$(date +%s)
for _ in $(seq 1 600); do
  URL="$(grep -oE 'http://127\.0\.0\.1:[0-9]+' "$SERVER_LOG" | head -n1 || true)"
  [ -n "$URL" ] && grep -q "Press Ctrl-C" "$SERVER_LOG" && break
  kill -0 "$SERVER_PID" 2>/dev/null || break
  sleep 0.5
done
START_S=$(( $(date +%s) - T0 ))
HTTP=""; RSS_KB=""
if [ -n "$URL" ]; then
  HTTP="$(curl -s -o /dev/null -w '%{http_code}' --max-time 60 "$URL/join" || true)"
  sleep 5
  # the companion's own process (runuser's child), as the kernel counts it: qemu included
  PID="$(pgrep -f 'python[0-9.]* [^ ]*/companion run --sim' | head -n1 || true)"
  RSS_KB="$(awk '/^VmRSS/ {print $2}' "/proc/$PID/status" 2>/dev/null || true)"
fi
kill "$SERVER_PID" 2>/dev/null || true
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""
cat "$SERVER_LOG"

say "a game through the CLI"
set +e
as_pi sh -c "cd $APP && COMPANION_DB=/home/pi/cli.db .venv/bin/companion script tests/scenarios/auction_full_game.jsonl >/tmp/script.json && .venv/bin/companion replay tests/scenarios/auction_full_game.jsonl --via table >/tmp/replay.json && .venv/bin/companion games" >"$WORK/game.log" 2>&1
GAME_RC=$?
set -e
cat "$WORK/game.log"
WINNER="$(in_root python3 -c 'import json; s=json.load(open("/tmp/script.json")); print("phase", s.get("phase"), "winners", s.get("winners"))' 2>/dev/null || echo "no final state")"

# the wheel-or-compile path of each package, from pip's report
PATHS="$(in_root python3 - <<'EOF' 2>&1 || true
import json
try:
    report = json.load(open("/tmp/pip-report.json"))
except OSError:
    raise SystemExit("no pip report (pip did not run to the end)")
for item in sorted(report["install"], key=lambda i: i["metadata"]["name"].lower()):
    meta, url = item["metadata"], item["download_info"].get("url", "")
    name = url.rsplit("/", 1)[-1]
    if item["download_info"].get("dir_info") is not None:
        how = "the checkout (editable)"
    elif name.endswith(".whl"):
        how = "wheel " + name.split("-", 2)[2].removesuffix(".whl")
    else:
        how = "compiled from " + name if not name.endswith("none-any.whl") else name
    print(f"| {meta['name']} | {meta['version']} | {how} |")
EOF
)"
STUBS="$(cat "$ROOTFS/var/log/install-stubs.log" 2>/dev/null || true)"
MODULES_FILE="$(cat "$ROOTFS/etc/modules" 2>/dev/null || true)"
CONFIG_TXT="$(grep -v '^#' "$ROOTFS/boot/firmware/config.txt" | grep -v '^$' || true)"

{
  echo "## pi-install-check: Debian $DEBIAN arm64 ($(date -u +%F))"
  echo
  echo "- Python: $PYV; debootstrap ${BOOTSTRAP_S} s; install.sh exit $INSTALL_RC in ${INSTALL_S} s (QEMU user emulation on $(nproc) shared x86 cores)"
  echo "- root-owned files in the checkout: ${ROOT_OWNED:-none}"
  echo "- companion doctor: exit $DOCTOR_RC ($(grep -cE '  FAIL  ' "$WORK/doctor.log" || true) rows fail: no GPIO/I2C in a chroot), traceback: $(grep -q Traceback "$WORK/doctor.log" && echo yes || echo no)"
  echo "- companion run --sim: ${URL:-no dashboard}, /join answered HTTP ${HTTP:-none}, ${START_S} s from start to its address; resident memory ${RSS_KB:-?} kB (qemu-aarch64 included)"
  echo "- game through the CLI: exit $GAME_RC; final state: $WINNER"
  echo "- /etc/modules: $(echo "$MODULES_FILE" | grep -v '^#' | tr '\n' ' ')"
  echo "- config.txt (uncommented lines): $(echo "$CONFIG_TXT" | tr '\n' ' ')"
  echo "- stubbed calls: $(echo "$STUBS" | tr '\n' ';' )"
  echo
  echo "| package | version | how it installed |"
  echo "|---|---|---|"
  echo "$PATHS"
} >"$REPORT"
cat "$REPORT"
[ "$INSTALL_RC" = 0 ] && [ -z "$ROOT_OWNED" ] && [ "$DOCTOR_RC" -le 1 ] && ! grep -q Traceback "$WORK/doctor.log" \
  && [ "$HTTP" = 200 ] && [ "$GAME_RC" = 0 ]
