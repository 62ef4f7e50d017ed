"""`companion run` freezes its start-up heap, so a full collection no longer walks it.

A full pass over a started table's ~50,000 objects paused every thread for tens of
milliseconds, a button press on its way to the OLED too.
"""

from __future__ import annotations

import gc

from companion.cli.run import freeze_start_up_heap


def test_the_start_up_heap_is_frozen_out_of_the_collectors_reach():
    gc.collect()  # what earlier tests in this process left as garbage is no part of a heap to freeze
    before = len(gc.get_objects())
    try:
        freeze_start_up_heap()
        assert gc.get_freeze_count() >= before * 0.9
        assert len(gc.get_objects()) < before * 0.1  # a full collection now walks only what came after
    finally:
        gc.unfreeze()
