"""Independent check of PATH files written by the walkmesh tests.

A `construct` schema of the Metroid Prime 1 PATH layout (version 4, big-endian), written from
the public engine description summarised in docs/formats/prime.md ("Format facts"), parses every file, rebuilds it
byte for byte, and the engine's rules are checked on the parsed data: index = position,
nodes clockwise and convex seen from +Z with inward horizontal normals, links reciprocal with
XY widths and 1/width, ground/flyer tables equal to the connected components over links,
reserved words zero, octree children before parents with all eight valid, every region in
each leaf its box overlaps, octree point lookups equal brute force, 0xFF padding to 32 bytes.

Usage: path_check.py DIR [FILE ...]  — prints "N passed, M failed", exit 1 on any failure.
"""

import math
import os
import random
import struct
import sys

from construct import (
    Array,
    Bytes,
    Computed,
    Const,
    Float32b,
    GreedyBytes,
    Int16ub,
    Int32ub,
    Struct,
    this,
)

Vec3 = Array(3, Float32b)

Node = Struct("position" / Vec3, "normal" / Vec3)
Link = Struct("node" / Int32ub, "region" / Int32ub, "width" / Float32b, "inv_width" / Float32b)
Region = Struct(
    "node_count" / Int32ub,
    "node_start" / Int32ub,
    "link_count" / Int32ub,
    "link_start" / Int32ub,
    "index_mask" / Int16ub,
    "type_mask" / Int16ub,
    "height" / Float32b,
    "normal" / Vec3,
    "index" / Int32ub,
    "centroid" / Vec3,
    "aabb_min" / Vec3,
    "aabb_max" / Vec3,
    "scratch" / Int32ub,
)
OctreeNode = Struct(
    "is_leaf" / Int32ub,
    "aabb_min" / Vec3,
    "aabb_max" / Vec3,
    "center" / Vec3,
    "children" / Array(8, Int32ub),
    "region_count" / Int32ub,
    "region_start" / Int32ub,
)


