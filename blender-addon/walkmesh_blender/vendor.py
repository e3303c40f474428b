"""Where the `walkmesh` package comes from.

The extension (Blender 4.2+) lists the walkmesh wheel in its manifest; Blender installs it
into the extensions' own site-packages, already on sys.path, and there is no vendor/ folder.
The legacy add-on zip carries the package itself (the abi3 wheel's `walkmesh/` folder with its
compiled `_walkmesh.abi3.so` / `.pyd`) in `vendor/`: installing the zip is then the whole
installation, in any Blender whose Python is CPython >= 3.9 (the wheel is abi3), without pip and
without write access to Blender's own Python folder. The vendored copy comes first on
`sys.path`, so an older `walkmesh` installed elsewhere cannot shadow the one the add-on was
built and tested with; without a `vendor/` folder (a development checkout) an installed
`walkmesh` is used.
"""

import os
import sys

VENDOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vendor")


def activate():
    if os.path.isdir(VENDOR) and VENDOR not in sys.path:
        sys.path.insert(0, VENDOR)


def load():
    """The `walkmesh` module, or an ImportError that says what to do."""
    activate()
    try:
        import walkmesh
    except ImportError as error:
        raise ImportError(
            "the walkmesh Python package is missing: install the extension (Blender 4.2+) or "
            "the add-on zip (3.x) built by blender-addon/build_zip.py (both carry the "
            f"package), or `pip install ./python` into Blender's Python ({sys.executable}): "
            f"{error}"
        ) from error
    return walkmesh
