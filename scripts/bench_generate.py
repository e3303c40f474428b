#!/usr/bin/env python3
"""`walkmesh generate` against the C++ Recast on one large scene: wall time, CPU time and peak
memory of each as a fresh process, medians of several runs, and the ratios (ours / Recast).

The scene (`terrain_scene` below, Y-up OBJ as a modelling tool exports it): an N x N grid of
0.5 m terrain quads, gently wavy (2 N^2 triangles), with a 1 x 1 m box of 0.5 to 2.5 m every
8 m (12 triangles each); N = 700 gives 1,003,088 triangles on 350 x 350 m. (The peer check's
`recast_scenes.py --big 477`, 1M triangles with a box on every fifth 2 m quad, is no
comparison: the C++ solo-mesh pipeline fails on it, "Recast failed at polygons", its polygon
mesh being limited to 65,535 vertices.) Both get one configuration (RECAST_SETTINGS below):
the peer check's (.ci/peers/recast_compare.py: 0.1 m cells, 0.05 m cell height, agent 1.8 m,
radius 0, climb 0.3 m, 40 degrees), unreachable regions kept since Recast keeps every region.
Runs alternate (ours, Recast, ours, ...) so both see the same machine load.

Two ratios are printed: the whole process (read the OBJ, generate, write the result; what a
user waits for) and the pipeline alone (our report's `total_seconds` against the seconds
recast-reference prints for its pipeline, OBJ reading and writing excluded on both sides).

    cargo build --release -p walkmesh-cli
    (cd tools/recast-reference && RECAST_VENDOR=true \\
        CARGO_TARGET_DIR=../../target/recast-reference cargo build --release)
    python3 scripts/bench_generate.py --runs 5 [--size 700] [--reference PATH] [--walkmesh PATH]

Needs Python 3 on Linux or macOS (os.wait4 for each child's CPU time and peak memory).
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RECAST_SETTINGS = {
    "cell-size": "0.1",
    "cell-height": "0.05",
    "agent-height": "1.8",
    "agent-radius": "0",
    "max-climb": "0.3",
    "max-slope": "40",
    "min-region-area": "0.5",
}


def run_child(command):
    """Runs `command` (output into temporary files); returns its stdout, wall seconds, CPU
    seconds (user + system) and peak resident MiB, from the child's own rusage."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(command, stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text, errors = out.read().decode(), err.read().decode()
    if child.returncode != 0:
        sys.exit(f"bench_generate: {' '.join(map(str, command))} failed "
                 f"({child.returncode}):\n{text}{errors}")
    # ru_maxrss is KiB on Linux, bytes on macOS.
    per_mib = 1024 * 1024 if sys.platform == "darwin" else 1024
    return {
        "stdout": text,
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss_mib": usage.ru_maxrss / per_mib,
    }


