"""Runs inside Blender (headless) with the walkmesh add-on installed:

    blender --background --factory-startup --python blender_addon_check.py -- \
        WALKMESH_CLI OUT_DIR FILE...
    WALKMESH_ADDON_MODULE=bl_ext.user_default.walkmesh_blender \
        python blender_addon_check.py -- WALKMESH_CLI OUT_DIR FILE...    # bpy from PyPI

1. Round trip: every FILE is imported with File > Import (the add-on's operator), exported
   unchanged with File > Export to the same format, and the exported bytes must equal what
   `walkmesh convert FILE ref --rebuild` writes (the same authored data with every derived
   table recomputed; byte-identical for BWM, TRX/TRN and PATH: their writers are
   deterministic and the add-on hands them the same mesh).
2. Edit: the first BWM with transitions is imported, one walkable vertex moved, one transition
   repainted (Edit Mode, the panel's Apply) and exported; `walkmesh validate` must report no
   error and the file must hold the moved vertex and the new transition.
3. Refusal: a mesh with an error is not written unless Allow Invalid is ticked.
4. Layout: two rooms meeting at an edge are written as WOKs with a LYT, imported with
   Import KotOR Layout, solved, and each shared edge must name the other room.
5. Weld default (Auto): an imported WOK keeping two regions apart on duplicated vertices
   exports unwelded; the same object as a modelled mesh is welded.
6. Apply Transition works on the first click on a plane built in Blender.
7. A walkable vertical face's mesh.steep_walkable reaches the panel, with everything
   `walkmesh validate` reports for the written file.
8. Lint: the panel's Lint button on a floor with one face turned down and a loose island
   lists both findings, and a finding's select button selects exactly its faces; with a
   render object selected beside it, a walkmesh patch lifted 0.4 m off the modelled floor is
   one model.floating and the floor lying on it none.
9. Generate from Selected: a room with a table and a block, a floor under a roof slab, and
   two floors apart started from the engine's rule, the 3D cursor and a walkmesh_start empty
   (kept and dropped as the panel shows them; the result in the `walkmesh` collection); the
   panel's preset values equal `walkmesh generate --json`'s.
10. Generate Area: three rooms of an area collection (two room collections, one room object)
   whose doorway floors end a few cm apart: one walkmesh object per room, the doorways meet,
   each room's transitions lead to its neighbours, the panel lists them, the WOKs written
   validate and the layout reads back; the written area imported by Import LYT Rooms generates
   the same rooms; a room with no floor is refused.
11. The overlay's labels (font calls, placement), the panel and File menu entries drawn into
   a layout stand-in that checks icons, properties and operators against this Blender's RNA,
   and Open Inspector.
Runs in Blender 3.4 (`blender --python`, the legacy add-on) and in the `bpy` module of 4.2 and
5.0 (`python blender_addon_check.py -- ...`, WALKMESH_ADDON_MODULE naming the extension).
Prints "blender_addon: N passed, M failed" and exits 1 on any failure.
"""

import base64
import gzip
import importlib
import json
import math
import os
import subprocess
import sys
import tempfile
import traceback
import types

import bpy  # first: with bpy as a Python module, Blender's own modules come with it
import addon_utils  # noqa: E402  (ordered after bpy, see above)
import mathutils  # noqa: E402
import numpy as np

argv = sys.argv[sys.argv.index("--") + 1:]
CLI, OUT = argv[0], argv[1]
FILES = argv[2:]
os.makedirs(OUT, exist_ok=True)

# The add-on's module: `walkmesh_blender` for the legacy zip (Blender 3.x), and
# `bl_ext.<repository>.walkmesh_blender` for the extension (Blender 4.2+), whose wheel Blender
# installed into the extensions' own site-packages.
ADDON = os.environ.get("WALKMESH_ADDON_MODULE", "walkmesh_blender")
if addon_utils.enable(ADDON, default_set=True, handle_error=None) is None:
    sys.exit(f"blender_addon: the add-on {ADDON} does not enable")
import walkmesh  # noqa: E402  (the add-on's vendored copy, or the extension's wheel)
bridge = importlib.import_module(f"{ADDON}.bridge")

results = []


def say(text):
    print(f"blender_addon: {text}", flush=True)


def record(name, ok, detail=""):
    results.append(ok)
    say(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}")


def clear_scene():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    for mesh in list(bpy.data.meshes):
        bpy.data.meshes.remove(mesh)
    for collection in list(bpy.data.collections):
        bpy.data.collections.remove(collection)


def format_of(path):
    ext = os.path.splitext(path)[1].lower()
    return {".wok": "bwm", ".pwk": "bwm", ".dwk": "bwm", ".bwm": "bwm", ".trx": "trx",
            ".trn": "trx", ".path": "path"}[ext]


def import_one(path):
    clear_scene()
    fmt = format_of(path)
    result = getattr(bpy.ops.import_scene, f"walkmesh_{fmt}")(filepath=path)
    if result != {"FINISHED"}:
        raise RuntimeError(f"import returned {result}")
    obj = bpy.context.view_layer.objects.active
    return obj, fmt


def export_one(obj, path, fmt, **options):
    bpy.context.view_layer.objects.active = obj
    obj.select_set(True)
    try:
        return getattr(bpy.ops.export_scene, f"walkmesh_{fmt}")(filepath=path, **options)
    except RuntimeError as error:  # an operator that reports an error raises in scripts
        say(f"export refused: {str(error).strip()}")
        return {"CANCELLED"}


def cli(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True)


def round_trip(path):
    name = os.path.basename(path)
    stem, ext = os.path.splitext(name)
    exported = os.path.join(OUT, f"{stem}.blender{ext}")
    reference = os.path.join(OUT, f"{stem}.rebuild{ext}")
    obj, fmt = import_one(path)
    result = export_one(obj, exported, fmt)
    if result != {"FINISHED"}:
        findings = [f"{f.code}: {f.message}" for f in bpy.context.scene.walkmesh.findings][:5]
        return record(name, False, f"export returned {result}: {findings}")
    run = cli("convert", path, reference, "--rebuild", "--quiet", "--force")
    if run.returncode != 0:
        return record(name, False, f"walkmesh convert --rebuild failed: {run.stderr.strip()}")
    with open(exported, "rb") as a, open(reference, "rb") as b:
        ours, theirs = a.read(), b.read()
    if ours == theirs:
        return record(name, True, f"{len(ours)} bytes identical to --rebuild")
    # Say what differs, through the package.
    left, right = walkmesh.read(exported), walkmesh.read(reference)
    record(name, False, f"{len(ours)} vs {len(theirs)} bytes; same authored data: {left == right}")


