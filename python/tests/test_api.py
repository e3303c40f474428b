"""The walkmesh package over the repository's fixtures and hand-made meshes."""

import json
import os
from pathlib import Path

import numpy as np
import pytest

import walkmesh
from conftest import FIXTURES, corpus_files, need_corpora, obj_fixtures

FORMATS_WRITTEN = ["wok", "trx", "path", "glb", "gltf", "obj"]


# ---------------------------------------------------------------- formats, info


def test_formats_lists_every_format():
    rows = {row["id"]: row for row in walkmesh.formats()}
    assert set(rows) >= {"bwm", "trx", "path", "obj", "gltf", "mdl"}
    assert "wok" in rows["bwm"]["extensions"]
    assert all(row["read"] for row in rows.values())
    # A KotOR model is read for its walkmesh node (and by generate for its render mesh);
    # nothing writes models.
    assert [fid for fid, row in rows.items() if not row["write"]] == ["mdl"]


def test_formats_equal_the_command_line(cli):
    assert walkmesh.formats() == json.loads(cli("formats", "--json").stdout)


# Hand-computed in corpora/manifest.ron (independent of the code under test).
MANIFEST = {
    "flat_floor.obj": dict(vertices=20, faces=12, walkable_faces=12, walkable_area=12.0,
                           components=1, boundary_loops=1, materials={"Stone": 12}),
    "room_with_hole.obj": dict(vertices=24, faces=12, walkable_area=12.0, components=1,
                               boundary_loops=2, hole_loops=1, materials={"Stone": 6, "Wood": 6}),
    "two_rooms.obj": dict(vertices=18, faces=8, walkable_area=8.0, components=2,
                          boundary_loops=2, materials={"Dirt": 4, "Grass": 4}),
}


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_info_matches_the_hand_computed_manifest(name):
    info = walkmesh.read(FIXTURES / "obj" / name).info()
    for key, value in MANIFEST[name].items():
        if isinstance(value, float):
            assert info[key] == pytest.approx(value), key
        else:
            assert info[key] == value, key


@pytest.mark.parametrize("path", obj_fixtures(), ids=lambda p: p.name)
def test_info_equals_info_json_of_the_command_line(cli, path):
    ours = walkmesh.read(path).info()
    theirs = json.loads(cli("info", path, "--json").stdout)
    assert set(ours) == set(theirs)
    assert ours == theirs


def test_info_equals_the_command_line_on_shared_wok(cli):
    need_corpora()
    for path in corpus_files("wok")[:10]:
        assert walkmesh.read(path).info() == json.loads(cli("info", path, "--json").stdout), path


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("fmt", FORMATS_WRITTEN)
@pytest.mark.parametrize("path", obj_fixtures(), ids=lambda p: p.name)
def test_round_trip_through_every_format_keeps_the_walkable_region(tmp_path, path, fmt):
    source = walkmesh.read(path)
    before = source.info()
    out = tmp_path / f"out.{fmt}"
    try:
        report = source.write(out)
    except walkmesh.InvalidOutput as error:
        # A fixture our validator flags in the target (non-manifold input): refusing it is the
        # contract; the findings must say why.
        assert error.findings and error.code == "cli.invalid_output"
        assert not out.exists()
        return
    assert out.is_file()
    assert report["to"] == walkmesh.read(out).source_format
    after = walkmesh.read(out).info()
    assert report["written"]["faces"] == after["faces"]
    if after["walkable_area"] != pytest.approx(before["walkable_area"], rel=1e-5) or (
        after["components"] != before["components"]
    ):
        # Meaning changed: only with a warning saying so (PATH drops vertical walkable faces).
        assert [d for d in report["diagnostics"] if d["severity"] == "warning"], report["diagnostics"]
        return
    if fmt != "path":  # PATH merges faces into regions; the rest keep every walkable face
        assert after["walkable_faces"] >= before["walkable_faces"]


@pytest.mark.parametrize("fmt", ["wok", "trx", "path"])
def test_to_bytes_equals_the_file_write_writes(tmp_path, fmt):
    mesh = walkmesh.read(FIXTURES / "obj" / "room_with_hole.obj")
    out = tmp_path / f"room.{fmt}"
    mesh.write(out)
    assert mesh.to_bytes(fmt) == out.read_bytes()


@pytest.mark.parametrize("fmt", ["wok", "trx", "path", "glb"])
def test_to_bytes_equals_the_command_line_to_standard_output(cli, fmt):
    src = FIXTURES / "obj" / "room_with_hole.obj"
    import subprocess

    from conftest import walkmesh_binary

    theirs = subprocess.run([walkmesh_binary(), "convert", str(src), "-", "--to", fmt, "--quiet"],
                            capture_output=True, check=True).stdout
    assert walkmesh.read(src).to_bytes(fmt) == theirs


def test_read_bytes_detects_the_format_by_content():
    mesh = walkmesh.read(FIXTURES / "obj" / "two_rooms.obj")
    data = mesh.to_bytes("wok")
    again = walkmesh.read(data)
    assert again.source_format == "bwm"
    assert again.face_count == 16  # 8 quads as triangles
    assert walkmesh.read(bytearray(data), format="bwm") == again


