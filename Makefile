# make serve: build the site and serve it at http://127.0.0.1:8000/<base path>/
# make test:  run the whole test suite (installs what it needs first)
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
CHROMIUM := /usr/bin/chromium
CJK_FONT := /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: install system-packages build serve test golden clean

$(VENV)/installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts

# Debian's chromium for the browser tests, a Java runtime for the Nu Html Checker.
$(CHROMIUM):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium

# Noto CJK, so the Chinese interface's screenshots show characters, not boxes.
$(CJK_FONT):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq fonts-noto-cjk

system-packages: $(CHROMIUM) $(CJK_FONT)
	@command -v java >/dev/null || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq default-jre-headless; }

install: $(VENV)/installed node_modules/.package-lock.json

# BASE_URL (set in the environment, or `make build BASE_URL=...`) overrides site.yaml's base_url;
# the Pages workflow sets it to the URL GitHub Pages reports.
build: install
	$(PY) build.py$(if $(BASE_URL), --base-url "$(BASE_URL)")

serve: install
	$(PY) build.py serve --port $(PORT)

# pytest's exit code 5 (no tests collected) is a failure, not a pass.
test: install system-packages
	@$(PY) -m pytest -q; status=$$?; \
	if [ $$status -eq 5 ]; then echo "make test: no tests were collected" >&2; exit 1; fi; \
	exit $$status

golden: install
	$(PY) -m pytest -q tests/test_golden.py --regen-golden

clean:
	rm -rf _site ._site.* $(VENV) node_modules .pytest_cache