def edit_case(path):
    name = os.path.basename(path)
    obj, fmt = import_one(path)
    source = walkmesh.read(path)
    transitions = np.asarray(source.transitions).reshape(-1)
    mesh = obj.data
    # A walkable vertex to move, and a transition edge to repaint.
    walkable = np.asarray(source.walkable)
    faces = np.asarray(source.faces)
    tagged = np.nonzero(transitions >= 0)[0]
    if len(tagged):
        corner = int(tagged[0])
    else:
        # No transition to repaint (the repository's fixtures): paint one on the first
        # walkable boundary edge (an edge no other walkable face uses).
        keys = {}
        for f in np.nonzero(walkable)[0]:
            for e in range(3):
                key = frozenset((int(faces[f][e]), int(faces[f][(e + 1) % 3])))
                keys[key] = keys.get(key, 0) + 1
        corner = next(3 * int(f) + e for f in np.nonzero(walkable)[0] for e in range(3)
                      if keys[frozenset((int(faces[f][e]), int(faces[f][(e + 1) % 3])))] == 1)
    face, edge = divmod(corner, 3)
    a, b = int(faces[face][edge]), int(faces[face][(edge + 1) % 3])
    # A walkable vertex off the repainted edge, so that each edit is checked on its own.
    vertex = next(int(v) for f in faces[walkable] for v in f if v not in (a, b))
    old_room = int(transitions[corner])
    new_room = old_room + 1 if old_room >= 0 else 1
    expected_count = len(tagged) if old_room >= 0 else 1
    moved = np.array(mesh.vertices[vertex].co) + np.array([0.0, 0.0, 0.05])
    # The viewport overlay labels every transition edge with its room.
    overlay = importlib.import_module(f"{ADDON}.overlay")
    labels = sorted(room for _, room in overlay._labels(obj))
    overlay_ok = labels == sorted(int(transitions[c]) for c in tagged)

    bpy.ops.object.mode_set(mode="EDIT")
    import bmesh

    bm = bmesh.from_edit_mesh(mesh)
    bm.verts.ensure_lookup_table()
    bm.verts[vertex].co = moved
    for e in bm.edges:
        e.select_set(False)
    target = [e for e in bm.edges if {v.index for v in e.verts} == {a, b}]
    target[0].select_set(True)
    bmesh.update_edit_mesh(mesh)
    bpy.context.scene.walkmesh.room = new_room
    bpy.ops.walkmesh.transition_apply()
    bpy.ops.object.mode_set(mode="OBJECT")

    stem, ext = os.path.splitext(name)
    exported = os.path.join(OUT, f"{stem}.edited{ext}")
    result = export_one(obj, exported, fmt)
    problems = [] if overlay_ok else [f"overlay labels {labels}"]
    if result != {"FINISHED"}:
        problems.append(f"export returned {result}")
    else:
        run = cli("validate", exported, "--json")
        report = json.loads(run.stdout)
        if run.returncode != 0 or report.get("errors"):
            problems.append(f"validate: {[e.get('code') for e in report.get('errors', [])]}")
        back = walkmesh.read(exported)
        positions = np.asarray(back.vertices)
        if not np.any(np.all(positions == moved.astype(np.float32), axis=1)):
            problems.append("the moved vertex is not in the file")
        pa, pb = np.asarray(source.vertices)[a], np.asarray(source.vertices)[b]
        back_faces = np.asarray(back.faces)
        back_tags = np.asarray(back.transitions).reshape(-1)
        found = []
        for c in np.nonzero(back_tags >= 0)[0]:
            f, e = divmod(int(c), 3)
            qa, qb = positions[back_faces[f][e]], positions[back_faces[f][(e + 1) % 3]]
            if {tuple(qa), tuple(qb)} == {tuple(pa), tuple(pb)}:
                found.append(int(back_tags[c]))
        if found != [new_room]:
            problems.append(f"the repainted edge holds {found}, not [{new_room}]")
        if int(np.count_nonzero(back_tags >= 0)) != expected_count:
            problems.append(f"{np.count_nonzero(back_tags >= 0)} transitions, not {expected_count}")
    record(f"edit {name} (vertex {vertex} up 0.05, edge {a}-{b}: room {old_room} -> {new_room})",
           not problems, "; ".join(problems) or "validates clean with both edits")


def refusal_case():
    clear_scene()
    # A triangle that names one vertex twice. Convert drops such zero-area faces while
    # preparing the mesh (`prepare.degenerate_dropped`, counted), so the export succeeds with
    # that warning and the file validates clean. No mesh Blender can hold makes our BWM writer
    # produce an invalid file any more, so the refusal itself (errors → CANCELLED unless
    # Allow Invalid) is covered by the CLI's pipeline tests, not here.
    mesh = walkmesh.Mesh.from_arrays(
        np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], dtype=np.float32),
        np.array([[0, 1, 2], [0, 2, 2]], dtype=np.uint32),
        materials="Stone",
    )
    obj, _ = bridge.mesh_to_object(mesh, "broken", bpy.context.scene.collection)
    written = os.path.join(OUT, "broken.wok")
    if os.path.exists(written):
        os.remove(written)
    first = export_one(obj, written, "bwm", weld="off")
    codes = [f.code for f in bpy.context.scene.walkmesh.findings]
    errors = []
    if os.path.exists(written):
        errors = [f for f in walkmesh.validate(written) if f["severity"] == "error"]
    ok = first == {"FINISHED"} and os.path.exists(written) and not errors
    record("degenerate face dropped on export", bool(ok),
           f"written, validates clean; findings {sorted(set(codes))}"
           if ok else f"export {first}, findings {codes}, errors {errors}")


def layout_case():
    clear_scene()
    folder = os.path.join(OUT, "layout")
    os.makedirs(folder, exist_ok=True)
    square = np.array([[0, 0, 0], [4, 0, 0], [4, 4, 0], [0, 4, 0]], dtype=np.float32)
    tris = np.array([[0, 1, 2], [0, 2, 3]], dtype=np.uint32)
    for room, shift in (("room_a", 0.0), ("room_b", 4.0)):
        mesh = walkmesh.Mesh.from_arrays(square + [shift, 0, 0], tris, materials="Stone")
        mesh.write(os.path.join(folder, f"{room}.wok"), force=True)
    with open(os.path.join(folder, "test.lyt"), "w") as handle:
        handle.write("beginlayout\n   roomcount 2\n      room_a 0 0 0\n      room_b 4 0 0\n"
                     "   trackcount 0\n   obstaclecount 0\n   doorhookcount 0\ndonelayout\n")
    result = bpy.ops.walkmesh.import_lyt(filepath=os.path.join(folder, "test.lyt"))
    rooms = {o.name: o for o in bpy.data.objects if bridge.PROP_LYT_INDEX in o}
    bpy.context.view_layer.objects.active = rooms.get("room_a")
    solved = bpy.ops.walkmesh.solve_transitions()
    problems = []
    if result != {"FINISHED"} or solved != {"FINISHED"} or len(rooms) != 2:
        problems.append(f"import {result}, solve {solved}, {len(rooms)} rooms")
    else:
        for name, other, x in (("room_a", 1, 4.0), ("room_b", 0, 4.0)):
            out = os.path.join(folder, f"{name}.solved.wok")
            export_one(rooms[name], out, "bwm")
            back = walkmesh.read(out)
            v, f = np.asarray(back.vertices), np.asarray(back.faces)
            tags = np.asarray(back.transitions).reshape(-1)
            shared = []
            for c in np.nonzero(tags >= 0)[0]:
                face, e = divmod(int(c), 3)
                p, q = v[f[face][e]], v[f[face][(e + 1) % 3]]
                shared.append((int(tags[c]), p[0] == x and q[0] == x))
            if shared != [(other, True)]:
                problems.append(f"{name}: transitions {shared}")
    record("layout solve (two rooms sharing x = 4)", not problems, "; ".join(problems))


