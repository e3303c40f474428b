#!/usr/bin/env bash
# Peer check of the release files (scripts/release.py) and of the one-step install without
# Rust: the script builds target/release-peer/dist/ (wheel, extension zip, legacy zip, CLI
# archive, SHA256SUMS); the sums must verify; auditwheel (PyPI) must find the wheel's
# manylinux tag consistent with what its compiled module links; the wheel is pip-installed
# into a fresh venv with binaries only (--only-binary :all:, so nothing is compiled there),
# and python/tests run against it with the CLI from the release archive as the reference.
# Prints "N passed, M failed, K skipped"; non-zero exit on any failure, when no test ran, and
# when a test was skipped although the shared corpora exist.
set -euo pipefail
cd "$(dirname "$0")/../.."
source .ci/peers/common.bash
find_corpora "$PWD"
if [ -z "$CORPORA" ]; then
  no_corpora release "every test that needs the shared corpora"
fi
OUT="target/release-peer"
VENV="target/peer-venv"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q "maturin>=1.9,<2" "auditwheel>=6,<7"
rm -rf "$OUT"
mkdir -p "$OUT"
start=$SECONDS
"$VENV/bin/python" scripts/release.py --out "$OUT/dist" >"$OUT/release.log" 2>&1 \
  || { cat "$OUT/release.log"; exit 1; }
grep "^release: " "$OUT/release.log" | grep -v "^release: \(cargo\|/\)" || true
echo "release: built in $((SECONDS - start)) s"
(cd "$OUT/dist" && sha256sum -c SHA256SUMS)
test "$(wc -l <"$OUT/dist/SHA256SUMS")" -eq 4 || { echo "release: SHA256SUMS lists not 4 files" >&2; exit 1; }

wheel="$(ls "$OUT"/dist/walkmesh-*.whl)"
# auditwheel reads the symbols the module links and names the manylinux tag they allow; the
# wheel's own tag (maturin's) must be that one: an older one would promise too much.
tag="${wheel##*-}"; tag="${tag%.whl}"
"$VENV/bin/auditwheel" show "$wheel" >"$OUT/auditwheel.log" 2>&1 || { cat "$OUT/auditwheel.log"; exit 1; }
found="$(tr '\n' ' ' <"$OUT/auditwheel.log" | grep -oE 'consistent with the following platform tag: *"[a-z0-9_]+"' \
  | grep -oE '"[a-z0-9_]+"' | tr -d '"')"
echo "release: wheel tag $tag, auditwheel: $found"
[ "$found" = "$tag" ] || { cat "$OUT/auditwheel.log"; echo "release: the wheel's tag is not auditwheel's" >&2; exit 1; }

# The CLI archive: the reference python/tests compare the package with.
mkdir -p "$OUT/cli"
tar -xzf "$OUT"/dist/walkmesh-*.tar.gz -C "$OUT/cli"
cli="$(ls "$OUT"/cli/*/walkmesh)"
"$cli" --version

PY="${WALKMESH_PYTHON_BASE:-python3}"
rm -rf "$OUT/venv"
"$PY" -m venv "$OUT/venv"
# walkmesh and numpy as binaries only: nothing of the package is compiled here. (PyKotor, the
# suite's second reader, is pure Python and published as a source archive.)
"$OUT/venv/bin/python" -m pip install -q --disable-pip-version-check --only-binary walkmesh,numpy \
  "$wheel" pytest "pykotor==2.3.12" mypy
# Outside the repository, so that python/walkmesh (the sources, no compiled module) cannot be
# what is imported.
(cd / && "$OLDPWD/$OUT/venv/bin/python" -c \
  'import walkmesh, sys; print("release: installed", walkmesh.__version__, "at", walkmesh.__file__)')
set +e
WALKMESH_BIN="$PWD/$cli" "$OUT/venv/bin/python" -m pytest python/tests -q -p no:cacheprovider -rs \
  --junitxml="$OUT/pytest.xml" >"$OUT/pytest.log" 2>&1
status=$?
set -e
tail -n 3 "$OUT/pytest.log"
PEER_CORPORA="$CORPORA" "$OUT/venv/bin/python" - "$OUT/pytest.xml" <<'PY' || status=1
import os, sys
import xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot()
suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
tests, failures, errors, skipped = (int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
print(f"{tests - failures - errors - skipped} passed, {failures + errors} failed, {skipped} skipped")
if tests - skipped == 0:
    sys.exit("release peer check: no test ran")
if skipped and os.environ.get("PEER_CORPORA"):
    sys.exit(f"release peer check: {skipped} skipped although the shared corpora exist")
PY
exit $status
