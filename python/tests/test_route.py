"""Mesh.route and Mesh.reach: the dicts of `walkmesh route --json` / `walkmesh reach --json`."""

import json
import math

import numpy as np
import pytest

import walkmesh
from conftest import corpus_files, need_corpora

# An L-shaped corridor of unit cells (0..4, 0) and (3, 1..4), Z up, plus an island cell (0, 3);
# two triangles per cell.
CELLS = [(x, 0) for x in range(4)] + [(3, y) for y in range(1, 4)] + [(0, 3)]


def corridor():
    vertices = [(x, y, 0.0) for y in range(6) for x in range(6)]
    at = lambda x, y: y * 6 + x  # noqa: E731
    faces = []
    for x, y in CELLS:
        a, b, c, d = at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1)
        faces += [(a, b, c), (a, c, d)]
    return walkmesh.Mesh.from_arrays(np.array(vertices, dtype=np.float32), np.array(faces))


def test_route_turns_at_the_inner_corner_with_the_hand_computed_length():
    route = corridor().route((0.5, 0.5, 0.0), (3.5, 3.5, 0.0))
    assert set(route) == {"reachable", "method", "points", "faces", "length", "warnings"}
    assert route["reachable"] and route["method"] == "surface"
    # (0.5,0.5) → (3,1) → (3.5,3.5): 2·√(2.5² + 0.5²).
    assert math.isclose(route["length"], 2 * math.sqrt(6.5), rel_tol=1e-12)
    assert route["points"] == [[0.5, 0.5, 0.0], [3.0, 1.0, 0.0], [3.5, 3.5, 0.0]]
    assert route["faces"][0] == 0


def test_the_island_is_unreachable_and_reach_names_it():
    mesh = corridor()
    route = mesh.route((0.5, 0.5, 0.0), (0.5, 3.5, 0.0))
    assert route["reachable"] is False and route["length"] is None
    reach = mesh.reach(start=(0.5, 0.5, 0.0))
    assert [c["area"] for c in reach["components"]] == [7.0, 1.0]
    assert reach["start"]["unreachable"] == [1]
    assert reach["start"]["unreachable_area"] == 1.0
    assert mesh.reach()["start"] is None


def test_bad_points_and_methods_raise():
    mesh = corridor()
    with pytest.raises(ValueError, match="nearest is face 14, 0.5000 away"):
        mesh.route((1.5, 3.5, 0.0), (0.5, 0.5, 0.0))
    with pytest.raises(ValueError, match="engine tables"):
        mesh.route((0.5, 0.5, 0.0), (3.5, 3.5, 0.0), method="engine")
    with pytest.raises(ValueError, match="'engine' or 'surface'"):
        mesh.route((0.5, 0.5, 0.0), (3.5, 3.5, 0.0), method="fastest")


def test_route_and_reach_equal_the_command_line(cli, tmp_path):
    path = tmp_path / "corridor.obj"
    corridor().write(str(path))
    mesh = walkmesh.read(str(path))
    args = ["--from", "0.5,0.5,0", "--to", "3.5,3.5,0", "--json"]
    assert mesh.route((0.5, 0.5, 0), (3.5, 3.5, 0)) == json.loads(
        cli("route", str(path), *args).stdout
    )
    assert mesh.reach((0.5, 0.5, 0)) == json.loads(
        cli("reach", str(path), "--from", "0.5,0.5,0", "--json").stdout
    )


def test_nwn2_routes_use_the_stored_tables_like_the_command_line(cli):
    need_corpora()
    path = next(p for p in corpus_files("trx") if p.name == "fh_settlement.trx")
    mesh = walkmesh.read(str(path))
    start = mesh.reach()["components"][0]["position"]
    vertices, faces, walkable = mesh.vertices, mesh.faces, mesh.walkable
    routes = []
    for face in np.flatnonzero(walkable)[::40]:
        end = [float(v) for v in vertices[faces[face]].mean(axis=0)]
        route = mesh.route(start, end)
        assert route["method"] == "engine"
        if route["reachable"] and len(route["faces"]) > 3:
            routes.append((end, route))
    assert len(routes) >= 3
    for end, route in routes[:3]:
        expected = cli(
            "route", str(path),
            "--from", ",".join(map(repr, start)),
            "--to", ",".join(map(repr, end)),
            "--json",
        ).stdout
        assert route == json.loads(expected)
