#!/usr/bin/env bash
# Peer check for the Python package (python/): a fresh venv under target/, `pip install
# ./python` (maturin builds the abi3 wheel from the repository), then the pytest suite,
# including every shared WOK read by both the package and PyKotor. Prints "N passed, M failed";
# non-zero exit on any failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="${WALKMESH_PYTHON_BASE:-python3}"
VENV="target/python-venv"
rm -rf "$VENV"
"$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
# The CLI is the reference the suite compares with (same bytes, same reports).
cargo build --release -q -p walkmesh-cli
"$VENV/bin/python" -m pip install -q ./python pytest numpy "pykotor==2.3.12"
set +e
"$VENV/bin/python" -m pytest python/tests -q -p no:cacheprovider -rs --junitxml=target/python-pytest.xml
status=$?
set -e
"$VENV/bin/python" - <<'PY'
import xml.etree.ElementTree as ET
suite = ET.parse("target/python-pytest.xml").getroot()
suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
tests, failures, errors, skipped = (int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
print(f"{tests - failures - errors - skipped} passed, {failures + errors} failed, {skipped} skipped")
PY
exit $status
