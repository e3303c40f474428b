"""Blender mesh objects <-> `walkmesh.Mesh`, with nothing of the user interface.

What goes where (the add-on's convention; README.md explains it to users):

- vertices and polygons in file order (Blender keeps both orders as built, so an unchanged
  object exports the same mesh); the object's own transform is applied on export;
- one material slot per distinct surface (neutral material name, walkability, engine code);
  the material is named by the neutral material and carries `walkmesh_material`,
  `walkmesh_walkable` and `walkmesh_code` as custom properties so that a code the profile
  would not choose (NWN2 flag bits, PATH masks) survives;
- transitions: the integer edge attribute `walkmesh_transition` (-1 = none) *and* the seam
  mark. An edge is exported as a transition only when it is a seam with a value >= 0: Blender
  gives new edges an attribute value of 0, which is a valid room index, and the seam (drawn red
  in Edit Mode) is what the user sees;
- hooks: child empties named `hook:NAME` (their name also in `walkmesh_hook`);
- per-face columns (`nwn2:tile`, `path:height`, ...): face attributes of the same name;
- kind, origin, source format: object custom properties `walkmesh_kind`, `walkmesh_origin`,
  `walkmesh_format`; the tile grid and mesh-level extras as JSON in `_walkmesh_meta` (a leading
  underscore hides it from the Custom Properties panel: NWN2 extras hold megabytes).
"""

import base64
import json
import re

import bpy
import numpy as np

TRANSITION_ATTR = "walkmesh_transition"
PROP_FORMAT = "walkmesh_format"
PROP_KIND = "walkmesh_kind"
PROP_ORIGIN = "walkmesh_origin"
PROP_META = "_walkmesh_meta"
PROP_LYT_INDEX = "walkmesh_lyt_index"
MAT_NAME = "walkmesh_material"
MAT_CODE = "walkmesh_code"
MAT_WALKABLE = "walkmesh_walkable"
HOOK_PREFIX = "hook:"
HOOK_NAME = "walkmesh_hook"
HOOK_INDEX = "walkmesh_hook_index"

# Blender appends ".001" to a duplicate name.
_DUPLICATE_SUFFIX = re.compile(r"\.\d{3,}$")

I32_MIN, I32_MAX = -(2**31), 2**31 - 1


def _plain_name(name):
    return _DUPLICATE_SUFFIX.sub("", name)


# ---------------------------------------------------------------- colours

def _colour(index, walkable):
    """A distinct viewport colour per neutral material: golden-angle hues, walkable light,
    non-walkable dark (the same idea as the glTF writer's colours)."""
    import colorsys

    hue = (index * 0.618033988749895) % 1.0
    r, g, b = colorsys.hsv_to_rgb(hue, 0.45, 0.9 if walkable else 0.35)
    return (r, g, b, 1.0)


def material_for(name, walkable, code, material_id=0):
    """The material for a surface: an existing one with the same three properties, else a new
    one named `name` (Blender adds `.001` when the name is taken)."""
    for material in bpy.data.materials:
        if (
            material.get(MAT_NAME) == name
            and bool(material.get(MAT_WALKABLE)) == bool(walkable)
            and int(material.get(MAT_CODE, -1)) == int(code)
        ):
            return material
    material = bpy.data.materials.new(name)
    material[MAT_NAME] = name
    material[MAT_WALKABLE] = bool(walkable)
    material[MAT_CODE] = int(code)
    material.diffuse_color = _colour(int(material_id), walkable)
    return material


# ---------------------------------------------------------------- import

def _store_extras(extras):
    """Mesh-level extras as JSON text, byte strings as base64 (the package gives them as
    lists of integers)."""
    stored = {}
    for key, value in (extras or {}).items():
        if isinstance(value, dict) and "Bytes" in value:
            stored[key] = {"Bytes_b64": base64.b64encode(bytes(value["Bytes"])).decode("ascii")}
        else:
            stored[key] = value
    return stored


def _load_extras(stored):
    extras = {}
    for key, value in (stored or {}).items():
        if isinstance(value, dict) and "Bytes_b64" in value:
            extras[key] = {"Bytes": list(base64.b64decode(value["Bytes_b64"]))}
        else:
            extras[key] = value
    return extras


def transitions_per_corner(wm_mesh):
    """The package's transitions as one value per face corner (polygon_indices order)."""
    return np.asarray(wm_mesh.transitions, dtype=np.int64).reshape(-1)


