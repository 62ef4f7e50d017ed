"""A real ``companion run`` started in a subprocess: signals, ports, start-up, a crash's exit."""
