"""glTF files written by independent tools (pygltflib, trimesh), read by our CLI.

    gltf_foreign.py generate DIR      writes the files and DIR/expected.json
    gltf_foreign.py check DIR WALKMESH
                                      runs `WALKMESH info FILE --json` on each file and compares
                                      triangle count, bounding box and materials with what the
                                      writing tool says (computed here, independently of us)
    gltf_foreign.py broken DIR        writes deliberately invalid glTF files (validator control)

The expected bounding box is in walkmesh axes: IR (x, y, z) = glTF (x, -z, y).
"""

import base64
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np


def to_ir(points):
    points = np.asarray(points, dtype=np.float64)
    return np.stack([points[:, 0], -points[:, 2], points[:, 1]], axis=1)


def bbox(points):
    ir = to_ir(points)
    return {"min": ir.min(axis=0).tolist(), "max": ir.max(axis=0).tolist()}


def trs(translation=(0, 0, 0), rotation=(0, 0, 0, 1), scale=(1, 1, 1)):
    x, y, z, w = rotation
    r = np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )
    m = np.eye(4)
    m[:3, :3] = r @ np.diag(scale)
    m[:3, 3] = translation
    return m


def apply(m, points):
    points = np.asarray(points, dtype=np.float64)
    homogeneous = np.hstack([points, np.ones((len(points), 1))])
    return (homogeneous @ m.T)[:, :3]


def grid(n, size=1.0):
    """An n x n grid of quads in the glTF ground plane (y = 0), as vertices and triangles."""
    vertices = [[x * size, 0.0, -z * size] for z in range(n + 1) for x in range(n + 1)]
    faces = []
    row = n + 1
    for z in range(n):
        for x in range(n):
            a = z * row + x
            faces.append([a, a + 1, a + row + 1])
            faces.append([a, a + row + 1, a + row])
    return np.array(vertices, dtype=np.float32), np.array(faces, dtype=np.uint32)


def pygltflib_file(path, vertices, faces, nodes, mesh_node, material, indexed, scene_nodes):
    import pygltflib as g

    if indexed:
        index_bytes = faces.astype(np.uint16).tobytes()
        position_bytes = vertices.astype(np.float32).tobytes()
        count = len(vertices)
    else:
        flat = vertices[faces.reshape(-1)]
        index_bytes = b""
        position_bytes = flat.astype(np.float32).tobytes()
        count = len(flat)
        vertices = flat
    pad = (4 - len(index_bytes) % 4) % 4
    blob = index_bytes + b"\0" * pad + position_bytes
    views = []
    accessors = []
    if indexed:
        views.append(g.BufferView(buffer=0, byteOffset=0, byteLength=len(index_bytes), target=g.ELEMENT_ARRAY_BUFFER))
        accessors.append(g.Accessor(bufferView=0, componentType=g.UNSIGNED_SHORT, count=faces.size, type=g.SCALAR))
    views.append(g.BufferView(buffer=0, byteOffset=len(index_bytes) + pad, byteLength=len(position_bytes), target=g.ARRAY_BUFFER))
    accessors.append(
        g.Accessor(
            bufferView=len(views) - 1,
            componentType=g.FLOAT,
            count=count,
            type=g.VEC3,
            min=vertices.min(axis=0).tolist(),
            max=vertices.max(axis=0).tolist(),
        )
    )
    position_accessor = len(accessors) - 1
    primitive = g.Primitive(attributes=g.Attributes(POSITION=position_accessor), mode=g.TRIANGLES)
    if indexed:
        primitive.indices = 0
    materials = []
    if material is not None:
        materials.append(g.Material(name=material, doubleSided=True))
        primitive.material = 0
    gltf = g.GLTF2(
        scene=0,
        scenes=[g.Scene(nodes=scene_nodes)],
        nodes=nodes,
        meshes=[g.Mesh(primitives=[primitive])],
        materials=materials,
        accessors=accessors,
        bufferViews=views,
        buffers=[g.Buffer(byteLength=len(blob))],
    )
    nodes[mesh_node].mesh = 0
    if str(path).endswith(".glb"):
        gltf.set_binary_blob(blob)
        gltf.save_binary(str(path))
    else:
        gltf.buffers[0].uri = "data:application/octet-stream;base64," + base64.b64encode(blob).decode()
        gltf.save_json(str(path))


