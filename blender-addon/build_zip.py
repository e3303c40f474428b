#!/usr/bin/env python3
"""Builds the installable add-on: the Blender 4.2+ extension zip and/or the legacy add-on zip
for Blender 3.x, from one `walkmesh` wheel. One command, from the repository:

    python3 blender-addon/build_zip.py --extension target/walkmesh_blender-extension.zip \
        --out target/walkmesh_blender.zip

builds the wheel first (maturin, with Cargo's `wheel` profile that python/pyproject.toml
names: release code without debug info, stripped) into a fresh scratch folder, so the zips
always hold the module just built. `--wheel FILE` bundles a wheel built before instead.
maturin is run as `PYTHON -m maturin` with the Python running this script (a venv with
`pip install maturin`), else the `maturin` on PATH.

- `--extension ZIP` (Blender 4.2 and later, Install from Disk): walkmesh_blender/'s files at the
  zip's root with its blender_manifest.toml, the wheel itself under ./wheels/, listed in the
  manifest (`wheels`) with the Blender platform it is for (`platforms`). Blender installs a
  listed wheel into the extension's own site-packages when the extension is enabled; that is
  the extension platform's way to ship a compiled module (vendored folders on sys.path are
  not).
- `--out ZIP` (the legacy add-on, Blender 3.x; later Blenders still take it as a legacy
  add-on): walkmesh_blender/ plus the wheel's `walkmesh` package unpacked into
  walkmesh_blender/vendor/walkmesh/, no manifest (Blender 4.2+ would otherwise take the zip
  for an extension, and the manifest names a wheel this zip does not hold).

Both zips hold the wheel's compiled module, so they are for the wheel's platform (an abi3
wheel serves every CPython >= 3.9 there: Blender 3.4's 3.10, Debian's 3.11, later ones).
Entries are written in sorted order with a fixed timestamp, so the same inputs give the same
zip.
"""

import argparse
import ast
import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
ADDON = "walkmesh_blender"
MANIFEST = "blender_manifest.toml"
STAMP = (2020, 1, 1, 0, 0, 0)
COMPILED = (".so", ".pyd", ".dylib")


def add(zip_out, name, data, executable=False):
    info = zipfile.ZipInfo(name, STAMP)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (0o755 if executable else 0o644) << 16
    zip_out.writestr(info, data)


def maturin_command():
    if importlib.util.find_spec("maturin") is not None:
        return [sys.executable, "-m", "maturin"]
    found = shutil.which("maturin")
    if found is None:
        sys.exit("build_zip: maturin not found: `pip install maturin` (or pass --wheel FILE)")
    return [found]


def build_wheel(folder):
    """Builds the walkmesh wheel into the empty `folder`; returns its path."""
    command = maturin_command() + ["build", "-m", os.path.join(REPO, "python", "Cargo.toml"),
                                   "-o", folder]
    print("build_zip:", " ".join(command), flush=True)
    subprocess.run(command, check=True, cwd=REPO)
    return the_wheel(os.path.join(folder, "walkmesh-*.whl"))


def the_wheel(pattern):
    """The one wheel `pattern` names; several (an old build beside a new one) is an error,
    not a guess."""
    found = sorted(glob.glob(pattern))
    if len(found) != 1:
        sys.exit(f"build_zip: {pattern} names {len(found)} wheels ({', '.join(found) or 'none'});"
                 " name one, or leave --wheel out to build it")
    return found[0]


def wheel_tags(wheel_path):
    """(version, platform tag) from the wheel's file name
    `{name}-{version}(-{build})?-{python}-{abi}-{platform}.whl`."""
    parts = os.path.basename(wheel_path)[:-len(".whl")].split("-")
    if len(parts) not in (5, 6):
        sys.exit(f"build_zip: {wheel_path} is not named as a wheel")
    return parts[1], parts[-1]


def blender_platforms(platform_tag):
    """The extension manifest's `platforms` for a wheel platform tag. Blender installs only the
    wheels that fit the running system; `platforms` also keeps the extension from being offered
    where its compiled module cannot load at all."""
    # A compressed tag set (manylinux_2_17_x86_64.manylinux2014_x86_64) names one platform.
    tags = platform_tag.split(".")
    found = set()
    for tag in tags:
        if tag.startswith(("manylinux", "linux_")):
            if tag.endswith("_x86_64"):
                found.add("linux-x64")
            elif tag.endswith("_aarch64"):
                found.add("linux-arm64")
        elif tag == "win_amd64":
            found.add("windows-x64")
        elif tag == "win_arm64":
            found.add("windows-arm64")
        elif tag.startswith("macosx_"):
            if tag.endswith(("_arm64", "_universal2")):
                found.add("macos-arm64")
            if tag.endswith(("_x86_64", "_universal2")):
                found.add("macos-x64")
    if not found:
        sys.exit(f"build_zip: no Blender platform for the wheel's platform tag {platform_tag}")
    return sorted(found)


def addon_sources():
    """walkmesh_blender/'s files as {path relative to walkmesh_blender/: bytes}: no caches, no
    vendor/ (a development checkout may hold one)."""
    entries = {}
    source = os.path.join(HERE, ADDON)
    for root, dirs, files in os.walk(source):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "vendor"))
        for file in files:
            if file.endswith((".pyc", ".pyo")):
                continue
            path = os.path.join(root, file)
            with open(path, "rb") as handle:
                entries[os.path.relpath(path, source).replace(os.sep, "/")] = handle.read()
    return entries


