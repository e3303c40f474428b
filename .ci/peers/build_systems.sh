#!/usr/bin/env bash
# Peer check: walkmesh as a build step under real make and ninja (Debian's), with the examples
# of docs/examples/. Each build runs twice: the second must do nothing. Then changing a glTF's
# .bin buffer (a file only the depfile names) must rebuild that one output, and a rebuild
# that gives the same bytes must leave the output's modification time alone.
set -euo pipefail
cd "$(dirname "$0")/../.."
install() {
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q make ninja-build >/dev/null
}
if ! command -v make >/dev/null || ! command -v ninja >/dev/null; then
  install || { apt-get update -q >/dev/null && install; }
fi
cargo build --release -q -p walkmesh-cli
BIN="$PWD/target/release/walkmesh"
passed=0
failed=0
check() { # check NAME CONDITION-EXIT-CODE
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $1" >&2; fi
}
project() { # a project folder with two glTF rooms (external .bin buffers) and a materials table
  local dir="$1"
  mkdir -p "$dir/rooms"
  "$BIN" convert corpora/obj/two_rooms.obj "$dir/rooms/floor.gltf" --quiet
  "$BIN" convert corpora/obj/flat_floor.obj "$dir/rooms/hall.gltf" --quiet
  "$BIN" profiles kotor > "$dir/materials.ron"
}
mtime() { stat -c %Y.%N "$1" 2>/dev/null || stat -c %Y "$1"; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Make
project "$work/make"
cp docs/examples/Makefile "$work/make/"
(cd "$work/make" && make -s WALKMESH="$BIN")
check "make builds both rooms" "$([ -f "$work/make/build/floor.wok" ] && [ -f "$work/make/build/hall.wok" ]; echo $?)"
check "make wrote depfiles naming the .bin" "$(grep -q 'rooms/floor.bin' "$work/make/build/floor.d"; echo $?)"
second="$(cd "$work/make" && make WALKMESH="$BIN")"
check "a second make does nothing ($second)" "$(echo "$second" | grep -q "Nothing to be done"; echo $?)"
sleep 1.1
cp "$work/make/rooms/floor.bin" "$work/make/floor.bin.keep"
touch "$work/make/rooms/floor.bin"
before="$(mtime "$work/make/build/floor.wok")"
rebuilt="$(cd "$work/make" && make WALKMESH="$BIN")"
check "touching the .bin reruns the floor only ($rebuilt)" \
  "$(echo "$rebuilt" | grep -q "floor.gltf" && ! echo "$rebuilt" | grep -q "hall.gltf"; echo $?)"
check "the same bytes leave floor.wok untouched" "$([ "$before" = "$(mtime "$work/make/build/floor.wok")" ]; echo $?)"
# Make has no restat: it runs the step again, which again leaves the output alone.
(cd "$work/make" && make -s WALKMESH="$BIN")
check "a rerun with the same bytes still leaves floor.wok untouched" "$([ "$before" = "$(mtime "$work/make/build/floor.wok")" ]; echo $?)"

# Ninja
project "$work/ninja"
sed "s|^walkmesh = walkmesh|walkmesh = $BIN|" docs/examples/build.ninja > "$work/ninja/build.ninja"
(cd "$work/ninja" && ninja -v >/dev/null)
check "ninja builds both rooms" "$([ -f "$work/ninja/build/floor.wok" ] && [ -f "$work/ninja/build/hall.wok" ]; echo $?)"
second="$(cd "$work/ninja" && ninja)"
check "a second ninja does nothing ($second)" "$(echo "$second" | grep -q "no work to do"; echo $?)"
sleep 1.1
touch "$work/ninja/rooms/hall.bin"
rebuilt="$(cd "$work/ninja" && ninja -d explain 2>&1)"
check "touching the .bin reruns the hall only" \
  "$(echo "$rebuilt" | grep -q "1/1" && echo "$rebuilt" | grep -q "build/hall.wok"; echo $?)"
third="$(cd "$work/ninja" && ninja)"
check "after the rerun ninja is up to date ($third)" "$(echo "$third" | grep -q "no work to do"; echo $?)"

echo "build systems: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
