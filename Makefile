# make run: install, migrate and serve on the LAN with gunicorn.  make test: install and test.
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
WORKERS ?= 3

.PHONY: run test ci check-migrations install

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

run: $(VENV)/.installed
	$(PY) manage.py migrate --noinput -v0
	$(PY) manage.py collectstatic --noinput -v0
	$(PY) -m scorekeeper.address $(PORT)
	$(VENV)/bin/gunicorn scorekeeper.wsgi --bind 0.0.0.0:$(PORT) --workers $(WORKERS) \
		--access-logfile - --forwarded-allow-ips '*'

check-migrations: $(VENV)/.installed
	$(PY) manage.py makemigrations --check --dry-run -v0

test: $(VENV)/.installed-test check-migrations
	$(VENV)/bin/pytest

ci: test
