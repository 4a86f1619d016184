# impactbot: `make run` shows the demo report, `make test` runs every check.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
NATIVE ?= 1

.PHONY: setup run test lint typecheck bench callgraph clean

setup: $(VENV)/.installed $(VENV)/.native-$(NATIVE)

# torch first, pinned: it is installed from this machine's CPU wheel, so the
# semantic extra never pulls a multi-GB CUDA build.
$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e ".[dev,semantic]"
	touch $@

# The resolver compiled with mypyc, about twice as fast (build_native.py); without
# a C compiler the plain modules run. NATIVE=0 runs them anyway. impactbot/native.py
# lists the modules compiled, all in impactbot/link/.
$(VENV)/.native-$(NATIVE): $(VENV)/.installed build_native.py impactbot/native.py $(wildcard impactbot/link/*.py)
	rm -f $(VENV)/.native-*
	@if [ "$(NATIVE)" = 1 ]; then $(BIN)/python build_native.py; else $(BIN)/python build_native.py --clean; fi
	touch $@

# DEMO_DIR=path keeps the demo repository somewhere of your choosing
run: setup
	@dir="$${DEMO_DIR:-$$(mktemp -d /tmp/impactbot-demo.XXXXXX)}"; \
	$(BIN)/python demo/build_demo.py "$$dir" && \
	echo "demo repository: $$dir (branch feature vs main)" && \
	$(BIN)/impactbot diff main..feature -C "$$dir" --format text --no-cache

test: setup lint
	$(BIN)/python -m pytest -q -p no:cacheprovider -n 2

lint: setup
	$(BIN)/ruff check .

typecheck: setup
	$(BIN)/mypy impactbot

bench: setup
	$(BIN)/python benchmarks/bench.py

callgraph: setup
	$(BIN)/python benchmarks/callgraph.py

clean:
	$(PYTHON) build_native.py --clean
	rm -rf $(VENV) build dist *.egg-info