def test_unchanged_shared_wok_is_written_back_byte_for_byte():
    need_corpora()
    for path in corpus_files("wok")[:20]:
        original = path.read_bytes()
        assert walkmesh.read(path).to_bytes("wok") == original, path


def test_rebuild_and_convert_equal_the_command_line(tmp_path, cli):
    need_corpora()
    for path in corpus_files("wok")[:5]:
        ours, theirs = tmp_path / "ours.wok", tmp_path / "theirs.wok"
        walkmesh.convert(path, ours, rebuild=True)
        cli("convert", path, theirs, "--rebuild", "--quiet")
        assert ours.read_bytes() == theirs.read_bytes(), path
        assert walkmesh.read(path).to_bytes("wok", rebuild=True) == theirs.read_bytes()


@pytest.mark.parametrize("fmt", ["wok", "trx", "path", "glb"])
def test_convert_equals_the_command_line_from_obj(tmp_path, cli, fmt):
    src = FIXTURES / "obj" / "strip_with_column.obj"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    # The same file name: glTF names its mesh after the file.
    ours, theirs = tmp_path / "a" / f"out.{fmt}", tmp_path / "b" / f"out.{fmt}"
    report = walkmesh.convert(src, ours)
    cli("convert", src, theirs, "--quiet")
    assert ours.read_bytes() == theirs.read_bytes()
    (tmp_path / "c").mkdir()
    cli_report = json.loads(cli("convert", src, tmp_path / "c" / f"out.{fmt}", "--json").stdout)
    for key in ("from", "to", "read", "written", "bytes", "sidecars", "output_errors", "output_warnings"):
        assert report[key] == cli_report[key], key
    assert [d["code"] for d in report["diagnostics"]] == [d["code"] for d in cli_report["diagnostics"]]


def test_convert_options_reach_the_writer(tmp_path):
    src = FIXTURES / "obj" / "flat_floor.obj"
    walkmesh.convert(src, tmp_path / "moved.wok", translate=(10, 0, 0), kind="placeable")
    moved = walkmesh.read(tmp_path / "moved.wok", )
    info = moved.info()
    assert info["bbox"]["min"][0] == pytest.approx(10.0)
    walkmesh.convert(src, tmp_path / "small.path", max_regions=1)
    assert walkmesh.read(tmp_path / "small.path").face_count == 1
    walkmesh.convert(src, tmp_path / "z.obj", up="z")
    text = (tmp_path / "z.obj").read_text()
    assert "v " in text


def test_convert_never_replaces_a_file_it_read(tmp_path):
    # A glTF file's external buffer is read by the glTF reader, not named by the caller: an
    # output onto it, or a .gltf output whose .bin sidecar would land on it, is refused and
    # the buffer keeps its bytes (docs/robustness.md, "Outputs never replace an input").
    scene = tmp_path / "scene.gltf"
    walkmesh.convert(FIXTURES / "obj" / "two_rooms.obj", scene)
    buffer = tmp_path / "scene.bin"
    before = buffer.read_bytes()
    (tmp_path / "shared.gltf").write_text(scene.read_text())
    other = tmp_path / "other"
    other.mkdir()
    (other / "scene.gltf").write_text(scene.read_text())
    (other / "scene.bin").write_bytes(before)
    link = tmp_path / "link.wok"
    link.symlink_to(buffer)
    for dst, kwargs in [
        (buffer, {"to_format": "wok"}),
        (link, {}),
        (tmp_path / "sub" / ".." / "scene.bin", {"to_format": "wok"}),
        # `shared.gltf` reads `scene.bin`; writing `scene.gltf` brings the sidecar `scene.bin`.
        (scene, {"force": True}),
    ]:
        (tmp_path / "sub").mkdir(exist_ok=True)
        source = tmp_path / "shared.gltf" if dst == scene else scene
        with pytest.raises(walkmesh.WriteError, match="is a file this command read") as raised:
            walkmesh.convert(source, dst, **kwargs)
        assert "nothing was written" in str(raised.value)
        assert buffer.read_bytes() == before, dst
    # The same conversion to another folder is written.
    walkmesh.convert(other / "scene.gltf", tmp_path / "elsewhere.wok")


def test_view_never_replaces_a_file_it_read(tmp_path):
    scene = tmp_path / "scene.gltf"
    walkmesh.convert(FIXTURES / "obj" / "two_rooms.obj", scene)
    buffer = tmp_path / "scene.bin"
    before = buffer.read_bytes()
    mesh = walkmesh.read(scene)
    # The page shows the file's fields: `view` reads the file (and its buffer) again.
    with pytest.raises(ValueError, match="is a file this command read"):
        mesh.view(buffer)
    assert buffer.read_bytes() == before
    assert mesh.view(tmp_path / "page.html").endswith("page.html")


