# Every target sets up .venv on first use (and again whenever pyproject.toml changes).
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=
# pytest-xdist workers: one per core (`make test PYTEST_WORKERS=0` runs the suite in this one process). A test
# file's tests stay on one worker (--dist loadfile), so a file's module fixtures start once, as they do serially.
# Tests marked `serial` (timing, layouts coming to rest) run afterwards, alone.
PYTEST_WORKERS ?= auto

.PHONY: run test bench clean-venv

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV) && $(VENV)/bin/pip install -e '.[dev]'
	touch $@

# On an X11 desktop, Qt's xcb plugin needs a few system libraries: installed here when we are root,
# else the check names the one apt-get command that adds them.
run: $(STAMP)
	$(VPY) -m playground.shell.qt_platform --install
	$(VPY) main.py

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports --no-logo --no-cache
	QT_QPA_PLATFORM=offscreen $(VPY) -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile -m "not serial" $(PYTEST_ARGS)
	QT_QPA_PLATFORM=offscreen $(VPY) -m pytest -q -m serial $(PYTEST_ARGS) || [ $$? -eq 5 ]  # 5: none chosen

bench: $(STAMP)
	@set -e; found=0; for script in bench/[!_]*.py; do \
		[ -e "$$script" ] || continue; found=1; \
		echo "== $$script"; $(VPY) "$$script"; \
	done; [ $$found = 1 ] || echo "no benchmarks in bench/ yet"

clean-venv:
	rm -rf $(VENV)