def info_of(path):
    info = walkmesh.read(path).info()
    return info["vertices"], info["components"], info["boundary_loops"]


def weld_default_case():
    """Two walkable squares side by side, each with its own vertices on the shared edge (as a
    game file may keep two regions apart): imported from a WOK and exported with the
    defaults, they stay 8 vertices, 2 components, 2 boundary loops (by hand); the same object
    as a modelled mesh (no walkmesh_format) is welded: 6 vertices, 1 component, 1 loop."""
    clear_scene()
    vertices = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0],
                         [1, 0, 0], [2, 0, 0], [2, 1, 0], [1, 1, 0]], dtype=np.float32)
    faces = np.array([[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]], dtype=np.uint32)
    source = os.path.join(OUT, "apart.wok")
    walkmesh.Mesh.from_arrays(vertices, faces, materials="Stone").write(
        source, weld="off", force=True)
    problems = []
    if info_of(source) != (8, 2, 2):
        problems.append(f"the source holds {info_of(source)}, not (8, 2, 2)")
    obj, fmt = import_one(source)
    game = os.path.join(OUT, "apart.blender.wok")
    if export_one(obj, game, fmt) != {"FINISHED"}:
        problems.append("the imported object did not export")
    elif info_of(game) != (8, 2, 2):
        problems.append(f"imported + exported: {info_of(game)}, not (8, 2, 2)")
    del obj[bridge.PROP_FORMAT]
    modelled = os.path.join(OUT, "apart.modelled.wok")
    if export_one(obj, modelled, fmt) != {"FINISHED"}:
        problems.append("the modelled object did not export")
    elif info_of(modelled) != (6, 1, 1):
        problems.append(f"modelled + exported: {info_of(modelled)}, not (6, 1, 1)")
    record("weld default (Auto)", not problems,
           "; ".join(problems) or "game file kept apart, modelled mesh welded")


def first_apply_case():
    """Apply Transition on a plane built in Blender (no transition attribute yet), once."""
    clear_scene()
    bpy.ops.mesh.primitive_plane_add(size=2.0)
    obj = bpy.context.view_layer.objects.active
    problems = []
    if bridge.TRANSITION_ATTR in obj.data.attributes:
        problems.append("the new plane already has the attribute")
    bpy.ops.object.mode_set(mode="EDIT")
    import bmesh

    bm = bmesh.from_edit_mesh(obj.data)
    for element in list(bm.verts) + list(bm.edges) + list(bm.faces):
        element.select_set(False)
    bm.edges.ensure_lookup_table()
    bm.edges[0].select_set(True)
    bmesh.update_edit_mesh(obj.data)
    bpy.context.scene.walkmesh.room = 3
    try:
        result = bpy.ops.walkmesh.transition_apply()
    except Exception as error:  # the bug: ReferenceError on the first click
        result = f"{type(error).__name__}: {error}"
    bpy.ops.object.mode_set(mode="OBJECT")
    if result != {"FINISHED"}:
        problems.append(f"Apply returned {result}")
    else:
        values = np.empty(len(obj.data.edges), dtype=np.int32)
        obj.data.attributes[bridge.TRANSITION_ATTR].data.foreach_get("value", values)
        seams = np.zeros(len(obj.data.edges), dtype=bool)
        obj.data.edges.foreach_get("use_seam", seams)
        expected = np.full(len(values), -1)
        expected[0] = 3
        if not np.array_equal(values, expected) or seams.tolist() != (expected >= 0).tolist():
            problems.append(f"edges hold {values.tolist()}, seams {seams.tolist()}")
    record("Apply Transition, first click on a new mesh", not problems, "; ".join(problems))


def panel_warnings_case():
    """A walkable pillar side (vertical) exported: mesh.steep_walkable reaches the panel, as
    `walkmesh validate` reports it for the file."""
    clear_scene()
    vertices = np.array([[0, 0, 0], [4, 0, 0], [4, 4, 0], [0, 4, 0],
                         [1, 1, 0], [2, 1, 0], [2, 1, 2], [1, 1, 2]], dtype=np.float32)
    faces = np.array([[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]], dtype=np.uint32)
    mesh = walkmesh.Mesh.from_arrays(vertices, faces, materials="Stone")
    obj, _ = bridge.mesh_to_object(mesh, "pillar", bpy.context.scene.collection)
    written = os.path.join(OUT, "pillar.wok")
    result = export_one(obj, written, "bwm")
    shown = {(f.severity, f.code) for f in bpy.context.scene.walkmesh.findings}
    problems = []
    if result != {"FINISHED"}:
        problems.append(f"export returned {result}")
    else:
        report = json.loads(cli("validate", written, "--json").stdout)
        theirs = {(f["severity"], f["code"]) for key in ("errors", "warnings", "findings")
                  for f in report.get(key, []) if isinstance(f, dict)}
        if ("warning", "mesh.steep_walkable") not in theirs:
            problems.append(f"walkmesh validate does not report the pillar: {sorted(theirs)}")
        if not theirs <= shown:
            problems.append(f"missing from the panel: {sorted(theirs - shown)}")
    record("mesh warnings in the panel (steep walkable pillar)", not problems,
           "; ".join(problems) or f"panel shows {sorted(c for _, c in shown)}")


