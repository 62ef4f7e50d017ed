"""The periodic refresh replays luma's set-up without DISPLAYOFF.

luma.oled sends its whole init as one command transaction that starts with 0xAE; the old
filter compared each recorded transaction with ``(0xAE,)`` and so resent DISPLAYOFF every
60 s: the glass went dark for a few milliseconds each minute.
"""

from __future__ import annotations

import pytest

from hw.busmodel import I2CBusModel
from hw.oled import Oled, open_device, without_displayoff


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_refresh_sends_no_displayoff(kind: str) -> None:
    oled = Oled(open_device(kind, serial=I2CBusModel(400_000, block=False)), threaded=False)
    assert oled.bus is not None and oled.bus.init_commands[0][0] == 0xAE  # luma's init starts with it
    sent: list[tuple[int, ...]] = []
    real = oled.device.command
    oled.device.command = lambda *cmd: (sent.append(cmd), real(*cmd))[1]  # type: ignore[method-assign]
    oled.refresh()
    assert sent, "the refresh replayed nothing"
    assert all(cmd[0] != 0xAE for cmd in sent), sent
    replayed = [b for cmd in sent for b in cmd]
    rest = [b for cmd in oled.bus.init_commands for b in cmd][1:]
    assert replayed[: len(rest)] == rest  # everything else of the set-up is replayed, in order


def test_without_displayoff_keeps_the_rest_of_a_transaction() -> None:
    assert without_displayoff([(0xAE, 0xD5, 0x80), (0xAE,), (0x81, 0xAE)]) == [(0xD5, 0x80), (0x81, 0xAE)]
