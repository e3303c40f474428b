#!/usr/bin/env python3
"""Builds the installable add-on zip: walkmesh_blender/ plus the `walkmesh` package taken out
of a wheel into walkmesh_blender/vendor/walkmesh/.

    python3 blender-addon/build_zip.py --wheel target/wheels/walkmesh-*.whl \
        --out target/walkmesh_blender.zip

The zip holds the wheel's compiled module, so it is for the wheel's platform (an abi3 wheel
serves every CPython >= 3.9 there: Blender 3.4's 3.10, Debian's 3.11, later ones). Entries
are written in sorted order with a fixed timestamp, so the same inputs give the same zip.
"""

import argparse
import os
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ADDON = "walkmesh_blender"
STAMP = (2020, 1, 1, 0, 0, 0)


def add(zip_out, name, data, executable=False):
    info = zipfile.ZipInfo(name, STAMP)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (0o755 if executable else 0o644) << 16
    zip_out.writestr(info, data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", required=True, help="the walkmesh wheel to vendor")
    parser.add_argument("--out", required=True, help="the zip to write")
    args = parser.parse_args()

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
    with zipfile.ZipFile(args.wheel) as wheel:
        for member in wheel.infolist():
            if member.is_dir() or not member.filename.startswith("walkmesh/"):
                continue
            data = wheel.read(member)
            binary = member.filename.endswith((".so", ".pyd", ".dylib"))
            entries[f"{ADDON}/vendor/{member.filename}"] = (data, binary)
            vendored += 1
    if not any(n.endswith((".so", ".pyd")) for n in entries):
        sys.exit(f"{args.wheel} holds no compiled walkmesh module")
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    temporary = args.out + ".tmp"
    with zipfile.ZipFile(temporary, "w") as zip_out:
        for name in sorted(entries):
            data, executable = entries[name]
            add(zip_out, name, data, executable)
    os.replace(temporary, args.out)
    print(f"build_zip: wrote {args.out} ({len(entries)} files, {vendored} from the wheel)")


if __name__ == "__main__":
    main()
