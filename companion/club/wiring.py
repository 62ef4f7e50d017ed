"""The club's part of ``companion run``: the outbox hook on the journal and the publisher thread.

The composition root calls :func:`start` once the devices are open and :meth:`Club.stop` before it
closes the journal; with no ``[mqtt]`` table nothing is installed (publishing is off by default).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from companion.club.outbox import Outbox
from companion.club.publisher import Publisher

log = logging.getLogger(__name__)


class Club:
    def __init__(self, outbox: Outbox, publisher: Publisher) -> None:
        self.outbox, self.publisher = outbox, publisher
        self._lock = threading.Lock()

    def health_changed(self, game_id: str | None) -> None:
        """A device went down or came back: the status says so (its own small transaction)."""
        try:
            self.outbox.refresh(game_id)
        except Exception:  # noqa: BLE001 - a full card: the next action's status says it
            log.exception("the club status could not be written")

    def stop(self) -> None:
        with self._lock:
            self.outbox.uninstall()
            self.publisher.stop()


def start(settings: Any, journal: Any, db_path: Any, devices_down: Any, notices: list[str]) -> Club | None:
    """Install the outbox and start publishing to ``settings``' broker; None when publishing is off or the
    journal cannot take the outbox (a read-only card: said in ``notices``)."""
    if settings is None:
        return None
    try:
        outbox = Outbox(journal, settings.table, settings.lang, devices_down=devices_down).install()
    except Exception as exc:  # noqa: BLE001 - the table plays without the club
        notices.append(f"Publishing to the club's broker is off: the journal cannot keep its outbox ({exc}).")
        return None

    shown: list[str] = []

    def said(problem: str | None) -> None:
        """The dashboard's notices say the broker's problem while it lasts (the list is the page's own)."""
        for old in shown:
            if old in notices:
                notices.remove(old)
        shown.clear()
        if problem:
            notices.append(problem)
            shown.append(problem)

    publisher = Publisher(settings, str(db_path), outbox.wake, on_problem=said).start()
    log.info("publishing table %s to %s", settings.table, settings.url)
    return Club(outbox, publisher)
