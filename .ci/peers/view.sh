#!/usr/bin/env bash
# Peer check for `walkmesh view`: the inspector page in a real browser (Debian's headless
# Chromium, driven by selenium through Debian's chromedriver; no browser is downloaded).
# view_check.py writes a page per case with `walkmesh view`, loads it from disk and checks that
# it draws and becomes ready (the largest corpus TRX within 2 s), that its face count is
# `walkmesh info`'s, that a mouse click at screenOf(face) selects that face and the panel shows
# the value and offset `walkmesh dump --format json` gives for one of its fields, and that
# setLayer changes the pixels. Cases: a KotOR WOK, the corpus TRX with the most faces, a PATH,
# an OBJ (no field dump: the neutral mesh is shown) and two versions of one KotOR room overlaid.
# A route picked with two clicks on the WOK is drawn and starts and ends on the faces clicked.
# Routes: when the binary under test has `walkmesh route` (after the route work is merged), or
# WALKMESH_ROUTE_BIN names one that has, `walkmeshView.route(a, b)` between pairs of walkable
# face centres must equal `walkmesh route FILE --method surface --json` (faces, points, length);
# without such a binary that part prints a notice and is not run.
# Pages stay in $WALKMESH_PEER_DIR/view/. Prints "N passed, M failed".
set -euo pipefail
PY="${WALKMESH_PYTHON:-python3}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="${WALKMESH_PEER_DIR:-$TARGET/peer-files}/view"
source "$HERE/common.bash"
find_corpora "$ROOT"
rm -rf "$OUT"
mkdir -p "$OUT"

if ! command -v chromium >/dev/null 2>&1 || ! [ -x /usr/bin/chromedriver ]; then
  (DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y chromium chromium-driver >/dev/null 2>&1) ||
    (apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y chromium chromium-driver >/dev/null)
fi
"$PY" -m pip install -q "selenium>=4.10" "pillow>=10"
(cd "$ROOT" && cargo build --release -q -p walkmesh-cli)
WALKMESH="$TARGET/release/walkmesh"

CASES=("obj=$ROOT/corpora/obj/two_rooms.obj")
if [ -n "$CORPORA" ]; then
  missing=0
  for f in \
    "$CORPORA/kotor/k1cp/tslpatchdata/m13aa_04a.wok" \
    "$CORPORA/kotor/k1cp/wip/m13aa_04a.wok" \
    "$CORPORA/nwn2/Kaedrin-nwn2cc/dm_dungeon.trx" \
    "$CORPORA/nwn2/Kaedrin-nwn2cc/oldskull_descent.trx" \
    "$CORPORA/kotor/k1cp/tslpatchdata/m50aa_01a.wok" \
    "$CORPORA/kotor-models/k1cp/tslpatchdata/m50aa_01a.mdl"; do
    if ! [ -f "$f" ]; then
      echo "view peer: $f is missing from the shared corpora" >&2
      missing=$((missing + 1))
    fi
  done
  prime="$(find "$CORPORA/prime" -iname '*.path' 2>/dev/null | sort | head -n 1)"
  need_files view "PATH file below $CORPORA/prime" "$([ -n "$prime" ] && echo 1 || echo 0)"
  if [ "$missing" -gt 0 ]; then
    echo "0 passed, $missing failed"
    exit 1
  fi
  CASES+=(
    "wok=$CORPORA/kotor/k1cp/tslpatchdata/m13aa_04a.wok"
    # dm_dungeon: the most faces of the corpus TRX files (26,213); oldskull_descent: the
    # largest file (1.8 MB).
    "big-trx=$CORPORA/nwn2/Kaedrin-nwn2cc/dm_dungeon.trx"
    "big-trx-file=$CORPORA/nwn2/Kaedrin-nwn2cc/oldskull_descent.trx"
    "path=$prime"
    "two=$CORPORA/kotor/k1cp/wip/m13aa_04a.wok,$CORPORA/kotor/k1cp/tslpatchdata/m13aa_04a.wok"
    # view --model: a K1CP room over its model (lint --model finds 3 default findings there).
    "model=$CORPORA/kotor/k1cp/tslpatchdata/m50aa_01a.wok@$CORPORA/kotor-models/k1cp/tslpatchdata/m50aa_01a.mdl"
  )
else
  no_corpora view "the corpus pages (WOK, TRX, PATH, two files)"
fi
"$PY" "$HERE/view_check.py" "$WALKMESH" "$OUT" "${CASES[@]}"
