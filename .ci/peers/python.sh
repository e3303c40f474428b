#!/usr/bin/env bash
# Peer check for the Python package (python/): a fresh venv under target/, `pip install
# ./python` (maturin builds the abi3 wheel from the repository), then the pytest suite,
# including every shared WOK read by both the package and PyKotor, and mypy --strict over the
# installed type stubs. Prints "N passed, M failed";
# non-zero exit on any failure, when no test ran, and when a test was skipped although the
# shared corpora exist (the suite skips only what needs them).
set -euo pipefail
cd "$(dirname "$0")/../.."
source .ci/peers/common.bash
find_corpora "$PWD"
if [ -z "$CORPORA" ]; then
  no_corpora python "every test that needs the shared corpora"
fi
PY="${WALKMESH_PYTHON_BASE:-python3}"
VENV="target/python-venv"
rm -rf "$VENV"
"$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
# The CLI is the reference the suite compares with (same bytes, same reports).
cargo build --release -q -p walkmesh-cli
"$VENV/bin/python" -m pip install -q ./python pytest numpy "pykotor==2.3.12" mypy
set +e
"$VENV/bin/python" -m pytest python/tests -q -p no:cacheprovider -rs --junitxml=target/python-pytest.xml
status=$?
set -e
PEER_CORPORA="$CORPORA" "$VENV/bin/python" - <<'PY' || status=1
import os, sys
import xml.etree.ElementTree as ET
suite = ET.parse("target/python-pytest.xml").getroot()
suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
tests, failures, errors, skipped = (int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
print(f"{tests - failures - errors - skipped} passed, {failures + errors} failed, {skipped} skipped")
if tests - skipped == 0:
    sys.exit("python peer check: no test ran")
if skipped and os.environ.get("PEER_CORPORA"):
    sys.exit(f"python peer check: {skipped} skipped although the shared corpora exist "
             f"({os.environ['PEER_CORPORA']}); see the -rs lines above")
PY
exit $status
