"""Builds walkmesh scenes in Blender and exports each through Blender's own OBJ and glTF
exporters, the way a new user would make them. Run headless:

    blender --background --factory-startup --python blender_scenes.py -- OUT_DIR

Writes OUT_DIR/<scene>.obj (+ .mtl), OUT_DIR/<scene>.glb and OUT_DIR/scenes.json, which
lists each scene's designed figures (walkable area, connected walkable components, boundary
loops) for blender_check.py. Every figure below is worked out by hand from the geometry.
"""

import json
import math
import os
import sys

import bpy

try:  # Blender 3.4's glTF importer uses np.bool, which numpy 1.24 removed.
    import numpy as np

    if "bool" not in np.__dict__:
        np.bool = bool
except ImportError:
    pass

OUT = sys.argv[sys.argv.index("--") + 1]
os.makedirs(OUT, exist_ok=True)
SCENES = {}


def reset():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def material(name):
    return bpy.data.materials.get(name) or bpy.data.materials.new(name)


def add_object(name, verts, faces, mats=None, location=(0, 0, 0), rotation=(0, 0, 0),
               parent=None):
    """An object from vertices and faces; `mats` names one material per face (None: no
    material slot at all)."""
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([tuple(map(float, v)) for v in verts], [], faces)
    if mats is not None:
        names = []
        for n in mats:
            if n not in names:
                names.append(n)
        for n in names:
            mesh.materials.append(material(n))
        for poly, n in zip(mesh.polygons, mats):
            poly.material_index = names.index(n)
    mesh.update()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    obj.location = location
    obj.rotation_euler = rotation
    if parent is not None:
        obj.parent = parent
    return obj


def grid(x0, y0, nx, ny, z=lambda x, y: 0.0, keep=lambda i, j: True):
    """Unit quads over [x0, x0+nx] × [y0, y0+ny], counter-clockwise from above; cells (i, j)
    with keep(i, j) false are left out (holes). Returns verts, faces, cells."""
    verts = [(x0 + i, y0 + j, z(x0 + i, y0 + j)) for j in range(ny + 1) for i in range(nx + 1)]
    at = lambda i, j: j * (nx + 1) + i
    faces, cells = [], []
    for j in range(ny):
        for i in range(nx):
            if keep(i, j):
                faces.append((at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)))
                cells.append((i, j))
    return verts, faces, cells


def walls(x0, y0, x1, y1, height, name, mats):
    """Four vertical quads around a rectangle, facing inwards."""
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    verts, faces = [], []
    for k in range(4):
        (ax, ay), (bx, by) = corners[k], corners[(k + 1) % 4]
        base = len(verts)
        verts += [(ax, ay, 0), (bx, by, 0), (bx, by, height), (ax, ay, height)]
        faces.append((base, base + 3, base + 2, base + 1))
    return add_object(name, verts, faces, None if mats is None else [mats] * 4)


def export(name, designed, obj_axes=("NEGATIVE_Z", "Y")):
    bpy.context.view_layer.update()
    forward, up = obj_axes
    bpy.ops.wm.obj_export(filepath=os.path.join(OUT, name + ".obj"), forward_axis=forward,
                          up_axis=up, export_materials=True)
    # "Apply Modifiers" ticked, as anyone exporting a modified mesh does; everything else
    # is Blender's default.
    bpy.ops.export_scene.gltf(filepath=os.path.join(OUT, name + ".glb"), export_format="GLB",
                              export_apply=True)
    SCENES[name] = designed


# 1. Courtyard: stone floor with a grass patch (one object, two materials), a 2×2 hole (a
#    fountain), and a wall ring without walkable material. 100 − 4 = 96; outer loop + hole.
reset()
v, f, cells = grid(0, 0, 10, 10, keep=lambda i, j: not (4 <= i <= 5 and 4 <= j <= 5))
add_object("floor", v, f, ["Grass" if 1 <= i <= 2 and 1 <= j <= 2 else "Stone" for i, j in cells])
walls(0, 0, 10, 10, 3, "wall_ring", "NonWalk")
export("courtyard", {"area": 96.0, "components": 1, "loops": 2, "seams": True})

# 2. Ramp between a floor and a platform: three objects, three materials. Floor 4×4 at z 0,
#    ramp 4 wide rising 1 over 2 (length √5), platform 4×2 at z 1.
reset()
add_object("floor", *grid(0, 0, 4, 4)[:2], mats=["Stone"] * 16)
add_object("ramp", *grid(0, 4, 4, 2, z=lambda x, y: (y - 4) / 2)[:2], mats=["Wood"] * 8)
add_object("platform", *grid(0, 6, 4, 2, z=lambda x, y: 1.0)[:2], mats=["Metal"] * 8)
export("ramp", {"area": 16 + 4 * math.sqrt(5) + 8, "components": 1, "loops": 1, "seams": True})

