#!/usr/bin/env bash
# Differential check of `walkmesh generate` against the C++ recastnavigation (the reference the
# issue names), on designed scenes (recast_scenes.py) with one configuration:
#  1. builds tools/recast-reference (recastnavigation-sys, vendored C++ built with cmake;
#     bindgen needs libclang) after installing Debian's cmake and libclang-dev when missing;
#  2. runs both on every scene with the same cell size, agent and slope, keeping unreachable
#     regions (Recast keeps every region; reachability is ours alone);
#  3. compares the walkable footprints seen from above with `walkmesh diff --json`
#     (recast_compare.py): IoU, precision, recall per scene, each above a stated bar;
#  4. times both on a large scene (`--big`): the ratio goes into the log, not into the verdict
#     (no timed assertions; docs/generate.md states the measured figures).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="$TARGET/recast-peer"

if ! command -v cmake >/dev/null || ! ls /usr/lib/llvm-*/lib/libclang*.so* >/dev/null 2>&1; then
  install() {
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q \
      cmake libclang-dev >/dev/null
  }
  install || { apt-get update -q >/dev/null && install; }
fi

(cd "$ROOT" && cargo build --release -q -p walkmesh-cli)
# Its own workspace (FFI, unsafe code): its own target folder under ours.
(cd "$ROOT/tools/recast-reference" && RECAST_VENDOR=true \
  CARGO_TARGET_DIR="$TARGET/recast-reference" cargo build --release -q)

rm -rf "$OUT"
mkdir -p "$OUT"
python3 "$HERE/recast_scenes.py" "$OUT" --big "${RECAST_BIG:-100}"
python3 "$HERE/recast_compare.py" "$TARGET/release/walkmesh" \
  "$TARGET/recast-reference/release/recast-reference" "$OUT"
