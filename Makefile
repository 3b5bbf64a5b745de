# make serve: build the site and serve it at http://127.0.0.1:8000/<base path>/
# make test:  run the whole test suite (installs what it needs first)
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: install test-install system-packages build serve check test golden screenshot clean

# What building and previewing need (requirements.txt, lunr from npm); the tests add their tools
# (requirements-test.txt, npm's dev dependencies), so `make serve` downloads no browser driver.
$(VENV)/installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/test-installed: $(VENV)/installed requirements-test.txt
	$(PY) -m pip install --quiet -r requirements-test.txt
	touch $@

node_modules/.runtime-installed: package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts --omit=dev
	touch $@

node_modules/.test-installed: package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	touch node_modules/.runtime-installed $@

# Debian's chromium for the browser tests, a Java runtime for the Nu Html Checker, and CJK fonts
# so that Chinese text renders in the browser (the shipped digest's title, docs/screenshot.png).
$(CHROMIUM):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium

system-packages: $(CHROMIUM)
	@command -v java >/dev/null || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq default-jre-headless; }
	@dpkg -s fonts-noto-cjk >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq fonts-noto-cjk; }

install: $(VENV)/installed node_modules/.runtime-installed

test-install: $(VENV)/test-installed node_modules/.test-installed

# BASE_URL (set in the environment, or `make build BASE_URL=...`) overrides site.yaml's base_url;
# the Pages workflow sets it to the URL GitHub Pages reports.
build: install
	$(PY) build.py$(if $(BASE_URL), --base-url "$(BASE_URL)")

serve: install
	$(PY) build.py serve --port $(PORT)

# The content checked as strictly as the Pages workflow checks it before it publishes.
check: install
	$(PY) build.py check --strict

# pytest's exit code 5 (no tests collected) is a failure, not a pass.
test: test-install system-packages
	@$(PY) -m pytest -q; status=$$?; \
	if [ $$status -eq 5 ]; then echo "make test: no tests were collected" >&2; exit 1; fi; \
	exit $$status

golden: test-install
	$(PY) -m pytest -q tests/test_golden.py --regen-golden

# Retake the README's picture of the shipped digest (Playwright and chromium, as the tests use).
screenshot: test-install system-packages
	$(PY) docs/screenshot.py

clean:
	rm -rf _site ._site.* $(VENV) node_modules .pytest_cache
