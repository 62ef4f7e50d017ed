"""The version handshake: a Pico whose firmware is not the one this checkout ships is named on the
OLED's status path (a StatusEvent) and in the log, once; HELLO frames never carry a 0x03."""

from __future__ import annotations

import time

from firmware_bridge.core import LinkCore, firmware_mismatch
from firmware_bridge.firmware import config, proto, wire
from firmware_bridge.simulator import Simulator
from hw.events import StatusEvent
from hw.rfid.bridge import BridgeHub


def test_the_same_firmware_is_no_mismatch_and_an_older_one_names_the_fix() -> None:
    assert firmware_mismatch(config.FIRMWARE) is None
    text = firmware_mismatch((1, 0, 0), (1, 1, 0))
    assert text == "bridge firmware 1.0.0, this companion ships 1.1.0: run companion firmware install"


def test_an_old_pico_is_said_once_on_the_status_path_and_the_table_keeps_working() -> None:
    sim = Simulator(readers=2, buttons=2, slots=0, firmware=(1, 0, 0)).start()
    events: list[object] = []
    hub = BridgeHub(sim.path, on_event=events.append, report_after=0)
    try:
        assert hub.start(wait=5.0), "an older firmware still connects (same protocol)"
        deadline = time.monotonic() + 5
        while not any(isinstance(e, StatusEvent) for e in events) and time.monotonic() < deadline:
            time.sleep(0.02)
        sim.reboot()  # a new boot id: a second HELLO_REPLY, not a second message
        assert hub.link.wait_until(lambda link: link.counters()["reboots"] >= 1, 5.0)
        time.sleep(0.2)
    finally:
        hub.stop()
        sim.stop()
    status = [e for e in events if isinstance(e, StatusEvent)]
    assert [(e.device, e.ok) for e in status] == [("bridge firmware", False)]
    assert "companion firmware install" in status[0].message


def test_hello_frames_never_carry_a_ctrl_c() -> None:
    """3 HELLO frames in 256 would: a board still booting would take it for Ctrl-C."""
    core = LinkCore()
    seen = 0
    for attempt in range(600):
        core.connect(float(attempt))
        out = core.take_output()
        hellos = [f for f in out.split(b"\x00") if f and wire.decode_frame(f)[0] == proto.HELLO]
        assert hellos
        seen += len(hellos)
        assert b"\x03" not in out, f"HELLO {attempt} carries 0x03: {out.hex()}"
        core.disconnect()
    assert seen >= 600
