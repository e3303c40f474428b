"""walkmesh: read, write, validate and convert game walkmeshes from Python.

KotOR BWM (.wok/.pwk/.dwk), NWN2 TRN/TRX, Metroid Prime PATH, Wavefront OBJ and glTF, through
the same Rust code as the ``walkmesh`` command line (same bytes, same findings, same errors).

    import walkmesh
    mesh = walkmesh.read("room.wok")
    mesh.vertices, mesh.faces, mesh.materials, mesh.walkable, mesh.transitions
    mesh.write("room.glb")
    walkmesh.generate("room.mdl", engine="kotor").write("room.wok")  # from the room model
    walkmesh.read_lyt("area.lyt")["rooms"]  # a KotOR layout's rooms, in order
    print(mesh.info())

See python/README.md for the whole API.
"""

from . import _walkmesh, area
from ._walkmesh import (
    __version__,
    Error,
    FileNotFound,
    InvalidOutput,
    Mesh,
    ReadError,
    WriteError,
    convert,
    formats,
    generate,
    material_names,
    read,
    read_lyt,
    validate,
)

__all__ = [
    "Error",
    "FileNotFound",
    "InvalidOutput",
    "Mesh",
    "ReadError",
    "WriteError",
    "area",
    "convert",
    "formats",
    "generate",
    "material_names",
    "read",
    "read_lyt",
    "validate",
    "__version__",
]
