"""Reader-microcontroller firmware (MicroPython). Pure modules (wire, proto, device, presence,
debounce, app) also run under CPython and are tested there; board and main touch hardware."""
