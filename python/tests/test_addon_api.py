"""What the Blender add-on needs beyond the core API: setting engine codes, extras and the tile
grid back (so a mesh rebuilt from arrays equals the mesh read), and the area transition solver."""

import numpy as np
import pytest

import walkmesh
from conftest import corpus_files, need_corpora

SQUARE = np.array([[0, 0, 0], [4, 0, 0], [4, 4, 0], [0, 4, 0]], dtype=np.float32)
TRIANGLES = np.array([[0, 1, 2], [0, 2, 3]], dtype=np.uint32)


def rebuilt(mesh):
    """The mesh rebuilt from its arrays and settable fields, as the add-on does on export."""
    faces = mesh.faces if mesh.triangles_only else [
        mesh.polygon_indices[a:b].tolist()
        for a, b in zip(mesh.polygon_offsets[:-1], mesh.polygon_offsets[1:])
    ]
    copy = walkmesh.Mesh.from_arrays(
        mesh.vertices, faces, materials=mesh.materials, walkable=mesh.walkable,
        hooks=mesh.hooks, kind=mesh.kind, origin=mesh.origin,
        face_attributes=mesh.face_attributes or None,
    )
    copy.material_codes = mesh.material_codes
    if (np.asarray(mesh.transitions) >= 0).any():
        copy.transitions = mesh.transitions
    copy.tile_grid = mesh.tile_grid
    copy.extras = mesh.extras
    return copy


def test_setters_take_what_the_getters_give():
    mesh = walkmesh.Mesh.from_arrays(SQUARE, TRIANGLES, materials="Grass")
    mesh.material_codes = np.array([7, 9], dtype=np.uint32)
    assert mesh.material_codes.tolist() == [7, 9]
    mesh.extras = {"test:n": {"Int": 5}, "test:b": {"Bytes": [0, 255]}}
    assert mesh.extras == {"test:b": {"Bytes": [0, 255]}, "test:n": {"Int": 5}}
    grid = {"columns": 2, "rows": 3, "tile_width": 9.0, "tile_height": 9.0, "origin": [0.0, 0.0]}
    mesh.tile_grid = grid
    assert mesh.tile_grid == grid
    mesh.tile_grid = None
    assert mesh.tile_grid is None
    with pytest.raises(ValueError):
        mesh.material_codes = np.array([1], dtype=np.uint32)
    with pytest.raises(ValueError):
        mesh.extras = {"test:x": {"NoSuchKind": 1}}


def test_every_shared_file_rebuilds_equal_from_its_arrays():
    need_corpora()
    files = corpus_files("trx", "trn", "path")[:6] + corpus_files("wok")[:10]
    assert files
    for path in files:
        mesh = walkmesh.read(str(path))
        assert rebuilt(mesh) == mesh, path


def test_solve_transitions_links_two_rooms_meeting_at_an_edge():
    a = walkmesh.Mesh.from_arrays(SQUARE, TRIANGLES, materials="Stone")
    b = walkmesh.Mesh.from_arrays(SQUARE + [4, 0, 0], TRIANGLES, materials="Stone")
    result = walkmesh.area.solve_mesh_transitions([(0, "a", a), (1, "b", b)], room_count=2)
    assert result["changed"] == 2
    solved_a, solved_b = (np.asarray(t).reshape(-1) for t in result["transitions"])
    # Room a's edge on x = 4 is face 0 edge 1 (vertices 1 -> 2); room b's is face 1 edge 2 (3 -> 0).
    assert solved_a.tolist() == [-1, 1, -1, -1, -1, -1]
    assert solved_b.tolist() == [-1, -1, -1, -1, -1, 0]
    with pytest.raises(ValueError):
        walkmesh.area.solve_mesh_transitions([(5, "a", a)], room_count=2)