def mesh_to_object(wm_mesh, name, collection, source_format=None):
    """A new mesh object holding `wm_mesh`; returns (object, notes). Notes are sentences for the
    operator report (what the Blender form cannot hold)."""
    notes = []
    vertices = np.ascontiguousarray(wm_mesh.vertices, dtype=np.float32)
    offsets = np.asarray(wm_mesh.polygon_offsets, dtype=np.int64)
    indices = np.ascontiguousarray(wm_mesh.polygon_indices, dtype=np.int32)
    face_count = len(offsets) - 1
    mesh = bpy.data.meshes.new(name)
    mesh.vertices.add(len(vertices))
    mesh.vertices.foreach_set("co", vertices.reshape(-1))
    mesh.loops.add(len(indices))
    mesh.loops.foreach_set("vertex_index", indices)
    mesh.polygons.add(face_count)
    mesh.polygons.foreach_set("loop_start", offsets[:-1].astype(np.int32))
    mesh.polygons.foreach_set("loop_total", np.diff(offsets).astype(np.int32))
    # No mesh.validate(): it would delete degenerate faces, which the file holds and the
    # validator reports; the object has to show what the file has.
    mesh.update(calc_edges=True)

    # Surfaces -> material slots.
    names = list(wm_mesh.materials)
    walkable = np.asarray(wm_mesh.walkable, dtype=bool)
    codes = np.asarray(wm_mesh.material_codes, dtype=np.int64)
    ids = np.asarray(wm_mesh.material_ids, dtype=np.int64)
    slot_of = {}
    slot_index = np.zeros(face_count, dtype=np.int32)
    for face in range(face_count):
        key = (names[face], bool(walkable[face]), int(codes[face]))
        slot = slot_of.get(key)
        if slot is None:
            slot = len(slot_of)
            slot_of[key] = slot
            mesh.materials.append(material_for(key[0], key[1], key[2], ids[face]))
        slot_index[face] = slot
    mesh.polygons.foreach_set("material_index", slot_index)

    # Transitions -> edge attribute + seams.
    corner_tags = transitions_per_corner(wm_mesh)
    edge_of_loop = np.empty(len(indices), dtype=np.int32)
    mesh.loops.foreach_get("edge_index", edge_of_loop)
    edge_values = np.full(len(mesh.edges), -1, dtype=np.int64)
    tagged = corner_tags >= 0
    conflicts = 0
    for loop in np.nonzero(tagged)[0]:
        edge = edge_of_loop[loop]
        if edge_values[edge] >= 0 and edge_values[edge] != corner_tags[loop]:
            conflicts += 1
        edge_values[edge] = corner_tags[loop]
    attribute = mesh.attributes.new(TRANSITION_ATTR, "INT", "EDGE")
    attribute.data.foreach_set("value", edge_values.astype(np.int32))
    mesh.edges.foreach_set("use_seam", edge_values >= 0)
    if tagged.any():
        rebuilt = corner_transitions(mesh, walkable, edge_values, edge_values >= 0)
        lost = int(np.count_nonzero(rebuilt != corner_tags))
        if lost or conflicts:
            notes.append(
                f"{lost} face edge(s) carry a transition Blender's edge attribute cannot place "
                "back exactly (not on the walkable boundary, or both sides tagged differently)"
            )

    # Per-face columns -> face attributes.
    meta = {"wrapped_u32": [], "columns": {}}
    for column, values in (wm_mesh.face_attributes or {}).items():
        values = np.asarray(values)
        if values.dtype.kind == "f":
            attr = mesh.attributes.new(column, "FLOAT", "FACE")
            attr.data.foreach_set("value", values.astype(np.float32))
            continue
        values = values.astype(np.int64)
        if values.size == 0 or (values.min() >= I32_MIN and values.max() <= I32_MAX):
            stored = values.astype(np.int32)
        elif values.min() >= 0 and values.max() < 2**32:
            # u32 masks (PATH): kept bit for bit in Blender's 32-bit integers.
            stored = values.astype(np.uint32).view(np.int32)
            meta["wrapped_u32"].append(column)
        else:
            meta["columns"][column] = [int(v) for v in values]
            notes.append(f"face column {column} holds 64-bit values; kept, but not editable")
            continue
        attr = mesh.attributes.new(column, "INT", "FACE")
        attr.data.foreach_set("value", stored)

    obj = bpy.data.objects.new(name, mesh)
    collection.objects.link(obj)
    obj[PROP_KIND] = wm_mesh.kind
    obj[PROP_ORIGIN] = [float(c) for c in wm_mesh.origin]
    if source_format:
        obj[PROP_FORMAT] = source_format
    meta["tile_grid"] = wm_mesh.tile_grid
    meta["extras"] = _store_extras(wm_mesh.extras)
    obj[PROP_META] = json.dumps(meta, separators=(",", ":"))

    for index, hook in enumerate(wm_mesh.hooks):
        empty = bpy.data.objects.new(HOOK_PREFIX + hook["name"], None)
        empty.empty_display_type = "PLAIN_AXES"
        empty.empty_display_size = 0.25
        empty[HOOK_NAME] = hook["name"]
        empty[HOOK_INDEX] = index
        empty.parent = obj
        empty.location = hook["position"]
        collection.objects.link(empty)
    return obj, notes


