"""The Pi install (deploy/): install steps, the unit, storage, updates, the watchdog, the hotspot."""
