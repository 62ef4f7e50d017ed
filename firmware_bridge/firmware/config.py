"""Pin assignment of the reader microcontroller (Raspberry Pi Pico, MicroPython); see
docs/hardware.md for the wiring. Edit here for another board or another table layout; reader
indices are what the Pi's config maps to reader points (N, E, S, W, scan, bag, dice lanes)."""

# The firmware's version, in HELLO_REPLY: the companion compares it with the one it ships
# (``companion firmware install`` copies that one). Bump it with every change to these files.
FIRMWARE = (1, 1, 0)

SPI_ID = 0
SPI_BAUD = 1000000  # long ribbon cables to several readers: keep the clock modest
SCK, MOSI, MISO = 18, 19, 16
READER_RST = 14  # shared reset line of all readers (NRSTPD), held high
# One chip-select per reader; index 0..7 = N, E, S, W, scan, bag, dice lane 0, dice lane 1.
READER_CS = (17, 20, 21, 22, 26, 27, 28, 15)

BUTTONS = (2, 3, 4, 5, 6, 7, 8, 9)  # to ground, internal pull-ups: pressed reads 0
DEBOUNCE_MS = 20
MISSES_TO_REMOVE = 3  # polls in a row without the tag before it counts as removed
READER_RETRY_MS = 2000  # a reader that does not answer (absent at boot, SPI error) is tried again

LED_PIN = 10  # WS2812 chain for SET_LED; None when no LEDs are fitted
LED_COUNT = 8
BUZZER_PIN = 11  # passive buzzer through a transistor, driven by PWM

WATCHDOG_MS = 2000  # the loop feeds it every few milliseconds; a hung SPI read reboots
MAINTENANCE_FLAG = "maintenance"  # this file on the flash: the next boot leaves the REPL free
TX_PENDING_MAX = 512  # bytes kept for a host that is not reading; whole frames beyond are dropped

# Dice lanes: reader index -> dice slot, and die tag UID -> face reported. With no face table
# the lane's reader reports plain TAG events and the Pi's tag registry maps them to faces.
DICE_SLOTS = {6: 0, 7: 1}
DICE_FACES = {}