# ---------------------------------------------------------------- export

def boundary_loops_mask(mesh, walkable_faces, edge_of_loop, face_of_loop):
    """Per loop: the loop's face is walkable and no other walkable face uses its edge (the
    walkable boundary, where KotOR keeps transitions)."""
    walkable_loop = walkable_faces[face_of_loop]
    uses = np.bincount(edge_of_loop[walkable_loop], minlength=len(mesh.edges))
    return walkable_loop & (uses[edge_of_loop] == 1)


def corner_transitions(mesh, walkable_faces, edge_values, edge_marked):
    """Per face corner (loop order within each polygon, polygons in order): the transition of
    the edge from that corner to the next, following the convention above."""
    loop_count = len(mesh.loops)
    edge_of_loop = np.empty(loop_count, dtype=np.int64)
    mesh.loops.foreach_get("edge_index", edge_of_loop)
    starts = np.empty(len(mesh.polygons), dtype=np.int64)
    totals = np.empty(len(mesh.polygons), dtype=np.int64)
    mesh.polygons.foreach_get("loop_start", starts)
    mesh.polygons.foreach_get("loop_total", totals)
    face_of_loop = np.repeat(np.arange(len(totals)), totals)
    order = polygon_loop_order(starts, totals)
    edge_of_loop = edge_of_loop[order]
    boundary = boundary_loops_mask(mesh, np.asarray(walkable_faces, dtype=bool), edge_of_loop, face_of_loop)
    values = np.where(edge_marked[edge_of_loop] & boundary, edge_values[edge_of_loop], -1)
    return np.where(values >= 0, values, -1)


def polygon_loop_order(starts, totals):
    """Loop indices polygon by polygon (Blender keeps them contiguous, but says nothing)."""
    expected = np.concatenate(([0], np.cumsum(totals)[:-1])) if len(totals) else starts
    if np.array_equal(starts, expected):
        return np.arange(int(totals.sum()))
    return np.concatenate([np.arange(s, s + t) for s, t in zip(starts, totals)])


def _is_identity(matrix):
    return all(
        matrix[r][c] == (1.0 if r == c else 0.0) for r in range(4) for c in range(4)
    )


def export_mesh_data(obj, depsgraph=None, apply_modifiers=True):
    """The evaluated (modifiers applied) or plain mesh of `obj`; (mesh, owner that must free it)."""
    if apply_modifiers and depsgraph is not None and len(obj.modifiers):
        evaluated = obj.evaluated_get(depsgraph)
        return evaluated.to_mesh(), evaluated
    return obj.data, None


def hooks_of(obj):
    """The hook empties parented to `obj`, in their imported order (new ones after, by name)."""
    found = []
    inverse = obj.matrix_world.inverted_safe()
    for child in obj.children:
        if child.type != "EMPTY":
            continue
        name = child.get(HOOK_NAME)
        if name is None:
            if not child.name.startswith(HOOK_PREFIX):
                continue
            name = _plain_name(child.name[len(HOOK_PREFIX):])
        if _is_identity(child.matrix_parent_inverse):
            position = tuple(child.location)  # exact: no matrix arithmetic
        else:
            position = tuple((inverse @ child.matrix_world).translation)
        order = child.get(HOOK_INDEX, 1 << 30)
        found.append((order, name, position))
    found.sort(key=lambda item: (item[0], item[1]))
    return [{"name": name, "position": position} for _, name, position in found]


