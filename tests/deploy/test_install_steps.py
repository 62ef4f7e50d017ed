"""deploy/install.sh's own logic with stubs in place of Python, pip and the kernel.

What only a Pi (or `make pi-install-check`, an arm64 Debian under QEMU) can show — the
packages really building — is not here; what the script decides is: i2c-dev loaded as
raspi-config loads it, a failed pip leaving everything else installed and one sentence
saying so, the venv built by the checkout's owner, a clear refusal on ARMv6, the 32-bit
path taking Debian's Pillow and cbor2, and no error hidden behind `|| true`.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = "etc/systemd/system/galapagos-companion.service"
SCRIPT = (ROOT / "deploy" / "install.sh").read_text()


def checkout(tmp_path: Path) -> Path:
    """A copy of what install.sh reads from the checkout, without a .venv."""
    app = tmp_path / "app"
    for part in ("deploy", "firmware_bridge/udev"):
        shutil.copytree(ROOT / part, app / part)
    return app


def fake_python(tmp_path: Path, pip_fails: bool, py313: bool = True) -> Path:
    """A python3 whose `-m venv DIR` makes DIR/bin/python, a stub that logs who ran pip and fails
    or succeeds; `import gpiozero, PIL` fails (as in a venv pip could not fill)."""
    log = tmp_path / "calls.log"
    inner = tmp_path / "inner-python"
    inner.write_text(f"""#!/bin/sh
echo "$(id -un) PYPI=$PYPI $*" >>{log}
case "$*" in
  *"-m pip"*) {'exit 1' if pip_fails else 'exit 0'} ;;
  *) exit 1 ;;
esac
""")
    outer = tmp_path / "python3"
    outer.write_text(f"""#!/bin/sh
echo "$(id -un) $*" >>{log}
case "$1 $2" in
  "-m venv") shift; for a; do d="$a"; done; mkdir -p "$d/bin"; cp {inner} "$d/bin/python"; exit 0 ;;
  *"(3, 13)"*) exit {0 if py313 else 1} ;;
  "-c "*) exit 0 ;;
