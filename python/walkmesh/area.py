"""KotOR areas: module archives, whole-area meshes and room-to-room transitions.

- ``read_lyt(source) -> dict``: a layout's rooms, tracks, obstacles and door hooks (also
  ``walkmesh.read_lyt``);
- ``list(archive)``: member file names of a .mod/.erf/.rim archive (read members as
  ``walkmesh.read("area.mod:room.wok")``);
- ``assemble(rooms, lyt=None) -> Mesh``: every room's WOK placed by the layout, as one mesh
  (``walkmesh area assemble``);
- ``solve_transitions(rooms, lyt=None, tolerance=0.05, vertical_tolerance=0.1) -> dict``:
  transitions solved from geometry (``walkmesh area solve``); ``rooms`` in the result maps each
  room name to its Mesh with the solved transitions (write it with ``Mesh.write``);
- ``solve_mesh_transitions(rooms, room_count=None, tolerance=None, vertical_tolerance=None)
  -> dict``: the same solver over meshes in memory, ``rooms`` a list of
  ``(lyt_index, name, Mesh)`` (the Blender add-on uses it);
- ``generate(models, out_dir, lyt=None, seeds=None, agent_height=..., not_floor=...,
  max_memory=...) -> dict``: every layout room's WOK generated from its model
  (``ROOM.mdl`` + ``ROOM.mdx`` in the folder or module archive ``models``), facing doorways
  brought onto one line, transitions solved across rooms, written to ``out_dir``
  (``walkmesh generate MODELS --lyt AREA.lyt --out-dir OUT``); returns its ``--json`` report;
- ``generate_meshes(rooms, lyt=None, out_dir=None, lyt_name=None, seeds=None, agent_height=...)
  -> dict``: the same flow over render geometry in memory, ``rooms`` a list of
  ``(name, Mesh)`` or ``(name, Mesh, (x, y, z))`` in area coordinates (placed by ``lyt``, else
  by the positions given); each room of the report carries its ``mesh`` (the WOK with its
  transitions) and ``lyt`` the layout's text; with ``out_dir`` the WOKs (and a layout made
  from the positions, ``LYT_NAME.lyt``) are written (the Blender add-on's Generate Area).

``rooms`` is a folder of WOKs or a module archive; ``lyt`` defaults to its single .lyt.
"""

from ._walkmesh import area as _area

list = _area.list  # noqa: A001 - the name of `walkmesh area list`
read_lyt = _area.read_lyt
assemble = _area.assemble
solve_transitions = _area.solve_transitions
solve_mesh_transitions = _area.solve_mesh_transitions
generate = _area.generate
generate_meshes = _area.generate_meshes

__all__ = [
    "assemble",
    "generate",
    "generate_meshes",
    "list",
    "read_lyt",
    "solve_mesh_transitions",
    "solve_transitions",
]