def bl_info_version(init_source):
    """bl_info["version"] of __init__.py as "X.Y.Z", read without importing bpy."""
    for node in ast.parse(init_source).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "bl_info"
                                                for t in node.targets):
            info = ast.literal_eval(node.value)
            return ".".join(str(n) for n in info["version"])
    sys.exit("build_zip: __init__.py has no bl_info")


def manifest_version(manifest):
    found = re.search(r'^version\s*=\s*"([^"]+)"', manifest, re.MULTILINE)
    if not found:
        sys.exit(f"build_zip: {MANIFEST} has no version")
    return found.group(1)


def check_versions(sources, wheel_path):
    """The wheel (the workspace's version), bl_info and the manifest must name one version:
    Blender shows the manifest's, the legacy add-on list bl_info's."""
    wheel_version, _ = wheel_tags(wheel_path)
    manifest = manifest_version(sources[MANIFEST].decode())
    legacy = bl_info_version(sources["__init__.py"].decode())
    if not wheel_version == manifest == legacy:
        sys.exit(f"build_zip: versions differ: wheel {wheel_version}, {MANIFEST} {manifest}, "
                 f"bl_info {legacy}; bump them together")


def extension_manifest(manifest, wheel_name, platforms):
    """The source manifest with `platforms` and `wheels` added as top-level keys: inserted
    before the first [table] header, since a key after one would belong to that table."""
    if re.search(r"^\s*(platforms|wheels)\s*=", manifest, re.MULTILINE):
        sys.exit(f"build_zip: {MANIFEST} must not set platforms or wheels: the build adds them")
    listed = ", ".join(f'"{p}"' for p in platforms)
    added = (f"# Added by blender-addon/build_zip.py from the bundled wheel.\n"
             f"platforms = [{listed}]\nwheels = [\"./wheels/{wheel_name}\"]\n\n")
    header = re.search(r"^\[", manifest, re.MULTILINE)
    at = header.start() if header else len(manifest)
    return manifest[:at] + added + manifest[at:]


def write_zip(entries, out):
    """Writes {name: (bytes, executable)} in sorted order; returns the file count."""
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    temporary = out + ".tmp"
    with zipfile.ZipFile(temporary, "w") as zip_out:
        for name in sorted(entries):
            data, executable = entries[name]
            add(zip_out, name, data, executable)
    os.replace(temporary, out)
    return len(entries)


def write_legacy(sources, wheel_path, out):
    entries = {f"{ADDON}/{name}": (data, False) for name, data in sources.items()
               if name != MANIFEST}
    vendored = 0
    with zipfile.ZipFile(wheel_path) as wheel:
        for member in wheel.infolist():
            if member.is_dir() or not member.filename.startswith("walkmesh/"):
                continue
            data = wheel.read(member)
            binary = member.filename.endswith(COMPILED)
            entries[f"{ADDON}/vendor/{member.filename}"] = (data, binary)
            vendored += 1
    modules = [len(data) for name, (data, _) in entries.items() if name.endswith(COMPILED)]
    if not modules:
        sys.exit(f"build_zip: {wheel_path} holds no compiled walkmesh module")
    count = write_zip(entries, out)
    print(f"build_zip: wrote {out} ({count} files, {vendored} from "
          f"{os.path.basename(wheel_path)}; compiled module {max(modules) / 2**20:.1f} MiB)")


def write_extension(sources, wheel_path, out):
    wheel_name = os.path.basename(wheel_path)
    with zipfile.ZipFile(wheel_path) as wheel:
        if not any(n.startswith("walkmesh/") and n.endswith(COMPILED) for n in wheel.namelist()):
            sys.exit(f"build_zip: {wheel_path} holds no compiled walkmesh module")
    _, platform_tag = wheel_tags(wheel_path)
    platforms = blender_platforms(platform_tag)
    entries = {name: (data, False) for name, data in sources.items()}
    entries[MANIFEST] = (extension_manifest(sources[MANIFEST].decode(), wheel_name,
                                            platforms).encode(), False)
    with open(wheel_path, "rb") as handle:
        entries[f"wheels/{wheel_name}"] = (handle.read(), False)
    count = write_zip(entries, out)
    print(f"build_zip: wrote {out} (extension for {', '.join(platforms)}: {count} files, "
          f"wheels/{wheel_name} {os.path.getsize(wheel_path) / 2**20:.1f} MiB)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", help="a walkmesh wheel to bundle (default: build one)")
    parser.add_argument("--out", help="the legacy add-on zip to write (Blender 3.x)")
    parser.add_argument("--extension", help="the extension zip to write (Blender 4.2+)")
    args = parser.parse_args()
    if not (args.out or args.extension):
        parser.error("name at least one zip to write: --extension and/or --out")
    with tempfile.TemporaryDirectory(prefix="walkmesh-wheel-") as folder:
        wheel_path = the_wheel(args.wheel) if args.wheel else build_wheel(folder)
        sources = addon_sources()
        check_versions(sources, wheel_path)
        if args.extension:
            write_extension(sources, wheel_path, args.extension)
        if args.out:
            write_legacy(sources, wheel_path, args.out)


if __name__ == "__main__":
    main()
