"""The benchmarks' smoke run: every bench module imports and runs on tiny inputs."""
