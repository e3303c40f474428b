#!/usr/bin/env bash
# Peer check for `walkmesh render` and `walkmesh diff --html`: a real browser (Debian's
# headless Chromium) must draw our SVG and our HTML report like our own PNG of the same scene.
#  1. a sample of corpus files (KotOR, NWN2, Prime) is rendered to .svg and .png in several
#     modes; Chromium screenshots each SVG; render_compare.py compares the two pictures pixel
#     by pixel (mean difference and share of strongly different pixels);
#  2. a diff report (a KotOR room against its NWN2 conversion) is written as HTML and its
#     overlay as PNG; Chromium screenshots the page once as it is (kept for people to look
#     at) and once with the overlay figure pinned to the top-left corner, which must match
#     the PNG the same way.
# Screenshots and PNGs stay in $WALKMESH_PEER_DIR/render/. Prints "N passed, M failed"; a
# corpus file of the sample that is missing while the corpora exist counts as a failure.
set -euo pipefail
PY="${WALKMESH_PYTHON:-python3}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="${WALKMESH_PEER_DIR:-$TARGET/peer-files}/render"
# The shared corpora: $WALKMESH_CORPORA, else shared/corpora beside an ancestor of the checkout.
source "$HERE/common.bash"
find_corpora "$ROOT"
rm -rf "$OUT"
mkdir -p "$OUT"

if ! command -v chromium >/dev/null 2>&1; then
  (DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y chromium >/dev/null 2>&1) ||
    (apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y chromium >/dev/null)
fi
"$PY" -m pip install -q "pillow>=10"
(cd "$ROOT" && cargo build --release -q -p walkmesh-cli)
WALKMESH="$TARGET/release/walkmesh"

shot() { # shot URL OUT.png WIDTH HEIGHT
  # Headless Chromium in a container now and then dies of a signal before it draws anything
  # (a CI run saw one segfault in about forty screenshots); that says nothing about our files,
  # so a screenshot killed by a signal is taken again, at most three times, and said so. A
  # timeout (124) or any other failure is not retried; it leaves no screenshot, so the
  # comparison that follows counts it as a failure.
  local attempt code
  for attempt in 1 2 3; do
    rm -f "$2"
    set +e
    timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
      --hide-scrollbars --force-device-scale-factor=1 --screenshot="$2" --window-size="$3,$4" \
      "$1" >/dev/null 2>&1
    code=$?
    set -e
    if [ "$code" -eq 0 ] && [ -s "$2" ]; then return 0; fi
    if [ "$code" -le 128 ] || [ "$attempt" -eq 3 ]; then
      echo "render peer: chromium failed on $1 (exit $code, attempt $attempt)" >&2
      return 0
    fi
    echo "render peer: chromium died with signal $((code - 128)) on $1; taking the screenshot again" >&2
  done
}
size_of() { # prints "W H" of an SVG we wrote
  head -n 1 "$1" | sed -E 's/.* width="([0-9]+)" height="([0-9]+)".*/\1 \2/'
}

passed=0
failed=0
check() { # check NAME OURS.png SHOT.png
  if "$PY" "$HERE/render_compare.py" "$2" "$3"; then
    passed=$((passed + 1))
  else
    echo "render peer: $1 differs in Chromium" >&2
    failed=$((failed + 1))
  fi
}

missing() { # missing FILE: a corpus file the check needs is not there
  echo "render peer: $1 is missing from the shared corpora" >&2
  failed=$((failed + 1))
}

SAMPLE=()
if [ -n "$CORPORA" ]; then
  for f in \
    "$CORPORA/kotor/k1cp/tslpatchdata/m13aa_04a.wok" \
    "$CORPORA/kotor/k1cp/tslpatchdata/plc_fccage2.pwk" \
    "$CORPORA/nwn2/Kaedrin-nwn2cc/dm_dungeon.trx" \
    "$CORPORA/nwn2/Kaedrin-nwn2cc/abandoned house.trx"; do
    if [ -f "$f" ]; then SAMPLE+=("$f"); else missing "$f"; fi
  done
  prime="$(find "$CORPORA/prime" -iname '*.path' 2>/dev/null | sort | head -n 1)"
  if [ -n "$prime" ]; then SAMPLE+=("$prime"); else missing "a .path file below $CORPORA/prime"; fi
