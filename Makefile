# make serve: build the site and serve it at http://127.0.0.1:8000/<base path>/
# make test:  run the whole test suite (installs what it needs first)
# make test-fast: the edit-test loop: every module, no browser, Lighthouse, Nu checker or long run
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: install test-install system-packages build serve check test test-fast golden messages screenshot clean

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

# The tests run on every core (pytest-xdist; tests that share one opened page are kept together
# by --dist loadgroup), in a temporary folder in memory where the machine has one: the suite
# writes ~100,000 small files, which costs a disk twice the time. TEST_WORKERS=1 runs them in one
# process. pytest's exit code 5 (no tests collected) is a failure, not a pass.
TEST_TMPDIR := $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm)
TEST_WORKERS ?= auto
PYTEST = $(if $(TEST_TMPDIR),TMPDIR=$(TEST_TMPDIR) )$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup
FAST_TIER := not (browser or lighthouse or nu or slow)
define run-pytest
	@$(PYTEST) $(1); status=$$?; \
	if [ $$status -eq 5 ]; then echo "make: no tests were collected" >&2; exit 1; fi; \
	exit $$status
endef

# Lighthouse times the pages it scores: it runs last and alone, once every other test is done, so
# that the other worker's builds do not share the two cores with the pages it measures (beside
# them CI failed at performance 91-94 on pages that score 99-100 alone).
test: test-install system-packages
	$(call run-pytest,-m "not lighthouse" --durations=10)
	$(call run-pytest,-m lighthouse -n 0)

test-fast: test-install
	$(call run-pytest,-m "$(FAST_TIER)")

golden: test-install
	$(PY) -m pytest -q tests/test_golden.py --regen-golden

# Every catalogue (templates/locales/*/messages.po) brought up to date with the messages the
# templates and code ask for: new ones added untranslated (English: the message itself), unused
# ones removed, headers and translations kept. The tests fail on a message left untranslated.
messages: install
	$(PY) tests/catalogues.py

# Retake the README's picture of the shipped digest (Playwright and chromium, as the tests use).
screenshot: test-install system-packages
	$(PY) docs/screenshot.py

clean:
	rm -rf _site ._site.* $(VENV) node_modules .pytest_cache