def table_words(n):
    return (n * (n - 1) // 2 + 31) // 32 if n > 0 else 0


def reserved_words(n):
    return ((n * n + 31) // 32 - table_words(n)) * 2


PATH = Struct(
    "version" / Const(4, Int32ub),
    "node_count" / Int32ub,
    "nodes" / Array(this.node_count, Node),
    "link_count" / Int32ub,
    "links" / Array(this.link_count, Link),
    "region_count" / Int32ub,
    "regions" / Array(this.region_count, Region),
    "words" / Computed(lambda ctx: table_words(ctx.region_count)),
    "ground" / Array(this.words, Int32ub),
    "flyer" / Array(this.words, Int32ub),
    "reserved" / Array(lambda ctx: reserved_words(ctx.region_count), Int32ub),
    "lookup_count" / Int32ub,
    "lookup" / Array(this.lookup_count, Int32ub),
    "octree_count" / Int32ub,
    "octree" / Array(this.octree_count, OctreeNode),
    "padding" / GreedyBytes,
)


def f32(x):
    return struct.unpack(">f", struct.pack(">f", x))[0]


def pair_bit(n, i, j):
    i, j = min(i, j), max(i, j)
    return n * (n - 1) // 2 - (n - i) * (n - i - 1) // 2 + (j - i - 1)


def bit(words, n, i, j):
    b = pair_bit(n, i, j)
    return (words[b // 32] >> (b % 32)) & 1 == 1


def region_nodes(p, r):
    return p.nodes[r.node_start : r.node_start + r.node_count]


def inside(p, r, q):
    """The engine's CPFRegion::IsPointInside."""
    if not all(r.aabb_min[a] <= q[a] <= r.aabb_max[a] for a in range(3)):
        return False
    for node in region_nodes(p, r):
        d = [q[a] - node.position[a] for a in range(3)]
        if sum(d[a] * node.normal[a] for a in range(3)) < 0:
            return False
    n0 = region_nodes(p, r)[0].position
    d = [q[a] - n0[a] for a in range(3)]
    lifted = [d[0], d[1], d[2] - r.height]
    return sum(d[a] * r.normal[a] for a in range(3)) >= 0 and sum(lifted[a] * r.normal[a] for a in range(3)) <= 0


def octree_lookup(p, q):
    i = len(p.octree) - 1
    while True:
        node = p.octree[i]
        if node.is_leaf:
            ids = p.lookup[node.region_start : node.region_start + node.region_count]
            return sorted(set(r for r in ids if inside(p, p.regions[r], q)))
        c = node.center
        k = (q[0] > c[0]) | ((q[1] > c[1]) << 1) | ((q[2] > c[2]) << 2)
        child = node.children[k]
        if child >= i:
            raise AssertionError(f"octree child {child} of node {i} does not come before it")
        i = child


def components(p, mask):
    n = len(p.regions)
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    member = [r.type_mask & mask != 0 for r in p.regions]
    for i, r in enumerate(p.regions):
        if not member[i]:
            continue
        for link in p.links[r.link_start : r.link_start + r.link_count]:
            if member[link.region]:
                a, b = find(i), find(link.region)
                parent[max(a, b)] = min(a, b)
    return [find(i) if member[i] else None for i in range(n)]


def check(data):
    p = PATH.parse(data)
    assert PATH.build(p) == data, "construct rebuild differs"
    assert len(data) % 32 == 0, "not padded to 32 bytes"
    assert all(b == 0xFF for b in p.padding), "padding is not 0xFF"
    n = len(p.regions)
    assert n <= 512, "more than 512 regions"
    links_back = {}
    for i, r in enumerate(p.regions):
        assert r.index == i, f"region {i} index {r.index}"
        assert r.node_count >= 3
        nodes = region_nodes(p, r)
        assert len(nodes) == r.node_count, f"region {i} node range"
        pts = [nd.position for nd in nodes]
        area2 = sum(pts[k][0] * pts[(k + 1) % len(pts)][1] - pts[(k + 1) % len(pts)][0] * pts[k][1] for k in range(len(pts)))
        assert area2 < 0, f"region {i} is not clockwise from above"
        for k, nd in enumerate(nodes):
            a, b = pts[k], pts[(k + 1) % len(pts)]
            dx, dy = b[0] - a[0], b[1] - a[1]
            length = math.hypot(dx, dy)
            expected = (dy / length, -dx / length, 0.0)
            assert all(abs(nd.normal[c] - expected[c]) < 1e-3 for c in range(3)), f"region {i} node {k} normal"
            u = pts[k - 1]
            cross = (a[0] - u[0]) * dy - (a[1] - u[1]) * dx
            scale = math.hypot(a[0] - u[0], a[1] - u[1]) * length
            assert cross <= 1e-4 * scale, f"region {i} is not convex at node {k}"
        nz = r.normal
        assert abs(math.sqrt(sum(c * c for c in nz)) - 1) < 1e-4 and nz[2] > 0, f"region {i} normal"
        for q in pts:
            d = sum((q[a] - pts[0][a]) * nz[a] for a in range(3))
            assert abs(d) < 2e-3, f"region {i} is not flat"
            for z in (q[2], q[2] + r.height):
                qq = (q[0], q[1], z)
                assert all(r.aabb_min[a] - 1e-4 <= qq[a] <= r.aabb_max[a] + 1e-4 for a in range(3)), f"region {i} box"
        for link in p.links[r.link_start : r.link_start + r.link_count]:
            assert link.node < r.node_count and link.region < n and link.region != i
            a, b = pts[link.node], pts[(link.node + 1) % len(pts)]
            width = math.hypot(b[0] - a[0], b[1] - a[1])
            assert abs(link.width - width) <= 1e-4 * max(1, width), f"region {i} link width"
            assert abs(link.inv_width - f32(1 / link.width)) <= 1e-6 * link.inv_width, f"region {i} 1/width"
            links_back.setdefault((i, link.region), []).append(link.width)
    for (i, j), widths in links_back.items():
        back = links_back.get((j, i), [])
        for w in widths:
            assert any(abs(w - v) <= 1e-4 * max(1, w) for v in back), f"link {i}->{j} not reciprocal"
    for name, words, mask in (("ground", p.ground, 1), ("flyer", p.flyer, 3)):
        comp = components(p, mask)
        for i in range(n):
            for j in range(i + 1, n):
                want = comp[i] is not None and comp[i] == comp[j]
                assert bit(words, n, i, j) == want, f"{name} bit {i},{j}"
    assert all(w == 0 for w in p.reserved), "reserved words not zero"
    assert len(p.octree) >= 1
    for idx, node in enumerate(p.octree):
        if node.is_leaf:
            assert node.region_start + node.region_count <= len(p.lookup)
            listed = set(p.lookup[node.region_start : node.region_start + node.region_count])
            for r_i, r in enumerate(p.regions):
                overlaps = all(node.aabb_max[a] >= r.aabb_min[a] and node.aabb_min[a] <= r.aabb_max[a] for a in range(3))
                assert not overlaps or r_i in listed, f"leaf {idx} misses region {r_i}"
        else:
            assert all(c < idx for c in node.children), f"octree node {idx} children"
    rng = random.Random(len(data))
    if n:
        lo = [min(r.aabb_min[a] for r in p.regions) for a in range(3)]
        hi = [max(r.aabb_max[a] for r in p.regions) for a in range(3)]
        for k in range(500):
            if k % 2 == 0:
                r = p.regions[rng.randrange(n)]
                ws = [rng.random() for _ in range(r.node_count)]
                t = sum(ws)
                q = [sum(w * nd.position[a] for w, nd in zip(ws, region_nodes(p, r))) / t for a in range(3)]
                q[2] += rng.random() * r.height
            else:
                q = [lo[a] + (hi[a] - lo[a]) * rng.random() for a in range(3)]
            q = [f32(c) for c in q]
            brute = [i for i in range(n) if inside(p, p.regions[i], q)]
            assert octree_lookup(p, q) == brute, f"point {q}: octree vs brute force"


def main():
    paths = []
    for arg in sys.argv[1:]:
        if os.path.isdir(arg):
            paths += sorted(os.path.join(arg, f) for f in os.listdir(arg) if f.lower().endswith(".path"))
        else:
            paths.append(arg)
    passed = failed = 0
    for path in paths:
        try:
            with open(path, "rb") as fh:
                check(fh.read())
            passed += 1
        except Exception as error:  # noqa: BLE001 - report every failure and go on
            failed += 1
            print(f"FAIL {path}: {error!r}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not paths else 0)


if __name__ == "__main__":
    main()