# 3. Stairs with walkable risers: five treads 3×1 and four risers 3×0.5, one object. Flat
#    shading makes the glTF exporter split every face.
reset()
profile = [(0, 0), (1, 0), (1, 0.5), (2, 0.5), (2, 1), (3, 1), (3, 1.5), (4, 1.5), (4, 2), (5, 2)]
verts = [(x, y, z) for (y, z) in profile for x in (0, 3)]
faces = [(2 * k, 2 * k + 1, 2 * k + 3, 2 * k + 2) for k in range(len(profile) - 1)]
add_object("stairs", verts, faces, ["Stone"] * len(faces))
export("stairs", {"area": 5 * 3 + 4 * 1.5, "components": 1, "loops": 1, "seams": True,
                  "steep_walkable": True})

# 4. Doorway: a concave 8-gon room and a convex 6-gon room with collinear corners, joined by
#    the edge (4,1)-(4,2). Areas 10 and 9.
reset()
verts = [(0, 0, 0), (3, 0, 0), (3, 1, 0), (4, 1, 0), (4, 2, 0), (3, 2, 0), (3, 3, 0), (0, 3, 0),
         (4, 0, 0), (7, 0, 0), (7, 3, 0), (4, 3, 0)]
faces = [(0, 1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 4, 3)]
add_object("rooms", verts, faces, ["Stone", "Wood"])
export("doorway", {"area": 19.0, "components": 1, "loops": 1, "seams": True,
                   "ngons": True})

# 5. Parent/child transforms: a hall (4×4, turned a quarter turn, moved) with a child annex
#    (4×2, turned half a turn in the hall's frame) meeting it edge to edge, and a separate
#    island (2×2). Two walkable components: hall + annex, island.
reset()
hall = add_object("hall", *grid(0, 0, 4, 4)[:2], mats=["Stone"] * 16, location=(10, 2, 0),
                  rotation=(0, 0, math.pi / 2))
add_object("annex", *grid(0, 0, 4, 2)[:2], mats=["Wood"] * 8, location=(4, 6, 0),
           rotation=(0, 0, math.pi), parent=hall)
add_object("island", *grid(0, 0, 2, 2)[:2], mats=["Grass"] * 4, location=(-10, -10, 0))
export("parented", {"area": 28.0, "components": 2, "loops": 2, "seams": True})

# 6. Material names as Blender and kotorblender make them: walkable wok_Stone ×1,
#    Grass.002 ×1, wok_Dirt ×1; not walkable wok_NonWalk, NonWalk.001, wok_Nonwalk.
reset()
names = ["wok_Stone", "Grass.002", "wok_Dirt", "wok_NonWalk", "NonWalk.001", "wok_Nonwalk"]
add_object("strip", *grid(0, 0, 6, 1)[:2], mats=names)
export("material_names", {"area": 3.0, "components": 1, "loops": 1, "seams": True})

# 7. A wall object without any material around a stone floor: the walls must not become
#    walkable (designed area 16), and a warning must name them.
reset()
add_object("floor", *grid(0, 0, 4, 4)[:2], mats=["Stone"] * 16)
walls(0, 0, 4, 4, 3, "bare_walls", None)
export("unnamed_walls", {"area": 16.0, "components": 1, "loops": 1, "seams": False,
                         "warns": ["no_material"]})

# 8. A Z-up OBJ export (forward Y, up Z): read without --up z the floor stands upright, and a
#    warning must name --up; with --up z it is a 6×4 floor. The glTF export is Y-up as usual.
reset()
add_object("floor", *grid(0, 0, 6, 4)[:2], mats=["Stone"] * 24)
export("z_up", {"area": 24.0, "components": 1, "loops": 1, "seams": False, "obj_up": "z"},
       obj_axes=("Y", "Z"))

# 9. Modifiers: half an arena (4×6) mirrored across x = 0 without merging, and a corridor
#    cell pair arrayed three times without merging, meeting the arena's far edge.
#    48 + 2 × 3 = 54.
reset()
arena = add_object("arena", *grid(0, 0, 4, 6)[:2], mats=["Stone"] * 24)
mirror = arena.modifiers.new("mirror", "MIRROR")
mirror.use_mirror_merge = False
corridor = add_object("corridor", *grid(-1, 6, 2, 1)[:2], mats=["Wood"] * 2)
array = corridor.modifiers.new("array", "ARRAY")
array.count = 3
array.relative_offset_displace = (0, 1, 0)
array.use_merge_vertices = False
export("modifiers", {"area": 54.0, "components": 1, "loops": 1, "seams": True})

# 10. Broken on purpose: two floors that should meet, 0.00005 apart (a snapping slip). Exact
#     welding cannot join them; validate must flag the unlinked seam.
reset()
add_object("left", *grid(0, 0, 2, 2)[:2], mats=["Stone"] * 4)
add_object("right", *grid(0, 0, 2, 2)[:2], mats=["Stone"] * 4, location=(2.00005, 0, 0))
export("near_miss", {"area": 8.0, "components": 2, "loops": 2, "seams": True, "broken": True})

with open(os.path.join(OUT, "scenes.json"), "w") as out:
    json.dump(SCENES, out, indent=1, sort_keys=True)
print("blender_scenes: wrote", len(SCENES), "scenes to", OUT)
