#!/usr/bin/env bash
# The walkmesh Python package over a third party's registry (examples/textmesh/python): the
# extension module built by that crate (outside the workspace) over the textmesh registry,
# installed as `walkmesh/_walkmesh` beside the package's Python files in a fresh venv, then its
# pytest suite. Prints "N passed"; non-zero exit on any failure or when no test ran.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="${WALKMESH_PYTHON_BASE:-python3}"
VENV="target/textmesh-venv"
# A target folder of its own: built here without its feature `module`, walkmesh-python's
# cdylib would take the place of the package's own lib_walkmesh.so in target/release.
BUILD="$PWD/target/textmesh-python"
CARGO_TARGET_DIR="$BUILD" cargo build --release -q \
  --manifest-path examples/textmesh/python/Cargo.toml
rm -rf "$VENV"
"$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q pytest numpy
SITE="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
mkdir -p "$SITE/walkmesh"
cp python/walkmesh/*.py python/walkmesh/*.pyi "$SITE/walkmesh/"
cp python/walkmesh/py.typed "$SITE/walkmesh/" 2>/dev/null || true
cp "$BUILD/release/libwalkmesh_example_textmesh_python.so" "$SITE/walkmesh/_walkmesh.abi3.so"
cd examples/textmesh/python
"../../../$VENV/bin/python" -m pytest tests -q -p no:cacheprovider
