"""walkmesh.area.generate_meshes: a KotOR area generated from render geometry in memory (the
Blender add-on's Generate Area), through the flow walkmesh.area.generate runs."""

import numpy as np
import pytest

import walkmesh

GAP = 0.04  # the two rooms' floor slabs end this far apart across their doorway


def slab(x0, x1):
    """A 6 m deep floor slab from x0 to x1 (top at 0), in area coordinates."""
    v = [(x, y, z) for z in (-0.2, 0.0) for y in (0.0, 6.0) for x in (x0, x1)]
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    faces = [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))]
    return walkmesh.Mesh.from_arrays(np.array(v, dtype=np.float32), np.array(faces, dtype=np.uint32))


def two_rooms():
    """Room a (x 0..10) and room b (x 10.04..20), placed at their centres."""
    return [("room_a", slab(0.0, 10.0), (5.0, 3.0, 0.0)),
            ("room_b", slab(10.0 + GAP, 20.0), (15.0, 3.0, 0.0))]


def doorway_points(mesh, x):
    """(x, y) of the walkable faces' vertices within 0.3 m of the doorway line x, rounded."""
    vertices = np.asarray(mesh.vertices, dtype=np.float64)
    near = vertices[np.abs(vertices[:, 0] - x) < 0.3]
    return {(round(px, 4), round(py, 4)) for px, py, _ in near}


def leads_to(mesh):
    return sorted({int(t) for t in np.asarray(mesh.transitions).ravel() if t >= 0})


def test_doorway_floors_a_few_cm_apart_meet_and_lead_to_each_other(tmp_path):
    report = walkmesh.area.generate_meshes(two_rooms(), out_dir=tmp_path / "out", lyt_name="m99aa")
    rooms = {room["room"]: room for room in report["rooms"]}
    assert sorted(rooms) == ["room_a", "room_b"]
    a, b = rooms["room_a"]["mesh"], rooms["room_b"]["mesh"]
    # In area coordinates, as KotOR stores room WOKs: the placement was undone and redone.
    assert np.asarray(a.vertices)[:, 0].max() < 10.5 and np.asarray(b.vertices)[:, 0].min() > 9.5
    # The doorway edges were moved onto one line: both rooms' points there are the same.
    line_a = np.asarray(a.vertices, dtype=np.float64)[:, 0].max()
    line_b = np.asarray(b.vertices, dtype=np.float64)[:, 0].min()
    assert line_a == pytest.approx(line_b, abs=1e-4)
    shared = doorway_points(a, line_a) & doorway_points(b, line_b)
    assert len(shared) >= 2, (doorway_points(a, line_a), doorway_points(b, line_b))
    assert rooms["room_a"]["doorway"]["vertices"] + rooms["room_b"]["doorway"]["vertices"] > 0
    # Each room leads to the other (layout indices 1 and 0), in memory and in the files.
    assert rooms["room_a"]["leads_to"] == ["room_b"] and rooms["room_b"]["leads_to"] == ["room_a"]
    assert leads_to(a) == [1] and leads_to(b) == [0]
    for name, index in (("room_a", 1), ("room_b", 0)):
        written = walkmesh.read(tmp_path / "out" / f"{name}.wok")
        assert leads_to(written) == [index]
        findings = walkmesh.validate(tmp_path / "out" / f"{name}.wok")
        assert not [f for f in findings if f["severity"] == "error"], findings
    # The layout made from the positions is written beside them and reads back.
    layout = walkmesh.area.read_lyt(tmp_path / "out" / "m99aa.lyt")
    assert [(r["name"], r["position"]) for r in layout["rooms"]] == [
        ("room_a", [5.0, 3.0, 0.0]), ("room_b", [15.0, 3.0, 0.0])]
    assert report["lyt"].startswith("beginlayout")


def test_a_layout_file_places_the_rooms_and_is_not_overwritten(tmp_path):
    lyt = tmp_path / "m99aa.lyt"
    made = walkmesh.area.generate_meshes(two_rooms())
    lyt.write_bytes(made["lyt"].encode())
    rooms = [(name, mesh) for name, mesh, _ in two_rooms()]
    report = walkmesh.area.generate_meshes(rooms, lyt=lyt, out_dir=tmp_path)
    assert [r["leads_to"] for r in report["rooms"]] == [["room_b"], ["room_a"]]
    assert lyt.read_bytes() == made["lyt"].encode()
    # The layout file is the input: no layout is written beside the rooms.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m99aa.lyt", "room_a.wok", "room_b.wok"]


def test_a_room_without_floor_writes_nothing(tmp_path):
    wall = walkmesh.Mesh.from_arrays(
        np.array([(30, 0, 0), (36, 0, 0), (36, 0, 3), (30, 0, 3)], dtype=np.float32),
        np.array([(0, 1, 2), (0, 2, 3)], dtype=np.uint32))
    rooms = two_rooms() + [("room_c", wall, (33.0, 0.0, 0.0))]
    with pytest.raises(walkmesh.WriteError, match="room_c"):
        walkmesh.area.generate_meshes(rooms, out_dir=tmp_path / "out", lyt_name="m99aa")
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="not a folder"):
        walkmesh.area.generate_meshes(two_rooms(), out_dir=tmp_path / "file")


def test_bad_rooms_are_refused_by_name(tmp_path):
    with pytest.raises(ValueError, match="position"):
        walkmesh.area.generate_meshes(two_rooms(), lyt=tmp_path / "none.lyt")
    lyt = tmp_path / "m99aa.lyt"
    lyt.write_bytes(walkmesh.area.generate_meshes(two_rooms()[:1])["lyt"].encode())
    with pytest.raises(ValueError, match="room_b"):
        walkmesh.area.generate_meshes([(n, m) for n, m, _ in two_rooms()], lyt=lyt)
    with pytest.raises(ValueError, match="max_climb"):
        walkmesh.area.generate_meshes(two_rooms(), max_climb=-1.0)
