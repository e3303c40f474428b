"""Compares LYT, VIS, ERF and WOK files written by walkmesh-kotor-area with PyKotor's readers.

For every file in the directory given as argv[1] that has a `<file>.json` sidecar:
  * `.lyt`: PyKotor's read_lyt must give the same rooms, tracks, obstacles (name, position) and
    door hooks (room, door, position, orientation), floats compared as float32 bit patterns;
  * `.vis`: read_vis must give the same visibility (lower-case names, sets of visible rooms);
  * `.mod`/`.erf`/`.rim`: read_erf/read_rim must list the same members (name, type id, size,
    FNV-1a 64 of the bytes), in any order;
  * `.wok`: read_bwm must give the same transitions, as sorted
    [x1, y1, z1, x2, y2, z2, transition] rows of the transition edges' endpoints.
"""
import json
import struct
import sys
from pathlib import Path

from pykotor.resource.formats.bwm import read_bwm
from pykotor.resource.formats.erf import read_erf
from pykotor.resource.formats.lyt import read_lyt
from pykotor.resource.formats.rim import read_rim
from pykotor.resource.formats.vis import read_vis


def f32(x):
    return struct.pack("<f", x)


def same(a, b):
    return len(a) == len(b) and all(f32(x) == f32(y) for x, y in zip(a, b))


def fnv(data):
    h = 0xCBF29CE484222325
    for byte in data:
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def check_lyt(path, want, errors):
    lyt = read_lyt(path.read_bytes())
    for key, got_list in (("rooms", lyt.rooms), ("tracks", lyt.tracks), ("obstacles", lyt.obstacles)):
        expected = want[key]
        if len(got_list) != len(expected):
            errors.append(f"{key}: {len(got_list)} vs {len(expected)}")
            continue
        for got, (name, pos) in zip(got_list, expected):
            p = got.position
            if got.model != name or not same([p.x, p.y, p.z], pos):
                errors.append(f"{key}: {got.model} {p} vs {name} {pos}")
    if len(lyt.doorhooks) != len(want["doorhooks"]):
        errors.append(f"doorhooks: {len(lyt.doorhooks)} vs {len(want['doorhooks'])}")
    for got, (room, door, pos, quat) in zip(lyt.doorhooks, want["doorhooks"]):
        p, q = got.position, got.orientation
        if got.room != room or got.door != door or not same([p.x, p.y, p.z], pos) or not same([q.x, q.y, q.z, q.w], quat):
            errors.append(f"doorhook {got.room} {got.door}: {p} {q} vs {pos} {quat}")


def check_vis(path, want, errors):
    vis = read_vis(path.read_bytes())
    got = {room: sorted(seen) for room, seen in vis}
    expected = {room: sorted(set(children)) for room, children in want["rooms"].items()}
    # PyKotor adds children it has not seen as parents as rooms with no visibility.
    for room, children in got.items():
        if room not in expected and children:
            errors.append(f"extra room {room}: {children}")
    for room, children in expected.items():
        if got.get(room, []) != children:
            errors.append(f"{room}: {got.get(room)} vs {children}")


def check_archive(path, want, errors):
    data = path.read_bytes()
    archive = read_rim(data) if data[:4] == b"RIM " else read_erf(data)
    got = sorted([r.resref.get(), r.restype.type_id, len(r.data), fnv(r.data)] for r in archive)
    expected = sorted([n.lower(), t, s, h] for n, t, s, h in want["members"])
    got = [[n.lower(), t, s, h] for n, t, s, h in got]
    if got != expected:
        diff = [g for g in got if g not in expected][:5]
        errors.append(f"members differ ({len(got)} vs {len(expected)}), e.g. {diff}")


def check_wok(path, want, errors):
    bwm = read_bwm(path.read_bytes())
    rows = []
    for face in bwm.faces:
        corners = [face.v1, face.v2, face.v3]
        for k, trans in enumerate([face.trans1, face.trans2, face.trans3]):
            if trans is None or trans == -1:
                continue
            a, b = corners[k], corners[(k + 1) % 3]
            rows.append([a.x, a.y, a.z, b.x, b.y, b.z, trans])
    key = lambda r: [struct.unpack("<f", f32(x))[0] for x in r[:6]] + [r[6]]
    got = sorted(key(r) for r in rows)
    expected = sorted(key(r) for r in want["transitions"])
    if got != expected:
        errors.append(f"transitions differ: {len(got)} vs {len(expected)}")


def main():
    directory = Path(sys.argv[1])
    passed = failed = 0
    checks = {".lyt": check_lyt, ".vis": check_vis, ".mod": check_archive, ".erf": check_archive, ".rim": check_archive, ".wok": check_wok}
    for sidecar in sorted(directory.glob("*.json")):
        path = sidecar.with_suffix("")
        check = checks.get(path.suffix.lower())
        if check is None or not path.exists():
            continue
        errors = []
        try:
            check(path, json.loads(sidecar.read_text()), errors)
        except Exception as exc:  # a reader failure is a failed check, reported by name
            errors.append(f"{type(exc).__name__}: {exc}")
        if errors:
            failed += 1
            print(f"FAIL {path.name}: {'; '.join(errors[:5])}")
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or passed == 0 else 0)


main()