def lint_case():
    """The Lint button finds a downward face (5) and an island (faces 24, 25); selecting each
    finding selects exactly its faces."""
    clear_scene()
    vertices = [[x, y, 0.0] for y in range(4) for x in range(5)]
    faces = []
    for r in range(3):
        for c in range(4):
            a = r * 5 + c
            faces += [[a, a + 1, a + 6], [a, a + 6, a + 5]]
    faces[5] = [faces[5][0], faces[5][2], faces[5][1]]
    base = len(vertices)
    vertices += [[20, 20, 1], [21, 20, 1], [21, 21, 1], [20, 21, 1]]
    faces += [[base, base + 1, base + 2], [base, base + 2, base + 3]]
    mesh = walkmesh.Mesh.from_arrays(np.array(vertices, dtype=np.float32),
                                     np.array(faces, dtype=np.uint32), materials="Stone")
    obj, _ = bridge.mesh_to_object(mesh, "lint_floor", bpy.context.scene.collection)
    bpy.context.view_layer.objects.active = obj
    obj.select_set(True)
    problems = []
    result = bpy.ops.walkmesh.lint()
    found = [(f.code, f.faces) for f in bpy.context.scene.walkmesh_lint.findings]
    expected = [("lint.downward_walkable", "5"), ("lint.island", "24,25")]
    if result != {"FINISHED"} or found != expected:
        problems.append(f"lint returned {result} with {found}, expected {expected}")
    for index, (_, faces) in enumerate(expected):
        if problems:
            break
        bpy.ops.walkmesh.lint_select(index=index)
        bpy.ops.object.mode_set(mode="OBJECT")
        selected = [p.index for p in obj.data.polygons if p.select]
        if selected != [int(f) for f in faces.split(",")]:
            problems.append(f"finding {index} selected faces {selected}, expected {faces}")
    record("lint button and finding selection", not problems, "; ".join(problems))


def lint_model_case():
    """With a render object selected beside the active walkmesh, the Lint button compares them
    (`Mesh.lint(model=...)`): a 2 x 2 m patch of the walkmesh lifted 0.4 m off the modelled
    floor is one model.floating, and the floor lying on it has no model.* finding."""
    clear_scene()
    vertices = [[x, y, 0.0] for y in range(7) for x in range(7)]
    faces = []
    for r in range(6):
        for c in range(6):
            a = r * 7 + c
            faces += [[a, a + 1, a + 8], [a, a + 8, a + 7]]
    floor = walkmesh.Mesh.from_arrays(np.array(vertices, dtype=np.float32),
                                      np.array(faces, dtype=np.uint32), materials="Stone")
    render, _ = bridge.mesh_to_object(floor, "lint_render", bpy.context.scene.collection)
    lifted = [[x, y, 0.4 if 2 <= x <= 4 and 2 <= y <= 4 else 0.0] for x, y, _ in vertices]
    mesh = walkmesh.Mesh.from_arrays(np.array(lifted, dtype=np.float32),
                                     np.array(faces, dtype=np.uint32), materials="Stone")
    problems = []
    for name, walk, expected in (("flat", floor, []), ("lifted", mesh, ["model.floating"])):
        obj, _ = bridge.mesh_to_object(walk, f"lint_walk_{name}", bpy.context.scene.collection)
        for other in bpy.context.scene.objects:
            other.select_set(other in (obj, render))
        bpy.context.view_layer.objects.active = obj
        result = bpy.ops.walkmesh.lint()
        found = [f.code for f in bpy.context.scene.walkmesh_lint.findings
                 if f.code.startswith("model.")]
        if result != {"FINISHED"} or found != expected:
            problems.append(f"{name}: lint returned {result} with {found}, expected {expected}")
    record("lint button with the selected render object as the model", not problems,
           "; ".join(problems))


