"""Mesh.lint(): the same findings, as the same dicts, as `walkmesh lint --json`."""

import json
import subprocess

import pytest

import walkmesh
from conftest import corpus_files, need_corpora, walkmesh_binary


def floor(columns=4, rows=3):
    """A walkable floor of 1 m squares, two triangles each, counter-clockwise from above."""
    vertices = [[x, y, 0.0] for y in range(rows + 1) for x in range(columns + 1)]
    faces = []
    for r in range(rows):
        for c in range(columns):
            a = r * (columns + 1) + c
            b, d = a + 1, a + columns + 1
            faces += [[a, b, d + 1], [a, d + 1, d]]
    return vertices, faces


def test_clean_floor_has_no_findings():
    vertices, faces = floor()
    mesh = walkmesh.Mesh.from_arrays(vertices, faces, materials="Stone")
    assert mesh.lint() == []


def test_downward_face_and_island_are_reported_with_their_faces():
    vertices, faces = floor()
    faces[5] = [faces[5][0], faces[5][2], faces[5][1]]  # face 5 turned to face down
    base = len(vertices)
    vertices += [[20, 20, 1], [21, 20, 1], [21, 21, 1]]
    faces.append([base, base + 1, base + 2])  # face 24: a loose triangle
    mesh = walkmesh.Mesh.from_arrays(vertices, faces, materials="Stone")
    findings = mesh.lint()
    assert [f["code"] for f in findings] == ["lint.downward_walkable", "lint.island"]
    downward, island = findings
    assert downward["faces"] == [5] and downward["fixable"] is True
    assert downward["severity"] == "warning"
    assert downward["at"][2] == 0.0
    assert island["faces"] == [24] and island["fixable"] is False
    assert "0.50 m²" in island["message"]
    with pytest.raises(ValueError):
        mesh.lint(engine="doom")


def test_level_leaves_out_the_pedantic_group():
    vertices, faces = floor()
    base = len(vertices)
    vertices += [[20, 20, 1], [21, 20, 1], [21, 21, 1]]
    faces.append([base, base + 1, base + 2])  # a loose triangle: an island
    mesh = walkmesh.Mesh.from_arrays(vertices, faces, materials="Stone")
    # Islands are what NWN2 bakes hold: pedantic for nwn2, default for kotor.
    assert [f["code"] for f in mesh.lint(engine="kotor")] == ["lint.island"]
    assert mesh.lint(engine="kotor")[0]["level"] == "default"
    assert mesh.lint(engine="nwn2") == []
    pedantic = mesh.lint(engine="nwn2", level="pedantic")
    assert [(f["code"], f["level"]) for f in pedantic] == [("lint.island", "pedantic")]
    with pytest.raises(ValueError):
        mesh.lint(level="loud")


def test_same_dicts_as_the_command_line(tmp_path):
    binary = walkmesh_binary()
    if binary is None:
        pytest.skip("the walkmesh binary is not built (cargo build --release -p walkmesh-cli)")
    vertices, faces = floor()
    faces.append(list(faces[7]))  # a duplicate of face 7
    mesh = walkmesh.Mesh.from_arrays(vertices, faces, materials="Stone")
    path = tmp_path / "dup.wok"
    mesh.write(path)
    result = subprocess.run([binary, "lint", str(path), "--json"], capture_output=True, text=True)
    assert result.returncode == 1, result.stderr
    expected = json.loads(result.stdout)["findings"]
    got = walkmesh.read(path).lint()
    assert got == expected
    assert {f["code"] for f in got} >= {"lint.overlap"}


def test_every_corpus_walkmesh_lints():
    need_corpora()
    files = corpus_files("wok", "trx", "path")
    assert files
    for path in files:
        for finding in walkmesh.read(path).lint():
            assert set(finding) == {
                "code", "severity", "faces", "at", "message", "fixable", "level"
            }


def test_lint_against_a_model_finds_a_lifted_patch_where_it_is():
    """Mesh.lint(model=...) is `walkmesh lint --model`: the floor as its own model is clean,
    a 2 x 2 m patch lifted 0.4 m off it floats, at the patch."""
    vertices, faces = floor(6, 6)
    model = walkmesh.Mesh.from_arrays(vertices, faces, materials="Stone")
    assert [f for f in model.lint(engine="kotor", model=model) if f["code"].startswith("model.")] == []
    lifted = [list(v) for v in vertices]
    for v in lifted:
        if 2 <= v[0] <= 4 and 2 <= v[1] <= 4:
            v[2] = 0.4
    # Only the patch's inner vertex (3, 3) and its ring lift: keep the ring's faces whole by
    # lifting the vertices strictly inside the patch and those on its edge alike.
    mesh = walkmesh.Mesh.from_arrays(lifted, faces, materials="Stone")
    findings = mesh.lint(engine="kotor", model=model)
    floating = [f for f in findings if f["code"] == "model.floating"]
    assert len(floating) == 1, findings
    x, y, _ = floating[0]["at"]
    assert abs(x - 3.0) <= 0.25 and abs(y - 3.0) <= 0.25, floating
    assert floating[0]["level"] == "default" and floating[0]["area"] > 1.0
    with pytest.raises(ValueError):
        mesh.lint(model=model, cell_size=-1.0)
