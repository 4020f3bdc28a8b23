PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run test lint typecheck unit demo bench bench-quick clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/omoide serve --host 127.0.0.1 --port 8000 --data-dir ./data

demo: $(STAMP)
	$(BIN)/omoide demo

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -q

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python -m benchmarks.run --profile full

bench-quick: $(STAMP)
	$(BIN)/python -m benchmarks.run --profile quick

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
