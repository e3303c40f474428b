"""Every shared WOK read by this package and by PyKotor (an independent pure-Python reader,
PyPI pykotor 2.3.12): the same faces (as vertex positions, bit for bit in float32), surface
materials, transitions and placement. Skipped with a notice without the corpora or PyKotor."""

import numpy as np
import pytest

import walkmesh
from conftest import corpus_files, need_corpora

# PyKotor's pure-Python reader is slow on the largest files; beyond this many faces they are
# compared on a face sample (every face's material and transitions still).
FULL_COMPARE_MAX_FACES = 60_000


def pykotor_reader():
    try:
        from pykotor.resource.formats.bwm import read_bwm
    except ImportError:
        pytest.skip("pykotor is not installed (pip install pykotor==2.3.12): skipped")
    return read_bwm


def compare_with_pykotor(path, read_bwm):
    ours = walkmesh.read(path)
    theirs = read_bwm(path.read_bytes())
    problems = []
    faces = ours.faces
    if faces is None or len(theirs.faces) != len(faces):
        return [f"{len(theirs.faces)} faces in PyKotor, {ours.face_count} here"]
    positions = ours.vertices[faces]  # M×3×3 float32
    codes = ours.material_codes
    transitions = ours.transitions
    theirs_positions = np.array(
        [[[c.x, c.y, c.z] for c in (f.v1, f.v2, f.v3)] for f in theirs.faces], dtype=np.float32
    )
    if not np.array_equal(positions.view(np.uint32), theirs_positions.view(np.uint32)):
        bad = np.argwhere((positions != theirs_positions).any(axis=(1, 2)))[:3].ravel().tolist()
        problems.append(f"face corners differ (first faces {bad})")
    theirs_codes = np.array([f.material.value for f in theirs.faces])
    if not np.array_equal(codes, theirs_codes):
        problems.append(f"materials differ at faces {np.argwhere(codes != theirs_codes)[:3].ravel().tolist()}")
    theirs_transitions = np.array(
        [[-1 if t is None else t for t in (f.trans1, f.trans2, f.trans3)] for f in theirs.faces]
    )
    if not np.array_equal(transitions, theirs_transitions):
        problems.append(
            f"transitions differ at faces {np.argwhere((transitions != theirs_transitions).any(axis=1))[:3].ravel().tolist()}"
        )
    position = theirs.position
    if not np.array_equal(np.float32(ours.origin), np.float32([position.x, position.y, position.z])):
        problems.append(f"origin {ours.origin} != PyKotor position {position}")
    return problems


def test_every_shared_wok_reads_the_same_in_pykotor():
    need_corpora()
    read_bwm = pykotor_reader()
    files = corpus_files("wok")
    assert files, "the shared corpora hold no .wok"
    failures = {}
    for path in files:
        problems = compare_with_pykotor(path, read_bwm)
        if problems:
            failures[str(path)] = problems
    print(f"PyKotor comparison: {len(files) - len(failures)} of {len(files)} WOK files identical")
    assert not failures, failures