def test_height_tolerance_reaches_the_cooker(tmp_path):
    # Two triangles 1 cm out of plane: merged into one region within the default 0.05,
    # kept apart when only exactly coplanar faces may merge.
    src = tmp_path / "ripple.obj"
    src.write_text(
        "v 0 0 0\nv 1 0 0\nv 1 1 0.01\nv 0 1 0\nusemtl Stone\nf 1 2 3\nf 1 3 4\n"
    )
    walkmesh.convert(src, tmp_path / "merged.path", up="z")
    assert walkmesh.read(tmp_path / "merged.path").face_count == 1
    walkmesh.convert(src, tmp_path / "exact.path", up="z", height_tolerance=0)
    assert walkmesh.read(tmp_path / "exact.path").face_count == 2
    with pytest.raises(ValueError):
        walkmesh.convert(src, tmp_path / "bad.path", height_tolerance=-1)


def test_max_memory_reaches_the_cooker(tmp_path):
    # A 40 x 40-cell floor: 3 200 triangles, estimated at 800 bytes each (2.4 MiB) before
    # cooking: refused under 1 MiB naming the option, cooked under 3 MiB.
    src = tmp_path / "floor.obj"
    lines = [f"v {i} {j} 0" for j in range(41) for i in range(41)] + ["usemtl Stone"]
    for j in range(40):
        for i in range(40):
            a, b, c, d = j * 41 + i + 1, j * 41 + i + 2, (j + 1) * 41 + i + 2, (j + 1) * 41 + i + 1
            lines += [f"f {a} {b} {c}", f"f {a} {c} {d}"]
    src.write_text("\n".join(lines) + "\n")
    with pytest.raises(walkmesh.WriteError, match="max_memory=MIB"):
        walkmesh.convert(src, tmp_path / "small.path", up="z", max_memory=1)
    walkmesh.convert(src, tmp_path / "floor.path", up="z", max_memory=3)
    assert walkmesh.read(tmp_path / "floor.path").face_count >= 1
    with pytest.raises(ValueError):
        walkmesh.convert(src, tmp_path / "bad.path", max_memory=0)


def test_archive_member_is_read():
    need_corpora()
    archives = corpus_files("mod")
    if not archives:
        pytest.skip("no .mod archive in the shared corpora")
    for archive in archives:
        woks = [m for m in walkmesh.area.list(archive) if m.lower().endswith(".wok")]
        if woks:
            mesh = walkmesh.read(f"{archive}:{woks[0]}")
            assert mesh.source_format == "bwm" and mesh.face_count > 0
            return
    pytest.skip("no archive with a .wok member")


def test_area_assemble_and_solve_on_a_shared_area(cli, tmp_path):
    need_corpora()
    # A module archive holding its layout and room walkmeshes.
    folder = None
    for archive in corpus_files("mod"):
        members = [m.lower() for m in walkmesh.area.list(archive)]
        if sum(m.endswith(".lyt") for m in members) == 1 and any(m.endswith(".wok") for m in members):
            folder = archive
            break
    if folder is None:
        pytest.skip("no module archive with a layout and room walkmeshes in the shared corpora")
    area = walkmesh.area.assemble(folder)
    cli("area", "assemble", folder, tmp_path / "theirs.glb")
    area.write(tmp_path / "ours.glb")
    assert walkmesh.read(tmp_path / "ours.glb").info() == walkmesh.read(tmp_path / "theirs.glb").info()
    solved = walkmesh.area.solve_transitions(folder)
    report = json.loads(cli("area", "solve", folder, "--check", "--json", check=False).stdout)
    for key in ("perimeter_edges", "coinciding_pairs", "edges_to_change"):
        assert solved[key] == report[key], key
    assert [f["code"] for f in solved["findings"]] == [f["code"] for f in report["findings"]]
    assert solved["rooms"] and all(isinstance(m, walkmesh.Mesh) for m in solved["rooms"].values())


# ---------------------------------------------------------------- arrays


def square_with_transition():
    # Two triangles of a unit square, counter-clockwise from above; the right edge (1 → 2)
    # of the first triangle leads to room 3.
    vertices = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], dtype=np.float32)
    faces = np.array([[0, 1, 2], [0, 2, 3]], dtype=np.uint32)
    transitions = np.array([[-1, 3, -1], [-1, -1, -1]], dtype=np.int32)
    return vertices, faces, transitions


def test_arrays_of_a_read_mesh():
    mesh = walkmesh.read(FIXTURES / "obj" / "flat_floor.obj")
    assert mesh.vertices.dtype == np.float32 and mesh.vertices.shape == (20, 3)
    # Quads: no M×3 array, the CSR arrays instead.
    assert mesh.faces is None and not mesh.triangles_only
    offsets, indices = mesh.polygon_offsets, mesh.polygon_indices
    assert offsets.dtype == np.uint32 and len(offsets) == 13 and offsets[-1] == len(indices) == 48
    assert list(np.diff(offsets)) == [4] * 12
    assert mesh.materials == ["Stone"] * 12
    assert mesh.walkable.dtype == np.bool_ and mesh.walkable.all()
    assert mesh.transitions.shape == (48,) and (mesh.transitions == -1).all()
    assert (mesh.material_ids == 4).all()