def generate(directory):
    import pygltflib as g
    import trimesh

    directory.mkdir(parents=True, exist_ok=True)
    expected = {}

    # 1. Nested node transforms (TRS and a matrix), indexed, one material (pygltflib).
    vertices, faces = grid(2)
    s = math.sqrt(0.5)
    nodes = [
        g.Node(translation=[10.0, 0.0, 0.0], children=[1]),
        g.Node(rotation=[0.0, s, 0.0, s], scale=[2.0, 2.0, 2.0], children=[2]),
        g.Node(matrix=[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0.5, 5, 1]),
    ]
    pygltflib_file(directory / "pygltflib_nested.glb", vertices, faces, nodes, 2, "Grass", True, [0])
    world = trs(translation=(10, 0, 0)) @ trs(rotation=(0, s, 0, s), scale=(2, 2, 2))
    world = world @ np.array([[1, 0, 0, 0], [0, 1, 0, 0.5], [0, 0, 1, 5], [0, 0, 0, 1]], dtype=np.float64)
    expected["pygltflib_nested.glb"] = {
        "faces": len(faces),
        "bbox": bbox(apply(world, vertices)),
        "materials": {"Grass": len(faces)},
    }

    # 2. Non-indexed triangles, JSON with an embedded buffer, node translation (pygltflib).
    vertices, faces = grid(3, size=0.5)
    nodes = [g.Node(translation=[0.0, 1.0, 0.0])]
    pygltflib_file(directory / "pygltflib_nonindexed.gltf", vertices, faces, nodes, 0, "Stone", False, [0])
    expected["pygltflib_nonindexed.gltf"] = {
        "faces": len(faces),
        "bbox": bbox(apply(trs(translation=(0, 1, 0)), vertices)),
        "materials": {"Stone": len(faces)},
    }

    # 3. Several materials in one scene, with scene-graph transforms (trimesh), as .glb and
    #    as .gltf with an external buffer.
    scene = trimesh.Scene()
    parts = [
        ("Grass", trimesh.Trimesh(*grid(4), process=False), trs(translation=(0, 0, 0))),
        ("NonWalk", trimesh.creation.box(extents=(1.0, 2.0, 1.0)), trs(translation=(2.0, 1.0, -1.0))),
        ("Wood", trimesh.Trimesh(*grid(2), process=False), trs(translation=(-3.0, 0.25, 0.0), rotation=(0, math.sin(0.3), 0, math.cos(0.3)))),
    ]
    materials = {}
    for name, mesh, transform in parts:
        mesh.visual = trimesh.visual.TextureVisuals(material=trimesh.visual.material.PBRMaterial(name=name))
        scene.add_geometry(mesh, node_name=f"part_{name}", geom_name=name, transform=transform)
        materials[name] = materials.get(name, 0) + len(mesh.faces)
    world = scene.to_mesh() if hasattr(scene, "to_mesh") else scene.dump(concatenate=True)
    for file_name in ["trimesh_materials.glb", "trimesh_materials.gltf"]:
        kind = file_name.rsplit(".", 1)[1]
        exported = scene.export(file_type=kind)
        if isinstance(exported, dict):
            for name, data in exported.items():
                (directory / (file_name if name == "model.gltf" else name)).write_bytes(data)
        else:
            (directory / file_name).write_bytes(exported)
        expected[file_name] = {
            "faces": int(sum(len(m.faces) for _, m, _ in parts)),
            "bbox": bbox(world.vertices),
            "materials": materials,
        }

    (directory / "expected.json").write_text(json.dumps(expected, indent=1))


def close(a, b):
    return all(abs(x - y) <= 1e-4 * max(1.0, abs(y)) for x, y in zip(a, b))


def check(directory, walkmesh):
    expected = json.loads((directory / "expected.json").read_text())
    passed = failed = 0
    for name, want in sorted(expected.items()):
        result = subprocess.run([walkmesh, "info", str(directory / name), "--json"], capture_output=True, text=True)
        problems = []
        if result.returncode != 0:
            problems.append(f"exit {result.returncode}: {result.stderr.strip()}")
        else:
            got = json.loads(result.stdout)
            if got["faces"] != want["faces"]:
                problems.append(f"faces {got['faces']} != {want['faces']}")
            if not (close(got["bbox"]["min"], want["bbox"]["min"]) and close(got["bbox"]["max"], want["bbox"]["max"])):
                problems.append(f"bbox {got['bbox']} != {want['bbox']}")
            if got["materials"] != want["materials"]:
                problems.append(f"materials {got['materials']} != {want['materials']}")
        if problems:
            failed += 1
            print(f"FAIL {name}: " + "; ".join(problems))
        else:
            passed += 1
            print(f"ok   {name}: {want['faces']} faces, materials {want['materials']}")
    print(f"foreign: {passed} passed, {failed} failed")
    return 1 if failed else 0


def broken(directory):
    """Invalid files the validator must reject (a control that the validation step bites)."""
    directory.mkdir(parents=True, exist_ok=True)
    blob = np.array([[0, 0, 0], [1, 0, 0], [0, 0, 1]], dtype=np.float32).tobytes()
    doc = {
        "asset": {"version": "2.0"},
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        # count 4 overruns the 36-byte view, and min/max are missing.
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "buffers": [{"byteLength": 36, "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}],
    }
    (directory / "broken.gltf").write_text(json.dumps(doc))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "generate":
        generate(Path(sys.argv[2]))
    elif command == "check":
        sys.exit(check(Path(sys.argv[2]), sys.argv[3]))
    elif command == "broken":
        broken(Path(sys.argv[2]))
    else:
        sys.exit(f"unknown command {command}")
