"""``companion update``: a new release beside the current one, checked, then switched; and back.

The table runs from ``<home>/.venv`` (the unit's ``ExecStart``). An update installs the new
release into a virtual environment of its own, ``<home>/releases/<name>``, and asks *that*
release, never the running one, to prove itself:

1. ``companion doctor`` with the table's config (a release that cannot load the config or its
   device code refuses; a device that is merely unplugged does not);
2. a replay of the journal's last games: the journal is backed up, and the new release opens each
   game of a copy of that backup (``companion show``), which must succeed and end where the current
   release ends (over or not, the same scores).

Only when both pass is ``<home>/.venv`` switched (a symbolic link, replaced in one rename) to the
new release; the previous one stays, named by ``<home>/releases/previous``, for
``companion update --rollback``. The first update moves the directory the install made into
``releases/`` (its scripts start through ``<home>/.venv``, so they stay consistent). Nothing is
restarted: ``sudo systemctl restart galapagos-companion`` starts the new release (the command
says so). Older releases are removed, keeping the current and the previous ones.
"""

from __future__ import annotations

import argparse
import json
import os
import pwd
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.cli.main import UsageError, command, subcommands
from companion.table.journal import Journal, default_db_path
from companion.table.session import Session

#: games of the journal the new release must replay (the most recently played)
REPLAY_GAMES = 5
#: seconds each check of the new release may take (a Pi Zero imports slowly)
CHECK_TIMEOUT = 300


@subcommands
def _parsers(sub: Any) -> None:
    p = sub.add_parser("update", help="install a release beside the current one, check it, switch (or --rollback)")
    p.add_argument("source", nargs="?",
                   help="the release: a wheel, a source folder, or a pip VCS address (git+https://…@TAG)")
    p.add_argument("--rollback", action="store_true", help="go back to the release before the last update")
    p.add_argument("--home", help="the folder holding .venv and releases/ (default: the one this command runs from)")
    p.add_argument("--config", help="the table's config the doctor checks (default: $COMPANION_CONFIG, then the user's)")
    p.add_argument("--db", default=argparse.SUPPRESS, help="journal database (as the global --db)")
    p.add_argument("--reuse-dependencies", action="store_true",
                   help="offline: the new release uses the current release's installed libraries (pip --no-deps --no-index)")
    p.add_argument("--replay", type=int, default=REPLAY_GAMES, help=f"games the new release replays ({REPLAY_GAMES})")


class Refused(Exception):
    """The new release failed a check: nothing was switched."""


def _say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _run(argv: list[str], what: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=CHECK_TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        raise Refused(f"{what} took longer than {CHECK_TIMEOUT} s.") from None
    except OSError as exc:
        raise Refused(f"{what} could not run ({exc.strerror or exc}).") from None


def _last_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
    return lines[-1].strip() if lines else f"exit status {done.returncode}"


class Releases:
    """``<home>/.venv`` (the running release, a link after the first update) and ``<home>/releases/``."""

    def __init__(self, home: Path, link: str = ".venv"):
        self.home = home
        self.link = home / link
        self.folder = home / "releases"
        self.previous_link = self.folder / "previous"

    def current(self) -> Path:
        return self.link.resolve()

    def previous(self) -> Path | None:
        if not self.previous_link.is_symlink():
            return None
        target = self.previous_link.resolve()
        return target if (target / "bin" / "python").exists() else None

    def new_folder(self) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        return self.folder / f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(2)}"

    def _point(self, link: Path, target: Path) -> None:
        """``link`` → ``target`` in one rename (a link made beside it, then moved over it)."""
        temporary = link.with_name(f".{link.name}.{secrets.token_hex(4)}")
        os.symlink(os.path.relpath(target, link.parent), temporary)
        os.replace(temporary, link)

    def switch(self, target: Path) -> Path:
        """Make ``target`` the running release; returns the one it replaces (now ``previous``)."""
        old = self.current()
        if self.link.is_dir() and not self.link.is_symlink():
            # the first update: the install's own folder joins the releases (a rename, same file system)
            moved = self.folder / f"installed-{time.strftime('%Y%m%d-%H%M%S')}"
            os.rename(self.link, moved)
            old = moved
        self._point(self.link, target)
        self._point(self.previous_link, old)
        return old

    def prune(self) -> list[Path]:
        """Remove the releases that are neither current nor previous (nor used by one of them)."""
        keep = {self.current()}
        previous = self.previous()
        if previous is not None:
            keep.add(previous)
        for kept in list(keep):
            keep |= _reused(kept)
        removed = []
        for release in self.folder.iterdir() if self.folder.is_dir() else []:
            if release.is_symlink() or not release.is_dir() or release.name.startswith("."):
                continue
            if release.resolve() not in keep:
                shutil.rmtree(release, ignore_errors=True)
                removed.append(release)
        return removed


