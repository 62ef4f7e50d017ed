"""The devices (hw/): each part's real backend over an emulated bus, and its simulated double."""
