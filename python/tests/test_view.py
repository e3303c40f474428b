"""Mesh.view: the inspector page written from Python is the one `walkmesh view` writes (same
fields, offsets and values for a mesh read from a file; the neutral mesh for an edited one)."""

import base64
import gzip
import json

import pytest

import walkmesh
from conftest import FIXTURES, need_corpora, shared_corpora


def page_data(path):
    """The page's text and its data, unpacked as the page does (base64, then gzip)."""
    text = path.read_text(encoding="utf-8")
    marker = 'data-encoding="gzip+base64">'
    start = text.index(marker) + len(marker)
    end = text.index("</script>", start)
    return text, json.loads(gzip.decompress(base64.b64decode(text[start:end])))


def column(mesh_data, label):
    return next(c for c in mesh_data["fields"] if c["label"] == label)


def test_view_writes_a_self_contained_page_of_the_mesh(tmp_path):
    mesh = walkmesh.read(FIXTURES / "obj" / "two_rooms.obj")
    out = tmp_path / "rooms.html"
    assert mesh.view(out) == str(out)
    text, data = page_data(out)
    assert "http://" not in text and "https://" not in text
    assert 'id="walkmesh-selection"' in text
    (only,) = data["meshes"]
    assert only["faces"] == mesh.face_count == 8
    assert only["name"] == "two_rooms.obj"
    # OBJ has no field dump: each face shows its neutral polygon, as `walkmesh dump` does.
    polygons = column(only, "mesh.polygons[{i}]")["value"]
    offsets, indices = mesh.polygon_offsets, mesh.polygon_indices
    assert polygons[3] == list(indices[offsets[3]:offsets[4]])


def test_view_of_a_file_shows_its_stored_fields_with_dump_offsets(tmp_path, cli):
    need_corpora()
    wok = shared_corpora() / "kotor" / "k1cp" / "tslpatchdata" / "m13aa_04a.wok"
    mesh = walkmesh.read(wok)
    out = tmp_path / "room.html"
    mesh.view(out)
    _, data = page_data(out)
    (room,) = data["meshes"]
    assert room["hasFieldDump"] is True
    dump = json.loads(cli("dump", "--format", "json", wok).stdout)
    table = next(c for c in dump["children"] if c["name"] == "materials")["children"]
    materials = column(room, "materials[{i}]")
    assert materials["index"] == "face"
    assert materials["value"] == [node["value"] for node in table]
    offsets = materials["offset"]
    assert [offsets["base"] + f * offsets["stride"] for f in range(len(table))] == [
        node["offset"] for node in table
    ]
    # The same page as the command line writes.
    cli_page = tmp_path / "cli.html"
    cli("view", wok, "-o", cli_page)
    assert page_data(cli_page)[1] == data


def test_an_edited_mesh_shows_the_neutral_mesh_and_two_meshes_overlay(tmp_path):
    need_corpora()
    wok = shared_corpora() / "kotor" / "k1cp" / "tslpatchdata" / "m13aa_04a.wok"
    mesh = walkmesh.read(wok)
    edited = mesh.copy()
    vertices = edited.vertices
    vertices[:, 2] += 1.0
    edited.vertices = vertices
    out = tmp_path / "both.html"
    mesh.view(out, edited)
    _, data = page_data(out)
    first, second = data["meshes"]
    assert first["hasFieldDump"] is True
    # The copy is no longer what the file holds: its offsets would be wrong, so none are shown.
    assert second["hasFieldDump"] is False
    assert all(c["label"].startswith("mesh.") for c in second["fields"])
    for m in (first, second):
        names = [layer["name"] for layer in m["faceLayers"]]
        assert "diff" in names and "overlay" in names


def test_view_refuses_an_unwritable_path(tmp_path):
    mesh = walkmesh.read(FIXTURES / "obj" / "two_rooms.obj")
    with pytest.raises(ValueError, match="cannot write"):
        mesh.view(tmp_path / "missing-dir" / "x.html")
