#!/usr/bin/env bash
# Peer check for the Kaitai Struct specs of `walkmesh spec bwm|aswm|path --format ksy`:
#  1. the official compiler (npm kaitai-struct-compiler, its JavaScript build) compiles each
#     spec to Python;
#  2. the generated parsers (PyPI kaitaistruct runtime) read every shared corpus file of the
#     format (for ASWM: the inflated body `walkmesh dump --extract aswm-body` writes) and the
#     PATH files of versions 4, 6 and 7 the research tests wrote to $WALKMESH_PEER_DIR/kaitai/,
#     to the same counts and sampled fields as `walkmesh dump --format json`;
#  3. control: a spec with two AABB fields swapped must fail that comparison, or step 2 proves
#     nothing.
# Prints "N passed, M failed"; non-zero exit on any failure, including when the compiler cannot
# be installed while the corpora are present.
set -euo pipefail
PY="${WALKMESH_PYTHON:-python3}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
source "$HERE/common.bash"
DIR="${WALKMESH_PEER_DIR:?WALKMESH_PEER_DIR is not set}/kaitai"
need_files kaitai "PATH files of versions 4, 6, 7 in $DIR (did the research tests run?)" \
  "$(find "$DIR" -type f -name '*.path' 2>/dev/null | wc -l)"

NPM_DIR="$TARGET/peer-npm-kaitai"
if ! npm install --prefix "$NPM_DIR" --no-audit --no-fund --loglevel=error \
    "kaitai-struct-compiler@0.11.0" "js-yaml@4.1.0" >/dev/null; then
  echo "kaitai peer check: cannot install the Kaitai Struct compiler from npm" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
"$PY" -m pip install -q "kaitaistruct==0.11"

(cd "$ROOT" && cargo build --release -q -p walkmesh-cli)
WALKMESH="$TARGET/release/walkmesh"
WORK="$WALKMESH_PEER_DIR/kaitai-work"
GEN="$WORK/generated"
BROKEN="$WORK/broken"
rm -rf "$WORK"
mkdir -p "$GEN" "$BROKEN"
for spec in bwm aswm path; do
  "$WALKMESH" spec "$spec" --format ksy >"$WORK/$spec.ksy"
done

passed=0
failed=0
count() { # adds the "N passed, M failed" of the last line of $1 to the totals
  local line
  line="$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)"
  passed=$((passed + $(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+')))
  failed=$((failed + $(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+')))
}
LOG="$(mktemp)"

# 1. Compile.
if node "$HERE/kaitai_compile.js" "$NPM_DIR/node_modules" "$GEN" \
    "$WORK/bwm.ksy" "$WORK/aswm.ksy" "$WORK/path.ksy" | tee "$LOG"; then
  passed=$((passed + 3))
else
  echo "kaitai peer check: a spec does not compile; nothing else can be checked"
  echo "$passed passed, $((failed + 1)) failed"
  exit 1
fi

# 2. Parse and compare.
FILES=()
mapfile -d '' -O "${#FILES[@]}" FILES < <(find "$DIR" -type f -name '*.path' -print0 | sort -z)
find_corpora "$ROOT"
if [ -n "$CORPORA" ]; then
  before="${#FILES[@]}"
  mapfile -d '' -O "${#FILES[@]}" FILES < <(find "$CORPORA" -type f \( -iname '*.wok' \
    -o -iname '*.pwk' -o -iname '*.dwk' -o -iname '*.trx' -o -iname '*.trn' \
    -o -iname '*.path' \) -print0 | sort -z)
  need_files kaitai "BWM, TRX/TRN or PATH files in $CORPORA" "$(( ${#FILES[@]} - before ))"
else
  no_corpora kaitai "parsing the corpus files"
fi
"$PY" "$HERE/kaitai_check.py" "$WALKMESH" "$GEN" "$WORK" "${FILES[@]}" >"$LOG" || true
grep -v '^ok ' "$LOG" || true
grep -c '^ok ' "$LOG" | sed 's/^/files read to the same values: /'
count "$LOG"

# 3. Control: swap aabb.unknown (4 in every game file) and aabb.plane in the BWM spec.
"$PY" - "$WORK/bwm.ksy" "$BROKEN/bwm.ksy" <<'PYEOF'
import sys
text = open(sys.argv[1]).read()
swapped = text.replace("- id: unknown\n", "- id: SWAP\n").replace(
    "- id: plane\n", "- id: unknown\n").replace("- id: SWAP\n", "- id: plane\n")
assert swapped != text
open(sys.argv[2], "w").write(swapped)
PYEOF
cp "$GEN/aswm.py" "$GEN/prime_path.py" "$BROKEN/"
node "$HERE/kaitai_compile.js" "$NPM_DIR/node_modules" "$BROKEN" "$BROKEN/bwm.ksy" >/dev/null
CONTROL="$(printf '%s\n' "${FILES[@]}" | grep -iE '\.wok$' | head -n 1 || true)"
if [ -z "$CONTROL" ]; then
  CONTROL_ARGS=()
else
  CONTROL_ARGS=("$CONTROL")
fi
if [ "${#CONTROL_ARGS[@]}" -eq 0 ]; then
  echo "control skipped: no .wok file (no corpora)"
elif "$PY" "$HERE/kaitai_check.py" "$WALKMESH" "$BROKEN" "$WORK" "${CONTROL_ARGS[@]}" >"$LOG"; then
  echo "FAIL control: a spec with aabb.unknown and aabb.plane swapped read $CONTROL unnoticed"
  failed=$((failed + 1))
else
  echo "ok   control: a spec with two fields swapped is caught ($(grep FAIL "$LOG" | head -n 1 | cut -c1-120))"
  passed=$((passed + 1))
fi
rm -f "$LOG"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