def floors_at(wm, x, y):
    """Heights of the walkable faces of `wm` over the point (x, y)."""
    verts = np.asarray(wm.vertices, dtype=np.float64)
    offsets = np.asarray(wm.polygon_offsets)
    indices = np.asarray(wm.polygon_indices)
    walkable = np.asarray(wm.walkable, dtype=bool)
    heights = []
    for face in range(len(offsets) - 1):
        if not walkable[face]:
            continue
        corners = verts[indices[offsets[face]:offsets[face + 1]]]
        a = corners[0]
        for b, c in zip(corners[1:-1], corners[2:]):
            d = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])
            if abs(d) < 1e-12:
                continue
            u = ((x - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (y - a[1])) / d
            v = ((b[0] - a[0]) * (y - a[1]) - (x - a[0]) * (b[1] - a[1])) / d
            if u >= -1e-6 and v >= -1e-6 and u + v <= 1 + 1e-6:
                heights.append(a[2] + u * (b[2] - a[2]) + v * (c[2] - a[2]))
    return heights


def generate_case():
    """Generate from Selected on a modelled room: a 10 m floor named Wood_floor, a table (a
    cube scaled to 2 × 2 × 1 m: its top is out of reach, the floor under it has no room), and
    a low block turned 45° and scaled (its top, 0.2 m up, is within the KotOR preset's 0.25 m climb). The new object
    must hold the reachable floor only, on the floor's height, with a Wood surface, lint clean
    of the defects a writer must never make, and export to a WOK that validates."""
    clear_scene()
    bpy.ops.mesh.primitive_plane_add(size=10, location=(0, 0, 0))
    floor = bpy.context.active_object
    wood = bpy.data.materials.new("Wood_floor")
    floor.data.materials.append(wood)
    bpy.ops.mesh.primitive_cube_add(size=2, location=(2.5, 2.5, 0.5))
    table = bpy.context.active_object
    table.scale = (1, 1, 0.5)
    bpy.ops.mesh.primitive_cube_add(size=2, location=(-2.5, -2.5, 0.1))
    block = bpy.context.active_object
    block.scale = (0.8, 0.5, 0.1)
    block.rotation_euler = (0, 0, math.radians(45))
    for obj in (floor, table, block):
        obj.select_set(True)
    bpy.context.view_layer.update()
    problems = []
    result = bpy.ops.walkmesh.generate(engine="kotor")
    made = bpy.context.active_object
    if result != {"FINISHED"} or made in (floor, table, block):
        record("generate from selected objects", False, f"operator returned {result}")
        return
    wm, _ = bridge.object_to_walkmesh(made, walkmesh, depsgraph=None, apply_modifiers=False)
    area = wm.info()["walkable_area"]
    if not 94.0 <= area <= 97.5:  # 100 m² less the table's 4 m², within the cells' width
        problems.append(f"walkable area {area:.2f} m², expected about 96")
    checks = {
        "open floor (-3, 3)": ((-3.0, 3.0), [0.0]),
        "block top (-2.5, -2.5)": ((-2.5, -2.5), [0.2]),
        "under the table (2.5, 2.5)": ((2.5, 2.5), []),
    }
    for label, ((x, y), expected) in checks.items():
        found = floors_at(wm, x, y)
        if len(found) != len(expected) or any(abs(f - e) > 0.02 for f, e in zip(found, expected)):
            problems.append(f"{label}: walkable heights {found}, expected {expected}")
    materials = set(wm.materials)
    if "Wood" not in materials:
        problems.append(f"no Wood surface from the floor's Wood_floor material: {materials}")
    bad = [f["code"] for f in wm.lint(engine="kotor") if f["code"] in (
        "lint.downward_walkable", "lint.degenerate", "lint.overlap", "lint.t_junction")]
    if bad:
        problems.append(f"lint findings a generated walkmesh must not have: {sorted(set(bad))}")
    out = os.path.join(OUT, "generated.wok")
    exported = export_one(made, out, "bwm")
    verdict = cli("validate", out)
    if verdict.returncode != 0:
        problems.append(f"the exported WOK does not validate ({exported}): {verdict.stdout}")
    record("generate from selected objects", not problems,
           "; ".join(problems) or f"{len(wm.materials)} faces, {area:.2f} m² walkable")


def generate_placeable_case():
    """Generate from Selected with Kind Placeable (issue 49): a 1 m cube standing on its
    object's origin, the object moved to (3, 0, 0). The walkmesh is in the object's own space
    (a PWK is in the model's coordinates): the preset's 0.25 m around the cube, x and y within
    -0.75..0.75 (not around x = 3), every face non-walkable and flat at the origin's height,
    two use points in front (-Y), exported as a PWK that validates."""
    clear_scene()
    bpy.ops.mesh.primitive_cube_add(size=1, location=(3, 0, 0))
    cube = bpy.context.active_object
    cube.data.transform(mathutils.Matrix.Translation((0, 0, 0.5)))
    cube.select_set(True)
    bpy.context.view_layer.update()
    problems = []
    result = bpy.ops.walkmesh.generate(kind="placeable")
    made = bpy.context.active_object
    if result != {"FINISHED"} or made is cube:
        record("generate a placeable walkmesh", False, f"operator returned {result}")
        return
    wm, _ = bridge.object_to_walkmesh(made, walkmesh, depsgraph=None, apply_modifiers=False)
    verts = np.asarray(wm.vertices, dtype=np.float64)
    if wm.kind != "placeable":
        problems.append(f"kind {wm.kind}, expected placeable")
    for axis, name in ((0, "x"), (1, "y")):
        lo, hi = verts[:, axis].min(), verts[:, axis].max()
        if abs(lo + 0.75) > 0.05 or abs(hi - 0.75) > 0.05:
            problems.append(f"{name} {lo:.3f}..{hi:.3f}, expected -0.75..0.75 to 5 cm")
    if np.abs(verts[:, 2]).max() > 1e-4:
        problems.append("faces not flat at the origin's height")
    if np.asarray(wm.walkable, dtype=bool).any():
        problems.append("a walkable face on a crate")
    hooks = {h["name"]: h["position"] for h in wm.hooks}
    if sorted(hooks) != ["use1", "use2"] or any(p[1] > -0.75 for p in hooks.values()):
        problems.append(f"use points {hooks}, expected use1/use2 in front (y < -0.75)")
    shown = bpy.context.scene.walkmesh_generate.result
    if shown.kind != "placeable" or abs(shown.blocked_area - 2.19) > 0.1:
        problems.append(f"panel result {shown.kind} {shown.blocked_area:.2f} m²")
    out = os.path.join(OUT, "generated.pwk")
    exported = export_one(made, out, "bwm")
    verdict = cli("validate", out)
    if verdict.returncode != 0:
        problems.append(f"the exported PWK does not validate ({exported}): {verdict.stdout}")
    elif walkmesh.read(out).kind != "placeable":
        problems.append("the exported file does not read back as a placeable")
    record("generate a placeable walkmesh", not problems,
           "; ".join(problems) or f"{len(verts)} vertices, use points {hooks}")


def roof_case():
    """Generate from Selected under a roof slab (issue 50): a 10 m floor and an 11 × 11 m slab
    0.3 m thick 3 m over it. The slab's top is the largest walkable piece, but it is open to
    the sky and the floor is under cover: the floor is kept, on its own height."""
    clear_scene()
    bpy.ops.mesh.primitive_plane_add(size=10, location=(0, 0, 0))
    floor = bpy.context.active_object
    bpy.ops.mesh.primitive_cube_add(size=2, location=(0, 0, 3.15))
    roof = bpy.context.active_object
    roof.scale = (5.5, 5.5, 0.15)
    for obj in (floor, roof):
        obj.select_set(True)
    bpy.context.view_layer.update()
    result = bpy.ops.walkmesh.generate(engine="kotor")
    made = bpy.context.active_object
    if result != {"FINISHED"} or made in (floor, roof):
        record("generate under a roof keeps the floor", False, f"operator returned {result}")
        return
    wm, _ = bridge.object_to_walkmesh(made, walkmesh, depsgraph=None, apply_modifiers=False)
    area = wm.info()["walkable_area"]
    # A point off both diagonals of the floor's quad (on one, both triangles hold it).
    found = floors_at(wm, 1.5, -2.5)
    ok = 97.0 <= area <= 100.5 and len(found) == 1 and abs(found[0]) < 0.02
    record("generate under a roof keeps the floor", ok,
           f"{area:.2f} m² walkable, heights at (1.5, -2.5): {found}")


def generate_start_case():
    """Two floors apart: a 10 m square at the origin and a 2 m square centred on (20, 0). By
    the engine's rule the larger is kept and the small one dropped (100 and 4 m², by hand);
    from the 3D cursor or a selected empty named walkmesh_start at (20, 0) the small one is
    kept and the large one dropped. Each result lands in the `walkmesh` collection, and the
    panel's result box says what was kept and dropped."""
    clear_scene()
    bpy.ops.mesh.primitive_plane_add(size=10, location=(0, 0, 0))
    big = bpy.context.active_object
    bpy.ops.mesh.primitive_plane_add(size=2, location=(20, 0, 0))
    small = bpy.context.active_object
    bpy.ops.object.empty_add(location=(20, 0, 0))
    empty = bpy.context.active_object
    empty.name = "walkmesh_start"
    problems = []

    def run(label, start, with_empty, kept, dropped):
        for obj in bpy.context.view_layer.objects:
            obj.select_set(obj in (big, small) or (with_empty and obj is empty))
        result = bpy.ops.walkmesh.generate(engine="kotor", start=start)
        made = bpy.context.active_object
        shown = bpy.context.scene.walkmesh_generate.result
        if result != {"FINISHED"} or made in (big, small, empty):
            problems.append(f"{label}: operator returned {result}")
            return
        area = sum(p.area for p in made.data.polygons)
        collections = [c.name for c in made.users_collection]
        if abs(area - kept) > 0.05 * kept:
            problems.append(f"{label}: {area:.2f} m² kept, expected {kept}")
        off = abs(shown.dropped_area - dropped) > 0.05 * dropped
        if (shown.kept, shown.dropped) != (1, 1) or off:
            problems.append(f"{label}: panel says kept {shown.kept}, dropped {shown.dropped} "
                            f"({shown.dropped_area:.2f} m²), expected 1 and 1 ({dropped} m²)")
        if collections != ["walkmesh"]:
            problems.append(f"{label}: the result is in {collections}, not ['walkmesh']")

    run("engine's rule", "AUTO", False, 100.0, 4.0)
    bpy.context.scene.cursor.location = (20.0, 0.0, 0.0)
    run("3D cursor", "CURSOR", False, 4.0, 100.0)
    bpy.context.scene.cursor.location = (0.0, 0.0, 0.0)
    run("walkmesh_start empty", "AUTO", True, 4.0, 100.0)
    record("generate: start at the rule, the 3D cursor, a walkmesh_start empty; own collection",
           not problems, "; ".join(problems))


def generate_panel_case():
    """The Generate section shows each engine preset's agent as `walkmesh generate --json`
    reports it (the CLI's own preset), and ticking Override Agent starts the sizes there."""
    clear_scene()
    bpy.ops.mesh.primitive_plane_add(size=4)
    obj_file = os.path.join(OUT, "preset_floor.obj")
    with open(obj_file, "w") as handle:
        handle.write("v 0 0 0\nv 4 0 0\nv 4 0 -4\nv 0 0 -4\nf 1 2 3 4\n")
    settings = bpy.context.scene.walkmesh_generate
    problems = []
    keys = (("agent_height", "Height", " m"), ("agent_radius", "Radius", " m"),
            ("max_climb", "Climb", " m"), ("max_slope", "Slope", "°"),
            ("min_passage_width", "Passage Width", " m"))
    for engine in ("kotor", "nwn2"):
        run = cli("generate", obj_file, "-o", os.path.join(OUT, f"preset_{engine}.obj"),
                  "--engine", engine, "--json", "--force")
        if run.returncode != 0:
            problems.append(f"walkmesh generate --engine {engine}: {run.stderr.strip()}")
            continue
        params = json.loads(run.stdout)["report"]["params"]
        settings.use_agent = False
        settings.engine = engine
        log = []
        bpy.types.WALKMESH_PT_main.draw(types.SimpleNamespace(layout=Recorder(log)), bpy.context)
        labels = {entry[1] for entry in log if entry[0] == "label"}
        for key, label, unit in keys:
            expected = f"{label}: {params[key]:g}{unit} (preset)"
            if expected not in labels:
                problems.append(f"{engine}: no label {expected!r}")
        settings.use_agent = True
        filled = {key: round(getattr(settings, key), 4) for key, _, _ in keys}
        if filled != {key: round(params[key], 4) for key, _, _ in keys}:
            problems.append(f"{engine}: Override Agent starts at {filled}, the preset is {params}")
    settings.use_agent = False
    record("generate panel shows the CLI's presets", not problems, "; ".join(problems))


def move_to(obj, collection):
    for other in list(obj.users_collection):
        other.objects.unlink(obj)
    collection.objects.link(obj)


def plane(location, scale, collection):
    bpy.ops.mesh.primitive_plane_add(size=2, location=location)
    obj = bpy.context.active_object
    obj.scale = scale
    move_to(obj, collection)
    return obj


def doorway(a, b, axis, line):
    """Positions (rounded to 0.1 mm) of `a`'s and `b`'s vertices within 0.3 m of the line
    where their floors meet (`axis` 0: x = line, 1: y = line), and both rooms' extreme
    coordinate on that axis towards it."""
    near = []
    for wm in (a, b):
        v = np.asarray(wm.vertices, dtype=np.float64)
        near.append({tuple(np.round(p, 4)) for p in v[np.abs(v[:, axis] - line) < 0.3]})
    edge_a = np.asarray(a.vertices, dtype=np.float64)[:, axis].max()
    edge_b = np.asarray(b.vertices, dtype=np.float64)[:, axis].min()
    return near[0] & near[1], edge_a, edge_b


def generate_area_case():
    """Generate Area on three rooms of an area collection m99aa, built as a modder builds
    them: room_a a collection (a 10 × 6 m floor and a low block, placed by the collection's
    instance offset), room_b a plane object east of it whose floor starts 4 cm past room_a's,
    room_c a collection east of room_b starting 3 cm past its floor (in a row: a floor corner
    shared by two doorways is left unaligned by the library, see generate/src/doorways.rs). Each room must get a
    walkmesh object in the walkmesh collection; the doorway floor edges must meet (the same
    points on both sides); each room's transitions must lead to its neighbours; the panel
    lists every room; the room WOKs written must validate and the layout read back."""
    clear_scene()
    area = bpy.data.collections.new("m99aa")
    bpy.context.scene.collection.children.link(area)
    rooms = {}
    for name, offset in (("room_a", (5.0, 3.0, 0.0)), ("room_c", (25.0, 3.0, 0.0))):
        rooms[name] = bpy.data.collections.new(name)
        rooms[name].instance_offset = offset
        area.children.link(rooms[name])
    plane((5.0, 3.0, 0.0), (5.0, 3.0, 1.0), rooms["room_a"])
    bpy.ops.mesh.primitive_cube_add(size=1, location=(3.0, 3.0, 0.05))
    block = bpy.context.active_object
    block.scale = (1.0, 1.0, 0.1)
    move_to(block, rooms["room_a"])
    plane((25.015, 3.0, 0.0), (4.985, 3.0, 1.0), rooms["room_c"])
    room_b = plane((15.02, 3.0, 0.0), (4.98, 3.0, 1.0), area)
    room_b.name = "room_b"
    bpy.context.view_layer.update()
    folder = os.path.join(OUT, "area")
    problems = []
    result = bpy.ops.walkmesh.generate_area(collection=area.name, directory=folder)
    if result != {"FINISHED"}:
        record("generate area", False, f"operator returned {result}")
        return
    made = bpy.data.collections.get("m99aa walkmesh")
    if made is None or made.name not in bpy.data.collections["walkmesh"].children:
        record("generate area", False, "no m99aa walkmesh collection in the walkmesh collection")
        return
    objects = {o.name: o for o in made.objects}
    if sorted(objects) != ["room_a.wok", "room_b.wok", "room_c.wok"]:
        problems.append(f"room objects {sorted(objects)}")
    # The layout order: the area's collections, then its objects.
    index = {"room_a": 0, "room_c": 1, "room_b": 2}
    meshes = {}
    for room, lyt_index in index.items():
        obj = objects.get(f"{room}.wok")
        if obj is None:
            continue
        if obj.get(bridge.PROP_LYT_INDEX) != lyt_index:
            problems.append(f"{obj.name}: LYT index {obj.get(bridge.PROP_LYT_INDEX)}")
        meshes[room], _ = bridge.object_to_walkmesh(obj, walkmesh, depsgraph=None,
                                                    apply_modifiers=False)
    if len(meshes) == 3:
        for a, b, axis, line in (("room_a", "room_b", 0, 10.0), ("room_b", "room_c", 0, 20.0)):
            shared, edge_a, edge_b = doorway(meshes[a], meshes[b], axis, line)
            if abs(edge_a - edge_b) > 1e-4 or len(shared) < 2:
                problems.append(f"{a}/{b} doorway: edges at {edge_a:.4f} and {edge_b:.4f}, "
                                f"{len(shared)} shared point(s)")
        expected = {"room_a": [2], "room_b": [0, 1], "room_c": [2]}
        for room, wm in meshes.items():
            leads = sorted({int(t) for t in np.asarray(wm.transitions).ravel() if t >= 0})
            if leads != expected[room]:
                problems.append(f"{room} leads to {leads}, expected {expected[room]}")
    shown = bpy.context.scene.walkmesh_area.rooms
    lines = {r.room: r.leads_to for r in shown}
    if lines != {"room_a": "room_b", "room_b": "room_a, room_c", "room_c": "room_b"}:
        problems.append(f"the panel's rooms: {lines}")
    if not any(r.doorway_vertices for r in shown):
        problems.append("no doorway vertex moved, the floors were 3-4 cm apart")
    # The panel draws each room's line (against this Blender's RNA, by the Recorder).
    log = []
    bpy.types.WALKMESH_PT_main.draw(types.SimpleNamespace(layout=Recorder(log)), bpy.context)
    labels = [entry[1] for entry in log if entry[0] == "label"]
    drawn = [t for t in labels if t.startswith("room_") and "faces" in t and "→" in t]
    if len(drawn) != 3 or not all("moved ≤" in t for t in drawn):
        problems.append(f"the panel's room lines: {drawn}")
    for room in index:
        path = os.path.join(folder, f"{room}.wok")
        verdict = cli("validate", path)
        if verdict.returncode != 0:
            problems.append(f"{room}.wok does not validate: {verdict.stdout}{verdict.stderr}")
    layout_file = os.path.join(folder, "m99aa.lyt")
    if os.path.isfile(layout_file):
        written = [r["name"] for r in walkmesh.area.read_lyt(layout_file)["rooms"]]
        if written != ["room_a", "room_c", "room_b"]:
            problems.append(f"the written layout's rooms: {written}")
    else:
        problems.append("no m99aa.lyt written")
    # Run again without a folder: the room objects are replaced, not added to.
    again = bpy.ops.walkmesh.generate_area(collection=area.name)
    if again != {"FINISHED"} or len(made.objects) != 3:
        problems.append(f"a second run returned {again} with {len(made.objects)} object(s)")
    # The written area imported by Import LYT Rooms is an area too: its rooms are named and
    # placed by the layout (which is not written again).
    if bpy.ops.walkmesh.import_lyt(filepath=layout_file) == {"FINISHED"}:
        imported = next(c for c in bpy.data.collections
                        if c.get("walkmesh_lyt") == layout_file)
        result = bpy.ops.walkmesh.generate_area(collection=imported.name)
        remade = bpy.data.collections.get(f"{imported.name} walkmesh")
        leads = {r.room: r.leads_to for r in bpy.context.scene.walkmesh_area.rooms}
        if result != {"FINISHED"} or remade is None or leads != lines:
            problems.append(f"from the imported layout: {result}, rooms {leads}")
    else:
        problems.append("Import LYT Rooms refused the written layout")
    record("generate area: rooms, doorways met, transitions, panel, written WOKs", not problems,
           "; ".join(problems) or "; ".join(
               f"{r.room}: {r.faces} faces → {r.leads_to}" for r in shown))


def generate_area_refusal_case():
    """A room with no floor is refused with the library's message, and nothing is made."""
    clear_scene()
    area = bpy.data.collections.new("m98aa")
    bpy.context.scene.collection.children.link(area)
    plane((5.0, 3.0, 0.0), (5.0, 3.0, 1.0), area).name = "room_a"
    wall = plane((20.0, 0.0, 1.0), (2.0, 1.0, 1.0), area)
    wall.name = "room_w"
    wall.rotation_euler = (math.radians(90), 0, 0)
    bpy.context.view_layer.update()
    try:
        result = bpy.ops.walkmesh.generate_area(collection=area.name)
        message = ""
    except RuntimeError as error:  # an operator that reports an error raises in scripts
        result, message = {"CANCELLED"}, str(error)
    made = bpy.data.collections.get("m98aa walkmesh")
    ok = result == {"CANCELLED"} and "room_w" in message and (made is None or not made.objects)
    record("generate area refuses a room without floor", ok, f"{result}: {message.strip()}")


def overlay_case():
    """The viewport overlay's labels: a transition edge (0,0,0)-(1,0,0) to room 7 on an object
    moved to (0.2, 0.1, 0) is labelled "7" at its world midpoint (0.7, 0.1, 0), which an
    identity projection in a 200 × 100 region puts at pixel (100 + 100·0.7, 50 + 50·0.1)
    = (170, 55). The font calls run too (blf.size lost its DPI argument in Blender 4.0)."""
    clear_scene()
    overlay = importlib.import_module(f"{ADDON}.overlay")
    transitions = np.array([[7, -1, -1], [-1, -1, -1]], dtype=np.int32)
    mesh = walkmesh.Mesh.from_arrays(
        np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], dtype=np.float32),
        np.array([[0, 1, 2], [0, 2, 3]], dtype=np.uint32), materials="Stone",
        transitions=transitions)
    obj, _ = bridge.mesh_to_object(mesh, "overlay", bpy.context.scene.collection)
    obj.location = (0.2, 0.1, 0.0)
    bpy.context.view_layer.update()
    overlay.set_font()
    region = types.SimpleNamespace(width=200, height=100)
    view = types.SimpleNamespace(perspective_matrix=mathutils.Matrix.Identity(4))
    context = types.SimpleNamespace(selected_objects=[obj])
    placed = [(round(x, 3), round(y, 3), text)
              for x, y, text in overlay.screen_labels(context, region, view)]
    record("overlay labels (font, position, room)", placed == [(170.0, 55.0, "7")],
           f"labels {placed}, expected [(170.0, 55.0, '7')]")


