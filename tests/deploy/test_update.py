"""``companion update``: a release installed beside the current one, checked by its own doctor and a
replay of the journal's last games, switched only when both pass; ``--rollback`` goes back.

The releases are wheels built here from this tree (a wheel is a zip: the packages and a
``.dist-info``), one of them deliberately broken; their virtual environments reuse this test run's
installed libraries (``--reuse-dependencies``: pip with ``--no-index``), so nothing touches the network.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from companion.table.backups import backups
from companion.table.journal import Journal
from companion.table.session import Session

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("companion", "hw", "web", "firmware_bridge")


def build_wheel(dest: Path, version: str, patch: dict[str, str] | None = None) -> Path:
    """A wheel of this tree's packages at ``version``; ``patch`` replaces (or appends to, with a
    leading ``+``) the text of some files."""
    patch = patch or {}
    dist = f"galapagos_companion-{version}.dist-info"
    wheel = dest / f"galapagos_companion-{version}-py3-none-any.whl"
    record = []

    def add(z: zipfile.ZipFile, name: str, data: bytes) -> None:
        z.writestr(name, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")

    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_STORED) as z:
        for package in PACKAGES:
            for path in sorted((ROOT / package).rglob("*")):
                if not path.is_file() or "__pycache__" in path.parts or path.suffix == ".pyc":
                    continue
                name = path.relative_to(ROOT).as_posix()
                data = path.read_bytes()
                if name in patch:
                    text = patch[name]
                    data = (data + text[1:].encode()) if text.startswith("+") else text.encode()
                add(z, name, data)
        add(z, f"{dist}/METADATA", f"Metadata-Version: 2.1\nName: galapagos-companion\nVersion: {version}\n".encode())
        add(z, f"{dist}/WHEEL", b"Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        add(z, f"{dist}/entry_points.txt", b"[console_scripts]\ncompanion = companion.cli.main:main\n")
        z.writestr(f"{dist}/RECORD", "\n".join(record + [f"{dist}/RECORD,,"]) + "\n")
    return wheel


def site_paths() -> str:
    return "\n".join(p for p in sys.path if p.endswith("site-packages")) + "\n"


def installed_release(home: Path, wheel: Path) -> Path:
    """``home/.venv`` as the install makes it, with ``wheel`` in it (and this run's libraries).

    Made without a pip of its own (``--without-pip``) and filled by this run's pip (``pip --python``):
    seeding pip into a virtual environment is most of its cost, and an update never uses the running
    release's pip (it makes the new release's environment, pip included, with ``python -m venv``), so
    an update that came to rely on it fails here."""
    venv = home / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    for site in venv.glob("lib/python3*/site-packages"):
        (site / "galapagos-reused.pth").write_text(site_paths(), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet",
                    "--no-deps", "--no-index", "--disable-pip-version-check", str(wheel)], check=True, timeout=300)
    return venv


def companion(home: Path, db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The table's own command, started the way the unit starts it: through ``home/.venv``."""
    env = {k: v for k, v in os.environ.items() if k not in ("COMPANION_CONFIG", "PYTHONPATH")}
    return subprocess.run([str(home / ".venv" / "bin" / "companion"), "--db", str(db), *args], cwd=home, env=env,
                          capture_output=True, text=True, timeout=600)


def running_version(home: Path) -> str:
    done = subprocess.run([str(home / ".venv" / "bin" / "python"), "-P", "-c",
                           "import importlib.metadata as m, companion; print(m.version('galapagos-companion'), companion.__file__)"],
                          cwd=home, capture_output=True, text=True, timeout=60, check=True)
    version, where = done.stdout.split()
    assert str(home / ".venv") in where or "/releases/" in where, where  # its own copy, never this checkout
    return version


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    dest = tmp_path_factory.mktemp("wheels")
    return {
        "1.0.0": build_wheel(dest, "1.0.0"),
        "2.0.0": build_wheel(dest, "2.0.0"),
        # imports fail: its doctor cannot even start
        "3.0.0": build_wheel(dest, "3.0.0", {"companion/__init__.py": "+\nraise ImportError('broken on purpose')\n"}),
        # its doctor passes, but it cannot open a game of the journal
        "4.0.0": build_wheel(dest, "4.0.0", {"companion/table/session.py":
                                             "+\nSession.open = classmethod(lambda cls, *a, **k: 1 / 0)\n"}),
    }


@pytest.mark.slow(reason="three real updates, each making a virtual environment with pip and installing a release into it, "
                         "then that release's doctor and replay run as processes")
def test_an_update_switches_a_broken_one_stays_and_a_rollback_returns(tmp_path: Path, wheels: dict[str, Path]) -> None:
    home = tmp_path / "table"
    home.mkdir()
    installed_release(home, wheels["1.0.0"])
    db = tmp_path / "journal.db"
    with Journal(db) as journal:
        gid = Session.new(journal, "pocket-galapagos", ["Ann"], {}).id
    assert running_version(home) == "1.0.0"

    done = companion(home, db, "update", str(wheels["2.0.0"]), "--reuse-dependencies")
    assert done.returncode == 0, done.stderr
    assert "1 game(s) replayed" in done.stdout and "Switched to" in done.stdout
    assert (home / ".venv").is_symlink() and running_version(home) == "2.0.0"
    assert len(backups(db)) == 1  # the journal was backed up before the switch
    shown = companion(home, db, "show", gid)  # the new release reads the journal
    assert shown.returncode == 0 and json.loads(shown.stdout)["version"] == 0

    for broken, why in (("3.0.0", "doctor"), ("4.0.0", f"cannot replay game {gid}")):
        before = sorted(p.name for p in (home / "releases").iterdir())
        done = companion(home, db, "update", str(wheels[broken]), "--reuse-dependencies")
        assert done.returncode == 2, done.stdout
        message = done.stderr.strip().splitlines()
        assert len(message) == 1 and why in message[0] and "Nothing was switched" in message[0], done.stderr
        assert "Traceback" not in done.stderr
        assert running_version(home) == "2.0.0"
        assert sorted(p.name for p in (home / "releases").iterdir()) == before  # its folder removed again

    done = companion(home, db, "update", "--rollback")
    assert done.returncode == 0, done.stderr
    assert running_version(home) == "1.0.0"
    done = companion(home, db, "update", "--rollback")  # and forth again: 2.0.0 was kept
    assert done.returncode == 0, done.stderr
    assert running_version(home) == "2.0.0"


def test_without_a_previous_release_a_rollback_is_one_sentence(tmp_path: Path, wheels: dict[str, Path]) -> None:
    home = tmp_path / "table"
    home.mkdir()
    installed_release(home, wheels["1.0.0"])
    done = companion(home, tmp_path / "j.db", "update", "--rollback")
    assert done.returncode == 2 and done.stderr.strip() == (
        "companion: There is no previous release to go back to (none was kept by an update).")
    assert running_version(home) == "1.0.0" and not (home / ".venv").is_symlink()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give the checkout to another user")
def test_root_is_told_to_run_it_as_the_checkouts_owner(tmp_path: Path, wheels: dict[str, Path]) -> None:
    home = tmp_path / "table"
    home.mkdir()
    os.chown(home, 4242, 4242)
    done = subprocess.run([sys.executable, "-m", "companion", "update", str(wheels["2.0.0"]), "--home", str(home)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("companion: Run companion update as ")
    assert "not as root" in done.stderr and list(home.iterdir()) == []  # nothing made there
