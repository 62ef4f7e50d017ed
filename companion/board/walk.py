"""The first-boot walk: on a fresh install the OLED asks for each part of the table in turn — every
button, the dial, a tag on every reader — and what answered is written into the config, so a
builder finds a wrong pin at the table rather than in a log (``companion doctor``'s checks, made
interactive).

Each step waits :data:`STEP_SECONDS` for its part; a part that stays silent is noted and the walk
goes on. A *different* part of the same kind answering is noted too, with the pin it came in on:
« seat 1 answered as seat 2 (GPIO 6) » is a swapped wire, a tag read by another reader a mixed-up
reader; a part of another kind (a tag left on a reader while a button is asked) is ignored. The dial is asked for a clockwise turn, so a reversed
encoder (A and B swapped) is found as well.

A fresh install's config (``deploy/pi.toml``) holds ``[first_boot] pending = true``; the result
replaces that table (:func:`record`), so the walk runs once. The service, whose config is read-only
(``ProtectSystem=strict``), writes it beside its journal instead, says where, and that file also
counts as walked.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.board import screens
from companion.board.config_text import replace_table, toml_string
from companion.board.screens.walk import WALK_SCREEN
from hw.events import ButtonEvent, DeviceEvent, DieEvent, EncoderEvent, TagEvent

log = logging.getLogger(__name__)

STEP_SECONDS = 30.0
SECTION = "first_boot"
#: the file the walk is written to when the config cannot be (beside the journal)
FALLBACK_NAME = "first-boot.toml"


@dataclass(frozen=True)
class AskedPart:
    """One part of the table the walk asks for in turn (a stage of the walk): what it is, its name, where it is wired."""

    kind: str  # "button", "dial" or "reader"
    name: str  # the button's name, "dial", or the reader's point
    where: str = ""  # "GPIO 5", "GPIO 17/27", the reader's backend


@dataclass(frozen=True)
class Outcome:
    step: AskedPart
    answered: bool
    #: what answered instead (another button, a reversed dial, another reader), or ""
    instead: str = ""
    detail: str = ""  # the tag's UID

    def sentence(self) -> str:
        if self.answered:
            return f"{label(self.step)}: ok" + (f" ({self.detail})" if self.detail else "")
        if self.instead:
            return f"{label(self.step)} answered as {self.instead}"
        return f"{label(self.step)} ({self.step.where}): no answer" if self.step.where else f"{label(self.step)}: no answer"


def label(step: AskedPart) -> str:
    if step.kind == "button":
        return f"button {step.name}"
    if step.kind == "reader":
        return f"reader {step.name}"
    return "the dial"


def steps_for(cfg: Any) -> list[AskedPart]:
    """Every button (seats, then OK/Back/Up/Down), the dial, then every reader of ``cfg``."""
    out = [AskedPart("button", name, f"GPIO {pin}") for name, pin in cfg.buttons().items()]
    for name, index in sorted(getattr(cfg.bridge, "buttons", {}).items()):
        if name not in cfg.buttons():
            out.append(AskedPart("button", name, f"bridge input {index}"))
    if cfg.encoder:
        out.append(AskedPart("dial", "dial", f"GPIO {cfg.encoder[0]}/{cfg.encoder[1]}"))
    out += [AskedPart("reader", r.point, r.backend) for r in cfg.readers]
    return out


class FirstBootWalk:
    """The walk's state: the step asked now, what answered so far; it draws its own OLED frames."""

    def __init__(self, steps: list[AskedPart], oled: Any = None, *, pins: dict[str, str] | None = None,
                 clock: Callable[[], float] = time.monotonic, step_seconds: float = STEP_SECONDS,
                 beeper: Any = None, on_done: Callable[[FirstBootWalk], None] | None = None) -> None:
        self.steps = steps
        self.oled = oled
        self.pins = pins or {s.name: s.where for s in steps}
        self.clock = clock
        self.step_seconds = step_seconds
        self.beeper = beeper
        self.on_done = on_done
        self.outcomes: list[Outcome] = []
        self._asked_at = clock()
        self._lock = threading.RLock()
        self._finished = False
        self.refresh()

    @property
    def current(self) -> AskedPart | None:
        return self.steps[len(self.outcomes)] if len(self.outcomes) < len(self.steps) else None

    @property
    def done(self) -> bool:
        return self.current is None

    # -- input -----------------------------------------------------------------------
    def handle(self, event: DeviceEvent) -> None:
        with self._lock:
            step = self.current
            if step is None:
                return
            if isinstance(event, ButtonEvent) and event.kind == "press":
                self._answer(step, "button", event.name)
            elif isinstance(event, EncoderEvent) and event.delta and step.kind == "dial":
                self._note(Outcome(step, event.delta > 0, "" if event.delta > 0 else
                                   "a counter-clockwise turn (swap the encoder's A and B pins)"))
            elif isinstance(event, TagEvent) and event.present:
                self._answer(step, "reader", event.point, event.uid)
            elif isinstance(event, DieEvent) and event.face:
                self._answer(step, "reader", event.point, f"face {event.face}")
            self.refresh()

    def _answer(self, step: AskedPart, kind: str, name: str, detail: str = "") -> None:
        """A part of ``kind`` answered: the one asked for, or another of its kind (a swapped wire, a tag on
        the wrong reader). A part of another kind (a tag left on a reader while a button is asked) is noise."""
        if step.kind != kind:
            return
        if step.name == name:
            self._note(Outcome(step, True, detail=detail))
            return
        where = self.pins.get(name, "")
        what = f"{kind} {name}"
        self._note(Outcome(step, False, f"{what} ({where})" if where else what))

    def _note(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)
        self._asked_at = self.clock()
        if self.beeper is not None:
            self.beeper.play("ok" if outcome.answered else "error")
        if self.done:
            self._finish()

    def tick(self) -> None:
        """A few times a second: a step silent for ``step_seconds`` is noted and the next asked."""
        with self._lock:
            step = self.current
            if step is not None and self.clock() - self._asked_at >= self.step_seconds:
                self._note(Outcome(step, False))
            self.refresh()

    def _finish(self) -> None:
        if self._finished:
            return
        self._finished = True
        if self.on_done is not None:
            self.on_done(self)

    # -- what is shown ---------------------------------------------------------------
    def data(self) -> dict[str, Any]:
        step = self.current
        left = max(0.0, self.step_seconds - (self.clock() - self._asked_at))
        last = self.outcomes[-1].sentence() if self.outcomes else ""
        if step is None:
            silent = [o for o in self.outcomes if not o.answered]
            return {"done": True, "ok": len(self.outcomes) - len(silent), "total": len(self.steps),
                    "problems": [o.sentence() for o in silent]}
        return {"done": False, "index": len(self.outcomes) + 1, "total": len(self.steps), "kind": step.kind,
                "name": step.name, "where": step.where, "seconds": int(left + 0.999), "last": last}

    def refresh(self) -> bool:
        if self.oled is None:
            return False
        return self.oled.show(screens.render(WALK_SCREEN, {}, screens.ScreenContext(data={"walk": self.data()})))

    # -- the record ------------------------------------------------------------------
    def result(self) -> dict[str, list[str]]:
        """What answered, what stayed silent, what answered for another part (the config's table)."""
        return {
            "answered": [label(o.step) for o in self.outcomes if o.answered],
            "silent": [f"{label(o.step)} ({o.step.where})" if o.step.where else label(o.step)
                       for o in self.outcomes if not o.answered and not o.instead],
            "mixed": [o.sentence() for o in self.outcomes if not o.answered and o.instead],
        }


