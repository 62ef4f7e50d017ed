"""Choosing gpiozero's pin factory from configuration.

Every GPIO device in ``hw`` is a plain gpiozero device; what makes it real or
simulated is only the pin factory. On a Raspberry Pi the default is lgpio
(works on every Pi OS since Bookworm, Pi 5 included); ``rpigpio`` uses the
RPi.GPIO API, which on current Pi OS is provided by the ``rpi-lgpio``
package. In simulation and in every test the factory is gpiozero's own
``MockFactory``, whose pins tests drive with ``drive_low``/``drive_high``.
"""

from __future__ import annotations

from importlib.metadata import entry_points

from gpiozero import Device
from gpiozero.pins import Factory

#: the names accepted in ``[gpio] factory`` (gpiozero's own entry-point names)
FACTORIES = ("mock", "lgpio", "rpigpio", "native", "pigpio")


class PinFactoryError(Exception):
    """The configured pin factory cannot be loaded on this machine (one sentence)."""


def make_factory(name: str) -> Factory:
    """Instantiate gpiozero's pin factory called ``name`` (see :data:`FACTORIES`)."""
    if name not in FACTORIES:
        raise PinFactoryError(f"Unknown GPIO pin factory {name!r}; use one of {', '.join(FACTORIES)}.")
    (ep,) = [e for e in entry_points(group="gpiozero_pin_factories") if e.name == name]
    try:
        return ep.load()()
    except ImportError as exc:
        hint = "pip install 'galapagos-companion[pi]'" if name in ("lgpio", "rpigpio") else "install it"
        raise PinFactoryError(f"The {name} pin factory needs the {exc.name} module: {hint}.") from None
    except Exception as exc:  # gpiozero raises BadPinFactory and OSError on a non-Pi
        raise PinFactoryError(f"The {name} pin factory cannot start here: {exc}.") from None


def use_factory(name: str) -> Factory:
    """Make ``name`` the process-wide default factory and return it.

    Libraries that build their own gpiozero devices (the MFRC522 driver)
    pick it up too, so one setting decides for the whole table.
    """
    current = Device.pin_factory
    if current is not None and _name_of(current) == name:
        return current
    if current is not None:
        current.close()
    factory = make_factory(name)
    Device.pin_factory = factory
    return factory


def _name_of(factory: Factory) -> str:
    for ep in entry_points(group="gpiozero_pin_factories"):
        if ep.value.split(":")[-1] == type(factory).__name__:
            return ep.name
    return ""


def reset_mock() -> None:
    """Clear every mock pin and reservation (tests call it between cases)."""
    from gpiozero.pins.mock import MockFactory

    factory = Device.pin_factory
    if isinstance(factory, MockFactory):
        factory.reset()
