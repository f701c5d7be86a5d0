# Everything runs from the project's own virtual environment in .venv, created on demand.
#   make tutor   JupyterLab on tutorials/ (TUTOR_LANG=de or zh: on the German or Chinese lessons)
#   make test    ruff check, ruff format --check, pytest (everything, on three processes)
#   make test-fast  the same without the tests marked slow (pytest -m 'not slow')
# `make test` and `make test-fast` first install the system packages they need (system-packages).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip
SYSTEM_PACKAGES = VENV=$(VENV) PYTHON=$(PYTHON) bash tools/system-packages

comma := ,

# JupyterLab refuses to run as root without --allow-root.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)
# The lessons' language: en (tutorials/), de (tutorials/de) or zh (tutorials/zh). Not LANG, which
# is the shell's own locale setting. A kernel started in tutorials/de speaks German without any
# setting (widgets/lesson/language.py); each notebook's language line links the other two.
TUTOR_LANG ?= en
ifeq ($(filter $(TUTOR_LANG),en de zh),)
$(error TUTOR_LANG must be en, de or zh, not '$(TUTOR_LANG)')
endif
TUTOR_SUB := $(if $(filter en,$(TUTOR_LANG)),,$(TUTOR_LANG)/)
# Open the welcome notebook of that language if there is one (tutorials/ stays the root, so the
# language links work), else the folder.
TUTOR_START := $(or $(wildcard tutorials/$(TUTOR_SUB)00-welcome.ipynb),tutorials)
JUPYTER_ARGS ?=

export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: venv install tutor voila test test-fast lint format bench clean system-packages \
	system-packages-fast

venv: $(BIN)/python

# python3-venv first if `$(PYTHON) -m venv` fails (tools/system-packages; all `make tutor` needs
# from the system); a failed attempt leaves no half-made .venv that later runs take for a whole one.
$(BIN)/python:
	@$(SYSTEM_PACKAGES) venv
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); exit 1; }
	$(PIP) install --upgrade pip

# Install stamps: .venv/.installed-base (no extras), .venv/.installed-tutor,
# .venv/.installed-tutor-test (extras tutor,test), ... Each is redone only when pyproject.toml
# changes (or .venv is removed).
$(VENV)/.installed-base: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e .
	touch $@

# JupyterLab's settings for the tutor (jupyterlab/overrides.json, read from the environment's
# share/jupyter/lab/settings): kernel comms over subshells off, since with JupyterLab 4.6 and
# ipykernel 7.4 an output's first message can reach a subshell before its comm is open and be
# dropped ("No such comm"), and a live board then looks dead.
$(VENV)/.installed-%: pyproject.toml jupyterlab/overrides.json | $(BIN)/python
	$(PIP) install --quiet -e '.[$(subst -,$(comma),$*)]'
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp jupyterlab/overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	touch $@

install: $(VENV)/.installed-tutor-test-bots

tutor: $(VENV)/.installed-tutor-bots
	$(BIN)/jupyter lab --ip 127.0.0.1 $(ALLOW_ROOT) --ServerApp.root_dir=tutorials $(JUPYTER_ARGS) \
		$(TUTOR_START)

# The lessons as pages, without their code (Voilà): text, boards and exercises, which answer.
#   make voila                 all of tutorials/; open the welcome page it prints (English)
#   make voila TUTOR_LANG=de   the same, the page printed is the German welcome (zh: Chinese);
#                              every page's language line switches to the other languages
#   make voila NB=tutorials/09-closing-abou-simbel.ipynb   one lesson only (no language links)
# Voilà 0.5 cannot load Panel's JupyterLab extension, so in a kernel Voilà started Panel talks over
# ipywidgets' comms (widgets/server/patches.py; needs the jupyter_bokeh package). The page asks
# nothing of another host: jupyterlab/voila holds the tutor's Voilà settings (voila.json: Panel's
# extension left out, progressive rendering) and template (Voilà's lab template without its CDN
# links), found through JUPYTER_CONFIG_PATH and JUPYTER_PATH. tests/browser/test_voila.py answers
# an exercise and fails on any request to another host.
NB ?=
VOILA_ARGS ?=
VOILA_PORT ?= 8866
VOILA_SETTINGS := $(CURDIR)/jupyterlab/voila
voila: $(VENV)/.installed-tutor-bots
	@$(if $(NB),,echo "Open http://127.0.0.1:$(VOILA_PORT)/voila/render/$(TUTOR_SUB)00-welcome.ipynb")
	JUPYTER_CONFIG_PATH=$(VOILA_SETTINGS) JUPYTER_PATH=$(VOILA_SETTINGS) \
		$(BIN)/voila $(or $(NB),tutorials) --no-browser --Voila.ip=127.0.0.1 \
		--Voila.port=$(VOILA_PORT) $(VOILA_ARGS)

# The system packages (Debian's) the tests need beyond Python, each installed only when missing:
# as root in one `apt-get update` + `apt-get install`, else one message naming the
# `sudo apt-get install ...` command (tools/system-packages says what each is for).
#   system-packages       for `make test`: postgresql (the database tests start a server of their
#                         own), chromium and fonts-noto-cjk (the browser tests), python3-venv when
#                         .venv does not exist yet and `python3 -m venv` fails
#   system-packages-fast  for `make test-fast`: the same without the browser's; its database tests
#                         are not marked slow
# Each test target lists its own first, so that python3-venv comes in the same apt-get.
system-packages:
	@$(SYSTEM_PACKAGES) venv db browser
system-packages-fast:
	@$(SYSTEM_PACKAGES) venv db

# The tests run on TEST_WORKERS processes (pytest-xdist); a module's tests stay in one process
# (tests/conftest.py). Three on two cores: the browser journeys spend much of their time waiting
# for a server, a kernel or a page, so a third process keeps both cores busy (make test: 14.6
# minutes against 15.7 with two, docs/benchmarks.md). TEST_WORKERS=0 runs them all in this one.
# The modules are handed out in the order tests/conftest.py gives (the longest first):
# --no-loadscope-reorder, else pytest-xdist hands out the modules with the most tests first and
# the long browser journeys, a few tests each, come last and end the run one by one.
TEST_WORKERS ?= 3
PYTEST := $(BIN)/pytest --durations=15 $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder)

test: system-packages $(VENV)/.installed-tutor-test-bots
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(PYTEST)

# The same without the tests marked slow (the browser tests, the notebooks executed, the odds
# cluster, the CLI fuzz, the golden counts): a quick check while working; `make test` runs all.
test-fast: system-packages-fast $(VENV)/.installed-tutor-test-bots
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(PYTEST) -m "not slow"

lint: $(VENV)/.installed-tutor-test-bots
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(VENV)/.installed-tutor-test
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The benchmarks quick enough to run together (a few minutes; the mcts one plays 1 s a decision).
# docs/benchmarks.md says which figure each prints, and how to run the long ones.
bench: $(VENV)/.installed-bots
	$(BIN)/nefertiti simulate --players 4 --games 2000 --seed 1 --no-check --json
	$(BIN)/nefertiti simulate --players 3 --games 2000 --seed 1 --no-check --json
	$(BIN)/python benchmarks/odds_speed.py --playouts 1000
	$(BIN)/python benchmarks/odds_speed.py --playouts 120 --bots greedy
	$(BIN)/python benchmarks/practice_supply.py --games 10
	$(BIN)/python benchmarks/difficulty_calibration.py
	$(BIN)/python benchmarks/mcts_decision_time.py --games 2

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
