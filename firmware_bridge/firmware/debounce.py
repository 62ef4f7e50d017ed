"""Button debouncing (pure, MicroPython-compatible): a new level counts once it has held for
``stable_ms`` without bouncing back, so one press of a worn switch is one BUTTON event."""


class Debouncer:
    def __init__(self, stable_ms: int = 20, pressed: bool = False):
        self.stable_ms = stable_ms
        self.pressed = pressed
        self._since = None

    def update(self, pressed: bool, now_ms: int):
        """Feed one sample; return the new state when it changed, else None."""
        if pressed == self.pressed:
            self._since = None
            return None
        if self._since is None:
            self._since = now_ms
            return None
        if now_ms - self._since < self.stable_ms:
            return None
        self.pressed = pressed
        self._since = None
        return pressed