class Recorder:
    """Stands in for a UILayout (no window here, so panels are never drawn): records what a
    draw function asks for and checks it against Blender's own RNA, the way drawing would
    fail: an icon name Blender does not have, a property the data does not have, an operator
    that is not registered, or an operator property it does not have."""

    ICONS = set(bpy.types.UILayout.bl_rna.functions["label"].parameters["icon"].enum_items.keys())

    def __init__(self, log):
        self.log = log

    def _icon(self, icon):
        if icon is not None and icon not in self.ICONS:
            raise ValueError(f"no icon {icon!r} in this Blender")

    def column(self, **_):
        return Recorder(self.log)

    row = column

    def box(self):
        return Recorder(self.log)

    def label(self, text="", icon=None, **_):
        self._icon(icon)
        self.log.append(("label", text))

    def prop(self, data, name, icon=None, **_):
        self._icon(icon)
        if name not in data.bl_rna.properties:
            raise ValueError(f"{data} has no property {name!r}")
        self.log.append(("prop", name))

    def operator(self, idname, text="", icon=None, **_):
        self._icon(icon)
        category, name = idname.split(".")
        cls = getattr(bpy.types, f"{category.upper()}_OT_{name}", None)
        if cls is None:
            raise ValueError(f"operator {idname} is not registered")
        self.log.append(("operator", idname))
        rna = getattr(getattr(bpy.ops, category), name).get_rna_type()
        return OperatorProperties(rna, self.log, idname)


