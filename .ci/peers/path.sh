#!/usr/bin/env bash
# Peer check for the Metroid Prime PATH writer: an independent `construct` schema of the MP1
# layout (written from shared/formats/prime-path.md, not from our Rust code) parses and
# rebuilds every PATH file the cargo tests wrote to $WALKMESH_PEER_DIR/path/ (cooked KotOR and
# NWN2 walkmeshes, generated meshes) plus the shared synthetic fixture, and checks the engine's
# rules on each. Prints "N passed, M failed"; non-zero exit on any failure.
set -euo pipefail
PY="${WALKMESH_PYTHON:-python3}"
DIR="${WALKMESH_PEER_DIR:?WALKMESH_PEER_DIR is not set}/path"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ ! -d "$DIR" ]; then
  echo "path peer check: $DIR does not exist (did the prime tests run?)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
"$PY" -m pip install -q "construct==2.10.70"
FIXTURE="$HERE/../../../shared/corpora/prime/synthetic/grid_mp1_v4.path"
EXTRA=()
if [ -n "${WALKMESH_CORPORA:-}" ] && [ -f "$WALKMESH_CORPORA/prime/synthetic/grid_mp1_v4.path" ]; then
  EXTRA+=("$WALKMESH_CORPORA/prime/synthetic/grid_mp1_v4.path")
elif [ -f "$FIXTURE" ]; then
  EXTRA+=("$FIXTURE")
fi
exec "$PY" "$HERE/path_check.py" "$DIR" "${EXTRA[@]}"
