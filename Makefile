# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

CHROMIUM := /usr/bin/chromium

.PHONY: run test check lint bench soak screenshots clean browser node catalogs mosquitto postgres shellcheck pi-install-check

# Browser tests drive Debian's Chromium through Playwright (Playwright's own
# browser download cannot work on the Pi or in CI). Installed once, as root.
browser:
	@test -x $(CHROMIUM) || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "Browser tests need Debian's chromium: sudo apt-get install chromium"; exit 1; fi; }

# The club tests start Debian's Mosquitto broker on a free loopback port, as the
# browser tests start Chromium. Installed once, as root.
MOSQUITTO := /usr/sbin/mosquitto
mosquitto:
	@test -x $(MOSQUITTO) || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto >/dev/null; \
	  else echo "The club tests need Debian's mosquitto: sudo apt-get install mosquitto"; exit 1; fi; }

# The install scripts are checked by Debian's shellcheck (tests/deploy/test_install_steps.py).
# Installed once, as root.
SHELLCHECK := /usr/bin/shellcheck
shellcheck:
	@test -x $(SHELLCHECK) || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq shellcheck >/dev/null; \
	  else echo "The install scripts' check needs Debian's shellcheck: sudo apt-get install shellcheck"; exit 1; fi; }

# The league's PostgreSQL store is tested on a throw-away cluster (initdb, pg_ctl) when Debian's
# postgresql is there; installed once, as root (without it that test is skipped and says why).
postgres:
	@ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	  else echo "The league's PostgreSQL test needs Debian's postgresql (sudo apt-get install postgresql); skipped without it"; fi; }

# The firmware's pure modules are also tested under real MicroPython (its WebAssembly
# port from the npm registry, run by Node.js).
node:
	@command -v npm >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; \
	  else echo "The MicroPython firmware test needs Node.js and npm: sudo apt-get install nodejs npm"; exit 1; fi; }

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# `make run PORT=8091` listens on another port (the default is 8080, or the config's)
run: $(STAMP)
	$(VENV)/bin/companion run --sim $(if $(PORT),--port $(PORT))

# Three xdist workers on two cores: the browser, server and crash tests mostly wait (on sand timers,
# pages, restarts), so a third worker fills the cores while two wait. Each module runs on one worker
# (loadscope), so no module starts its server twice; the browser and slow modules are handed out
# first (tests/conftest.py orders them); the ten slowest tests are printed at the end (docs/testing.md).
# The compiled test modules (assertions rewritten by pytest) are kept in .venv/pycache, even where
# PYTHONDONTWRITEBYTECODE is set: each worker would otherwise compile the whole suite again at every
# run (about 4 s of CPU each). The tests' temporary folders (journals, servers' and brokers'
# folders, the PostgreSQL cluster) go to /dev/shm where it exists: the journal's fsync after every action is
# then a no-op instead of a disk write, which is what a killed process sees anyway (the page cache
# outlives it; no test here cuts the power). The code and every call it makes stay the same.
TEST_TMP ?= $(shell test -d /dev/shm -a -w /dev/shm && echo /dev/shm || echo $${TMPDIR:-/tmp})
PYTEST := env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache TMPDIR=$(TEST_TMP) \
	$(PY) -m pytest
# Four workers on two cores: a test often waits (a page, a process, a broker) and another fills the core
# (measured on two cores: make check 132 s with 2, 107 s with 3, 94 s with 4 before the fifth pass of docs/testing.md,
# 86 s after it, and 90.9 s with 6 against 90.0 s with 4: both cores are busy throughout; make test 4:28).
WORKERS ?= 4
XDIST = -n $(WORKERS) --dist loadscope --no-loadscope-reorder
test: $(STAMP) browser node mosquitto postgres shellcheck
	$(PYTEST) -m "not soak" $(XDIST) --durations=10

# The inner loop: everything but the browser, broker and crash suites (and the soak).
check: $(STAMP) node postgres
	$(PYTEST) -m "not soak and not browser and not broker and not crash" $(XDIST) --durations=10

lint: $(STAMP)
	$(VENV)/bin/ruff check .

bench: $(STAMP)
	$(PY) -m bench

soak: $(STAMP) browser node mosquitto
	$(PYTEST) -m soak --durations=10

# The tests write only to temporary folders; this renews the documentation's pictures in
# docs/screenshots from the browser tests (then look at them, and commit the ones that changed)
screenshots: $(STAMP) browser
	SCREENSHOTS=$(CURDIR)/docs/screenshots $(PYTEST) -m browser $(XDIST)

clean:
	rm -rf $(VENV) build *.egg-info

# gettext catalogs: .po (edited) -> .mo (read at run time); a test checks they are current
catalogs: $(STAMP)
	$(PY) -m companion.engine.catalogs

# deploy/install.sh run in an arm64 Debian root filesystem under QEMU user emulation, then
# `companion doctor`, `companion run --sim` and a game there (as root, 5-30 minutes; not part of
# `make test`). DEBIAN=trixie (Debian 13, Python 3.13) or bookworm (Debian 12, Python 3.11);
# the report goes to /tmp/pi-install-check-$(DEBIAN).md (docs/hardware.md keeps the last ones).
DEBIAN ?= trixie
pi-install-check:
	DEBIAN=$(DEBIAN) bash deploy/pi-install-check.sh
