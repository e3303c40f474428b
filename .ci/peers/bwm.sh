#!/usr/bin/env bash
# Peer check for the KotOR BWM writer: two independent Python readers (bioware-kaitai-formats,
# a generated Kaitai parser of every raw table, and PyKotor's read_bwm) read every walkmesh the
# cargo tests wrote to $WALKMESH_PEER_DIR/bwm/ and compare it with the JSON sidecar our own
# reader produced beside each file. Prints "N passed, M failed"; non-zero exit on any failure,
# on a missing folder, and when the corpora exist but none of their rebuilt files are there.
set -euo pipefail
PY="${WALKMESH_PYTHON:-python3}"
DIR="${WALKMESH_PEER_DIR:?WALKMESH_PEER_DIR is not set}/bwm"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/common.bash"
if [ ! -d "$DIR" ]; then
  echo "bwm peer check: $DIR does not exist (did the bwm tests run?)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
find_corpora "$(cd "$HERE/../.." && pwd)"
if [ -n "$CORPORA" ]; then
  # The corpus files rebuilt by formats/bwm/tests/corpus.rs are named after their path, with
  # "__" for each folder separator.
  need_files bwm "rebuilt corpus walkmeshes (*__*) in $DIR" \
    "$(find "$DIR" -type f -name '*__*' ! -name '*.json' | wc -l)"
else
  no_corpora bwm "the real-file part"
fi
"$PY" -m pip install -q "bioware-kaitai-formats==0.1.0" "pykotor==2.3.12"
exec "$PY" "$HERE/bwm_check.py" "$DIR"
