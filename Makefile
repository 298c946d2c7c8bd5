# make run: install, migrate and serve on the LAN with gunicorn.  make test: install and test.
# make lint: ruff and the import graph's contracts (make test runs it too).  make mutation: mutmut on games/rules/ with the fast rules tests.
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
WORKERS ?= 3
# Test processes (pytest-xdist), one a file: TEST_JOBS=0 runs the suite in this one.
TEST_JOBS ?= 2

.PHONY: run https test ci check-migrations install messages test-tools lint mutation offline-runtime

$(VENV)/bin/python:
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(PY) -m pip install -q -e ".[test]"
	touch $@

install: $(VENV)/.installed

# The compiled translations are committed; with gettext installed they are rebuilt from the .po files.
messages: $(VENV)/.installed
	@if command -v msgfmt >/dev/null; then $(PY) manage.py compilemessages -v0; fi

run: $(VENV)/.installed messages offline-runtime
	$(PY) manage.py migrate --noinput -v0
	$(PY) manage.py collectstatic --noinput -v0
	$(PY) -m scorekeeper.address $(PORT)
	PORT=$(PORT) WORKERS=$(WORKERS) $(VENV)/bin/gunicorn -c scorekeeper/gunicorn_conf.py

# make run behind Caddy over HTTPS (full offline: phones reopen matches with no network):
# DOMAIN=scores.example.org for Let's Encrypt, else Caddy's own authority for the LAN
# (scripts/https: HTTPS_PORT, default 8443; HTTP_PORT, default 8080, serves its root certificate;
# with DOMAIN, 443 and 80, which need root).
https: $(VENV)/.installed messages offline-runtime
	PORT=$(PORT) WORKERS=$(WORKERS) scripts/https $(VENV)

# Offline scoring's Python runtime (Pyodide from the npm registry, pinned and checksummed) into
# static/offline/pyodide/; without npm one line says offline scoring is off.
offline-runtime:
	@scripts/fetch-pyodide

check-migrations: $(VENV)/.installed
	$(PY) manage.py makemigrations --check --dry-run -v0

# Chromium and gettext, fetched when missing (before messages, which compiles with gettext).
test-tools: $(VENV)/.installed-test
	scripts/test-tools $(VENV)

test: test-tools check-migrations messages offline-runtime lint
	$(VENV)/bin/pytest -n $(TEST_JOBS) --dist loadfile

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache

# Mutants of games/rules/ against the rules tests ([tool.mutmut] in pyproject.toml); the
# results stay in mutants/ (ignored by git), so a second run only tries what changed.
MUTATION_JOBS ?= 2
mutation: $(VENV)/.installed-test
	$(VENV)/bin/mutmut run --max-children $(MUTATION_JOBS)
	$(VENV)/bin/mutmut results
	$(PY) -m tests.mutation_summary

ci: test