def table_lines(result: dict[str, list[str]], when: str) -> list[str]:
    """The ``[first_boot]`` table's lines for ``result``."""
    lines = ["# what answered during the first-boot walk (delete this table to walk again)",
             f"walked = {toml_string(when)}"]
    for key in ("answered", "silent", "mixed"):
        lines.append(f"{key} = [{', '.join(toml_string(v) for v in result.get(key, []))}]")
    return lines


def record(config: Path, result: dict[str, list[str]], when: str, fallback_dir: Path | None = None) -> Path:
    """Write ``result`` as the config's ``[first_boot]`` table; where the config cannot be written (the
    service's read-only /etc), into ``fallback_dir/first-boot.toml``. Returns the file written."""
    try:
        replace_table(config, SECTION, table_lines(result, when))
        return config
    except OSError as exc:
        if fallback_dir is None:
            raise
        target = fallback_dir / FALLBACK_NAME
        target.write_text("\n".join([f"# {config} could not be written ({exc.strerror}); copy this table into it",
                                      f"[{SECTION}]", *table_lines(result, when)]) + "\n", encoding="utf-8")
        log.warning("first-boot walk written to %s: %s cannot be written (%s)", target, config, exc.strerror)
        return target


def needed(cfg: Any, fallback_dir: Path | None = None) -> bool:
    """The config asks for the walk (``[first_boot] pending = true``, as a fresh install's does) and it was
    not written down yet (neither in the config nor in the file beside the journal)."""
    table = getattr(cfg, "first_boot", None) or {}
    if table.get("pending") is not True or not Path(getattr(cfg, "source", "")).is_file():
        return False
    return not (fallback_dir is not None and (fallback_dir / FALLBACK_NAME).exists())


def first_boot_walk(cfg: Any, devices: Any, state_dir: Path, then: Callable[[], None], *,
                    clock: Callable[[], float] = time.monotonic, summary_seconds: float = 10.0) -> FirstBootWalk | None:
    """Start the walk on ``devices`` when ``cfg`` needs it (:func:`needed`); ``then`` runs once it is
    written down (the lobby comes back). None: no walk (simulation, or walked already)."""
    if devices is None or not needed(cfg, state_dir):
        return None
    config = Path(cfg.source)

    def done(walk: FirstBootWalk) -> None:
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        try:
            written = record(config, walk.result(), when, state_dir)
            log.info("first-boot walk: %s; written to %s", "; ".join(o.sentence() for o in walk.outcomes), written)
        except OSError as exc:
            log.warning("first-boot walk could not be written (%s)", exc)
        timer = threading.Timer(summary_seconds, then)  # the summary stays on the OLED a little
        timer.daemon = True
        timer.start()

    steps = steps_for(cfg)
    return FirstBootWalk(steps, devices.oled, beeper=devices.beeper, on_done=done, clock=clock) if steps else None
