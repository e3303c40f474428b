#!/usr/bin/env bash
# Peer check of the Blender add-on (blender-addon/), headless, in three Blenders:
#  - Debian's Blender 3.4 (the binary): the legacy zip, installed from Preferences;
#  - Blender 4.2 LTS and 5.0 as the `bpy` module from PyPI (CPython 3.11, venvs under target/):
#    the extension zip, installed the way Install from Disk does (extensions.package_install_files,
#    which also installs the bundled wheel into the extensions' site-packages).
# Steps:
#  1. blender-addon/test_build_zip.py (the zips' layout, from a stand-in wheel), then the
#     README's one command (blender-addon/build_zip.py): the `walkmesh` wheel with maturin
#     from target/peer-venv, stripped, into both the extension and the legacy zip; the
#     compiled module's size is checked;
#  2. the extension zip (and the add-on folder) through Blender's own validator, the code
#     `blender --command extension validate` runs (bl_pkg's CLI), in bpy 4.2 and 5.0, and a
#     copy with a broken manifest must be refused by it;
#  3. in each Blender: install, enable, then blender_addon_check.py: File > Import then
#     File > Export of every shared KotOR WOK/PWK/DWK, four NWN2 TRX/TRN of different sizes
#     and the PATH fixture, each byte-compared with `walkmesh convert FILE out --rebuild`; an
#     edit (moved vertex, repainted transition) that must validate clean; a degenerate face
#     dropped on export; a layout's transitions solved; Weld Auto; Apply Transition on a new
#     mesh; the steep-face warning in the panel; Lint and a finding's selection; Generate from
#     Selected (and under a roof, and Kind Placeable: a PWK in the object's own space); the
#     overlay's labels; the panel and menus drawn against
#     that Blender's RNA; Open Inspector.
#     Without the shared corpora, the repository's OBJ fixtures are converted to WOK, TRX and
#     PATH by the CLI and those go through the same round trip.
# Prints "N passed, M failed" per Blender and exits non-zero on any failure, when a listed
# corpus file is missing while the corpora exist, and when no file was checked.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
source "$HERE/common.bash"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="$TARGET/blender-addon-peer"
# The bpy wheels on PyPI are built for one CPython each: 3.11 for 4.2 LTS and 5.0.
PY311="${WALKMESH_PYTHON311:-$(command -v python3.11 || echo /root/.pyenv/versions/3.11.7/bin/python3.11)}"
BPY_VERSIONS=(4.2 5.0)

if ! command -v blender >/dev/null || ! /usr/bin/python3 -c "import numpy" 2>/dev/null; then
  install() {
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q \
      blender python3-numpy >/dev/null
  }
  install || { apt-get update -q >/dev/null && install; }
fi
blender --version | head -n 1
"$PY311" -c 'import sys; assert sys.version_info[:2] == (3, 11), sys.version' \
  || { echo "blender addon: $PY311 is not CPython 3.11 (set WALKMESH_PYTHON311)" >&2; exit 1; }

(cd "$ROOT" && cargo build --release -q -p walkmesh-cli)
WALKMESH="$TARGET/release/walkmesh"

VENV="$TARGET/peer-venv"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q "maturin>=1.9,<2"
rm -rf "$OUT"
mkdir -p "$OUT/files"

echo "-- build_zip.py"
"$PY311" -m unittest "$ROOT/blender-addon/test_build_zip.py" 2>&1 | tail -n 1
EXTENSION="$OUT/walkmesh_blender-extension.zip"
LEGACY="$OUT/walkmesh_blender.zip"
# The README's one command: builds the wheel (Cargo profile `wheel`: stripped) and both zips.
(cd "$ROOT" && CARGO_TARGET_DIR="$TARGET" "$VENV/bin/python" blender-addon/build_zip.py \
  --extension "$EXTENSION" --out "$LEGACY" >"$OUT/build_zip.log" 2>&1) \
  || { cat "$OUT/build_zip.log"; exit 1; }
grep "^build_zip: wrote" "$OUT/build_zip.log"
# A module with debug info (the release profile's debug = 1) is about 60 MB; stripped it is
# a fraction of that. The limit catches the profile being lost, not a few more features.
python3 - "$LEGACY" <<'PY'
import sys, zipfile
limit = 30 * 2**20
with zipfile.ZipFile(sys.argv[1]) as z:
    modules = [i for i in z.infolist() if i.filename.endswith((".so", ".pyd"))]
if len(modules) != 1 or modules[0].file_size > limit:
    sys.exit(f"blender addon: the zip's compiled module is not one stripped file: "
             f"{[(i.filename, i.file_size) for i in modules]} (limit {limit} bytes)")
print(f"blender_addon: compiled module {modules[0].file_size / 2**20:.1f} MiB (limit 30 MiB)")
PY

# bpy venvs: kept between runs (pip's cache and an installed bpy make a rerun quick). NumPy 1.x
# as Blender's own builds bundle (pip would otherwise give 4.2 NumPy 2).
for version in "${BPY_VERSIONS[@]}"; do
  venv="$TARGET/bpy-venv-$version"
  [ -x "$venv/bin/python" ] || "$PY311" -m venv "$venv"
  start=$SECONDS
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "bpy==$version.*" "numpy<2"
  echo "blender_addon: bpy $version: $("$venv/bin/python" -c 'import bpy; print(bpy.app.version_string)' 2>/dev/null | tail -n 1)" \
    "(pip install $((SECONDS - start)) s)"
done

