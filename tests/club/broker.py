"""A real Mosquitto broker for the club tests (Debian's ``mosquitto``, as ``make test`` installs it).

Started on a free port of 127.0.0.1 only (never another address), with a config file of its own in the
test's folder; :meth:`Broker.stop` and :meth:`Broker.start` again on the same port model an outage.
Optional: a password file made with ``mosquitto_passwd -b``, and TLS with a CA and a server certificate
made with the ``openssl`` command (once per test session by the ``club_certs`` fixture, or here).
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def make_certs(folder: Path) -> dict[str, Path]:
    """A CA, and a server certificate for 127.0.0.1 signed by it (openssl, 2048-bit RSA, one day)."""
    folder.mkdir(parents=True, exist_ok=True)
    ca_key, ca, key, csr, crt = (folder / n for n in ("ca.key", "ca.crt", "server.key", "server.csr", "server.crt"))
    ext = folder / "ext.cnf"
    ext.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    run = lambda *a: subprocess.run(["openssl", *a], check=True, capture_output=True)  # noqa: E731
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(ca_key), "-out", str(ca), "-days", "1",
        "-subj", "/CN=Club test CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(csr), "-subj", "/CN=127.0.0.1")
    run("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial", "-out", str(crt),
        "-days", "1", "-extfile", str(ext))
    return {"ca": ca, "cert": crt, "key": key}


class Broker:
    """One mosquitto process; ``url`` is what a table's ``[mqtt] url`` names."""

    def __init__(self, folder: Path, *, users: dict[str, str] | None = None, tls: bool = False,
                 acl: str | None = None, certs: dict[str, Path] | None = None) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.tls = tls
        self.certs = (certs or make_certs(folder / "certs")) if tls else {}
        lines = [f"listener {self.port} {HOST}", "persistence true", f"persistence_location {folder}/",
                 # saved after every change, as docs/club.md advises: a broker killed keeps what it acknowledged
                 "autosave_on_changes true", "autosave_interval 1",
                 f"log_dest file {folder / 'mosquitto.log'}", "log_type error", "log_type warning",
                 "log_type notice", "max_queued_messages 100000",
                 # as root mosquitto would become user "mosquitto", who cannot enter the test's folder
                 f"user {pwd.getpwuid(os.geteuid()).pw_name}"]
        if users:
            pw = folder / "passwd"
            pw.write_text("")
            for name, secret in users.items():
                subprocess.run(["mosquitto_passwd", "-b", str(pw), name, secret], check=True, capture_output=True)
            lines += ["allow_anonymous false", f"password_file {pw}"]
        else:
            lines.append("allow_anonymous true")
        if acl is not None:
            (folder / "acl").write_text(acl)
            lines.append(f"acl_file {folder / 'acl'}")
        if tls:
            lines += [f"cafile {self.certs['ca']}", f"certfile {self.certs['cert']}", f"keyfile {self.certs['key']}"]
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{HOST}:{self.port}"

    def start(self, timeout: float = 10.0) -> Broker:
        """Start it and wait until it accepts connections."""
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"mosquitto exited ({self.proc.returncode}): "
                                   f"{self.proc.stderr.read().decode(errors='replace') if self.proc.stderr else ''}"
                                   f"{self.log()}")
            try:
                with socket.create_connection((HOST, self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"mosquitto did not accept on {HOST}:{self.port} within {timeout} s: {self.log()}")

    def stop(self, kill: bool = False) -> None:
        """Stop it (SIGTERM, or SIGKILL with ``kill``: an outage without a goodbye)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.kill() if kill else self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.proc.stderr:
            self.proc.stderr.close()
        self.proc = None

    def log(self) -> str:
        path = self.folder / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""


class Listener:
    """A paho subscriber that keeps every message it gets: ``(topic, payload as JSON or text, retained)``."""

    def __init__(self, broker: Broker, topics: tuple[str, ...] = ("galapagos/#", "homeassistant/#"),
                 **tls: str) -> None:
        import json

        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.messages: list[tuple[str, object, bool]] = []
        self._json = json
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        if "ca" in tls:
            self.client.tls_set(ca_certs=tls["ca"])
        if "username" in tls:
            self.client.username_pw_set(tls["username"], tls.get("password"))
        self.client.on_message = self._on_message
        self.client.on_connect = lambda c, u, f, r, p: [c.subscribe(t, qos=1) for t in topics]
        self.client.connect(HOST, broker.port)
        self.client.loop_start()

    def _on_message(self, client: object, userdata: object, msg: object) -> None:
        raw = msg.payload.decode()  # type: ignore[attr-defined]
        try:
            body: object = self._json.loads(raw)
        except ValueError:
            body = raw
        self.messages.append((msg.topic, body, bool(msg.retain)))  # type: ignore[attr-defined]

    def on(self, suffix: str) -> list[object]:
        return [b for t, b, _ in self.messages if t.endswith(suffix)]

    def wait(self, predicate: object, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():  # type: ignore[operator]
                return True
            time.sleep(0.02)
        return bool(predicate())  # type: ignore[operator]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
