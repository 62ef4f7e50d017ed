# The Pico's /main.py (copied there by `companion firmware install`). MicroPython turns Ctrl-C on
# for every file it runs: the first thing is to turn it off, since 0x03 is data on this line.
import micropython

micropython.kbd_intr(-1)
try:
    from firmware import main

    main.run()
except BaseException:  # noqa: BLE001 - even KeyboardInterrupt: anything but a reset leaves a REPL
    import machine

    machine.reset()
