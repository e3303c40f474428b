#!/usr/bin/env bash
# Peer check with Blender 3.4 (Debian's `blender`), headless:
#  1. blender_scenes.py builds ten walkmesh scenes (courtyard with a hole, ramp, stairs,
#     n-gon doorway, parent/child transforms, Blender/kotorblender material names, walls
#     without material, a Z-up OBJ, mirror and array modifiers, a near-miss seam) and exports
#     each through Blender's own OBJ and glTF exporters; blender_check.py converts every
#     export to .wok and checks the designed walkable area, components and boundary loops,
#     and that `validate`/`convert` flag the broken variants.
#  2. Real KotOR walkmeshes from the shared corpora go .wok → .glb (walkmesh) → Blender
#     import, move a vertex, export (blender_roundtrip.py) → .wok (walkmesh) and must keep
#     their components, boundary loops, transitions and hooks.
# Exits non-zero on any failure, and when the corpora exist but part 2's files do not.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
source "$HERE/common.bash"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"

# Blender's glTF importer needs numpy (and np.bool, which the scripts restore).
if ! command -v blender >/dev/null || ! /usr/bin/python3 -c "import numpy" 2>/dev/null; then
  install() {
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q \
      blender python3-numpy >/dev/null
  }
  install || { apt-get update -q >/dev/null && install; }
fi
blender --version | head -n 1

(cd "$ROOT" && cargo build --release -q -p walkmesh-cli)
WALKMESH="$TARGET/release/walkmesh"
OUT="$TARGET/blender-peer"
rm -rf "$OUT"
mkdir -p "$OUT/scenes" "$OUT/real"

blend() { # script, arguments...: runs Blender headless, shows only our own lines and errors
  local script="$1"
  shift
  blender --background --factory-startup --python-exit-code 1 --python "$HERE/$script" -- "$@" \
    >"$OUT/blender.log" 2>&1 || { cat "$OUT/blender.log"; return 1; }
  grep -E "^blender_" "$OUT/blender.log" || true
}

status=0
blend blender_scenes.py "$OUT/scenes"
python3 "$HERE/blender_check.py" scenes "$OUT/scenes" "$WALKMESH" || status=1

find_corpora "$ROOT"
KOTOR="$CORPORA/kotor/k1cp/tslpatchdata"
if [ -n "$CORPORA" ]; then
  for file in m13aa_04a.wok m12aa_01f.wok m10ac_30a.wok plc_fccage2.pwk; do
    if [ ! -f "$KOTOR/$file" ]; then
      echo "blender peer check: $KOTOR/$file is missing from the shared corpora" >&2
      status=1
      continue
    fi
    stem="${file%.*}"
    ext="${file##*.}"
    "$WALKMESH" convert "$KOTOR/$file" "$OUT/real/$stem.glb" >/dev/null
    blend blender_roundtrip.py "$OUT/real/$stem.glb" "$OUT/real/$stem.blender.glb"
    "$WALKMESH" convert "$OUT/real/$stem.blender.glb" "$OUT/real/$stem.blender.$ext" >/dev/null
    python3 "$HERE/blender_check.py" roundtrip "$KOTOR/$file" "$OUT/real/$stem.blender.$ext" \
      "$WALKMESH" || status=1
  done
else
  no_corpora blender "the real-walkmesh round trip"
fi
if [ "$status" -ne 0 ]; then
  echo "blender peer check FAILED"
  exit 1
fi
echo "blender peer check passed"
