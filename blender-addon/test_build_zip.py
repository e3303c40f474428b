"""Tests of build_zip.py without Blender and without Rust: a stand-in wheel (the real wheel's
layout, a dummy compiled module) goes through the real command, and the zips it writes must
have the layout Blender expects. Run from the repository:

    python3 -m unittest blender-addon/test_build_zip.py

(Python >= 3.11, for tomllib.) Blender's own validator (`blender --command extension
validate`) runs on the real extension zip in .ci/peers/blender_addon.sh; it reads the manifest
only, so that the wheels it lists are in the zip, fit `platforms` and hold the compiled module
is checked here.
"""

import os
import re
import subprocess
import sys
import tempfile
import tomllib
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import build_zip  # noqa: E402

with open(os.path.join(HERE, "walkmesh_blender", "blender_manifest.toml"), "rb") as handle:
    VERSION = tomllib.load(handle)["version"]


def fake_wheel(folder, platform_tag, version=VERSION):
    """A wheel laid out as maturin's (walkmesh/ with a compiled module, dist-info)."""
    path = os.path.join(folder, f"walkmesh-{version}-cp39-abi3-{platform_tag}.whl")
    suffix = ".pyd" if platform_tag.startswith("win") else ".abi3.so"
    with zipfile.ZipFile(path, "w") as wheel:
        wheel.writestr("walkmesh/__init__.py", "from ._walkmesh import *\n")
        wheel.writestr(f"walkmesh/_walkmesh{suffix}", b"\x7fELF not really")
        wheel.writestr(f"walkmesh-{version}.dist-info/METADATA", "Name: walkmesh\n")
    return path


def build(*args):
    return subprocess.run([sys.executable, os.path.join(HERE, "build_zip.py"), *args],
                          capture_output=True, text=True)


class Platforms(unittest.TestCase):
    def test_wheel_tags_to_blender_platforms(self):
        # Blender's platform names (docs.blender.org, Extensions > Supported platforms).
        cases = {
            "manylinux_2_35_x86_64": ["linux-x64"],
            "manylinux_2_17_x86_64.manylinux2014_x86_64": ["linux-x64"],
            "manylinux_2_28_aarch64": ["linux-arm64"],
            "win_amd64": ["windows-x64"],
            "win_arm64": ["windows-arm64"],
            "macosx_11_0_arm64": ["macos-arm64"],
            "macosx_10_12_x86_64": ["macos-x64"],
            "macosx_10_12_universal2": ["macos-arm64", "macos-x64"],
        }
        for tag, expected in cases.items():
            self.assertEqual(build_zip.blender_platforms(tag), expected, tag)

    def test_unknown_platform_is_refused(self):
        with self.assertRaises(SystemExit):
            build_zip.blender_platforms("musllinux_1_2_riscv64")


class Manifest(unittest.TestCase):
    SOURCE = ('schema_version = "1.0.0"\nid = "x"\nversion = "1.2.3"\n\n'
              '[permissions]\nfiles = "Read files"\n')

    def test_keys_are_top_level_and_tables_kept(self):
        text = build_zip.extension_manifest(self.SOURCE, "w-1-cp39-abi3-win_amd64.whl",
                                            ["windows-x64"])
        data = tomllib.loads(text)
        self.assertEqual(data["wheels"], ["./wheels/w-1-cp39-abi3-win_amd64.whl"])
        self.assertEqual(data["platforms"], ["windows-x64"])
        self.assertEqual(data["permissions"], {"files": "Read files"})

    def test_source_must_not_name_wheels(self):
        with self.assertRaises(SystemExit):
            build_zip.extension_manifest(self.SOURCE.replace("[perm", 'wheels = []\n[perm'),
                                         "w.whl", ["linux-x64"])


class Zips(unittest.TestCase):
    def setUp(self):
        scratch = tempfile.TemporaryDirectory(prefix="walkmesh-build-zip-test-")
        self.addCleanup(scratch.cleanup)
        self.folder = scratch.name

    def test_extension_layout(self):
        wheel = fake_wheel(self.folder, "manylinux_2_35_x86_64")
        out = os.path.join(self.folder, "ext.zip")
        run = build("--wheel", wheel, "--extension", out)
        self.assertEqual(run.returncode, 0, run.stderr)
        with zipfile.ZipFile(out) as z:
            names = z.namelist()
            manifest = tomllib.loads(z.read("blender_manifest.toml").decode())
            bundled = z.read(f"wheels/{os.path.basename(wheel)}")
        # Blender reads the manifest and __init__.py at the root (or in one folder).
        self.assertIn("__init__.py", names)
        self.assertEqual(manifest["id"], "walkmesh_blender")
        self.assertEqual(manifest["blender_version_min"], "4.2.0")
        self.assertEqual(manifest["wheels"], [f"./wheels/{os.path.basename(wheel)}"])
        self.assertEqual(manifest["platforms"], ["linux-x64"])
        self.assertIn("files", manifest["permissions"])
        with open(wheel, "rb") as handle:
            self.assertEqual(bundled, handle.read())
        self.assertFalse([n for n in names if n.startswith("vendor/") or n.endswith(".pyc")])
        # Every module of the add-on folder is in the zip.
        sources = {n for n in os.listdir(os.path.join(HERE, "walkmesh_blender"))
                   if n.endswith(".py")}
        self.assertTrue(sources <= set(names), sources - set(names))

    def test_legacy_layout(self):
        wheel = fake_wheel(self.folder, "win_amd64")
        out = os.path.join(self.folder, "legacy.zip")
        run = build("--wheel", wheel, "--out", out)
        self.assertEqual(run.returncode, 0, run.stderr)
        with zipfile.ZipFile(out) as z:
            names = z.namelist()
        self.assertIn("walkmesh_blender/__init__.py", names)
        self.assertIn("walkmesh_blender/vendor/walkmesh/_walkmesh.pyd", names)
        self.assertIn("walkmesh_blender/vendor/walkmesh/__init__.py", names)
        # No manifest: Blender 4.2+ would take the zip for an extension without its wheel.
        self.assertFalse([n for n in names if n.endswith("blender_manifest.toml")])
        self.assertFalse([n for n in names if not n.startswith("walkmesh_blender/")])

    def test_same_inputs_same_bytes(self):
        wheel = fake_wheel(self.folder, "macosx_11_0_arm64")
        outs = [os.path.join(self.folder, f"{i}.zip") for i in range(2)]
        for out in outs:
            self.assertEqual(build("--wheel", wheel, "--extension", out).returncode, 0)
        with open(outs[0], "rb") as a, open(outs[1], "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_version_mismatch_is_refused(self):
        wheel = fake_wheel(self.folder, "win_amd64", version="9.9.9")
        run = build("--wheel", wheel, "--extension", os.path.join(self.folder, "x.zip"))
        self.assertNotEqual(run.returncode, 0)
        self.assertTrue(re.search(r"versions differ: wheel 9\.9\.9", run.stderr), run.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.folder, "x.zip")))


if __name__ == "__main__":
    unittest.main()
