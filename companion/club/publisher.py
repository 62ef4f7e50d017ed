"""The thread that sends the outbox to the club's broker (paho-mqtt 2, callback API version 2).

In order, QoS 1, at most ``window`` messages in flight (paho's ``max_inflight_messages``); a row is
marked sent only when the broker's PUBACK for its message id comes back (``on_publish``). paho keeps the
messages in flight across a reconnect and sends them again (DUP) in the same order; across a restart of
the companion the outbox still holds them unsent and they go again with the same ``msg`` id. The table
never waits for any of it: the actions only write rows (:mod:`companion.club.outbox`).

A broker that refuses the table (a wrong password, a TLS certificate it cannot check) is said in one
sentence (:attr:`Publisher.problem`, logged once per change); the table plays on and the outbox keeps
everything until the broker accepts it.
"""

from __future__ import annotations

import json
import logging
import ssl
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion import games
from companion.club import messages
from companion.club.outbox import Reader
from companion.club.settings import MqttSettings

log = logging.getLogger(__name__)


def refusal(settings: MqttSettings, reason: Any) -> str:
    """One sentence for a broker that refused the connection (``reason``: paho's ReasonCode or text)."""
    text = str(reason)
    where = f"The MQTT broker {settings.url}"
    if "password" in text.lower() or "not authorized" in text.lower() or "authori" in text.lower():
        return (f"{where} refused table {settings.table}'s username or password: check username and password in "
                f"the config's [mqtt] table (the table plays on and keeps its messages until the broker accepts it).")
    return f"{where} refused table {settings.table} ({text}); the table plays on and keeps its messages."


def unreachable(settings: MqttSettings, exc: BaseException | None) -> str:
    """One sentence for a broker that cannot be reached (down, wrong address, TLS it cannot check)."""
    if isinstance(exc, ssl.SSLError):
        return (f"The MQTT broker {settings.url} could not be checked over TLS ({exc.reason or exc}): check "
                f"ca_file in the config's [mqtt] table; the table plays on and keeps its messages.")
    detail = f" ({exc})" if exc else ""
    return (f"The MQTT broker {settings.url} cannot be reached{detail}; the table plays on and sends its "
            f"messages when it is back.")


