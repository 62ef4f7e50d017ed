"""The Wi-Fi QR code: the first of a phone's two scans when the table is on its own hotspot (the
second is the join QR, :func:`companion.board.screens.common.qr`).

Drawn from ``ctx.data["wifi"]``: ``{"qr": the WIFI: payload, "ssid": the network's name}``.
"""

from __future__ import annotations

import os
from typing import Any

from companion.board.screens.common import draw_qr
from companion.drawing.canvas import WIDTH, Canvas
from companion.drawing.context import ScreenContext
from companion.engine import texts

WIFI_SCREEN = "wifi"
#: the words of the network screens, the join panel's Wi-Fi step and the first-boot walk: their own
#: catalog (``companion/locale/<lang>/LC_MESSAGES/network.po``) beside the interface's
DOMAIN = "network"
LOCALE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "locale")
texts.register(DOMAIN, LOCALE)


def t(msgid: str, lang: str) -> str:
    return texts.gettext_(msgid, lang, DOMAIN)


def wifi(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """The hotspot's Wi-Fi QR code at the left, its name and « 1/2 » at the right."""
    info = ctx.data.get("wifi") or {}
    payload = info.get("qr")
    if not payload:
        c.text(2, 2, t("Wi-Fi", ctx.lang), "medium")
        c.scrolled(2, 22, t("The table is not on its own hotspot.", ctx.lang), "small",
                   WIDTH - 4, 3, 11, ctx.elapsed)
        return
    left = draw_qr(c, payload) + 4
    room = WIDTH - left
    c.text(left, 0, t("Wi-Fi", ctx.lang), "medium")
    c.scrolled(left, 18, str(info.get("ssid", "")), "small", room, 2, 11, ctx.elapsed)
    c.text(left, 52, t("scan 1/2", ctx.lang), "small")

