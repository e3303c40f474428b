#!/usr/bin/env bash
# Builds the `walkmesh` binary with only the OBJ format (`--no-default-features --features
# obj`: BWM, NWN2, PATH, glTF and MDL left out, and with them the format crates that
# kotor-area, route and generate would otherwise link) and checks that asking for a format
# the build leaves out is refused with a message naming its cargo feature (exit 2), not
# failed on at run time in some other way. Run by CI last: it leaves target/release/walkmesh
# built with OBJ only (the next `cargo build` or `cargo test` builds the full one again).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p walkmesh-cli --no-default-features --features obj
# No crate of a left-out format is linked, through any dependency.
linked=$(cargo tree -p walkmesh-cli --no-default-features --features obj -e normal --prefix none |
  grep -oE '^walkmesh-(bwm|nwn2|prime|gltf|mdl) ' | sort -u || true)
if [ -n "$linked" ]; then
  echo "the OBJ-only build links left-out format crates: $linked" >&2
  exit 1
fi
walkmesh=target/release/walkmesh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl Stone\nf 1 2 3\n' > "$work/a.obj"
printf 'BWM V1.0garbage' > "$work/room.wok"
printf 'beginlayout\nroomcount 1\n  room 0 0 0\ndonelayout\n' > "$work/area.lyt"

# expect CODE FEATURE COMMAND...: the command exits CODE and says `cargo feature `FEATURE``.
expect() {
  local code=$1 feature=$2
  shift 2
  set +e
  "$walkmesh" "$@" > "$work/out" 2> "$work/err"
  local got=$?
  set -e
  if [ "$got" != "$code" ] || ! grep -q "cargo feature \`$feature\`" "$work/err"; then
    echo "walkmesh $*: exit $got (expected $code), stderr:" >&2
    cat "$work/err" >&2
    exit 1
  fi
  echo "ok: walkmesh $* -> $(head -1 "$work/err")"
}

"$walkmesh" formats | grep -q '^obj'
if "$walkmesh" formats | grep -qE '^(bwm|trx|path|gltf|mdl) '; then
  echo "formats lists a format the build leaves out" >&2
  exit 1
fi
"$walkmesh" convert "$work/a.obj" "$work/b.obj" --quiet
expect 2 bwm convert "$work/a.obj" "$work/a.wok"
expect 2 nwn2 convert "$work/a.obj" "$work/a.out" --to trx
expect 2 prime convert "$work/a.obj" "$work/a.path"
expect 2 gltf convert "$work/a.obj" "$work/a.glb"
expect 2 bwm info "$work/room.wok"
expect 2 bwm route "$work/room.wok" --from 0,0,0 --to 1,1,0
expect 2 bwm lint "$work" --lyt "$work/area.lyt"
echo "left-out formats are named with their features"
