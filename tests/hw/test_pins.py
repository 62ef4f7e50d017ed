"""Which gpiochip carries the header on each Pi, which UART is on GPIO 14/15, and the factory's fix."""

from __future__ import annotations

import pytest

from hw import board
from hw.pins import PinFactoryError, chip_labels, header_chip, make_factory

PI5_NEW_KERNEL = {0: "pinctrl-rp1", 10: "gpio-brcmstb@107d508500", 11: "gpio-brcmstb@107d517c00",
                  12: "gpio-brcmstb@107d517c20", 13: "gpio-brcmstb@107d508500"}
PI5_OLD_KERNEL = {0: "gpio-brcmstb@107d508500", 1: "gpio-brcmstb@107d508500", 2: "gpio-brcmstb@107d517c00",
                  3: "gpio-brcmstb@107d517c20", 4: "pinctrl-rp1"}


@pytest.mark.parametrize("labels, chip", [
    (PI5_NEW_KERNEL, 0),  # kernels since 6.6.45: the RP1 header is gpiochip0
    (PI5_OLD_KERNEL, 4),  # before: gpiochip4 (what gpiozero 2.0.1 hard-codes)
    ({0: "pinctrl-bcm2711", 1: "raspberrypi-exp-gpio"}, 0),  # Pi 4
    ({0: "pinctrl-bcm2835", 1: "raspberrypi-exp-gpio"}, 0),  # Pi 3, Zero 2 W
    ({0: "gpio-mockup-A"}, None),  # not a Pi
])
def test_the_header_chip_is_found_by_its_label(labels, chip):
    assert header_chip(labels) == chip


def test_no_gpio_chips_means_no_labels(tmp_path):
    assert chip_labels(tmp_path) == {}


def test_a_missing_lgpio_module_names_the_module_and_the_install():
    try:
        factory = make_factory("lgpio")
    except PinFactoryError as exc:
        assert "lgpio" in str(exc) and ("galapagos-companion[pi]" in exc.fix or "group gpio" in exc.fix
                                        or "[gpio] chip" in exc.fix or "Raspberry Pi" in exc.fix)
    else:  # on a Pi with lgpio
        factory.close()


def test_an_unknown_factory_lists_the_known_ones():
    with pytest.raises(PinFactoryError, match="mock, lgpio, rpigpio"):
        make_factory("wiringpi")


@pytest.mark.parametrize("model, uart", [
    (b"Raspberry Pi 5 Model B Rev 1.0\0", "/dev/ttyAMA0"),
    (b"Raspberry Pi 4 Model B Rev 1.4\0", "/dev/serial0"),
    (b"Raspberry Pi Zero 2 W Rev 1.0\0", "/dev/serial0"),
])
def test_the_header_uart_is_the_one_on_gpio_14_and_15(tmp_path, model, uart):
    path = tmp_path / "model"
    path.write_bytes(model)
    assert board.header_uart(path) == uart
    assert ("uart0=on" in board.uart_fix(path)) == (uart == "/dev/ttyAMA0")
