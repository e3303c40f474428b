"""Compares walkmeshes written by our BWM writer with two independent readers.

For every `<name>.{wok,pwk,dwk}` with a `<name>.json` sidecar (what our reader reports: type,
position, use points, table counts, and `[index, value]` pairs of every table) in the directory
given as argv[1]:
  * bioware-kaitai-formats (`Bwm.from_bytes`) must give the same header, counts and every listed
    table entry (AABB nodes, adjacency, edges and perimeters included);
  * PyKotor (`read_bwm`) must give the same type, faces (as vertex positions), materials,
    walkable face count, transitions, use points and position (files up to 50,000 faces; its
    pure-Python reader is too slow beyond).
Floats are compared as float32 bit patterns.
Also times PyKotor's read_bwm + bytes_bwm on the largest genuine corpus file when the shared
corpora are found ($WALKMESH_CORPORA or ../shared/corpora), for the benchmark comparison.
"""
import io
import json
import os
import statistics
import struct
import sys
import time
from pathlib import Path

from bioware_kaitai_formats.bwm import Bwm
from kaitaistruct import KaitaiStream
from pykotor.resource.formats.bwm import bytes_bwm, read_bwm

PYKOTOR_MAX_FACES = 50_000
# Above this many faces the Kaitai tables are not materialised whole (2,000,000 AABB nodes as
# Python objects need gigabytes): each listed entry is parsed with Kaitai's own entry type at
# the offset Kaitai's header parse gives.
KAITAI_WHOLE_TABLE_MAX_FACES = 50_000


def f32(x):
    return struct.pack("<f", float("nan") if x is None else x)


def same_vec(a, b):
    return all(f32(x) == f32(y) for x, y in zip(a, b))


def kv(v):
    return [v.x, v.y, v.z]


def check_kaitai(data, side, errors):
    k = Bwm.from_bytes(data)
    if k.header.magic != "BWM " or k.header.version != "V1.0":
        errors.append("kaitai: magic/version")
    wp = k.walkmesh_properties
    if wp.walkmesh_type != side["type"]:
        errors.append(f"kaitai: type {wp.walkmesh_type} != {side['type']}")
    for name, ours in [
        ("position", side["position"]),
        ("relative_use_position_1", side["relative_use"][0]),
        ("relative_use_position_2", side["relative_use"][1]),
        ("absolute_use_position_1", side["absolute_use"][0]),
        ("absolute_use_position_2", side["absolute_use"][1]),
    ]:
        if not same_vec(kv(getattr(wp, name)), ours):
            errors.append(f"kaitai: {name} {kv(getattr(wp, name))} != {ours}")
    t = k.data_table_offsets
    counts = side["counts"]
    theirs = {
        "vertices": t.vertex_count,
        "faces": t.face_count,
        "aabb": t.aabb_count,
        "adjacency": t.adjacency_count,
        "edges": t.edge_count,
        "perimeters": t.perimeter_count,
    }
    for name, value in theirs.items():
        if value != counts[name]:
            errors.append(f"kaitai: {name} count {value} != {counts[name]}")
    if t.unknown != 0:
        errors.append(f"kaitai: header 0x6C = {t.unknown}")
    tables = side["tables"]
    area = side["type"] == 1

    large = counts["faces"] > KAITAI_WHOLE_TABLE_MAX_FACES

    class Entries:
        """Entry i of a table, parsed by Kaitai's type for that entry at its offset."""

        def __init__(self, offset, size, parse):
            self.offset, self.size, self.parse = offset, size, parse

        def get(self, i):
            at = self.offset + i * self.size
            return self.parse(KaitaiStream(io.BytesIO(data[at:at + self.size])))

    def rows(prop, attr, offset=None, size=None, parse=None):
        if large and offset is not None:
            return Entries(offset, size, parse)
        obj = getattr(k, prop)
        return None if obj is None else getattr(obj, attr)

    def vec(s):
        return Bwm.Vec3f(s, k, k)

    checks = {
        "vertices": (rows("vertices", "vertices", t.vertex_offset, 12, vec), lambda v, o: same_vec(kv(v), o)),
        "faces": (rows("face_indices", "faces", t.face_indices_offset, 12, lambda s: Bwm.FaceIndices(s, k, k)), lambda v, o: [v.v1_index, v.v2_index, v.v3_index] == o),
        "materials": (rows("materials", "materials", t.materials_offset, 4, lambda s: s.read_u4le()), lambda v, o: v == o),
    }
    if area:
        checks.update({
            "normals": (rows("normals", "normals", t.normals_offset, 12, vec), lambda v, o: same_vec(kv(v), o)),
            "distances": (rows("planar_distances", "distances", t.distances_offset, 4, lambda s: s.read_f4le()), lambda v, o: f32(v) == f32(o)),
            "aabb": (rows("aabb_nodes", "nodes", t.aabb_offset, 44, lambda s: Bwm.AabbNode(s, k, k)), lambda v, o: same_vec(kv(v.bounds_min), o[0]) and same_vec(kv(v.bounds_max), o[1])
                     and [v.face_index, v.unknown, v.most_significant_plane] == o[2:5]
                     and [struct.unpack("<i", struct.pack("<I", c & 0xFFFFFFFF))[0] for c in (v.left_child_index, v.right_child_index)] == o[5:7]),
            "adjacency": (rows("adjacencies", "adjacencies", t.adjacency_offset, 12, lambda s: Bwm.AdjacencyTriplet(s, k, k)), lambda v, o: [v.edge_0_adjacency, v.edge_1_adjacency, v.edge_2_adjacency] == o),
            "edges": (rows("edges", "edges", t.edge_offset, 8, lambda s: Bwm.EdgeEntry(s, k, k)), lambda v, o: [v.edge_index, v.transition] == o),
            "perimeters": (rows("perimeters", "perimeters", t.perimeter_offset, 4, lambda s: s.read_u4le()), lambda v, o: v == o),
        })
    for name, (values, same) in checks.items():
        entries = tables[name]
        if not entries:
            continue
        if values is None:
            errors.append(f"kaitai: no {name} table")
            continue
        if isinstance(values, Entries):
            get, length = values.get, counts[name]
        else:
            values = list(values)
            get, length = values.__getitem__, len(values)
        for index, ours in entries:
            theirs = get(index) if index < length else None
            if theirs is None or not same(theirs, ours):
                errors.append(f"kaitai: {name}[{index}] = {theirs} != {ours}")
                break