esac
exit 1
""")
    for f in (inner, outer):
        f.chmod(0o755)
    log.touch()
    log.chmod(0o666)
    return outer


def run(app: Path, prefix: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = dict(os.environ, PREFIX=str(prefix), SKIP_APT="1", APP_USER="pi", **env)
    return subprocess.run(["bash", str(app / "deploy" / "install.sh")], env=full,
                          capture_output=True, text=True, timeout=120)


def test_i2c_dev_is_loaded_at_boot_as_raspi_config_does(tmp_path: Path) -> None:
    """do_i2c writes dtparam=i2c_arm=on *and* adds i2c-dev to /etc/modules: without the module
    /dev/i2c-1 is missing after the reboot and the OLED « does not exist »."""
    prefix = tmp_path / "root"
    (prefix / "etc").mkdir(parents=True)
    (prefix / "etc/modules").write_text("# /etc/modules\n#i2c-dev\n")
    for _ in range(2):
        result = run(ROOT, prefix, SKIP_VENV="1")
        assert result.returncode == 0, result.stderr
    lines = (prefix / "etc/modules").read_text().splitlines()
    assert lines.count("i2c-dev") == 1


def test_a_failed_pip_leaves_config_boot_udev_groups_and_unit_in_place(tmp_path: Path) -> None:
    app, prefix = checkout(tmp_path), tmp_path / "root"
    python = fake_python(tmp_path, pip_fails=True)
    result = run(app, prefix, PYTHON=str(python))
    assert result.returncode == 1
    assert (prefix / "etc/galapagos-companion/config.toml").exists()
    assert (prefix / UNIT).exists()
    assert list((prefix / "etc/udev/rules.d").glob("*.rules"))
    assert "dtparam=i2c_arm=on" in (prefix / "boot/firmware/config.txt").read_text()
    assert "i2c-dev" in (prefix / "etc/modules").read_text().splitlines()
    assert "The Python libraries did not install" in result.stderr
    # one sentence, no traceback, no « fix config.toml » for a config that is fine
    assert "Traceback" not in result.stderr and "Fix " not in result.stderr
    assert "PYPI=1" in (tmp_path / "calls.log").read_text()  # lgpio builds its bundled library


def test_without_the_venv_no_pillow_traceback_and_one_sentence(tmp_path: Path) -> None:
    app, prefix = checkout(tmp_path), tmp_path / "root"
    result = run(app, prefix, SKIP_VENV="1")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and "ModuleNotFoundError" not in result.stderr
    assert "Fix " not in result.stderr
    assert "the service is not started" in result.stderr
    assert (prefix / UNIT).exists()


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("runuser") is None, reason="needs root and runuser")
def test_the_venv_is_built_by_the_owner_of_the_checkout_not_root(tmp_path: Path) -> None:
    owner = pwd.getpwnam("nobody")
    tmp_path = Path(tempfile.mkdtemp(prefix="install-owner-"))  # pytest's own folder is root's only (0700)
    try:
        tmp_path.chmod(0o755)
        app, prefix = checkout(tmp_path), tmp_path / "root"
        python = fake_python(tmp_path, pip_fails=False)
        for path in [app, *app.rglob("*")]:
            os.chown(path, owner.pw_uid, owner.pw_gid)
        result = run(app, prefix, PYTHON=str(python))
        check_owner(tmp_path, app, owner, result)
    finally:
        shutil.rmtree(tmp_path)


def check_owner(tmp_path: Path, app: Path, owner: pwd.struct_passwd, result: subprocess.CompletedProcess[str]) -> None:
    calls = (tmp_path / "calls.log").read_text().splitlines()
    venv_calls = [c for c in calls if "-m venv" in c or "-m pip" in c]
    assert venv_calls and all(c.startswith("nobody ") for c in venv_calls), calls
    assert (app / ".venv").stat().st_uid == owner.pw_uid
    assert "The Python libraries did not install" not in result.stderr


def test_armv6_is_refused_naming_the_64_bit_image(tmp_path: Path) -> None:
    result = run(ROOT, tmp_path / "root", SKIP_VENV="1", ARCH="armv6l")
    assert result.returncode == 3
    assert "Raspberry Pi OS Lite (64-bit)" in result.stderr
    assert not (tmp_path / "root").exists()  # refused before touching anything


def test_32_bit_takes_debians_pillow_and_cbor2(tmp_path: Path) -> None:
    """No armv7l wheel of Pillow 13 or cbor2 6: the venv sees Debian's, and pip is not asked to build them."""
    app, prefix = checkout(tmp_path), tmp_path / "root"
    python = fake_python(tmp_path, pip_fails=False)
    run(app, prefix, PYTHON=str(python), ARCH="armv7l")
    calls = (tmp_path / "calls.log").read_text()
    assert "--system-site-packages" in calls
    assert "python3-pil python3-cbor2" in SCRIPT


def test_a_32_bit_debian_12_is_refused_naming_the_64_bit_image(tmp_path: Path) -> None:
    """Its Pillow (9.4) is older than the companion needs, and PyPI has no armv7l wheel of a newer one."""
    python = fake_python(tmp_path, pip_fails=False, py313=False)
    result = run(checkout(tmp_path), tmp_path / "root", PYTHON=str(python), ARCH="armv7l")
    assert result.returncode == 3
    assert "Raspberry Pi OS Lite (64-bit)" in result.stderr
    assert not (tmp_path / "root").exists()


def test_pins_are_exact_and_cover_the_device_libraries() -> None:
    pins = dict(line.split("==") for line in (ROOT / "deploy/constraints.txt").read_text().splitlines()
                if line and not line.startswith("#"))
    for name in ("gpiozero", "lgpio", "rpi-lgpio", "smbus2", "spidev", "pyserial", "luma.core", "luma.oled",
                 "adafruit-circuitpython-pn532", "pillow", "cbor2"):
        assert name in pins, name
    assert pins["gpiozero"] not in ("2.0", "2.0.1")  # their LGPIOFactory ignores chip=
    assert "-c \"$CONSTRAINTS\"" in SCRIPT


def test_no_error_is_hidden_and_apt_never_asks() -> None:
    assert "|| true" not in SCRIPT.replace('| tr -d \'[:space:]\' || true', "").replace(
        '2>/dev/null || true)"', "")
    assert ">/dev/null 2>&1 || true" not in SCRIPT
    assert "export DEBIAN_FRONTEND=noninteractive" in SCRIPT


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="needs shellcheck (apt-get install shellcheck)")
def test_the_install_scripts_pass_shellcheck() -> None:
    scripts = [ROOT / "deploy" / "install.sh", ROOT / "deploy" / "pi-install-check.sh"]
    result = subprocess.run(["shellcheck", *map(str, scripts)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout
