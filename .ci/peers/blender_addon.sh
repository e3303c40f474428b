#!/usr/bin/env bash
# Peer check of the Blender add-on (blender-addon/) in Debian's Blender 3.4, headless:
#  1. builds the add-on zip with the one command of the README (blender-addon/build_zip.py:
#     the `walkmesh` wheel with maturin from target/peer-venv, stripped, vendored into the
#     zip), and checks the compiled module's size;
#  2. installs the zip into a private Blender user folder (Preferences > Add-ons > Install,
#     as a user does) and enables it;
#  3. blender_addon_check.py: File > Import then File > Export of every shared KotOR WOK/PWK/DWK,
#     four NWN2 TRX/TRN of different sizes and the PATH fixture, each byte-compared with
#     `walkmesh convert FILE out --rebuild`; an edit (moved vertex, repainted transition) that
#     must validate clean; a face repeating a vertex dropped on export (counted) with the file validating clean; a layout's transitions solved;
#     Weld Auto (a game file's duplicated vertices kept, a modelled mesh welded); Apply
#     Transition on a mesh built in Blender (first click); a steep walkable face's warning in
#     the panel.
#     Without the shared corpora, the repository's OBJ fixtures are converted to WOK, TRX and
#     PATH by the CLI and those go through the same round trip.
# Exits non-zero on any failure, when a listed corpus file is missing while the corpora exist,
# and when no file was checked.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
source "$HERE/common.bash"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="$TARGET/blender-addon-peer"

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

VENV="$TARGET/peer-venv"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q "maturin>=1.9,<2"
rm -rf "$OUT"
mkdir -p "$OUT/files" "$OUT/user/scripts" "$OUT/user/config"
# The README's one command: builds the wheel (Cargo profile `wheel`: stripped) and the zip.
(cd "$ROOT" && CARGO_TARGET_DIR="$TARGET" "$VENV/bin/python" blender-addon/build_zip.py \
  --out "$OUT/walkmesh_blender.zip" >"$OUT/build_zip.log" 2>&1) || { cat "$OUT/build_zip.log"; exit 1; }
grep "^build_zip: wrote" "$OUT/build_zip.log"
# A module with debug info (the release profile's debug = 1) is about 60 MB; stripped it is
# a fraction of that. The limit catches the profile being lost, not a few more features.
python3 - "$OUT/walkmesh_blender.zip" <<'PY'
import sys, zipfile
limit = 30 * 2**20
with zipfile.ZipFile(sys.argv[1]) as z:
    modules = [i for i in z.infolist() if i.filename.endswith((".so", ".pyd"))]
if len(modules) != 1 or modules[0].file_size > limit:
    sys.exit(f"blender addon: the zip's compiled module is not one stripped file: "
             f"{[(i.filename, i.file_size) for i in modules]} (limit {limit} bytes)")
print(f"blender_addon: compiled module {modules[0].file_size / 2**20:.1f} MiB (limit 30 MiB)")
PY

# A private user folder: the check installs nothing into the machine's own Blender settings.
export BLENDER_USER_SCRIPTS="$OUT/user/scripts" BLENDER_USER_CONFIG="$OUT/user/config"
blender --background --factory-startup --python-exit-code 1 --python-expr "
import bpy
bpy.ops.preferences.addon_install(filepath='$OUT/walkmesh_blender.zip', overwrite=True)
bpy.ops.preferences.addon_enable(module='walkmesh_blender')
import walkmesh, walkmesh_blender
print('blender_addon: installed', walkmesh_blender.__file__, 'with', walkmesh.__file__)
" >"$OUT/install.log" 2>&1 || { cat "$OUT/install.log"; exit 1; }
grep -E "^blender_addon" "$OUT/install.log"

find_corpora "$ROOT"
files=()
if [ -n "$CORPORA" ]; then
  while IFS= read -r -d '' f; do files+=("$f"); done < <(
    find "$CORPORA/kotor" "$CORPORA/kotor-areas" -type f \
      \( -iname '*.wok' -o -iname '*.pwk' -o -iname '*.dwk' \) -print0 | sort -z)
  need_files "blender addon" "KotOR walkmeshes below $CORPORA" "${#files[@]}"
  for f in Kaedrin-nwn2cc/dm001_cargohold.trx Kaedrin-nwn2cc/fugue_tunnel.trx \
    Kaedrin-nwn2cc/fh_settlement.TRN Kaedrin-nwn2cc/shadowdale_mages_guild.trx; do
    files+=("$CORPORA/nwn2/$f")
  done
  files+=("$CORPORA/prime/synthetic/grid_mp1_v4.path")
  for f in "${files[@]}"; do
    need_files "blender addon" "$f" "$([ -f "$f" ] && echo 1 || echo 0)"
  done
else
  no_corpora "blender addon" "the real files (the repository's fixtures are checked)"
fi
# The repository's own fixtures, made into each format by the CLI.
for obj in "$ROOT"/corpora/obj/*.obj; do
  stem="$(basename "$obj" .obj)"
  for ext in wok trx path; do
    if "$WALKMESH" convert "$obj" "$OUT/files/$stem.$ext" --quiet >/dev/null 2>&1; then
      files+=("$OUT/files/$stem.$ext")
    fi
  done
done
echo "blender addon peer check: ${#files[@]} files"
need_files "blender addon" "files" "${#files[@]}"

status=0
blender --background --factory-startup --python-exit-code 1 \
  --python "$HERE/blender_addon_check.py" -- "$WALKMESH" "$OUT/check" "${files[@]}" \
  >"$OUT/blender.log" 2>&1 || status=1
grep -E "^blender_addon" "$OUT/blender.log" | grep -v " PASS " || true
if [ "$status" -ne 0 ]; then
  grep -E "Error|Traceback" -A3 "$OUT/blender.log" | head -n 40 || true
  echo "blender addon peer check FAILED"
  exit 1
fi
echo "blender addon peer check passed"
