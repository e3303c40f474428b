#!/usr/bin/env bash
# Peer check for the Metroid Prime PATH writer: an independent `construct` schema of the MP1
# layout (written from the engine description in docs/formats/prime.md, not from our Rust code) parses and
# rebuilds every PATH file the cargo tests wrote to $WALKMESH_PEER_DIR/path/ (cooked KotOR and
# NWN2 walkmeshes, generated meshes) plus the shared synthetic fixture, and checks the engine's
# rules on each. Prints "N passed, M failed"; non-zero exit on any failure, on a missing or
# empty folder, and when the corpora exist but their fixture does not.
set -euo pipefail
PY="${WALKMESH_PYTHON:-python3}"
DIR="${WALKMESH_PEER_DIR:?WALKMESH_PEER_DIR is not set}/path"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/common.bash"
if [ ! -d "$DIR" ]; then
  echo "path peer check: $DIR does not exist (did the prime tests run?)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
need_files path "PATH files in $DIR" "$(find "$DIR" -type f -iname '*.path' | wc -l)"
"$PY" -m pip install -q "construct==2.10.70"
find_corpora "$(cd "$HERE/../.." && pwd)"
EXTRA=()
if [ -n "$CORPORA" ]; then
  FIXTURE="$CORPORA/prime/synthetic/grid_mp1_v4.path"
  need_files path "shared fixture $FIXTURE" "$([ -f "$FIXTURE" ] && echo 1 || echo 0)"
  EXTRA+=("$FIXTURE")
  # Cooked corpus files (tests/tests/prime_conversions.rs names them after their path).
  need_files path "PATH files cooked from the corpora (kotor_* or nwn2_*) in $DIR" \
    "$(find "$DIR" -type f \( -name 'kotor_*' -o -name 'nwn2_*' \) | wc -l)"
else
  no_corpora path "the shared fixture"
fi
exec "$PY" "$HERE/path_check.py" "$DIR" "${EXTRA[@]}"
