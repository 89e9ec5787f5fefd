# Two commands: `make demo` runs the bundled example, `make test` runs every test.
# Each creates .venv (python3 -m venv) and installs what it needs.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# Upstream MLIR 22 (Debian's mlir-22-tools) checks that our lowered IR is accepted upstream;
# Graphviz (Debian's graphviz) renders view-op-graph's pictures in the tests.
MLIR22 := /usr/lib/llvm-22/bin/mlir-opt
DOT    := /usr/bin/dot

.PHONY: demo test lit pytest bench docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# Runtime dependencies, then our package without deps. Installing ours last matters:
# tosa-tools also ships a console script named tosa-opt, and ours must be the one in .venv/bin.
# An editable install leaves our sources uncompiled; where PYTHONDONTWRITEBYTECODE is set (CI
# machines) every process would compile them again (~0.3 s of each tosa-run): compileall once.
$(VENV)/.demo-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q "xdsl[llvm]==0.74.0" numpy ml_dtypes "flatbuffers>=24.3" "tflite==2.18.0" ai-edge-litert
	$(BIN)/pip install -q --no-deps -e .
	$(BIN)/python -m compileall -q tosa_xdsl >/dev/null
	touch $@

$(VENV)/.test-installed: pyproject.toml $(VENV)/.demo-installed
	$(BIN)/pip install -q "lit<24" "filecheck==1.0.6" pytest pytest-xdist hypothesis tosa-tools iree-base-compiler ai-edge-litert tosa-converter-for-tflite onnx onnxruntime
	$(BIN)/pip install -q --no-deps --force-reinstall -e .
	touch $@

$(MLIR22):
	@if [ "$$(id -u)" = 0 ]; then \
	  (apt-get update -qq && apt-get install -y -qq mlir-22-tools) >/dev/null; \
	else \
	  echo "mlir-22-tools missing: run 'sudo apt-get install mlir-22-tools'"; exit 1; \
	fi

demo: $(VENV)/.demo-installed
	$(BIN)/python examples/demo.py

$(DOT):
	@if [ "$$(id -u)" = 0 ]; then \
	  (apt-get update -qq && apt-get install -y -qq graphviz) >/dev/null; \
	else \
	  echo "graphviz missing: run 'sudo apt-get install graphviz'"; exit 1; \
	fi

test: $(VENV)/.test-installed $(MLIR22) $(DOT)
	$(MAKE) lit pytest

lit:
	PATH="$(abspath $(BIN)):$$PATH" $(BIN)/lit -q tests/filecheck

pytest:
	PATH="$(abspath $(BIN)):$$PATH" $(BIN)/pytest -n 2 tests

docs: $(VENV)/.demo-installed
	$(BIN)/python -m tosa_xdsl.docs_gen
	$(BIN)/python tests/agreement_page.py

bench: $(VENV)/.test-installed
	$(BIN)/python bench/parse.py

clean:
	rm -rf $(VENV)