def check_pykotor(data, side, errors):
    b = read_bwm(data)
    wanted_type = side["type"]
    if int(getattr(b.walkmesh_type, "value", b.walkmesh_type)) != wanted_type:
        errors.append(f"pykotor: type {b.walkmesh_type} != {wanted_type}")
    tables = side["tables"]
    vertices = {i: v for i, v in tables["vertices"]}
    faces = tables["faces"]
    if len(b.faces) != side["counts"]["faces"]:
        errors.append(f"pykotor: {len(b.faces)} faces != {side['counts']['faces']}")
        return
    materials = dict(tables["materials"])
    transitions = {}
    for index, transition in (e for _, e in tables["edges"]):
        if transition != -1:
            transitions[(index // 3, index % 3)] = transition
    for i, indices in faces:
        face = b.faces[i]
        for corner, vi in zip((face.v1, face.v2, face.v3), indices):
            if not same_vec([corner.x, corner.y, corner.z], vertices[vi]):
                errors.append(f"pykotor: face {i} corner {[corner.x, corner.y, corner.z]} != {vertices[vi]}")
                return
        if face.material.value != materials[i]:
            errors.append(f"pykotor: face {i} material {face.material.value} != {materials[i]}")
            return
        for e, trans in enumerate((face.trans1, face.trans2, face.trans3)):
            ours = transitions.get((i, e))
            if (trans if trans is not None and trans != -1 else None) != ours:
                errors.append(f"pykotor: face {i} edge {e} transition {trans} != {ours}")
                return
    if wanted_type == 1:
        # PyKotor's walkable set differs from our profile's default on the disputed ids
        # (16, 20-22, 30; docs/formats/bwm.md §3(f)): compare the undisputed faces only.
        disputed = {16, 20, 21, 22, 30}
        block = side["counts"]["adjacency"]
        ours = sum(1 for i, m in tables["materials"] if i < block and m not in disputed)
        theirs = sum(1 for f in b.walkable_faces() if f.material.value not in disputed)
        if ours != theirs:
            errors.append(f"pykotor: {theirs} walkable faces != {ours} (undisputed materials)")
    for name, ours in [
        ("position", side["position"]),
        ("relative_hook1", side["relative_use"][0]),
        ("relative_hook2", side["relative_use"][1]),
        ("absolute_hook1", side["absolute_use"][0]),
        ("absolute_hook2", side["absolute_use"][1]),
    ]:
        v = getattr(b, name)
        if not same_vec([v.x, v.y, v.z], ours):
            errors.append(f"pykotor: {name} {[v.x, v.y, v.z]} != {ours}")


def time_pykotor():
    base = os.environ.get("WALKMESH_CORPORA")
    candidates = [Path(base)] if base else []
    candidates += [p / "shared" / "corpora" for p in Path.cwd().resolve().parents]
    candidates += [p / "shared" / "corpora" for p in Path(__file__).resolve().parents]
    # Largest genuine file of the shared corpus (203tell.wok is kept aside).
    for c in candidates:
        f = c / "kotor" / "k1cp" / "tslpatchdata" / "m50aa_01a.wok"
        if f.is_file():
            runs = []
            for _ in range(5):
                start = time.perf_counter()
                bytes_bwm(read_bwm(str(f)))
                runs.append(time.perf_counter() - start)
            print(f"pykotor read_bwm+bytes_bwm {f.name}: median {statistics.median(runs):.4f} s over 5 runs (min {min(runs):.4f} s)")
            return


def main():
    directory = Path(sys.argv[1])
    passed = failed = 0
    for path in sorted(directory.iterdir()):
        if path.suffix.lower() not in (".wok", ".pwk", ".dwk"):
            continue
        sidecar = path.with_name(path.name + ".json")
        errors = []
        if not sidecar.is_file():
            errors.append("no JSON sidecar")
        else:
            side = json.loads(sidecar.read_text())
            data = path.read_bytes()
            try:
                check_kaitai(data, side, errors)
            except Exception as exc:  # a reader that fails is a failed check
                errors.append(f"kaitai raised {exc!r}")
            if side["counts"]["faces"] <= PYKOTOR_MAX_FACES:
                try:
                    check_pykotor(data, side, errors)
                except Exception as exc:
                    errors.append(f"pykotor raised {exc!r}")
        if errors:
            failed += 1
            print(f"FAIL {path.name}: " + "; ".join(errors[:5]))
        else:
            passed += 1
    time_pykotor()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or passed == 0 else 0)


if __name__ == "__main__":
    main()
