"""Takes a .glb written by walkmesh through Blender the way a user edits a walkmesh:
import (Blender 3.4's glTF importer, "Merge Vertices" ticked so that a moved vertex moves
for every face), move one vertex up by 1 cm, export with Blender's glTF exporter (defaults).

    blender --background --factory-startup --python blender_roundtrip.py -- IN.glb OUT.glb
"""

import sys

import bpy

try:  # Blender 3.4's glTF importer uses np.bool, which numpy 1.24 removed.
    import numpy as np

    if "bool" not in np.__dict__:
        np.bool = bool
except ImportError:
    pass

source, target = sys.argv[sys.argv.index("--") + 1:][:2]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=source, merge_vertices=True)
meshes = [o for o in bpy.data.objects if o.type == "MESH"]
empties = [o.name for o in bpy.data.objects if o.type == "EMPTY"]
mesh = meshes[0].data
mesh.vertices[len(mesh.vertices) // 2].co.z += 0.01
mesh.update()
bpy.ops.export_scene.gltf(filepath=target, export_format="GLB")
print(f"blender_roundtrip: {source} -> {target}: {len(mesh.vertices)} vertices, "
      f"{len(mesh.polygons)} faces, colour layers {[c.name for c in mesh.vertex_colors]}, "
      f"empties {empties}")
