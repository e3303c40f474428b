#!/usr/bin/env bash
# Peer checks for glTF:
#  1. the Khronos glTF validator (npm gltf-validator) must report 0 errors on every .glb/.gltf
#     the cargo tests wrote to $WALKMESH_PEER_DIR/gltf/ (and must reject a broken control file);
#  2. glTF files written by independent tools (pygltflib and trimesh from PyPI: nested node
#     transforms, non-indexed triangles, several materials, external buffers) must read through
#     `walkmesh info --json` with the triangle count, bounding box and materials the tools state.
# Prints "N passed, M failed"; exits non-zero on any failure.
set -euo pipefail
PY="${WALKMESH_PYTHON:-python3}"
DIR="${WALKMESH_PEER_DIR:?WALKMESH_PEER_DIR is not set}/gltf"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
if [ ! -d "$DIR" ]; then
  echo "gltf peer check: $DIR does not exist (did the gltf tests run?)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

NPM_DIR="$TARGET/peer-npm-gltf"
npm install --prefix "$NPM_DIR" --no-audit --no-fund --loglevel=error "gltf-validator@2.0.0-dev.3.10" >/dev/null
"$PY" -m pip install -q "pygltflib==1.16.5" "trimesh==5.2.0" "numpy>=1.24"

(cd "$ROOT" && cargo build --release -q -p walkmesh-cli)
WALKMESH="$TARGET/release/walkmesh"

FOREIGN="$WALKMESH_PEER_DIR/gltf-foreign"
CONTROL="$WALKMESH_PEER_DIR/gltf-control"
rm -rf "$FOREIGN" "$CONTROL"
"$PY" "$HERE/gltf_foreign.py" generate "$FOREIGN"
"$PY" "$HERE/gltf_foreign.py" broken "$CONTROL"

passed=0
failed=0
count() { # adds the "N passed, M failed" of the last line of $1 to the totals
  local line
  line="$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)"
  passed=$((passed + $(sed -E 's/.* ([0-9]+) passed.*/\1/' <<<"$line")))
  failed=$((failed + $(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")))
}
LOG="$(mktemp)"

# 1. Our files.
mapfile -d '' OURS < <(find "$DIR" -type f \( -name '*.glb' -o -name '*.gltf' \) -print0 | sort -z)
if [ "${#OURS[@]}" -eq 0 ]; then
  echo "no glTF files in $DIR"
  failed=$((failed + 1))
else
  node "$HERE/gltf_validate.mjs" "$NPM_DIR/node_modules/gltf-validator" "${OURS[@]}" | tee "$LOG" || true
  count "$LOG"
fi

# Control: the validator must find errors in a broken file, or the step above proves nothing.
if node "$HERE/gltf_validate.mjs" "$NPM_DIR/node_modules/gltf-validator" "$CONTROL/broken.gltf" >"$LOG"; then
  echo "FAIL control: the validator accepted a broken file"
  failed=$((failed + 1))
else
  echo "ok   control: the validator rejects a broken file"
  passed=$((passed + 1))
fi

# 2. Files written by independent tools, read by our CLI.
"$PY" "$HERE/gltf_foreign.py" check "$FOREIGN" "$WALKMESH" | tee "$LOG" || true
count "$LOG"
rm -f "$LOG"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
