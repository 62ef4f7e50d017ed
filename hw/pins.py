"""Choosing gpiozero's pin factory from configuration.

Every GPIO device in ``hw`` is a plain gpiozero device; what makes it real or
simulated is only the pin factory. On a Raspberry Pi the default is lgpio
(works on every Pi OS since Bookworm, Pi 5 included); ``rpigpio`` uses the
RPi.GPIO API, which on current Pi OS is provided by the ``rpi-lgpio``
package. In simulation and in every test the factory is gpiozero's own
``MockFactory``, whose pins tests drive with ``drive_low``/``drive_high``.

Which gpiochip carries the header: gpiozero 2.0.1's ``LGPIOFactory`` opens
gpiochip4 on a Pi 5, but kernels since 6.6.45 put the Pi 5's RP1 header on
gpiochip0 (and razrc522 pins gpiozero to exactly that version). So the chip is
found by its label (``pinctrl-rp1`` on a Pi 5, ``pinctrl-bcm2711`` on a Pi 4,
``pinctrl-bcm2835`` on a Pi 3 / Zero 2 W), read with the kernel's
GPIO_GET_CHIPINFO ioctl, and handed to the factory; ``[gpio] chip`` overrides it.
"""

from __future__ import annotations

import fcntl
import os
import struct
from importlib.metadata import entry_points
from pathlib import Path

from gpiozero import Device
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from hw.errors import DeviceError

#: the names accepted in ``[gpio] factory`` (gpiozero's own entry-point names)
FACTORIES = ("mock", "lgpio", "rpigpio", "native", "pigpio")


#: gpiochip labels of the 40-pin header, newest board first
HEADER_LABELS = ("pinctrl-rp1", "pinctrl-bcm2712", "pinctrl-bcm2711", "pinctrl-bcm2835")
#: _IOR(0xB4, 0x01, struct gpiochip_info {char name[32]; char label[32]; u32 lines;})
GPIO_GET_CHIPINFO_IOCTL = 0x8044B401


def chip_labels(dev: Path = Path("/dev")) -> dict[int, str]:
    """Each ``/dev/gpiochipN`` this user can open, with its kernel label."""
    out: dict[int, str] = {}
    for path in sorted(dev.glob("gpiochip[0-9]*")):
        try:
            number = int(path.name[len("gpiochip"):])
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except (ValueError, OSError):
            continue
        try:
            info = fcntl.ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, bytes(68))
            out[number] = struct.unpack("32s32sI", info)[1].split(b"\0", 1)[0].decode(errors="replace")
        except OSError:
            continue
        finally:
            os.close(fd)
    return out


def header_chip(labels: dict[int, str] | None = None) -> int | None:
    """The gpiochip number of the header (None: no known Pi chip here)."""
    labels = chip_labels() if labels is None else labels
    for wanted in HEADER_LABELS:
        for number, label in sorted(labels.items()):
            if label == wanted:
                return number
    return None


class PinFactoryError(DeviceError):
    """The configured pin factory cannot be loaded on this machine (one sentence)."""

    def __init__(self, message: str, fix: str = "") -> None:
        super().__init__(message)
        self.fix = fix or 'use factory = "mock" to simulate the pins'


def make_factory(name: str, chip: int | None = None) -> Factory:
    """Instantiate gpiozero's pin factory called ``name`` (see :data:`FACTORIES`).

    ``chip`` (lgpio only) is the gpiochip carrying the header; None finds it
    by label (:func:`header_chip`). The error carries the real exception and
    the fix that matches it: a missing module, a chip that cannot be opened
    (permissions or the wrong chip), or a machine that is not a Pi.
    """
    if name not in FACTORIES:
        raise PinFactoryError(f"Unknown GPIO pin factory {name!r}; use one of {', '.join(FACTORIES)}.")
    if name in ("lgpio", "rpigpio"):
        # lgpio creates its notification pipes (.lgd-nfy*) in $LG_WD, else in the working
        # directory - the checkout, or a read-only one under systemd. The unit sets LG_WD to its
        # runtime directory; by hand, the user's runtime directory (or /tmp) keeps the checkout clean.
        os.environ.setdefault("LG_WD", os.environ.get("XDG_RUNTIME_DIR") or "/tmp")
    (ep,) = [e for e in entry_points(group="gpiozero_pin_factories") if e.name == name]
    try:
        cls = ep.load()
    except ImportError as exc:
        module = exc.name or str(exc)
        raise PinFactoryError(f"The {name} pin factory needs the {module} module, which is not installed.",
                              _install_fix(name, module)) from None
    except Exception as exc:  # a module that imports but is not the one gpiozero expects (too old, a stand-in)
        raise PinFactoryError(f"The {name} pin factory cannot load ({type(exc).__name__}: {exc}).",
                              _install_fix(name, name)) from None
    kwargs: dict[str, int] = {}
    if name == "lgpio":
        found = header_chip() if chip is None else chip
        if found is not None:
            kwargs["chip"] = found
    try:
        return cls(**kwargs)
    except Exception as exc:  # BadPinFactory, OSError, lgpio.error ('can not open gpiochip') ...
        detail = f"{type(exc).__name__}: {exc}"
        where = f" on gpiochip{kwargs['chip']}" if "chip" in kwargs else ""
        raise PinFactoryError(f"The {name} pin factory cannot start{where} ({detail}).", _start_fix(name, exc)) from None