def object_to_walkmesh(obj, walkmesh, depsgraph=None, apply_modifiers=True):
    """A `walkmesh.Mesh` of `obj` (not yet welded, triangulated or checked: writing does that);
    returns (mesh, notes)."""
    notes = []
    mesh, owner = export_mesh_data(obj, depsgraph, apply_modifiers)
    try:
        return _object_to_walkmesh(obj, mesh, walkmesh, notes), notes
    finally:
        if owner is not None:
            owner.to_mesh_clear()


def _object_to_walkmesh(obj, mesh, walkmesh, notes):
    vertex_count, loop_count, face_count = len(mesh.vertices), len(mesh.loops), len(mesh.polygons)
    coords = np.empty(vertex_count * 3, dtype=np.float32)
    mesh.vertices.foreach_get("co", coords)
    vertices = coords.reshape(-1, 3)
    if not _is_identity(obj.matrix_world):
        matrix = np.array(obj.matrix_world, dtype=np.float64)
        moved = vertices.astype(np.float64) @ matrix[:3, :3].T + matrix[:3, 3]
        vertices = moved.astype(np.float32)
    starts = np.empty(face_count, dtype=np.int64)
    totals = np.empty(face_count, dtype=np.int64)
    mesh.polygons.foreach_get("loop_start", starts)
    mesh.polygons.foreach_get("loop_total", totals)
    loop_vertices = np.empty(loop_count, dtype=np.int64)
    mesh.loops.foreach_get("vertex_index", loop_vertices)
    order = polygon_loop_order(starts, totals)
    corners = loop_vertices[order]
    if face_count and np.all(totals == 3):
        faces = corners.reshape(-1, 3).astype(np.uint32)
    else:
        bounds = np.concatenate(([0], np.cumsum(totals)))
        faces = [corners[bounds[i]:bounds[i + 1]].tolist() for i in range(face_count)]

    # Surfaces.
    slots = np.zeros(face_count, dtype=np.int64)
    mesh.polygons.foreach_get("material_index", slots)
    slot_names, slot_walkable, slot_code = [], [], []
    unnamed = 0
    for slot in range(max(len(mesh.materials), 1)):
        material = mesh.materials[slot] if slot < len(mesh.materials) else None
        if material is None:
            slot_names.append(None)
            slot_walkable.append(None)
            slot_code.append(None)
            continue
        slot_names.append(material.get(MAT_NAME) or _plain_name(material.name))
        walkable_prop = material.get(MAT_WALKABLE)
        slot_walkable.append(None if walkable_prop is None else bool(walkable_prop))
        code = material.get(MAT_CODE)
        # A material renamed by hand no longer speaks for the code it was imported with.
        renamed = material.get(MAT_NAME) is not None and _plain_name(material.name) != material[MAT_NAME]
        slot_code.append(None if code is None or renamed else int(code))
        if renamed:
            slot_names[-1] = _plain_name(material.name)
            slot_walkable[-1] = None
    slots = np.clip(slots, 0, len(slot_names) - 1)
    names = []
    for slot in slots:
        name = slot_names[slot]
        if name is None:
            unnamed += 1
            name = "Stone"
        names.append(name)
    if unnamed:
        notes.append(f"{unnamed} face(s) have no material; written as Stone (walkable)")

    # Face attributes (namespaced names only: "nwn2:tile", "path:height").
    meta = json.loads(obj.get(PROP_META, "{}") or "{}")
    wrapped = set(meta.get("wrapped_u32", []))
    face_attributes = {}
    for attribute in mesh.attributes:
        if attribute.domain != "FACE" or ":" not in attribute.name:
            continue
        if attribute.data_type == "INT":
            values = np.empty(face_count, dtype=np.int32)
            attribute.data.foreach_get("value", values)
            if attribute.name in wrapped:
                face_attributes[attribute.name] = values.view(np.uint32).astype(np.int64)
            else:
                face_attributes[attribute.name] = values.astype(np.int64)
        elif attribute.data_type == "FLOAT":
            values = np.empty(face_count, dtype=np.float32)
            attribute.data.foreach_get("value", values)
            face_attributes[attribute.name] = values
    for column, values in (meta.get("columns") or {}).items():
        if len(values) == face_count:
            face_attributes[column] = np.asarray(values, dtype=np.int64)
        else:
            notes.append(f"face column {column} no longer matches the faces; dropped")

    kind = obj.get(PROP_KIND, "area")
    origin = obj.get(PROP_ORIGIN)
    origin = tuple(float(c) for c in origin) if origin is not None else None
    wm = walkmesh.Mesh.from_arrays(
        vertices,
        faces,
        materials=names,
        hooks=hooks_of(obj),
        kind=str(kind),
        origin=origin,
        face_attributes=face_attributes or None,
    )
    # Walkability and codes: the material's properties where it has them, else the profile's.
    walkable = np.asarray(wm.walkable, dtype=bool).copy()
    codes = np.asarray(wm.material_codes, dtype=np.int64).copy()
    for slot in range(len(slot_names)):
        mask = slots == slot
        if slot_walkable[slot] is not None:
            walkable[mask] = slot_walkable[slot]
        if slot_code[slot] is not None:
            codes[mask] = slot_code[slot]
    wm.walkable = walkable
    wm.material_codes = codes.astype(np.uint32)

    # Transitions.
    edge_values = np.full(len(mesh.edges), -1, dtype=np.int64)
    attribute = mesh.attributes.get(TRANSITION_ATTR)
    if attribute is not None and attribute.domain == "EDGE" and attribute.data_type == "INT":
        stored = np.empty(len(mesh.edges), dtype=np.int32)
        attribute.data.foreach_get("value", stored)
        edge_values = stored.astype(np.int64)
    seams = np.zeros(len(mesh.edges), dtype=bool)
    mesh.edges.foreach_get("use_seam", seams)
    marked = seams & (edge_values >= 0)
    per_corner = corner_transitions(mesh, walkable, edge_values, marked)
    edge_of_loop = np.empty(loop_count, dtype=np.int64)
    mesh.loops.foreach_get("edge_index", edge_of_loop)
    edge_of_loop = edge_of_loop[order]
    placed_edges = set(np.unique(edge_of_loop[per_corner >= 0]).tolist())
    unplaced = int(np.count_nonzero(marked)) - len(placed_edges)
    if unplaced > 0:
        notes.append(
            f"{unplaced} transition edge(s) are not on the walkable boundary and were not written"
        )
    if np.any(per_corner >= 0):
        values = per_corner.astype(np.int32)
        wm.transitions = values.reshape(-1, 3) if wm.triangles_only else values

    if meta.get("tile_grid") is not None:
        wm.tile_grid = meta["tile_grid"]
    extras = _load_extras(meta.get("extras"))
    if extras:
        wm.extras = extras
    return wm