def test_from_arrays_written_to_every_format_and_read_back(tmp_path):
    vertices, faces, transitions = square_with_transition()
    mesh = walkmesh.Mesh.from_arrays(
        vertices, faces, materials=["Grass", "Stone"], transitions=transitions,
        hooks=[{"name": "use1", "position": (0.5, 0.5, 0)}],
    )
    info = mesh.info()
    assert info["faces"] == 2 and info["walkable_area"] == pytest.approx(1.0)
    assert info["boundary_loops"] == 1 and info["materials"] == {"Grass": 1, "Stone": 1}
    mesh.write(tmp_path / "sq.wok")
    back = walkmesh.read(tmp_path / "sq.wok")
    # BWM keeps walkable faces first and triangles as given here (both walkable).
    assert np.array_equal(back.vertices[back.faces], vertices[faces])
    assert back.materials == ["Grass", "Stone"]
    assert back.transitions.tolist() == transitions.tolist()
    assert [h["name"] for h in back.hooks] and back.hooks[0]["position"] == pytest.approx([0.5, 0.5, 0])
    for fmt in ("trx", "path", "glb", "obj"):
        out = tmp_path / f"sq.{fmt}"
        mesh.write(out)
        assert walkmesh.read(out).info()["walkable_area"] == pytest.approx(1.0), fmt
    # glTF keeps transitions and hooks (walkmesh extras).
    glb = walkmesh.read(tmp_path / "sq.glb")
    assert glb.transitions.tolist() == transitions.tolist()


def test_from_arrays_accepts_lists_ngons_and_walkable():
    mesh = walkmesh.Mesh.from_arrays(
        [[0, 0, 0], [2, 0, 0], [2, 1, 0], [1, 2, 0], [0, 1, 0]], [[0, 1, 2, 3, 4]],
        materials="Wood", walkable=[False], kind="placeable",
    )
    assert mesh.faces is None and mesh.polygon_indices.tolist() == [0, 1, 2, 3, 4]
    assert mesh.kind == "placeable" and mesh.walkable.tolist() == [False]
    assert mesh.transitions.shape == (5,)
    assert mesh.materials == ["Wood"]
    # Blender's and kotorblender's material names.
    blender = walkmesh.Mesh.from_arrays([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]], materials=["wok_Grass.001"])
    assert blender.materials == ["Grass"]


def test_from_arrays_refuses_bad_input():
    with pytest.raises(ValueError, match="vertex 9"):
        walkmesh.Mesh.from_arrays([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 9]])
    with pytest.raises(ValueError, match="finite"):
        walkmesh.Mesh.from_arrays([[0, 0, np.nan], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]])
    with pytest.raises(ValueError, match="unknown material"):
        walkmesh.Mesh.from_arrays([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]], materials=["Cheese"])
    with pytest.raises(ValueError, match="2 names for 1 faces|names for 1 faces"):
        walkmesh.Mesh.from_arrays([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]], materials=["Stone", "Dirt"])
    with pytest.raises(ValueError):
        walkmesh.Mesh.from_arrays([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]], kind="castle")


def test_arrays_are_copies_and_setters_change_the_mesh(tmp_path):
    vertices, faces, transitions = square_with_transition()
    mesh = walkmesh.Mesh.from_arrays(vertices, faces, transitions=transitions)
    v = mesh.vertices
    v[0, 2] = 5.0
    assert mesh.vertices[0, 2] == 0.0  # the array is a copy
    mesh.vertices = v
    assert mesh.vertices[0, 2] == 5.0
    t = mesh.transitions
    t[1, 2] = 7
    mesh.transitions = t
    mesh.write(tmp_path / "edited.wok")
    back = walkmesh.read(tmp_path / "edited.wok")
    assert back.transitions[1, 2] == 7 and back.vertices[0, 2] == 5.0
    with pytest.raises(ValueError):
        mesh.vertices = vertices[:2]  # faces would name missing vertices
    assert mesh.vertex_count == 4


def test_edited_wok_is_recomputed_and_validates(tmp_path):
    need_corpora()
    path = corpus_files("wok")[0]
    mesh = walkmesh.read(path)
    assert mesh.to_bytes("wok") == path.read_bytes()
    v = mesh.vertices
    v[0] += np.float32(0.01)
    mesh.vertices = v
    data = mesh.to_bytes("wok")
    assert data != path.read_bytes()
    back = walkmesh.read(data, format="bwm")
    assert back.vertices[0].tolist() == v[0].tolist()
    assert not [f for f in walkmesh.validate(data) if f["severity"] == "error"]


def test_copy_and_equality():
    mesh = walkmesh.read(FIXTURES / "obj" / "two_rooms.obj")
    twin = mesh.copy()
    assert twin == mesh
    twin.kind = "door"
    assert twin != mesh and mesh.kind == "area"


# ---------------------------------------------------------------- validate


def test_validate_a_file_equals_the_command_line(cli):
    for path in obj_fixtures():
        ours = walkmesh.validate(path)
        report = json.loads(cli("validate", path, "--json", check=False).stdout)
        theirs = report["errors"] + report["warnings"]
        assert [(f["code"], f["severity"]) for f in ours] == [(f["code"], f["severity"]) for f in theirs], path
        assert all(set(f) == {"severity", "code", "message", "file", "offset", "line", "field"} for f in ours)