def _site_packages(venv: Path) -> list[Path]:
    return sorted(p.resolve() for p in venv.glob("lib/python3*/site-packages"))


def _reused(venv: Path) -> set[Path]:
    """The releases whose libraries ``venv`` uses (``--reuse-dependencies``: a .pth naming them)."""
    found = set()
    for pth in venv.glob("lib/python3*/site-packages/galapagos-reused.pth"):
        for line in pth.read_text(encoding="utf-8").splitlines():
            path = Path(line.strip())
            if path.is_absolute():
                for parent in path.parents:
                    if (parent / "pyvenv.cfg").exists():
                        found.add(parent.resolve())
                        break
    return found


def install(releases: Releases, source: str, reuse: bool) -> Path:
    """A new virtual environment in ``releases/`` with ``source`` installed (byte-compiled)."""
    target = releases.new_folder()
    done = _run([sys.executable, "-m", "venv", str(target)], "Creating the virtual environment")
    if done.returncode != 0:
        raise Refused(f"The virtual environment could not be made: {_last_line(done)}")
    python = target / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input"]
    if reuse:  # the libraries this command runs with (the current release's), after the new one's own
        lines = [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
        for site in _site_packages(target):
            (site / "galapagos-reused.pth").write_text("\n".join(lines) + "\n", encoding="utf-8")
        pip += ["--no-deps", "--no-index", "--no-build-isolation"]
    done = _run(pip + [source], f"Installing {source}")
    if done.returncode != 0:
        raise Refused(f"{source} could not be installed: {_last_line(done)}")
    return target


def check_doctor(python: Path, config: str | None) -> str:
    """The new release's doctor: 0 (every part answers) or 1 (a part is down) pass; anything else refuses."""
    argv = [str(python), "-P", "-m", "companion", "doctor", "--json"] + (["--config", config] if config else [])
    done = _run(argv, "companion doctor")
    checks = []
    for line in done.stdout.splitlines():
        try:
            checks.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    if done.returncode not in (0, 1) or not checks or "Traceback" in done.stderr:
        raise Refused(f"companion doctor of the new release failed: {_last_line(done)}")
    return "every part answers" if done.returncode == 0 else "a part is down, as before"


def _ending(state: dict[str, Any]) -> dict[str, Any]:
    return {"over": bool(state.get("over")), "scores": state.get("scores") if state.get("over") else None}


def check_replay(python: Path, backup: Path, games: int) -> int:
    """The new release opens the last ``games`` games of a copy of ``backup`` and ends each where this one does."""
    with tempfile.TemporaryDirectory(prefix="companion-update-") as tmp:
        ours, theirs = Path(tmp) / "ours.db", Path(tmp) / "theirs.db"
        shutil.copyfile(backup, ours)
        shutil.copyfile(backup, theirs)
        with Journal(ours) as journal:
            records = sorted(journal.games(), key=lambda r: r.created)[-games:] if games > 0 else []
            expected = {}
            for record in records:
                try:
                    expected[record.id] = _ending(Session.open(journal, record.id).public())
                except Exception:  # noqa: BLE001 - a game this release cannot open either is not the new one's fault
                    continue
        for game_id, ending in expected.items():
            done = _run([str(python), "-P", "-m", "companion", "--db", str(theirs), "show", game_id],
                        f"Replaying game {game_id}")
            if done.returncode != 0:
                raise Refused(f"The new release cannot replay game {game_id}: {_last_line(done)}")
            try:
                got = _ending(json.loads(done.stdout))
            except json.JSONDecodeError:
                raise Refused(f"The new release printed no state for game {game_id}.") from None
            if got != ending:
                raise Refused(f"The new release ends game {game_id} elsewhere ({got}, not {ending}).")
        return len(expected)


def backup_journal(db_path: Path) -> Path | None:
    """A backup of the journal now (None when there is no journal yet)."""
    if not db_path.exists():
        return None
    with Journal(db_path) as journal:
        return journal.backup()


def _home(args: argparse.Namespace) -> Releases:
    if args.home:
        return Releases(Path(args.home).absolute())
    prefix = Path(sys.prefix)
    if prefix.parent.name == "releases":  # a release's own scripts start its own python
        return Releases(prefix.parent.parent)
    return Releases(prefix.parent, prefix.name)  # the install's .venv (or the link, started through it)


def _config(args: argparse.Namespace) -> str | None:
    if args.config:
        return args.config
    from companion.board import config  # late: gpiozero, ~60 ms; update only

    found = config.default_path()
    return str(found) if found is not None else None


@command("update")
def cmd_update(args: argparse.Namespace) -> int:
    releases = _home(args)
    owner = releases.home.stat().st_uid if releases.home.exists() else os.geteuid()
    if os.geteuid() == 0 and owner != 0:  # root would leave root-owned releases in the user's checkout
        try:
            name = pwd.getpwuid(owner).pw_name
        except KeyError:
            name = f"user {owner}"
        raise UsageError(f"Run companion update as {name}, who owns {releases.home}, not as root: "
                         "the releases would be root-owned there.")
    if args.rollback:
        return rollback(releases)
    if not args.source:
        raise UsageError("Name the release to install (a wheel, a folder or git+https://…@TAG), or --rollback.")
    if not releases.link.exists():
        raise UsageError(f"There is no {releases.link} to update; run it from the table's virtual environment or give --home.")
    db_path = default_db_path(getattr(args, "db", None)).absolute()
    _say(f"Installing {args.source} beside {releases.current()} ...")
    target: Path | None = None
    try:
        target = install(releases, args.source, args.reuse_dependencies)
        python = target / "bin" / "python"
        _say(f"Doctor: {check_doctor(python, _config(args))}.")
        backup = backup_journal(db_path)  # before the switch: what the new release reads is kept
        replayed = check_replay(python, backup, args.replay) if backup is not None else 0
        _say(f"Journal backed up ({backup.name if backup else 'no journal yet'}); {replayed} game(s) replayed "
             "by the new release, each ending where it ends now.")
    except Refused as refusal:
        if target is not None:
            shutil.rmtree(target, ignore_errors=True)
        raise UsageError(f"{str(refusal).rstrip('.')}. Nothing was switched: the table stays on "
                         f"{releases.current().name}.") from None
    old = releases.switch(target)
    releases.prune()
    _say(f"Switched to {target.name} (the previous release, {old.name}, is kept: companion update --rollback).")
    _say("Restart the table to run it: sudo systemctl restart galapagos-companion")
    return 0


def rollback(releases: Releases) -> int:
    previous = releases.previous()
    if previous is None:
        raise UsageError("There is no previous release to go back to (none was kept by an update).")
    old = releases.switch(previous)
    _say(f"Back on {previous.name} ({old.name} is kept: companion update --rollback returns to it).")
    _say("Restart the table to run it: sudo systemctl restart galapagos-companion")
    return 0