else
  no_corpora render "the corpus sample, the overlay of two rooms and the real room of the diff report"
fi
SAMPLE+=("$ROOT/corpora/obj/strip_with_column.obj")

i=0
for f in "${SAMPLE[@]}"; do
  i=$((i + 1))
  for mode in materials components tiles regions aabb-depth; do
    case "$mode" in
      materials | components) ;;
      tiles) [[ "$f" == *.trx ]] || continue ;;
      regions) [[ "$f" == *.path ]] || continue ;;
      aabb-depth) [[ "$f" == *.wok ]] || continue ;;
    esac
    base="$OUT/$i-$mode"
    "$WALKMESH" render "$f" -o "$base.svg" --mode "$mode" >/dev/null
    "$WALKMESH" render "$f" -o "$base.png" --mode "$mode" >/dev/null
    read -r w h < <(size_of "$base.svg")
    shot "file://$base.svg" "$base.chromium.png" "$w" "$h"
    check "$(basename "$f") ($mode)" "$base.png" "$base.chromium.png"
  done
done

# Overlay of two inputs.
if [ -n "$CORPORA" ] && [ ! -f "$CORPORA/kotor/k1cp/wip/m13aa_04a.wok" ]; then
  missing "$CORPORA/kotor/k1cp/wip/m13aa_04a.wok"
elif [ -n "$CORPORA" ] && [ -f "$CORPORA/kotor/k1cp/tslpatchdata/m13aa_04a.wok" ]; then
  "$WALKMESH" render "$CORPORA/kotor/k1cp/tslpatchdata/m13aa_04a.wok" "$CORPORA/kotor/k1cp/wip/m13aa_04a.wok" -o "$OUT/overlay.svg" >/dev/null
  "$WALKMESH" render "$CORPORA/kotor/k1cp/tslpatchdata/m13aa_04a.wok" "$CORPORA/kotor/k1cp/wip/m13aa_04a.wok" -o "$OUT/overlay.png" >/dev/null
  read -r w h < <(size_of "$OUT/overlay.svg")
  shot "file://$OUT/overlay.svg" "$OUT/overlay.chromium.png" "$w" "$h"
  check "overlay of two rooms" "$OUT/overlay.png" "$OUT/overlay.chromium.png"
fi

# The diff report: a room against its NWN2 conversion (moved onto the grid), aligned.
ROOM="$ROOT/corpora/obj/strip_with_column.obj"
if [ -n "$CORPORA" ]; then
  ROOM="$CORPORA/kotor/k1cp/tslpatchdata/m50aa_01a.wok"
  [ -f "$ROOM" ] || missing "$ROOM"
fi
"$WALKMESH" convert "$ROOM" "$OUT/room.trx" >/dev/null 2>&1
set +e
"$WALKMESH" diff "$ROOM" "$OUT/room.trx" --align --html "$OUT/report.html" --overlay "$OUT/report-overlay.png" --width 900 >"$OUT/report.txt"
code=$?
set -e
if [ "$code" -ne 0 ] && [ "$code" -ne 1 ]; then
  echo "render peer: walkmesh diff failed with exit code $code" >&2
  failed=$((failed + 1))
else
  shot "file://$OUT/report.html" "$OUT/report.chromium.png" 1280 2400
  # The same page with the overlay figure pinned at (0, 0) above everything else.
  sed 's#</style>#figure\#overlay { position: absolute; left: 0; top: 0; margin: 0; z-index: 10; background: \#fff; line-height: 0; } figure\#overlay figcaption { display: none; }</style>#' \
    "$OUT/report.html" >"$OUT/report-pinned.html"
  read -r w h < <("$PY" -c 'import sys; from PIL import Image; print(*Image.open(sys.argv[1]).size)' "$OUT/report-overlay.png")
  shot "file://$OUT/report-pinned.html" "$OUT/report-pinned.chromium.png" "$w" "$h"
  check "diff report overlay" "$OUT/report-overlay.png" "$OUT/report-pinned.chromium.png"
fi

echo "render peer: pictures in $OUT"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
