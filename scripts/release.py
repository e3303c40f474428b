#!/usr/bin/env python3
"""Builds the release files for this platform into one folder (default dist/):

    python3 scripts/release.py [--out dist]

- `walkmesh-VERSION-cp39-abi3-PLATFORM.whl`: the Python package (maturin, Cargo's `wheel`
  profile), one wheel for every CPython >= 3.9 here: `pip install` it, no Rust needed;
- `walkmesh_blender-VERSION-BLENDERPLATFORM.zip`: the Blender 4.2+ extension (that wheel
  under ./wheels/), Install from Disk;
- `walkmesh_blender-legacy-VERSION-BLENDERPLATFORM.zip`: the add-on zip for Blender 3.x;
- `walkmesh-VERSION-TRIPLE.tar.gz` (`.zip` on Windows): the `walkmesh` command line
  (`cargo build --profile wheel -p walkmesh-cli`: release code, stripped) with README.md;
- `SHA256SUMS`: the SHA-256 of each, in `sha256sum -c` format.

Needs Rust (cargo, rustc) and maturin (`pip install "maturin>=1.9,<2"` into the Python running
this script, or on PATH). The zips and the wheel come from one wheel build (build_zip.py
--wheel), so the extension bundles exactly the wheel published beside it. The same script
runs in .github/workflows/release.yml on Linux, Windows and macOS.
"""

import argparse
import hashlib
import os
import subprocess
import sys
import tarfile
import tomllib
import zipfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "blender-addon"))
import build_zip  # noqa: E402

STAMP = (2020, 1, 1, 0, 0, 0)


def run(*command, **options):
    print("release:", " ".join(command), flush=True)
    return subprocess.run(command, check=True, cwd=REPO, **options)


def workspace_version():
    with open(os.path.join(REPO, "Cargo.toml"), "rb") as handle:
        return tomllib.load(handle)["workspace"]["package"]["version"]


def host_triple():
    output = subprocess.run(["rustc", "-vV"], check=True, capture_output=True, text=True).stdout
    return next(line.split(":", 1)[1].strip() for line in output.splitlines()
                if line.startswith("host:"))


def target_dir():
    return os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))


def build_cli_archive(out, version):
    """The `walkmesh` binary and README.md in one archive named after the Rust host triple;
    tar.gz keeps the executable bit, Windows users get a zip. Built with the `wheel` profile
    (release code, no debug info, stripped): the release profile keeps debug info for
    profiling, which would more than double the download."""
    run("cargo", "build", "--profile", "wheel", "-p", "walkmesh-cli")
    windows = sys.platform == "win32"
    binary = os.path.join(target_dir(), "wheel", "walkmesh.exe" if windows else "walkmesh")
    stem = f"walkmesh-{version}-{host_triple()}"
    members = [(binary, f"{stem}/{os.path.basename(binary)}", 0o755),
               (os.path.join(REPO, "README.md"), f"{stem}/README.md", 0o644)]
    if windows:
        path = os.path.join(out, f"{stem}.zip")
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for source, name, _ in members:
                archive.write(source, name)
        return path
    path = os.path.join(out, f"{stem}.tar.gz")
    with tarfile.open(path, "w:gz") as archive:
        for source, name, mode in members:
            info = archive.gettarinfo(source, name)
            info.mode, info.uid, info.gid, info.uname, info.gname = mode, 0, 0, "", ""
            with open(source, "rb") as handle:
                archive.addfile(info, handle)
    return path


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(REPO, "dist"),
                        help="the folder to write (must not exist or be empty)")
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    # An old file left beside new ones would be published with them: start empty.
    if os.path.isdir(out) and os.listdir(out):
        sys.exit(f"release: {out} is not empty; remove it first")
    os.makedirs(out, exist_ok=True)
    version = workspace_version()

    run(*build_zip.maturin_command(), "build", "-m", os.path.join(REPO, "python", "Cargo.toml"),
        "-o", out)
    wheel = build_zip.the_wheel(os.path.join(out, f"walkmesh-{version}-*.whl"))
    _, platform_tag = build_zip.wheel_tags(wheel)
    platform = "_".join(build_zip.blender_platforms(platform_tag))
    extension = os.path.join(out, f"walkmesh_blender-{version}-{platform}.zip")
    legacy = os.path.join(out, f"walkmesh_blender-legacy-{version}-{platform}.zip")
    run(sys.executable, os.path.join(REPO, "blender-addon", "build_zip.py"), "--wheel", wheel,
        "--extension", extension, "--out", legacy)
    cli = build_cli_archive(out, version)

    files = [wheel, extension, legacy, cli]
    with open(os.path.join(out, "SHA256SUMS"), "w", newline="\n") as sums:
        for path in files:
            sums.write(f"{sha256(path)}  {os.path.basename(path)}\n")
    for path in files:
        print(f"release: {os.path.basename(path)} {os.path.getsize(path) / 2**20:.1f} MiB")
    print(f"release: wrote {len(files)} files and SHA256SUMS to {out}")


if __name__ == "__main__":
    main()
