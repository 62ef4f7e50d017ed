"""The board (companion/board): the table controller, its devices, the dial, the lobby, the OLED screens."""
