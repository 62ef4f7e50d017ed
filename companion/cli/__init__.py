"""The entry points and the composition root: the only place in ``companion`` that imports ``web``.

``companion`` (:mod:`companion.cli.main`) and its sub-commands; :mod:`companion.cli.app`
wires config, devices, controller, sessions and the dashboard together.
"""
