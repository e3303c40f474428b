"""walkmesh for Blender: import and export KotOR (.wok/.pwk/.dwk), NWN2 (.trx/.trn) and
Metroid Prime (.path) walkmeshes through the `walkmesh` Python package, paint transitions and
solve them over a KotOR layout. See README.md beside this folder."""

bl_info = {
    "name": "walkmesh",
    "author": "walkmesh contributors",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import/Export; 3D View > Sidebar > Walkmesh",
    "description": "Game walkmeshes: KotOR BWM, NWN2 TRX/TRN, Metroid Prime PATH",
    "category": "Import-Export",
}

from . import vendor  # noqa: E402  (puts the bundled package on sys.path first)

_MODULES = None


def _modules():
    from . import (area_generate, generate, inspector, io_ops, lint, lyt, overlay, panel,
                   transitions)

    return (panel, io_ops, transitions, lyt, overlay, lint, inspector, generate, area_generate)


def register():
    global _MODULES
    vendor.activate()
    _MODULES = _modules()
    for module in _MODULES:
        module.register()


def unregister():
    global _MODULES
    for module in reversed(_MODULES or ()):
        module.unregister()
    _MODULES = None