def terrain_scene(path, n):
    """The bench scene (see the module text); returns its triangle count."""
    quad, spacing = 0.5, 16  # box every 16 quads = 8 m
    height = lambda i, j: 0.05 * math.sin(i * 0.07) * math.cos(j * 0.05)
    with open(path, "w") as out:
        for j in range(n + 1):
            out.write("".join(f"v {i * quad:.3f} {height(i, j):.5f} {j * quad:.3f}\n"
                              for i in range(n + 1)))
        row = n + 1
        faces = []
        for j in range(n):
            for i in range(n):
                a = j * row + i + 1
                faces.append(f"f {a} {a + row} {a + row + 1}\nf {a} {a + row + 1} {a + 1}\n")
        out.write("".join(faces))
        base = (n + 1) * (n + 1)
        boxes = 0
        for bj in range(spacing // 2, n, spacing):
            for bi in range(spacing // 2, n, spacing):
                x0, z0 = bi * quad, bj * quad
                top = 0.5 + (bi + bj) % 5 * 0.5
                corners = [(x, y, z) for y in (0.0, top) for z in (z0, z0 + 1) for x in (x0, x0 + 1)]
                out.write("".join(f"v {x:.3f} {y:.3f} {z:.3f}\n" for x, y, z in corners))
                v = lambda k: base + boxes * 8 + k + 1
                # bottom 0-3 (y = 0), top 4-7; outward, counter-clockwise from outside (Y up)
                quads = [(4, 6, 7, 5), (0, 1, 3, 2), (0, 4, 5, 1), (1, 5, 7, 3), (3, 7, 6, 2),
                         (2, 6, 4, 0)]
                out.write("".join(f"f {v(a)} {v(b)} {v(c)}\nf {v(a)} {v(c)} {v(d)}\n"
                                  for a, b, c, d in quads))
                boxes += 1
    return 2 * n * n + 12 * boxes


def options():
    return [word for key, value in RECAST_SETTINGS.items() for word in (f"--{key}", value)]


def load_average():
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", type=int, default=700)
    parser.add_argument("--walkmesh", default=str(ROOT / "target/release/walkmesh"))
    parser.add_argument("--reference",
                        default=str(ROOT / "target/recast-reference/release/recast-reference"))
    args = parser.parse_args()
    for binary in (args.walkmesh, args.reference):
        if not Path(binary).is_file():
            sys.exit(f"bench_generate: {binary} is not built (see the usage above)")
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        scene = folder / "big.obj"
        made = terrain_scene(scene, args.size)
        print(f"scene: {made} triangles, {args.size * 0.5:.0f} m square", flush=True)
        ours_out, theirs_out = folder / "big.ours.obj", folder / "big.recast.obj"
        ours_cmd = [args.walkmesh, "generate", str(scene), "-o", str(ours_out), "--engine",
                    "generic", "--keep-unreachable", "--json", *options()]
        theirs_cmd = [args.reference, str(scene), str(theirs_out), *options()]
        ours, theirs = [], []
        print(f"load average before: {load_average()}", flush=True)
        for run in range(args.runs):
            a = run_child(ours_cmd)
            report = json.loads(a["stdout"])["report"]
            a["pipeline"] = report["total_seconds"]
            a["stages"] = {stage["stage"]: stage["seconds"] for stage in report["stages"]}
            b = run_child(theirs_cmd)
            printed = json.loads(b["stdout"])
            b["pipeline"] = printed["seconds"]
            triangles = printed["input_triangles"]
            ours.append(a)
            theirs.append(b)
            print(f"run {run + 1}: ours {a['wall']:.2f} s wall, {a['cpu']:.2f} s CPU, "
                  f"{a['rss_mib']:.0f} MiB, pipeline {a['pipeline']:.2f} s; Recast "
                  f"{b['wall']:.2f} s wall, {b['cpu']:.2f} s CPU, {b['rss_mib']:.0f} MiB, "
                  f"pipeline {b['pipeline']:.2f} s", flush=True)
        print(f"load average after: {load_average()}")
        median = lambda rows, key: statistics.median(r[key] for r in rows)
        print(f"\nscene: {triangles} triangles (--size {args.size}), settings {RECAST_SETTINGS}, "
              f"{args.runs} runs, medians\n")
        print("| | wall s | CPU s | peak MiB | pipeline s |")
        print("|---|---|---|---|---|")
        for name, rows in (("walkmesh generate", ours), ("C++ Recast (recast-reference)", theirs)):
            print(f"| {name} | {median(rows, 'wall'):.2f} | {median(rows, 'cpu'):.2f} | "
                  f"{median(rows, 'rss_mib'):.0f} | {median(rows, 'pipeline'):.2f} |")
        ratio = lambda key: median(ours, key) / max(median(theirs, key), 1e-9)
        print(f"| ratio ours / Recast | {ratio('wall'):.2f} | {ratio('cpu'):.2f} | "
              f"{ratio('rss_mib'):.2f} | {ratio('pipeline'):.2f} |")
        stages = ", ".join(
            f"{name} {statistics.median(r['stages'].get(name, 0.0) for r in ours):.2f} s"
            for name in ours[0]["stages"])
        print(f"\nour stages (median wall seconds): {stages}")


if __name__ == "__main__":
    main()
