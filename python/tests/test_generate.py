"""walkmesh.generate: a walkmesh from render geometry, through the library `walkmesh generate`
calls (same presets, same result, same report)."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import walkmesh
from conftest import corpus_files, need_corpora


def box(x0, y0, z0, x1, y1, z1):
    """Vertices and outward triangles of an axis-aligned box (Z up)."""
    v = [(x, y, z) for z in (z0, z1) for y in (y0, y1) for x in (x0, x1)]
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    faces = [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))]
    return v, faces


def room():
    """A 10 m floor slab (top at 0) and a 2 × 2 × 1 m table at (1..3, 1..3): 96 m² of floor a
    character reaches, 4 m² of table top it does not."""
    vertices, faces = [], []
    for part in (box(0, 0, -0.2, 10, 10, 0), box(1, 1, 0, 3, 3, 1)):
        base = len(vertices)
        vertices += part[0]
        faces += [tuple(i + base for i in f) for f in part[1]]
    return walkmesh.Mesh.from_arrays(np.array(vertices, dtype=np.float32),
                                     np.array(faces, dtype=np.uint32))


def write_obj(mesh, path):
    """The mesh as a Y-up OBJ, as Blender exports one."""
    lines = [f"v {x} {z} {-y}" for x, y, z in np.asarray(mesh.vertices, dtype=np.float64)]
    offsets, indices = mesh.polygon_offsets, mesh.polygon_indices
    for face in range(len(offsets) - 1):
        corners = indices[offsets[face]:offsets[face + 1]]
        lines.append("f " + " ".join(str(i + 1) for i in corners))
    path.write_text("\n".join(lines) + "\n")


def test_the_reachable_floor_is_kept_and_the_table_top_reported():
    mesh, report = walkmesh.generate(room(), engine="kotor", with_report=True)
    area = mesh.info()["walkable_area"]
    assert 95.0 <= area <= 96.8
    assert report["faces_written"] == len(mesh.polygon_offsets) - 1
    assert report["dropped_area"] == pytest.approx(4.0, abs=0.3)
    codes = [w["code"] for w in mesh.warnings]
    assert codes == ["generate.unreachable_dropped"]
    # Every vertex lies on the floor (z = 0): one height per point, on the render floor.
    assert np.allclose(np.asarray(mesh.vertices)[:, 2], 0.0, atol=1e-4)


def test_keep_unreachable_keeps_the_table_top():
    mesh = walkmesh.generate(room(), engine="kotor", keep_unreachable=True)
    assert mesh.info()["walkable_area"] == pytest.approx(100.0, abs=1.2)
    assert not mesh.warnings
    # The walkable faces: the floor and the kept table top, each at its render height. The
    # walls raised around the table's foot (KotOR preset) are non-walkable and stop at the
    # voxel top of the table, within a cell height (0.05 m) of its render top.
    walkable = np.asarray(mesh.walkable)
    offsets, indices = mesh.polygon_offsets, np.asarray(mesh.polygon_indices)
    corners = [i for f in np.flatnonzero(walkable) for i in indices[offsets[f]:offsets[f + 1]]]
    heights = set(np.round(np.asarray(mesh.vertices)[corners, 2], 3))
    assert heights == {0.0, 1.0}
    walls = np.flatnonzero(~walkable)
    assert len(walls) > 0
    assert set(mesh.materials[f] for f in walls) == {"NonWalk"}
    tops = np.asarray(mesh.vertices)[:, 2]
    assert tops.max() <= 1.0 + 0.05 + 1e-4


def test_a_seed_on_the_table_keeps_the_table_top_alone():
    mesh = walkmesh.generate(room(), engine="kotor", seeds=[(2.0, 2.0, 1.0)])
    assert mesh.info()["walkable_area"] == pytest.approx(4.0, abs=0.3)
    assert np.allclose(np.asarray(mesh.vertices)[:, 2], 1.0, atol=1e-4)


def test_a_file_gives_what_the_command_line_gives(tmp_path, cli):
    scene = tmp_path / "room.obj"
    write_obj(room(), scene)
    mesh, report = walkmesh.generate(str(scene), engine="kotor", with_report=True)
    out = tmp_path / "room.wok"
    printed = cli("generate", scene, "-o", out, "--engine", "kotor", "--json")
    theirs = json.loads(printed.stdout)["report"]
    assert theirs["faces_written"] == report["faces_written"]
    assert theirs["walkable_area"] == pytest.approx(report["walkable_area"], rel=1e-9)
    assert theirs["params"] == report["params"]
    written = walkmesh.read(out)
    assert written.info()["walkable_area"] == pytest.approx(mesh.info()["walkable_area"], rel=1e-4)


def test_several_inputs_are_one_scene():
    vertices, faces = box(0, 0, -0.2, 10, 10, 0)
    floor = walkmesh.Mesh.from_arrays(np.array(vertices, dtype=np.float32), np.array(faces))
    vertices, faces = box(1, 1, 0, 3, 3, 1)
    table = walkmesh.Mesh.from_arrays(np.array(vertices, dtype=np.float32), np.array(faces))
    together = walkmesh.generate([floor, table], engine="kotor")
    alone = walkmesh.generate(room(), engine="kotor")
    assert together.info()["walkable_area"] == pytest.approx(alone.info()["walkable_area"])


def test_bad_settings_name_themselves():
    with pytest.raises(ValueError, match="cell_size"):
        walkmesh.generate(room(), cell_size=-1.0)
    with pytest.raises(ValueError, match="engine"):
        walkmesh.generate(room(), engine="quake")
    with pytest.raises(ValueError, match="Marmalade"):
        walkmesh.generate(room(), default_material="Marmalade")
    with pytest.raises(TypeError):
        walkmesh.generate(42)
    with pytest.raises(walkmesh.FileNotFound):
        walkmesh.generate("/nonexistent/room.obj")


def test_a_kotor_room_model_generates_about_bioware_s_floor():
    """A kit room's model (MDL + MDX) against the room's own WOK (`kotor-models/X.mdl` pairs
    with `kotor/X.wok`): the walkable area within a tenth (the footprint bars per room are
    the Rust corpus test's, generate/tests)."""
    need_corpora()
    models = [p for p in corpus_files("mdl") if "pykotor-kits" in p.parts]
    assert models, "the shared corpora hold no kit room model"
    model = models[0]
    parts = model.parts
    at = parts.index("kotor-models")
    wok = Path(*parts[:at], "kotor", *parts[at + 1:]).with_suffix(".wok")
    assert wok.is_file(), wok
    mesh = walkmesh.generate(str(model), engine="kotor")
    theirs = walkmesh.read(wok).info()["walkable_area"]
    assert mesh.info()["walkable_area"] == pytest.approx(theirs, rel=0.1)


def test_memory_and_range_are_refused_with_the_keywords_named():
    """Issue #51: the estimate is checked against max_memory= before anything is allocated,
    and the refusals speak of the package's keywords, not the command line's flags."""
    floor = walkmesh.Mesh.from_arrays(
        np.array([(0, 0, 0), (10, 0, 0), (10, 8, 0), (0, 8, 0)], dtype=np.float32),
        np.array([(0, 1, 2), (0, 2, 3)], dtype=np.uint32))
    with pytest.raises(ValueError, match=r"needs an estimated .* max_memory=MIB"):
        walkmesh.generate(floor, engine="kotor", cell_size=0.002, max_memory=256)
    with pytest.raises(ValueError, match="cell_size"):
        walkmesh.generate(floor, engine="kotor", cell_size=1e9)
    far = walkmesh.Mesh.from_arrays(
        np.array([(0, 0, 0), (10, 0, 0), (10, 8, 0), (1e30, 0, 0), (1e30, 1, 0), (1e30, 0, 1)],
                 dtype=np.float32),
        np.array([(0, 1, 2), (3, 4, 5)], dtype=np.uint32))
    with pytest.raises(ValueError, match="out of range"):
        walkmesh.generate(far, engine="kotor")
    mesh, report = walkmesh.generate(floor, engine="kotor", max_memory=64, with_report=True)
    assert 0 < report["memory_estimate"] < 64 << 20
    assert report["params"]["max_memory_mib"] == 64


def test_the_start_floor_rule_is_reported_and_not_floor_is_a_keyword():
    """Issue #50: a grass island over a larger water plane keeps the island by the rule
    `no-water`; not_floor=[] turns the rule off."""
    water = [(-20, -20, 0), (20, -20, 0), (20, 20, 0), (-20, 20, 0)]
    island = [(-5, -5, 0.3), (5, -5, 0.3), (5, 5, 0.3), (-5, 5, 0.3)]
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        island_path = Path(folder) / "island.obj"
        lines = ["usemtl dxn_water09"] + [f"v {x} {y} {z}" for x, y, z in water] + ["f 1 2 3 4"]
        lines += ["usemtl DXN_grass01"] + [f"v {x} {y} {z}" for x, y, z in island] + ["f 5 6 7 8"]
        island_path.write_text("\n".join(lines) + "\n")
        mesh, report = walkmesh.generate(str(island_path), engine="kotor", up="z",
                                         with_report=True)
        assert report["start"]["rule"] == "no-water"
        assert 95.0 <= report["walkable_area"] <= 101.0
        mesh, report = walkmesh.generate(str(island_path), engine="kotor", up="z",
                                         not_floor=[], with_report=True)
        assert report["start"]["rule"] == "largest"
        assert report["walkable_area"] > 1000.0


SITHBASE_AREA = """beginlayout
roomcount 4
  hall_6 0 0 0
  hall_7 -13.39323 12.8971 -0.00010983102
  disassembly_1 -12.81446 -12.446607 -0.00176828
  elevator_1 12.028071 -6.823294 -0.0004098808
trackcount 0
obstaclecount 0
doorhookcount 0
donelayout
"""


def test_an_area_of_kit_rooms_placed_door_to_door_is_generated_and_linked_as_the_cli_does(
        tmp_path, cli):
    """The sithbase kit's hall_6 with three rooms placed door hook to door hook (as
    tests/tests/kit_areas.rs places them): every door becomes a transition pair both ways."""
    need_corpora()
    kit = [p for p in corpus_files("mdl") if "pykotor-kits" in p.parts and p.parent.name == "sithbase"]
    models = tmp_path / "models"
    models.mkdir()
    for name in ("hall_6", "hall_7", "disassembly_1", "elevator_1"):
        mdl = next(p for p in kit if p.stem == name)
        shutil.copy(mdl, models / mdl.name)
        shutil.copy(mdl.with_suffix(".mdx"), models / (name + ".mdx"))
    (models / "area.lyt").write_text(SITHBASE_AREA)
    report = walkmesh.area.generate(models, tmp_path / "out")
    leads = {room["room"]: room["leads_to"] for room in report["rooms"]}
    assert leads == {
        "hall_6": ["disassembly_1", "elevator_1", "hall_7"],
        "hall_7": ["hall_6"],
        "disassembly_1": ["hall_6"],
        "elevator_1": ["hall_6"],
    }
    assert report["rooms_without_model"] == []
    for room in report["rooms"]:
        # The floors end on the models' doorway lines: aligning moved them by millimetres.
        assert room["doorway"]["max_move"] < 0.01
        written = walkmesh.read(tmp_path / "out" / (room["room"] + ".wok"))
        assert written.info()["walkable_area"] == pytest.approx(room["walkable_area"], rel=1e-4)
    # The command line gives the same rooms and links.
    printed = cli("generate", models, "--out-dir", tmp_path / "cli", "--json")
    theirs = json.loads(printed.stdout)
    assert [(r["room"], r["faces"], r["leads_to"]) for r in theirs["rooms"]] == [
        (r["room"], r["faces"], r["leads_to"]) for r in report["rooms"]
    ]
    # And says the same of them: each room's lossy steps and doorway moves, by code.
    assert theirs["findings"] == report["findings"]
    moved = [f for f in report["findings"] if "[generate.doorway_aligned]" in f]
    assert len(moved) == sum(1 for r in report["rooms"] if r["doorway"]["vertices"] > 0) > 0


def test_an_area_without_models_or_with_an_output_over_an_input_is_refused(tmp_path):
    (tmp_path / "area.lyt").write_text(SITHBASE_AREA)
    with pytest.raises(walkmesh.ReadError, match="has a model"):
        walkmesh.area.generate(tmp_path, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    with pytest.raises(ValueError, match="max_climb"):
        walkmesh.area.generate(tmp_path, tmp_path / "out", max_climb=-1.0)


def crate(height=1.0):
    """A 1 × 1 m crate standing on the origin (x, y -0.5..0.5)."""
    vertices, faces = box(-0.5, -0.5, 0, 0.5, 0.5, height)
    return walkmesh.Mesh.from_arrays(np.array(vertices, dtype=np.float32),
                                     np.array(faces, dtype=np.uint32))


def test_kind_placeable_gives_the_footprint_and_use_points_the_cli_gives(tmp_path, cli):
    mesh, report = walkmesh.generate(crate(), kind="placeable", agent_radius=0.0,
                                     with_report=True)
    assert mesh.kind == "placeable"
    assert report["params"]["engine"] == "kotor"
    assert report["object"]["kind"] == "placeable"
    # Radius 0: the crate's own square, 1 m², flat on the ground, nothing walkable.
    assert report["object"]["blocked_area"] == pytest.approx(1.0, abs=0.01)
    assert mesh.info()["walkable_area"] == 0.0
    assert np.allclose(np.asarray(mesh.vertices)[:, 2], 0.0)
    # Use points 0.4 m before the front (-Y) side, a quarter of the width each way.
    hooks = {h["name"]: h["position"] for h in mesh.hooks}
    assert hooks["use1"] == pytest.approx((-0.25, -0.9, 0.0), abs=1e-4)
    assert hooks["use2"] == pytest.approx((0.25, -0.9, 0.0), abs=1e-4)
    out = tmp_path / "crate.pwk"
    mesh.write(out)
    assert walkmesh.read(out).kind == "placeable"
    scene = tmp_path / "crate.obj"
    write_obj(crate(), scene)
    theirs_out = tmp_path / "cli.pwk"
    printed = cli("generate", scene, "-o", theirs_out, "--agent-radius", "0", "--json")
    theirs = json.loads(printed.stdout)["report"]
    assert theirs["object"] == report["object"]


def test_kind_door_warns_that_the_open_states_are_not_made():
    vertices, faces = box(-1, -0.05, 0, 1, 0.05, 2.5)
    panel = walkmesh.Mesh.from_arrays(np.array(vertices, dtype=np.float32),
                                      np.array(faces, dtype=np.uint32))
    mesh = walkmesh.generate(panel, kind="door")
    assert mesh.kind == "door"
    codes = [w["code"] for w in mesh.warnings]
    assert "generate.door_open_states_not_generated" in codes


def test_an_unknown_kind_is_refused_by_name():
    with pytest.raises(ValueError, match="kind"):
        walkmesh.generate(crate(), kind="chair")
