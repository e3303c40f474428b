#!/usr/bin/env bash
# Peer check for the KotOR BWM writer: two independent Python readers (bioware-kaitai-formats,
# a generated Kaitai parser of every raw table, and PyKotor's read_bwm) read every walkmesh the
# cargo tests wrote to $WALKMESH_PEER_DIR/bwm/ and compare it with the JSON sidecar our own
# reader produced beside each file. Prints "N passed, M failed"; non-zero exit on any failure.
set -euo pipefail
PY="${WALKMESH_PYTHON:-python3}"
DIR="${WALKMESH_PEER_DIR:?WALKMESH_PEER_DIR is not set}/bwm"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ ! -d "$DIR" ]; then
  echo "bwm peer check: $DIR does not exist (did the bwm tests run?)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
"$PY" -m pip install -q "bioware-kaitai-formats==0.1.0" "pykotor==2.3.12"
exec "$PY" "$HERE/bwm_check.py" "$DIR"