def _install_fix(name: str, module: str) -> str:
    if name in ("lgpio", "rpigpio"):
        return ("pip install 'galapagos-companion[pi]' on the Pi (deploy/install.sh first installs the build "
                "tools lgpio needs); use factory = \"mock\" elsewhere")
    return f"pip install {module}, or use factory = \"mock\" to simulate the pins"


def _start_fix(name: str, exc: Exception) -> str:
    text = str(exc).lower()
    if isinstance(exc, PermissionError) or "permission" in text:
        return "add the user to group gpio (sudo usermod -aG gpio $USER), then log in again"
    if not Path("/dev/gpiochip0").exists():
        return 'this machine has no GPIO chip: run on a Raspberry Pi, or use factory = "mock"'
    if "gpiochip" in text or "chip" in text:
        return ("set [gpio] chip to the header's chip (gpiodetect lists them: pinctrl-rp1 on a Pi 5, "
                "pinctrl-bcm2711 on a Pi 4, pinctrl-bcm2835 on a Pi 3 or Zero 2 W)")
    return 'try factory = "lgpio" (every Pi OS since Bookworm), or "mock" to simulate the pins'


def use_factory(name: str, chip: int | None = None) -> Factory:
    """Make ``name`` the process-wide default factory and return it.

    Libraries that build their own gpiozero devices (the MFRC522 driver)
    pick it up too, so one setting decides for the whole table.
    """
    current = Device.pin_factory
    if current is not None and _name_of(current) == name:
        return current
    if current is not None:
        current.close()
    factory = make_factory(name, chip)
    Device.pin_factory = factory
    return factory


def _name_of(factory: Factory) -> str:
    for ep in entry_points(group="gpiozero_pin_factories"):
        if ep.value.split(":")[-1] == type(factory).__name__:
            return ep.name
    return ""


def pin_trouble(pin: int, role: str, exc: BaseException) -> str:
    """One sentence for a pin that cannot be claimed, naming the pin, its holder and the fix.

    Another process holding the line makes lgpio raise ``lgpio.error('GPIO busy')``
    (the kernel's EBUSY); gpiozero's own check says ``GPIOPinInUse`` for a pin two of
    our devices claim. The holder is the line's consumer label, when the OS tells it
    (lgpio's ``gpio_get_line_info``).
    """
    text = str(exc)
    kind = type(exc).__name__
    if "busy" in text.lower() or kind == "GPIOPinInUse":
        holder = line_holder(pin)
        who = f", held by « {holder} »" if holder else ""
        return (f"GPIO{pin} ({role}) is busy{who}: stop the program that holds it "
                f"(gpioinfo lists the lines in use) or wire {role} to a free pin and change the config.")
    return f"GPIO{pin} ({role}) cannot be used ({kind}: {text}); check the pin number in the config."


def line_holder(pin: int) -> str | None:
    """The consumer label of a GPIO line another process holds (lgpio factories only), or None."""
    factory = Device.pin_factory
    handle = getattr(factory, "_handle", None)
    if handle is None:
        return None
    try:
        import lgpio  # late: lgpio is optional (the [pi] extra): off a Pi there is no chip to ask

        info = lgpio.gpio_get_line_info(handle, pin)  # (status,) offset, flags, name, user: the user last
        user = info[-1] if isinstance(info, (list, tuple)) and info else None
    except Exception:  # noqa: BLE001 - an older kernel or library: no holder to name
        return None
    return str(user) if user else None


def reset_mock() -> None:
    """Clear every mock pin and reservation (tests call it between cases)."""
    factory = Device.pin_factory
    if isinstance(factory, MockFactory):
        factory.reset()