def test_validate_finds_the_non_manifold_fixture():
    codes = {f["code"] for f in walkmesh.validate(FIXTURES / "obj" / "non_manifold.obj")}
    assert "mesh.non_manifold_edge" in codes


def test_validate_a_mesh_and_as_written():
    vertices, faces, _ = square_with_transition()
    mesh = walkmesh.Mesh.from_arrays(vertices, faces)
    assert not [f for f in walkmesh.validate(mesh) if f["severity"] == "error"]
    assert not [f for f in walkmesh.validate(mesh, format="wok") if f["severity"] == "error"]
    assert isinstance(walkmesh.validate(mesh, format="obj"), list)


# ---------------------------------------------------------------- errors


def test_truncated_bytes_raise_read_error_with_offset_and_field():
    data = walkmesh.read(FIXTURES / "obj" / "two_rooms.obj").to_bytes("wok")
    with pytest.raises(walkmesh.ReadError) as caught:
        walkmesh.read(data[:100], format="bwm")
    error = caught.value
    assert isinstance(error, walkmesh.Error)
    assert error.offset is not None and error.line is None
    assert error.field and error.code == "cli.input" and error.file is None
    assert error.kind == "truncated"
    assert f"{error.offset:#x}" in str(error)


def test_obj_error_names_file_line_and_field(tmp_path):
    bad = tmp_path / "bad.obj"
    bad.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n")
    with pytest.raises(walkmesh.ReadError) as caught:
        walkmesh.read(bad)
    error = caught.value
    assert error.file == str(bad) and error.line == 4 and error.offset is None
    assert error.field


def test_missing_file_and_unknown_format():
    with pytest.raises(walkmesh.ReadError) as caught:
        walkmesh.read("/nonexistent/room.wok")
    assert caught.value.file == "/nonexistent/room.wok"
    with pytest.raises(walkmesh.ReadError):
        walkmesh.read(b"hello", format="nope")
    with pytest.raises(walkmesh.WriteError):
        walkmesh.read(FIXTURES / "obj" / "two_rooms.obj").write("/tmp/x.unknown-extension")


def test_bad_options():
    mesh = walkmesh.read(FIXTURES / "obj" / "two_rooms.obj")
    with pytest.raises(TypeError, match="unexpected option"):
        mesh.to_bytes("wok", colour="red")
    with pytest.raises(ValueError):
        mesh.to_bytes("path", max_regions=0)
    with pytest.raises(ValueError):
        mesh.to_bytes("wok", weld=-1)
    with pytest.raises(walkmesh.WriteError, match="mtl") as caught:
        mesh.to_bytes("obj")  # a .mtl sidecar: bytes hold one file
    assert caught.value.code == "cli.usage" and caught.value.kind == "parameter"


def test_strict_refuses_warnings(tmp_path):
    mesh = walkmesh.read(FIXTURES / "obj" / "two_rooms.obj")
    # PATH cannot store KotOR materials one to one: a warning, so strict refuses.
    with pytest.raises(walkmesh.WriteError) as caught:
        mesh.write(tmp_path / "two.path", strict=True)
    assert caught.value.code == "cli.strict" and caught.value.findings
    assert not (tmp_path / "two.path").exists()


def test_allow_and_deny_follow_the_command_lines_rules(tmp_path):
    mesh = walkmesh.read(FIXTURES / "obj" / "two_rooms.obj")
    with pytest.raises(walkmesh.WriteError) as caught:
        mesh.write(tmp_path / "two.path", strict=True)
    codes = sorted({f["code"] for f in caught.value.findings})
    # Every warning allowed by a pattern: strict passes and the report names the rules.
    report = mesh.write(tmp_path / "two.path", strict=True, allow=["*"])
    applied = report["rules_applied"]
    assert sorted({a["code"] for a in applied}) == codes
    assert all(a["action"] == "allow" and a["pattern"] == "*" for a in applied)
    # One of them denied: it fails without strict, and deny wins over allow.
    (tmp_path / "two.path").unlink()
    with pytest.raises(walkmesh.WriteError) as caught:
        mesh.write(tmp_path / "two.path", allow="*", deny=codes[0])
    assert caught.value.code == "cli.strict"
    assert "denied: " + codes[0] in str(caught.value)
    assert not (tmp_path / "two.path").exists()
    with pytest.raises(ValueError, match="allow"):
        mesh.write(tmp_path / "two.path", allow=3)


def test_invalid_output_is_refused_unless_allowed(tmp_path):
    # A face repeating a vertex, in a file marked as this project's (authored vertex
    # identity), so the default weld for modelling-tool input does not drop it first: the OBJ
    # writer keeps it and our validator rejects the output (mesh.repeated_vertex), as in the
    # CLI test `an_output_our_validator_rejects_is_not_written_unless_allowed`.
    source = tmp_path / "repeated.obj"
    source.write_text(
        "#@walkmesh kind area\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 2 1 4\n"
    )
    mesh = walkmesh.read(source)
    out = tmp_path / "bad.obj"
    with pytest.raises(walkmesh.InvalidOutput) as caught:
        mesh.write(out)
    error = caught.value
    assert error.code == "cli.invalid_output" and error.file == str(out)
    assert error.findings and all(f["severity"] == "error" for f in error.findings)
    assert any(f["code"] == "mesh.repeated_vertex" for f in error.findings)
    assert not out.exists()
    report = mesh.write(out, allow_invalid=True)
    assert out.exists() and report["output_errors"] > 0


