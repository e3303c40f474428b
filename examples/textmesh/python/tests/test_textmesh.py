"""`import walkmesh` with the extension module built over the textmesh registry
(examples/textmesh/python): the package reads, writes, validates and converts `.tmesh` files
as it does the built-in formats. Run by .ci/peers/textmesh_python.sh, which installs the
module as `walkmesh/_walkmesh` beside the package's Python files."""

import walkmesh

# A 2 x 1 floor of four walkable triangles (Stone on the left, Grass on the right) and a
# wall standing on its left edge (as tests/binary.rs).
FLOOR = """textmesh 1
v 0 0 0
v 1 0 0
v 2 0 0
v 0 1 0
v 1 1 0
v 2 1 0
v 0 0 1
f 0 1 4 Stone
f 0 4 3 Stone
f 1 2 5 Grass walk
f 1 5 4 Grass walk
f 0 3 6 NonWalk wall
"""


def floor(tmp_path):
    path = tmp_path / "floor.tmesh"
    path.write_text(FLOOR)
    return path


def test_formats_list_textmesh_beside_the_built_in_ones():
    ids = {f["id"] for f in walkmesh.formats()}
    assert {"textmesh", "bwm", "obj"} <= ids, ids


def test_a_textmesh_file_reads_with_its_faces_and_materials(tmp_path):
    mesh = walkmesh.read(floor(tmp_path))
    assert mesh.face_count == 5
    assert int(mesh.walkable.sum()) == 4
    assert mesh.source_format == "textmesh"
    assert {"Stone", "Grass", "NonWalk"} <= set(mesh.materials)


def test_textmesh_converts_to_wok_and_back_keeping_the_floor(tmp_path):
    wok = tmp_path / "floor.wok"
    walkmesh.convert(floor(tmp_path), wok)
    assert not [f for f in walkmesh.validate(wok) if f["severity"] == "error"]
    back = tmp_path / "back.tmesh"
    walkmesh.convert(wok, back)
    assert back.read_text().startswith("textmesh 1")
    again = walkmesh.read(back)
    assert again.face_count == 5
    assert int(again.walkable.sum()) == 4
    assert again.materials == walkmesh.read(floor(tmp_path)).materials


def test_bytes_in_memory_are_detected_as_textmesh():
    mesh = walkmesh.read(FLOOR.encode())
    assert mesh.source_format == "textmesh"
    assert mesh.to_bytes("textmesh").startswith(b"textmesh 1")
