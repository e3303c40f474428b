#!/usr/bin/env python3
"""Builds the installable add-on zip: walkmesh_blender/ plus the `walkmesh` package taken out
of a wheel into walkmesh_blender/vendor/walkmesh/. One command, from the repository:

    python3 blender-addon/build_zip.py --out target/walkmesh_blender.zip

builds the wheel first (maturin, with Cargo's `wheel` profile that python/pyproject.toml
names: release code without debug info, stripped) into a fresh scratch folder, so the zip
always holds the module just built. `--wheel FILE` vendors a wheel built before instead.
maturin is run as `PYTHON -m maturin` with the Python running this script (a venv with
`pip install maturin`), else the `maturin` on PATH.

The zip holds the wheel's compiled module, so it is for the wheel's platform (an abi3 wheel
serves every CPython >= 3.9 there: Blender 3.4's 3.10, Debian's 3.11, later ones). Entries
are written in sorted order with a fixed timestamp, so the same inputs give the same zip.
"""

import argparse
import glob
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
ADDON = "walkmesh_blender"
STAMP = (2020, 1, 1, 0, 0, 0)


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", help="a walkmesh wheel to vendor (default: build one)")
    parser.add_argument("--out", required=True, help="the zip to write")
    args = parser.parse_args()
    if args.wheel:
        write_zip(the_wheel(args.wheel), args.out)
        return
    with tempfile.TemporaryDirectory(prefix="walkmesh-wheel-") as folder:
        write_zip(build_wheel(folder), args.out)


def write_zip(wheel_path, out):

    entries = {}
    source = os.path.join(HERE, ADDON)
    for root, dirs, files in os.walk(source):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "vendor"))
        for file in files:
            if file.endswith((".pyc", ".pyo")):
                continue
            path = os.path.join(root, file)
            name = os.path.relpath(path, HERE).replace(os.sep, "/")
            with open(path, "rb") as handle:
                entries[name] = (handle.read(), False)
    vendored = 0
    with zipfile.ZipFile(wheel_path) as wheel:
        for member in wheel.infolist():
            if member.is_dir() or not member.filename.startswith("walkmesh/"):
                continue
            data = wheel.read(member)
            binary = member.filename.endswith((".so", ".pyd", ".dylib"))
            entries[f"{ADDON}/vendor/{member.filename}"] = (data, binary)
            vendored += 1
    if not any(n.endswith((".so", ".pyd")) for n in entries):
        sys.exit(f"{wheel_path} holds no compiled walkmesh module")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    temporary = out + ".tmp"
    with zipfile.ZipFile(temporary, "w") as zip_out:
        for name in sorted(entries):
            data, executable = entries[name]
            add(zip_out, name, data, executable)
    os.replace(temporary, out)
    module = max(len(data) for name, (data, _) in entries.items()
                 if name.endswith((".so", ".pyd")))
    print(f"build_zip: wrote {out} ({len(entries)} files, {vendored} from "
          f"{os.path.basename(wheel_path)}; compiled module {module / 2**20:.1f} MiB)")


if __name__ == "__main__":
    main()