# ---------------------------------------------------------------- right by default (#25)


def pillar_mesh():
    """A walkable floor (two triangles) and a walkable vertical wall (a pillar's side exported
    walkable): the mesh-level warning mesh.steep_walkable, and nothing the BWM writer refuses."""
    vertices = np.array([[0, 0, 0], [4, 0, 0], [4, 4, 0], [0, 4, 0],
                         [1, 1, 0], [2, 1, 0], [2, 1, 2], [1, 1, 2]], dtype=np.float32)
    faces = np.array([[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]], dtype=np.uint32)
    return walkmesh.Mesh.from_arrays(vertices, faces, materials="Stone")


def test_validate_as_written_keeps_mesh_warnings(cli, tmp_path):
    mesh = pillar_mesh()
    found = walkmesh.validate(mesh, format="wok")
    codes = {f["code"] for f in found}
    assert "mesh.steep_walkable" in codes, found
    steep = next(f for f in found if f["code"] == "mesh.steep_walkable")
    # Two walkable triangles of the 1 × 2 wall, 2.00 square units (by hand).
    assert steep["severity"] == "warning" and "2 walkable polygon(s) (2.00 square" in steep["message"]
    # Everything `walkmesh validate` says of the written file is in the list.
    out = tmp_path / "pillar.wok"
    mesh.write(out)
    report = json.loads(cli("validate", out, "--json", check=False).stdout)
    theirs = {(f["severity"], f["code"]) for key in ("errors", "warnings", "findings")
              for f in report.get(key, []) if isinstance(f, dict)}
    assert ("warning", "mesh.steep_walkable") in theirs, report
    assert theirs <= {(f["severity"], f["code"]) for f in found}


def test_missing_file_is_file_not_found(tmp_path):
    missing = tmp_path / "nowhere" / "room.wok"
    for call in (lambda: walkmesh.read(missing), lambda: walkmesh.validate(missing),
                 lambda: walkmesh.convert(missing, tmp_path / "out.glb"),
                 lambda: walkmesh.read(f"{tmp_path / 'absent.mod'}:room.wok")):
        with pytest.raises(FileNotFoundError) as caught:
            call()
        error = caught.value
        assert isinstance(error, walkmesh.ReadError) and isinstance(error, walkmesh.FileNotFound)
        assert error.errno == 2 and error.code == "cli.input" and error.kind == "io"
        assert error.filename == error.file and error.file.startswith(str(tmp_path))
    # An existing file that is not a walkmesh is no FileNotFoundError.
    text = tmp_path / "room.wok"
    text.write_text("hello")
    with pytest.raises(walkmesh.ReadError) as caught:
        walkmesh.read(text)
    assert not isinstance(caught.value, FileNotFoundError)


def test_messages_name_python_arguments():
    with pytest.raises(walkmesh.ReadError) as caught:
        walkmesh.read(b"hello")
    message = str(caught.value)
    assert "format=" in message and "--" not in message, message
    with pytest.raises(walkmesh.ReadError) as caught:
        walkmesh.read(b"hello", format="nope")
    assert "walkmesh.formats()" in str(caught.value) and "`" not in str(caught.value)
    # Findings too: two rooms meeting on duplicated vertices (an unlinked seam).
    vertices = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0],
                         [1, 0, 0], [2, 0, 0], [2, 1, 0], [1, 1, 0]], dtype=np.float32)
    faces = np.array([[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]], dtype=np.uint32)
    mesh = walkmesh.Mesh.from_arrays(vertices, faces, materials="Stone")
    seam = [f for f in walkmesh.validate(mesh, format="wok", weld="off")
            if f["code"] == "mesh.unlinked_coincident_edge"]
    assert seam and 'weld="exact"' in seam[0]["message"] and "--" not in seam[0]["message"]


def test_python_wording_by_hand():
    wording = walkmesh._walkmesh._python_wording
    assert wording("set --default-material") == "set default_material="
    assert wording("try --up y") == 'try up="y"'
    assert wording("(`walkmesh convert --translate 32,-64,0` moves it back)") == \
        '(translate="32,-64,0" moves it back)'
    assert wording("; --weld off keeps them apart") == '; weld="off" keeps them apart'
    assert wording("merged (--height-tolerance 0 merges only") == \
        "merged (height_tolerance=0 merges only"
    assert wording("denied: mesh.steep_walkable (--deny mesh.steep_*)") == \
        "denied: mesh.steep_walkable (deny=mesh.steep_*)"
    assert wording("a range 1--4 and x -- y stay") == "a range 1--4 and x -- y stay"


def accepted(call):
    with pytest.raises(TypeError) as caught:
        call()
    text = str(caught.value)
    return text.split("accepted here: ", 1)[1].split(", ") if "accepted here: " in text else text


