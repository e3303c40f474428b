#!/usr/bin/env python3
"""Writes a "gently uneven floor with holes" as OBJ, for PATH cook scaling runs (issue #24).

A square grid of unit cells, each split into two triangles (diagonals alternate), corners
jittered sideways by up to 0.2 and in height by up to 0.01 (well inside the cooker's default
0.05 height tolerance), with a 4x4-cell square hole every 40 cells in both directions.

    scripts/gen_floor.py TRIANGLES OUT.obj [--seed N] [--down]

--down writes every face with reversed winding (facing down), the wrong-winding case.
"""
import argparse
import math
import random

HOLE_PERIOD = 40
HOLE_SIZE = 4


def in_hole(i, j):
    return (i % HOLE_PERIOD) >= HOLE_PERIOD - HOLE_SIZE and (j % HOLE_PERIOD) >= HOLE_PERIOD - HOLE_SIZE


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("triangles", type=int)
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--down", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    # Holes remove HOLE_SIZE² of every HOLE_PERIOD² cells; size the grid for the target count.
    kept = 1.0 - (HOLE_SIZE * HOLE_SIZE) / (HOLE_PERIOD * HOLE_PERIOD)
    side = max(1, round(math.sqrt(args.triangles / (2.0 * kept))))
    with open(args.out, "w") as out:
        out.write(f"# gently uneven floor, {side}x{side} cells, seed {args.seed}\n")
        lines = []
        for j in range(side + 1):
            for i in range(side + 1):
                edge = i in (0, side) or j in (0, side)
                dx = 0.0 if edge else rng.uniform(-0.2, 0.2)
                dy = 0.0 if edge else rng.uniform(-0.2, 0.2)
                z = rng.uniform(-0.01, 0.01)
                lines.append(f"v {i + dx:.5f} {z:.5f} {-(j + dy):.5f}\n")
            if len(lines) > 10000:
                out.writelines(lines)
                lines = []
        out.writelines(lines)
        lines = []
        count = 0
        for j in range(side):
            for i in range(side):
                if in_hole(i, j):
                    continue
                a = j * (side + 1) + i + 1
                b, c, d = a + 1, a + side + 2, a + side + 1
                tris = [(a, b, c), (a, c, d)] if (i + j) % 2 == 0 else [(a, b, d), (b, c, d)]
                for t in tris:
                    if args.down:
                        t = (t[0], t[2], t[1])
                    lines.append(f"f {t[0]} {t[1]} {t[2]}\n")
                    count += 1
            if len(lines) > 10000:
                out.writelines(lines)
                lines = []
        out.writelines(lines)
    print(f"{count} triangles, {side}x{side} cells")


if __name__ == "__main__":
    main()