class Publisher:
    """Owns one paho client and one thread; :meth:`stop` ends both (the companion's close calls it)."""

    def __init__(self, settings: MqttSettings, db_path: str, wake: threading.Event | None = None, *,
                 window: int = 20, on_problem: Callable[[str | None], None] | None = None,
                 client_id: str | None = None) -> None:
        self.settings = settings
        self.reader = Reader(db_path)
        self.wake = wake or threading.Event()
        self.window = window
        self.on_problem = on_problem
        #: the last problem in one sentence (None: connected, or not tried yet)
        self.problem: str | None = None
        self.connected = threading.Event()
        self.sent = 0  # rows acknowledged since start
        self._stop = threading.Event()
        #: (paho's message info, outbox row id), oldest first; a row is sent once its info says published,
        #: which paho sets on the PUBACK (read here, never under paho's locks: its callbacks hold them)
        self._inflight: list[tuple[Any, int]] = []
        self._queued_up_to = 0
        self._thread: threading.Thread | None = None
        t = settings.table
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id or f"galapagos-table-{t}",
                        clean_session=True)
        c.will_set(messages.topic(t, "online"), "offline", qos=1, retain=True)
        if settings.username:
            c.username_pw_set(settings.username, settings.password)
        if settings.tls:
            c.tls_set(ca_certs=settings.ca_file, certfile=settings.cert_file, keyfile=settings.key_file)
        c.max_inflight_messages_set(window)
        c.reconnect_delay_set(1, 10)  # a broker back on the LAN is found again within 10 s
        c.on_connect = self._on_connect
        c.on_connect_fail = self._on_connect_fail
        c.on_disconnect = self._on_disconnect
        c.on_publish = self._on_publish
        self.client = c

    # -- life --------------------------------------------------------------------------------------
    def start(self) -> Publisher:
        self.client.connect_async(self.settings.host, self.settings.port, keepalive=20)
        self.client.loop_start()  # paho's network thread: reconnects by itself, even the first time
        self._thread = threading.Thread(target=self._run, name="club-publisher", daemon=True)
        self._thread.start()
        return self

    def stop(self, drain: float = 1.0) -> None:
        """Stop: the messages in flight get ``drain`` seconds for their PUBACK, the rest waits in the outbox."""
        deadline = time.monotonic() + drain
        while self.connected.is_set() and time.monotonic() < deadline:
            if not self._inflight and not self.reader.pending(self._queued_up_to, 1):
                break
            self.wake.set()
            time.sleep(0.02)
        self._stop.set()
        self.wake.set()
        if self._thread is not None:
            self._thread.join(5)
        self._flush()
        if self.connected.is_set():
            info = self.client.publish(messages.topic(self.settings.table, "online"), "offline", qos=1, retain=True)
            try:
                info.wait_for_publish(0.5)
            except (RuntimeError, ValueError):
                pass
        self.client.disconnect()
        self.client.loop_stop()
        self.reader.close()

    def _say(self, problem: str | None) -> None:
        if problem == self.problem:
            return
        self.problem = problem
        if problem:
            log.warning("%s", problem)
        if self.on_problem is not None:
            try:
                self.on_problem(problem)
            except Exception:  # noqa: BLE001 - a screen's bug never stops the publisher
                log.exception("the publisher's problem could not be shown")

    # -- paho's callbacks (its network thread) ------------------------------------------------------
    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            self._say(refusal(self.settings, reason))
            return
        self._say(None)
        t = self.settings.table
        client.publish(messages.topic(t, "online"), "online", qos=1, retain=True)
        if self.settings.discovery:
            for topic, payload in messages.discovery(t, all_gauges()):
                client.publish(topic, _json(payload), qos=1, retain=True)
        self.connected.set()
        self.wake.set()

    def _on_connect_fail(self, client: Any, userdata: Any) -> None:
        self._say(unreachable(self.settings, None))

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.connected.clear()
        if not self._stop.is_set() and not reason.is_failure:
            return
        if reason.is_failure and self.problem is None and not self._stop.is_set():
            self._say(unreachable(self.settings, None))

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        """A PUBACK: wake the thread, which reads which messages are now published (paho marks the
        message just after this callback returns, so the thread looks again shortly)."""
        self.wake.set()

    # -- the thread ------------------------------------------------------------------------------------
    def _run(self) -> None:
        last_trim = time.monotonic()
        while not self._stop.is_set():
            self.wake.wait(0.02 if self._inflight else 0.5)
            self.wake.clear()
            try:
                self._flush()
                if self.connected.is_set():
                    self._send()
                if time.monotonic() - last_trim > 60:
                    self.reader.trim()
                    last_trim = time.monotonic()
            except Exception:  # noqa: BLE001 - a full card or a bug: said, and tried again
                log.exception("the club publisher stumbled")
                time.sleep(1)

    def _send(self) -> None:
        room = self.window - len(self._inflight)
        if room <= 0:
            return
        for row in self.reader.pending(self._queued_up_to, room):
            info = self.client.publish(row.topic, row.body(), qos=row.qos, retain=row.retain)
            if info.rc == mqtt.MQTT_ERR_QUEUE_SIZE:
                return
            self._inflight.append((info, row.id))
            self._queued_up_to = row.id

    def _flush(self) -> None:
        """Mark sent the rows whose PUBACK came (only this thread touches ``_inflight``)."""
        acked = [row for info, row in self._inflight if _published(info)]
        if acked:
            self.reader.mark_sent(acked)
            self.sent += len(acked)
            done = set(acked)
            self._inflight = [(i, r) for i, r in self._inflight if r not in done]


def _published(info: Any) -> bool:
    """Whether paho has the PUBACK of ``info``'s message. ``is_published`` raises for a message published
    while the link was down (rc NO_CONN), which paho still keeps and sends after the reconnect; its flag
    then tells the truth."""
    try:
        return bool(info.is_published())
    except RuntimeError:
        return bool(getattr(info, "_published", False))


def all_gauges() -> dict[str, str]:
    """Every installed game's public gauges (key → English label), for Home Assistant's sensors."""
    out: dict[str, str] = {}
    for gid in games.ids():
        out.update(games.package(gid).gauges)
    return out


def _json(payload: Any) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