def test_unknown_option_lists_what_the_call_takes(tmp_path):
    mesh = walkmesh.read(FIXTURES / "obj" / "two_rooms.obj")
    read_keys = accepted(lambda: walkmesh.read(b"x", colour=1))
    assert read_keys == ["up", "materials", "default_material", "scene", "max_decompressed"]
    write_keys = accepted(lambda: mesh.write(tmp_path / "x.wok", colour=1))
    assert {"force", "create_dirs", "fsync", "weld", "allow_invalid"} <= set(write_keys)
    assert "scene" not in write_keys
    bytes_keys = accepted(lambda: mesh.to_bytes("wok", colour=1))
    assert "weld" in bytes_keys and "force" not in bytes_keys
    convert_keys = accepted(lambda: walkmesh.convert(b"x", tmp_path / "x.wok", colour=1))
    assert len(convert_keys) == len(set(convert_keys))
    assert set(convert_keys) == set(read_keys) | set(write_keys)
    check_keys = accepted(lambda: walkmesh.validate(mesh, format="wok", colour=1))
    assert "weld" in check_keys and not {"strict", "allow_invalid", "force"} & set(check_keys)
    assert accepted(lambda: walkmesh.validate(mesh, colour=1)).endswith("this call takes none")
    # Output settings reach the write: force=True replaces a sidecar walkmesh did not write.
    (tmp_path / "foreign.mtl").write_text("not ours\n")
    with pytest.raises(walkmesh.WriteError, match="pass force=True to replace it"):
        mesh.write(tmp_path / "foreign.obj")
    mesh.write(tmp_path / "foreign.obj", force=True)
    assert (tmp_path / "foreign.mtl").read_text() != "not ours\n"


def test_version_and_type_stubs():
    import importlib.metadata
    import re

    cargo = (Path(__file__).resolve().parents[2] / "Cargo.toml").read_text()
    workspace_version = re.search(r'\[workspace\.package\]\s*\nversion = "([^"]+)"', cargo).group(1)
    assert walkmesh.__version__ == workspace_version
    assert importlib.metadata.version("walkmesh") == workspace_version
    package = Path(walkmesh.__file__).parent
    assert (package / "py.typed").is_file()
    stub = (package / "_walkmesh.pyi").read_text()
    public = {n for n in dir(walkmesh._walkmesh) if not n.startswith("__")} | {"__version__"}
    declared = set(re.findall(r"^(?:def|class) (\w+)|^(\w+):", stub, re.M))
    declared = {a or b for a, b in declared}
    assert public <= declared, public - declared
    mesh_stub = stub.split("class Mesh:", 1)[1].split("\ndef ", 1)[0]
    members = {n for n in vars(walkmesh.Mesh) if not n.startswith("_")}
    assert all(re.search(rf"\b{n}\b", mesh_stub) for n in members), \
        [n for n in members if not re.search(rf"\b{n}\b", mesh_stub)]
    area_stub = (package / "area.pyi").read_text()
    assert all(f"def {n}(" in area_stub for n in walkmesh.area.__all__)


def test_stubs_type_check(tmp_path):
    """mypy --strict reads the installed stubs: correct uses pass, a wrong type is caught."""
    mypy = pytest.importorskip("mypy.api")
    script = tmp_path / "use.py"
    script.write_text(
        "import walkmesh\n"
        "mesh: walkmesh.Mesh = walkmesh.read('room.wok')\n"
        "faces: int = mesh.face_count\n"
        "version: str = walkmesh.__version__\n"
        "findings = walkmesh.validate(mesh, format='wok')\n"
        "room: walkmesh.Mesh = walkmesh.area.assemble('rooms')\n"
        "try:\n"
        "    walkmesh.read('gone.wok')\n"
        "except FileNotFoundError as error:\n"
        "    errno: int | None = error.errno\n"
        "wrong: str = mesh.face_count\n"
    )
    out, err, status = mypy.run(["--strict", "--no-incremental", "--python-version", "3.10",
                                 str(script)])
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1 and len(errors) == 1 and "use.py:11:" in errors[0], out + err


# ---------------------------------------------------------------- layouts (LYT)

HAND_LYT = (
    "#MAXLAYOUT ASCII\n"
    "filedependancy m01aa.max\n"
    "beginlayout\n"
    "roomcount 3\n"
    "\tm01aa_01a 0.0 0.0 0.0\n"
    "  m01aa_02b 12.5 -3 1.25\n"
    "  **** 0 0 0\n"
    "trackcount 0\n"
    "obstaclecount 0\n"
    "doorhookcount 1\n"
    "  m01aa_01a door_01 0 4.0 5.0 0.0 0.0 0.0 0.0 1.0\n"
    "donelayout\n"
)


def test_read_lyt_of_a_hand_written_layout(tmp_path):
    path = tmp_path / "m01aa.lyt"
    path.write_text(HAND_LYT)
    for source in (path, str(path), HAND_LYT.encode()):
        layout = walkmesh.read_lyt(source)
        # Rooms in file order (the index is what transitions name), placeholder included.
        assert [r["name"] for r in layout["rooms"]] == ["m01aa_01a", "m01aa_02b", "****"]
        assert layout["rooms"][1]["position"] == [12.5, -3.0, 1.25]
        assert layout["tracks"] == [] and layout["obstacles"] == []
        [hook] = layout["door_hooks"]
        assert (hook["room"], hook["door"]) == ("m01aa_01a", "door_01")
        assert hook["position"] == [4.0, 5.0, 0.0]
        assert hook["orientation"] == [0.0, 0.0, 0.0, 1.0]
        assert layout["findings"] == []
    assert walkmesh.area.read_lyt(path) == layout


