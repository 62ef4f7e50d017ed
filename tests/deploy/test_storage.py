"""Where the journal lives: a root file system in memory (raspi-config's overlay) and a read-only folder.

The mount tables below are what the kernel writes in ``/proc/self/mountinfo`` (proc(5)): an
ordinary card, raspi-config's overlay (overlayroot: ``/`` an overlay whose upper layer is a tmpfs
at /media/root-rw, ``overlayroot=tmpfs`` on the command line), a container's overlay (its upper
layer on a disk) and a tmpfs. The read-only folder is a real read-only bind mount, made in a
mount namespace of this test's own (``unshare``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from companion.cli.storage import LOST, mount_of, overlay_root, place_journal
from companion.table.journal import Journal
from companion.table.session import Session

ROOT = Path(__file__).resolve().parents[2]

CARD = """\
22 27 0:21 / /proc rw,relatime - proc proc rw
27 1 179:2 / / rw,noatime - ext4 /dev/mmcblk0p2 rw
28 27 179:1 / /boot/firmware rw,relatime - vfat /dev/mmcblk0p1 rw,fmask=0022
"""
# raspi-config's overlay file system (the overlayroot package), inside the service: the state
# directory is a bind mount of the overlay, as systemd's StateDirectory= makes it
OVERLAYROOT = """\
22 27 0:21 / /proc rw,relatime - proc proc rw
24 1 0:24 / /media/root-rw rw,relatime - tmpfs tmpfs-root rw
25 1 179:2 / /media/root-ro ro,relatime - ext4 /dev/mmcblk0p2 ro
27 1 0:25 / / rw,relatime - overlay overlayroot rw,lowerdir=/media/root-ro,upperdir=/media/root-rw/overlay,workdir=/media/root-rw/overlay-workdir
28 27 179:1 / /boot/firmware rw,relatime - vfat /dev/mmcblk0p1 rw
90 27 0:25 /var/lib/galapagos-companion /var/lib/galapagos-companion rw,nosuid - overlay overlayroot rw,lowerdir=/media/root-ro,upperdir=/media/root-rw/overlay,workdir=/media/root-rw/overlay-workdir
"""
OVERLAYROOT_CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 fsck.repair=yes rootwait overlayroot=tmpfs"
CONTAINER = """\
700 600 0:50 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/ABC,upperdir=/var/lib/docker/overlay2/x/diff,workdir=/var/lib/docker/overlay2/x/work
"""
TMPFS = CARD + "40 27 0:30 / /run/user/1000 rw,nosuid - tmpfs tmpfs rw,size=100k\n"


def test_mount_of_takes_the_longest_mount_point_and_reads_escaped_names() -> None:
    assert mount_of(Path("/var/lib/galapagos-companion"), OVERLAYROOT)[:2] == ("/var/lib/galapagos-companion", "overlay")
    assert mount_of(Path("/boot/firmware/x"), CARD)[:2] == ("/boot/firmware", "vfat")
    assert mount_of(Path("/bootx"), CARD)[:2] == ("/", "ext4")  # a prefix of the name is not a parent
    spaced = CARD + "41 27 8:1 / /media/my\\040stick rw - ext4 /dev/sda1 rw\n"
    assert mount_of(Path("/media/my stick/j.db"), spaced)[:2] == ("/media/my stick", "ext4")
    assert overlay_root(OVERLAYROOT_CMDLINE) and overlay_root("boot=overlay quiet") and not overlay_root("quiet")


def test_a_card_says_nothing_and_an_overlay_root_says_games_will_be_lost(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    assert place_journal(db, mountinfo=CARD, cmdline="quiet").warning is None
    over = place_journal(db, mountinfo=OVERLAYROOT.replace("/var/lib/galapagos-companion", str(tmp_path)),
                         cmdline=OVERLAYROOT_CMDLINE)
    assert over.path == db and LOST in over.warning and "overlay" in over.warning
    # the same overlay without the command line: its upper layer is a tmpfs all the same
    assert LOST in place_journal(db, mountinfo=OVERLAYROOT.replace("/var/lib/galapagos-companion", str(tmp_path)),
                                 cmdline="quiet").warning
    assert place_journal(db, mountinfo=CONTAINER, cmdline="quiet").warning is None  # upper layer on a disk
    ram = TMPFS.replace("/run/user/1000", str(tmp_path))
    assert LOST in place_journal(db, mountinfo=ram, cmdline="").warning
    assert place_journal(db, sim=True, mountinfo=ram, cmdline="").warning is None  # a simulation in /tmp


def _unshare_works() -> bool:
    if shutil.which("unshare") is None:
        return False
    return subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _unshare_works(), reason="needs unshare -rm (user and mount namespaces) for a read-only bind mount")
def test_a_read_only_journal_folder_plays_on_a_copy_in_memory_and_says_so_everywhere(tmp_path: Path) -> None:
    card, memory = tmp_path / "card", tmp_path / "run"
    card.mkdir()
    memory.mkdir()
    with Journal(card / "journal.db") as journal:
        gid = Session.new(journal, "pocket-galapagos", ["Ann"], {}).id
    before = (card / "journal.db").read_bytes()
    env = dict(os.environ, RUNTIME_DIRECTORY=str(memory), PYTHONUNBUFFERED="1")
    script = (f"mount --bind -o ro {card} {card} && exec {sys.executable} -m companion --db {card / 'journal.db'} "
              "run --sim --port 0")
    proc = subprocess.Popen(["unshare", "-rm", "sh", "-c", script], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        link = None
        deadline = time.monotonic() + 30
        while link is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else ""
            link = re.search(r"(http://127\.0\.0\.1:\d+)/\?token=(\w+)", line)
        assert link is not None
        base, token = link.group(1), link.group(2)

        def get(path: str, body: dict | None = None) -> bytes:
            req = urllib.request.Request(base + path, method="POST" if body else "GET",
                                         data=json.dumps(body).encode() if body else None,
                                         headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.read()

        listing = json.loads(get("/api/games"))
        assert [g["id"] for g in listing["games"]] == [gid] and not listing["journal"]["readonly"]
        assert any(LOST in n and str(card) in n for n in listing["journal"]["notices"])
        get(f"/api/games/{gid}/actions", {"type": "population", "species": "rat", "change": 1})  # recorded: in memory
        page = get(f"/g/{gid}/table?token={token}").decode()
        assert LOST in page  # the banner every page carries, as for a device that is down
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and err.count("read-only") >= 1
    assert (card / "journal.db").read_bytes() == before  # the card was never written
    copies = list(memory.rglob("journal.db"))
    assert len(copies) == 1
    with Journal(copies[0]) as copy:
        assert copy.game(gid) is not None and Session.open(copy, gid).version == 1


@pytest.mark.skipif(not _unshare_works(), reason="needs unshare -rm (user and mount namespaces) for a read-only bind mount")
def test_a_read_only_folder_and_nowhere_to_write_is_one_sentence(tmp_path: Path) -> None:
    card = tmp_path / "card"
    card.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("RUNTIME_DIRECTORY", "XDG_RUNTIME_DIR", "TMPDIR")}
    # in the test's own mount namespace: the card read-only at /mnt/card, the temporary folders
    # empty and read-only, the working directory the card; the checkout (and its .venv) is bound at
    # /mnt/checkout first, since a clone that lives under /tmp is hidden with it
    python = Path(sys.executable)
    if python.is_relative_to(ROOT):
        python = Path("/mnt/checkout") / python.relative_to(ROOT)
    env["PYTHONPATH"] = "/mnt/checkout"
    script = (f"mount -t tmpfs tmpfs /mnt && mkdir /mnt/card /mnt/checkout && mount --bind -o ro {card} /mnt/card && "
              f"mount --rbind {ROOT} /mnt/checkout && "
              "mount -t tmpfs -o ro tmpfs /tmp && mount -t tmpfs -o ro tmpfs /var/tmp && cd /mnt/card && "
              f"exec {python} -m companion --db /mnt/card/journal.db run --sim --port 0")
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("companion: The journal's folder /mnt/card is read-only"), lines
    assert "no journal to start with" in lines[0]
    assert done.returncode == 2  # systemd does not restart it: a read-only card does not heal by itself