class OperatorProperties:
    """The button's operator properties (`button.index = 3`): only properties it has."""

    def __init__(self, rna, log, idname):
        object.__setattr__(self, "_rna", rna)
        object.__setattr__(self, "_log", log)
        object.__setattr__(self, "_idname", idname)

    def __setattr__(self, name, value):
        if name not in self._rna.properties:
            raise ValueError(f"{self._idname} has no property {name!r}")
        self._log.append(("set", self._idname, name, value))


def panel_case():
    """The Walkmesh panel and the File menu entries, drawn into a Recorder after an export with
    findings and a lint with two findings: every label, property, operator and icon exists in
    this Blender, the lint findings get one select button each (index 0 and 1), and the menus
    offer every format's importer and exporter."""
    clear_scene()
    vertices = np.array([[0, 0, 0], [4, 0, 0], [4, 4, 0], [0, 4, 0],
                         [1, 1, 0], [2, 1, 0], [2, 1, 2], [1, 1, 2]], dtype=np.float32)
    faces = np.array([[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]], dtype=np.uint32)
    mesh = walkmesh.Mesh.from_arrays(vertices, faces, materials="Stone")
    obj, _ = bridge.mesh_to_object(mesh, "panel", bpy.context.scene.collection)
    obj[bridge.PROP_LYT_INDEX] = 2
    export_one(obj, os.path.join(OUT, "panel.wok"), "bwm")
    # Two lint findings (a steep walkable pair and what else the pillar gives) to list.
    bpy.ops.walkmesh.lint()
    findings = len(bpy.context.scene.walkmesh_lint.findings)
    log = []
    panel = types.SimpleNamespace(layout=Recorder(log))
    bpy.types.WALKMESH_PT_main.draw(panel, bpy.context)
    menus = []
    for module, function in (("io_ops", "_menu_import"), ("io_ops", "_menu_export"),
                             ("lyt", "_menu_import")):
        menu = types.SimpleNamespace(layout=Recorder(menus))
        getattr(importlib.import_module(f"{ADDON}.{module}"), function)(menu, bpy.context)
    problems = []
    selects = [entry[3] for entry in log if entry[:3] == ("set", "walkmesh.lint_select", "index")]
    if findings == 0 or selects != list(range(min(findings, 40))):
        problems.append(f"{findings} lint findings, select buttons for {selects}")
    labels = [entry[1] for entry in log if entry[0] == "label"]
    for expected in ("LYT room 2", "Last export: written", "panel.wok"):
        if expected not in labels:
            problems.append(f"no label {expected!r}")
    operators = {entry[1] for entry in menus if entry[0] == "operator"}
    wanted = {f"{kind}_scene.walkmesh_{fmt}" for kind in ("import", "export")
              for fmt in ("bwm", "trx", "path")} | {"walkmesh.import_lyt"}
    if not wanted <= operators:
        problems.append(f"menus lack {sorted(wanted - operators)}")
    record("panel and menus draw with this Blender's icons, properties and operators",
           not problems, "; ".join(problems) or f"{len(log)} panel items, {len(menus)} menu items")