def test_read_lyt_refuses_a_broken_layout_naming_file_and_line(tmp_path):
    path = tmp_path / "broken.lyt"
    path.write_text("beginlayout\nroomcount 1\n  room_a 0 zero 0\ndonelayout\n")
    with pytest.raises(walkmesh.ReadError) as raised:
        walkmesh.read_lyt(path)
    assert raised.value.file == str(path)
    assert raised.value.line == 3
    with pytest.raises(walkmesh.FileNotFound):
        walkmesh.read_lyt(tmp_path / "missing.lyt")


def words_after_roomcount(path):
    """Room names read the plain way (first word of the lines after `roomcount N`), as an
    independent check of the library's reader on real files."""
    rooms, remaining = [], 0
    for line in Path(path).read_text(encoding="latin-1").splitlines():
        words = line.split()
        if not words:
            continue
        if remaining:
            rooms.append(words[0])
            remaining -= 1
        elif words[0].lower() == "roomcount" and len(words) > 1:
            remaining = int(words[1])
    return rooms


def test_read_lyt_on_the_shared_layouts(cli):
    need_corpora()
    layouts = corpus_files("lyt")
    if not layouts:
        pytest.skip("no .lyt in the shared corpora")
    for path in layouts:
        layout = walkmesh.read_lyt(path)
        assert [r["name"] for r in layout["rooms"]] == words_after_roomcount(path), path
        report = json.loads(cli("area", "check", path, "--json", check=False).stdout)
        assert (len(layout["rooms"]), len(layout["door_hooks"])) == (
            report["rooms"],
            report["door_hooks"],
        ), path


# ---------------------------------------------------------------- format parameters

# One value for each writer parameter the formats declare (FormatDescriptor::params), as a keyword
# and as `walkmesh convert`'s flag (both are made from the one declaration).
PARAMETERS = {
    "path": dict(region_height=2.5, max_regions=3, max_height_error=0.1,
                 height_tolerance=0.01, max_area_change=0.5),
    "trx": dict(compression=1),
}


def test_declared_parameters_give_the_bytes_of_the_command_line_flags(cli, tmp_path):
    src = FIXTURES / "obj" / "flat_floor.obj"
    for ext, options in PARAMETERS.items():
        ours = tmp_path / f"ours.{ext}"
        theirs = tmp_path / f"theirs.{ext}"
        walkmesh.convert(src, ours, **options)
        flags = []
        for name, value in options.items():
            flags += [f"--{name.replace('_', '-')}", str(value)]
        cli("convert", src, theirs, *flags)
        assert ours.read_bytes() == theirs.read_bytes(), ext
    # And the parameters change what is written (compared with the defaults).
    walkmesh.convert(src, tmp_path / "default.trx")
    assert (tmp_path / "default.trx").read_bytes() != (tmp_path / "ours.trx").read_bytes()


def test_declared_parameters_are_checked_as_declared():
    mesh = walkmesh.read(FIXTURES / "obj" / "two_rooms.obj")
    for option, message in [
        (dict(max_regions=0), "max_regions: 0 is not within 1–512"),
        (dict(compression=10), "compression: 10 is not within 0–9"),
        (dict(region_height=-1.0), "region_height: -1 is not a finite number > 0"),
        (dict(height_tolerance=float("nan")), "height_tolerance: NaN is not a finite number ≥ 0"),
        (dict(max_area_change=1.5), "max_area_change: 1.5 is not a fraction within 0–1"),
    ]:
        with pytest.raises(ValueError) as caught:
            mesh.to_bytes("path", **option)
        assert str(caught.value) == message
    # A parameter is a keyword of the writing calls only.
    with pytest.raises(TypeError, match="unexpected option"):
        walkmesh.read(FIXTURES / "obj" / "two_rooms.obj", max_regions=3)


def test_errors_say_their_kind(tmp_path):
    """Issue #46: every error carries the kind the command line prints as JSON `kind`."""
    data = walkmesh.read(FIXTURES / "obj" / "two_rooms.obj").to_bytes("wok")
    other_version = data[:4] + b"V2.0" + data[8:]
    with pytest.raises(walkmesh.ReadError) as caught:
        walkmesh.read(other_version, format="bwm")
    assert caught.value.kind == "unsupported" and caught.value.offset == 4
    bad = tmp_path / "bad.obj"
    bad.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n")
    with pytest.raises(walkmesh.ReadError) as caught:
        walkmesh.read(bad)
    assert caught.value.kind == "invalid" and caught.value.line == 4
    with pytest.raises(walkmesh.ReadError) as caught:
        walkmesh.read(data, format="nosuch")
    assert caught.value.kind == "parameter" and caught.value.code == "cli.usage"
