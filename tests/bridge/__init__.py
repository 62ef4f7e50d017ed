"""The firmware bridge (firmware_bridge/): the serial protocol, the host link, the simulator, the firmware."""