for file in FILES:
    try:
        round_trip(file)
    except Exception:
        record(os.path.basename(file), False, traceback.format_exc(limit=3))
BWM_FILES = [f for f in FILES if format_of(f) == "bwm"]
WITH_TRANSITIONS = [f for f in BWM_FILES if (np.asarray(walkmesh.read(f).transitions) >= 0).any()]
for case in (lambda: edit_case((WITH_TRANSITIONS or BWM_FILES)[0]),
             refusal_case, layout_case, weld_default_case, first_apply_case,
             panel_warnings_case, lint_case, lint_model_case, generate_case,
             generate_placeable_case, roof_case, overlay_case,
             panel_case, generate_start_case, generate_panel_case, generate_area_case,
             generate_area_refusal_case):
    try:
        case()
    except Exception:
        record("case", False, traceback.format_exc(limit=4))


def inspector_case(path):
    """Open Inspector on an imported mesh: the page is written (not opened: no browser here),
    self-contained, and holds the mesh's faces."""
    obj, _ = import_one(path)
    bpy.context.view_layer.objects.active = obj
    page = os.path.join(tempfile.mkdtemp(prefix="walkmesh-inspector-"), "view.html")
    result = bpy.ops.walkmesh.open_inspector(filepath=page, open_browser=False)
    problems = []
    if result != {"FINISHED"}:
        problems.append(f"operator returned {result}")
    if not os.path.isfile(page):
        problems.append("no page written")
    else:
        text = open(page, encoding="utf-8").read()
        if "http://" in text or "https://" in text:
            problems.append("the page refers to the network")
        marker = 'data-encoding="gzip+base64">'
        start = text.index(marker) + len(marker)
        packed = base64.b64decode(text[start:text.index("</script>", start)])
        data = json.loads(gzip.decompress(packed))
        faces = data["meshes"][0]["faces"]
        expected = walkmesh.read(path).face_count
        if faces != expected:
            problems.append(f"{faces} faces in the page, {expected} in the file")
        if 'id="walkmesh-selection"' not in text:
            problems.append("no selection panel")
    record(f"Open Inspector on {os.path.basename(path)}", not problems, "; ".join(problems))


try:
    inspector_case(BWM_FILES[0] if BWM_FILES else FILES[0])
except Exception:
    record("Open Inspector", False, traceback.format_exc(limit=4))

passed = sum(results)
failed = len(results) - passed
say(f"{passed} passed, {failed} failed")
sys.exit(1 if failed or passed == 0 else 0)
