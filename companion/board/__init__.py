"""The board: devices, the dial's state machine, the lobby and the OLED screens.

It turns device events into the table's actions and the table's state into screens;
it imports the engine and the table, never the CLI or the web layer.
"""
