#!/usr/bin/env bash
# Peer check for KotOR areas: PyKotor (PyPI) reads every LYT, VIS and ERF archive the cargo
# tests of walkmesh-kotor-area wrote to $WALKMESH_PEER_DIR/area/ and must see the same content
# as the JSON sidecar our own reader wrote beside each file (room names, positions, door hooks
# as float32; visibility sets; archive members with their sizes and hashes). Walkmeshes written
# there (kit and indoor rooms) are read by PyKotor's read_bwm and compared likewise.
# Prints "N passed, M failed"; non-zero exit on any failure, on a missing or empty folder, and
# (with WALKMESH_REQUIRE_CORPORA=1) without the shared corpora.
set -euo pipefail
PY="${WALKMESH_PYTHON:-python3}"
DIR="${WALKMESH_PEER_DIR:?WALKMESH_PEER_DIR is not set}/area"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/common.bash"
find_corpora "$(cd "$HERE/../.." && pwd)"
if [ -z "$CORPORA" ]; then
  # The area tests write nothing without the real archives, kits and maps (a clone with no
  # ../shared): nothing to compare.
  no_corpora area "the whole check"
  exit 0
fi
if [ ! -d "$DIR" ]; then
  echo "area peer check: $DIR does not exist (did the walkmesh-kotor-area tests run?)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
need_files area "files with sidecars in $DIR" "$(find "$DIR" -type f -name '*.json' | wc -l)"
"$PY" -m pip install -q "pykotor==2.3.12"
exec "$PY" "$HERE/area_check.py" "$DIR"