echo "-- Blender's extension validator"
BROKEN="$OUT/broken-extension.zip"
python3 - "$EXTENSION" "$BROKEN" <<'PY'
import re, sys, zipfile
# A tagline must not end with punctuation: a rule of the validator's, not of TOML.
with zipfile.ZipFile(sys.argv[1]) as z, zipfile.ZipFile(sys.argv[2], "w") as out:
    for item in z.infolist():
        data = z.read(item)
        if item.filename == "blender_manifest.toml":
            data, count = re.subn(rb'^(tagline = ".*)"$', rb'\1."', data, flags=re.MULTILINE)
            assert count == 1, "no tagline to break"
        out.writestr(item, data)
PY
for version in "${BPY_VERSIONS[@]}"; do
  # cli_extension_handler is what `blender --command extension` calls (bpy as a module has no
  # --command); it sets Blender's tag list, as the command does.
  "$TARGET/bpy-venv-$version/bin/python" - "$EXTENSION" "$ROOT/blender-addon/walkmesh_blender" \
    "$BROKEN" <<'PY' >"$OUT/validate-$version.log" 2>&1 || { cat "$OUT/validate-$version.log"; exit 1; }
import sys
import bpy
from bl_pkg import bl_extension_cli
extension, folder, broken = sys.argv[1:]
for path in (extension, folder):
    if bl_extension_cli.cli_extension_handler(["validate", path]) != 0:
        sys.exit(f"blender_addon: Blender {bpy.app.version_string} refuses {path}")
if bl_extension_cli.cli_extension_handler(["validate", broken]) == 0:
    sys.exit("blender_addon: the validator accepted a broken manifest: it checks nothing")
print(f"blender_addon: Blender {bpy.app.version_string}'s validator accepts the extension "
      "and the add-on folder, refuses a broken manifest")
PY
  grep "^blender_addon" "$OUT/validate-$version.log"
done

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

# check NAME LOG COMMAND...: runs blender_addon_check.py by COMMAND, prints its failures and
# its "N passed, M failed"; returns non-zero on any failure.
check() {
  local name="$1" log="$2" start=$SECONDS status=0
  shift 2
  "$@" "$HERE/blender_addon_check.py" -- "$WALKMESH" "$OUT/check-$name" "${files[@]}" \
    >"$log" 2>&1 || status=1
  grep -E "^blender_addon" "$log" | grep -v " PASS " | grep -v " passed, " || true
  local totals
  totals="$(grep -E "^blender_addon: [0-9]+ passed, [0-9]+ failed" "$log" | tail -n 1 \
    | sed 's/^blender_addon: //')"
  echo "Blender $name: ${totals:-0 passed, 1 failed (no totals: crashed?)} ($((SECONDS - start)) s)"
  if [ "$status" -ne 0 ] || [ -z "$totals" ]; then
    grep -E "Error|Traceback|Fatal" -A3 "$log" | head -n 40 || true
    return 1
  fi
}

failed=()
echo "-- Blender 3.4 (binary), the legacy zip"
# A private user folder: the check installs nothing into the machine's own Blender settings.
(
  export BLENDER_USER_SCRIPTS="$OUT/user-3.4/scripts" BLENDER_USER_CONFIG="$OUT/user-3.4/config"
  blender --background --factory-startup --python-exit-code 1 --python-expr "
import bpy
bpy.ops.preferences.addon_install(filepath='$LEGACY', overwrite=True)
bpy.ops.preferences.addon_enable(module='walkmesh_blender')
import walkmesh, walkmesh_blender
print('blender_addon: installed', walkmesh_blender.__file__, 'with', walkmesh.__file__)
" >"$OUT/install-3.4.log" 2>&1 || { cat "$OUT/install-3.4.log"; exit 1; }
  grep -E "^blender_addon" "$OUT/install-3.4.log"
  check 3.4 "$OUT/blender-3.4.log" blender --background --factory-startup --python-exit-code 1 \
    --python
) || failed+=(3.4)

for version in "${BPY_VERSIONS[@]}"; do
  echo "-- Blender $version (bpy module), the extension zip"
  python="$TARGET/bpy-venv-$version/bin/python"
  (
    # BLENDER_USER_RESOURCES: a private user folder (config, extensions, their site-packages).
    export BLENDER_USER_RESOURCES="$OUT/user-$version"
    # Install from Disk, in its own process, as a user does before using the add-on; the
    # check then starts a fresh Blender, which must find the wheel Blender installed.
    "$python" - "$EXTENSION" "$OUT/user-$version" <<'PY' >"$OUT/install-$version.log" 2>&1 \
      || { cat "$OUT/install-$version.log"; exit 1; }
import os, sys
import bpy
extension, user = sys.argv[1:]
result = bpy.ops.extensions.package_install_files(
    filepath=extension, repo="user_default", enable_on_install=True)
import walkmesh
from bl_ext.user_default import walkmesh_blender
if result != {"FINISHED"} or not os.path.realpath(walkmesh.__file__).startswith(
        os.path.realpath(user) + os.sep):
    sys.exit(f"blender_addon: install returned {result}; walkmesh from {walkmesh.__file__}")
print("blender_addon: installed", walkmesh_blender.__file__, "with", walkmesh.__file__)
PY
    grep -E "^blender_addon" "$OUT/install-$version.log"
    WALKMESH_ADDON_MODULE=bl_ext.user_default.walkmesh_blender \
      check "$version" "$OUT/blender-$version.log" "$python"
  ) || failed+=("$version")
done

if [ "${#failed[@]}" -ne 0 ]; then
  echo "blender addon peer check FAILED in Blender ${failed[*]}"
  exit 1
fi
echo "blender addon peer check passed (Blender 3.4, ${BPY_VERSIONS[*]})"
