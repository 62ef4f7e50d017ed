"""The reader abstraction: backends by folder, the simulated reader, groups."""

from __future__ import annotations

import pytest

from hw.events import TagEvent
from hw.rfid import BACKENDS, DebounceSettings, ReaderError, ReaderGroup, load_backend


def sim(point, clock):
    return load_backend("sim")(point, {}, debounce=DebounceSettings(hold=0.3, misses=2), clock=clock)


def test_every_backend_folder_defines_a_backend_class():
    for name in BACKENDS:
        cls = load_backend(name)
        assert cls.backend == name


def test_unknown_backend_names_the_known_ones():
    with pytest.raises(ReaderError, match="sim, mfrc522, pn532, bridge"):
        load_backend("rc999")


def test_template_refuses_to_open_and_says_how_to_use_it():
    reader = load_backend("template")("N")
    with pytest.raises(ReaderError, match="copy hw/rfid/template/"):
        reader.open()


def test_simulated_tag_goes_through_debouncing(clock):
    reader = sim("N", clock)
    seen = []
    reader.subscribe(seen.append)
    reader.place("04aa")
    reader.poll()
    reader.poll()
    reader.remove()
    clock.advance(0.1)
    reader.poll()
    assert seen == [TagEvent("N", "04AA", True, 100.0)]
    clock.advance(0.3)
    reader.poll()
    assert seen[-1] == TagEvent("N", "04AA", False, clock.now)


def test_group_step_reports_each_point_by_name(clock):
    group = ReaderGroup([sim("N", clock), sim("scan", clock)])
    got = []
    group.subscribe(got.append)
    group.readers["scan"].place("01")
    group.readers["N"].place("02")
    group.step()
    assert {(e.point, e.uid) for e in got} == {("scan", "01"), ("N", "02")}


def test_a_reader_error_during_poll_counts_as_a_miss(clock):
    reader = sim("E", clock)
    reader.place("07")
    reader.poll()

    def broken():
        raise OSError(5, "Input/output error")

    reader.read_uid = broken
    assert reader.poll() == []
    assert reader.errors == 1
    assert reader.uid == "07"


def test_mfrc522_without_spi_says_how_to_enable_it():
    reader = load_backend("mfrc522")("N", {"spi_bus": 0, "spi_device": 7})  # /dev/spidev0.7: never there
    with pytest.raises(ReaderError, match="raspi-config nonint do_spi 0"):
        reader.open()


def test_pn532_rejects_an_unknown_interface():
    reader = load_backend("pn532")("scan", {"interface": "usb"})
    with pytest.raises(ReaderError, match="uart, i2c or spi"):
        reader.open()


def test_simulated_readers_at_rest_are_not_polled_and_a_placed_tag_wakes_their_poller():
    """A simulated reader is told of every change: its poller sleeps between them, and a tag
    placed or taken off still goes through the debouncing a polled chip's does."""
    import threading
    import time

    reads = {"n": 0}
    backend = load_backend("sim")

    class Counted(backend):  # type: ignore[misc, valid-type]
        def read_uid(self):  # type: ignore[no-untyped-def]
            reads["n"] += 1
            return super().read_uid()

    readers = [Counted(p, {}, debounce=DebounceSettings(hold=0.2, misses=2)) for p in ("N", "scan")]
    events: list[TagEvent] = []
    seen = threading.Event()

    def got(event: TagEvent) -> None:
        events.append(event)
        seen.set()

    group = ReaderGroup(readers, interval=0.02)
    group.subscribe(got)
    group.start()
    try:
        deadline = time.monotonic() + 5
        while reads["n"] < 2 and time.monotonic() < deadline:  # each polled once after opening
            time.sleep(0.01)
        settled = reads["n"]
        time.sleep(0.3)  # fifteen intervals: an awake poller would read thirty times
        assert reads["n"] == settled == 2
        readers[1].place("04ab")
        assert seen.wait(5) and events == [TagEvent("scan", "04AB", True, events[0].at)]
        seen.clear()
        time.sleep(0.2)
        resting = reads["n"]
        time.sleep(0.3)
        assert reads["n"] == resting  # the tag lies there: nothing to poll
        removed_at = time.monotonic()
        readers[1].remove()
        assert seen.wait(5) and events[-1].uid == "04AB" and not events[-1].present
        assert events[-1].at >= removed_at + 0.2  # read until taken off: the hold is waited out from then
    finally:
        group.stop()
    assert not any(t.name.startswith("rfid-") for t in threading.enumerate())