def paint_corner_transitions(obj, per_corner):
    """Sets the transition attribute and seams of `obj`'s edges from one value per face corner
    (polygon order, -1 none), as the package gives them; returns how many edges changed."""
    mesh = obj.data
    per_corner = np.asarray(per_corner, dtype=np.int64).reshape(-1)
    starts = np.empty(len(mesh.polygons), dtype=np.int64)
    totals = np.empty(len(mesh.polygons), dtype=np.int64)
    mesh.polygons.foreach_get("loop_start", starts)
    mesh.polygons.foreach_get("loop_total", totals)
    edge_of_loop = np.empty(len(mesh.loops), dtype=np.int64)
    mesh.loops.foreach_get("edge_index", edge_of_loop)
    edge_of_loop = edge_of_loop[polygon_loop_order(starts, totals)]
    if len(per_corner) != len(edge_of_loop):
        raise ValueError(f"{obj.name}: {len(per_corner)} corner values for {len(edge_of_loop)} corners")
    values = np.full(len(mesh.edges), -1, dtype=np.int64)
    tagged = per_corner >= 0
    values[edge_of_loop[tagged]] = per_corner[tagged]
    attribute = mesh.attributes.get(TRANSITION_ATTR)
    old = np.full(len(mesh.edges), -1, dtype=np.int32)
    seams = np.zeros(len(mesh.edges), dtype=bool)
    mesh.edges.foreach_get("use_seam", seams)
    if attribute is None:
        attribute = mesh.attributes.new(TRANSITION_ATTR, "INT", "EDGE")
    else:
        attribute.data.foreach_get("value", old)
    old = np.where(seams, old, -1)
    attribute.data.foreach_set("value", values.astype(np.int32))
    mesh.edges.foreach_set("use_seam", values >= 0)
    mesh.update()
    return int(np.count_nonzero(old != values))
